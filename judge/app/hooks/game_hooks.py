"""The game hooks: where a game's variant and house rules take part in the flow, and which a game has.

A variant with its own flow (the councils of seed 003; Blind or Machiavelli
next) is one implementation of :class:`GameHooks`; an ordinary game's is
:class:`PlainHooks`. :func:`hooks_for` resolves a game's hooks from its
settings, with no query, so an ordinary game pays one look at a dictionary
for them and nothing else. Callers ask the hooks; no module outside this
room and the implementations tests which variant a game plays
(``tests/app/test_game_hooks.py`` fails if such a test comes back).

The house rules that act when a phase is processed (``SET END YEAR``,
``SET CD AFTER``, ``SET CD SENSIBLE``: :mod:`judge.app.game_state.house_rules`) are hook points of
every implementation: a council game may have them too.

Each hook point, and who calls it:

========================  ==========================================================
``before_due``            :func:`judge.app.phases.scheduler.handle_due`, first
``holds_processing``      the same, before it processes a phase that is due
``wake_at``               :func:`judge.app.phases.planning.plan` and ``handle_due``
``civil_disorder``        :func:`judge.app.phases.processing.process_phase` (CD AFTER)
``civil_disorder_orders`` the same, before the ruling (CD SENSIBLE / CD HOLD, SET BOT)
``ends_after``            the same (END YEAR)
``after_eliminations``    the same, when powers leave the board
``next_phase_times``      the same, before the results announce the next deadline
``after_phase_opened``    the same, once the next phase is open
``opening_position``      :func:`judge.app.games.lifecycle.start_game`, the first phase's kept board
``deal_powers``           the same
``on_game_started``       the same, once the first phase is open
``announce_start``        :func:`judge.app.reports.game_start.queue_game_starting`
``final_summary_lines``   :func:`judge.app.reports.final_summary.final_summary_lines`
``own_commands``          the variant's own commands (COUNCIL, VOTE, ACCUSE...), refused elsewhere
``own_options``           the SET handlers: the variant's own SET options (SET MONEY...), refused elsewhere
``parameter_lines``       LIST's parameter block and the Game Starting mail: the variant's own settings
``option_words``          the reply's ``::`` header, LIST's "Variant and options" and the console: the
                          variant's own options beside its name, as a plain game's (Gunboat) are shown
``centre_words``          the final summary, SUMMARY and the web page: what the variant's victory counts
``starting_lines``        the Game Starting mail: the opening board as the variant sets it up
``members_sign_on``       the SIGNON handler: each member of a power signs on alone
``join_refusal``          the SIGNON handler, ``SIGNON ?game`` on a started game
``member``                RESIGN, SET ADDRESS: who is signed on, as a power's member
``send_press``            the PRESS handler
``check_order`` …         the order lines, IF blocks, CLEAR, SET DRAW, SET WAIT, SET CONCEDE
``order_line_reader``     the mail reader (:mod:`judge.app.mail_in.worker`): a variant's own order lines
``take_sheet_line``       the handler of such a line (:mod:`judge.app.handlers.sheet_line`)
``orders_kept_as_text``   the SIGNON handler: whether the judge's order acknowledgement ends the reply
``rule_phase``            :func:`judge.app.phases.processing.process_phase`, where the judge's ruling is made
``take_block``            the IF and PHASE handlers: a variant that refuses or reads them itself
``orders_completeness``   :func:`judge.app.phases.planning.phase_clock` (early processing, reminders, lateness)
                          and :func:`judge.app.phases.processing.owing_powers` (who owes orders)
========================  ==========================================================
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

from judge.app.audience.results_readers import ResultsReader
from judge.app.councils.council_hooks import CouncilHooks
from judge.app.game_state.assignment import Preference
from judge.app.game_state.centre_words import CentreWords
from judge.app.game_state.house_rules import StandIns
from judge.app.game_state.order_sheets import Completeness
from judge.app.game_state.plain_hooks import PlainHooks
from judge.app.game_state.variant_ruling import VariantRuling
from judge.app.machiavelli.machiavelli_hooks import MachiavelliHooks, plays_the_renaissance_game
from judge.app.session.mail_session import MailSession
from judge.app.session.services import Services
from judge.core.adjudicator.rules import Rules
from judge.core.geography import GameMap
from judge.core.orders import Order
from judge.core.phase import Phase, PhaseType
from judge.core.position import Position
from judge.db.database import UnitOfWork
from judge.db.models import CouncilMember, Game, Seat
from judge.db.repositories.councils import councils_enabled
from judge.i18n import Gettext
from judge.lang.commands import Conditional, PhaseCommand, Press, SheetLineCommand
from judge.lang.mail import LineReader
from judge.timekeeping.deadlines import PhaseTimes


class GameHooks(Protocol):
    """What a game's variant and house rules do at each point of the flow (see the module's table)."""

    # -- the scheduler and planning

    def before_due(self, uow: UnitOfWork, services: Services, game: Game, now: datetime) -> None:
        """A due game is about to be handled, before its orders are read."""

    def holds_processing(self, uow: UnitOfWork, services: Services, game: Game, now: datetime) -> bool:
        """Whether a phase the clock would process now must wait."""

    def wake_at(self, uow: UnitOfWork, game: Game, planned: datetime | None) -> datetime | None:
        """When the scheduler must look at the game, given what the clock alone says (``planned``)."""

    # -- processing a phase

    def civil_disorder(
        self, game: Game, position: Position, owing: Iterable[str], submitted: Iterable[str], late: Iterable[str]
    ) -> set[str]:
        """The powers put in civil disorder by this processing (``late``: the clock's choice)."""

    def civil_disorder_orders(
        self, game: Game, position: Position, newly_in_civil_disorder: Iterable[str], ordered: Iterable[str],
        game_map: GameMap, rules: Rules,
    ) -> StandIns:
        """The orders the powers without a player and without orders on file play (CD SENSIBLE, SET BOT)."""

    def ends_after(self, game: Game, next_phase: Phase) -> bool:
        """Whether the game ends before ``next_phase`` although nobody won."""

    def after_eliminations(
        self, uow: UnitOfWork, services: Services, game: Game, now: datetime, eliminated: Sequence[str]
    ) -> None:
        """Powers left the board in this processing."""

    def next_phase_times(
        self, game: Game, times: PhaseTimes, now: datetime, phase: Phase, next_phase: Phase
    ) -> PhaseTimes:
        """The next phase's times as the results will announce them."""

    def after_phase_opened(
        self, uow: UnitOfWork, services: Services, game: Game, now: datetime, phase: Phase, next_phase: Phase
    ) -> None:
        """``next_phase`` is open, ``phase`` processed."""

    # -- the game's start and end

    def opening_position(self, game: Game, game_map: GameMap) -> dict[str, Any]:
        """The position the game's first phase keeps (JSON), which the start opens."""

    def deal_powers(
        self, uow: UnitOfWork, game: Game, seats: Sequence[Seat], preferences: Mapping[int, Preference],
        powers: Sequence[str], seed: int, now: datetime, first_year: int,
    ) -> dict[int, str]:
        """``{seat id: power}``: who plays which power when the game starts."""

    def on_game_started(self, uow: UnitOfWork, game: Game, now: datetime, first_year: int) -> None:
        """The game's first phase is open."""

    def announce_start(self, session: MailSession, game: Game) -> None:
        """The start's own notices, queued after everyone's "game starting" mail."""

    def final_summary_lines(
        self, uow: UnitOfWork, game: Game, outcome: Mapping[str, Any] | None, language: str, _: Gettext
    ) -> list[str]:
        """The variant's part of the final summary."""

    # -- the players' commands

    @property
    def own_commands(self) -> frozenset[str]:
        """The commands the variant adds (COUNCIL, VOTE...): refused in a game whose variant lacks them."""

    @property
    def own_options(self) -> frozenset[str]:
        """The SET options the variant plays itself (MONEY, MACH2...): refused in a game whose variant lacks them."""

    def parameter_lines(self, game: Game, _: Gettext) -> list[str]:
        """The variant's own settings, each a line, as LIST's parameter block and the start mail show them."""

    def option_words(self, game: Game) -> list[str]:
        """The variant's own options that make this game differ from the variant's default, each a
        word (the Renaissance game's ``NoDice``...), shown beside the variant's name and a plain
        game's options wherever those are (none: an ordinary game, whose options are its ``rule_options``)."""

    @property
    def centre_words(self) -> CentreWords:
        """How the reports name what the variant's victory counts (supply centres; the Renaissance game's cities)."""

    def starting_lines(self, game: Game, game_map: GameMap, language: str) -> list[str] | None:
        """The units of the opening board, a line each, as the Game Starting mail lists them to every
        reader (None: the ordinary board's armies and fleets); only what all players may see."""

    @property
    def members_sign_on(self) -> bool:
        """Whether each member of a power signs on alone, with a password of his own (the council kind)."""

    def join_refusal(self, game: Game, _: Gettext) -> str | None:
        """Why ``SIGNON ?game`` may not take over a power of the started game (None: it may)."""

    def member(self, session: MailSession) -> CouncilMember | None:
        """The member of a power the mail is signed on as (None: the power's player, or nobody)."""

    def send_press(self, session: MailSession, command: Press) -> bool:
        """Route ``command`` the variant's way; False when the ordinary press rules apply."""

    def check_order(self, session: MailSession) -> None:
        """Refuse (raise ``CommandRefused``) orders the signed-on sender may not give."""

    def check_draw(self, session: MailSession) -> None:
        """Refuse a draw vote the sender may not cast."""

    def check_wait(self, session: MailSession) -> None:
        """Refuse SET WAIT / NOWAIT from a sender who may not set it."""

    def check_concede(self, session: MailSession) -> None:
        """Refuse a concession the sender may not make."""

    def order_line_reader(
        self, game: Game, game_map: GameMap, phase_type: PhaseType | None, french: bool
    ) -> LineReader | None:
        """The variant's own reader of order lines kept as text (None: the judge's order reader)."""

    def take_sheet_line(self, session: MailSession, command: SheetLineCommand) -> None:
        """Keep an order line the variant's reader gave (refuse it where no variant reads so)."""

    def rule_phase(
        self, game: Game, kept: Mapping[str, Any], sheets: Mapping[str, Sequence[str]],
        readers: Callable[[], Mapping[str, ResultsReader]],
    ) -> VariantRuling | None:
        """The phase of ``kept`` played by the variant with each power's kept ``sheets`` and its results
        for each reader of ``readers()`` (None: the judge rules the orders itself,
        :func:`judge.ruling.rule_orders`)."""

    @property
    def orders_kept_as_text(self) -> bool:
        """Whether the variant keeps its orders as sent and acknowledges them itself (the judge's
        acknowledgement of the orders on file, which reads them as its own orders, is not given)."""

    def take_block(self, session: MailSession, command: Conditional | PhaseCommand) -> bool:
        """An IF block or a PHASE line in the variant's game: refuse it (raise ``CommandRefused``),
        or take it (True: the judge's own handling is skipped); False: the judge's handling."""

    def orders_completeness(
        self, game: Game, position: Position, kept: Mapping[str, Any], power: str, sheet: Sequence[str] | None,
        orders: Callable[[], Sequence[Order]], game_map: GameMap,
    ) -> Completeness:
        """What ``power`` still owes for the phase of ``position`` (kept as ``kept``): ``sheet``, the
        lines of its kept orders (None: none kept), ``orders()``, the judge's reading of them (asked
        only by the rule that needs it). A phase is processed early when every power that owes
        orders has complete ones."""


PLAIN: GameHooks = PlainHooks()
COUNCILS: GameHooks = CouncilHooks()
MACHIAVELLI: GameHooks = MachiavelliHooks()


def hooks_for(game: Game | None) -> GameHooks:
    """The hooks of ``game`` (an ordinary game's when there is none); reads the game's settings, no table.

    The hooks keep no state of their own: the implementations are made once, at import.
    """
    if game is not None and councils_enabled(game):
        return COUNCILS
    if game is not None and plays_the_renaissance_game(game):
        return MACHIAVELLI
    return PLAIN


def opening_phase(game_map: GameMap) -> Phase:
    """The phase a new game of ``game_map``'s variant opens with, as its hooks set the game up
    (a game not yet created: no house rule, the variant's own options' defaults)."""
    game = Game(name="", variant=game_map.name)
    return Phase.parse(str(hooks_for(game).opening_position(game, game_map)["phase"]))

