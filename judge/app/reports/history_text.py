"""HISTORY: what an observer of a game received, over a period or a range of phases.

The Judge's HISTORY returned "every message an observer would have
received" (seed 004): the results of each phase, broadcasts, press sent to
the observers, postal press and the judge's notices. Nothing is re-sent
from the outbox (which also holds private replies); each item is rebuilt
from where it is kept for its own sake:

* results: the phase records, whose ``results["report"]`` holds the results
  mail as it was rendered in each language used (:mod:`judge.app.phases.processing`);
  phases a ROLLBACK abandoned were received too, and are marked so;
* press: :meth:`judge.db.repositories.press.PressRepository.for_game`; an
  observer got every broadcast, postal press and notice, and partial press
  only when it was addressed to the observers (``O``), seen as the
  observers saw it: no sender for grey press, the shown recipients of a fake;
* the diaries, published when the game is over.

Two forms (conventions §4):

* ``HISTORY [game] [FROM d] [TO d] [LINES n]``: the items sent from ``d``
  (default: seven days ago) until ``d`` (default: now), at most ``n`` lines
  (default 1000) — the earliest are kept and the cut is said;
* ``HISTORY [game] EXCLSTART p [EXCLEND q] [BROAD]``: only the results of the
  phases ``p`` to ``q`` (both included; default: to the last one), and with
  ``BROAD`` the broadcasts, observers' press and notices of those phases too.

Dates are read as the Judge read them, in the past: a date without a year is
its latest occurrence not in the future, a week day alone the latest such
day, a missing time 00:00, in the judge's time zone.
"""

from __future__ import annotations

import calendar
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import select

from judge.app.audience.blind_view import EVERYTHING, View
from judge.app.audience.council_members import member_addresses_hidden
from judge.app.game_state.game_facts import is_gunboat, power_name
from judge.app.game_state.variant_rules import game_map_of
from judge.app.mail_out.press_rules import (
    council_header_text,
    header_text,
    readers_named,
    writes_as,
)
from judge.app.reports.results import BLIND_REPORTS
from judge.core.phase import Phase
from judge.db.database import UnitOfWork
from judge.db.enums import GameState, PhaseState, PressKind
from judge.db.models import DiaryEntry, Game, PhaseRecord, PressMessage
from judge.i18n import Gettext
from judge.lang.dates import DateSpec
from judge.lang.powers import MASTER_LETTER, OBSERVER_LETTER, power_letters
from judge.mail.compose import judge_date

DEFAULT_DAYS = 7
DEFAULT_LINES = 1000
SEPARATOR = "====="
ENDED = (GameState.FINISHED, GameState.TERMINATED)


class HistoryDateError(ValueError):
    """A FROM or TO date that names no day (``31 Feb``); ``text`` is the date as written."""

    def __init__(self, text: str) -> None:
        super().__init__(f"no such date: {text}")
        self.text = text


@dataclass(frozen=True)
class HistoryItem:
    """One thing an observer received: when, for which phase, a title line and its text."""

    at: datetime
    phase: str | None
    title: str
    lines: tuple[str, ...]
    results: bool = False


@dataclass(frozen=True)
class HistoryRequest:
    """What a HISTORY command asks for, with the dates already turned into instants."""

    since: datetime | None = None
    until: datetime | None = None
    max_lines: int = DEFAULT_LINES
    first_phase: Phase | None = None
    last_phase: Phase | None = None
    broad: bool = False

    @property
    def by_phase(self) -> bool:
        return self.first_phase is not None


# -- dates ----------------------------------------------------------------------------------------


def past_instant(spec: DateSpec, now: datetime, zone: ZoneInfo) -> datetime:
    """The instant a FROM/TO date means, looking back from ``now`` (aware UTC result).

    Missing year: the latest such date not after today. Week day alone: the
    latest such day not after today. Day alone: this month, else the month
    before. Month alone: its first day. Missing time: 00:00. Raises
    HistoryDateError for a date that does not exist.
    """
    today = now.astimezone(zone).date()
    wall = time(spec.hour or 0, spec.minute or 0)
    day = _past_day(spec, today)
    return datetime.combine(day, wall, tzinfo=zone).astimezone(UTC)


