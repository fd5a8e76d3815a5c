"""A moderated game from creation to TERMINATE, with a ROLLBACK followed by new orders.

CREATE + BECOME MASTER, seven sign-ons, the master sets the game up, the
players order, the master PROCESSes several phases (acting for a power with
BECOME once), rolls back a turn, the players order again, the master
processes again from exactly the restored position, and terminates.
"""

from __future__ import annotations

from typing import Any

from tests.app.conftest import Harness, one_text
from tests.app.masters_helpers import (
    MASTER,
    as_master,
    as_power,
    moderated_game,
    phase_rows,
    read,
    sent_to,
    state_of,
)


def units(position: dict[str, Any], power: str) -> list[str]:
    return sorted(f"{u['type']} {u['loc']}" for u in position["units"] if u["power"] == power)


def centres(position: dict[str, Any], power: str) -> list[str]:
    return sorted(position["centers"].get(power, []))


def test_a_moderated_game_with_a_rollback(harness: Harness) -> None:
    addresses = moderated_game(harness)
    state = state_of(harness)
    assert state.masters == [MASTER] and state.columns["moderated"] is True
    assert state.columns["current_phase"] == "S1901M" and len(state.seats) == 7

    as_master(harness, "SET MANUAL PROCESS\nSET COMMENT Club game\n")
    assert any("Parameter Change" in m["Subject"] for m in harness.others)

    # Spring 1901: France moves; England's orders come from the master, acting for England.
    as_power(harness, "FRANCE", "A PAR-BUR\nA MAR-SPA\nF BRE-MAO\n")
    england = next(a for a, p, _s in state.seats if p == "ENGLAND")
    reply = as_master(harness, "BECOME E\nF LON-NTH\nF EDI-NWG\nA LVP-YOR\n")
    assert "You now act as England for the rest of this mail." in read(reply)
    copy = [m for m in sent_to(harness.others, england or "") if "Master Acting For: E" in m["Subject"]]
    assert len(copy) == 1 and "England: Fleet London -> North Sea." in read(copy[0])  # the acknowledgement
    as_master(harness, "PROCESS\n")
    results = [m for m in harness.others if m["Subject"] == "XPY:modo - S1901M Results"]
    assert {a for m in results for a in str(m["To"]).split(", ")} == {*addresses, MASTER}

    # Fall 1901.
    as_power(harness, "FRANCE", "F MAO-POR\nA BUR-BEL\n")
    as_power(harness, "ENGLAND", "F NTH-NWY\n")
    as_master(harness, "PROCESS\n")
    rows = phase_rows(harness)
    fall = rows[1]
    assert (fall["name"], fall["state"]) == ("F1901M", "processed")
    assert centres(fall["after"], "FRANCE") == ["BEL", "BRE", "MAR", "PAR", "POR", "SPA"]
    assert state_of(harness).columns["current_phase"] == "W1901A"

    # The master rolls Fall 1901 back: the board and the orders on file then come back.
    reply = as_master(harness, "ROLLBACK 2\n")
    assert "Game 'modo' is back at Movement for Fall of 1901 (F1901M); it was at W1901A." in read(reply)
    assert one_text([m for m in harness.others if "Rollback" in m["Subject"]])["Subject"] == (
        "XPY:modo - F1901M Rollback to F1901M"
    )
    reopened = phase_rows(harness)[-1]
    assert (reopened["name"], reopened["state"], reopened["epoch"]) == ("F1901M", "open", 1)
    assert reopened["before"] == fall["before"]

    # New orders for France's army; the fleet keeps its restored order.
    as_power(harness, "FRANCE", "A BUR-MUN\n")
    as_master(harness, "PROCESS\n")
    replayed = phase_rows(harness)[-2]
    assert (replayed["name"], replayed["state"]) == ("F1901M", "processed")
    assert units(replayed["after"], "FRANCE") == ["A BUR", "A SPA", "F POR"]  # bounced at Munich
    assert centres(replayed["after"], "FRANCE") == ["BRE", "MAR", "PAR", "POR", "SPA"]
    assert units(replayed["after"], "ENGLAND") == units(fall["after"], "ENGLAND")  # England's orders restored
    assert state_of(harness).columns["current_phase"] == "W1901A"

    reply = as_master(harness, "TERMINATE\n")
    assert "Game 'modo' is terminated." in read(reply)
    final = state_of(harness)
    assert final.columns["state"].value == "terminated" and final.columns["next_due_at"] is None
    terminated = [m for m in harness.others if "Game Terminated" in m["Subject"]]
    assert {a for m in terminated for a in str(m["To"]).split(", ")} == set(addresses)
