"""When a game must next be looked at: its phase clock, read once, and ``next_due_at`` set from it.

:func:`plan` is the one way to re-plan a game, called the same way by every
caller: a handler whose command moves the game's clock (``plan(session.uow,
session.services, game, session.now)``), the order mail, and processing for the
phase it opens. It sits below :mod:`judge.app.phases.processing` (which opens
phases) and :mod:`judge.app.phases.scheduler` (which does what is due), both of
which read the clock from here.

The phase clock is computed once per transaction on the scheduler's path:
:func:`read_open_phase` reads the open phase and its orders (two queries),
and :func:`phase_clock` and :func:`plan` take that :class:`OpenPhase` instead
of reading them again. Nothing is cached beyond the caller's unit of work.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

from judge.app.audience.results_readers import masters_of, read_audiences
from judge.app.game_state import order_sheets as kept
from judge.app.game_state.boards import from_json
from judge.app.game_state.clock_store import phase_schedule, read_absences, with_book
from judge.app.game_state.game_rules import game_rules
from judge.app.game_state.variant_rules import game_map_of
from judge.app.hooks.game_hooks import hooks_for
from judge.app.session.services import Services
from judge.core.adjudicator import Rules
from judge.core.geography import GameMap
from judge.core.orders import Order
from judge.core.position import Position
from judge.db.database import UnitOfWork
from judge.db.enums import GameState, OrderBlockKind, SeatStatus
from judge.db.models import Absence as AbsenceRow
from judge.db.models import Game, OrderSubmission, PhaseRecord
from judge.timekeeping.deadlines import PhaseTimes
from judge.timekeeping.lateness import PhaseClock, PowerStatus, due, next_wakeup
from judge.timekeeping.lateness import Process as ProcessEvent

NOT_WAITED_FOR = (SeatStatus.RESIGNED, SeatStatus.ELIMINATED, SeatStatus.BOT)
"""Seats whose orders the clock never waits for: gone, or a bot's (SET BOTS: it gives its orders when
the phase opens, and the processing gives them again if a rollback lost them)."""


@dataclass(frozen=True, slots=True)
class OpenPhase:
    """The open phase as read once in a transaction: its record, its board, the orders that count."""

    record: PhaseRecord
    position: Position
    submissions: dict[str, OrderSubmission]
    coming: Mapping[str, dict[str, OrderSubmission]] = field(default_factory=dict)
    """Orders already kept for the phases of the year that follows (PHASE blocks), by phase name,
    read with the open phase's so that processing knows the next phase's without a query."""

    batch: BatchReads | None = field(default=None, compare=False, repr=False)
    """What the processing reads, read for every game of the batch this one was read with, or None."""

    _effective: dict[str, tuple[GameMap, Rules, list[Order]]] = field(default_factory=dict, compare=False, repr=False)
    """The orders that apply on the board, by power, as worked out once (the clock, then processing)."""

    def kept_for(self, phase: str) -> dict[str, OrderSubmission] | None:
        """The orders kept for ``phase`` if it was read with the open phase (None: not read)."""
        return self.coming.get(phase)

    def effective(self, power: str, game_map: GameMap, rules: Rules) -> list[Order]:
        """The power's orders that apply on the open phase's board (its sheet read, IF blocks decided).

        Worked out once per power and map in the transaction: the phase's clock and its
        processing both need them. The list is shared: callers read it, never change it.
        """
        known = self._effective.get(power)
        if known is not None and known[0] is game_map and known[1] == rules:
            return known[2]
        sheet = kept.sheet_of(self.submissions.get(power), game_map, self.position.phase)
        orders = sheet.effective(self.position, game_map, power, rules)
        self._effective[power] = (game_map, rules, orders)
        return orders


class BatchReads:
    """What processing reads of a game beyond its open phase (who reads its results, the
    absences that may move its next deadline), read for every game of a batch of due games the
    first time one of them needs it: two queries for the batch instead of two for each game
    processed, none for a batch that processes nothing (reminders only).

    Nothing a batch's processing writes changes what is read here: the seats' statuses, which
    it may change, are taken from the seats themselves by the audience
    (:func:`judge.app.audience.results_readers.results_audience`); people, addresses,
    masters, observers and absences are not written while a phase is processed.
    """

    def __init__(self, games: Sequence[Game], now: datetime) -> None:
        self._games = {game.id: game for game in games}
        self._now = now
        self._readers: dict[int, list[Any]] | None = None
        self._absences: dict[int, list[AbsenceRow]] = {}

    def readers(self, uow: UnitOfWork, game: Game) -> list[Any] | None:
        """The game's results audience's rows (None: not one of the batch's games)."""
        if game.id not in self._games:
            return None
        self._read(uow)
        return self._readers.get(game.id) if self._readers is not None else None

    def absences(self, uow: UnitOfWork, game: Game, now: datetime) -> list[AbsenceRow] | None:
        """The game's absences still to come at ``now`` (None: not read for that game or time)."""
        if game.id not in self._games or now != self._now:
            return None
        self._read(uow)
        return self._absences.get(game.id)

    def _read(self, uow: UnitOfWork) -> None:
        if self._readers is not None:
            return
        with uow.session.no_autoflush:  # neither depends on what is pending
            self._readers = read_audiences(uow, self._games)
            self._absences = read_absences(
                uow, {game: masters_of(self._readers[game.id]) for game in self._games.values()}, self._now
            )


def read_open_phase(uow: UnitOfWork, game: Game) -> OpenPhase | None:
    """The game's open phase and its orders (None when the game is not being played)."""
    if game.state is not GameState.ACTIVE or game.current_phase is None:
        return None
    record = uow.phases.current(game)
    if record is None:
        return None
    position = from_json(record.position_before)
    names = _read_with(position)
    found = uow.orders.current_by_phase(game, names)
    return OpenPhase(record, position, found.pop(names[0]), found)


def read_open_phases(uow: UnitOfWork, games: Sequence[Game], now: datetime) -> dict[int, OpenPhase | None]:
    """:func:`read_open_phase` for several games (a batch of due games, whose row locks this
    transaction holds): {game id: its open phase or None}, in two queries for them all; what
    their processing reads besides is read for them all when first needed (:class:`BatchReads`)."""
    opened: dict[int, OpenPhase | None] = {game.id: None for game in games}
    playing = [game for game in games if game.state is GameState.ACTIVE and game.current_phase is not None]
    records = uow.phases.current_of(playing)
    boards: dict[int, tuple[PhaseRecord, Position, list[str]]] = {}
    for game in playing:
        record = records.get(game.id)
        if record is not None:
            position = from_json(record.position_before)
            boards[game.id] = (record, position, _read_with(position))
    found = uow.orders.current_by_game_and_phase(
        {game: boards[game.id][2] for game in playing if game.id in boards}
    )
    batch = BatchReads([game for game in playing if game.id in boards], now)
    for game_id, (record, position, names) in boards.items():
        orders = found[game_id]
        opened[game_id] = OpenPhase(record, position, orders.pop(names[0]), orders, batch)
    return opened


def _read_with(position: Position) -> list[str]:
    """The open phase and the five after it, whose orders are read together (the phase after
    adjudication is one of them, whatever the game skips: from spring movement, fall is the
    fifth when there is no summer)."""
    phase, names = position.phase, [str(position.phase)]
    for _ in range(5):
        phase = phase.following()
        names.append(str(phase))
    return names


def current_times(game: Game, record: PhaseRecord, now: datetime) -> PhaseTimes | None:
    """The open phase's start, deadline and grace as stored on the game (None if it has no deadline)."""
    deadline = game.deadline_at or record.deadline_at
    if deadline is None:
        return None
    start = min(game.earliest_at or record.opened_at, deadline)
    grace = max(game.grace_at or deadline, deadline)
    return PhaseTimes(start=start, deadline=deadline, grace=grace)


def phase_clock(uow: UnitOfWork, game: Game, opened: OpenPhase | None = None) -> PhaseClock | None:
    """What the time-keeping rules need to know about the game's open phase (None: nothing to keep).

    ``opened``: the open phase as the caller already read it in this
    transaction (then no query is made here); read when not given.
    """
    if game.state is not GameState.ACTIVE or game.current_phase is None:
        return None
    if opened is None:
        opened = read_open_phase(uow, game)
        if opened is None:
            return None
    record, position, submissions = opened.record, opened.position, opened.submissions
    times = current_times(game, record, record.opened_at)
    if times is None:
        return None
    game_map = game_map_of(game)
    rules = game_rules(game)
    flags = kept.error_flags(game)
    hooks = hooks_for(game)
    powers: list[PowerStatus] = []
    seen: set[str] = set()
    for seat in game.seats:
        power = seat.power
        if power is None or power in seen:
            continue
        seen.add(power)
        submission = submissions.get(power)
        done = hooks.orders_completeness(
            game, position, record.position_before, power, None if submission is None else submission.canonical,
            partial(opened.effective, power, game_map, rules), game_map,
        )  # fmt: skip
        kept_from_before = submission is not None and submission.kind is OrderBlockKind.FUTURE
        status = seat.status
        powers.append(
            PowerStatus(
                power,
                owes_orders=done.owes and status not in NOT_WAITED_FOR,
                complete=kept_from_before or (done.complete and power not in flags),
                all_units_ordered=done.complete,
                wait=seat.wait,
                civil_disorder=status is SeatStatus.CIVIL_DISORDER,
                abandoned=status is SeatStatus.ABANDONED,
            )
        )
    last = max((s.submitted_at for s in submissions.values()), default=None)
    clock = PhaseClock(
        times=times,
        powers=tuple(powers),
        delay=phase_schedule(game, position.phase.type).delay,
        nmr=game.nmr,
        strict_wait=game.strict_wait,
        paused_since=game.paused_at,
        last_orders_at=last,
    )
    return with_book(clock, game, record)


def plan(
    uow: UnitOfWork, services: Services, game: Game, now: datetime, *, opened: OpenPhase | None = None
) -> datetime | None:
    """Set (and return) when the scheduler must next look at ``game``; wakes the scheduler.

    The game's row is locked first (PostgreSQL: ``FOR UPDATE``, waiting for
    any other holder; no query when this transaction holds it already) and
    the orders are read after the lock: two players' last orders arriving
    together in two processes are then planned one after the other, the
    second seeing the first's, so early processing is never missed. Changes
    of this transaction are flushed before the lock.

    ``opened``: the phase this transaction just opened, with its orders read
    under the game's row lock the caller holds (processing runs only under
    it): nothing is locked, read or flushed here, the due time is written
    with the rest at the commit.
    """
    if opened is None:
        uow.flush()
        uow.games.lock(game.id)
    clock = phase_clock(uow, game, opened)
    due_at = hooks_for(game).wake_at(uow, game, None if clock is None else next_wakeup(clock, now))
    if due_at is not None and game.manual_process and _only_processing(clock, due_at):
        due_at = None  # MANUAL PROCESS: the master processes with PROCESS
    if due_at != game.next_due_at:
        if opened is None:
            uow.games.set_next_due(game, due_at)
        else:
            game.next_due_at = due_at
        services.on_schedule()
    return due_at


def _only_processing(clock: PhaseClock | None, at: datetime) -> bool:
    if clock is None:
        return False
    events = due(clock, at)
    return bool(events) and all(isinstance(event, ProcessEvent) for event in events)
