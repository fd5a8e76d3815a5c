"""The final summary of a finished game: how it ended, the SUMMARY report, the scores, the diaries.

Sent to everyone who was in the game when it ends (a win, a draw or a
concession), in each reader's language. It is built from the SUMMARY report
(:func:`judge.app.reports.summary_text.summary_lines`: players by tenure, centres
by year; gunboat identities revealed unless the game is NoReveal), the
outcome :mod:`judge.app.games.endgame` recorded in ``extra_settings["outcome"]``
(scores under the game's scoring system) and the diaries, which are
published when a game is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from zoneinfo import ZoneInfo

from judge.app.game_state.centre_words import SUPPLY_CENTRES, CentreWords
from judge.app.game_state.game_facts import power_name
from judge.app.game_state.scoring import SYSTEMS
from judge.app.hooks.game_hooks import hooks_for
from judge.app.reports.history_text import published_diaries
from judge.app.reports.summary_text import summary_lines
from judge.db.database import UnitOfWork
from judge.db.models import Game
from judge.i18n import Gettext


def names(powers: list[str] | tuple[str, ...], language: str, _: Gettext) -> str:
    """``Austria, England and France`` in the reader's language."""
    shown = [power_name(p, language) for p in powers]
    if len(shown) <= 1:
        return "".join(shown)
    return _("{first} and {last}").format(first=", ".join(shown[:-1]), last=shown[-1])


def outcome_line(game: Game, outcome: Mapping[str, Any] | None, language: str, _: Gettext) -> str:
    """One sentence: who won, who drew, to whom it was conceded."""
    if outcome is None:
        return _("Game '{game}' is over.").format(game=game.name)
    powers = list(outcome.get("powers", []))
    kind = outcome.get("kind")
    if kind == "solo" and powers:
        count = int(outcome.get("centres", {}).get(powers[0], 0))
        return _(hooks_for(game).centre_words.won).format(  # supply centres; the Renaissance game's cities
            game=game.name, power=power_name(powers[0], language), count=count
        )
    if kind == "concession" and powers:
        return _("Game '{game}' is over: it has been conceded to {power}.").format(
            game=game.name, power=power_name(powers[0], language)
        )
    if kind == "draw" and powers and outcome.get("ended") == "end_year":
        return _(
            "Game '{game}' is over: it reached the end of {year}, its last year (SET END YEAR), "
            "and is scored as a draw between {powers}."
        ).format(game=game.name, year=outcome.get("year"), powers=names(powers, language, _))
    if kind == "draw" and powers:
        return _("Game '{game}' is over: it has been declared a draw between {powers}.").format(
            game=game.name, powers=names(powers, language, _)
        )
    return _("Game '{game}' is over.").format(game=game.name)


def score_table(
    outcome: Mapping[str, Any], language: str, _: Gettext, words: CentreWords = SUPPLY_CENTRES
) -> list[str]:
    """``Scores (C-Diplo):`` then each power's final centres (``words.column``) and score."""
    scores: Mapping[str, str] = outcome.get("shown_scores", {})
    centres: Mapping[str, int] = outcome.get("centres", {})
    if not scores:
        return []
    system = SYSTEMS.get(str(outcome.get("scoring")))
    title = _(system.name) if system is not None else str(outcome.get("scoring"))
    width = max(len(power_name(p, language)) for p in centres) + 2
    power_word, centres_word, score_word = _("Power"), _(words.column), _("Score")
    width = max(width, len(power_word) + 2)
    lines = [
        _("Scores ({system}):").format(system=title),
        f"  {power_word:<{width}}{centres_word:>8}{score_word:>9}",
    ]
    for power, count in centres.items():
        lines.append(f"  {power_name(power, language):<{width}}{count:>8}{scores.get(power, '0'):>9}")
    return lines


def final_summary_lines(
    uow: UnitOfWork, game: Game, *, language: str, zone: ZoneInfo, _: Gettext
) -> list[str]:
    """The whole final summary of ``game`` for one reader (the game must already be over)."""
    outcome = game.extra_settings.get("outcome")
    lines = [outcome_line(game, outcome, language, _), ""]
    lines += summary_lines(uow, game, viewer_is_master=False, language=language, zone=zone, _=_)
    if outcome is not None:
        table = score_table(outcome, language, _, hooks_for(game).centre_words)
        if table:
            lines += ["", *table]
    lines += hooks_for(game).final_summary_lines(uow, game, outcome, language, _)  # councils: every spy revealed
    diaries = published_diaries(uow, game, language, _)
    if diaries:
        lines += ["", _("The diaries of the game, now published:"), "", *diaries]
    lines += ["", _("The game is over. Thank you for playing.")]
    return lines
