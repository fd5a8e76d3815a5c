"""Running a parsed mail's commands through their handlers, in order.

Errors of reading (lines the parser could not read) and commands are merged
in line order, so the reply reads top to bottom like the mail.

A question asked again in the same mail (HELP, GET, VERSION, and the
read-only LIST, WHOIS, SUMMARY ... with the same words) is answered once: the
repeat gets one line pointing at the first answer. A repeat of a question
whose answer depends on the games (LIST, SUMMARY ...) is answered again
after a command that may have changed something.

What the dispatch may rely on about each command (a constant answer, a read-only one, no
write before a refusal, a savepoint of its own, no player read) is said by class-level flags
on the command's class in :mod:`judge.lang.commands` (``Command.CONSTANT_ANSWER``...).
"""

from __future__ import annotations

import dataclasses

from judge.app.game_state.variant_rules import game_map_of
from judge.app.handlers import handler_for
from judge.app.session.error_text import error_text
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next
from judge.core.errors import CoreError
from judge.core.geography import GameMap
from judge.lang import commands as c
from judge.lang.commands import Command
from judge.lang.errors import MailError
from judge.lang.mail import ParseResult


def _question(command: Command) -> str:
    """What a command asks, whatever line it is on: repeats compare equal."""
    return repr(dataclasses.replace(command, line=0))


def run_commands(session: MailSession, parsed: ParseResult) -> None:
    _ = session.gettext
    session.commands = tuple(parsed.commands)
    session.players_wanted = not all(command.READS_NO_PLAYER for command in parsed.commands)
    answered: dict[str, int] = {}
    lasting: set[str] = set()  # the constant answers among them: no command makes them stale
    items: list[tuple[int, int, object]] = [
        (command.line, 1, command) for command in parsed.commands
    ]
    items += [(error.line, 0, error) for error in parsed.errors]
    items.sort(key=lambda item: (item[0], item[1]))
    for _line, _order, item in items:
        if session.stop:
            break
        if isinstance(item, Command) and not isinstance(item, c.Signon) and not _admitted(session):
            return
        if isinstance(item, MailError):
            session.reply.error(item.line, error_text(item, session.language, _game_map(session)))
            session.failed_order_lines += item.order_line
            continue
        assert isinstance(item, Command)
        if item.CONSTANT_ANSWER or item.READ_ONLY_ANSWER:
            question = _question(item)
            first = answered.get(question)
            if first is not None:
                session.reply.ok(item.line, _("Answered above (line {line}).").format(line=first))
                continue
            answered[question] = item.line
            if item.CONSTANT_ANSWER:
                lasting.add(question)
        else:
            for question in [q for q in answered if q not in lasting]:
                del answered[question]
        handler = handler_for(item)
        if handler is None:
            session.reply.error(
                item.line, _("This judge reads this command but does not carry it out yet.")
            )
            continue
        try:
            if item.WRITES_NOTHING_BEFORE_REFUSING or item.OWN_SAVEPOINTS:
                outcome = handler(item, session)
            else:
                with session.uow.session.begin_nested():
                    outcome = handler(item, session)
        except CommandRefused as refusal:
            session.reply.error(item.line, refusal.message)
            if refusal.stop:
                session.stop = True
            continue
        if outcome is Next.STOP:
            session.stop = True
    if not _admitted(session):
        return
    for finish in session.finishers:
        finish()


def _admitted(session: MailSession) -> bool:
    """Whether the mail runs on: always, but for a mail past the flood limit, which runs on only
    if ``session.admit`` says so once its sign-ons have run (asked once; else the mail is held)."""
    if session.admit is None:
        return True
    if session.admit(session):
        session.admit = None
        return True
    session.held = session.stop = True
    return False


def _game_map(session: MailSession) -> GameMap | None:
    """The map of the game signed on to (its province names), or None for the Standard map."""
    if session.game is None:
        return None
    try:
        return game_map_of(session.game)
    except CoreError:
        return None
