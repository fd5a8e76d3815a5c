"""A moderated game by mail from its creation to a draw vote that passes, with grey press on the way."""

from __future__ import annotations

import pytest

from tests.app.conftest import Harness, one_text
from tests.app.masters_helpers import (
    MASTER,
    as_master,
    as_power,
    moderated_game,
    players_by_power,
    read,
    state_of,
)

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def test_a_moderated_game_from_creation_to_a_draw(harness: Harness) -> None:
    players = moderated_game(harness)
    reply = as_master(harness, "SET GREY/WHITE\nSET NO DIAS\n")
    assert "[Error Flag]" not in reply["Subject"], read(reply)
    seats = players_by_power(harness)

    as_power(harness, "FRANCE", "PRESS TO E\nAn alliance against Germany?\nENDPRESS\n")
    press = one_text([m for m in harness.others if "Press" in str(m["Subject"])])
    assert str(press["To"]) == seats["ENGLAND"][0]
    assert press["Subject"] == "XPY:modo - S1901M Press to E"
    assert read(press) == "Message to England in 'modo':\n\nAn alliance against Germany?\n"

    as_master(harness, "PROCESS\n")
    assert state_of(harness).columns["current_phase"] == "F1901M"

    powers = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA"]
    for power in powers:
        reply = as_power(harness, power, "SET DRAW AEFGIRT\n")
        assert "Recorded: you accept a draw between" in read(reply)
        assert harness.others == []  # votes are secret
    reply = as_power(harness, "TURKEY", "SET DRAW AEFGIRT\n")
    assert "The draw has passed: the game is over." in read(reply)
    notice = one_text(harness.others)
    assert notice["Subject"] == "XPY:modo - F1901M Draw Declared: AEFGIRT"
    assert {a.strip() for a in str(notice["To"]).split(",")} == {*players, MASTER}
    assert read(notice).startswith(
        "Game 'modo' is over: it has been declared a draw between Austria, England, France, Germany, Italy, "
        "Russia and Turkey.\n"
    )
    assert "Scores (Draw-size scoring):" in read(notice)
    assert state_of(harness).columns["state"].value == "finished"
    reply = as_master(harness, "PROCESS\n")
    assert "Game 'modo' has no phase to process now." in read(reply)
