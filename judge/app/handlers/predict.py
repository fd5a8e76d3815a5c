"""PREDICT: the master sees what processing the current phase now would give, and nothing changes.

The real processing (:func:`judge.app.phases.processing.process_phase`) runs with
the orders on file, inside a savepoint that is then rolled back: the ruling,
the new phase, the results mails it would queue, all undone. Only the
results text in the master's language is kept, and put in the master's
reply, marked as a prediction (the Judge's PREDICT, master only). Orders
given earlier in the same mail (after BECOME) count, as for PROCESS: they
are stored inside the savepoint, and stored for good when the mail ends.
"""

from __future__ import annotations

from judge.app.games.masters import require_master
from judge.app.orders import order_mail
from judge.app.phases.processing import NotProcessable, process_phase
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import GameState
from judge.lang.commands import Predict


@handles(Predict)
def handle(command: Predict, session: MailSession) -> Next:
    _ = session.gettext
    game = require_master(session, "PREDICT")
    if game.state is not GameState.ACTIVE or game.current_phase is None or game.paused_at is not None:
        raise CommandRefused(_("Game '{game}' has no phase to predict now.").format(game=game.name))
    phase = game.current_phase
    mail_orders = session.state_of(order_mail.OrderMail)
    savepoint = session.uow.session.begin_nested()
    try:
        order_mail.settle(session)  # this mail's orders so far, undone with the rest
        processed = process_phase(session.uow, session.services, game, session.now, reason="predict")
    except NotProcessable:
        raise CommandRefused(_("Game '{game}' has no phase to predict now.").format(game=game.name)) from None
    finally:
        savepoint.rollback()
        if mail_orders is not None:
            mail_orders.settled = False  # stored for good, and acknowledged, when the mail ends
            session.keep_state(mail_orders)
    report = processed.reports.get(session.language) or processed.reports.get("en", "")
    session.reply.ok(
        command.line,
        _("PREDICTION, NOT DEFINITIVE: what processing {phase} now would give with the orders "
          "received so far. Nothing has been processed or changed.").format(phase=phase),
        "",
        report.rstrip(),
        "",
        _("END OF PREDICTION: the phase has not been processed."),
    )
    return Next.CONTINUE
