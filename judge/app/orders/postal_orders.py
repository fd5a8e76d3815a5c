"""The postal habits of issue 18 on an order line, before it joins the power's orders.

Postal players (seeds 000-002) write orders the judge reads, then needs the
board to understand:

* a name two readings share ("MAR", "TYR") is settled by the board (the
  unit the player has there, the place the order can reach), then by the
  player's language: :func:`judge.lang.board.settle_by_board`; the reply
  says which place was taken;
* a nationality written before another unit ("A BOU S ALLEMAGNE A RUH -
  BEL") is information: the order stays valid whatever it says (seed 002),
  and the reply says when it is wrong;
* retreats, builds and removals given ahead with the movement orders (seed
  000, 3.4.2: "A VIE fait retraite à BUD, TRI, GAL, BOH, TYR", "construire
  F BRE, A PAR, A MAR") are kept for the phase they are for: a retreat for
  this season's retreat phase, builds and removals in the autumn for the
  winter's adjustments. There the first legal choice is taken
  (:func:`judge.app.game_state.order_sheets.chosen_from`); an explicit order given in that
  phase replaces the list. PHASE blocks and IF blocks are left as they are:
  this is shorthand on top.

:func:`prepare` returns the order line that still has to be checked and
merged the usual way (:func:`judge.app.orders.order_mail.add_order`), or None when
it kept the line itself (a list, or an order for a later phase).
"""

from __future__ import annotations

from dataclasses import replace

from judge.app.game_state import order_sheets as kept
from judge.app.orders import order_mail
from judge.app.orders.order_mail import OrderMail, PowerDraft
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.core.names import province_display_name
from judge.core.orders import Build, Move, Order, Remove, Retreat
from judge.core.phase import Phase, PhaseType, Season
from judge.core.units import UnitRef, province_of
from judge.lang.board import settle_by_board, wrong_nationalities
from judge.lang.commands import Branch, Conditional, OrderCommand
from judge.lang.conditions import Condition, UnitPresent
from judge.lang.orders import ReadOrder
from judge.lang.preferences import Preference
from judge.lang.substitution import other_readings

__all__ = ["phase_ahead", "prepare"]


def phase_ahead(phase: Phase, order: Order) -> Phase | None:
    """The later phase an order given now is meant for, postal style; None if it is for ``phase``.

    A retreat given in a movement phase is for that season's retreat phase; a
    build or removal given in an autumn movement or retreat phase is for the
    winter's adjustments.
    """
    if isinstance(order, Retreat) and phase.type is PhaseType.MOVEMENT:
        return Phase.of(phase.season, phase.year, PhaseType.RETREAT)
    if isinstance(order, Build | Remove) and phase.season is Season.FALL:
        return Phase.of(Season.WINTER, phase.year, PhaseType.ADJUSTMENT)
    return None


_LIST_PHASE = {Retreat: PhaseType.RETREAT, Build: PhaseType.ADJUSTMENT, Remove: PhaseType.ADJUSTMENT}


def prepare(session: MailSession, command: OrderCommand) -> OrderCommand | None:
    """The order line to check and merge as usual, or None when it was kept here (see the module)."""
    prepared = prepare_for(session, command)
    return prepared if prepared is None else prepared[0]