def _past_day(spec: DateSpec, today: date) -> date:
    if spec.day is None and spec.month is None and spec.year is None:
        if spec.weekday is None:
            return today
        return today - timedelta(days=(today.weekday() - spec.weekday) % 7)
    if spec.month is None and spec.year is None:
        assert spec.day is not None
        for back in range(13):
            month_index = today.year * 12 + today.month - 1 - back
            candidate = _valid(month_index // 12, month_index % 12 + 1, spec.day)
            if candidate is not None and candidate <= today:
                return candidate
        raise HistoryDateError(spec.text)
    month = spec.month or 1
    day = spec.day or 1
    if spec.year is not None:
        found = _valid(spec.year, month, day)
        if found is None:
            raise HistoryDateError(spec.text)
        return found
    for year in range(today.year, today.year - 9, -1):
        candidate = _valid(year, month, day)
        if candidate is not None and candidate <= today:
            return candidate
    raise HistoryDateError(spec.text)


def _valid(year: int, month: int, day: int) -> date | None:
    if not 1 <= month <= 12 or not 1 <= day <= calendar.monthrange(year, month)[1]:
        return None
    return date(year, month, day)


# -- what an observer received ----------------------------------------------------------------------


def observer_saw(message: PressMessage) -> bool:
    """Whether the observers got this press message (broadcasts, postal, notices, press to ``O``)."""
    if message.kind in (PressKind.BROADCAST, PressKind.POSTAL, PressKind.NOTICE):
        return True
    return OBSERVER_LETTER in message.recipients


def _recipient_names(game: Game, recipients: Sequence[str], language: str) -> str:
    """Stored recipients (power names or letters, ``O``, ``M``) as a reader names them, the powers
    in the map's order."""
    the_map = game_map_of(game)
    letters = power_letters(the_map)
    powers = [letters.get(item, item) for item in recipients if item not in (OBSERVER_LETTER, MASTER_LETTER)]
    order = list(the_map.powers)
    powers.sort(key=lambda p: order.index(p) if p in order else len(order))
    return readers_named(
        powers, observers=OBSERVER_LETTER in recipients, masters=MASTER_LETTER in recipients, language=language
    )


def press_header(game: Game, message: PressMessage, language: str, *, addresses: bool = True) -> str:
    """The line above a press text, as the observers' copy had it: the press mail's own header
    (:func:`judge.app.mail_out.press_rules.header_text`) from the stored message.

    The recipients shown (``shown_recipients``, an empty list meaning "shown as a broadcast"),
    no sender for grey press, no address in a gunboat game. A ``TO ALL BUT`` list is stored
    resolved, so it reads as the names it reached.

    ``addresses=False`` (the public web pages, :mod:`judge.web`): never the sender's address,
    the power alone, and no sender at all when there is no power or role to name.

    A council member's press (``sender_member_role`` kept) has the council's own header, which
    names his seat and power, never his address (:func:`council_header_text`). A member's press
    kept before the role was (None) names no address either in a council game
    (:func:`member_addresses_hidden`): the power alone, or no sender when none was kept.
    """
    shown = message.shown_recipients if message.shown_recipients is not None else message.recipients
    broadcast = message.kind in (PressKind.BROADCAST, PressKind.POSTAL) or not shown
    if message.sender_member_role is not None and message.sender_power is not None:
        return council_header_text(
            language, role=message.sender_member_role, rank=message.sender_member_rank,
            power=message.sender_power, recipients=None if broadcast else message.recipients,
        )  # fmt: skip
    as_who = writes_as(message.sender_power, message.sender_role, language)
    addresses = addresses and not (message.sender_role == "power" and member_addresses_hidden(game))
    address = (message.sender_address or "") if addresses else ""
    return header_text(
        game, language,
        recipients=None if broadcast else _recipient_names(game, shown, language),
        grey=message.grey or (not addresses and as_who is None),
        as_who=as_who,
        address=address,
        hide_address=is_gunboat(game) and message.sender_power is not None,
    )  # fmt: skip


def press_item(
    game: Game, message: PressMessage, language: str, _: Gettext, *, addresses: bool = True
) -> HistoryItem:
    """A press message as the observers' copy read, titled like its mail's subject (English, as
    subjects are); ``addresses=False``: its header names no address (:func:`press_header`)."""
    body = tuple(message.body.rstrip().splitlines())
    if message.kind is PressKind.NOTICE:
        return HistoryItem(message.sent_at, message.phase, "Notice", body)
    title = {PressKind.BROADCAST: "Broadcast", PressKind.POSTAL: "Postal Press"}.get(message.kind, "Press")
    return HistoryItem(
        message.sent_at, message.phase, title,
        (press_header(game, message, language, addresses=addresses), "", *body),
    )


def results_text(record: PhaseRecord, language: str, _: Gettext, view: View = EVERYTHING) -> list[str]:
    """The results mail of a processed phase, in the reader's language when it was rendered in it.

    Phases processed before the rendered mail was kept get a plain list of
    the orders and their outcomes from the stored ruling. In a running Fog of War game, the text
    the reader's ``view`` was mailed (:mod:`judge.app.audience.blind_view`), nothing else.
    """
    results: dict[str, Any] = record.results or {}
    if not view.everything:
        shown = (results.get(BLIND_REPORTS) or {}).get(view.key)
        if isinstance(shown, dict) and shown:
            chosen = shown.get(language) or shown.get("en") or next(iter(shown.values()))
            return str(chosen).rstrip().splitlines()
        return [_("This is a Fog of War game: what happened is shown to observers when the game is over.")]
    reports = results.get("report")
    if isinstance(reports, dict) and reports:
        chosen = reports.get(language) or reports.get("en") or next(iter(reports.values()))
        return str(chosen).rstrip().splitlines()
    lines = [_("Results of {phase}:").format(phase=record.name)]
    for entry in results.get("results", []):
        if isinstance(entry, dict):
            outcome = entry.get("outcome") or ""
            lines.append(f"  {entry.get('power', '?')}: {entry.get('order') or entry.get('unit')} ({outcome})")
    return lines


def results_items(
    uow: UnitOfWork, game: Game, language: str, _: Gettext, view: View = EVERYTHING
) -> list[HistoryItem]:
    """Every results mail of the game, rolled-back timelines included (observers got those too)."""
    records = uow.session.scalars(
        select(PhaseRecord)
        .where(PhaseRecord.game_id == game.id, PhaseRecord.processed_at.is_not(None))
        .order_by(PhaseRecord.processed_at, PhaseRecord.id)
    )
    items: list[HistoryItem] = []
    for record in records:
        assert record.processed_at is not None
        title = f"{record.name} Results"
        if record.state is PhaseState.ROLLED_BACK:
            title += " " + _("(later rolled back)")
        items.append(
            HistoryItem(record.processed_at, record.name, title, tuple(results_text(record, language, _, view)), True)
        )
    return items


def published_diaries(uow: UnitOfWork, game: Game, language: str, _: Gettext) -> list[str]:
    """Every diary entry of the game, by author, oldest first: what is published when it is over."""
    entries = list(
        uow.session.scalars(
            select(DiaryEntry)
            .where(DiaryEntry.game_id == game.id, DiaryEntry.deleted_at.is_(None))
            .order_by(DiaryEntry.created_at, DiaryEntry.id)
        )
    )
    seats = {seat.id: seat for seat in game.seats}
    masters = {master.person_id for master in game.masters}
    lines: list[str] = []
    for entry in entries:
        seat = seats.get(entry.seat_id) if entry.seat_id is not None else None
        if seat is not None and seat.power is not None:
            author = power_name(seat.power, language)
        elif seat is None and entry.person_id in masters:
            author = _("Master")
        else:
            author = _("Observer")
        lines += [
            _("Diary of {author}, {phase}:").format(author=author, phase=entry.phase or "-"),
            *entry.body.rstrip().splitlines(),
            "",
        ]
    return lines[:-1] if lines else lines


def collect(
    uow: UnitOfWork, game: Game, request: HistoryRequest, language: str, _: Gettext, view: View = EVERYTHING
) -> list[HistoryItem]:
    """The items the request covers, oldest first."""
    items = results_items(uow, game, language, _, view)
    if not request.by_phase or request.broad:
        items += [
            press_item(game, message, language, _)
            for message in uow.press.for_game(game)
            if observer_saw(message)
        ]
    if game.state in ENDED and game.finished_at is not None and not request.by_phase:
        diaries = published_diaries(uow, game, language, _)
        if diaries:
            items.append(HistoryItem(game.finished_at, game.current_phase, "Diaries", tuple(diaries)))
    items.sort(key=lambda item: item.at)
    return [item for item in items if _wanted(item, request)]


def _wanted(item: HistoryItem, request: HistoryRequest) -> bool:
    if request.by_phase:
        if item.phase is None:
            return False
        try:
            phase = Phase.parse(item.phase)
        except ValueError:
            return False
        assert request.first_phase is not None
        if phase < request.first_phase:
            return False
        return request.last_phase is None or phase <= request.last_phase
    if request.since is not None and item.at < request.since:
        return False
    return request.until is None or item.at <= request.until


def history_lines(
    uow: UnitOfWork,
    game: Game,
    request: HistoryRequest,
    *,
    code: str,
    language: str,
    zone: ZoneInfo,
    _: Gettext,
    view: View = EVERYTHING,
) -> list[str]:
    """The HISTORY report: a heading, each item under its date and title, and how it ended (in a
    Fog of War game, the results as the reader's ``view`` was told them)."""
    if request.by_phase:
        assert request.first_phase is not None
        last = str(request.last_phase) if request.last_phase is not None else _("the last phase")
        heading = _("History of game '{game}' from {first} to {last}:").format(
            game=game.name, first=request.first_phase, last=last
        )
    else:
        heading = _("History of game '{game}' from {since} to {until}:").format(
            game=game.name,
            since=judge_date(request.since, zone) if request.since else "-",
            until=judge_date(request.until, zone) if request.until else "-",
        )
    items = collect(uow, game, request, language, _, view)
    if not items:
        return [heading, "", _("Nothing was sent to the observers of this game in that period.")]
    body: list[str] = []
    for item in items:
        body += [f"{SEPARATOR} {judge_date(item.at, zone)}  {code}:{game.name} - {item.title}", *item.lines, ""]
    if len(body) > request.max_lines:
        return [
            heading,
            "",
            *body[: request.max_lines],
            "",
            _("The history was cut after {count} lines: ask again with a later FROM date "
              "or a larger LINES.").format(count=request.max_lines),
        ]
    return [heading, "", *body, _("End of the history of game '{game}'.").format(game=game.name)]
