"""A phase of the Renaissance game processed by the judge: its hooks' ``rule_phase``.

:func:`judge.app.phases.processing.process_phase` hands over the kept position and each power's
kept sheet (the lines it sent, :mod:`judge.app.machiavelli.sheet_mail`); the phase is played by
:func:`judge.app.machiavelli.stored_phase.play_stored_phase` with the game's options
(:func:`judge.app.machiavelli.game_options.game_options`), its dice seeded by the game (its id
and name; the core mixes in the phase), and each reader gets the results
:func:`judge.app.machiavelli.stored_phase.results_for` allows: the public results, and the books of
the powers :func:`judge.app.audience.machiavelli_books.books_readable` lets him read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from judge.app.audience.results_readers import ResultsReader
from judge.app.game_state.variant_ruling import VariantRuling
from judge.app.machiavelli.game_options import game_options
from judge.app.machiavelli.season_report import order_text
from judge.app.machiavelli.stored_phase import (
    Reader,
    StoredSheet,
    cities_held,
    play_stored_phase,
    results_for,
)
from judge.core.machiavelli.board import load_board
from judge.db.models import Game
from judge.i18n import LANGUAGES
from judge.maps.machiavelli_layer import drawing_to_json, season_drawing


def game_seed(game: Game) -> str:
    """The seed of every roll of ``game``'s dice: the same game replays the same."""
    return f"{game.id}:{game.name}"


def rule_renaissance_phase(
    game: Game,
    kept: Mapping[str, Any],
    sheets: Mapping[str, Sequence[str]],
    readers: Callable[[], Mapping[str, ResultsReader]],
) -> VariantRuling:
    """Play the open phase of ``game`` from what is kept; what to keep and mail (``readers``:
    who reads the results, asked once the phase is played)."""
    board = load_board(game.variant)
    audience = readers()
    stored = {
        power: StoredSheet(tuple(lines), french=_writes_french(power, audience))
        for power, lines in sheets.items()
    }
    played = play_stored_phase(board, kept, stored, game_options(game), seed=game_seed(game))
    mails = results_for(
        played, board,
        {address: Reader(reader.power, reader.master, reader.language) for address, reader in audience.items()},
    )  # fmt: skip
    # What HISTORY shows anyone later: the public results (no power's books), in every language.
    public = {
        language: played.texts(board, language).for_reader(frozenset()) for language in LANGUAGES
    }
    results = {
        "report": public,
        "sheets": {power: list(lines) for power, lines in sorted(sheets.items())},
        "unread": {power: list(lines) for power, lines in played.unread.items()},
        "stand_ins": {power: [order_text(o) for o in given] for power, given in sorted(played.stand_ins.items())},
        "seed": game_seed(game),
        # Every die of the phase, for the master's audit (judge game show); never mailed to a player.
        "rolls": [roll.to_json() for roll in played.result.rolls],
        "eliminated": list(played.result.eliminated),
        "winner": played.winner,
        # The phase's orders as its map draws them (judge.app.mail_out.results_maps): public, as
        # the results are (no money, no books).
        "drawing": drawing_to_json(season_drawing(played.result)),
    }
    return VariantRuling(
        position_after=played.position, results=results, mails=mails,
        eliminated=played.result.eliminated, winner=played.winner,
        languages={address: reader.language for address, reader in audience.items()},
        centres=cities_held(board, played.result.position),
    )  # fmt: skip


def _writes_french(power: str, readers: Mapping[str, ResultsReader]) -> bool:
    """Whether the power's player reads French: his lines were read with the French forms."""
    return any(reader.power == power and reader.language == "fr" for reader in readers.values())