def prepare_for(session: MailSession, command: OrderCommand) -> tuple[OrderCommand, order_mail.Target | None] | None:
    """:func:`prepare`, with what it found out about the line for
    :func:`judge.app.orders.order_mail.add_order` (the mail's order state, the power's draft and the
    later phase the line is for: issue 14, each was worked out twice per order line); None
    when the line was kept here."""
    read = command.read
    if read is None:
        return command, None
    state, draft = order_mail.acting(session)
    later = order_mail.target_phase(session, state, command.line)
    power = draft.seat.power or ""
    if later is None:
        read, settled = settle_by_board(read, state.position, power, state.game_map, state.rules)
        for name in settled:
            session.reply.ok(command.line, _settled_note(session, state, name.written, name.province, name.instead))
        for wrong in wrong_nationalities(read, state.position):
            session.reply.ok(command.line, _nationality_note(session, state, wrong.location, wrong.written, wrong.actual))
    first = read.preferences[0] if read.preferences else read.order
    ahead = phase_ahead(state.phase, first) if later is None else None
    if not read.preferences and ahead is None:
        return (command if read is command.read else replace(command, read=read)), (state, draft, later)
    item: Order | Preference = Preference(read.preferences) if read.preferences else read.order
    alternatives = [other for other, _ in other_readings(read.order, read.readings)]
    if not read.preferences and alternatives:
        # "A VIE R TYR" given ahead: Tyrolia or the Tyrrhenian Sea, the board of that phase says.
        item = Preference((read.order, *alternatives))
    target = later or ahead
    draft.touched = True
    if target is None:
        if state.phase.type is not _LIST_PHASE[type(first)]:
            _ = session.gettext
            raise CommandRefused(_("{text}: a list of choices is for the phase it names (retreats, or builds and removals).")
                                 .format(text=read.text))
        draft.sheet = draft.sheet.with_order(item)
        draft.changed = True
        _note_choice(session, state, draft, power, command, item)
        return None
    traced = _traced(state, draft, power, item, read, command.line) if ahead is not None else None
    if traced is not None:
        _keep_block_for(session, state, draft, target, traced)
    else:
        _keep_for(session, state, draft, target, item)
    if ahead is not None:
        _warn_moving_removals(session, state, draft, power, command, item, traced=traced is not None)
        _ = session.gettext
        message = (
            _("Kept for {phase}: if the unit is dislodged, the first legal retreat of the list is taken "
              "(a retreat order given in that phase replaces it).")
            if isinstance(first, Retreat)
            else _("Kept for {phase}: the first legal builds or removals of the list are taken, as many as "
                   "allowed (orders given in that phase replace it).")
        )
        session.reply.ok(command.line, message.format(phase=target))
    return None


def _keep_for(session: MailSession, state: OrderMail, draft: PowerDraft, phase: Phase, item: Order | Preference) -> None:
    if phase.year > state.phase.year + order_mail.MAX_YEARS_AHEAD:
        _ = session.gettext
        raise CommandRefused(_("Orders can be given at most {years} years ahead.").format(years=order_mail.MAX_YEARS_AHEAD))
    sheet = draft.futures.get(phase) or kept.sheet_of(draft.stored.for_phase(phase), state.game_map, phase)
    draft.futures[phase] = sheet.with_order(kept.adapt(item, phase.type) if not isinstance(item, Preference) else item)
    draft.changed_futures.add(phase)


def _keep_block_for(session: MailSession, state: OrderMail, draft: PowerDraft, phase: Phase, block: Conditional) -> None:
    if phase.year > state.phase.year + order_mail.MAX_YEARS_AHEAD:
        _ = session.gettext
        raise CommandRefused(_("Orders can be given at most {years} years ahead.").format(years=order_mail.MAX_YEARS_AHEAD))
    sheet = draft.futures.get(phase) or kept.sheet_of(draft.stored.for_phase(phase), state.game_map, phase)
    draft.futures[phase] = sheet.with_block(block)
    draft.changed_futures.add(phase)


def _traced(
    state: OrderMail, draft: PowerDraft, power: str, item: Order | Preference, read: ReadOrder, line: int
) -> Conditional | None:
    """Removals given ahead with the unit's origin in brackets ("retirer F(HOL)"), followed to where
    the unit goes: an IF block decided at the adjustments, or None when nothing needs following.

    Seed 000, 3.4.2: with "F HOL-NRD, F KIE-HOL", "retirer F(HOL)" is the fleet that left Holland.
    The power's own orders of this season say where each unit tries to go. When no other unit of
    the power can stand in that place at the adjustments (none stays there, none other is ordered
    there), a unit of the power and type there is the unit that came from the origin:
    ``IF GERMANY F NTH`` / ``REMOVE F NTH`` / ``ELSE`` / ``REMOVE F HOL`` / ``ENDIF``.
    """
    if not read.origins:
        return None
    choices = item.choices if isinstance(item, Preference) else (item,)
    units = {u.province: u for u in state.position.units if u.power == power}
    moves = {
        order.unit.province: province_of(order.destination)
        for order in draft.sheet.effective(state.position, state.game_map, power, state.rules)
        if isinstance(order, Move) and order.unit.province in units
    }
    origins = {province_of(location) for location in read.origins}
    traces: list[tuple[int, Condition, Remove]] = []
    for index, choice in enumerate(choices):
        if not isinstance(choice, Remove) or choice.unit.province not in origins:
            continue
        origin = choice.unit.province
        goal = moves.get(origin)
        unit = units.get(origin)
        if goal is None or unit is None:
            continue  # it stays: the removal names it where it is
        if (goal in units and goal not in moves) or any(dst == goal and src != origin for src, dst in moves.items()):
            continue  # another unit of the power may stand there: not followed (the reply warns)
        there = UnitPresent(goal, power, unit.type)
        traces.append((index, there, Remove(UnitRef(unit.type, goal))))
    if not traces:
        return None

    def body(listed: tuple[Order, ...], pending: list[tuple[int, Condition, Remove]]) -> tuple[OrderCommand | Conditional, ...]:
        if not pending:
            text = str(Preference(listed)) if len(listed) > 1 else str(listed[0])
            read_as = ReadOrder(listed[0], text, preferences=listed if len(listed) > 1 else ())
            return (OrderCommand(line, read_as, 1),)
        (index, condition, moved), rest = pending[0], pending[1:]
        followed = (*listed[:index], moved, *listed[index + 1 :])
        return (Conditional(line, (Branch(line, condition, body(followed, rest)),), body(listed, rest), True),)

    block = body(tuple(choices), traces)[0]
    assert isinstance(block, Conditional)
    return block


