"""Joining a forming game and its start: the seeded deal, the first phase, the Game Starting mail."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from judge.app.game_state.assignment import assign_powers
from judge.app.games.lifecycle import parse_preference
from judge.core.variants import load_map
from judge.lang.powers import power_letters
from tests.app.conftest import Harness
from tests.app.games_helpers import POWERS, form_game, player, powers_of, read, register, snapshot

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def test_joining_counts_down_the_players_needed(harness: Harness) -> None:
    for n in range(3):
        register(harness, player(n))
    harness.exchange(player(0), "CREATE ?demo pw0\n")
    reply = harness.exchange(player(1), "SIGNON ?demo pw1\n")
    body = read(reply)
    assert "You have joined game 'demo' (Standard)." in body
    assert "Players still needed before the game can start: 5." in body
    assert "SET PREFERENCE" in body
    assert reply["Subject"].startswith("Re: XPY:demo - ")
    assert [s[2] for s in snapshot(harness, "demo").seats] == ["waiting", "waiting"]


def test_signon_question_mark_alone_joins_the_next_forming_game(harness: Harness) -> None:
    for n in range(2):
        register(harness, player(n))
    harness.exchange(player(0), "CREATE ?first pw0\n")
    body = read(harness.exchange(player(1), "SIGNON ? pw1\n"))
    assert "You have joined game 'first' (Standard)." in body
    assert len(snapshot(harness, "first").seats) == 2


def test_signon_question_mark_with_no_forming_game(harness: Harness) -> None:
    register(harness, player(0))
    body = read(harness.exchange(player(0), "SIGNON ? pw\n"))
    assert "No game is waiting for players. Create one with CREATE ?name password." in body


def test_joining_an_unknown_game_suggests_create(harness: Harness) -> None:
    register(harness, player(0))
    body = read(harness.exchange(player(0), "SIGNON ?nosuch pw\n"))
    assert "There is no game called 'nosuch'. To create it: CREATE ?nosuch password." in body


def test_unregistered_people_cannot_join(harness: Harness) -> None:
    register(harness, player(0))
    harness.exchange(player(0), "CREATE ?demo pw0\n")
    body = read(harness.exchange("stranger@example.net", "SIGNON ?demo pw\n"))
    assert "Only registered players may join a game" in body
    assert len(snapshot(harness, "demo").seats) == 1


def test_variant_words_must_match_the_game(harness: Harness) -> None:
    for n in range(3):
        register(harness, player(n))
    harness.exchange(player(0), "CREATE ?gb pw0 standard gunboat\n")
    body = read(harness.exchange(player(1), "SIGNON ?gb pw1\n"))
    assert ("Game 'gb' is Standard gunboat: a game of another variant than Standard, or with options, is joined "
            "by naming them after the password: SIGNON ?gb password standard gunboat") in body
    body = read(harness.exchange(player(2), "SIGNON ?gb pw2 gunboat\n"))
    assert "You have joined game 'gb'" in body
    assert len(snapshot(harness, "gb").seats) == 2


def test_a_second_join_by_the_same_person_signs_them_back_on(harness: Harness) -> None:
    register(harness, player(0))
    harness.exchange(player(0), "CREATE ?demo pw0\n")
    body = read(harness.exchange(player(0), "SIGNON ?demo pw0\nSET PREFERENCE E\n"))
    assert "You are already signed up for game 'demo'. Players still needed: 6." in body
    assert "Preference list set: England." in body
    assert len(snapshot(harness, "demo").seats) == 1
    body = read(harness.exchange(player(0), "SIGNON ?demo wrong\n"))
    assert "Invalid password or power, or no such game." in body


def test_only_one_signon_per_mail(harness: Harness) -> None:
    for n in range(2):
        register(harness, player(n))
    harness.exchange(player(0), "CREATE ?one pw0\n")
    harness.exchange(player(1), "CREATE ?two pw1\n")
    reply = harness.exchange(player(0), "SIGNON ?one pw0\nSIGNON ?two pw0\n")
    assert "Only one SIGNON" in read(reply)
    assert "[Error Flag]" in reply["Subject"]
    assert len(snapshot(harness, "two").seats) == 1


def test_the_seventh_player_starts_the_game(harness: Harness) -> None:
    addresses = form_game(harness, players=6)
    register(harness, player(6))
    reply = harness.exchange(player(6), "SIGNON ?demo pw6\n")
    body = read(reply)
    game = snapshot(harness, "demo")
    assert game.state == "active"
    assert game.current_phase == "S1901M"
    powers = powers_of(harness, "demo")
    assert sorted(powers.values()) == sorted(POWERS)
    assert f"The game has started: you are playing {powers[player(6)].title()}." in body
    assert ":: Deadline: S1901M Thu Nov 26 2026 23:30:00 +0000" in body
    assert reply["Subject"].startswith("Re: XPY:demo - S1901M")
    starting = [m for m in harness.others if "Game Starting" in m["Subject"]]
    assert sorted(str(m["To"]) for m in starting) == sorted([*addresses, player(6)])
    assert all(m["Subject"] == "XPY:demo - S1901M Game Starting" for m in starting)


def test_game_starting_mail_names_the_power_players_units_and_deadline(harness: Harness) -> None:
    form_game(harness, preferences={0: "F"})
    mails = [m for m in harness.others if "Game Starting" in m["Subject"]]
    mine = next(m for m in mails if str(m["To"]) == player(0))
    body = read(mine)
    powers = powers_of(harness, "demo")
    assert powers[player(0)] == "FRANCE"
    assert body.startswith("Game 'demo' has started.\nYou are playing France.\n")
    assert f"   England: {next(a for a, p in powers.items() if p == 'ENGLAND')}" in body
    assert "   France:  p0@example.net" in body
    assert "   Russia: Fleet St Petersburg (south coast)." in body
    assert "   Turkey: Army Smyrna." in body
    assert "The deadline for the first orders (S1901M) is Thursday 26 November 2026, 23:30 UTC." in body
    assert "not before Monday 23 November 2026, 21:00 UTC." in body


def test_game_starting_mail_in_french_and_gunboat_hides_addresses(harness: Harness) -> None:
    for n in range(7):
        register(harness, player(n), language="fr" if n == 3 else "en")
    harness.exchange(player(0), "CREATE ?gb pw0 standard gunboat\n")
    for n in range(1, 7):
        harness.exchange(player(n), f"SIGNON ?gb pw{n} standard gunboat\n")
    mail = next(m for m in harness.others if str(m["To"]) == player(3))
    body = read(mail)
    assert body.startswith("La partie 'gb' a commencé.\nVous jouez ")
    assert "@example.net" not in body
    assert "someone@somewhere" in body
    assert "Russie: Flotte Saint-Pétersbourg (côte sud)." in body


def test_the_deal_follows_preferences_and_replays_from_the_recorded_seed(harness: Harness) -> None:
    wishes = {0: "F", 1: "E", 2: "[GR]T", 3: "R", 4: "*", 5: "I"}
    form_game(harness, preferences=wishes)
    powers = powers_of(harness, "demo")
    assert powers[player(0)] == "FRANCE"
    assert powers[player(1)] == "ENGLAND"
    assert powers[player(3)] == "RUSSIA"
    assert powers[player(5)] == "ITALY"
    assert powers[player(2)] == "GERMANY"
    seed = snapshot(harness, "demo").extra["assignment_seed"]
    assert isinstance(seed, int)
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        letters = dict(power_letters(load_map()))
        preferences = {s.id: parse_preference(s.preferences, letters) for s in game.seats}
        replay = assign_powers(preferences, load_map().powers, random.Random(seed))
        assert {s.id: s.power for s in game.seats} == replay


def test_first_phase_is_opened_on_the_opening_position_with_times(harness: Harness) -> None:
    form_game(harness)
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        record = uow.phases.current(game)
        assert record is not None
        assert record.name == "S1901M" and record.turn == 1
        assert len(record.position_before["units"]) == 22
        assert game.started_at is not None
        assert game.started_at.replace(tzinfo=UTC) == datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
        assert game.deadline_at is not None and game.grace_at is not None
        # Mon 09:00 + next 71 h, on the 23:30 clock: Thursday, as for every phase (issue 13: not next doubled)
        assert game.deadline_at.replace(tzinfo=UTC) == datetime(2026, 11, 26, 23, 30, tzinfo=UTC)
        assert game.grace_at > game.deadline_at
        assert game.next_due_at is not None and game.next_due_at < game.deadline_at
        person = uow.people.by_address(player(0))
        assert person is not None and person.games_started == 1


def test_a_game_without_press_gets_a_single_next(harness: Harness) -> None:
    addresses = form_game(harness, players=6)
    with harness.db.unit_of_work() as uow:
        uow.games.require("demo").press_mode = "none"
    register(harness, player(6))
    harness.exchange(player(6), "SIGNON ?demo pw6\n")
    with harness.db.unit_of_work(readonly=True) as uow:
        deadline = uow.games.require("demo").deadline_at
        assert deadline is not None
        # 71 hours from Monday 09:00 is Thursday 08:00, then the 23:30 clock.
        assert deadline.replace(tzinfo=UTC) == datetime(2026, 11, 26, 23, 30, tzinfo=UTC)
    assert len(addresses) == 6


def test_manual_start_waits_for_the_master(harness: Harness) -> None:
    form_game(harness, players=6)
    with harness.db.unit_of_work() as uow:
        uow.games.require("demo").manual_start = True
    register(harness, player(6))
    body = read(harness.exchange(player(6), "SIGNON ?demo pw6\n"))
    assert "The game has all its players; its master will start it." in body
    assert snapshot(harness, "demo").state == "forming"


def test_joining_a_started_game_with_no_open_power_is_refused(harness: Harness) -> None:
    form_game(harness)
    register(harness, "late@example.net")
    body = read(harness.exchange("late@example.net", "SIGNON ?demo pw\n"))
    assert "Game 'demo' has started and no power is open for takeover. You may OBSERVE it." in body


@pytest.mark.engine_sql
def test_start_with_fewer_players_leaves_the_other_powers_open(harness: Harness) -> None:
    """What a master's FORCE BEGIN calls: two players, five powers left for takeover."""
    from zoneinfo import ZoneInfo

    from judge.app.games.lifecycle import start_game

    form_game(harness, players=2, preferences={0: "F", 1: "E"})
    with harness.db.unit_of_work() as uow:
        game = uow.games.require("demo")
        started = start_game(uow, game, harness.clock.now(), random.Random(7), zone=ZoneInfo("UTC"))
        assert sorted(started.powers.values()) == ["ENGLAND", "FRANCE"]
        assert started.dummies == ("AUSTRIA", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
        assert game.extra_settings["assignment_seed"] == started.seed
    seats = snapshot(harness, "demo").seats
    assert sorted((p, s) for a, p, s in seats if a is None) == [
        (p, "abandoned") for p in ("AUSTRIA", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
    ]
    register(harness, "new@example.net")
    body = read(harness.exchange("new@example.net", "SIGNON ?demo any\n"))
    assert "You have taken over Austria in game 'demo'." in body


def test_the_seventh_players_preference_in_the_same_mail_counts(harness: Harness) -> None:
    """Issue 13: the powers are dealt after the whole mail is read, so SET PREFERENCE after SIGNON counts."""
    addresses = form_game(harness, players=6)
    register(harness, player(6))
    reply = harness.exchange(player(6), "SIGNON ?demo pw6\nSET PREFERENCE T\n")
    body = read(reply)
    assert "[Error Flag]" not in reply["Subject"], body
    assert "The game has all its players: the powers are dealt once this whole mail has been read." in body
    assert "The game has started: you are playing Turkey. See the Game Starting mail." in body
    assert powers_of(harness, "demo")[player(6)] == "TURKEY"
    assert len(addresses) == 6


def test_a_game_of_another_variant_is_joined_by_naming_it_and_is_told_by_its_title(harness: Harness) -> None:
    for n in range(3):
        register(harness, player(n))
    created = read(harness.exchange(player(0), "CREATE ?antiquity pw0 ancmed\n"))
    # The ':: Judge:' line keeps the code, as SIGNON takes it and the players' tools read it.
    assert "Ancmed" not in created.split("\n> ", 1)[1]
    assert "(Ancient Mediterranean)" in created
    refused = read(harness.exchange(player(1), "SIGNON ?antiquity pw1\n"))
    assert ("Game 'antiquity' is Ancient Mediterranean: a game of another variant than Standard, or with options, "
            "is joined by naming them after the password: SIGNON ?antiquity password ancmed") in refused
    joined = read(harness.exchange(player(1), "SIGNON ?antiquity pw1 ancmed\n"))
    assert "You have joined game 'antiquity' (Ancient Mediterranean)." in joined
    listing = read(harness.exchange(player(2), "LIST antiquity\n"))
    assert "Game 'antiquity' (Ancient Mediterranean) is forming" in listing
