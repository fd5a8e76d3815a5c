"""TRIBUNAL <text>: the tribunal channel between an accused member and his council (seed 003, rule 6b).

Who may: the accused member (his plea), or an active member of his council
(an answer), signed on with his own password. What it reveals: the line,
signed with its author's name, goes to the accused, the council's active
members and the masters only.
"""

from __future__ import annotations

from judge.app.councils import treason
from judge.app.councils.elections import member_label
from judge.app.handlers.council_vote import council_member_or_refuse
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import CouncilTribunal


@handles(CouncilTribunal)
def handle(command: CouncilTribunal, session: MailSession) -> Next:
    _ = session.gettext
    member = council_member_or_refuse(session, "TRIBUNAL")
    game = session.game
    assert game is not None
    try:
        accused = treason.tribunal(session.uow, session.services, game, member, command.text, session.now)
    except treason.TreasonRefused as refused:
        raise CommandRefused(_(refused.reason).format(**refused.fields)) from None
    session.reply.ok(
        command.line,
        _("Sent to the tribunal of {member}: the accused, his council and the master.").format(
            member=member_label(session.uow, accused)
        ),
    )
    return Next.CONTINUE