def _warn_moving_removals(
    session: MailSession,
    state: OrderMail,
    draft: PowerDraft,
    power: str,
    command: OrderCommand,
    item: Order | Preference,
    *,
    traced: bool,
) -> None:
    """A removal given ahead names the unit where it will stand at the adjustments: say so when
    this season's orders move a unit out of or into that province (seed 000, 3.4.2: "F HOL-NRD,
    F KIE-HOL (et retirer F HOL)" is ambiguous), unless the origin was followed (``traced``)."""
    _ = session.gettext
    if traced:
        session.reply.ok(command.line, _(
            "The unit removed is followed from where it stands now to where your orders send it: "
            "see the IF block under Pending orders."
        ))
        return
    choices = item.choices if isinstance(item, Preference) else (item,)
    removed = {choice.unit.province: choice for choice in choices if isinstance(choice, Remove)}
    if not removed:
        return
    moving: set[str] = set()
    for order in draft.sheet.effective(state.position, state.game_map, power, state.rules):
        if isinstance(order, Move):
            moving.update({order.unit.province, order.destination.split("/")[0]})
    for province in sorted(removed.keys() & moving):
        session.reply.ok(command.line, _(
            "{order}: your orders move a unit out of or into {place}; the removal is of the unit that "
            "stands there at the adjustments."
        ).format(order=removed[province], place=_place(state, province, session.language)))


def _note_choice(
    session: MailSession, state: OrderMail, draft: PowerDraft, power: str, command: OrderCommand, item: Order | Preference
) -> None:
    """Say what a list given in its own phase comes to on the board now."""
    if not isinstance(item, Preference):
        return
    _ = session.gettext
    chosen = kept.chosen_from(item, state.position, state.game_map, power, state.rules, draft.sheet.plain)
    rest = [str(choice) for choice in item.choices if choice not in chosen]
    if chosen and rest:
        session.reply.ok(command.line, _("On the board now, the list gives: {orders}; not taken (not legal, "
                                         "or more than allowed): {rest}.").format(
            orders="; ".join(str(order) for order in chosen), rest="; ".join(rest)))
    elif chosen:
        session.reply.ok(command.line, _("On the board now, the list gives: {orders}.").format(
            orders="; ".join(str(order) for order in chosen)))
    else:
        session.reply.ok(command.line, _("On the board now, the list gives nothing: no choice is legal, "
                                         "or the other orders already use every build or removal allowed."))


def _place(state: OrderMail, code: str, language: str) -> str:
    return province_display_name(code, "fr" if language == "fr" else "en", state.game_map)


def _settled_note(session: MailSession, state: OrderMail, written: str, province: str, instead: str) -> str:
    _ = session.gettext
    return _("'{written}' read as {province}, not {instead}: only so is the order legal on the board.").format(
        written=written, province=_place(state, province, session.language), instead=_place(state, instead, session.language))


def _nationality_note(session: MailSession, state: OrderMail, location: str, written: str, actual: str | None) -> str:
    _ = session.gettext
    french = session.language == "fr"
    written_name = state.game_map.power_display_name(written, "fr" if french else "en")
    place = _place(state, location, session.language)
    if actual is None:
        return _("Note: there is no unit in {place}, so not a {power} one (the order stands as written).").format(
            place=place, power=written_name)
    return _("Note: the unit in {place} is {actual}'s, not {power}'s (the order stands as written).").format(
        place=place, actual=state.game_map.power_display_name(actual, "fr" if french else "en"), power=written_name)
