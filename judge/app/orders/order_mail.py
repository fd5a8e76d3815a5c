"""What one mail does to orders: collected while its commands run, stored once at its end.

Order lines, IF blocks, PHASE and CLEAR each have a handler; they share this
per-mail state (an :class:`OrderMail`, kept by ``session.keep_state``). Each order is checked as it comes
(against the board for the current phase, for form only for a later phase)
and merged into the power's sheet in memory; when the mail has been read, a
finisher stores each changed sheet as one new version, sets or clears the
power's error flag (the Judge: a mail with an error anywhere leaves the
orders incomplete), writes the acknowledgement under the reply, and asks the
scheduler when the game is next due (early processing once all orders are in).
"""

from __future__ import annotations

import bisect
import functools
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from judge.app.audience.blind_view import session_view
from judge.app.game_state import order_sheets as kept
from judge.app.game_state.boards import from_json
from judge.app.game_state.conditions import block_orders
from judge.app.game_state.game_rules import game_rules
from judge.app.game_state.variant_rules import game_map_of
from judge.app.hooks.game_hooks import hooks_for
from judge.app.mail_out.wording import phase_name
from judge.app.phases.planning import plan
from judge.app.reports.acknowledgement import Acknowledgement, render_acknowledgement
from judge.app.session.error_text import error_text
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.core.adjudicator import Rules
from judge.core.adjudicator.board import Board
from judge.core.adjudicator.validation import interpret
from judge.core.errors import CoreError
from judge.core.geography import GameMap
from judge.core.names import province_display_name
from judge.core.orders import Order
from judge.core.phase import Phase, PhaseType
from judge.core.position import Position
from judge.core.units import UnitRef, UnitType, province_of
from judge.db.enums import GameState, OrderBlockKind, SeatStatus
from judge.db.models import Game, Seat
from judge.lang.commands import Conditional, OrderCommand
from judge.mail.compose import subject_phase

MAX_YEARS_AHEAD = 5
"""The Judge stored orders for phases at most five years ahead."""
GONE = (SeatStatus.RESIGNED, SeatStatus.ELIMINATED)


@dataclass
class PowerDraft:
    """One power's sheets as this mail changes them."""

    seat: Seat
    sheet: kept.OrderSheet
    stored: kept.SeatOrders
    changed: bool = False
    touched: bool = False
    futures: dict[Phase, kept.OrderSheet] = field(default_factory=dict)
    changed_futures: set[Phase] = field(default_factory=set)
    effective: tuple[kept.OrderSheet, list[Order], kept.Completeness] | None = None
    """The sheet last worked out by :func:`_effective`, its orders and completeness."""


@dataclass
class OrderMail:
    game: Game
    turn: int
    """The open phase's turn in the game's timeline."""
    position: Position
    game_map: GameMap
    rules: Rules
    drafts: dict[str, PowerDraft] = field(default_factory=dict)
    phase_lines: set[int] = field(default_factory=set)
    phase_starts: list[int] | None = None
    """The numbers of the mail's lines that start with PHASE (found on first need)."""
    refused_phase: bool = False
    settled: bool = False
    board: Board | None = None
    """The position indexed for checking orders (made on first need, read-only)."""
    prefetched: dict[int, kept.SeatOrders] = field(default_factory=dict)
    """Stored orders read with the phase, by seat id, until the seat's draft takes them."""

    @property
    def phase(self) -> Phase:
        return self.position.phase


def begin(session: MailSession) -> OrderMail:
    """This mail's order state, created (with its finisher) by the first order-area command."""
    _ = session.gettext
    state = session.state_of(OrderMail)
    if state is not None:
        return state
    game = session.game
    if game is None or session.role is None:
        raise CommandRefused(_("Orders must follow a SIGNON."))
    if game.state is not GameState.ACTIVE:
        raise CommandRefused(_("Game '{game}' is not taking orders now.").format(game=game.name))
    seat = session.seat
    prefetched: dict[int, kept.SeatOrders] = {}
    if seat is not None and seat.game_id == game.id and seat.power is not None and seat.power == session.acting_power:
        # The phase and the orders of the power signed on as, in one query (issue 14).
        found = kept.open_phase_and_orders(session.uow, game, seat)
        if found is None:
            raise CommandRefused(_("Game '{game}' is not taking orders now.").format(game=game.name))
        turn, stored = found.turn, found.position
        if found.orders is not None:
            prefetched[seat.id] = found.orders
    else:
        board = session.uow.phases.open_board(game)
        if board is None:
            raise CommandRefused(_("Game '{game}' is not taking orders now.").format(game=game.name))
        _phase_id, turn, stored = board
    state = OrderMail(game, turn, _position(stored), game_map_of(game), game_rules(game), prefetched=prefetched)
    session.keep_state(state)
    session.finishers.append(lambda: finish(session, state))
    return state


