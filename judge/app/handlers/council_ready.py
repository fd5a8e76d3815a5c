"""READY / READY HOLD: the General releases his orders for the phase (seed 003, rule 5).

Who may: the General-in-chief of a council, signed on with his own
password (Ambassadors and the accused are refused with the rule's reason).
Orders in which every unit holds need READY HOLD. What it reveals: the
reply confirms the release; if it cancels an early election during the
grace, the council's active members and the masters are told so. No
other council learns anything.
"""

from __future__ import annotations

from judge.app.councils import releases
from judge.app.game_state.game_facts import power_name
from judge.app.handlers.council_vote import council_member_or_refuse
from judge.app.phases.planning import plan
from judge.app.session.mail_session import MailSession
from judge.app.session.registry import Next, handles
from judge.db.models import CouncilMember, Game
from judge.lang.commands import CouncilReady


@handles(CouncilReady)
def handle(command: CouncilReady, session: MailSession) -> Next:
    member = council_member_or_refuse(session, "READY")
    game = session.game
    assert game is not None
    releases.check_may_release(session, member)
    # Orders in the same mail are stored once the whole mail is read: release after them.
    session.finishers.append(lambda: _release(command, session, member, game))
    return Next.CONTINUE


def _release(command: CouncilReady, session: MailSession, member: CouncilMember, game: Game) -> None:
    _ = session.gettext
    try:
        cancelled = releases.release(session.uow, session.services, game, member, command.confirm_hold, session.now)
    except releases.ReleaseRefused as refused:
        fields = dict(refused.fields)
        if "power" in fields:
            fields["power"] = power_name(fields["power"], session.language)
        session.reply.error(command.line, _(refused.reason).format(**fields))
        return
    said = _("Your orders for {phase} are released to the judge.").format(phase=game.current_phase or "")
    if cancelled:
        said += " " + _("The early election of your council is cancelled.")
    session.reply.ok(command.line, said)
    plan(session.uow, session.services, game, session.now)
