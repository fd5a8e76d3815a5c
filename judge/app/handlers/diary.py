"""DIARY [RECORD] text ENDDIARY / DIARY LIST / DIARY READ n / DIARY DELETE n.

A diary is a player's private notes on the game, kept by the judge and
published to everyone when the game is over (conventions §2). Players write
as their power, masters and registered observers as themselves; each sees
and changes only their own entries until the end.

Entries are numbered 1, 2, 3... per author in the order they were written,
and keep their number when an earlier one is deleted (deleted entries are
kept, marked, so a number never changes meaning). Once the game is over
the diaries are published: DIARY LIST shows every author's entries, and
nothing can be recorded or deleted any more.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from judge.app.reports.history_text import published_diaries
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import GameState
from judge.db.models import DiaryEntry, Game, Seat
from judge.lang.commands import Diary, DiaryAction
from judge.mail.compose import judge_date

ENDED = (GameState.FINISHED, GameState.TERMINATED)
PREVIEW = 50


@dataclass(frozen=True)
class Author:
    """Whose diary: a seat (a player, as their power) or a person (a master, an observer)."""

    seat: Seat | None
    person_id: int | None


def _author(session: MailSession) -> Author:
    _ = session.gettext
    if session.role is Role.POWER and session.seat is not None:
        return Author(session.seat, None)
    if session.role is Role.MASTER and session.master is not None:
        return Author(None, session.master.person_id)
    if session.role is Role.OBSERVER and session.person is not None:
        return Author(None, session.person.id)
    raise CommandRefused(_("Only registered observers may keep a diary: send REGISTER first (see HELP)."))


def _own_entries(session: MailSession, game: Game, author: Author) -> list[DiaryEntry]:
    """The author's entries, deleted ones included, in the order they were written (numbering)."""
    query = select(DiaryEntry).where(DiaryEntry.game_id == game.id)
    if author.seat is not None:
        query = query.where(DiaryEntry.seat_id == author.seat.id)
    else:
        query = query.where(DiaryEntry.seat_id.is_(None), DiaryEntry.person_id == author.person_id)
    return list(session.uow.session.scalars(query.order_by(DiaryEntry.created_at, DiaryEntry.id)))


def _entry(session: MailSession, entries: list[DiaryEntry], number: int | None) -> DiaryEntry:
    _ = session.gettext
    if number is None or not 1 <= number <= len(entries) or entries[number - 1].deleted_at is not None:
        raise CommandRefused(
            _("You have no diary entry {number}: DIARY LIST shows your entries.").format(number=number)
        )
    return entries[number - 1]


@handles(Diary)
def handle(command: Diary, session: MailSession) -> Next:
    _ = session.gettext
    game = session.game
    if game is None or session.role is None:
        raise CommandRefused(_("DIARY needs a SIGNON first: whose diary, in which game?"))
    ended = game.state in ENDED
    if ended and command.action is DiaryAction.LIST:
        published = published_diaries(session.uow, game, session.language, _)
        session.reply.ok(
            command.line,
            _("Game '{game}' is over: its diaries are published.").format(game=game.name),
            *(["", *published] if published else [_("Nobody kept a diary in this game.")]),
        )
        return Next.CONTINUE
    author = _author(session)
    entries = _own_entries(session, game, author)
    if command.action is DiaryAction.RECORD:
        if ended:
            raise CommandRefused(_("Game '{game}' is over and its diaries are published: nothing more "
                                   "can be recorded.").format(game=game.name))
        if not command.body.strip():
            raise CommandRefused(_("This diary entry has no text; nothing was recorded."))
        session.uow.press.add_diary(game, command.body.rstrip(), session.now, seat=author.seat,
                                    person_id=author.person_id)
        session.reply.ok(
            command.line,
            _("Diary entry {number} recorded. It stays private until the game is over.").format(
                number=len(entries) + 1
            ),
        )
    elif command.action is DiaryAction.LIST:
        session.reply.ok(command.line, *_list_lines(session, game, entries))
    elif command.action is DiaryAction.READ:
        entry = _entry(session, entries, command.entry)
        session.reply.ok(
            command.line,
            _("Diary entry {number}, {phase}, {date}:").format(
                number=command.entry,
                phase=entry.phase or "-",
                date=judge_date(entry.created_at, session.services.config.timezone),
            ),
            *entry.body.splitlines(),
        )
    else:
        if ended:
            raise CommandRefused(_("Game '{game}' is over and its diaries are published: nothing can "
                                   "be deleted.").format(game=game.name))
        entry = _entry(session, entries, command.entry)
        entry.deleted_at = session.now
        session.uow.flush()
        session.reply.ok(command.line, _("Diary entry {number} deleted.").format(number=command.entry))
    return Next.CONTINUE


def _list_lines(session: MailSession, game: Game, entries: list[DiaryEntry]) -> list[str]:
    _ = session.gettext
    kept = [(number, e) for number, e in enumerate(entries, start=1) if e.deleted_at is None]
    if not kept:
        return [_("You have no diary entries in game '{game}'.").format(game=game.name)]
    zone = session.services.config.timezone
    lines = [_("Your diary entries in game '{game}':").format(game=game.name)]
    for number, entry in kept:
        first = entry.body.strip().splitlines()[0] if entry.body.strip() else ""
        if len(first) > PREVIEW:
            first = first[: PREVIEW - 3] + "..."
        lines.append(f"  {number:>3}. {entry.phase or '-':<7} {judge_date(entry.created_at, zone)}  {first}")
    return lines
