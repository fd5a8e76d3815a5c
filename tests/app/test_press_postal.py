"""Postal press: held (unseen, even by HISTORY) until the phase is processed, then sent after the results."""

from __future__ import annotations

import pytest

from judge.app.mail_out.press_rules import POSTAL_KEY
from judge.db.enums import PressKind
from tests.app.conftest import Harness, one_text
from tests.app.press_helpers import (
    ALL_PLAYERS,
    MASTER,
    OBSERVER,
    address,
    plain,
    player_addresses,
    recipients,
    started,
    stored_press,
)

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

FRANCE = address("FRANCE")


def extra(harness: Harness) -> dict[str, object]:
    with harness.db.unit_of_work(readonly=True) as uow:
        return dict(uow.games.require("demo").extra_settings)


def test_postal_press_goes_out_after_the_results(harness: Harness) -> None:
    game = started(harness, postal_press=True)
    reply = game.orders("FRANCE", "POSTAL PRESS\nThe Kaiser is a scoundrel.\nENDPRESS\n")
    assert (
        "Postal press held: it will go to everyone with the results of S1901M:\n\nThe Kaiser is a scoundrel."
    ) in plain(reply)
    assert harness.others == []
    assert stored_press(harness) == []  # not even HISTORY can see it before the results
    history = harness.exchange(OBSERVER, "HISTORY demo\n")
    assert "Kaiser" not in plain(history)

    game.master("PROCESS\n")
    subjects = [m["Subject"] for m in harness.others]
    postal = [m for m in harness.others if m["Subject"] == "XPY:demo - S1901M Postal Press"]
    assert subjects.index(postal[0]["Subject"]) > subjects.index("XPY:demo - S1901M Results")
    assert {a for m in postal for a in recipients(m)} == (
        player_addresses(*(p for p in ALL_PLAYERS if p != "FRANCE")) | {MASTER, OBSERVER}
    )
    assert plain(postal[0]) == f"Broadcast message from {FRANCE} as France in 'demo':\n\nThe Kaiser is a scoundrel.\n"
    [row] = stored_press(harness)
    assert (row.kind, row.sender_power, row.phase) == (PressKind.POSTAL, "FRANCE", "S1901M")
    assert POSTAL_KEY not in extra(harness)


def test_postal_press_is_sent_once(harness: Harness) -> None:
    game = started(harness, postal_press=True)
    game.orders("FRANCE", "POSTAL PRESS\nonce\nENDPRESS\n")
    game.master("PROCESS\n")
    game.master("PROCESS\n")
    assert not [m for m in harness.others if "Postal Press" in str(m["Subject"])]
    assert len(stored_press(harness)) == 1


def test_postal_press_refusals(harness: Harness) -> None:
    game = started(harness)
    reply = game.orders("FRANCE", "POSTAL PRESS\nx\nENDPRESS\n")
    assert "This game does not allow postal press. The press was not sent." in plain(reply)
    assert "[Error Flag]" in reply["Subject"]
    assert POSTAL_KEY not in extra(harness)


def test_postal_press_takes_no_options(harness: Harness) -> None:
    game = started(harness, postal_press=True)
    reply = game.orders("FRANCE", "POSTAL PRESS GREY\nx\nENDPRESS\n")
    assert "POSTAL PRESS takes no options: it goes to everyone, signed. The press was not sent." in plain(reply)
    assert POSTAL_KEY not in extra(harness)


def test_a_prediction_does_not_release_postal_press(harness: Harness) -> None:
    game = started(harness, postal_press=True)
    game.orders("FRANCE", "POSTAL PRESS\nkept\nENDPRESS\n")
    game.master("PREDICT\n")
    assert [m for m in harness.others if "Postal Press" in str(m["Subject"])] == []
    assert stored_press(harness) == []
    game.master("PROCESS\n")
    assert one_text([m for m in harness.others if "Postal Press" in str(m["Subject"])])["Subject"].endswith("Postal Press")
