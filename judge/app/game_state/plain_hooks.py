"""The ordinary game's part in the flow: the default of every game hook (the protocol is
:class:`judge.app.hooks.game_hooks.GameHooks`). A variant's hooks (the councils', the Renaissance
game's) inherit these and override only the points where the variant acts, so a new hook point has
its default written once, here."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from judge.app.audience.results_readers import ResultsReader
from judge.app.game_state.assignment import Preference, assign_powers
from judge.app.game_state.centre_words import SUPPLY_CENTRES, CentreWords
from judge.app.game_state.house_rules import HouseRuleHooks
from judge.app.game_state.order_sheets import Completeness, completeness
from judge.app.game_state.variant_rules import plain_opening
from judge.app.game_state.variant_ruling import VariantRuling
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.services import Services
from judge.core.geography import GameMap
from judge.core.orders import Order
from judge.core.phase import Phase, PhaseType
from judge.core.position import Position
from judge.db.database import UnitOfWork
from judge.db.models import CouncilMember, Game, Seat
from judge.i18n import Gettext
from judge.lang.commands import Conditional, PhaseCommand, Press, SheetLineCommand
from judge.lang.mail import LineReader
from judge.timekeeping.deadlines import PhaseTimes


class PlainHooks(HouseRuleHooks):
    """An ordinary game: the house rules it has, and nothing else at any point (``on_game_started``
    and ``after_phase_opened`` are the house rules' alone: SET BOTS's bots give their orders)."""

    def before_due(self, uow: UnitOfWork, services: Services, game: Game, now: datetime) -> None:
        return None

    def holds_processing(self, uow: UnitOfWork, services: Services, game: Game, now: datetime) -> bool:
        return False

    def wake_at(self, uow: UnitOfWork, game: Game, planned: datetime | None) -> datetime | None:
        return planned

    def after_eliminations(
        self, uow: UnitOfWork, services: Services, game: Game, now: datetime, eliminated: Sequence[str]
    ) -> None:
        return None

    def next_phase_times(
        self, game: Game, times: PhaseTimes, now: datetime, phase: Phase, next_phase: Phase
    ) -> PhaseTimes:
        return times

    def opening_position(self, game: Game, game_map: GameMap) -> dict[str, Any]:
        return plain_opening(game, game_map)

    def deal_powers(
        self, uow: UnitOfWork, game: Game, seats: Sequence[Seat], preferences: Mapping[int, Preference],
        powers: Sequence[str], seed: int, now: datetime, first_year: int,
    ) -> dict[int, str]:
        return assign_powers(preferences, powers, random.Random(seed))

    def announce_start(self, session: MailSession, game: Game) -> None:
        return None

    def final_summary_lines(
        self, uow: UnitOfWork, game: Game, outcome: Mapping[str, Any] | None, language: str, _: Gettext
    ) -> list[str]:
        return []

    @property
    def own_commands(self) -> frozenset[str]:
        return frozenset()

    @property
    def own_options(self) -> frozenset[str]:
        return frozenset()

    def parameter_lines(self, game: Game, _: Gettext) -> list[str]:
        return []

    def option_words(self, game: Game) -> list[str]:
        return []

    @property
    def centre_words(self) -> CentreWords:
        return SUPPLY_CENTRES

    def starting_lines(self, game: Game, game_map: GameMap, language: str) -> list[str] | None:
        return None

    @property
    def members_sign_on(self) -> bool:
        return False

    def join_refusal(self, game: Game, _: Gettext) -> str | None:
        return None

    def member(self, session: MailSession) -> CouncilMember | None:
        return None

    def send_press(self, session: MailSession, command: Press) -> bool:
        return False

    def check_order(self, session: MailSession) -> None:
        return None

    def check_draw(self, session: MailSession) -> None:
        return None

    def check_wait(self, session: MailSession) -> None:
        return None

    def check_concede(self, session: MailSession) -> None:
        return None

    def order_line_reader(
        self, game: Game, game_map: GameMap, phase_type: PhaseType | None, french: bool
    ) -> LineReader | None:
        return None

    def take_sheet_line(self, session: MailSession, command: SheetLineCommand) -> None:
        raise CommandRefused(session.gettext("Orders must follow a SIGNON."))  # never read so here

    def rule_phase(
        self, game: Game, kept: Mapping[str, Any], sheets: Mapping[str, Sequence[str]],
        readers: Callable[[], Mapping[str, ResultsReader]],
    ) -> VariantRuling | None:
        return None

    @property
    def orders_kept_as_text(self) -> bool:
        return False

    def take_block(self, session: MailSession, command: Conditional | PhaseCommand) -> bool:
        return False

    def orders_completeness(
        self, game: Game, position: Position, kept: Mapping[str, Any], power: str, sheet: Sequence[str] | None,
        orders: Callable[[], Sequence[Order]], game_map: GameMap,
    ) -> Completeness:
        return completeness(position, power, orders(), game_map)
