"""ACCUSE <member> / ACCUSE WITHDRAW <member>: accusation of treason (seed 003, rule 6).

Who may: a council member signed on with his own password, not himself
accused, against another Ambassador of his own council, whatever his rank
(never the General): the seed's "second Ambassador" is the one who is not
among the two accusers.
What it reveals: the first accusation only to its author and the masters;
the second, which takes effect, to the accused, his council's active
members and the masters (never to other councils). A withdrawal that
rehabilitates is told to the same people.
"""

from __future__ import annotations

from judge.app.councils import treason
from judge.app.councils.elections import member_label
from judge.app.handlers.council_vote import council_member_or_refuse
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import CouncilAccuse


@handles(CouncilAccuse)
def handle(command: CouncilAccuse, session: MailSession) -> Next:
    _ = session.gettext
    member = council_member_or_refuse(session, "ACCUSE")
    game = session.game
    assert game is not None
    uow = session.uow
    try:
        if command.withdraw:
            accused, rehabilitated = treason.withdraw(uow, session.services, game, member, command.member, session.now)
        else:
            accused, effective = treason.accuse(uow, session.services, game, member, command.member, session.now)
    except treason.TreasonRefused as refused:
        raise CommandRefused(_(refused.reason).format(**refused.fields)) from None
    name = member_label(uow, accused)
    if command.withdraw:
        said = (
            _("Your accusation is withdrawn: {member} is rehabilitated and sits on the council again.")
            if rehabilitated
            else _("Your accusation of {member} is withdrawn.")
        )
    elif effective:
        said = _("Recorded: with a second accuser, {member} is now cut off from the council and from "
                 "negotiation and has lost his vote; he may plead with TRIBUNAL.")
    else:
        said = _("Recorded: you accuse {member} of treason. It takes effect when a second member of "
                 "your council accuses him too.")
    session.reply.ok(command.line, said.format(member=name))
    return Next.CONTINUE
