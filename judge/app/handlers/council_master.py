"""COUNCIL ONR / REPLACE / EXPEL / WAITLIST / VETO / SEAT / CLOSE / SHORTEN: the master's council bookkeeping.

Seed 003, rules 4, 5, 7 and 8. CLOSE [<power>] closes open elections now
(each council told, results as at a deadline); SHORTEN <hours> ends every
council wait (elections, the grace of a missed release) by then, told to
every player and the master.

Who may: a master of the council game, signed on as master. What it
reveals: COUNCIL ONR lists, to the master alone, each member's count of
orders not released as General; COUNCIL REPLACE makes the General step
down and opens an early election in which he may not be elected (the
council and the masters are told by the election's notice). EXPEL,
WAITLIST, VETO and SEAT carry out what the seed leaves to the referee for
eliminations and replacements (:mod:`judge.app.councils.replacements`);
their replies go to the master alone (the waiting list is secret).
"""

from __future__ import annotations

from judge.app.councils import master_waits, releases, replacements
from judge.app.councils.elections import member_label, refusal_sentence
from judge.app.game_state.game_facts import power_name
from judge.app.game_state.variant_rules import game_map_of
from judge.app.games.masters import require_master
from judge.app.hooks.game_hooks import hooks_for
from judge.app.mail_out.wording import phase_name
from judge.app.phases.planning import plan
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.core.phase import Phase
from judge.db.models import Game
from judge.lang.commands import CouncilMaster
from judge.lang.powers import power_by_letter_or_name


@handles(CouncilMaster)
def handle(command: CouncilMaster, session: MailSession) -> Next:
    _ = session.gettext
    game = require_master(session, "COUNCIL")
    if "COUNCIL" not in hooks_for(game).own_commands:
        raise CommandRefused(_("{command}: this game is not played by councils. Nothing was done.").format(command="COUNCIL"))
    uow = session.uow
    if command.action == "onr":
        rows = releases.onr_counts(uow, game)
        if not rows:
            session.reply.ok(command.line, _("No General has missed a release of orders."))
        else:
            lines = [
                _("{power}: {member}, {count} ONR").format(
                    power=power_name(power, session.language), member=member_label(uow, member), count=member.onr_count
                )
                for power, member in rows
            ]
            session.reply.ok(command.line, _("Orders not released (ONR), per member:") + "\n" + "\n".join(lines))
        return Next.CONTINUE
    if command.action in ("expel", "waitlist", "veto", "seat"):
        _member_action(command, session, game)
        return Next.CONTINUE
    if command.action in ("close", "shorten"):
        _waits(command, session, game)
        plan(session.uow, session.services, game, session.now)
        return Next.CONTINUE
    power = power_by_letter_or_name(command.arguments[0], game_map_of(game)) if command.arguments else None
    if power is None:
        raise CommandRefused(_("COUNCIL REPLACE needs the power whose General you replace (COUNCIL REPLACE F)."))
    try:
        general = releases.master_replacement(uow, session.services, game, power, session.now)
    except releases.ReleaseRefused as refused:
        raise CommandRefused(_(refused.reason).format(power=power_name(power, session.language))) from None
    session.reply.ok(
        command.line,
        _("{member} steps down as {power}'s General-in-chief; an early election names his successor "
          "(he may not be elected).").format(member=member_label(uow, general), power=power_name(power, session.language)),
    )
    plan(session.uow, session.services, game, session.now)
    return Next.CONTINUE


def _waits(command: CouncilMaster, session: MailSession, game: Game) -> None:
    """COUNCIL CLOSE [<power>] and COUNCIL SHORTEN <hours> (seed 003, rules 4 and 5)."""
    _ = session.gettext
    uow = session.uow
    if command.action == "close":
        power = power_by_letter_or_name(command.arguments[0], game_map_of(game)) if command.arguments else None
        if command.arguments and power is None:
            raise CommandRefused(_("COUNCIL CLOSE takes a power, or nothing to close every open election."))
        closed = master_waits.close_now(uow, session.services, game, session.now, power)
        if not closed:
            raise CommandRefused(_("No election is open to close. Nothing was done."))
        session.reply.ok(command.line, _("Closed now, results mailed to each council: {powers}.").format(
            powers=", ".join(power_name(p, session.language) for p in closed)))
        return
    hours = command.arguments[0] if command.arguments else ""
    if not hours.isdigit():
        raise CommandRefused(_("COUNCIL SHORTEN needs a number of hours (COUNCIL SHORTEN 2)."))
    until = master_waits.shorten(uow, session.services, game, session.now, int(hours))
    if until is None:
        raise CommandRefused(_("No council wait ends later than that. Nothing was done."))
    session.reply.ok(command.line, _("Every council wait now ends by {until}; the players are told.").format(
        until=session.tell_date(until)))


def _member_action(command: CouncilMaster, session: MailSession, game: Game) -> None:
    """COUNCIL EXPEL / WAITLIST / VETO <member> and COUNCIL SEAT <member> <power> (seed 003, rules 7-8)."""
    _ = session.gettext
    uow = session.uow
    member = replacements.find_any_member(uow, game, command.arguments[0]) if command.arguments else None
    if member is None:
        raise CommandRefused(_("COUNCIL {action} needs a member's number (see the election notices).").format(
            action=command.action.upper()))
    label = member_label(uow, member)
    try:
        if command.action == "expel":
            replacements.expel(uow, session.services, game, member, session.now)
            said = _("{member} leaves {power}'s council.").format(
                member=label, power=power_name(member.power, session.language))
        elif command.action == "waitlist":
            entry = replacements.add_to_waitlist(uow, session.services, game, member, session.now)
            said = _("{member} is on the waiting list, for {powers}, from the {phase}.").format(
                member=label, phase=phase_name(Phase.parse(entry["from_phase"]), _),
                powers=", ".join(power_name(p, session.language) for p in entry["powers"]) or "-")
        elif command.action == "veto":
            replacements.veto(uow, game, member)
            said = _("{power} vetoes {member}'s place on the waiting list.").format(
                member=label, power=power_name(member.power, session.language))
        else:
            power = (power_by_letter_or_name(command.arguments[1], game_map_of(game))
                     if len(command.arguments) > 1 else None)  # fmt: skip
            if power is None:
                raise CommandRefused(_("COUNCIL SEAT needs a member's number and a power (COUNCIL SEAT 12 G)."))
            new = replacements.seat(uow, session.services, game, member, power, session.now)
            said = _("{member} takes a seat on {power}'s council as an Ambassador (member {number}).").format(
                member=label, power=power_name(power, session.language), number=new.id)
    except replacements.ReplacementRefused as refused:
        raise CommandRefused(refusal_sentence(session, refused.reason, refused.fields)) from None
    session.reply.ok(command.line, said)
