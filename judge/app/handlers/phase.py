"""PHASE season year phase: the orders that follow are for that phase.

The current phase's own name brings the orders back to the current phase; a
phase already past, or more than five years ahead, is refused and the orders
after it are ignored (the Judge's rule), until the next PHASE line.
"""

from __future__ import annotations

from judge.app.hooks.game_hooks import hooks_for
from judge.app.mail_out.wording import phase_name
from judge.app.orders import order_mail
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import PhaseCommand


@handles(PhaseCommand)
def handle(command: PhaseCommand, session: MailSession) -> Next:
    _ = session.gettext
    if hooks_for(session.game).take_block(session, command):  # the Renaissance game: the open phase only
        return Next.CONTINUE
    state, _draft = order_mail.acting(session)
    state.phase_lines.add(command.line)
    phase = command.phase
    state.refused_phase = True
    session.future_phase = None
    if phase is None:
        raise CommandRefused(_("PHASE needs a season, a year and a phase, e.g. PHASE Fall 1901 Movement."))
    if phase < state.phase:
        raise CommandRefused(
            _("That phase is already past: the phase open now is {now}; the orders that follow are ignored.").format(
                now=phase_name(state.phase, _)
            )
        )
    if phase.year > state.phase.year + order_mail.MAX_YEARS_AHEAD:
        raise CommandRefused(
            _("Orders can be given at most {years} years ahead.").format(years=order_mail.MAX_YEARS_AHEAD)
        )
    state.refused_phase = False
    if phase == state.phase:
        session.reply.ok(command.line, _("The orders that follow are for the current phase."))
        return Next.CONTINUE
    session.future_phase = phase
    session.reply.ok(
        command.line,
        _("The orders that follow are kept for {phase}.").format(phase=phase_name(phase, _)),
    )
    return Next.CONTINUE
