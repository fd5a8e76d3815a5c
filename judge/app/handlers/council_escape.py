"""ESCAPE LEAVE / ESCAPE WAITLIST: after a year under arrest (seed 003, rule 8).

Who may: a member under arrest (accused, not rehabilitated) for at least a
full game year, signed on with his own password. What it reveals: the
reply tells him where he may be placed; the masters are told he escaped;
his council is not told where he went (the waiting list is secret).
"""

from __future__ import annotations

from judge.app.councils import treason
from judge.app.councils.elections import refusal_sentence
from judge.app.game_state.game_facts import power_name
from judge.app.handlers.council_vote import council_member_or_refuse
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import CouncilEscape


@handles(CouncilEscape)
def handle(command: CouncilEscape, session: MailSession) -> Next:
    _ = session.gettext
    member = council_member_or_refuse(session, "ESCAPE")
    game = session.game
    assert game is not None
    try:
        powers = treason.escape(session.uow, session.services, game, member, command.waitlist, session.now)
    except treason.TreasonRefused as refused:
        raise CommandRefused(refusal_sentence(session, refused.reason, refused.fields)) from None
    if not command.waitlist:
        session.reply.ok(command.line, _("You escaped and left the game."))
    else:
        names = ", ".join(power_name(p, session.language) for p in powers) or "-"
        session.reply.ok(
            command.line,
            _("You escaped and secretly joined the waiting list; the master may place you, no sooner than "
              "a year after your exclusion, with: {powers}.").format(powers=names),
        )
    return Next.CONTINUE
