"""SET COUNCILS, the forming of councils at the start, the spies' secret draw, member sign-on (issue 17)."""

from __future__ import annotations

from collections import Counter

import pytest

from judge.app.councils.formation import deal_councils
from judge.app.games.lifecycle import parse_preference
from judge.core.councils.spies import draw_spies
from judge.core.variants import load_map
from judge.db.repositories.councils import councils_enabled
from judge.lang.powers import power_letters
from tests.app.conftest import Harness, text
from tests.app.councils_helpers import (
    LETTER,
    MASTER,
    POWERS,
    Seated,
    ambassador,
    form_council_game,
    general,
    member_rows,
    seated,
)
from tests.app.games_helpers import player, register

pytestmark = pytest.mark.engine_blind  # mail routing and wording: SQLite only, but the tests marked engine_sql


def test_only_the_creator_or_a_master_sets_councils_and_only_before_the_start(
    harness: Harness,
) -> None:
    for n in range(3):
        register(harness, player(n))
    harness.exchange(player(0), "CREATE ?demo pw0\n")
    refused = text(harness.exchange(player(1), "SIGNON ?demo pw1\nSET COUNCILS 3\n"))
    assert "Only a master of game 'demo' or its creator may set councils." in refused
    accepted = text(harness.exchange(player(0), "SIGNON ?demo pw0\nSET COUNCILS 3 YEARS 7\n"))
    assert "played by councils of 3 players: 21 players in all (7 powers)" in accepted
    assert "The game ends after 7 game years." in accepted
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        assert game.players_count == 21
        assert uow.councils.settings(game)["size"] == 3  # type: ignore[index]
    back = text(harness.exchange(player(0), "SIGNON ?demo pw0\nSET NO COUNCILS\n"))
    assert "no longer played by councils" in back
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        assert game.players_count is None and not councils_enabled(game)


def test_set_councils_is_refused_once_the_game_has_started(harness: Harness) -> None:
    form_council_game(harness)
    reply = text(harness.exchange(MASTER, "SIGNON Mdemo masterpw\nSET COUNCILS 4\n"))
    assert "Councils can only be set before the game starts." in reply


def test_twenty_one_players_fill_seven_councils_of_three(harness: Harness) -> None:
    form_council_game(harness, years=7)
    members = seated(harness)
    assert Counter(m.power for m in members) == dict.fromkeys(POWERS, 3)
    for power in POWERS:
        council = [m for m in members if m.power == power]
        assert sorted(m.rank for m in council) == [0, 1, 2]
        assert [m.role for m in council if m.rank == 0] == ["general"]
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        assert game.state.value == "active"
        assert sorted(s.power or "" for s in game.seats) == sorted(POWERS)  # one seat per power
        assert game.extra_settings["end_year"] == 1907  # seven years: 1901-1907
        assert game.extra_settings["scoring"] == "c-diplo"


@pytest.mark.engine_sql
def test_the_councils_and_spies_replay_from_the_recorded_seed(harness: Harness) -> None:
    form_council_game(harness, seed=11)
    rows = member_rows(harness)
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        seed = game.extra_settings["councils"]["seed"]
    joined = {row.extra["joined_seat"]: row for row in rows}
    letters = dict(power_letters(load_map("standard")))
    replay = deal_councils(
        {seat: parse_preference("", letters) for seat in joined}, POWERS, 3, seed
    )
    for power, seat_ids in replay.councils.items():
        assert [joined[s].power for s in seat_ids] == [power] * 3
        assert [joined[s].rank for s in seat_ids] == [0, 1, 2]
    import random

    members = {
        power: [joined[s].id for s in seat_ids] for power, seat_ids in replay.councils.items()
    }
    spies = draw_spies(members, random.Random(seed).getrandbits(63))
    assert {(s.member, s.true_power) for s in spies} == {
        (r.id, r.true_power) for r in rows if r.true_power
    }


