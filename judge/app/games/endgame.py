"""Ending a game: a win, a draw or a concession makes it FINISHED, scores it and tells everyone.

Three ways in, one way out:

* the phase processing finds a power at the winning count (it marks the
  game finished and calls :func:`after_processing`);
* a draw vote passes, or a concession (``SET DRAW``/``SET CONCEDE``, through
  :func:`end_by_agreement`).

:func:`finish` then makes the game FINISHED (no deadline, nothing due),
clears the votes, records the outcome with its scores in
``extra_settings["outcome"]`` (kind, powers, final centres, the scoring
system and each power's score, exact and as shown) and builds the
end-of-game notice: one mail per reader language to every player (the
eliminated too), master and observer, with the Judge's subject (``Victory:
F``, ``Draw Declared: AEF``, ``Game Conceded to F``) and the final summary
(:mod:`judge.app.reports.final_summary`). It returns the notices; the caller
sends them — a handler through its session, the processing through the
outbox — so nothing is mailed unless the change is committed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from judge.app.audience.council_members import game_end_readers
from judge.app.game_state.agreements import Agreement, Passed
from judge.app.game_state.game_facts import mailed_observers, power_letter
from judge.app.game_state.house_rules import ends_after, survivors
from judge.app.game_state.scoring import (
    FinalResult,
    ResultKind,
    ScoringError,
    score,
    shown,
    system_named,
)
from judge.app.game_state.setting_table import end_year
from judge.app.game_state.variant_rules import game_map_of
from judge.app.mail_out import outbox
from judge.app.reports.final_summary import final_summary_lines
from judge.app.session.mail_session import MailSession, Outgoing
from judge.app.session.readers import person_address
from judge.app.session.services import Services
from judge.core.position import Position
from judge.db.database import UnitOfWork
from judge.db.enums import GameState
from judge.db.models import Game
from judge.i18n import translation
from judge.mail.compose import game_subject

OUTCOME_KEY = "outcome"
SCORING_KEY = "scoring"


@dataclass(frozen=True)
class Notice:
    """One end-of-game mail: its recipients (readers of one language), subject and body."""

    to: tuple[str, ...]
    subject: str
    body: str


def final_centres(game: Game, position: Position) -> dict[str, int]:
    """Every power of the game with its supply centres in ``position`` (0 if none), in the map's order."""
    return {power: len(position.centers.get(power, ())) for power in game_map_of(game).powers}


def subject_event(game: Game, result: FinalResult | None) -> str:
    """The Judge's subject for the end: ``Victory: F``, ``Draw Declared: AEF``, ``Game Conceded to F``."""
    if result is None:
        return "Game Over"
    letters = "".join(power_letter(game, power) for power in result.winners)
    if result.kind is ResultKind.SOLO:
        return f"Victory: {letters}"
    if result.kind is ResultKind.CONCESSION:
        return f"Game Conceded to {letters}"
    return f"Draw Declared: {letters}"


def readers(game: Game) -> dict[str, list[str]]:
    """Everyone who hears that the game is over, by language: players (eliminated too), masters, observers.

    In a council game, every member who ever sat (those who left too: the final summary tells
    the councils' story and names the winners, a spy who stopped playing among them)."""
    groups: dict[str, list[str]] = {}
    seen: set[str] = set()

    def add(language: str, addresses: Sequence[str]) -> None:
        for address in addresses:
            if address and address.lower() not in seen:
                seen.add(address.lower())
                groups.setdefault(language, []).append(address)

    for reader in game_end_readers(game):  # the players (a council game's: every member who ever sat)
        add(reader.language, [reader.address])
    for master in game.masters:
        add(master.person.language, [person_address(master.person) or ""])
    for observer in mailed_observers(game):
        add(observer.person.language if observer.person else "en", [observer.address])
    return groups


def record_outcome(game: Game, result: FinalResult | None, *, ended_year: int | None = None) -> None:
    """Keep how the game ended and its scores (under the game's system) in ``extra_settings``.

    ``ended_year``: the game ended because it reached its last year (``SET
    END YEAR``), recorded as ``"ended": "end_year"`` and ``"year"``.
    """
    if result is None:
        return
    try:
        system = system_named(game.extra_settings.get(SCORING_KEY))
    except ScoringError:
        system = system_named(None)  # a misspelt setting must not stop a game from ending
    scores = score(result, system.key)
    game.extra_settings = {
        **game.extra_settings,
        OUTCOME_KEY: {
            "kind": result.kind.value,
            "powers": list(result.winners),
            "centres": dict(result.centres),
            "scoring": system.key,
            "scores": {power: str(points) for power, points in scores.items()},
            "shown_scores": {power: shown(points) for power, points in scores.items()},
            **({"ended": "end_year", "year": ended_year} if ended_year is not None else {}),
        },
    }


def finish(
    uow: UnitOfWork, services: Services, game: Game, now: datetime, result: FinalResult | None,
    *, ended_year: int | None = None,
) -> list[Notice]:
    """End ``game`` with ``result`` (None: over without a winner) and return the end-of-game notices."""
    game.state = GameState.FINISHED
    game.finished_at = now
    game.deadline_at = game.grace_at = game.earliest_at = None
    uow.games.set_next_due(game, None)
    uow.press.clear_votes(game)
    record_outcome(game, result, ended_year=ended_year)
    uow.flush()
    event = "Game Over" if ended_year is not None else subject_event(game, result)  # no vote: no "Draw Declared"
    subject = game_subject(services.config.code, game.name, event, game.current_phase)
    notices = []
    for language, to in readers(game).items():
        lines = final_summary_lines(
            uow, game, language=language, zone=services.config.timezone, _=translation(language).gettext
        )
        notices.append(Notice(tuple(to), subject, "\n".join(lines).rstrip() + "\n"))
    return notices


def end_by_agreement(session: MailSession, game: Game, position: Position, passed: Passed) -> None:
    """A draw or concession vote passed: end the game and queue the notices with the mail's reply."""
    kind = ResultKind.DRAW if passed.agreement is Agreement.DRAW else ResultKind.CONCESSION
    result = FinalResult(kind, passed.powers, final_centres(game, position))
    for notice in finish(session.uow, session.services, game, session.now, result):
        session.send(Outgoing(notice.to, notice.subject, notice.body, game_id=game.id))


def after_processing(
    uow: UnitOfWork, services: Services, game: Game, now: datetime, position: Position, winner: str | None
) -> None:
    """The processing ended the game (``winner`` reached the winning count, or nobody is left playing).

    Called by :func:`judge.app.phases.processing.process_phase` after it queued the
    results, so the Victory notice and final summary follow the results mail.
    """
    result = None
    last_year = end_year(game)
    if winner is not None:
        result = FinalResult(ResultKind.SOLO, (winner,), final_centres(game, position))
    elif last_year is not None and ends_after(game, position.phase):
        # SET END YEAR: scored as a draw of the powers still on the board (seed 002's tournament games).
        alive = survivors(position, game_map_of(game).powers)
        if alive:
            result = FinalResult(ResultKind.DRAW, alive, final_centres(game, position))
    ended_year = last_year if result is not None and result.kind is ResultKind.DRAW else None
    for notice in finish(uow, services, game, now, result, ended_year=ended_year):
        outbox.queue(uow, services, notice.to, notice.subject, notice.body, now, game_id=game.id)
