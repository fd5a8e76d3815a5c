"""A phase of the Renaissance game played from what the judge keeps, and its results for each reader.

The judge keeps a game's position as the core's JSON
(:func:`judge.core.machiavelli.serialization.position_to_json`) and each power's orders as the
lines it sent (read again at the deadline by :func:`judge.lang.machiavelli_sheet.read_sheet`,
the reader that answered the player). :func:`play_stored_phase` reads both, plays the phase with
the core's one step (:func:`judge.core.machiavelli.season.play_phase`), its dice seeded by the
game's seed and the phase, and returns the position to keep and the results' texts;
every position kept (:func:`kept_json`) carries, beside the core's JSON, each power's cities as
its ``centers``: what the judge's reports read of any game's board (SUMMARY's cities by year);
:func:`results_for` gives each reader the text he may read (the books allowed by
:func:`judge.app.audience.machiavelli_books.books_readable`). No database and no clock here:
the caller reads and stores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from judge.app.audience.machiavelli_books import books_readable, dice_readable
from judge.app.machiavelli.season_report import SeasonTexts, season_texts
from judge.core.machiavelli.board import MachiavelliBoard
from judge.core.machiavelli.campaign import MachiavelliPosition, opening_position
from judge.core.machiavelli.disorder import upkeep_in_disorder
from judge.core.machiavelli.money import finances
from judge.core.machiavelli.options import FIRST_EDITION, MachiavelliOptions
from judge.core.machiavelli.season import SeasonOrder, SeasonResult, play_phase
from judge.core.machiavelli.serialization import position_from_json, position_to_json
from judge.core.machiavelli.victory import standings, winner
from judge.core.phase import PhaseType
from judge.core.serialization import centers_to_json
from judge.i18n import translation
from judge.lang.machiavelli_sheet import read_sheet


@dataclass(frozen=True, slots=True)
class StoredSheet:
    """A power's orders as kept: the lines it sent, and whether it writes French."""

    lines: tuple[str, ...]
    french: bool = False


@dataclass(frozen=True, slots=True)
class PlayedPhase:
    result: SeasonResult
    position: dict[str, Any]
    """The position after, as the judge keeps it (the next phase's)."""
    unread: Mapping[str, Sequence[str]]
    """Each power's sheet lines the reader refused (told in its books)."""
    stand_ins: Mapping[str, tuple[SeasonOrder, ...]] = field(default_factory=dict)
    """The orders the judge gave the powers that sent none (:mod:`judge.core.machiavelli.disorder`)."""
    winner: str | None = None
    """The power that won when this phase ended a campaign (:mod:`judge.core.machiavelli.victory`)."""

    def texts(self, board: MachiavelliBoard, language: str) -> SeasonTexts:
        """The results' texts in ``language``."""
        won = None if self.winner is None else (self.winner, standings(board, self.result.position)[self.winner])
        return season_texts(
            self.result, board.game_map, language, translation(language).gettext, self.unread, winner=won
        )


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads a results mail: the power he plays (None: none) and whether he is a master."""

    power: str | None = None
    master: bool = False
    language: str = "en"


def cities_held(board: MachiavelliBoard, position: MachiavelliPosition) -> dict[str, frozenset[str]]:
    """Each power's cities in ``position``: the cities it controls, what the game's victory counts."""
    control = position.control.cities
    return {
        power: frozenset(city for city, owner in control.items() if owner == power and city in board.cities)
        for power in board.game_map.powers
    }


def kept_json(board: MachiavelliBoard, position: MachiavelliPosition) -> dict[str, Any]:
    """``position`` as the judge keeps it: the core's JSON, and each power's cities as the
    ``centers`` of the ``judge adjudicate`` format (the core's reader leaves them; the plain
    reader, :func:`judge.app.game_state.boards.from_json`, reads them as any board's centres)."""
    kept = position_to_json(position)
    kept["centers"] = centers_to_json(cities_held(board, position))
    return kept


def opening_json(
    board: MachiavelliBoard, options: MachiavelliOptions = FIRST_EDITION
) -> dict[str, Any]:
    """The position a new game opens with: the scenario's first phase (the adjustments of 1453,
    when income is first collected) with its units, garrisons and treasuries."""
    start = opening_position(board, options)
    money = finances(board, start) if options.money else None
    return kept_json(board, replace(start, phase=board.first_phase, money=money))


def play_stored_phase(
    board: MachiavelliBoard,
    position: Mapping[str, Any],
    sheets: Mapping[str, StoredSheet],
    options: MachiavelliOptions = FIRST_EDITION,
    *,
    seed: str,
) -> PlayedPhase:
    """Play the phase of the kept ``position`` with each power's kept sheet; ``seed``: the game's."""
    before = position_from_json(board, position)
    orders: dict[str, Sequence[SeasonOrder]] = {}
    unread: dict[str, list[str]] = {}
    for power in sorted(sheets):
        if power not in board.game_map.powers:
            continue
        sheet = read_sheet(
            sheets[power].lines, board.game_map, before.phase.type, french=sheets[power].french
        )
        orders[power] = sheet.orders
        if sheet.errors:
            unread[power] = [line.text for line in sheet.errors]
    stand_ins: dict[str, tuple[SeasonOrder, ...]] = {}
    if before.phase.type is PhaseType.ADJUSTMENT and options.money:
        for power in board.game_map.powers:
            if power not in sheets:  # nothing sent: it keeps what it can pay for
                stand_ins[power] = upkeep_in_disorder(board, before, power)
    orders.update({power: given for power, given in stand_ins.items() if given})
    result = play_phase(board, before, orders, options, seed=seed)
    ended = result.retreated or (
        result.campaign is not None and result.position.phase.type is not PhaseType.RETREAT
    )
    return PlayedPhase(
        result, kept_json(board, result.position), unread,
        {power: given for power, given in stand_ins.items() if given},
        winner(board, result.position) if ended else None,
    )  # fmt: skip


def results_for(
    played: PlayedPhase, board: MachiavelliBoard, readers: Mapping[str, Reader]
) -> dict[str, str]:
    """``{address: the results mail's text}`` in each reader's language: everyone the public
    results, each power's books to the readers :func:`books_readable` allows, the phase's dice to
    those :func:`dice_readable` allows."""
    texts: dict[str, SeasonTexts] = {}
    mailed: dict[str, str] = {}
    powers = board.game_map.powers
    for address, reader in readers.items():
        if reader.language not in texts:
            texts[reader.language] = played.texts(board, reader.language)
        readable = books_readable(powers, power=reader.power, master=reader.master)
        mailed[address] = texts[reader.language].for_reader(
            readable, dice=dice_readable(master=reader.master)
        )
    return mailed
