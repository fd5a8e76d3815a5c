"""TERMINATE, FORCE BEGIN, UNSTART, EJECT and PROMOTE: what they do, who may, and the refusals."""

from __future__ import annotations

import pytest

from tests.app.conftest import Harness, one_text
from tests.app.games_helpers import form_game, register
from tests.app.masters_helpers import (
    MASTER,
    as_master,
    as_power,
    moderated_game,
    players_by_power,
    read,
    sent_to,
    state_of,
)

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

# -- TERMINATE ---------------------------------------------------------------------------------------


def test_terminate_ends_the_game_and_tells_everyone(harness: Harness) -> None:
    addresses = moderated_game(harness)
    reply = as_master(harness, "TERMINATE\n")
    assert "Game 'modo' is terminated." in read(reply)
    columns = state_of(harness).columns
    assert columns["state"].value == "terminated"
    assert columns["next_due_at"] is None and columns["deadline_at"] is None
    notices = [one_text([m for m in harness.others if m["Subject"] == "XPY:modo - S1901M Game Terminated"])]
    assert set(str(notices[0]["To"]).split(", ")) == set(addresses)
    assert read(notices[0]) == "Game 'modo' has been terminated by the master.\n"
    reply = as_master(harness, "TERMINATE\n")
    assert "Game 'modo' is already over." in read(reply)


def test_terminate_is_refused_to_a_player_of_a_moderated_game(harness: Harness) -> None:
    moderated_game(harness)
    before = state_of(harness).columns
    reply = as_power(harness, "FRANCE", "TERMINATE\n")
    assert "Game 'modo' is moderated: only the master may do that." in read(reply)
    assert state_of(harness).columns == before


def test_a_player_of_an_unmoderated_game_may_terminate_it(harness: Harness) -> None:
    """The Judge's "mod": anyone playing an unmoderated game."""
    addresses = form_game(harness, "open", players=1)
    reply = harness.exchange(addresses[0], "SIGNON ?open pw0\nTERMINATE\n")
    assert "Game 'open' is terminated." in read(reply)
    columns = state_of(harness, "open").columns
    assert columns["state"].value == "terminated" and columns["listed"] is False


# -- FORCE BEGIN -------------------------------------------------------------------------------------


def test_force_begin_starts_with_the_players_there_are(harness: Harness) -> None:
    addresses = moderated_game(harness, players=5)
    reply = as_master(harness, "FORCE BEGIN\n")
    body = read(reply)
    assert "Game 'modo' has started." in body
    assert "Powers without a player, open for takeover: 2." in body
    state = state_of(harness)
    assert state.columns["current_phase"] == "S1901M"
    statuses = sorted(status for _a, _p, status in state.seats)
    assert statuses == ["abandoned"] * 2 + ["playing"] * 5
    starting = [m for m in harness.others if "Game Starting" in m["Subject"]]
    assert {a for m in starting for a in str(m["To"]).split(", ")} == {*addresses, MASTER}


def test_force_begin_refusals(harness: Harness) -> None:
    register(harness, MASTER)
    harness.exchange(MASTER, "CREATE ?modo mpw\nBECOME MASTER\n")
    reply = as_master(harness, "FORCE BEGIN\n")
    assert "Nobody has joined game 'modo' yet: there is nobody to play." in read(reply)
    assert state_of(harness).columns["state"].value == "forming"
    reply = harness.exchange("watcher@example.net", "OBSERVE modo opw\nFORCE BEGIN\n")
    assert "Only a master of game 'modo' may use FORCE BEGIN" in read(reply)


# -- UNSTART -----------------------------------------------------------------------------------------


@pytest.mark.engine_sql
def test_unstart_takes_the_game_back_to_forming_with_manual_start(harness: Harness) -> None:
    addresses = moderated_game(harness, players=5)
    as_master(harness, "FORCE BEGIN\n")
    reply = as_master(harness, "UNSTART\n")
    assert "Game 'modo' is forming again; MANUAL START is set." in read(reply)
    state = state_of(harness)
    assert state.columns["state"].value == "forming" and state.columns["current_phase"] is None
    assert state.columns["manual_start"] is True and state.columns["next_due_at"] is None
    assert sorted(state.seats) == sorted((a, None, "waiting") for a in addresses)
    assert [(turn, phase, status) for turn, phase, status, _epoch in state.phases] == []
    one_text([m for m in harness.others if "Unstart" in m["Subject"]])
    with harness.db.unit_of_work(readonly=True) as uow:
        person = uow.people.by_address(addresses[0])
        assert person is not None and person.games_started == 0
    # And it can be started again.
    reply = as_master(harness, "FORCE BEGIN\n")
    assert "Game 'modo' has started." in read(reply)


