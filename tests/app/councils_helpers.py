"""Helpers for the council tests (issue 17): a Standard game of 21 players formed by mail.

The creator CREATEs the game and sends SET COUNCILS; a master is added; the
other twenty join with SIGNON ?game. The start's random generator is
seeded so a test can replay the draw.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from judge.db.models import CouncilMember
from tests.app.conftest import Harness, text
from tests.app.games_helpers import player, register
from tests.app.snapshots import replay

MASTER = "referee@example.net"
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
LETTER = {
    "AUSTRIA": "A",
    "ENGLAND": "E",
    "FRANCE": "F",
    "GERMANY": "G",
    "ITALY": "I",
    "RUSSIA": "R",
    "TURKEY": "T",
}
#: Every unit of Standard's opening holding, by power: the orders a General gives to play a season.
HOLDS = {
    "AUSTRIA": "A VIE H\nA BUD H\nF TRI H",
    "ENGLAND": "F LON H\nF EDI H\nA LVP H",
    "FRANCE": "A PAR H\nA MAR H\nF BRE H",
    "GERMANY": "A BER H\nA MUN H\nF KIE H",
    "ITALY": "A ROM H\nA VEN H\nF NAP H",
    "RUSSIA": "A WAR H\nA MOS H\nF SEV H\nF STP/SC H",
    "TURKEY": "F ANK H\nA CON H\nA SMY H",
}


@dataclass(frozen=True)
class Seated:
    """One council member as a test needs it."""

    address: str
    password: str
    power: str
    role: str
    rank: int
    true_power: str | None

    @property
    def signon(self) -> str:
        return f"SIGNON {LETTER[self.power]}demo {self.password}"


def seed_starts(harness: Harness, seed: int = 7) -> None:
    harness.services = replace(harness.services, rng_factory=lambda: random.Random(seed))


def form_council_game(
    harness: Harness, *, seed: int = 7, languages: dict[int, str] | None = None,
    preferences: dict[int, str] | None = None, years: int | None = None,
) -> list[str]:  # fmt: skip
    """21 players join ``demo`` (councils of 3), which starts; returns their addresses.

    Played by mail once per process and engine for each set of arguments; later calls from a fresh
    harness get a copy of that position (tests.app.snapshots)."""
    seed_starts(harness, seed)
    languages = languages or {}
    preferences = preferences or {}
    key = ("form_council_game", seed, tuple(sorted(languages.items())), tuple(sorted(preferences.items())), years)
    replay(harness, key, lambda: _form(harness, languages, preferences, years))
    return [player(n) for n in range(21)]


def _form(harness: Harness, languages: dict[int, str], preferences: dict[int, str], years: int | None) -> None:
    addresses = [player(n) for n in range(21)]
    for n, address in enumerate(addresses):
        register(harness, address, language=languages.get(n, "en"))
    register(harness, MASTER, name="Referee")
    extra = f" YEARS {years}" if years else ""
    reply = harness.exchange(addresses[0], f"CREATE ?demo pw0\nSET COUNCILS 3{extra}\n")
    assert ": 21 " in text(reply), text(reply)  # "21 players in all" / "21 joueurs en tout"
    with harness.db.unit_of_work() as uow:
        game = uow.games.require("demo")
        person = uow.people.by_address(MASTER)
        assert person is not None
        uow.games.add_master(game, person, "masterpw", harness.clock.now())
    for n, address in enumerate(addresses[1:], start=1):
        lines = [f"SIGNON ?demo pw{n}"]
        if n in preferences:
            lines.append(f"SET PREFERENCE {preferences[n]}")
        harness.exchange(address, "\n".join(lines) + "\n")


def elected_council_game(harness: Harness) -> list[Seated]:
    """:func:`form_council_game`, then every member votes by mail for his council's provisional
    General, who is elected (the first election closes at once); returns the members.

    Played once per process and engine; later calls from a fresh harness get a copy."""

    def build() -> None:
        form_council_game(harness)
        members = seated(harness)
        for member in members:
            winner = general(members, member.power)
            harness.exchange(member.address, f"{member.signon}\nVOTE {member_id(harness, winner.address)}\n")

    replay(harness, ("elected_council_game",), build)
    seed_starts(harness)
    return seated(harness)


def member_id(harness: Harness, address: str) -> int:
    """The council member id of the person writing from ``address`` in ``demo``."""
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        person = uow.people.by_address(address)
        assert person is not None
        member = uow.councils.member_of_person(game, person)
        assert member is not None
        return member.id


def seated(harness: Harness) -> list[Seated]:
    """Every member of ``demo``'s councils, by power then rank."""
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        out = []
        for member in uow.councils.members(game):
            person = uow.councils.person_of(member)
            assert person is not None
            address = person.primary_address or ""
            out.append(
                Seated(address, f"pw{int(address[1:].split('@')[0])}", member.power, member.role, member.rank,
                       member.true_power)
            )  # fmt: skip
        return out


def member_rows(harness: Harness) -> list[CouncilMember]:
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        rows = uow.councils.members(game)
        for row in rows:
            uow.session.expunge(row)
        return rows


def general(members: list[Seated], power: str) -> Seated:
    return next(m for m in members if m.power == power and m.role == "general")


def ambassador(members: list[Seated], power: str, rank: int = 1) -> Seated:
    return next(
        m for m in members if m.power == power and m.role == "ambassador" and m.rank == rank
    )
