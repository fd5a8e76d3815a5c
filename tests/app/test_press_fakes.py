"""Fake press in each fake setting: what the recipients are shown, what the master and HISTORY keep."""

from __future__ import annotations

import pytest

from judge.app.game_state.setting_table import ALL_PRESS
from judge.app.reports.history_text import observer_saw, press_header
from judge.db.enums import PressKind
from tests.app.conftest import Harness, one_text
from tests.app.press_helpers import (
    ALL_PLAYERS,
    MASTER,
    OBSERVER,
    address,
    by_reader,
    copy_of,
    plain,
    player_addresses,
    recipients,
    set_extra,
    started,
    stored_press,
)

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

FRANCE = address("FRANCE")


def test_partial_press_faked_as_a_broadcast(harness: Harness) -> None:
    game = started(harness, fake_press="partial")
    set_extra(harness, {ALL_PRESS: [MASTER]})
    reply = game.orders("FRANCE", "PRESS TO EG FAKE\nWe are all friends here.\nENDPRESS\n")
    assert "Press sent to England, Germany:\nFake: the recipients see it as a broadcast." in plain(reply)
    copies = by_reader(harness.others)
    assert set(copies) == player_addresses("ENGLAND", "GERMANY") | {MASTER}
    england = copies[address("ENGLAND")]
    assert england["Subject"] == "XPY:demo - S1901M Broadcast"
    assert plain(england) == f"Broadcast message from {FRANCE} as France in 'demo':\n\nWe are all friends here.\n"
    master = copies[MASTER]
    assert master["Subject"] == "XPY:demo - S1901M Press from F to EG"
    assert plain(master) == (
        f"Message from {FRANCE} as France to England, Germany in 'demo':\n"
        "Fake: the recipients see it as a broadcast.\n\nWe are all friends here.\n"
    )
    [row] = stored_press(harness)
    assert (row.kind, row.recipients, row.shown_recipients) == (PressKind.PRESS, ["ENGLAND", "GERMANY"], [])
    assert not observer_saw(row)  # the observers got no copy, so HISTORY does not show it


def test_a_broadcast_faked_as_partial_press_is_in_history_as_it_was_shown(harness: Harness) -> None:
    game = started(harness, fake_press="partial")
    game.orders("FRANCE", "PRESS FAKE TO R\nOnly for Russia's eyes.\nENDPRESS\n")
    copies = by_reader(harness.others)
    assert set(copies) == player_addresses(*(p for p in ALL_PLAYERS if p != "FRANCE")) | {OBSERVER, MASTER}
    shown = f"Message from {FRANCE} as France to Russia in 'demo':"
    assert plain(copies[address("AUSTRIA")]) == f"{shown}\n\nOnly for Russia's eyes.\n"
    assert copies[address("AUSTRIA")]["Subject"] == "XPY:demo - S1901M Press from F to R"
    assert plain(copies[MASTER]).startswith(
        f"Broadcast message from {FRANCE} as France in 'demo':\nFake: the recipients see it as sent to Russia.\n"
    )
    [row] = stored_press(harness)
    assert row.shown_recipients == ["RUSSIA"] and observer_saw(row)
    with harness.db.unit_of_work(readonly=True) as uow:
        history = press_header(uow.games.require("demo"), row, "en")
    assert history == shown


def test_fake_to_all_but(harness: Harness) -> None:
    game = started(harness, fake_press="partial", press_mode="grey")
    game.orders("FRANCE", "PRESS TO G FAKE TO ALL BUT T\nx\nENDPRESS\n")
    assert copy_of(harness, address("GERMANY")) == "Message to all but Turkey in 'demo':\n\nx\n"


@pytest.mark.parametrize(
    ("body", "shown"),
    [
        ("PRESS TO E", "Broadcast message from {france} as France in 'demo':"),
        ("PRESS TO E NO FAKE", "Message from {france} as France to England in 'demo':"),
        ("PRESS TO E FAKE TO G", "Message from {france} as France to Germany in 'demo':"),
    ],
)
def test_partial_fakes_broadcast_by_default(harness: Harness, body: str, shown: str) -> None:
    game = started(harness, fake_press="broadcast by default")
    game.orders("FRANCE", f"{body}\nx\nENDPRESS\n")
    assert copy_of(harness, address("ENGLAND")) == shown.format(france=FRANCE) + "\n\nx\n"


def test_partial_fakes_broadcast_shows_every_message_as_a_grey_broadcast(harness: Harness) -> None:
    # The Judge's press file: "SET GREY, PARTIAL FAKES BROADCAST" makes all press look like a grey broadcast.
    game = started(harness, fake_press="broadcast", press_mode="grey")
    game.orders("ITALY", "PRESS TO R\nThis is Austria, honest.\nENDPRESS\n")
    mail = one_text(harness.others)
    assert recipients(mail) == {address("RUSSIA")}
    assert mail["Subject"] == "XPY:demo - S1901M Broadcast"
    assert plain(mail) == "Broadcast message in 'demo':\n\nThis is Austria, honest.\n"


@pytest.mark.parametrize(
    ("fake_press", "body", "message"),
    [
        ("none", "PRESS TO E FAKE", "Fake press is not allowed in this game."),
        ("none", "PRESS FAKE TO E", "Fake press is not allowed in this game."),
        ("broadcast", "PRESS TO E NO FAKE", "In this game all press is shown as a broadcast: NO FAKE is not possible."),
        ("broadcast", "PRESS FAKE TO E",
         "In this game all press is shown as a broadcast: it cannot be shown as sent to some powers."),
        ("partial", "PRESS TO E FAKE TO X", "Unknown power letter -> X (this variant has AEFGIRT) The press was not sent."),
    ],
)  # fmt: skip
def test_fakes_the_game_forbids_are_refused(harness: Harness, fake_press: str, body: str, message: str) -> None:
    game = started(harness, fake_press=fake_press)
    reply = game.orders("FRANCE", f"{body}\nx\nENDPRESS\n")
    assert message in plain(reply)
    assert "[Error Flag]" in reply["Subject"]
    assert harness.others == []
    assert stored_press(harness) == []
