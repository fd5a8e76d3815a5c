"""Who reads what in a council game: the one place every output to a council member goes through.

A council game is a game of hidden loyalties (seed 003), so nothing is
mailed "to the power": each member is a person, and each mail goes to one
member, to him alone, in his own language. The rule of who may be given
what is :func:`judge.core.councils.roles.sees`; this module turns it into
addresses:

* :func:`council_readers`: the members of one council who may read one
  kind of mail now (the game's public mail, the council's, a tribunal's);
* :func:`seat_readers`: a seat's readers, for any game (a council seat's
  members, or an ordinary seat's report address or player), used by the
  game's audience (:func:`judge.app.game_state.game_facts.audience`), the results
  (:func:`judge.app.audience.results_readers.results_audience`) and the start;
* :func:`member_readers`: one member alone (what happens to him, a
  warning to him), if the rule lets him be given it;
* :func:`game_end_readers`: which players read the end of the game and its
  story (in a council game every member who ever sat, else the seats' readers);
* :func:`reply_addresses`: where the reply to a mail goes (the sender, and
  the addresses *he* set with SET ADDRESS; never his council);
* :func:`member_addresses`: a member's own addresses (SET ADDRESS, else his
  registration's primary one).

A council seat's ``report_address`` is never read here: a council's mail is
not the seat's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session, object_session

from judge.app.session.mail_session import MailSession
from judge.app.session.readers import person_address, reader_language, seat_addresses
from judge.core.councils.roles import Channel, Member, sees
from judge.db.enums import SeatStatus
from judge.db.models import CouncilMember, Game, Person, Seat
from judge.db.repositories.councils import councils_enabled

ADDRESS_KEY = "address"
"""``council_members.extra`` key: the addresses the member chose with SET ADDRESS (his alone)."""


@dataclass(frozen=True, slots=True)
class Reader:
    """One person a mail goes to: his address, the language he reads, the ``Timezone:`` of his
    registration (empty: none; :func:`judge.app.session.readers.reader_zone` decides), his member id if any."""

    address: str
    language: str
    time_zone: str = ""
    member_id: int | None = None


def read_by_councils(game: Game) -> bool:
    """Whether a seat's mail goes to its council's members, each alone, rather than to the seat:
    in a council game (seed 003). The audience's one question about the game's variant, asked
    here only: the audience sits below the game hooks (:mod:`judge.app.hooks`), which the rest
    of the flow asks instead, so it reads the game's settings itself (no table read)."""
    return councils_enabled(game)


def rule_member(member: CouncilMember) -> Member:
    return Member(member.id, member.power, member.role, member.rank, member.status)


def _session(game: Game) -> Session:
    session = object_session(game)
    assert session is not None, "a council game's audience is read inside its unit of work"
    return session


def person_of(game: Game, member: CouncilMember) -> Person | None:
    if member.person_id is None:
        return None
    return _session(game).get(Person, member.person_id)


def _zone_of(person: Person | None) -> str:
    return (person.time_zone or "") if person is not None else ""


def member_addresses(member: CouncilMember, person: Person | None) -> list[str]:
    """Where mail to ``member`` goes: the addresses he set (SET ADDRESS), else his primary address."""
    chosen = (member.extra or {}).get(ADDRESS_KEY)
    if isinstance(chosen, list) and chosen:
        return [str(a) for a in chosen if a]
    address = person_address(person)
    return [address] if address else []


def readers_of(game: Game, members: Iterable[CouncilMember]) -> list[Reader]:
    """Each given member's addresses with his language, in order, nobody twice."""
    out: list[Reader] = []
    seen: set[str] = set()
    for member in members:
        person = person_of(game, member)
        language = reader_language(person, game)
        for address in member_addresses(member, person):
            if address.lower() not in seen:
                seen.add(address.lower())
                out.append(Reader(address, language, _zone_of(person), member.id))
    return out


