"""PROCESS [phase]: the master processes the current phase now, whatever orders are missing.

The Judge ignored a PROCESS naming another phase than the current one (so a
delayed mail cannot process the wrong phase). Orders given earlier in the
same mail (after BECOME) are stored first, so they count. Missing orders are
treated as for any unordered unit (hold, disband, no build); nobody is put in
civil disorder by a PROCESS. The phase counts in the players' records as
any processed phase (a power without complete orders is late for it; see
:func:`judge.app.phases.deadline_actions.count_processing`).
"""

from __future__ import annotations

from judge.app.mail_out.wording import phase_name
from judge.app.orders import order_mail
from judge.app.phases.processing import NotProcessable, process_phase
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.core.phase import Phase
from judge.db.enums import GameState
from judge.lang.commands import Process


@handles(Process)
def handle(command: Process, session: MailSession) -> Next:
    _ = session.gettext
    game = session.game
    if game is None or session.role is None:
        raise CommandRefused(_("PROCESS must follow a SIGNON as the game's master."))
    if session.role is not Role.MASTER:
        raise CommandRefused(_("Only a master of the game can PROCESS it."))
    if game.state is not GameState.ACTIVE or game.current_phase is None or game.paused_at is not None:
        raise CommandRefused(_("Game '{game}' has no phase to process now.").format(game=game.name))
    phase = Phase.parse(game.current_phase)
    if command.phase is not None and command.phase != phase:
        session.reply.ok(
            command.line,
            _("The game is in {phase}: PROCESS for another phase is ignored.").format(
                phase=phase_name(phase, _)
            ),
        )
        return Next.CONTINUE
    order_mail.settle(session)
    try:
        processed = process_phase(session.uow, session.services, game, session.now, reason="master")
    except NotProcessable:
        raise CommandRefused(_("Game '{game}' has no phase to process now.").format(game=game.name)) from None
    if processed.next_phase is None:
        message = _("{phase} processed: the game is over. The results have been mailed to everyone.")
    else:
        message = _("{phase} processed. The results have been mailed to everyone.")
    session.reply.ok(command.line, message.format(phase=phase_name(phase, _)))
    return Next.CONTINUE
