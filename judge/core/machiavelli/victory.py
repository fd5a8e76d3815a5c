"""Who has won a game of the Renaissance game: the rules' victory, checked once a campaign is over.

A power wins when it controls at least the scenario's number of cities (its map's victory count:
15 in the standard scenario of 1454) and holds at least two home countries (its own and another,
or two others: :func:`~judge.core.machiavelli.campaign.countries_held`). The Judge's rules check
it when a campaign ends, control settled; so does the judge. Two powers qualifying at once: the
one with more cities wins; a tie at the top is no win (as the plain game's tie at the winning
count). Pure.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Final

from judge.core.machiavelli.board import MachiavelliBoard
from judge.core.machiavelli.campaign import MachiavelliPosition, countries_held

HOME_COUNTRIES_TO_WIN: Final = 2
"""The home countries a winner holds, his own or conquered."""


@dataclass(frozen=True, slots=True)
class Standing:
    """A power's part of the board for the victory: its cities and the home countries it holds."""

    cities: int
    countries: tuple[str, ...]


def standings(board: MachiavelliBoard, position: MachiavelliPosition) -> dict[str, Standing]:
    """Every power of the board with its cities controlled and the home countries it holds."""
    cities = Counter(owner for city, owner in position.control.cities.items() if city in board.cities)
    held = countries_held(board, position)
    return {
        power: Standing(
            cities[power], tuple(sorted(country for country, holder in held.items() if holder == power))
        )
        for power in board.game_map.powers
    }


def winner(board: MachiavelliBoard, position: MachiavelliPosition) -> str | None:
    """The power that has won in ``position`` (None: nobody yet)."""
    needed = board.game_map.win_centers
    qualified = sorted(
        (
            (standing.cities, power)
            for power, standing in standings(board, position).items()
            if standing.cities >= needed and len(standing.countries) >= HOME_COUNTRIES_TO_WIN
        ),
        reverse=True,
    )
    if not qualified or (len(qualified) > 1 and qualified[1][0] == qualified[0][0]):
        return None
    return qualified[0][1]