@functools.lru_cache(maxsize=64)
def _position(stored: str) -> Position:
    """The board a phase's stored ``position_before`` text describes.

    Kept per text (issue 14: read again for every order mail of a phase, the board was a tenth
    of the worker's CPU with its query). The key is the whole text, so nothing can go stale: a
    phase whose board differs has another text. Positions are immutable values."""
    return from_json(json.loads(stored))


def acting(session: MailSession) -> tuple[OrderMail, PowerDraft]:
    """The mail's order state and the draft of the power the sender orders for."""
    _ = session.gettext
    state = begin(session)
    if session.role is Role.OBSERVER:
        raise CommandRefused(_("Observers cannot give orders."))
    power = session.acting_power
    if power is None:
        if session.role is Role.MASTER:
            raise CommandRefused(_("A master must BECOME a power before giving its orders."))
        raise CommandRefused(_("Orders must follow a SIGNON."))
    draft = state.drafts.get(power)
    if draft is None:
        seat = _seat(session, state.game, power)
        if seat is None or seat.status in GONE:
            raise CommandRefused(_("You no longer play a power in this game."))
        stored = state.prefetched.pop(seat.id, None)
        if stored is None or stored.epoch != state.game.epoch:
            stored = kept.seat_orders(session.uow, state.game, seat, state.phase)
        draft = PowerDraft(seat, kept.sheet_of(stored.current, state.game_map, state.phase), stored)
        state.drafts[power] = draft
    return state, draft


def _seat(session: MailSession, game: Game, power: str) -> Seat | None:
    """The power's seat: the one the sign-on opened when it is that power's (no query), else looked up."""
    seat = session.seat
    if seat is not None and seat.game_id == game.id and seat.power == power:
        return seat
    return session.uow.seats.by_power(game, power)


def target_phase(session: MailSession, state: OrderMail, line: int) -> Phase | None:
    """The later phase the orders on ``line`` are for (None: the current phase).

    Orders after a PHASE line that was not accepted (unreadable, past, too
    far ahead) are refused, as the Judge ignored them.
    """
    _ = session.gettext
    if state.refused_phase or _after_unread_phase(session, state, line):
        raise CommandRefused(_("Ignored: these orders follow a PHASE line that was not accepted."))
    phase = session.future_phase
    if phase is None or phase == state.phase:
        return None
    return phase


def _after_unread_phase(session: MailSession, state: OrderMail, line: int) -> bool:
    """Whether the last line starting with PHASE before ``line`` was not accepted."""
    if state.phase_starts is None:  # found once per mail (issue 14: was a scan back per order)
        state.phase_starts = [
            number for number, text in enumerate(session.body_lines, start=1)
            if text.split(None, 1)[:1] and text.split(None, 1)[0].lower() == "phase"
        ]
    before = bisect.bisect_left(state.phase_starts, min(line, len(session.body_lines)))
    return before > 0 and state.phase_starts[before - 1] not in state.phase_lines


Target = tuple["OrderMail", "PowerDraft", Phase | None]
"""What an order line was found to be for: the mail's order state, the power's draft, and the
later phase it is for (None: the current one), as :func:`acting` and :func:`target_phase` say."""


def add_order(session: MailSession, command: OrderCommand, target: Target | None = None) -> None:
    """Check one order and merge it into the power's sheet (current or later phase).

    ``target``: :func:`acting` and :func:`target_phase` for this line, as the caller worked
    them out just before (nothing ran between), or None to work them out here."""
    if target is None:
        state, draft = acting(session)
        if command.read is None:
            return
        later = target_phase(session, state, command.line)
    else:
        state, draft, later = target
        if command.read is None:
            return
    draft.touched = True
    if later is not None:
        order = kept.adapt(command.read.order, later.type)
        sheet = future_sheet(session, state, draft, later)
        draft.futures[later] = sheet.with_order(order)
        draft.changed_futures.add(later)
        return
    order = kept.adapt(command.read.order, state.phase.type)
    _check(session, state, draft, order, command.read.text)
    _note_unit_type(session, state, command.line, order)
    draft.sheet = draft.sheet.with_order(order)
    if state.rules.surplus_adjustments == "last":  # seed 002's "first" keeps them all: the first legal count
        draft.sheet = draft.sheet.trimmed(state.position, draft.seat.power or "")
    draft.changed = True


