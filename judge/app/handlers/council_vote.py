"""VOTE <member> / VOTE ABSTAIN [<power> <member>]: a ballot in one's council's election (seed 003, rule 4).

Who may: a council member signed on with his own password whose council
holds an open election, and who sits on it (an accused member has lost his
vote). Masters and observers have no ballot. What it reveals: the reply
confirms the sender's own ballot only; nobody else is told how anyone
voted, and an influence vote is never attributed (results say only that
influence broke a tie).
"""

from __future__ import annotations

from judge.app.councils import elections
from judge.app.game_state.game_facts import power_name
from judge.app.hooks.game_hooks import hooks_for
from judge.app.phases.planning import plan
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.models import CouncilMember
from judge.lang.commands import CouncilVote


def council_member_or_refuse(session: MailSession, what: str) -> CouncilMember:
    """The council member the mail is signed on as, or a refusal saying why ``what`` is not possible."""
    _ = session.gettext
    game = session.game
    if game is None or session.role is None:
        raise CommandRefused(_("{command}: sign on to your council game first. Nothing was done.").format(command=what))
    if what not in hooks_for(game).own_commands:
        raise CommandRefused(
            _("{command}: this game is not played by councils. Nothing was done.").format(command=what)
        )
    member = session.council_member
    if session.role is not Role.POWER or member is None:
        raise CommandRefused(
            _("{command}: only a council member signed on with his own password may do this. "
              "Nothing was done.").format(command=what)
        )
    return member


@handles(CouncilVote)
def handle(command: CouncilVote, session: MailSession) -> Next:
    _ = session.gettext
    language = session.language
    member = council_member_or_refuse(session, "VOTE")
    game = session.game
    assert game is not None
    try:
        cast = elections.cast(
            session.uow, session.services, game, member, command.candidate, session.now,
            influence_power=command.influence_power, influence_word=command.influence_candidate,
        )  # fmt: skip
    except elections.BallotRefused as refused:
        fields = dict(refused.fields)
        if "power" in fields:
            fields["power"] = power_name(fields["power"], language)
        raise CommandRefused(_(refused.reason).format(**fields)) from None
    council = power_name(member.power, language)
    if cast.candidate is not None:
        said = _("Recorded: your vote for {member} in {power}'s election.").format(
            member=elections.member_label(session.uow, cast.candidate), power=council
        )
    else:
        said = _("Recorded: you abstain in {power}'s election.").format(power=council)
    if cast.influence is not None and cast.influence_candidate is not None:
        said += " " + _(
            "Your anonymous influence vote for {member} counts in {power}'s election only to break a tie."
        ).format(
            member=elections.member_label(session.uow, cast.influence_candidate),
            power=power_name(cast.influence.power, language),
        )
    if cast.replaced:
        said += " " + _("This ballot replaces your earlier one in this election.")
    if cast.closed:
        said += " " + _("Every member has voted: the election is closed and the result mailed to your council.")
        plan(session.uow, session.services, game, session.now)  # the phase the election held may start now
    session.reply.ok(command.line, said)
    return Next.CONTINUE
