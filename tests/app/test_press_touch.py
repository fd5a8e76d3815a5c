"""SET TOUCH PRESS: partial press only to powers one touches at the start of the phase, one broadcast per phase.

On the opening board only Austria and Italy touch (Trieste is next to
Venice); France touches nobody.
"""

from __future__ import annotations

import dataclasses

import pytest

from judge.app.game_state.boards import opening_position
from judge.app.mail_out.touch_press import touching_powers
from judge.core.units import Unit, UnitType
from judge.core.variants import load_map
from tests.app.conftest import Harness, one_text
from tests.app.orders_helpers import start_game
from tests.app.press_helpers import MASTER, address, plain, recipients, started, stored_press

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def test_who_touches_whom_on_the_opening_board() -> None:
    the_map = load_map("standard")
    board = opening_position(the_map)
    assert touching_powers(board, the_map, "AUSTRIA") == {"ITALY"}
    assert touching_powers(board, the_map, "FRANCE") == frozenset()
    # A French army in Burgundy touches Germany's Munich; a centre counts like a unit.
    moved = dataclasses.replace(board, units=(*board.units, Unit("FRANCE", UnitType.ARMY, "BUR")))
    assert touching_powers(moved, the_map, "FRANCE") == {"GERMANY"}


def test_partial_press_to_a_power_one_touches_goes(harness: Harness) -> None:
    game = started(harness, touch_press=True)
    reply = game.orders("AUSTRIA", "PRESS TO I\nShall we talk about Venice?\nENDPRESS\n")
    assert "[Error Flag]" not in reply["Subject"]
    mail = one_text([m for m in harness.others if address("ITALY") in recipients(m)])
    assert "Shall we talk about Venice?" in plain(mail)


@pytest.mark.engine_sql
def test_partial_press_to_a_power_one_does_not_touch_is_refused(harness: Harness) -> None:
    game = started(harness, touch_press=True)
    reply = game.orders("FRANCE", "PRESS TO G\nHello Germany.\nENDPRESS\n")
    assert "[Error Flag]" in reply["Subject"]
    assert (
        "This game has touch press: partial press goes only to the powers whose units or centres touch "
        "yours at the start of the phase, and Germany does not. The press was not sent."
    ) in plain(reply)
    assert not [m for m in harness.others if address("GERMANY") in recipients(m)]
    assert stored_press(harness) == []


def test_press_to_the_master_is_never_limited(harness: Harness) -> None:
    game = started(harness, touch_press=True)
    reply = game.orders("FRANCE", "PRESS TO M\nA question.\nENDPRESS\n")
    assert "[Error Flag]" not in reply["Subject"]
    assert any(MASTER in recipients(m) for m in harness.others)


def test_one_broadcast_per_phase(harness: Harness) -> None:
    game = started(harness, touch_press=True)
    first = game.orders("FRANCE", "BROADCAST\nGreetings.\nENDPRESS\n")
    assert "[Error Flag]" not in first["Subject"]
    second = game.orders("FRANCE", "BROADCAST\nAgain.\nENDPRESS\n")
    assert "one broadcast per phase, and you have sent this phase's" in plain(second)
    other = game.orders("ENGLAND", "BROADCAST\nHello.\nENDPRESS\n")
    assert "[Error Flag]" not in other["Subject"]
    assert len(stored_press(harness)) == 2


def test_without_touch_press_anyone_may_be_pressed(harness: Harness) -> None:
    game = start_game(harness, "demo")
    reply = game.orders("FRANCE", "PRESS TO G\nHello Germany.\nENDPRESS\nBROADCAST\nA\nENDPRESS\nBROADCAST\nB\nENDPRESS\n")
    assert "[Error Flag]" not in reply["Subject"]
