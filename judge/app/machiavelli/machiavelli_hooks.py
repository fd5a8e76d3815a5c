"""The game hooks of the Renaissance game (issue 33): where its flow differs from an ordinary game's.

:func:`judge.app.hooks.game_hooks.hooks_for` picks :class:`MachiavelliHooks` for a game whose
variant is one of the scenarios of :mod:`judge.core.machiavelli.board`
(:func:`plays_the_renaissance_game`). At the start, the game opens with the scenario's first
phase as the Renaissance core keeps it (the adjustments of 1453, with the garrisons and the
treasuries), not with the plain board of its map. Its order lines are read by its own reader
and kept as sent (:mod:`judge.app.machiavelli.sheet_mail`). Its master's options (``SET MONEY``,
``SET MACHIAVELLI SECOND``...: :mod:`judge.app.machiavelli.game_options`) are its own SET options,
shown in its parameters, and reach the core at the start and in every phase. Every other point
is an ordinary game's: the house rules it may have, and nothing more.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from judge.app.audience.results_readers import ResultsReader
from judge.app.game_state.centre_words import CentreWords
from judge.app.game_state.order_sheets import Completeness
from judge.app.game_state.plain_hooks import PlainHooks
from judge.app.game_state.variant_ruling import VariantRuling
from judge.app.machiavelli.final_standing import CITIES, standing_lines
from judge.app.machiavelli.game_options import (
    OWN_OPTIONS,
    changed_words,
    game_options,
    option_words,
    set_name,
)
from judge.app.machiavelli.opening_board import opening_lines
from judge.app.machiavelli.orders_complete import sheet_completeness
from judge.app.machiavelli.phase_ruling import rule_renaissance_phase
from judge.app.machiavelli.sheet_mail import add_line, take_block
from judge.app.machiavelli.stored_phase import opening_json
from judge.app.session.mail_session import MailSession
from judge.core.geography import GameMap
from judge.core.machiavelli.board import SCENARIO_DIRECTORY, load_board
from judge.core.orders import Order
from judge.core.phase import PhaseType
from judge.core.position import Position
from judge.core.variants import SCENARIO_DIRECTORIES
from judge.db.database import UnitOfWork
from judge.db.models import Game
from judge.i18n import Gettext
from judge.lang.commands import Conditional, PhaseCommand, SheetLineCommand
from judge.lang.machiavelli_sheet import SheetLineReader
from judge.lang.mail import LineReader


def plays_the_renaissance_game(game: Game) -> bool:
    """Whether ``game``'s variant is a scenario of the Renaissance game (read from the variant's
    name and the scenarios' table, no query)."""
    return SCENARIO_DIRECTORIES.get((game.variant or "").strip().lower()) == SCENARIO_DIRECTORY


class MachiavelliHooks(PlainHooks):
    """A game of the Renaissance game: its own opening, orders, ruling and options; the house rules."""

    def opening_position(self, game: Game, game_map: GameMap) -> dict[str, Any]:
        # the garrisons (unless NO GARRISONS), the treasuries (unless NO MONEY), W1453
        return opening_json(load_board(game.variant), game_options(game))

    def starting_lines(self, game: Game, game_map: GameMap, language: str) -> list[str] | None:
        # field units and garrisons (the autonomous ones together), never a treasury: all read it
        return opening_lines(opening_json(load_board(game.variant), game_options(game)), game_map, language)

    @property
    def own_options(self) -> frozenset[str]:
        return OWN_OPTIONS

    def parameter_lines(self, game: Game, _: Gettext) -> list[str]:
        options = game_options(game)
        named = {
            "FIRST": _("the first edition's"), "SECOND": _("the second edition's"), "BASIC": _("the basic game's"),
        }.get(set_name(options) or "")
        words = ", ".join(option_words(options))
        if named is None:
            return [_("Machiavelli options: {words}.").format(words=words)]
        return [_("Machiavelli options ({set}): {words}.").format(set=named, words=words)]

    def option_words(self, game: Game) -> list[str]:
        # what differs from the first edition, as LIST writes it: "Variant: Machiavelli NoDice NoSummer"
        return changed_words(game_options(game))

    @property
    def centre_words(self) -> CentreWords:
        return CITIES  # what its victory counts: cities (villes), never supply centres

    def order_line_reader(
        self, game: Game, game_map: GameMap, phase_type: PhaseType | None, french: bool
    ) -> LineReader | None:
        if phase_type is None:  # not started: no orders to read
            return None
        return SheetLineReader(game_map, phase_type, french)  # orders kept as sent, money and all

    def take_sheet_line(self, session: MailSession, command: SheetLineCommand) -> None:
        add_line(session, command)

    @property
    def orders_kept_as_text(self) -> bool:
        return True  # the sheet's receipt (judge.app.machiavelli.order_receipt) acknowledges them

    def final_summary_lines(
        self, uow: UnitOfWork, game: Game, outcome: Mapping[str, Any] | None, language: str, _: Gettext
    ) -> list[str]:
        return standing_lines(uow, game, language, _)  # what its victory counts, for every power

    def take_block(self, session: MailSession, command: Conditional | PhaseCommand) -> bool:
        return take_block(session, command)  # refused: its orders are the open phase's lines

    def orders_completeness(
        self, game: Game, position: Position, kept: Mapping[str, Any], power: str, sheet: Sequence[str] | None,
        orders: Callable[[], Sequence[Order]], game_map: GameMap,
    ) -> Completeness:
        # every unit and garrison, by its rules and the game's options
        return sheet_completeness(game.variant, kept, power, sheet, game_options(game))

    def rule_phase(
        self, game: Game, kept: Mapping[str, Any], sheets: Mapping[str, Sequence[str]],
        readers: Callable[[], Mapping[str, ResultsReader]],
    ) -> VariantRuling | None:
        return rule_renaissance_phase(game, kept, sheets, readers)
