"""BECOME MASTER and BECOME <power>: who may, and what the power's player is sent."""

from __future__ import annotations

import pytest

from tests.app.conftest import Harness
from tests.app.games_helpers import player, register
from tests.app.masters_helpers import MASTER, as_master, moderated_game, read, sent_to, state_of

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def test_become_master_makes_the_creator_master_of_a_moderated_rated_game(harness: Harness) -> None:
    register(harness, MASTER)
    reply = harness.exchange(MASTER, "CREATE ?modo mpw\nBECOME MASTER\n")
    body = read(reply)
    assert "You are now the master of game 'modo'; it is moderated." in body
    state = state_of(harness)
    assert state.masters == [MASTER]
    assert state.seats == []
    assert state.columns["moderated"] is True and state.columns["rated"] is True
    assert ("moderated", False, True, MASTER) in state.settings_audit
    # The same password now signs on as master.
    reply = harness.exchange(MASTER, "SIGNON Mmodo mpw\n")
    assert "Signed on as master of game 'modo'." in read(reply)


def test_become_master_is_refused_once_another_player_has_joined(harness: Harness) -> None:
    register(harness, MASTER)
    harness.exchange(MASTER, "CREATE ?modo mpw\n")
    register(harness, player(1))
    harness.exchange(player(1), "SIGNON ?modo pw1\n")
    reply = harness.exchange(MASTER, "SIGNON ?modo mpw\nBECOME MASTER\n")
    assert "[Error Flag]" in reply["Subject"]
    assert "Only the game's only player may become its master" in read(reply)
    state = state_of(harness)
    assert state.masters == [] and state.columns["moderated"] is False


def test_become_master_is_refused_to_an_observer(harness: Harness) -> None:
    register(harness, MASTER)
    harness.exchange(MASTER, "CREATE ?modo mpw\n")
    reply = harness.exchange("watcher@example.net", "OBSERVE modo opw\nBECOME MASTER\n")
    assert "BECOME MASTER is for the only player of a game you have just created." in read(reply)
    assert state_of(harness).masters == []


def test_become_power_acts_for_the_power_and_its_player_gets_a_copy(harness: Harness) -> None:
    addresses = moderated_game(harness)
    france = next(a for a, p, _s in state_of(harness).seats if p == "FRANCE")
    assert france in addresses
    reply = as_master(harness, "VERSION\nBECOME F\nSET WAIT\n")
    body = read(reply)
    assert "You now act as France for the rest of this mail." in body
    assert "WAIT set" in body
    seats = {p: s for _a, p, s in state_of(harness).seats}
    assert seats["FRANCE"] == "playing"
    copies = sent_to(harness.others, france)
    assert len(copies) == 1
    copy = read(copies[0])
    assert copies[0]["Subject"] == "XPY:modo - S1901M Master Acting For: F"
    assert "The master of game 'modo' has acted for France. What was done in your name:" in copy
    assert "> SET WAIT" in copy
    assert "VERSION" not in copy  # the master's commands before BECOME are not the player's business


def test_become_is_for_masters_only_and_once_per_mail(harness: Harness) -> None:
    addresses = moderated_game(harness)
    reply = harness.exchange(addresses[0], "SIGNON ?modo pw0\n")
    del reply
    reply = as_master(harness, "BECOME F\nBECOME G\n")
    assert "Only one BECOME per mail" in read(reply)
    reply = harness.exchange("watcher@example.net", "OBSERVE modo opw\nBECOME F\n")
    assert "Only a master of game 'modo' may use BECOME" in read(reply)
