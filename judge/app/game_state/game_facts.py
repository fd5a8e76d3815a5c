"""Small facts about a game that many modules need: its variant's title, its powers' names and
letters, who hears its news (and in which zone), the seats still waiting for players.

In the ``game_state`` room, low in :data:`tests.test_layers.APP_ROOMS`, so that the outgoing
mail, the reports and the endgame can all read these facts; :mod:`judge.app.games.lifecycle`
(which starts games) sits higher. The game's map is
:func:`judge.app.game_state.variant_rules.game_map_of`.
"""

from __future__ import annotations

from collections.abc import Iterable
from zoneinfo import ZoneInfo

from judge.app.audience.council_members import seat_readers
from judge.app.game_state.variant_rules import game_map_of
from judge.app.session.readers import person_address, reader_language, reader_zone, seat_addresses
from judge.core.councils.roles import Channel
from judge.core.errors import CoreError
from judge.core.variants import load_map, power_names_of
from judge.db.enums import SeatStatus
from judge.db.models import Game, GameObserver, Seat
from judge.lang.powers import power_letters

OPEN_FOR_TAKEOVER = (SeatStatus.ABANDONED, SeatStatus.RESIGNED, SeatStatus.BOT)
"""Seats whose player has gone (resigned, ejected, abandoned), and a practice game's bot seats
(SET BOTS): anyone registered and not yet in the game may take them over (judge.app.people.takeover). A power in civil disorder is not one of
them: it is still its player's, who keeps hearing the game's mail."""


def is_gunboat(game: Game) -> bool:
    """Gunboat: players do not see one another's addresses."""
    return "gunboat" in (option.lower() for option in game.rule_options)


def variant_title(variant: str) -> str:
    """A variant as readers are told it: its variant file's title, without the edition in
    brackets or a trailing "Diplomacy" (``Ancient Mediterranean``, ``Standard``), never the
    file's code (``ancmed``); the code itself for a variant no file describes."""
    try:
        title = load_map(variant).title
    except CoreError:
        title = ""
    title = title.split(" (")[0].strip()
    if title.endswith(" Diplomacy"):
        title = title[: -len(" Diplomacy")]
    return title or variant.capitalize()


def describe_variant(game: Game) -> str:
    """``Standard``, ``Ancient Mediterranean gunboat``: the game's variant and options as
    readers are told them (a SIGNON names the variant by its code: ``ancmed gunboat``)."""
    return " ".join([variant_title(game.variant), *game.rule_options])


def power_name(power: str, language: str = "en") -> str:
    """A power as a report names it: ``France``, ``Germany``; in French ``Allemagne`` (the variant file's names)."""
    return power_names_of(power).display(language)


def power_letter(game: Game, power: str) -> str:
    """The letter players use for ``power`` in this game's variant (``F`` for France)."""
    for letter, name in power_letters(game_map_of(game)).items():
        if name == power:
            return letter
    return power[:1].upper()


def mailed_observers(game: Game) -> list[GameObserver]:
    """The game's observers mail goes to: all but those whose address is marked bouncing
    (judge.app.mail_out.bounces), until a mail from it arrives. Every mail to a game's observers
    (results, broadcasts, press copies, the start and the end) picks them here; the results'
    query (judge.app.audience.results_readers) says the same in SQL."""
    return [observer for observer in game.observers if not observer.held_for_bounces]


def audience(
    game: Game,
    *,
    powers: Iterable[str] | None = None,
    masters: bool = True,
    observers: bool = True,
    broadcast: bool = False,
    exclude: Iterable[str] = (),
) -> dict[str, list[str]]:
    """Who hears something about ``game``, grouped by the language they read.

    ``powers`` None means every player still holding a power (or waiting for
    one); otherwise only the players of those powers. ``broadcast`` leaves
    out observers who asked not to get broadcasts. Addresses in ``exclude``
    (the sender's) are left out; nobody is listed twice.
    """
    # A council's members each read alone: the game's news as players, what is for one power as
    # his council (judge.app.audience.council_members).
    channel = Channel.GAME if powers is None else Channel.COUNCIL
    wanted = None if powers is None else set(powers)
    seen = {address.lower() for address in exclude}
    groups: dict[str, list[str]] = {}

    def add(language: str, addresses: Iterable[str]) -> None:
        for address in addresses:
            if address and address.lower() not in seen:
                seen.add(address.lower())
                groups.setdefault(language, []).append(address)

    for seat in game.seats:
        if seat.person is None or seat.status in (SeatStatus.ELIMINATED, *OPEN_FOR_TAKEOVER):
            continue
        if wanted is not None and seat.power not in wanted:
            continue
        for reader in seat_readers(game, seat, channel):
            add(reader.language, [reader.address])
    if masters:
        for master in game.masters:
            add(reader_language(master.person, game), [person_address(master.person) or ""])
    if observers:
        for observer in mailed_observers(game):
            if broadcast and not observer.receives_broadcasts:
                continue
            add(reader_language(observer.person, game), [observer.address])
    return groups


def by_zone(game: Game, groups: dict[str, list[str]], judge_zone: ZoneInfo) -> list[tuple[str, ZoneInfo, list[str]]]:
    """``groups`` (language -> addresses, as :func:`audience` gives them) split by the readers'
    time zones: (language, zone, addresses), so a text with dates is written once per zone.

    An address is the zone of the person it reaches in this game (player, master, observer);
    an address nobody registered reads in the judge's zone.
    """
    zones: dict[str, ZoneInfo] = {}

    def note(person_zone: str | None, addresses: Iterable[str]) -> None:
        for address in addresses:
            if address:
                zones.setdefault(address.lower(), reader_zone(person_zone, judge_zone))

    for seat in game.seats:
        if seat.person is not None:
            note(seat.person.time_zone, seat_addresses(seat))
    for master in game.masters:
        note(master.person.time_zone if master.person else None, [person_address(master.person) or ""])
    for observer in game.observers:
        note(observer.person.time_zone if observer.person else None, [observer.address])
    split: list[tuple[str, ZoneInfo, list[str]]] = []
    for language, addresses in groups.items():
        by_key: dict[str, tuple[ZoneInfo, list[str]]] = {}
        for address in addresses:
            zone = zones.get(address.lower(), judge_zone)
            by_key.setdefault(zone.key, (zone, []))[1].append(address)
        split += [(language, zone, members) for zone, members in by_key.values()]
    return split

def players_needed(game: Game) -> int:
    """How many more players must join before the powers are dealt."""
    wanted = game.players_count or len(game_map_of(game).powers)
    return max(0, wanted - len(waiting_seats(game)) - len(unseated_bots(game)))


def unseated_bots(game: Game) -> list[Seat]:
    """The bots a master seated in a forming game (SET BOTS), no power yet: they take the powers
    the players were not dealt."""
    return [seat for seat in game.seats if seat.power is None and seat.status is SeatStatus.BOT]

def waiting_seats(game: Game) -> list[Seat]:
    """Seats of players who joined and have no power yet, in the order they joined."""
    return [seat for seat in game.seats if seat.power is None and seat.status is SeatStatus.WAITING]
