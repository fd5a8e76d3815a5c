"""Who hears about a game: the addresses of its players, masters and observers, and their language.

The Judge sends results and announcements (judge.app.games.masters.announce_to_game) to every player and observer of a
game (and its masters). A seat's mail goes to its report address when one is
set (SET ADDRESS), else to its player's primary address.
"""

from __future__ import annotations

from collections.abc import Iterable
from zoneinfo import ZoneInfo

from judge.db.enums import SeatStatus
from judge.db.models import Game, Person, Seat
from judge.timekeeping.dates import zone_named

ACTIVE = (SeatStatus.PLAYING, SeatStatus.WAITING, SeatStatus.ABANDONED, SeatStatus.CIVIL_DISORDER)

LANGUAGE_CHOSEN = "judge:language-chosen"
"""``Person.extra`` key: the person chose their language (SET LANGUAGE, or a REGISTER Language line).

A REGISTER keyword cannot contain ``:``, so no field of the form collides
with it; WHOIS leaves keys with ``:`` out.
"""
GAME_LANGUAGE = "language"
"""``Game.extra_settings`` key: the game's default language (SET LANGUAGE by a master)."""
DEFAULT_LANGUAGE = "en"


def has_chosen_language(person: Person) -> bool:
    """Whether the person said which language they read (a non-default one counts as said)."""
    return bool((person.extra or {}).get(LANGUAGE_CHOSEN)) or person.language != DEFAULT_LANGUAGE


def choose_language(person: Person, language: str) -> None:
    """Record that ``person`` reads ``language``, by their own choice (the game's default no longer applies)."""
    person.language = language
    person.extra = {**(person.extra or {}), LANGUAGE_CHOSEN: True}


def game_language(game: Game | None) -> str | None:
    """The default language a master set for ``game``, if any."""
    if game is None:
        return None
    value = (game.extra_settings or {}).get(GAME_LANGUAGE)
    return value if isinstance(value, str) and value else None


def reader_language(person: Person | None, game: Game | None = None) -> str:
    """The language mail about ``game`` is written in for ``person``.

    A person's own choice wins; then the game's default (for unregistered
    observers and players who never chose); then English.
    """
    if person is not None and has_chosen_language(person):
        return person.language
    return game_language(game) or (person.language if person is not None else DEFAULT_LANGUAGE)


def reader_zone(time_zone: str | None, judge_zone: ZoneInfo) -> ZoneInfo:
    """The time zone a reader is told dates in: the ``Timezone:`` of their registration
    (``Person.time_zone``), else the judge's. A name stored before registrations were checked
    that is no IANA zone counts as none."""
    return (zone_named(time_zone) if time_zone else None) or judge_zone


def person_address(person: Person | None) -> str | None:
    if person is None or not person.addresses:
        return None
    primary = [a.address for a in person.addresses if a.is_primary]
    return primary[0] if primary else person.addresses[0].address


def seat_addresses(seat: Seat) -> list[str]:
    """An ordinary seat's addresses (its report addresses, else its player's); a council seat's
    readers are its members, each alone: :func:`judge.app.audience.council_members.seat_readers`."""
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
