"""What each page shows, read from the database through the mail path's own rules.

Every function here takes a read-only unit of work and returns plain values for a template
or a JSON answer. Nothing decides a visibility rule of its own; each question is asked of
the place the mail replies ask it:

* which games: :func:`judge.app.reports.listing.publicly_listed` (SET NOLIST hides a game
  from the pages altogether: every page of it is a 404);
* who plays: :func:`judge.app.reports.summary_text.identities_hidden` (a gunboat game's players are
  shown when the game is over, never when NoReveal), as SUMMARY tells an observer; council
  members and spies are never listed (only the final summary mailed at the end names them,
  with their addresses);
* press: :func:`judge.app.reports.history_text.observer_saw` (broadcasts, postal press, notices,
  press to the observers; never private or council press) under the observers' own header,
  written with ``addresses=False``;
* orders and results: the processed phase records only (HISTORY's
  :func:`judge.app.reports.history_text.results_text`); an open phase shows its board alone;
* maps: :func:`judge.app.mail_out.results_maps.phase_svg`, which draws orders only once a phase is processed;
* a Fog of War game (SET BLIND): :func:`judge.app.audience.blind_view.view_of`, whose view of a
  visitor sees nothing of a running blind game: its pages are those of no game until it is over.

Names of people (registration names) are shown where SUMMARY shows them; their addresses,
never.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from judge.app.audience.blind_view import view_of
from judge.app.game_state.boards import from_json
from judge.app.game_state.game_facts import describe_variant, power_name
from judge.app.game_state.setting_table import bot_seat_level
from judge.app.game_state.variant_rules import game_map_of
from judge.app.games.lifecycle import open_seats
from judge.app.hooks.game_hooks import hooks_for
from judge.app.mail_out.results_maps import phase_svg
from judge.app.reports.final_summary import outcome_line, score_table
from judge.app.reports.history_text import (
    ENDED,
    observer_saw,
    press_item,
    published_diaries,
    results_text,
)
from judge.app.reports.listing import (
    board_lines,
    parameter_lines,
    phase_text,
    press_code,
    press_legend,
    publicly_listed,
    state_word,
)
from judge.app.reports.summary_text import centres_by_year, identities_hidden, positions_in_order
from judge.core.order_json import without_order_values
from judge.db.database import UnitOfWork
from judge.db.enums import GameState, SeatStatus
from judge.db.models import Game, Person, PhaseRecord, Seat, SeatTenure
from judge.db.repositories.councils import councils_enabled
from judge.i18n import N_
from judge.timekeeping.dates import tell_date

Gettext = Callable[[str], str]

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
"""What a game name in a path may look like before the database is asked (anything else: 404)."""
PHASE_PATTERN = re.compile(r"^[A-Za-z0-9]{2,16}$")

GROUPS: tuple[tuple[str, tuple[GameState, ...]], ...] = (
    ("forming", (GameState.FORMING,)),
    ("active", (GameState.ACTIVE, GameState.PAUSED)),
    ("finished", (GameState.FINISHED, GameState.TERMINATED)),
)


@dataclass(frozen=True)
class Reader:
    """Who reads a page: the language it is written in, the zone its times are told in."""

    language: str
    zone: ZoneInfo
    gettext: Gettext

    def date(self, when: datetime | None) -> str:
        return tell_date(when, self.zone, self.gettext) if when is not None else ""


# -- finding what may be shown ----------------------------------------------------------------


def public_game(uow: UnitOfWork, name: str) -> Game | None:
    """The game called ``name`` if the pages may show it; None for no such game, an odd name,
    or a game the master made private (the pages cannot tell those apart)."""
    if not NAME_PATTERN.match(name):
        return None
    game = uow.games.by_name(name)
    if game is None or not publicly_listed(game) or view_of(game).nothing:
        return None
    return game


def public_games(uow: UnitOfWork) -> list[Game]:
    """The games the pages list, by name, their seats read with them (one query, not one a game)."""
    games = uow.session.scalars(select(Game).options(selectinload(Game.seats)).order_by(Game.name))
    return [game for game in games if publicly_listed(game) and not view_of(game).nothing]


def timeline(uow: UnitOfWork, game: Game) -> list[PhaseRecord]:
    """The phases of the game's current timeline, oldest first (as SUMMARY and MAP read them);
    their boards and results are read only for the phases a page uses."""
    return uow.phases.history(game, boards=False)


def tenure_names(uow: UnitOfWork, game: Game) -> dict[int, list[str]]:
    """{seat id: the names of who held it, in order}, in one query (not one a tenure)."""
    rows = uow.session.execute(
        select(SeatTenure.seat_id, Person.name)
        .join(Seat, Seat.id == SeatTenure.seat_id)
        .join(Person, Person.id == SeatTenure.person_id)
        .where(Seat.game_id == game.id)
        .order_by(SeatTenure.id)
    )
    names: dict[int, list[str]] = {}
    for seat_id, name in rows:
        names.setdefault(seat_id, []).append((name or "").strip() or "?")
    return names


def find_phase(records: Sequence[PhaseRecord], name: str) -> int | None:
    """The index of the phase called ``name`` (any case) in the timeline, or None."""
    if not PHASE_PATTERN.match(name):
        return None
    wanted = name.upper()
    found = [index for index, record in enumerate(records) if record.name.upper() == wanted]
    return found[-1] if found else None


# -- the list of games --------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRow:
    name: str
    state: str
    variant: str
    phase: str
    deadline: str
    press: str
    open_powers: list[str]
    forming: bool


def game_row(game: Game, reader: Reader) -> GameRow:
    _ = reader.gettext
    deadline = game.deadline_at if game.state is GameState.ACTIVE else None
    return GameRow(
        name=game.name,
        state=state_word(game.state, _),
        variant=describe_variant(game),
        phase=phase_text(game.current_phase, _) if game.state is not GameState.FORMING else "-",
        deadline=reader.date(deadline),
        press=press_code(game),
        open_powers=[power_name(seat.power or "", reader.language) for seat in open_seats(game)]
        if game.state in (GameState.ACTIVE, GameState.PAUSED)
        else [],
        forming=game.state is GameState.FORMING,
    )


def legend(reader: Reader) -> str:
    """What the press column's letters mean (LIST's own legend)."""
    return press_legend(reader.gettext)


def game_groups(uow: UnitOfWork, reader: Reader) -> list[tuple[str, list[GameRow]]]:
    """(group key, its games) for forming, active (paused too) and finished games."""
    games = public_games(uow)
    return [
        (key, [game_row(game, reader) for game in games if game.state in states])
        for key, states in GROUPS
    ]


# -- one game ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PowerRow:
    power: str
    name: str
    centres: int
    units: int
    players: list[str]
    bot: str = ""
    """How the pages name the bot that plays the power (a practice game's seat, SET BOTS), else empty."""


@dataclass(frozen=True)
class PhaseLink:
    name: str
    text: str
    processed: bool


@dataclass(frozen=True)
class PressEntry:
    when: str
    phase: str
    title: str
    header: str
    body: str


@dataclass
class GamePage:
    row: GameRow
    started: str
    finished: str
    masters: list[str]
    players_hidden: bool
    councils: bool
    powers: list[PowerRow]
    phases: list[PhaseLink]
    current: str | None
    parameters: list[str]
    centres: CentreRows
    press: list[PressEntry]
    final: list[str] = field(default_factory=list)
    scores: list[str] = field(default_factory=list)
    diaries: list[str] = field(default_factory=list)


def players_hidden(game: Game) -> bool:
    """Whether the pages name no player of ``game``: SUMMARY's rule for an observer (a gunboat
    game's players until the end, for ever if NoReveal), and always in a council game, whose
    members only the final summary mailed at the end names (with the spies and addresses)."""
    return identities_hidden(game, viewer_is_master=False) or councils_enabled(game)


def person_name(person: Any) -> str:
    """A person as the pages name them: their registration name, never an address."""
    name = (getattr(person, "name", "") or "").strip()
    return name or "?"


def power_rows(
    uow: UnitOfWork, game: Game, records: Sequence[PhaseRecord], reader: Reader, *, hidden: bool
) -> list[PowerRow]:
    the_map = game_map_of(game)
    position = None
    if records:
        last = records[-1]
        position = from_json(last.position_after if last.position_after is not None else last.position_before)
    _ = reader.gettext
    seats = {seat.power: seat for seat in game.seats if seat.power is not None}
    names = tenure_names(uow, game) if not hidden else {}
    rows = []
    for power in the_map.powers:
        seat = seats.get(power)
        players: list[str] = []
        if not hidden and seat is not None:
            players = names.get(seat.id, [])
        rows.append(
            PowerRow(
                power=power,
                name=power_name(power, reader.language),
                centres=len(position.centers.get(power, frozenset())) if position else 0,
                units=sum(1 for unit in position.units if unit.power == power) if position else 0,
                players=list(dict.fromkeys(players)),
                bot=(_("the {level} bot").format(level=bot_seat_level(game))
                     if seat is not None and seat.status is SeatStatus.BOT else ""),
            )
        )
    return rows


PRESS_TITLES = {
    "Broadcast": N_("Broadcast"),
    "Press": N_("Press"),
    "Postal Press": N_("Postal press"),
    "Notice": N_("Notice from the judge"),
}
"""HISTORY's titles (English, as mail subjects are) as a page in the reader's language says them."""


def press_entries(uow: UnitOfWork, game: Game, reader: Reader) -> list[PressEntry]:
    """The press the observers received, oldest first, as their copies read without addresses."""
    _ = reader.gettext
    entries = []
    for message in uow.press.for_game(game):
        if not observer_saw(message):
            continue
        item = press_item(game, message, reader.language, _, addresses=False)
        lines = list(item.lines)
        header = ""
        if lines and item.title != "Notice":
            header, lines = lines[0], lines[2:]
        title = _(PRESS_TITLES[item.title]) if item.title in PRESS_TITLES else item.title
        entries.append(PressEntry(reader.date(item.at), item.phase or "", title, header, "\n".join(lines)))
    return entries


CentreRows = list[tuple[int, dict[str, int]]]


def centre_rows(records: Sequence[PhaseRecord]) -> CentreRows:
    """The centres of each power at each year's end, as SUMMARY counts them."""
    return [(row.year, row.counts) for row in centres_by_year(positions_in_order(records))]


def timeline_key(records: Sequence[PhaseRecord]) -> tuple[object, ...]:
    """What :func:`centre_rows` of a timeline depends on: its records, and whether each is processed."""
    return (records[0].game_id if records else None, tuple((record.id, record.opened_at, record.processed_at) for record in records))


def game_page(
    uow: UnitOfWork, game: Game, reader: Reader, centres: Callable[[Sequence[PhaseRecord]], CentreRows] = centre_rows
) -> GamePage:
    """``centres``: :func:`centre_rows`, or a caller's cache of it (the pages keep them)."""
    _ = reader.gettext
    records = timeline(uow, game)
    hidden = players_hidden(game)
    page = GamePage(
        row=game_row(game, reader),
        started=reader.date(game.started_at),
        finished=reader.date(game.finished_at) if game.state in ENDED else "",
        masters=[person_name(master.person) for master in game.masters],
        players_hidden=hidden,
        councils=councils_enabled(game),
        powers=power_rows(uow, game, records, reader, hidden=hidden),
        phases=[PhaseLink(r.name, phase_text(r.name, _), r.processed_at is not None) for r in records],
        current=records[-1].name if records else None,
        parameters=parameter_lines(game, _)[1:],
        centres=centres(records),
        press=press_entries(uow, game, reader),
    )
    if game.state in ENDED:
        outcome = (game.extra_settings or {}).get("outcome")
        page.final = [outcome_line(game, outcome, reader.language, _)]
        if outcome is not None:
            page.scores = score_table(outcome, reader.language, _, hooks_for(game).centre_words)
        page.diaries = published_diaries(uow, game, reader.language, _)
    return page


# -- one phase -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PhasePage:
    game: str
    name: str
    text: str
    processed: bool
    deadline: str
    results: list[str]
    board: list[str]
    previous: str | None
    next: str | None


def phase_page(game: Game, records: Sequence[PhaseRecord], index: int, reader: Reader) -> PhasePage:
    _ = reader.gettext
    record = records[index]
    processed = record.processed_at is not None
    position = from_json(record.position_before)
    return PhasePage(
        game=game.name,
        name=record.name,
        text=phase_text(record.name, _),
        processed=processed,
        deadline=reader.date(record.deadline_at) if not processed else "",
        results=results_text(record, reader.language, _) if processed else [],
        board=board_lines(position, game_map_of(game), reader.language, _),
        previous=records[index - 1].name if index > 0 else None,
        next=records[index + 1].name if index + 1 < len(records) else None,
    )


def map_colours(game: Game) -> dict[str, str]:
    """Each power's colour on the game's map, for the chart to match it."""
    from judge.maps.render import power_colours

    return power_colours(game_map_of(game))


def picture(game: Game, records: Sequence[PhaseRecord], index: int, language: str) -> str:
    """The SVG of a phase in ``language``: with its orders and results only once it is processed."""
    return phase_svg(game, records[index], records[index - 1] if index > 0 else None, language)


def picture_key(records: Sequence[PhaseRecord], index: int, language: str) -> tuple[object, ...]:
    """What a cached picture depends on: the record (a rollback makes a new one), whether it is
    processed (its picture gains the orders then) and its language."""
    record = records[index]
    return (record.game_id, record.id, record.name, record.opened_at, record.processed_at, language)


# -- JSON for tools ------------------------------------------------------------------------------


def _iso(when: datetime | None) -> str | None:
    return when.isoformat() if when is not None else None


def game_summary_json(game: Game) -> dict[str, Any]:
    return {
        "name": game.name,
        "state": game.state.value,
        "variant": game.variant,
        "options": list(game.rule_options),
        "phase": game.current_phase if game.state is not GameState.FORMING else None,
        "deadline": _iso(game.deadline_at) if game.state is GameState.ACTIVE else None,
        "press": press_code(game),
        "open_powers": [seat.power for seat in open_seats(game)]
        if game.state in (GameState.ACTIVE, GameState.PAUSED)
        else [],
    }


def game_json(uow: UnitOfWork, game: Game, reader: Reader) -> dict[str, Any]:
    records = timeline(uow, game)
    hidden = players_hidden(game)
    powers = power_rows(uow, game, records, reader, hidden=hidden)
    answer = game_summary_json(game)
    answer["players_hidden"] = hidden
    answer["powers"] = [
        {"power": row.power, "centres": row.centres, "units": row.units, **({} if hidden else {"players": row.players}),
         **({"bot": bot_seat_level(game)} if row.bot else {})}
        for row in powers
    ]
    answer["phases"] = [{"name": r.name, "processed": r.processed_at is not None} for r in records]
    answer["centres_by_year"] = [
        {"year": row.year, "centres": row.counts} for row in centres_by_year(positions_in_order(records))
    ]
    return answer


def phase_json(game: Game, records: Sequence[PhaseRecord], index: int) -> dict[str, Any]:
    """A phase in the `judge adjudicate` contract's terms: its position (the input without
    orders while it is open); once processed, the input with the orders and the ruling."""
    record = records[index]
    processed = record.processed_at is not None
    answer: dict[str, Any] = {
        "game": game.name,
        "phase": record.name,
        "processed": processed,
        "position": record.position_before,
    }
    if processed:
        answer["input"] = record.orders_adjudicated
        stored = without_order_values(record.results or {})  # the contract's entries (issue 27)
        answer["result"] = {key: value for key, value in stored.items() if key != "report"}
        answer["position_after"] = record.position_after
    return answer