def add_block(session: MailSession, block: Conditional) -> None:
    """Keep an IF block, in place of the earlier blocks that order one of its units; for the
    current phase its orders are checked against the board now, and one illegal order refuses
    the whole block (the sheet, earlier blocks included, stays as it was)."""
    state, draft = acting(session)
    later = target_phase(session, state, block.line)
    draft.touched = True
    if later is not None:
        sheet = future_sheet(session, state, draft, later)
        _note_replaced(session, block, sheet.replaced_by(block), state.game_map)
        draft.futures[later] = sheet.with_block(block)
        draft.changed_futures.add(later)
        return

    problems = 0
    for command in block_orders(block):
        if command.read is None:
            continue
        order = kept.adapt(command.read.order, state.phase.type)
        try:
            _check(session, state, draft, order, command.read.text)
        except CommandRefused as refusal:
            session.reply.error(command.line, refusal.message)
            problems += 1
    if problems:
        _ = session.gettext
        raise CommandRefused(
            _("The IF block was not kept (your earlier orders and blocks stay): correct the orders in it and send it again.")
        )
    _note_replaced(session, block, draft.sheet.replaced_by(block), state.game_map)
    draft.sheet = draft.sheet.with_block(block)
    draft.changed = True


def _note_replaced(session: MailSession, block: Conditional, replaced: Sequence[Conditional], game_map: GameMap) -> None:
    """Say under the block's line which earlier blocks it replaces, by the units they share."""
    if not replaced:
        return
    _ = session.gettext
    shared = kept.block_units(block) & frozenset().union(*(kept.block_units(old) for old in replaced))
    session.reply.ok(
        block.line,
        _("This IF block replaces your earlier IF block for {units}.").format(
            units=units_text(shared, session.language, game_map, _)
        ),
    )


def units_text(provinces: Iterable[str], language: str, game_map: GameMap, _: Callable[[str], str]) -> str:
    """Provinces named for a reader, in their language, in alphabetical order."""
    names = sorted(
        _("builds and removals") if code == kept.ADJUSTMENT_LIST
        else province_display_name(code, "fr" if language == "fr" else "en", game_map)
        for code in provinces
    )  # fmt: skip
    return ", ".join(names)


def _note_unit_type(session: MailSession, state: OrderMail, line: int, order: Order) -> None:
    """The order names its unit with the wrong type (``F Paris - Picardy`` for an army): the
    order stands for the unit that is there (DATC 4.B.5, as :func:`_check` found it legal), and
    the reply says so under the line, so that the player knows what was read."""
    ref = getattr(order, "unit", None)
    board = state.board
    if not isinstance(ref, UnitRef) or ref.type is None or board is None or state.phase.type is PhaseType.RETREAT:
        return  # (in a retreat phase the unit in the province is not the one ordered, the dislodged one)
    unit = board.unit_at.get(board.where.get(ref.location) or province_of(ref.location))
    if unit is None or unit.type is ref.type:
        return
    _ = session.gettext
    place = province_display_name(unit.province, "fr" if session.language == "fr" else "en", state.game_map)
    if unit.type is UnitType.ARMY:
        note = _("There is an army in {place}, not a fleet: the order was read for the army.")
    else:
        note = _("There is a fleet in {place}, not an army: the order was read for the fleet.")
    session.reply.ok(line, note.format(place=place))


def _check(session: MailSession, state: OrderMail, draft: PowerDraft, order: Order, text: str) -> None:
    """What :func:`judge.core.adjudicator.validate` says of the order, on the mail's one board
    (issue 14: validate indexes the position again for every order; the board is read-only)."""
    power = draft.seat.power or ""
    board = state.board
    if board is None:
        board = state.board = Board(state.position, state.game_map)
    if _names_a_unit_out_of_sight(session, state, order):
        return  # Fog of War: nothing is told of a unit the power does not see; the adjudication decides
    problem: CoreError | None = None
    try:
        interpret(board, power, order, state.rules)
    except CoreError as error:  # an OrderError (what validate returns), or any other CoreError
        problem = error
    if problem is not None:
        raise CommandRefused(f"{text}: {error_text(problem, session.language, state.game_map)}")


