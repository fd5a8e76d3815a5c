"""A power's orders for the Renaissance game, by mail: kept as the lines it sent.

The mail reader hands each order line of a Renaissance game to the game's hooks as a
:class:`judge.lang.commands.SheetLineCommand` (the game's own line reader,
:class:`judge.lang.machiavelli_sheet.SheetLineReader`, told it which lines are orders).
The lines of one mail make the power's sheet for the open phase: stored once, when the mail
has been read, as one new version whose ``canonical`` items are the lines as sent (read again
at the deadline by :func:`judge.app.machiavelli.stored_phase.play_stored_phase`). A mail's
sheet replaces the one before it whole (a power sends its whole sheet; a money order has no
unit to be merged by). The reply reads every line back, or says why it was refused
(:func:`judge.app.machiavelli.order_receipt.receipt`), to the sender only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from judge.app.game_state.variant_rules import game_map_of
from judge.app.machiavelli.order_receipt import receipt
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.core.phase import Phase
from judge.db.enums import GameState
from judge.db.models import Game, Seat
from judge.lang.commands import Conditional, PhaseCommand, SheetLineCommand
from judge.lang.machiavelli_sheet import read_sheet


@dataclass
class SheetMail:
    """The lines one mail gives for its power's sheet."""

    game: Game
    seat: Seat
    power: str
    phase: Phase
    french: bool
    lines: list[str] = field(default_factory=list)
    settled: bool = False


@dataclass
class _AfterRefusedPhase:
    """A PHASE line for another phase was refused: the lines after it are not kept, until a PHASE
    line for the open phase (the Judge's rule for a refused PHASE)."""

    skipping: bool = True


def add_line(session: MailSession, command: SheetLineCommand) -> None:
    """Keep ``command``'s line for the power signed on as; stored at the mail's end."""
    skipped = session.state_of(_AfterRefusedPhase)
    if skipped is not None and skipped.skipping:
        _ = session.gettext
        raise CommandRefused(_("Not kept: it follows a refused PHASE line."))
    state = session.state_of(SheetMail) or _begin(session)
    state.lines.append(command.text)


def take_block(session: MailSession, command: Conditional | PhaseCommand) -> bool:
    """IF blocks and PHASE lines for a later phase are refused in this game: a sheet is the open
    phase's lines, kept as sent and read at its deadline, with no board to decide a condition on
    and no later phase's reader. A PHASE line naming the open phase is taken (the lines after it
    are kept again)."""
    _ = session.gettext
    if isinstance(command, Conditional):
        raise CommandRefused(
            _("IF blocks are not taken in a Machiavelli game: send the open phase's orders as plain lines.")
        )
    game = session.game
    current = Phase.parse(game.current_phase) if game is not None and game.current_phase else None
    if command.phase is not None and command.phase == current:
        session.drop_state(_AfterRefusedPhase)
        session.reply.ok(command.line, _("The orders that follow are for the current phase."))
        return True
    session.keep_state(_AfterRefusedPhase())
    raise CommandRefused(
        _("PHASE blocks for a later phase are not taken in a Machiavelli game: only the open phase's "
          "orders are kept; the orders that follow are ignored.")
    )  # fmt: skip


def _begin(session: MailSession) -> SheetMail:
    _ = session.gettext
    game, seat = session.game, session.seat
    if game is None or session.role is None:
        raise CommandRefused(_("Orders must follow a SIGNON."))
    if session.role is not Role.POWER or seat is None or seat.power is None:
        raise CommandRefused(_("Only a power's player gives its orders in this game."))
    if game.state is not GameState.ACTIVE or game.current_phase is None:
        raise CommandRefused(_("Game '{game}' is not taking orders now.").format(game=game.name))
    state = SheetMail(
        game, seat, seat.power, Phase.parse(game.current_phase), session.language == "fr"
    )
    session.keep_state(state)
    session.finishers.append(lambda: _finish(session, state))
    return state


def _finish(session: MailSession, state: SheetMail) -> None:
    """Store the sheet as one new version, and read it back to the sender."""
    if state.settled:
        return
    state.settled = True
    lines = tuple(state.lines)
    session.uow.orders.submit(
        state.game, state.seat, str(state.phase), "\n".join(lines), lines, session.now,
        mail_in_id=session.mail_id, submitted_by_id=session.person.id if session.person else None,
    )  # fmt: skip
    game_map = game_map_of(state.game)
    sheet = read_sheet(lines, game_map, state.phase.type, french=state.french)
    session.reply.epilogue += [
        "",
        receipt(state.power, sheet, game_map, session.language).rstrip("\n"),
    ]
