"""What the operator's console shows of a game or a person: plain dictionaries, ready for JSON.

Read-only views for `judge game list|show` and `judge person show`. Unlike
the players' LIST and WHOIS they show everything (addresses, the game's
orders received): they are for the judgekeeper on the server, who already
holds the database.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from judge.app.game_state.house_rules import bot_level
from judge.app.hooks.game_hooks import hooks_for
from judge.app.mail_out.bounces import bounce_state
from judge.app.people.blocking import block_of
from judge.app.phases.planning import phase_clock
from judge.app.reports.listing import parameter_lines
from judge.db.database import UnitOfWork
from judge.db.enums import AuditKind
from judge.db.models import AuditEvent, Game, Person, PressMessage, Seat
from judge.i18n import translation
from judge.timekeeping.lateness import PhaseClock


def _when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def game_summary(game: Game) -> dict[str, Any]:
    """One line of `judge game list`."""
    return {
        "name": game.name,
        "state": game.state.value,
        "paused": game.paused_at is not None,
        "variant": game.variant,
        "options": [*game.rule_options, *hooks_for(game).option_words(game)],
        "phase": game.current_phase,
        "deadline": _when(game.deadline_at),
        "next_due": _when(game.next_due_at),
        "players": sum(1 for seat in game.seats if seat.person_id is not None),
        "masters": len(game.masters),
    }


def game_details(uow: UnitOfWork, game: Game) -> dict[str, Any]:
    """Everything `judge game show` prints."""
    view = game_summary(game)
    orders = uow.orders.current(game, game.current_phase) if game.current_phase else {}
    clock = phase_clock(uow, game)
    view.update(
        created=_when(game.created_at),
        started=_when(game.started_at),
        grace=_when(game.grace_at),
        earliest=_when(game.earliest_at),
        paused_at=_when(game.paused_at),
        epoch=game.epoch,
        failed_attempts=game.failed_attempts,
        moderated=game.moderated,
        listed=game.listed,
        settings=[line.strip() for line in parameter_lines(game, translation("en").gettext)[1:]],
        masters_list=[_master_address(master.person) for master in game.masters],
        seats=[{**_seat(seat, orders, clock), "bot": bot_level(game, seat)} for seat in game.seats],
        observers=[observer.address for observer in game.observers],
        orders_received=sorted(orders),
        press=_press_counts(uow, game),
        dice=_dice_thrown(uow, game),
    )
    return view


def _dice_thrown(uow: UnitOfWork, game: Game) -> list[dict[str, Any]]:
    """Each processed phase's rolls, oldest first, as the game kept them (a game that throws dice:
    the Renaissance game's ``results["rolls"]``): the operator's audit, never a player's."""
    return [
        {"phase": record.name, "rolls": list(record.results["rolls"])}
        for record in uow.phases.history(game)
        if record.results and record.results.get("rolls")
    ]


def _master_address(person: Person) -> dict[str, Any]:
    return {"name": person.name, "address": person.primary_address}


def _seat(seat: Seat, orders: dict[str, Any], clock: PhaseClock | None) -> dict[str, Any]:
    person = seat.person
    return {
        "power": seat.power,
        "status": seat.status.value,
        "player": person.name if person is not None else None,
        "addresses": [a.address for a in person.addresses] if person is not None else [],
        "orders": seat.power in orders if seat.power else False,
        "orders_state": _orders_state(seat.power, orders, clock),
        "late_count": seat.late_count,
    }


def _orders_state(power: str | None, orders: dict[str, Any], clock: PhaseClock | None) -> str:
    """``complete``, ``incomplete`` (received, but a unit lacks an order or the error flag is up),
    ``none``, or ``not owed``: as the phase's clock counts them (what early processing waits for)."""
    if power is None or clock is None or power not in {status.power for status in clock.powers}:
        return "received" if power in orders else "none"
    status = clock.power(power)
    if not status.owes_orders:
        return "not owed"
    if status.complete:
        return "complete"
    return "incomplete" if power in orders else "none"


def _press_counts(uow: UnitOfWork, game: Game) -> dict[str, Any]:
    rows = uow.session.execute(
        select(PressMessage.kind, PressMessage.phase, func.count())
        .where(PressMessage.game_id == game.id)
        .group_by(PressMessage.kind, PressMessage.phase)
    ).all()
    total: Counter[str] = Counter()
    this_phase: Counter[str] = Counter()
    for kind, phase, count in rows:
        total[kind.value] += count
        if phase is not None and phase == game.current_phase:
            this_phase[kind.value] += count
    return {"total": dict(total), "this_phase": dict(this_phase)}


def person_details(uow: UnitOfWork, person: Person) -> dict[str, Any]:
    """Everything `judge person show` prints: registration, record, games, block, bounce scores
    (judge.app.mail_out.bounces), audit trail."""
    seats = uow.session.scalars(select(Seat).where(Seat.person_id == person.id).order_by(Seat.id)).all()
    events = uow.session.scalars(
        select(AuditEvent).where(AuditEvent.person_id == person.id, AuditEvent.kind == AuditKind.ADMIN)
        .order_by(AuditEvent.at.desc(), AuditEvent.id.desc()).limit(10)
    ).all()
    block = block_of(person)
    return {
        "id": person.id,
        "name": person.name,
        "addresses": [a.address for a in person.addresses],
        "primary": person.primary_address,
        "language": person.language,
        "level": person.level,
        "country": person.country,
        "time_zone": person.time_zone,
        "phone": person.phone,
        "site": person.site,
        "registered": _when(person.registered_at),
        "record": {
            "dedication": person.dedication, "turns_due": person.turns_due,
            "on_time": person.turns_on_time, "late": person.turns_late,
            "games_started": person.games_started, "abandonments": person.abandonments,
            "civil_disorders": person.civil_disorders, "resignations": person.resignations,
        },
        "games": [
            {"game": seat.game.name, "power": seat.power, "status": seat.status.value} for seat in seats
        ],
        "blocked": block,
        "bounces": [
            {
                "address": row.address, "score": row.score, "bounces": row.bounces,
                "last_bounce": _when(row.last_bounce_at), "last_reason": row.last_reason,
                "bouncing_since": _when(row.bouncing_since),
            }
            for row in bounce_state(uow, [a.address for a in person.addresses]).values()
        ],
        "operator_changes": [
            {"at": _when(e.at), "by": e.actor, "what": e.setting, "detail": e.detail} for e in events
        ],
    }
