"""Observers' press (any, white, none), partial press off, and the limits on when press may be sent."""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage

import pytest

from judge.app.game_state.boards import opening_position
from judge.core.variants import load_map
from tests.app.conftest import Harness, one_text
from tests.app.orders_helpers import start_game
from tests.app.press_helpers import (
    ALL_PLAYERS,
    MASTER,
    OBSERVER,
    address,
    plain,
    player_addresses,
    recipients,
    set_game,
    started,
    stored_press,
)

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

FRANCE_ORDERS = "A PAR H\nA MAR H\nF BRE H\n"


def as_observer(harness: Harness, body: str) -> EmailMessage:
    return harness.exchange(OBSERVER, "OBSERVE demo watchpw\n" + body)


def test_observer_white_press_in_a_grey_game_shows_as_white(harness: Harness) -> None:
    started(harness, press_mode="grey", observer_press="white")
    as_observer(harness, "BROADCAST\nGood luck all.\nENDPRESS\n")
    mail = one_text(harness.others)
    assert recipients(mail) == player_addresses(*ALL_PLAYERS) | {MASTER}
    assert plain(mail) == f"Broadcast message from {OBSERVER} as Observer in 'demo':\n\nGood luck all.\n"


def test_observer_any_follows_the_players_rules(harness: Harness) -> None:
    started(harness, press_mode="grey")
    as_observer(harness, "PRESS TO E\nPsst.\nENDPRESS\n")
    mail = one_text(harness.others)
    assert plain(mail) == "Message to England in 'demo':\n\nPsst.\n"


@pytest.mark.parametrize(
    ("settings", "body", "message"),
    [
        ({"press_mode": "grey", "observer_press": "white"}, "PRESS GREY TO E",
         "Observers may not send grey press in this game."),
        ({"observer_press": "none"}, "BROADCAST", "Observers may not send press in this game."),
        ({"partial_press": False}, "PRESS TO E", "Partial press is not allowed in this game: use BROADCAST."),
    ],
)  # fmt: skip
def test_observer_press_refused(harness: Harness, settings: dict[str, object], body: str, message: str) -> None:
    started(harness, **settings)
    reply = as_observer(harness, f"{body}\nx\nENDPRESS\n")
    assert f"{message} The press was not sent." in plain(reply)
    assert harness.others == [] and stored_press(harness) == []


def test_observers_may_always_write_to_the_master(harness: Harness) -> None:
    started(harness, observer_press="none")
    as_observer(harness, "PRESS TO M\nA question.\nENDPRESS\n")
    mail = one_text(harness.others)
    assert recipients(mail) == {MASTER}


def test_no_minor_press_in_a_retreat_phase(harness: Harness) -> None:
    retreats = opening_position(load_map("standard"), "F1901R")
    game = start_game(harness, "demo", settings={"minor_press": False}, position=retreats)
    reply = game.orders("FRANCE", "BROADCAST\nx\nENDPRESS\n")
    assert "Press is allowed only during movement phases in this game. The press was not sent." in plain(reply)
    assert harness.others == []
    game.orders("FRANCE", "PRESS TO M\nx\nENDPRESS\n")
    assert [recipients(m) for m in harness.others] == [{MASTER}]


def past_the_deadline(harness: Harness) -> None:
    with harness.db.unit_of_work(readonly=True) as uow:
        deadline = uow.games.require("demo").deadline_at
    assert deadline is not None
    harness.clock.set(deadline + timedelta(hours=1))


def test_no_grace_press_after_the_deadline(harness: Harness) -> None:
    game = started(harness, grace_press=False)
    game.orders("FRANCE", "BROADCAST\nin time\nENDPRESS\n")
    assert one_text(harness.others)["Subject"].endswith("Broadcast")
    past_the_deadline(harness)
    reply = game.orders("FRANCE", FRANCE_ORDERS + "BROADCAST\ntoo late\nENDPRESS\n")
    assert (
        "The deadline has passed: this game allows no press until the phase is processed, "
        "except to the master (PRESS TO M). The press was not sent."
    ) in plain(reply)
    assert [row.body for row in stored_press(harness)] == ["in time"]


def test_no_late_press_from_a_power_whose_orders_are_late(harness: Harness) -> None:
    game = started(harness, late_press=False)
    past_the_deadline(harness)
    reply = game.orders("FRANCE", "BROADCAST\nx\nENDPRESS\n")
    assert (
        "Your orders are late: in this game late powers may send press only to the master (PRESS TO M). "
        "The press was not sent."
    ) in plain(reply)
    assert harness.others == []
    game.orders("FRANCE", FRANCE_ORDERS)
    game.orders("FRANCE", "BROADCAST\nmy orders are in\nENDPRESS\n")
    assert [row.body for row in stored_press(harness)] == ["my orders are in"]


def test_must_order_before_press(harness: Harness) -> None:
    game = started(harness, must_order=True)
    reply = game.orders("FRANCE", "BROADCAST\nx\nENDPRESS\n")
    assert "In this game you must send your orders before sending press" in plain(reply)
    game.orders("FRANCE", FRANCE_ORDERS)
    game.orders("FRANCE", "BROADCAST\nordered\nENDPRESS\n")
    assert [row.body for row in stored_press(harness)] == ["ordered"]


def test_paused_game_press_only_to_the_master(harness: Harness) -> None:
    game = started(harness)
    set_game(harness, paused_at=harness.clock.now())
    reply = game.orders("FRANCE", "PRESS TO E\nx\nENDPRESS\nPRESS TO M\nwhen do we resume?\nENDPRESS\n")
    assert "The game is paused: press may only go to the master (PRESS TO M). The press was not sent." in plain(reply)
    assert [recipients(m) for m in harness.others] == [{MASTER}]
    assert address("ENGLAND") not in {a for m in harness.others for a in recipients(m)}
