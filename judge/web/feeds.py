"""Atom feeds and the deadlines calendar: the same facts as the pages, for feed readers.

The judge's feed: each listed game's creation and each processed phase of every listed game.
A game's feed: each processed phase (its results as the observers got them, a link to its
map) and each press the observers received (the pages' own entries, without addresses).
The calendar: the game's next deadline, as LIST tells it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from xml.sax.saxutils import escape, quoteattr

from sqlalchemy import select

from judge.app.reports.history_text import observer_saw, press_item, results_text
from judge.db.database import UnitOfWork
from judge.db.enums import GameState, PhaseState
from judge.db.models import Game, PhaseRecord
from judge.web import views

ENTRIES = 100
"""Newest entries a feed holds."""


def _stamp(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _entry(ident: str, title: str, when: datetime, link: str, text: str, picture: str | None = None) -> str:
    enclosure = f'<link rel="enclosure" type="image/png" href={quoteattr(picture)}/>' if picture else ""
    return (
        f"<entry><id>{escape(ident)}</id><title>{escape(title)}</title><updated>{_stamp(when)}</updated>"
        f"<link href={quoteattr(link)}/>{enclosure}<content type=\"text\">{escape(text)}</content></entry>"
    )


def _feed(ident: str, title: str, link: str, entries: list[tuple[datetime, str]]) -> str:
    entries.sort(key=lambda item: item[0], reverse=True)
    entries = entries[:ENTRIES]
    updated = entries[0][0] if entries else datetime(2000, 1, 1, tzinfo=UTC)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
        f"<id>{escape(ident)}</id><title>{escape(title)}</title><updated>{_stamp(updated)}</updated>"
        f"<link href={quoteattr(link)}/>" + "".join(text for _, text in entries) + "</feed>\n"
    )


def _results(uow: UnitOfWork, games: list[Game]) -> list[PhaseRecord]:
    if not games:
        return []
    return list(
        uow.session.scalars(
            select(PhaseRecord)
            .where(
                PhaseRecord.game_id.in_([game.id for game in games]),
                PhaseRecord.processed_at.is_not(None),
                PhaseRecord.state != PhaseState.ROLLED_BACK,
            )
            .order_by(PhaseRecord.processed_at.desc())
            .limit(ENTRIES)
        )
    )


def judge_feed(uow: UnitOfWork, reader: views.Reader, base: str, title: str) -> str:
    _ = reader.gettext
    games = views.public_games(uow)
    names = {game.id: game.name for game in games}
    entries: list[tuple[datetime, str]] = []
    for game in games:
        link = f"{base}/games/{game.name}"
        entries.append((game.created_at, _entry(f"{link}#created", _("New game {game}").format(game=game.name),
                                                game.created_at, link, views.game_row(game, reader).variant)))
    for record in _results(uow, games):
        assert record.processed_at is not None
        link = f"{base}/games/{names[record.game_id]}/{record.name}"
        text = "\n".join(results_text(record, reader.language, _))
        heading = _("{game}: results of {phase}").format(game=names[record.game_id], phase=record.name)
        entries.append((record.processed_at, _entry(f"{link}#{record.id}", heading, record.processed_at, link, text)))
    return _feed(f"{base}/feed.atom", title, f"{base}/", entries)


def game_feed(uow: UnitOfWork, game: Game, reader: views.Reader, base: str) -> str:
    _ = reader.gettext
    link = f"{base}/games/{game.name}"
    entries: list[tuple[datetime, str]] = []
    for record in views.timeline(uow, game):
        if record.processed_at is None:
            continue
        page = f"{link}/{record.name}"
        text = "\n".join(results_text(record, reader.language, _)) + f"\n\n{page}.png"
        heading = _("{game}: results of {phase}").format(game=game.name, phase=record.name)
        entries.append(
            (record.processed_at, _entry(f"{page}#{record.id}", heading, record.processed_at, page, text, f"{page}.png"))
        )
    for message in uow.press.for_game(game):
        if not observer_saw(message):
            continue
        item = press_item(game, message, reader.language, _, addresses=False)
        entries.append((message.sent_at, _entry(f"{link}#press-{message.id}", f"{game.name}: {item.title}",
                                                message.sent_at, link, "\n".join(item.lines))))
    return _feed(f"{link}/feed.atom", game.name, link, entries)


def _ics_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def deadlines_ics(game: Game, base: str, now: datetime) -> str:
    """The game's next deadline (and grace end) as iCalendar events; none when it has no deadline."""
    link = f"{base}/games/{game.name}"
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//diplomacy-judge//web//EN",
             f"X-WR-CALNAME:{_ics_text(game.name)}"]
    if game.state is GameState.ACTIVE:
        for what, when in (("deadline", game.deadline_at), ("grace", game.grace_at)):
            if when is None:
                continue
            stamp = when.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
            summary = f"{game.name} {game.current_phase or ''} {what}".strip()
            lines += [
                "BEGIN:VEVENT",
                f"UID:{_ics_text(f'{game.name}-{game.current_phase}-{what}-{stamp}')}@diplomacy-judge",
                f"DTSTAMP:{now.astimezone(UTC).strftime('%Y%m%dT%H%M%SZ')}",
                f"DTSTART:{stamp}",
                f"DTEND:{(when + timedelta(minutes=15)).astimezone(UTC).strftime('%Y%m%dT%H%M%SZ')}",
                f"SUMMARY:{_ics_text(summary)}",
                f"URL:{_ics_text(link)}",
                "END:VEVENT",
            ]
    lines.append("END:VCALENDAR")
    return "\r\n".join(lines) + "\r\n"