def test_one_spy_per_council_each_working_for_another_power(harness: Harness) -> None:
    form_council_game(harness)
    spies = [m for m in seated(harness) if m.true_power is not None]
    assert sorted(s.power for s in spies) == sorted(POWERS)
    assert sorted(s.true_power or "" for s in spies) == sorted(POWERS)
    assert all(s.true_power != s.power for s in spies)


def test_preferences_fill_councils(harness: Harness) -> None:
    form_council_game(harness, preferences={4: "F", 9: "F", 13: "F"})
    members = seated(harness)
    france = {m.address for m in members if m.power == "FRANCE"}
    assert france == {player(4), player(9), player(13)}


def test_each_member_signs_on_with_their_own_password(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    amb = ambassador(members, "FRANCE", 2)
    reply = text(harness.exchange(amb.address, amb.signon + "\n"))
    assert "Signed on as France in game 'demo': you are its Ambassador 2." in reply
    gen = general(members, "FRANCE")
    reply = text(harness.exchange(gen.address, gen.signon + "\n"))
    assert "you are its General-in-chief" in reply
    other = general(members, "ENGLAND")
    wrong = text(harness.exchange(other.address, f"SIGNON Fdemo {other.password}\n"))
    assert "Invalid password or power, or no such game." in wrong


def test_the_spy_alone_is_told_and_the_master_sees_every_spy(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    told: dict[str, str] = {}
    for message in harness.outbox():
        if "Your council" in str(message["Subject"]):
            told[str(message["To"])] = text(message)
    assert set(told) == {m.address for m in members}
    for member in members:
        secret = "SECRET: you are a spy" in told[member.address]
        assert secret == (member.true_power is not None)
    master = [
        text(m)
        for m in harness.outbox()
        if str(m["To"]) == MASTER and "Councils and spies" in str(m["Subject"])
    ]
    assert len(master) == 1
    assert master[0].count("SPY for") == 7


def test_a_member_changes_his_own_password_and_no_one_elses(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    amb = ambassador(members, "FRANCE")
    gen = general(members, "FRANCE")
    harness.exchange(amb.address, f"{amb.signon}\nSET PASSWORD newsecret\n")
    reply = text(harness.exchange(amb.address, "SIGNON Fdemo newsecret\n"))
    assert "you are its Ambassador 1" in reply
    assert "Invalid password" in text(harness.exchange(amb.address, f"{amb.signon}\n"))
    assert "General-in-chief" in text(harness.exchange(gen.address, f"{gen.signon}\n"))


def test_signon_question_mark_on_a_started_council_game_takes_over_nothing(
    harness: Harness,
) -> None:
    form_council_game(harness)
    amb = ambassador(seated(harness), "ENGLAND")
    reply = text(harness.exchange(amb.address, "SIGNON ?demo whatever\n"))
    assert "is played by councils: a member signs on with SIGNON <letter>demo" in reply
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        assert len(game.seats) == 7


def test_list_tells_who_would_join_that_the_game_is_played_by_councils(harness: Harness) -> None:
    for n in range(2):
        register(harness, player(n))
    harness.exchange(player(0), "CREATE ?demo pw0\nSET COUNCILS 3\n")
    listing = text(harness.exchange(player(1), "LIST demo\n"))
    assert (
        "Played by councils of 3 players per power: a General-in-chief and Ambassadors, "
        "one of them secretly working for another power." in listing
    )


def test_force_begin_with_fewer_players_fills_the_councils_evenly(harness: Harness) -> None:
    from tests.app.councils_helpers import seed_starts

    seed_starts(harness, 3)
    for n in range(15):
        register(harness, player(n))
    register(harness, MASTER)
    harness.exchange(player(0), "CREATE ?demo pw0\nSET COUNCILS 3\n")
    with harness.db.unit_of_work() as uow:
        game = uow.games.require("demo")
        person = uow.people.by_address(MASTER)
        assert person is not None
        uow.games.add_master(game, person, "masterpw", harness.clock.now())
    for n in range(1, 15):
        harness.exchange(player(n), f"SIGNON ?demo pw{n}\n")
    reply = text(harness.exchange(MASTER, "SIGNON Mdemo masterpw\nFORCE BEGIN\n"))
    assert "has started" in reply
    sizes = Counter(m.power for m in seated(harness))
    assert sorted(sizes.values()) == [2, 2, 2, 2, 2, 2, 3]
    assert len(sizes) == 7


def _short_game(harness: Harness, players: int) -> list[Seated]:
    """``players`` join a council game of three that the master starts with FORCE BEGIN."""
    from tests.app.councils_helpers import seed_starts

    seed_starts(harness, 3)
    for n in range(players):
        register(harness, player(n))
    register(harness, MASTER)
    harness.exchange(player(0), "CREATE ?demo pw0\nSET COUNCILS 3\n")
    with harness.db.unit_of_work() as uow:
        game = uow.games.require("demo")
        person = uow.people.by_address(MASTER)
        assert person is not None
        uow.games.add_master(game, person, "masterpw", harness.clock.now())
    for n in range(1, players):
        harness.exchange(player(n), f"SIGNON ?demo pw{n}\n")
    harness.new_mail()
    reply = harness.exchange(MASTER, "SIGNON Mdemo masterpw\nFORCE BEGIN\n")
    assert "has started" in text(reply)
    return seated(harness)


@pytest.mark.engine_sql
def test_force_begin_short_of_players_makes_councils_of_one_that_negotiate(harness: Harness) -> None:
    """Ten players for seven councils: four councils of one. Each lone member is his power's General
    and its Ambassador (else his power could speak to nobody and hear nothing): he is told so alone,
    writes to other powers' Ambassadors and reads their press, sits in multi-party rooms; a General of
    a full council still reads none of it, and a lone member is no spy (a spy needs a loyal fellow)."""
    members = _short_game(harness, 10)
    start_mail = harness.others
    sizes = Counter(m.power for m in members)
    assert sorted(sizes.values()) == [1, 1, 1, 1, 2, 2, 2]
    lone = [m for m in members if sizes[m.power] == 1]
    pairs = [m for m in members if sizes[m.power] == 2]
    told = {str(m["To"]) for m in start_mail if "You sit alone on this council" in text(m)}
    assert told == {m.address for m in lone}  # each lone member, alone; no other member reads it
    assert all(m.role == "general" and m.true_power is None for m in lone)
    first, second = lone[0], lone[1]
    couple = sorted({m.power for m in pairs})[0]
    their_ambassador = ambassador(members, couple)
    their_general = general(members, couple)
    letter = LETTER[couple]
    reply = text(harness.exchange(first.address, f"{first.signon}\nPRESS TO {letter}\nShall we talk?\nENDPRESS\n"))
    assert "Press sent: 1 council members read it" in reply, reply
    readers = {str(m["To"]) for m in harness.others if "Shall we talk?" in text(m)}
    assert readers == {their_ambassador.address, MASTER}  # never the General of a full council
    assert their_general.address not in readers
    back = f"{their_ambassador.signon}\nPRESS TO {LETTER[first.power]}{LETTER[second.power]}\nA room of three\nENDPRESS\n"
    harness.exchange(their_ambassador.address, back)
    readers = {str(m["To"]) for m in harness.others if "A room of three" in text(m)}
    assert readers == {first.address, second.address, MASTER}



def test_the_pages_quote_the_lone_members_notice() -> None:
    from pathlib import Path

    from judge.app.councils.formation import ALONE
    from judge.i18n import translation

    docs = Path(__file__).resolve().parents[2] / "docs"
    for page, language, quoted in (
        ("councils.md", "en", "You sit alone on this council"),
        ("fr/conseils.md", "fr", "Vous siégez seul dans ce Conseil"),
    ):
        assert translation(language).gettext(ALONE).startswith(quoted)
        assert f"`{quoted} ...`" in " ".join((docs / page).read_text(encoding="utf-8").split())
