"""SET of one-of-several options and numbers: values stored, bounds, before-the-start options."""

from __future__ import annotations

import pytest

from tests.app.conftest import Harness
from tests.app.games_helpers import player, register
from tests.app.masters_helpers import MASTER, as_master, moderated_game, read, state_of

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def forming_moderated(harness: Harness) -> None:
    """A moderated game with its master and two players, not started."""
    moderated_game(harness, players=2)


def test_press_modes_fakes_and_observer_press_are_stored_as_the_press_code_reads_them(harness: Harness) -> None:
    moderated_game(harness)
    reply = as_master(harness, "SET GREY/WHITE, PARTIAL FAKES BROADCAST\nSET OBSERVER NO PRESS\nSET NO PARTIAL\n")
    body = read(reply)
    assert "Press: Grey/White (was White)." in body
    assert "Fake press: Partial fakes broadcast (was None)." in body
    assert "Observer press: None (was Any)." in body
    assert "Partial press: NoPartial (was Partial)." in body
    columns = state_of(harness).columns
    assert (columns["press_mode"], columns["fake_press"], columns["observer_press"], columns["partial_press"]) == (
        "grey/white", "broadcast", "none", False,
    )
    as_master(harness, "SET NO PRESS, PARTIAL FAKES BROADCAST BY DEFAULT\n")
    columns = state_of(harness).columns
    assert (columns["press_mode"], columns["fake_press"]) == ("none", "broadcast by default")


def test_level_access_and_processing(harness: Harness) -> None:
    moderated_game(harness)
    reply = as_master(harness, "SET LEVEL EXPERT\nSET ACCESS SAME\nSET MANUAL PROCESS\n")
    body = read(reply)
    assert "Level: Expert (was Any)." in body
    assert "Access: Same (was Any)." in body
    assert "Processing: Manual (was Auto)." in body
    columns = state_of(harness).columns
    assert (columns["level"], columns["access"], columns["manual_process"]) == ("expert", "same", True)


def test_options_for_before_the_start_are_refused_once_it_started(harness: Harness) -> None:
    moderated_game(harness)
    before = state_of(harness)
    reply = as_master(harness, "SET PRFRAND\nSET ANY CENTRES\nSET CENTERS 17\nSET PLAYERS 6\nSET NO PROXY\n")
    body = read(reply)
    for label in ("Power assignment", "Build centres", "Centres to win", "Players", "Proxy"):
        assert f"{label} can only be changed before the game starts." in body
    assert state_of(harness).columns == before.columns


def test_before_the_start_the_moderator_shapes_the_game(harness: Harness) -> None:
    forming_moderated(harness)
    reply = as_master(harness, "SET PRFRAND, ANY CENTRES, ANY DISBAND\nSET CENTERS 17\nSET PLAYERS 5\n")
    body = read(reply)
    assert "Centres to win: 17 (was 18)." in body
    assert "Players: 5 (was -)." in body
    columns = state_of(harness).columns
    assert (columns["assignment"], columns["build_centres"], columns["any_disband"]) == ("prfrand", "any", True)
    assert (columns["winning_centers"], columns["players_count"]) == (17, 5)


def test_numbers_out_of_range_are_refused(harness: Harness) -> None:
    forming_moderated(harness)
    before = state_of(harness).columns
    reply = as_master(harness, "SET CENTERS 35\nSET PLAYERS 1\nSET PLAYERS 8\nSET MAX ABSENCE 40\n")
    body = read(reply)
    assert "Centres to win must be from 1 to 34; 35 is out of range." in body
    assert "Players must be from 2 to 7; 1 is out of range." in body  # two players have joined
    assert "Players must be from 2 to 7; 8 is out of range." in body
    assert "> SET MAX ABSENCE 40" in body and "[Error Flag]" in reply["Subject"]
    assert state_of(harness).columns == before


def test_dedication_and_ratios(harness: Harness) -> None:
    forming_moderated(harness)
    reply = as_master(harness, "SET DEDICATION -5\nSET ONTIMERAT 0.75\nSET RESRAT 0.2\nSET DEDICATION 10\n")
    body = read(reply)
    assert "Minimum dedication: -5 (was -10000)." in body
    assert "Minimum on-time ratio: 0.75 (was 0)." in body
    assert "Maximum CD ratio: 0.2 (was 1)." in body
    assert "You may not ask a dedication higher than your own (0)." in body
    columns = state_of(harness).columns
    assert (columns["min_dedication"], columns["min_ontime_ratio"], columns["max_resignation_ratio"]) == (
        -5, 0.75, 0.2,
    )


def test_set_autostart_starts_a_full_game_waiting_for_its_master(harness: Harness) -> None:
    register(harness, MASTER)
    harness.exchange(MASTER, "CREATE ?modo mpw\nBECOME MASTER\nSET MANUAL START\n")
    for n in range(7):
        register(harness, player(n))
        harness.exchange(player(n), f"SIGNON ?modo pw{n}\n")
    assert state_of(harness).columns["state"].value == "forming"
    reply = as_master(harness, "SET AUTOSTART\n")
    assert "The game has started: see the Game Starting mail." in read(reply)
    assert state_of(harness).columns["current_phase"] == "S1901M"
    assert any("Game Starting" in m["Subject"] for m in harness.others)


def test_all_press_is_for_the_master_and_watching_observers(harness: Harness) -> None:
    moderated_game(harness)
    reply = as_master(harness, "SET ALL PRESS\n")
    assert "You will get a copy of every press message of this game." in read(reply)
    assert state_of(harness).columns["extra_settings"]["all_press"] == [MASTER]
    reply = harness.exchange("watcher@example.net", "OBSERVE modo opw\nSET ALL PRESS\n")
    assert "SET ALL PRESS is for the master" in read(reply)
    as_master(harness, "SET WATCH ALL PRESS\n")
    reply = harness.exchange("watcher@example.net", "OBSERVE modo opw\nSET ALL PRESS\n")
    assert "[Error Flag]" not in reply["Subject"]
    assert state_of(harness).columns["extra_settings"]["all_press"] == [MASTER, "watcher@example.net"]
    as_master(harness, "SET NORMAL PRESS\n")
    assert state_of(harness).columns["extra_settings"]["all_press"] == ["watcher@example.net"]