def _names_a_unit_out_of_sight(session: MailSession, state: OrderMail, order: Order) -> bool:
    """Whether ``order`` supports or convoys a unit in a province the sender does not see (Fog of
    War, :mod:`judge.app.audience.blind_view`): such an order is taken as written, unchecked, so
    that the reply tells nothing of what stands there; it is adjudicated as usual."""
    other = getattr(order, "supported", None) or getattr(order, "convoyed", None)
    if not isinstance(other, UnitRef):
        return False
    view = session_view(session, state.game)
    if view.everything:
        return False
    seen = view.seen(state.game_map, state.position) or frozenset()
    return province_of(other.location) not in seen


def future_sheet(session: MailSession, state: OrderMail, draft: PowerDraft, phase: Phase) -> kept.OrderSheet:
    """The power's sheet for the later ``phase`` as this mail has it so far."""
    return draft.futures.get(phase) or _stored_future(session, state, draft, phase)


def _stored_future(session: MailSession, state: OrderMail, draft: PowerDraft, phase: Phase) -> kept.OrderSheet:
    _ = session.gettext
    if phase.year > state.phase.year + MAX_YEARS_AHEAD:
        raise CommandRefused(_("Orders can be given at most {years} years ahead.").format(years=MAX_YEARS_AHEAD))
    return kept.sheet_of(draft.stored.for_phase(phase), state.game_map, phase)


def settle(session: MailSession) -> None:
    """Store this mail's orders now, before the phase they are for is processed (a master's PROCESS).

    The acknowledgement is left out: once the phase is processed, the results say what came of them.
    """
    state = session.drop_state(OrderMail)
    if state is not None and not state.settled:
        _store(session, state)
        state.settled = True


def confirm_when_the_mail_ends(session: MailSession) -> None:
    """End the reply to a player signed on as their power with the orders on file, whatever
    the mail did: a bare SIGNON (sent to clear the error flag), press, questions, or order
    lines that all failed (those count as orders the mail meant to give: the error flag is
    set, as for any order gone wrong). Nothing is shown when the game takes no orders or the
    sender no longer plays the power (RESIGN)."""

    def confirm() -> None:
        if session.role is not Role.POWER or session.acting_power is None:
            return
        if session.game is None or session.game.state is not GameState.ACTIVE:
            return
        existing = session.state_of(OrderMail)
        if existing is None:
            try:
                hooks_for(session.game).check_order(session)  # councils: the orders are the General's to see
                state, draft = acting(session)
            except CommandRefused:
                return
        else:
            state, draft = existing, existing.drafts.get(session.acting_power) or acting(session)[1]
        if session.failed_order_lines:
            draft.touched = True
        finish(session, state)

    session.finishers.append(confirm)


def finish(session: MailSession, state: OrderMail) -> None:
    """Store what changed, set the error flags, acknowledge, and re-plan the game's next due time.

    Once per mail: the first call does it (the finisher :func:`begin` registered, or the
    confirmation of :func:`confirm_when_the_mail_ends`, whichever runs first)."""
    if state.settled:
        return
    state.settled = True
    # A mail that changed no power's current orders (ORDERS, press, a bare SIGNON) moves no time.
    replan = any(draft.touched for draft in state.drafts.values()) and _may_move_due_time(session, state)
    _store(session, state)
    moved_on = _phase_moved_on(session, state)
    if moved_on is not None:
        session.reply.epilogue += ["", moved_on]
    for power in state.drafts:
        session.reply.epilogue += ["", *acknowledgement(session, state, power)]
    if replan:
        plan(session.uow, session.services, state.game, session.now)


def _phase_moved_on(session: MailSession, state: OrderMail) -> str | None:
    """When the mail gives orders in answer to a mail about a phase already processed (its
    subject names it), the note that the phase moved on and which one is open now: orders
    written for the old board read on the new one would otherwise fail, or succeed, unexplained."""
    if not any(draft.touched for draft in state.drafts.values()):
        return None
    named = subject_phase(session.decoded.subject, session.services.config.code, state.game.name)
    try:
        answered = Phase.parse(named) if named is not None else None
    except CoreError:  # "S1901B": no such phase
        return None
    if answered is None or not answered < state.phase:
        return None
    _ = session.gettext
    return _(
        "Note: your mail answers {answered}, which has been processed; the phase open now is {now}, "
        "and the orders of this mail were read for it."
    ).format(answered=phase_name(answered, _), now=phase_name(state.phase, _))


