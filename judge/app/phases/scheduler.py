"""What is due in one game, done: the scheduler's work on a game it has claimed.

The database is the single source of truth: ``games.next_due_at`` (one
indexed column) says when a game must next be looked at.
:func:`judge.app.phases.planning.plan` sets it from the time-keeping rules
(:mod:`judge.timekeeping.lateness`) whenever something changes (orders arrive,
a phase opens); the scheduler's loop (:mod:`judge.app.phases.guarded_scheduler`,
the one ``judge serve`` runs) claims due games (``FOR UPDATE SKIP LOCKED`` on
PostgreSQL, so several judge processes share the work and never do one thing
twice) and hands each to :func:`handle_due`, which does what is due and stores
the next due time in the same transaction. A restart needs nothing but the
database.

What is carried out here: processing — early, once every power that owes
orders has complete orders (no error flag) and nobody has WAIT, ``delay``
after the last orders and never before the phase's start; at the deadline
when everything is in; at the end of grace in NMR games with the late powers
in civil disorder. Everything else that falls due (reminders, late notices,
abandonment — NoNMR games then wait for a takeover —, "Waiting for
Replacements", pause reminders) is carried out by
:func:`judge.app.phases.deadline_actions.carry_out`, and the players' dedication records
are charged and credited by :func:`judge.app.phases.deadline_actions.apply_dedication`, in
the same transaction that records it in the game's book
(:mod:`judge.app.game_state.clock_store`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from judge.app.game_state.clock_store import save_book
from judge.app.hooks.game_hooks import hooks_for
from judge.app.phases.deadline_actions import apply_dedication, carry_out
from judge.app.phases.planning import OpenPhase, phase_clock, read_open_phase, read_open_phases
from judge.app.phases.processing import NotProcessable, process_phase
from judge.app.session.services import Services
from judge.db.database import UnitOfWork
from judge.db.models import Game
from judge.timekeeping.lateness import Process, tick
from judge.timekeeping.lateness import record as record_events

__all__ = ["MAX_RETRY", "RETRY_AFTER", "ReadAhead", "earliest_due", "handle_due", "read_ahead", "retry_delay"]

RETRY_AFTER = timedelta(minutes=5)
"""How long a game that failed once waits before it is tried again (doubling after each failure)."""
MAX_RETRY = timedelta(hours=6)
"""The longest a failing game waits between tries."""


# ------------------------------------------------------------------ one due game


@dataclass(frozen=True, slots=True)
class ReadAhead:
    """What handling a batch of due games reads, read for them all at once (:func:`read_ahead`)."""

    opened: dict[int, OpenPhase | None]
    """Each game's open phase and its orders, by game id; taken out when its game is handled."""


def read_ahead(uow: UnitOfWork, services: Services, games: Sequence[Game], now: datetime) -> ReadAhead:
    """Begin handling ``games`` (claimed together, their rows locked): each game's variant's own
    deadlines first (its hooks' ``before_due``, which may set orders aside), then the open
    phases and their orders of them all in two queries, and which have draw votes to clear in
    one, where each game alone cost three. The games are independent: doing each one's
    ``before_due`` before the others' reading changes nothing any of them reads."""
    for game in games:
        hooks_for(game).before_due(uow, services, game, now)
    opened = read_open_phases(uow, games, now)
    uow.press.read_votes_ahead(game.id for game in games)
    return ReadAhead(opened)


def handle_due(
    uow: UnitOfWork, services: Services, game: Game, now: datetime, *, ahead: ReadAhead | None = None
) -> None:
    """Carry out what the time-keeping rules say is due in ``game`` at ``now``; store the next due time.

    ``ahead``: the batch's reading (:func:`read_ahead`, which did this game's ``before_due``);
    without it (or for a game it did not read) the game is begun here."""
    hooks = hooks_for(game)  # the game's settings: no SQL
    if ahead is not None and game.id in ahead.opened:
        opened = ahead.opened.pop(game.id)
    else:
        hooks.before_due(uow, services, game, now)  # the variant's own deadlines, before the orders are read
        opened = read_open_phase(uow, game)  # the open phase and its orders, read once
    clock = None if opened is None else phase_clock(uow, game, opened)
    if clock is None or opened is None:
        uow.games.set_next_due(game, None)
        return
    step = tick(clock, now)
    record = opened.record
    processed = False
    # Processing is counted where it happens (process_phase), so a held one counts nothing and a
    # master's PROCESS counts as the clock's does; it sees the notices of this wake-up recorded.
    others = tuple(e for e in step.events if not isinstance(e, Process))
    apply_dedication(uow, game, step.before, others, now)
    for event in step.events:
        if isinstance(event, Process):
            if game.manual_process:
                continue
            if hooks.holds_processing(uow, services, game, now):
                continue  # the variant holds it (seed 003: a General's orders are drafts until released)
            save_book(game, step.after, record)
            try:
                process_phase(uow, services, game, now, event=event, clock=record_events(step.before, others, now),
                              opened=opened)
            except NotProcessable:
                uow.games.set_next_due(game, None)
            processed = True
        else:
            carry_out(uow, services, game, event, clock=step.before, now=now)
    if processed:
        return
    save_book(game, step.after, record)
    wake_at = step.wake_at
    if wake_at is not None and wake_at <= now:
        wake_at = None  # only MANUAL PROCESS processing is left: the master's to do
    uow.games.set_next_due(game, hooks.wake_at(uow, game, wake_at))


def retry_delay(failed_attempts: int) -> timedelta:
    """How long a game that failed ``failed_attempts`` times in a row waits: doubling, capped."""
    delay: timedelta = RETRY_AFTER * 2 ** min(failed_attempts - 1, 10)
    return min(delay, MAX_RETRY)


def earliest_due(services: Services) -> datetime | None:
    """When the first game falls due (None: no game is waiting for the clock)."""
    with services.db.unit_of_work(readonly=True) as uow:
        return uow.games.earliest_due()