def members_of(game: Game, power: str | None = None) -> list[CouncilMember]:
    """The game's members (of one power), past ones too, by power then rank."""
    query = select(CouncilMember).where(CouncilMember.game_id == game.id)
    if power is not None:
        query = query.where(CouncilMember.power == power)
    return list(
        _session(game).scalars(query.order_by(CouncilMember.power, CouncilMember.rank, CouncilMember.id))
    )


def council_readers(
    game: Game, power: str, channel: Channel, *, accused: int | None = None, exclude: Iterable[str] = ()
) -> list[Reader]:
    """The members of ``power``'s council who may be given mail of ``channel`` now."""
    skip = {a.lower() for a in exclude}
    chosen = [m for m in members_of(game, power) if sees(rule_member(m), channel, accused=accused)]
    return [r for r in readers_of(game, chosen) if r.address.lower() not in skip]


def member_readers(game: Game, member: CouncilMember, channel: Channel = Channel.OWN) -> list[Reader]:
    """Where mail to ``member`` alone goes, if he may be given mail of ``channel`` now: his own
    addresses (SET ADDRESS, else his registration's), his language and zone; never his council's."""
    return readers_of(game, [member]) if sees(rule_member(member), channel) else []


def game_end_readers(game: Game) -> list[Reader]:
    """The players who read the end of ``game`` and its final summary, each in his language.

    In a council game, every member who ever sat on a council (:attr:`Channel.END`), each
    alone: the final summary tells the councils' story to all of them, those who left too.
    In an ordinary game, the readers of every seat with a player who did not resign (the
    eliminated too). Masters and observers are the caller's (they read it in any game)."""
    if read_by_councils(game):
        return readers_of(game, [m for m in members_of(game) if sees(rule_member(m), Channel.END)])
    return [
        reader
        for seat in game.seats
        if seat.person is not None and seat.status is not SeatStatus.RESIGNED
        for reader in seat_readers(game, seat)
    ]


def member_addresses_hidden(game: Game) -> bool:
    """Whether what the judge writes about a power's press must not name the address that wrote it:
    in a council game, an address tells who sits in which council (and where a spy sits), which
    no reader but the master learns before the end (seed 003, rule 2)."""
    return read_by_councils(game)


def master_readers(game: Game) -> list[Reader]:
    """Every master of the game, in his language."""
    out = []
    for master in game.masters:
        address = person_address(master.person)
        if address:
            out.append(Reader(address, reader_language(master.person, game), _zone_of(master.person)))
    return out


def seat_readers(game: Game, seat: Seat, channel: Channel = Channel.GAME) -> list[Reader]:
    """Who reads mail sent to ``seat``: a council's members who may (each alone, in his language),
    or an ordinary seat's report addresses (SET ADDRESS) or player, in the player's language."""
    if read_by_councils(game) and seat.power is not None:
        return council_readers(game, seat.power, channel)
    language = reader_language(seat.person, game)
    return [Reader(address, language, _zone_of(seat.person)) for address in seat_addresses(seat)]


def reply_addresses(session: MailSession) -> list[str]:
    """Where the reply to the mail goes besides its sender: what the signed-on player set with SET
    ADDRESS (a council member's own, never his council's), and copies the sign-on asked for."""
    extra: list[str] = []
    member = session.council_member
    game = session.game
    if member is not None and game is not None and read_by_councils(game):
        chosen = (member.extra or {}).get(ADDRESS_KEY)
        if isinstance(chosen, list):
            extra += [str(a) for a in chosen if a]
    elif session.seat is not None and session.seat.report_address and not (
        game is not None and read_by_councils(game)
    ):
        extra += session.seat.report_address.split(",")
    return [*extra, *session.reply_copies]


def group_by_language(readers: Sequence[Reader]) -> dict[str, list[str]]:
    """``{language: [address...]}`` for callers that write one text per language."""
    groups: dict[str, list[str]] = {}
    for reader in readers:
        groups.setdefault(reader.language, []).append(reader.address)
    return groups