def _may_move_due_time(session: MailSession, state: OrderMail) -> bool:
    """Whether this mail's orders can change when the game is next due (call before storing them).

    Orders move the due time only through "all orders are in" (early processing, the
    delay after the last orders). While another power that owes orders has none at all,
    the set is incomplete before and after this mail, so the times stay those of the
    deadline, reminders and late notices, which orders do not move, unless this mail
    makes a power's complete orders incomplete (an error, a change that leaves a unit
    out). Otherwise the scheduler's plan is computed again (issue 14: re-planning every
    order mail was a third of the worker).
    """
    flagged = session.reply.errors > 0
    flags = kept.error_flags(state.game)
    for power, draft in state.drafts.items():
        if draft.touched and _counts_complete(state, power, draft.stored.current, power in flags):
            after = _effective(state, power, draft)[1]
            if flagged or not after.complete:
                return True
    submitted = set(state.drafts)
    for draft in state.drafts.values():
        submitted |= draft.stored.submitted
    for seat in state.game.seats:
        other = seat.power
        if other is None or other in submitted or seat.status in GONE or seat.status is SeatStatus.CIVIL_DISORDER:
            continue
        if kept.completeness(state.position, other, (), state.game_map).owes:
            return False
    return True


def _counts_complete(state: OrderMail, power: str, stored: kept.StoredSheet | None, flagged: bool) -> bool:
    """Whether the power's stored orders counted as complete before this mail (as the scheduler sees them)."""
    if stored is None:
        return False
    if stored.kind is OrderBlockKind.FUTURE:
        return True
    sheet = kept.sheet_of(stored, state.game_map, state.phase)
    return kept.completeness(state.position, power, sheet.effective(state.position, state.game_map, power, state.rules), state.game_map).complete and not flagged


def _store(session: MailSession, state: OrderMail) -> None:
    uow = session.uow
    person_id = session.person.id if session.person is not None else None
    flagged = session.reply.errors > 0
    for power, draft in state.drafts.items():
        if draft.changed:
            kept.store(uow, state.game, draft.seat, state.phase, draft.sheet, session.now,
                       future=False, mail_id=session.mail_id, person_id=person_id,
                       stored=draft.stored)
        for phase in sorted(draft.changed_futures):
            kept.store(uow, state.game, draft.seat, phase, draft.futures[phase], session.now,
                       future=True, mail_id=session.mail_id, person_id=person_id)
        if draft.touched:
            kept.set_error_flag(state.game, power, flagged)


def _effective(state: OrderMail, power: str, draft: PowerDraft) -> tuple[list[Order], kept.Completeness]:
    """The power's orders that apply on the board and what it still owes, for its sheet as it
    stands: worked out once per sheet (the re-planning check and the acknowledgement both ask)."""
    known = draft.effective
    if known is not None and known[0] is draft.sheet:
        return known[1], known[2]
    orders = draft.sheet.effective(state.position, state.game_map, power, state.rules)
    done = kept.completeness(state.position, power, orders, state.game_map)
    draft.effective = (draft.sheet, orders, done)
    return orders, done


def acknowledgement(session: MailSession, state: OrderMail, power: str) -> list[str]:
    """The acknowledgement of ``power``'s orders as stored (or about to be) in this mail."""
    draft = state.drafts[power]
    orders, done = _effective(state, power, draft)
    pending = [
        (phase, sheet.lines())
        for phase, sheet in sorted(
            {**{p: kept.sheet_of(row, state.game_map, p) for p, row in draft.stored.pending()},
             **draft.futures}.items()
        )
        if sheet.items
    ]  # fmt: skip
    ack = Acknowledgement(
        game=state.game.name,
        turn=state.turn,
        power=power,
        position=session_view(session, state.game).position(state.game_map, state.position),  # Fog of War
        orders=orders,
        blocks=draft.sheet.blocks,
        completeness=done,
        error_flag=power in kept.error_flags(state.game),
        wait=draft.seat.wait,
        pending=pending,
    )
    return render_acknowledgement(ack, state.game_map, session.language, session.gettext)
