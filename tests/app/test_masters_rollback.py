"""ROLLBACK [turn] and PREDICT: an earlier turn restored exactly, orders and all; a preview that changes nothing."""

from __future__ import annotations

from typing import Any

from tests.app.conftest import Harness, one_text
from tests.app.masters_helpers import (
    as_master,
    as_power,
    moderated_game,
    phase_rows,
    read,
    state_of,
)


def french_units(position: dict[str, Any]) -> list[str]:
    return sorted(f"{u['type']} {u['loc']}" for u in position["units"] if u["power"] == "FRANCE")


def test_predict_shows_the_results_to_the_master_only_and_changes_nothing(harness: Harness) -> None:
    moderated_game(harness)
    as_power(harness, "FRANCE", "A PAR-BUR\nA MAR-SPA\nF BRE-MAO\n")
    before_rows, before_state = phase_rows(harness), state_of(harness)
    reply = as_master(harness, "PREDICT\n")
    body = read(reply)
    assert "PREDICTION, NOT DEFINITIVE: what processing S1901M now would give with the orders received so far." in body
    assert "Movement results for Spring of 1901.  (modo.001)" in body
    assert "France:  Army Paris -> Burgundy." in body
    assert "END OF PREDICTION: the phase has not been processed." in body
    assert harness.others == []  # no results mail to anyone
    assert phase_rows(harness) == before_rows
    assert state_of(harness).columns == before_state.columns


def test_predict_refusals(harness: Harness) -> None:
    moderated_game(harness, players=2)
    assert "Game 'modo' has no phase to predict now." in read(as_master(harness, "PREDICT\n"))
    reply = harness.exchange("watcher@example.net", "OBSERVE modo opw\nPREDICT\n")
    assert "Only a master of game 'modo' may use PREDICT" in read(reply)


def test_rollback_restores_the_turn_and_its_orders_exactly(harness: Harness) -> None:
    moderated_game(harness)
    as_power(harness, "FRANCE", "A PAR-BUR\nA MAR-SPA\nF BRE-MAO\n")
    as_master(harness, "PROCESS\n")
    first = phase_rows(harness)[0]
    reply = as_master(harness, "ROLLBACK\n")
    assert "Game 'modo' is back at Movement for Spring of 1901 (S1901M); it was at F1901M." in read(reply)
    notices = [one_text([m for m in harness.others if m["Subject"] == "XPY:modo - S1901M Rollback to S1901M"])]
    body = read(notices[0])
    assert body.startswith("The master has rolled game 'modo' back to Movement for Spring of 1901 (S1901M), turn 1.")
    assert "  France: F Brest, A Marseilles, A Paris." in body
    rows = phase_rows(harness)
    assert [(r["turn"], r["name"], r["state"], r["epoch"]) for r in rows] == [
        (1, "S1901M", "rolled_back", 0), (2, "F1901M", "rolled_back", 0), (1, "S1901M", "open", 1),
    ]
    assert rows[2]["before"] == first["before"]
    state = state_of(harness)
    assert state.columns["current_phase"] == "S1901M" and state.columns["deadline_at"] is not None
    # Processed again with the orders restored, the turn gives exactly what it gave.
    as_master(harness, "PROCESS\n")
    assert phase_rows(harness)[2]["after"] == first["after"]


def test_rollback_then_new_orders_replace_the_restored_ones(harness: Harness) -> None:
    moderated_game(harness)
    as_power(harness, "FRANCE", "A PAR-BUR\nA MAR-SPA\nF BRE-MAO\n")
    as_master(harness, "PROCESS\n")
    as_master(harness, "ROLLBACK 1\n")
    as_power(harness, "FRANCE", "A PAR-PIC\n")
    as_master(harness, "PROCESS\n")
    after = phase_rows(harness)[-2]["after"]
    # The new order replaces the restored one for its unit; the other units keep theirs (the Judge merges).
    assert french_units(after) == ["A PIC", "A SPA", "F MAO"]


def test_rollback_refusals_leave_the_game_alone(harness: Harness) -> None:
    moderated_game(harness)
    reply = as_master(harness, "ROLLBACK\n")
    assert "Nothing has been processed yet: there is no earlier turn." in read(reply)
    as_master(harness, "PROCESS\n")
    before = phase_rows(harness)
    body = read(as_master(harness, "ROLLBACK 2\nROLLBACK 0\n"))
    assert "ROLLBACK takes a turn from 1 to 1 (the current turn is 2)." in body
    body = read(as_power(harness, "FRANCE", "ROLLBACK 1\n"))
    assert "Only a master of game 'modo' may use ROLLBACK" in body
    assert phase_rows(harness) == before


def test_predict_counts_the_orders_given_before_it_in_the_same_mail(harness: Harness) -> None:
    """Issue 13: PREDICT used only the orders on file, while PROCESS used the mail's own orders too."""
    moderated_game(harness)
    reply = as_master(harness, "BECOME F\nA PAR-BUR\nA MAR-SPA\nF BRE-MAO\nPREDICT\n")
    body = read(reply)
    assert "PREDICTION, NOT DEFINITIVE" in body
    assert "France:  Army Paris -> Burgundy." in body
    assert "France:  Fleet Brest -> Mid-Atlantic Ocean." in body
    assert phase_rows(harness)[-1]["name"] == "S1901M"  # nothing processed
    # The orders themselves are stored when the mail ends, as if PREDICT had not been given.
    assert "France:  Army Paris -> Burgundy." in read(as_master(harness, "PREDICT\n"))
