"""ROLLBACK [turn]: the master takes the game back to the start of an earlier turn, exactly.

Turns are numbered from 1 (S1901M), as the results mails show them
(``game.001``); without a number, the turn before the current one. What is
restored is what the game was when that turn was processed: the position at
its start (``uow.phases.rollback`` reopens it from its stored
``position_before``; the later turns are kept, marked rolled back, and the
game's epoch moves on so their orders never count again) and the orders on
file at that moment, orders and PHASE blocks alike (copied into the new
timeline, so processing the turn again without changes gives the same
results; a new order replaces them as usual).

Powers eliminated since come back, a finished game is playing again, the
draw votes and WAIT flags go, and the turn gets a fresh deadline. Everyone
is told ("Rollback to S1901M") with the restored board.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import or_, select

from judge.app.game_state.boards import from_json
from judge.app.game_state.clock_store import phase_schedule
from judge.app.game_state.variant_rules import game_map_of
from judge.app.games.masters import acting_master, announce_dated_to_game, require_master
from judge.app.mail_out.wording import phase_name
from judge.app.phases.planning import plan
from judge.app.reports.listing import board_lines
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.core.phase import Phase
from judge.core.position import Position
from judge.db.database import UnitOfWork
from judge.db.enums import GameState, PhaseState, SeatStatus
from judge.db.models import Game, OrderSubmission, PhaseRecord, Seat
from judge.i18n import Gettext
from judge.lang.commands import Rollback
from judge.timekeeping.deadlines import next_phase_times


@handles(Rollback)
def handle(command: Rollback, session: MailSession) -> Next:
    _ = session.gettext
    game = require_master(session, "ROLLBACK")
    if game.state in (GameState.FORMING, GameState.TERMINATED):
        raise CommandRefused(_("Game '{game}' is not being played: there is nothing to roll back.").format(
            game=game.name
        ))
    uow = session.uow
    history = uow.phases.history(game)
    if not history:
        raise CommandRefused(_("Game '{game}' has no turn to roll back to.").format(game=game.name))
    last = history[-1]
    current_turn = last.turn if last.state is PhaseState.OPEN else last.turn + 1
    target = command.turn if command.turn is not None else current_turn - 1
    if current_turn <= 1:
        raise CommandRefused(_("Nothing has been processed yet: there is no earlier turn."))
    if not 1 <= target < current_turn:
        raise CommandRefused(
            _("ROLLBACK takes a turn from 1 to {last} (the current turn is {current}).").format(
                last=current_turn - 1, current=current_turn
            )
        )
    record = next(r for r in history if r.turn == target)
    earlier = {r.name for r in history if r.turn < target}
    kept = _orders_on_file(uow, game, record, earlier)
    old_phase = game.current_phase
    reopened = uow.phases.rollback(game, target, session.now, actor=session.sender)
    position = from_json(reopened.position_before)
    for submission in kept:
        uow.orders.submit(
            game, submission.seat, submission.phase, submission.text, submission.canonical, session.now,
            kind=submission.kind, submitted_by_id=submission.submitted_by_id, order_values=submission.order_values,
        )
    _restore_game(session, game, reopened, position)
    phase = Phase.parse(reopened.name)

    def body(_: Gettext, language: str, tell: Callable[[datetime], str]) -> str:
        lines = [
            _("{who} has rolled game '{game}' back to {phase} ({code}), turn {turn}.").format(
                who=acting_master(session, _).capitalize(), game=game.name, phase=phase_name(phase, _),
                code=reopened.name, turn=target,
            ),
            _("The position and the orders on file when that turn was processed are restored; "
              "new orders replace them as usual."),
        ]
        if game.deadline_at is not None:
            lines.append(_("The deadline is {deadline}.").format(
                deadline=tell(game.deadline_at)
            ))
        lines += ["", *board_lines(position, game_map_of(game), language, _)]
        return "\n".join(lines)

    announce_dated_to_game(session, game, f"Rollback to {reopened.name}", body, exclude=[session.sender])
    session.reply.ok(
        command.line,
        _("Game '{game}' is back at {phase} ({code}); it was at {old}. Everyone has been told.").format(
            game=game.name, phase=phase_name(phase, _), code=reopened.name, old=old_phase or "-"
        ),
    )
    return Next.CONTINUE


def _orders_on_file(uow: UnitOfWork, game: Game, record: PhaseRecord, earlier: set[str]) -> list[OrderSubmission]:
    """The submissions that counted when ``record`` was processed (its own and later phases' blocks)."""
    moment: datetime | None = record.processed_at
    if moment is None:
        return []
    rows = uow.session.scalars(
        select(OrderSubmission)
        .where(
            OrderSubmission.game_id == game.id,
            OrderSubmission.epoch == record.epoch,
            OrderSubmission.submitted_at <= moment,
            or_(OrderSubmission.superseded_at.is_(None), OrderSubmission.superseded_at > moment),
        )
        .order_by(OrderSubmission.id)
    )
    return [row for row in rows if row.phase not in earlier]


def _status_restored(seat: Seat) -> SeatStatus:
    """What an eliminated seat becomes when its power lives again: its player's; a practice
    game's bot seat (SET BOTS: no person ever held it, so it has no tenure) the bot's again;
    otherwise abandoned, open for a takeover."""
    if seat.person is not None:
        return SeatStatus.PLAYING
    if not seat.tenures:
        return SeatStatus.BOT
    return SeatStatus.ABANDONED


def _restore_game(session: MailSession, game: Game, reopened: PhaseRecord, position: Position) -> None:
    """The game as at the start of the reopened turn: playing, powers back, fresh deadline."""
    uow = session.uow
    if game.state is GameState.FINISHED:
        game.state = GameState.ACTIVE
        game.finished_at = None
    alive = {u.power for u in position.units} | {d.unit.power for d in position.dislodged}
    alive |= {p for p, centres in position.centers.items() if centres}
    for seat in game.seats:
        seat.wait = False
        if seat.status is SeatStatus.ELIMINATED and seat.power in alive:
            uow.seats.set_status(seat, _status_restored(seat))
    uow.press.clear_votes(game)
    zone = session.services.config.timezone
    times = next_phase_times(
        session.now, phase_schedule(game, position.phase.type), zone, strict_grace=game.strict_grace
    )
    game.deadline_at, game.grace_at, game.earliest_at = times.deadline, times.grace, times.start
    reopened.deadline_at = times.deadline
    uow.flush()
    if game.paused_at is None:
        plan(uow, session.services, game, session.now)
