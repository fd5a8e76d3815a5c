"""RESIGN (WITHDRAW): the player leaves; the power is then open for anyone to take over.

Before the game starts, resigning simply gives the seat back. After, the
seat keeps its power with status ``resigned`` and the game is told
(``Resignation: France``; only the masters in a Quiet game). An observer
who resigns stops observing. Masters leave by EJECTing themselves. A
council member resigns his own place only (the power plays on with the
rest of his council; :mod:`judge.app.councils.membership`).
RESIGN is the last command the judge reads in a mail.
"""

from __future__ import annotations

from collections.abc import Sequence

from judge.app.councils import membership
from judge.app.game_state.game_facts import audience, players_needed, power_letter, power_name
from judge.app.hooks.game_hooks import hooks_for
from judge.app.session.mail_session import MailSession, Outgoing, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import GameState, SeatStatus
from judge.db.models import CouncilMember, Game, Seat
from judge.i18n import translation
from judge.lang.commands import Resign
from judge.mail.compose import game_subject


@handles(Resign)
def handle(command: Resign, session: MailSession) -> Next:
    _ = session.gettext
    game = session.game
    if game is None or session.role is None:
        raise CommandRefused(_("RESIGN needs a SIGNON first: from which game?"))
    if session.role is Role.MASTER:
        raise CommandRefused(_("A master leaves a game by EJECTing himself; RESIGN is for players."))
    messages: list[str]
    if session.role is Role.OBSERVER:
        if session.observer is not None:
            game.observers.remove(session.observer)
            session.observer = None
        messages = [_("You no longer observe game '{game}'.").format(game=game.name)]
    elif (member := hooks_for(game).member(session)) is not None:
        messages = _resign_member(session, game, member)
    else:
        seat = session.seat
        if seat is None:
            raise CommandRefused(_("RESIGN needs a SIGNON first: from which game?"))
        messages = _resign_seat(session, game, seat)
    if _more_after(session.body_lines[command.line :]):
        messages.append(_("RESIGN must be the last command of a mail: the lines after it were not read."))
    session.reply.ok(command.line, *messages)
    return Next.STOP


def _more_after(lines: Sequence[str]) -> bool:
    """Whether anything but blank lines, quoted lines, SIGNOFF or a signature follows."""
    for line in lines:
        text = line.strip()
        if text.upper().replace(" ", "") == "SIGNOFF" or line.startswith("--"):
            return False
        if text and not text.startswith(">"):
            return True
    return False


def _resign_seat(session: MailSession, game: Game, seat: Seat) -> list[str]:
    _ = session.gettext
    if seat.power is None:
        game.seats.remove(seat)
        session.uow.flush()
        session.seat = None
        return [
            _("You have left game '{game}'. Players still needed: {count}.").format(
                game=game.name, count=players_needed(game)
            )
        ]
    if seat.status is not SeatStatus.PLAYING:
        raise CommandRefused(_("You do not hold a power in this game any more."))
    session.uow.seats.leave(seat, session.now, SeatStatus.RESIGNED, phase=game.current_phase)
    if seat.person is not None:
        session.uow.people.add_to_record(seat.person, resignations=1)
    _announce(session, game, seat)
    return [
        _("You have resigned from game '{game}': {power} is now open for anyone to take over.").format(
            game=game.name, power=power_name(seat.power, session.language)
        )
    ]


def _resign_member(session: MailSession, game: Game, member: CouncilMember) -> list[str]:
    """A council member resigns his own place, never the power (judge.app.councils.membership)."""
    _ = session.gettext
    if game.state is GameState.FORMING or member.left_at is not None:
        raise CommandRefused(_("You do not hold a place on a council in this game any more."))
    last = membership.resign(session, game, member)
    seat = session.uow.seats.by_power(game, member.power)
    if last and seat is not None:
        _announce(session, game, seat)
    return [
        _("You have resigned from {power}'s council in game '{game}' and left the game.").format(
            game=game.name, power=power_name(member.power, session.language)
        )
    ]


def _announce(session: MailSession, game: Game, seat: Seat) -> None:
    config = session.services.config
    power = seat.power or ""
    letter = power_letter(game, power)
    subject = game_subject(
        config.code, game.name, f"Resignation: {power_name(power)}", game.current_phase
    )
    readers = audience(
        game, powers=() if game.quiet else None, observers=not game.quiet, exclude=[session.sender]
    )
    for language, to in readers.items():
        _ = translation(language).gettext
        body = _(
            "{power} has resigned from game '{game}'. Anyone registered who is not in the game "
            "may take it over with: SIGNON {letter}{game} password"
        ).format(power=power_name(power, language), game=game.name, letter=letter)
        session.send(Outgoing(tuple(to), subject, body + "\n", game_id=game.id))
