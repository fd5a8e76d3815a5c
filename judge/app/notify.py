"""Who hears about a game, and mail to all of them.

The Judge sends results and announcements to every player and observer of a
game (and its masters). A seat's mail goes to its report address when one is
set (SET ADDRESS), else to its player's primary address.
"""

from __future__ import annotations

from collections.abc import Iterable

from judge.app.session import MailSession, Outgoing
from judge.db.enums import SeatStatus
from judge.db.models import Game, Person, Seat
from judge.mail.compose import game_subject

ACTIVE = (SeatStatus.PLAYING, SeatStatus.WAITING, SeatStatus.ABANDONED, SeatStatus.CIVIL_DISORDER)


def person_address(person: Person | None) -> str | None:
    if person is None or not person.addresses:
        return None
    primary = [a.address for a in person.addresses if a.is_primary]
    return primary[0] if primary else person.addresses[0].address


def seat_addresses(seat: Seat) -> list[str]:
    if seat.report_address:
        return [a for a in seat.report_address.split(",") if a]
    address = person_address(seat.person)
    return [address] if address else []


def player_addresses(game: Game, *, exclude: Iterable[str] = ()) -> list[str]:
    """Every player in the game (seats still held), without those in ``exclude``."""
    skip = {a.lower() for a in exclude}
    out: list[str] = []
    for seat in game.seats:
        if seat.status in ACTIVE:
            out += [a for a in seat_addresses(seat) if a.lower() not in skip]
    return list(dict.fromkeys(out))


def master_addresses(game: Game) -> list[str]:
    return [a for m in game.masters if (a := person_address(m.person))]


def observer_addresses(game: Game) -> list[str]:
    return [o.address for o in game.observers if o.address]


def everyone(game: Game, *, exclude: Iterable[str] = ()) -> list[str]:
    """Players, masters and observers: who gets results and announcements."""
    skip = {a.lower() for a in exclude}
    every = player_addresses(game) + master_addresses(game) + observer_addresses(game)
    return [a for a in dict.fromkeys(every) if a.lower() not in skip]


def announce(
    session: MailSession, game: Game, event: str, body: str, *, exclude_sender: bool = False
) -> None:
    """Queue one announcement to the whole game (queued when the mail's transaction commits)."""
    to = everyone(game, exclude=[session.sender] if exclude_sender else [])
    if to:
        session.send(
            Outgoing(
                tuple(to),
                game_subject(session.services.config.code, game.name, event, game.current_phase),
                body,
                game_id=game.id,
            )
        )
