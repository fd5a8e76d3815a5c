"""SET MOVE|RETREAT|ADJUST CLOCK|MIN|NEXT|GRACE|DELAY|DAYS value ...: how future deadlines are computed.

Who: the Judge's "mod" (the master of a moderated game, any player of an
unmoderated one), at any time before the game ends. Several parameters may
follow one phase word (``SET MOVE CLOCK 1410 NEXT 48 DAYS -MTWTF-``); they
are checked together and kept together, or not at all.

The new values shape the deadlines computed from now on (the next phase's,
or after a RESUME or a takeover); the current deadline stays as announced.
DELAY applies at once to early processing, so the game is re-planned. The
change joins the mail's "Parameter Change" announcement. In an NMR game a
grace shorter than 36 hours is accepted with the Judge's warning: a power
could fall into civil disorder before a full day's notice.
"""

from __future__ import annotations

from judge.app.game_state.clock_store import game_schedule, store_schedule
from judge.app.games.masters import Change, note_change, require_moderator
from judge.app.phases.planning import plan
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import AuditKind, GameState
from judge.i18n import N_
from judge.lang.commands import SetSchedule
from judge.timekeeping.errors import ScheduleError
from judge.timekeeping.parameters import MAX_HOURS, NMR_MIN_SAFE_GRACE_HOURS, ScheduleKind

LABELS = {
    ScheduleKind.MOVE: N_("Movement schedule"),
    ScheduleKind.RETREAT: N_("Retreat schedule"),
    ScheduleKind.ADJUST: N_("Adjustment schedule"),
}


@handles(SetSchedule)
def handle(command: SetSchedule, session: MailSession) -> Next:
    _ = session.gettext
    kind = ScheduleKind.of(command.phase_type)
    game = require_moderator(session, f"SET {kind.value.upper()}")
    if game.state in (GameState.FINISHED, GameState.TERMINATED):
        raise CommandRefused(
            _("Game '{game}' is over: its settings can no longer be changed.").format(game=game.name)
        )
    schedule = game_schedule(game)
    old = schedule.of(kind)
    try:
        new = schedule.apply_set(command.text).of(kind)
    except ScheduleError as error:
        raise CommandRefused(_refusal(session, error)) from error
    label = _(LABELS[kind])
    if new == old:
        session.reply.ok(command.line, _("{setting}: already {value}.").format(setting=label, value=new.format()))
        return Next.CONTINUE
    store_schedule(session.uow, game, command.phase_type, new)
    session.uow.audit.record(
        AuditKind.SETTING, session.now, game=game, person=session.person, actor=session.sender,
        setting=f"schedule:{kind.value}", old_value=old.format(), new_value=new.format(),
    )  # fmt: skip
    note_change(session, game, Change(LABELS[kind], old.format(), new.format()))
    messages = [_("{setting}: {value} (was {old}).").format(setting=label, value=new.format(), old=old.format())]
    messages.append(_("The current deadline does not change; the new values apply to the deadlines computed from now on."))
    if game.nmr and new.grace_hours < NMR_MIN_SAFE_GRACE_HOURS:
        messages.append(
            _("Warning: this is an NMR game and the grace is shorter than {hours} hours: a late power may go into civil disorder before it has had a full day's notice.").format(
                hours=f"{NMR_MIN_SAFE_GRACE_HOURS:g}"
            )
        )
    session.reply.ok(command.line, *messages)
    plan(session.uow, session.services, game, session.now)
    return Next.CONTINUE


def _refusal(session: MailSession, error: ScheduleError) -> str:
    """Why the value cannot be used, in the reader's language, with what would be right."""
    _ = session.gettext
    parameter = error.parameter.upper()
    if parameter == "CLOCK":
        hint = _("minutes after midnight from 0 to 1439 (1410 is 23:30), HH:MM, or -1 for none")
    elif parameter == "DAYS":
        hint = _(
            "seven characters from Sunday to Saturday, such as -MTWTF-: a capital allows the day, a small "
            "letter allows it from noon, - forbids it; at least one day, and a capital one if the clock is before noon"
        )
    elif parameter in ("MIN", "MINIMUM", "NEXT", "GRACE", "DELAY"):
        hint = _("a number of hours from 0 to {hours}, such as 48 or 0.5").format(hours=MAX_HOURS)
    else:
        hint = _("CLOCK, MIN, NEXT, GRACE, DELAY or DAYS followed by its value")
    return _("'{value}' cannot be used for {parameter}: give {hint}.").format(
        value=error.value, parameter=parameter, hint=hint
    )
