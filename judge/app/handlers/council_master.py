"""COUNCIL ONR / COUNCIL REPLACE <power>: the master's council bookkeeping (seed 003, rule 5).

Who may: a master of the council game, signed on as master. What it
reveals: COUNCIL ONR lists, to the master alone, each member's count of
orders not released as General; COUNCIL REPLACE makes the General step
down and opens an early election in which he may not be elected (the
council and the masters are told by the election's notice).
"""

from __future__ import annotations

from judge.app.councils import releases
from judge.app.councils.elections import is_council_game, member_label
from judge.app.errors import CommandRefused
from judge.app.game_facts import power_name
from judge.app.masters import require_master
from judge.app.registry import Next, handles
from judge.app.replanning import replan
from judge.app.session import MailSession
from judge.app.variant_rules import game_map_of
from judge.lang.commands import CouncilMaster
from judge.lang.powers import power_by_letter_or_name


@handles(CouncilMaster)
def handle(command: CouncilMaster, session: MailSession) -> Next:
    _ = session.gettext
    game = require_master(session, "COUNCIL")
    if not is_council_game(game):
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
    replan(session, game)
    return Next.CONTINUE
