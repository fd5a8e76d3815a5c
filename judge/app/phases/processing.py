"""Processing a phase: adjudicate the orders in, store everything, open the next phase, tell everyone.

One call, inside the caller's unit of work (the scheduler's or a master's
PROCESS mail), so the ruling, the new phase, the game's state and the
results mails are committed together or not at all:

1. each power's orders that count: its current sheet for the phase (orders
   kept from a PHASE block for it included), IF blocks decided on the board;
   powers in civil disorder keep whatever they had (units without orders
   hold, dislodged units disband, no builds, removals by the game's rule);
2. :func:`judge.ruling.rule_orders` adjudicates them, typed orders as the sheets
   hold them (no order text is read), with the game's rule options;
3. the phase record keeps the orders received, the ``judge adjudicate`` input
   (``orders_adjudicated``: rerun it by hand to check the ruling), the
   result with each entry's typed order (``order_value``, which the map draws)
   and the rendered results mail in each language used
   (``results["report"]``, which HISTORY shows), the position after and the
   time it took;
4. the next phase opens with its deadline (``next``, ``clock``, ``days``
   from the game's schedule, moved out of the absences that count — see
   :func:`judge.app.game_state.clock_store.fresh_times`), powers without units or centres are
   eliminated, a power at the winning count ends the game, WAIT flags and
   draw votes are cleared;
5. the results mail goes to every player, master and observer, one mail
   each, in the reader's language.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import event as sqlalchemy_event
from sqlalchemy.orm import Session

from judge.app.audience.blind_view import is_blind, view_of
from judge.app.audience.results_readers import results_audience
from judge.app.game_state import order_sheets as kept
from judge.app.game_state.boards import from_json, to_json
from judge.app.game_state.clock_store import fresh_times
from judge.app.game_state.game_rules import game_rules
from judge.app.game_state.variant_rules import game_map_of
from judge.app.game_state.variant_ruling import VariantRuling
from judge.app.games.endgame import after_processing
from judge.app.hooks.game_hooks import hooks_for
from judge.app.mail_out import outbox
from judge.app.mail_out.press_rules import release_postal_press
from judge.app.mail_out.results_maps import map_language, map_off_addresses
from judge.app.phases.deadline_actions import count_processing
from judge.app.phases.planning import OpenPhase, current_times, phase_clock, plan, read_open_phase
from judge.app.reports.results import (
    ABANDONED,
    BLIND_REPORTS,
    BOT,
    CIVIL_DISORDER,
    ResultsReport,
    render_results,
    report_for,
)
from judge.app.session.readers import ACTIVE, reader_zone
from judge.app.session.services import Services
from judge.core.geography import GameMap
from judge.core.orders import Order
from judge.core.phase import Phase
from judge.core.position import Position
from judge.core.serialization import position_to_json
from judge.db.database import UnitOfWork
from judge.db.enums import GameState, SeatStatus
from judge.db.models import Game, OrderSubmission, PhaseRecord
from judge.i18n import LANGUAGES, translation
from judge.logs import log_event
from judge.mail.compose import game_subject
from judge.maps.art import has_art
from judge.ruling import rule_orders
from judge.timekeeping.deadlines import PhaseTimes
from judge.timekeeping.lateness import PhaseClock, Process, ProcessReason

log = logging.getLogger(__name__)

RESULTS_EVENT = "Results"


@dataclass(frozen=True, slots=True)
class Processed:
    """What processing a phase did."""

    phase: Phase
    next_phase: Phase | None
    """None when the game ended."""
    winner: str | None
    eliminated: tuple[str, ...]
    reports: Mapping[str, str]
    """language -> the results mail body."""
    recipients: tuple[str, ...]


class NotProcessable(Exception):
    """The game has no open phase to process (not started, finished, or paused)."""


def process_phase(
    uow: UnitOfWork,
    services: Services,
    game: Game,
    now: datetime,
    *,
    reason: str | None = None,
    event: Process | None = None,
    clock: PhaseClock | None = None,
    opened: OpenPhase | None = None,
) -> Processed:
    """Adjudicate the open phase of ``game`` and open the next one (see the module's steps).

    ``event``: the scheduler's decision (its ``newly_in_civil_disorder``
    powers' seats are marked so), with ``clock``, the phase as it decided
    it (this wake-up's notices recorded); without them, a master's PROCESS
    (nobody is put in civil disorder) on the phase as it stands. Either way
    the processing is counted in the players' records
    (:func:`judge.app.phases.deadline_actions.count_processing`). ``reason``: what the
    results record says processed the phase (the event's reason by default).
    Raises :class:`NotProcessable` when there is no
    open phase, and the repositories' StaleStateError if another process
    processed it first (the caller abandons its unit of work).

    ``opened``: the open phase and its orders as the caller read them in
    this transaction, under the game's row lock (the scheduler), so they are
    not read again. The ruling, the new phase and the game's new state go
    to the database in one flush at the end, the results mails in one
    multi-row INSERT.
    """
    started = time.perf_counter()
    if game.state is not GameState.ACTIVE or game.paused_at is not None:
        raise NotProcessable(game.name)
    if opened is None:
        # Not the scheduler's path (a master's PROCESS): hold the game's row lock before reading.
        uow.flush()
        uow.games.lock(game.id)
        opened = read_open_phase(uow, game)
        if opened is None:
            raise NotProcessable(game.name)
    if event is None:
        with uow.session.no_autoflush:
            clock = phase_clock(uow, game, opened)  # None: a phase without times, nothing to count
        event = Process(ProcessReason.MASTER, civil_disorder=clock.in_civil_disorder if clock else frozenset())
    reason = reason or event.reason.value
    record, position, submissions = opened.record, opened.position, opened.submissions
    game_map = game_map_of(game)
    rules = game_rules(game)
    hooks = hooks_for(game)  # the variant and the house rules (SET CD AFTER, END YEAR): no SQL
    zone = services.config.timezone

    received: dict[str, Any] = {}
    orders: dict[str, list[Order]] = {}
    for power, submission in sorted(submissions.items()):
        received[power] = {
            "version": submission.version, "kind": str(submission.kind), "items": list(submission.canonical),
        }  # fmt: skip
    # A variant with a flow of its own plays the phase itself from what is kept (the Renaissance game).
    with uow.session.no_autoflush:
        variant_ruling = hooks.rule_phase(
            game, record.position_before, {p: tuple(s.canonical) for p, s in submissions.items()},
            lambda: results_audience(uow, game, opened.batch.readers(uow, game) if opened.batch else None),
        )  # fmt: skip
    if variant_ruling is not None:
        return _process_variant_phase(
            uow, services, game, now, opened, variant_ruling, received, reason=reason, event=event, clock=clock,
            started=started,
        )  # fmt: skip
    for power in sorted(submissions):
        effective = opened.effective(power, game_map, rules)
        if effective:
            orders[power] = effective
    newly_cd = hooks.civil_disorder(
        game, position, owing_powers(game, position, record.position_before, game_map), submissions,
        event.newly_in_civil_disorder,
    )
    # Powers without a player and with nothing on file: SET CD and SET BOT decide what they play.
    stand_ins = hooks.civil_disorder_orders(game, position, newly_cd, set(orders), game_map, rules)
    orders.update(stand_ins.orders)
    ruling = rule_orders(position, orders, rules, game_map)  # the sheets' orders as they are: no text read
    result = ruling.result
    after = result.position
    after_json = to_json(after)
    # Orders already kept for the phase that opens next (PHASE blocks): its clock needs them.
    next_submissions = opened.kept_for(str(after.phase))
    if next_submissions is None:
        with uow.session.no_autoflush:  # nothing of this transaction concerns the orders
            next_submissions = kept.current_submissions(uow, game, after.phase)

    _count_and_mark(uow, game, now, clock, event, newly_cd)
    eliminated = _eliminate(uow, game, after, now, str(position.phase))
    if eliminated:
        hooks.after_eliminations(uow, services, game, now, eliminated)
    winner = winner_of(after, game.winning_centers)
    finished = (
        winner is not None
        or not any(seat.status in ACTIVE for seat in game.seats)
        or hooks.ends_after(game, after.phase)  # SET END YEAR
    )

    next_times = _next_times(uow, services, game, now, opened, after, after_json, finished=finished)
    shown = {SeatStatus.CIVIL_DISORDER: CIVIL_DISORDER, SeatStatus.ABANDONED: ABANDONED, SeatStatus.BOT: BOT}
    statuses = {seat.power: shown[seat.status] for seat in game.seats if seat.power is not None and seat.status in shown}
    report = ResultsReport(
        game=game.name, turn=record.turn, position=position, result=result, statuses=statuses,
        winner=winner, next_deadline=next_times.deadline if next_times else None, zone=zone,
        game_over=finished,
    )  # fmt: skip
    with uow.session.no_autoflush:  # who reads the results does not depend on what is pending
        audience = results_audience(uow, game, opened.batch.readers(uow, game) if opened.batch else None)
    # Kept in every language the judge speaks, not only its readers': HISTORY and the web pages
    # (issue 29) show a processed phase to whoever asks later, in their language.
    reports = {
        language: render_results(report, game_map, language, translation(language).gettext)
        for language in sorted({*LANGUAGES, *(reader.language for reader in audience.values())})
    }
    # Fog of War: what each reader may see of the phase (judge.app.audience.blind_view, the one place).
    views = {
        address: view_of(game, power=reader.power, master=reader.master, observer=reader.observer)
        for address, reader in audience.items()
    }
    # What each reader is mailed: their view, their language, the next deadline in their time zone;
    # each text made once (its view's report worked out only then), whoever else reads it.
    mailed: dict[tuple[str, str, str], str] = {}
    keys: dict[str, tuple[str, str, str]] = {}
    for address, reader in audience.items():
        view, reader_zone_ = views[address], reader_zone(reader.time_zone, zone)
        key = keys[address] = (view.key, reader.language, reader_zone_.key)
        if key not in mailed:
            mailed[key] = (
                reports[reader.language] if reader_zone_.key == zone.key and view.everything
                else render_results(replace(report_for(report, view, game_map), zone=reader_zone_), game_map,
                                    reader.language, translation(reader.language).gettext)
            )  # fmt: skip
    results = {
        **ruling.to_stored_json(), "reason": reason, "civil_disorder": sorted(newly_cd), **stand_ins.results_entry(),
        "report": reports,
    }  # fmt: skip
    if is_blind(game) and not finished:  # what HISTORY tells each power, and everyone else, until the end
        results[BLIND_REPORTS] = {
            shown.key: {
                language: render_results(report_for(report, shown, game_map), game_map, language,
                                         translation(language).gettext)
                for language in reports
            }
            for shown in [*(view_of(game, power=p) for p in game_map.powers), view_of(game)]
        }  # fmt: skip
    # The board as a picture for every reader (issue 16), drawn by the sender (see _store_and_tell).
    mails = [
        ResultsMail(address, mailed[keys[address]], map_language(reader.language, views[address], game_map))
        for address, reader in audience.items()
    ]
    return _store_and_tell(
        uow, services, game, now, opened, after,
        ProcessedPhase(
            orders_received=received,
            orders_adjudicated=position_to_json(
                position, orders={power: [str(order) for order in these] for power, these in orders.items()},
                rules=rules.to_mapping(),
            ),
            results=results, position_after=after_json, reason=reason, winner=winner, finished=finished,
            eliminated=tuple(eliminated), reports=reports,
        ),
        next_times, next_submissions, mails, drawn=True, started=started,
    )  # fmt: skip


def _open_next(
    uow: UnitOfWork, services: Services, game: Game, now: datetime, record: PhaseRecord, phase: Phase,
    after: Position, after_json: Mapping[str, Any], next_times: PhaseTimes | None,
    next_submissions: dict[str, OrderSubmission],
) -> None:
    """Open the next phase (``after``, kept as ``after_json``) unless the game ended (no
    ``next_times``), clear the WAIT flags and the draw votes, and plan the new phase's clock."""
    new_record = None
    if next_times is not None:
        new_record = uow.phases.open_after(
            game, record, str(after.phase), after_json, now, deadline_at=next_times.deadline
        )
        game.deadline_at = next_times.deadline
        game.grace_at = next_times.grace
        game.earliest_at = next_times.start
    game.last_processed_at = now
    game.failed_attempts = 0
    for seat in game.seats:
        if seat.wait:
            seat.wait = False
    if new_record is not None:
        hooks_for(game).after_phase_opened(uow, services, game, now, phase, after.phase)
        # The new phase's clock from what is in hand: no query; the due time goes in with the rest.
        plan(uow, services, game, now, opened=OpenPhase(new_record, after, next_submissions))
    uow.phases.flush_opened(game)  # one flush: the new phase, the game, the seats
    uow.press.clear_votes(game)


def _process_variant_phase(
    uow: UnitOfWork, services: Services, game: Game, now: datetime, opened: OpenPhase, ruling: VariantRuling,
    received: dict[str, Any], *, reason: str, event: Process, clock: PhaseClock | None, started: float,
) -> Processed:
    """The rest of :func:`process_phase` for a phase the variant played itself (``ruling``): the
    same record, clock, next phase, deadline and END YEAR as any phase; each reader's mail is the
    variant's, with the board the phase leaves where the variant has art
    (:func:`judge.app.mail_out.results_maps.phase_svg`). Civil disorder as for any game (CD AFTER, the
    clock's choice at the grace); the powers the variant's rules eliminated leave the game, and the
    variant's winner ends it (``ruling.eliminated``, ``ruling.winner``)."""
    hooks = hooks_for(game)
    record, position = opened.record, opened.position
    game_map = game_map_of(game)
    after = from_json(ruling.position_after)
    if ruling.centres:  # what the end of the game counts, as the variant counts it
        after = replace(after, centers={power: held for power, held in ruling.centres.items() if held})
    newly_cd = hooks.civil_disorder(
        game, position, owing_powers(game, position, record.position_before, game_map), opened.submissions,
        event.newly_in_civil_disorder,
    )  # fmt: skip
    _count_and_mark(uow, game, now, clock, event, newly_cd)
    eliminated: list[str] = []
    for seat in game.seats:
        if seat.power in ruling.eliminated and seat.status is not SeatStatus.ELIMINATED:
            uow.seats.leave(seat, now, SeatStatus.ELIMINATED, phase=str(position.phase))
            eliminated.append(seat.power)
    if eliminated:
        hooks.after_eliminations(uow, services, game, now, eliminated)
    winner = ruling.winner
    finished = (
        winner is not None
        or not any(seat.status in ACTIVE for seat in game.seats)
        or hooks.ends_after(game, after.phase)
    )
    next_times = _next_times(uow, services, game, now, opened, after, ruling.position_after, finished=finished)
    with uow.session.no_autoflush:
        next_submissions = opened.kept_for(str(after.phase)) or kept.current_submissions(uow, game, after.phase)
    report = ruling.results.get("report", {})
    return _store_and_tell(
        uow, services, game, now, opened, after,
        ProcessedPhase(
            orders_received=received,
            orders_adjudicated={"position": dict(record.position_before), "sheets": ruling.results.get("sheets", {})},
            results={**ruling.results, "reason": reason, "civil_disorder": sorted(newly_cd)},
            position_after=ruling.position_after, reason=reason, winner=winner, finished=finished,
            eliminated=tuple(eliminated), reports=report if isinstance(report, dict) else {},
        ),
        next_times, next_submissions,
        [ResultsMail(address, text, ruling.languages.get(address, "en")) for address, text in ruling.mails.items()],
        drawn=has_art(game.variant), started=started,
    )  # fmt: skip


def _count_and_mark(
    uow: UnitOfWork, game: Game, now: datetime, clock: PhaseClock | None, event: Process, newly_cd: set[str]
) -> None:
    """The processing counted in the players' records (when the phase has a clock) and the
    powers newly in civil disorder marked so on their seats."""
    if clock is not None:
        count_processing(uow, game, clock, replace(event, newly_in_civil_disorder=frozenset(newly_cd)), now)
    for seat in game.seats:
        if seat.power in newly_cd and seat.status in ACTIVE:
            uow.seats.set_status(seat, SeatStatus.CIVIL_DISORDER)


def _next_times(
    uow: UnitOfWork, services: Services, game: Game, now: datetime, opened: OpenPhase, after: Position,
    after_json: Mapping[str, Any], *, finished: bool,
) -> PhaseTimes | None:
    """The next phase's times (out of the absences that count, then the variant's and house
    rules' say), or None when the game ends here, which is then marked finished."""
    if finished:
        game.state = GameState.FINISHED
        game.finished_at = now
        game.deadline_at = game.grace_at = game.earliest_at = None
        uow.games.set_next_due(game, None)
        return None
    with uow.session.no_autoflush:  # absences are not what this transaction changes
        next_times = fresh_times(
            uow, game, now, after.phase.type, services.config.timezone,
            previous=current_times(game, opened.record, now),
            owing=owing_powers(game, after, after_json, game_map_of(game)),
            absences=opened.batch.absences(uow, game, now) if opened.batch else None,
        )  # fmt: skip
    return hooks_for(game).next_phase_times(game, next_times, now, opened.position.phase, after.phase)


@dataclass(frozen=True, slots=True)
class ResultsMail:
    """One reader's results mail: the address, the text, the language of the board attached."""

    address: str
    body: str
    map_language: str | None


@dataclass(frozen=True, slots=True)
class ProcessedPhase:
    """What the phase record keeps of a processing, and what it decided."""

    orders_received: Mapping[str, Any]
    orders_adjudicated: Mapping[str, Any]
    results: Mapping[str, Any]
    position_after: Mapping[str, Any]
    reason: str
    winner: str | None
    finished: bool
    eliminated: tuple[str, ...]
    reports: Mapping[str, str]


def _store_and_tell(
    uow: UnitOfWork, services: Services, game: Game, now: datetime, opened: OpenPhase, after: Position,
    done: ProcessedPhase, next_times: PhaseTimes | None, next_submissions: dict[str, OrderSubmission],
    mails: list[ResultsMail], *, drawn: bool, started: float,
) -> Processed:
    """The end of every processing, the judge's ruling or the variant's: the phase recorded, the
    next one opened (unless the game ended), the results mails queued, postal press released, a
    finished game's notices and summary queued, one log line once committed.

    The board goes with every results mail whose reader did not SET MAP OFF (issue 16) when
    ``drawn`` (the variant has art to draw it with); the text stays whole. The sender draws it
    when it delivers the mail (judge.app.mail_out.results_maps.ResultsPictures), once per phase:
    drawing takes tens of milliseconds, too long to hold this transaction and the game's row lock.
    """
    record, phase = opened.record, opened.position.phase
    uow.phases.record_processing(
        record,
        orders_received=done.orders_received,
        orders_adjudicated=done.orders_adjudicated,
        results=done.results,
        position_after=done.position_after,
        processed_at=now,
        processing_ms=(milliseconds := round((time.perf_counter() - started) * 1000)),
    )
    _open_next(uow, services, game, now, record, phase, after, done.position_after, next_times, next_submissions)
    subject = game_subject(services.config.code, game.name, RESULTS_EVENT, str(phase))
    no_map = map_off_addresses(game)
    outbox.queue_many(
        uow, services,
        [outbox.Letter([mail.address], subject, mail.body,
                       map_phase_id=record.id if drawn and mail.address.lower() not in no_map else None,
                       map_language=mail.map_language)
         for mail in mails],
        now, game_id=game.id,
    )  # fmt: skip
    # Postal press goes out with the results; a finished game's notices and summary follow them.
    release_postal_press(uow, services, game, now)
    if done.finished:
        after_processing(uow, services, game, now, after, done.winner)
    _log_once_committed(
        uow, game=game.name, phase=str(phase), next_phase="none" if done.finished else str(after.phase),
        reason=done.reason, winner=done.winner or "none", results_mails=len(mails), milliseconds=milliseconds,
    )
    return Processed(
        phase=phase,
        next_phase=None if done.finished else after.phase,
        winner=done.winner,
        eliminated=done.eliminated,
        reports=done.reports,
        recipients=tuple(mail.address for mail in mails),
    )


def _log_once_committed(
    uow: UnitOfWork, *, game: str, phase: str, next_phase: str, reason: str, winner: str, results_mails: int,
    milliseconds: int,
) -> None:
    """One INFO line for the operator per processed phase, written when its transaction commits
    (a processing rolled back writes none). Only what every player is told anyway: the game, the
    phases, why, the winner, counts; never an order, a press text or an address. The lines of a
    transaction's phases (the scheduler's batch) wait in its session's ``info``, written by one
    listener (registering one costs more than the rest of the line)."""
    lines = uow.session.info.get(_PROCESSED_LINES)
    if lines is None:
        lines = uow.session.info[_PROCESSED_LINES] = []

        def committed(session: Session) -> None:
            for fields in session.info.pop(_PROCESSED_LINES, ()):
                log_event(log, "phase.processed", **fields)

        sqlalchemy_event.listen(uow.session, "after_commit", committed, once=True)
    lines.append(
        {"game": game, "phase": phase, "next_phase": next_phase, "reason": reason, "winner": winner,
         "results_mails": results_mails, "milliseconds": milliseconds}
    )  # fmt: skip


_PROCESSED_LINES = "judge_processed_phase_lines"
""":func:`_log_once_committed`'s ``Session.info`` key: the log lines waiting for the commit."""


def winner_of(position: Position, winning_centers: int) -> str | None:
    """The power with at least ``winning_centers`` centres and strictly more than any other.

    A tie at the winning count is no win (the Judge raises the count by one).
    """
    counts = sorted(((len(c), p) for p, c in position.centers.items()), reverse=True)
    if not counts or counts[0][0] < winning_centers:
        return None
    if len(counts) > 1 and counts[1][0] == counts[0][0]:
        return None
    return counts[0][1]


def _eliminate(uow: UnitOfWork, game: Game, after: Position, now: datetime, phase: str) -> list[str]:
    """Powers with no unit (dislodged units count) and no centre leave the game."""
    alive = {u.power for u in after.units} | {d.unit.power for d in after.dislodged}
    alive |= {p for p, c in after.centers.items() if c}
    out = []
    for seat in game.seats:
        if seat.power is not None and seat.power not in alive and seat.status is not SeatStatus.ELIMINATED:
            uow.seats.leave(seat, now, SeatStatus.ELIMINATED, phase=phase)
            out.append(seat.power)
    return out


def owing_powers(game: Game, position: Position, kept_position: Mapping[str, Any], game_map: GameMap) -> list[str]:
    """Powers (with a player or in civil disorder) that have something to order in ``position``
    (kept as ``kept_position``), by the game's rule (its hooks' ``orders_completeness``)."""
    hooks = hooks_for(game)
    return [
        seat.power for seat in game.seats
        if seat.power is not None and seat.status in ACTIVE
        and hooks.orders_completeness(game, position, kept_position, seat.power, None, lambda: (), game_map).owes
    ]  # fmt: skip
