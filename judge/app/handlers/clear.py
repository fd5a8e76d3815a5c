"""CLEAR: drop the orders kept for later phases; the current phase's orders stay (the Judge's rule).

CLEAR IF [unit] withdraws IF blocks instead: those in force for the phase the
line is for (the current one, or the one a PHASE line above it names), all of
them or the one that orders the unit named. Plain orders stay, and the units
the withdrawn blocks ordered keep the orders given to them outside the blocks,
if any. Like every order, it is the signed-on power's own business: a player
withdraws the blocks of the power they play (a master after BECOME), and the
reply names the blocks withdrawn to that sender only.
"""

from __future__ import annotations

from judge.app.game_state import order_sheets as kept
from judge.app.hooks.game_hooks import hooks_for
from judge.app.orders import order_mail
from judge.app.session.mail_session import MailSession
from judge.app.session.registry import Next, handles
from judge.lang.commands import Clear


@handles(Clear)
def handle(command: Clear, session: MailSession) -> Next:
    hooks_for(session.game).check_order(session)  # councils: the General alone (no query in other games)
    _ = session.gettext
    state, draft = order_mail.acting(session)
    if command.blocks:
        return _withdraw_blocks(command, session, state, draft)
    dropped = kept.clear_pending(session.uow, state.game, draft.seat, state.phase, session.now)
    dropped += len(draft.futures)
    draft.futures.clear()
    draft.changed_futures.clear()
    if dropped:
        session.reply.ok(command.line, _("Orders for later phases cleared."))
    else:
        session.reply.ok(command.line, _("There were no orders for later phases to clear."))
    return Next.CONTINUE


def _withdraw_blocks(
    command: Clear, session: MailSession, state: order_mail.OrderMail, draft: order_mail.PowerDraft
) -> Next:
    _ = session.gettext
    later = order_mail.target_phase(session, state, command.line)
    draft.touched = True
    if later is None:
        draft.sheet, withdrawn = draft.sheet.without_blocks(command.province)
        draft.changed = draft.changed or bool(withdrawn)
    else:
        sheet = order_mail.future_sheet(session, state, draft, later)
        draft.futures[later], withdrawn = sheet.without_blocks(command.province)
        if withdrawn:
            draft.changed_futures.add(later)
    if not withdrawn:
        if command.province is None:
            session.reply.ok(command.line, _("There was no IF block to withdraw."))
        else:
            session.reply.ok(command.line, _("No IF block orders the unit in {province}.").format(
                province=order_mail.units_text((command.province,), session.language, state.game_map, _)
            ))
        return Next.CONTINUE
    units = frozenset().union(*(kept.block_units(block) for block in withdrawn))
    session.reply.ok(
        command.line,
        _("{count} IF block(s) withdrawn, for {units}.").format(
            count=len(withdrawn), units=order_mail.units_text(units, session.language, state.game_map, _)
        ),
    )
    return Next.CONTINUE
