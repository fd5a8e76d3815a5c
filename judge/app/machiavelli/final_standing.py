"""The Renaissance game's part of the final summary: each power's cities and the home countries it
held when the game ended, the two numbers its victory counts (:mod:`judge.core.machiavelli.victory`).
Only what the results already told everyone; no treasury (a power's books stay private)."""

from __future__ import annotations

from judge.app.game_state.centre_words import CentreWords
from judge.core.machiavelli.board import load_board
from judge.core.machiavelli.serialization import position_from_json
from judge.core.machiavelli.victory import standings
from judge.db.database import UnitOfWork
from judge.db.models import Game
from judge.i18n import N_, Gettext

CITIES = CentreWords(
    won=N_("Game '{game}' is over: {power} has won with {count} cities."),
    by_year=N_("Cities at the end of each year:"),
    column=N_("Cities"),
)
"""What the Renaissance game's victory counts, as its reports name it: cities, never supply centres."""


def standing_lines(uow: UnitOfWork, game: Game, language: str, _: Gettext) -> list[str]:
    """``Cities and home countries at the end:`` then one line a power (none: no phase played)."""
    played = [record for record in uow.phases.history(game) if record.position_after]
    if not played:
        return []
    board = load_board(game.variant)
    position = position_from_json(board, played[-1].position_after)
    lines = ["", _("Cities and home countries at the end:")]
    for power, standing in standings(board, position).items():
        countries = ", ".join(board.game_map.power_display_name(c, language) for c in standing.countries) or "-"
        lines.append(
            _("  {power}: {cities} cities; home countries: {countries}").format(
                power=board.game_map.power_display_name(power, language), cities=standing.cities,
                countries=countries,
            )
        )  # fmt: skip
    return lines
