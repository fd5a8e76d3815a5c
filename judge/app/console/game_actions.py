"""The operator's console acting on a game: master commands run through the mail's own handlers.

`judge game process|pause|resume|terminate|rollback|eject|set` do not have
code of their own: each builds the command line a master would mail
(``PROCESS``, ``SET DEADLINE ...``), reads it with the mail parser and runs
it through :func:`judge.app.mail_in.dispatch.run_commands` in a :class:`MailSession`
signed on as the game's master. One code path: what a master may do by mail
the operator may do here, with the same checks, replies, announcements and
audit records. The session's ``sender`` is the operator's name, so the
handlers' own audit records name the operator; one more record of kind
``admin`` says that the console ran the line and what the judge answered.

The operator is not a person of the judge: the session's master record is
a transient one (never stored), so nothing a handler does to "the master
signed on" (SET PASSWORD) can touch a real master's record. Lines a master
would use for himself (SET PASSWORD, orders, press) are refused here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from judge.app.game_state.variant_rules import game_map_of
from judge.app.mail_in.dispatch import run_commands
from judge.app.mail_out import outbox
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.reply import Reply
from judge.app.session.services import Services
from judge.core.phase import Phase
from judge.db.database import UnitOfWork
from judge.db.enums import AuditKind
from judge.db.models import Game, GameMaster
from judge.lang import commands as c
from judge.lang.mail import parse_mail
from judge.mail.decode import DecodedMail

CONSOLE_ACTIONS: dict[str, type[c.Command]] = {
    "process": c.Process,
    "pause": c.Pause,
    "resume": c.Resume,
    "terminate": c.Terminate,
    "rollback": c.Rollback,
    "eject": c.Eject,
}
"""The console's game actions and the one mail command each runs."""

NOT_FOR_THE_CONSOLE: tuple[type[c.Command], ...] = (
    c.SetPassword, c.SetAddress, c.SetPreference, c.SetWait, c.SetDraw, c.SetConcede,
)
"""SET lines that are a player's or a master's own (a password, an address, a vote): the
operator has none, and would change a real master's or player's record through them."""


class ConsoleRefusal(Exception):
    """The line is not one the console runs; the message says why, for the operator."""


@dataclass(frozen=True)
class ConsoleOutcome:
    """What the judge answered to the line, as a master would read it in the reply."""

    line: str
    reply: str
    errors: int
    queued: int
    """Mails queued for others (announcements, results)."""

    @property
    def done(self) -> bool:
        return self.errors == 0


def master_line(action: str, *words: str) -> str:
    """The mail line for a console action: ``ROLLBACK 3``, ``EJECT F``, ``SET DEADLINE ...``."""
    if action == "set":
        return "SET " + " ".join(words)
    return " ".join([action.upper(), *words]).strip()


def run_as_master(
    uow: UnitOfWork, services: Services, game: Game, line: str, operator: str, now: datetime,
    *, expected: tuple[type[c.Command], ...] | None = None,
) -> ConsoleOutcome:
    """Run one master line on ``game`` as its master would by mail, acting for ``operator``.

    ``expected``: the command types the line must read as (else :class:`ConsoleRefusal`);
    ``None`` takes any SET a master may give.
    """
    game_map = game_map_of(game)
    phase_type = Phase.parse(game.current_phase).type if game.current_phase else None
    parsed = parse_mail(line, game_map, phase_type=phase_type)
    if parsed.errors:
        raise ConsoleRefusal(f"the judge cannot read {line!r}: {parsed.errors[0]}")
    if len(parsed.commands) != 1:
        raise ConsoleRefusal(f"{line!r} must be one command (it reads as {len(parsed.commands)})")
    command = parsed.commands[0]
    if expected is not None and not isinstance(command, expected):
        raise ConsoleRefusal(f"{line!r} reads as {type(command).__name__}, not what was asked")
    if expected is None and (
        not type(command).__name__.startswith("Set") or isinstance(command, NOT_FOR_THE_CONSOLE)
    ):
        raise ConsoleRefusal(
            f"{line!r} is not a setting of the game the console changes "
            "(a password, an address, a preference or a vote is a player's own)"
        )
    session = _master_session(uow, services, game, line, operator, now)
    run_commands(session, parsed)
    for mail in session.outgoing:
        outbox.queue(
            uow, services, mail.to, mail.subject, mail.body, now, game_id=mail.game_id,
            map_phase_id=mail.map_phase_id, map_language=mail.map_language,
        )  # fmt: skip
    reply = session.reply.render()
    uow.audit.record(
        AuditKind.ADMIN, now, game=game, actor=operator, setting="console",
        new_value=line, detail=f"judge game ({'done' if not session.reply.errors else 'refused'}): "
        f"{reply.strip()}"[:4000],
    )
    if session.outgoing:
        services.on_outbox()
    return ConsoleOutcome(line, reply, session.reply.errors, len(session.outgoing))


def _master_session(
    uow: UnitOfWork, services: Services, game: Game, line: str, operator: str, now: datetime
) -> MailSession:
    decoded = DecodedMail(sender=operator, subject="judge console", message_id=None, references=(), body=line)
    lines = line.splitlines()
    return MailSession(
        services=services, uow=uow, mail_id=0, decoded=decoded, sender=operator, now=now,
        reply=Reply(lines), body_lines=lines, person=None, language="en",
        game=game, role=Role.MASTER,
        master=GameMaster(game_id=game.id, password_hash="", since=now), operator=True,
    )