def test_unstart_only_in_the_first_phase(harness: Harness) -> None:
    moderated_game(harness)
    as_master(harness, "PROCESS\n")
    before = state_of(harness)
    reply = as_master(harness, "UNSTART\n")
    assert "UNSTART is only possible during the first phase of a game" in read(reply)
    assert state_of(harness).columns == before.columns


# -- EJECT -------------------------------------------------------------------------------------------


def test_eject_a_power_leaves_it_open_for_takeover(harness: Harness) -> None:
    moderated_game(harness)
    france, _password = players_by_power(harness)["FRANCE"]
    reply = as_master(harness, "EJECT F\n")
    assert "The player of France has been ejected; France is open for takeover." in read(reply)
    seats = {p: (a, s) for a, p, s in state_of(harness).seats}
    assert seats["FRANCE"] == (france, "abandoned")
    told = sent_to(harness.others, france)
    assert [m["Subject"] for m in told] == ["XPY:modo - S1901M Ejected"]
    assert read(told[0]) == "The master of game 'modo' has removed you from the game: you no longer play France.\n"
    notice = next(m for m in harness.others if m["Subject"] == "XPY:modo - S1901M Player Ejected: F")
    assert france not in str(notice["To"])
    assert "SIGNON Fmodo with a password of your choice" in read(notice)
    reply = as_master(harness, "EJECT F\n")
    assert "France has no player to eject." in read(reply)


@pytest.mark.engine_sql
def test_eject_by_address_a_waiting_player_an_observer_and_the_master_himself(harness: Harness) -> None:
    addresses = moderated_game(harness, players=2)
    harness.exchange("watcher@example.net", "OBSERVE modo opw\n")
    reply = as_master(harness, f"EJECT {addresses[1]}\nEJECT watcher@example.net\nEJECT nobody@example.net\n")
    body = read(reply)
    assert f"{addresses[1]} is no longer in game 'modo'." in body
    assert "The observer watcher@example.net is no longer in game 'modo'." in body
    assert "Nobody in game 'modo' writes from nobody@example.net." in body
    state = state_of(harness)
    assert [a for a, _p, _s in state.seats] == [addresses[0]] and state.observers == []
    reply = as_master(harness, f"EJECT {MASTER}\nSET NMR\n")
    body = read(reply)
    assert "You are no longer a master of game 'modo'." in body
    assert "SET needs a SIGNON to a game first." in body  # no longer the master, for the rest of the mail
    state = state_of(harness)
    assert state.masters == [] and state.columns["moderated"] is False and state.columns["nmr"] is False


def test_only_masters_eject(harness: Harness) -> None:
    moderated_game(harness)
    before = state_of(harness)
    reply = as_power(harness, "FRANCE", "EJECT G\n")
    assert "Only a master of game 'modo' may use EJECT" in read(reply)
    assert state_of(harness).seats == before.seats


# -- PROMOTE -----------------------------------------------------------------------------------------


def test_promote_an_observer_to_co_master(harness: Harness) -> None:
    addresses = moderated_game(harness)
    register(harness, "deputy@example.net")
    harness.exchange("deputy@example.net", "OBSERVE modo dpw\n")
    reply = as_master(harness, "PROMOTE deputy@example.net\n")
    assert "deputy@example.net is now a master of game 'modo'." in read(reply)
    state = state_of(harness)
    assert state.masters == [MASTER, "deputy@example.net"] and state.observers == []
    told = sent_to(harness.others, "deputy@example.net")
    assert [m["Subject"] for m in told] == ["XPY:modo - S1901M Promotion"]
    notice = one_text([m for m in harness.others if m["Subject"] == "XPY:modo - S1901M Promotion of deputy@example.net"])
    assert set(str(notice["To"]).split(", ")) == set(addresses)
    reply = harness.exchange("deputy@example.net", "SIGNON Mmodo dpw\nSET NMR\n")
    assert "Missed orders: NMR (was NoNMR)." in read(reply)


def test_promote_refusals(harness: Harness) -> None:
    addresses = moderated_game(harness)
    harness.exchange("anon@example.net", "OBSERVE modo apw\n")
    body = read(as_master(harness, "PROMOTE anon@example.net\nPROMOTE stranger@example.net\n"
                                   f"PROMOTE {MASTER}\n"))
    assert "anon@example.net is not registered: a master must be registered (REGISTER) first." in body
    assert "stranger@example.net does not observe game 'modo': only an observer can be promoted." in body
    assert f"{MASTER} does not observe game 'modo'" in body
    harness.exchange(addresses[0], "OBSERVE modo xpw\n")
    body = read(as_master(harness, f"PROMOTE {addresses[0]}\n"))
    assert f"{addresses[0]} plays in game 'modo' and cannot also be its master." in body
    assert state_of(harness).masters == [MASTER]
    body = read(harness.exchange("anon@example.net", "OBSERVE modo apw\nPROMOTE anon@example.net\n"))
    assert "Only a master of game 'modo' may use PROMOTE" in body
