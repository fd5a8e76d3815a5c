"""One press header: the line above a press text is worded in one place
(:func:`judge.app.mail_out.press_rules.header_text`), and HISTORY rebuilds, from the stored
message, exactly the line the press mail's readers got."""

from __future__ import annotations

import pytest

from judge.app.mail_out.press_rules import header_text, readers_named, writes_as
from judge.app.reports.history_text import press_header
from judge.db.models import Game
from tests.app.conftest import Harness
from tests.app.press_helpers import (
    OBSERVER,
    address,
    by_reader,
    plain,
    set_game,
    started,
    stored_press,
)

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

FRANCE = address("FRANCE")


def _header(mail_text: str) -> str:
    return mail_text.split("\n\n", 1)[0]


@pytest.mark.parametrize(
    ("settings", "sender", "body", "reader"),
    [
        ({}, "FRANCE", "BROADCAST\nHello.\nENDPRESS\n", address("ENGLAND")),
        ({}, "FRANCE", "PRESS TO EG\nHello.\nENDPRESS\n", address("ENGLAND")),
        ({}, "FRANCE", "PRESS TO EGO\nHello.\nENDPRESS\n", OBSERVER),
        ({}, "FRANCE", "PRESS TO GE\nOrder given backwards.\nENDPRESS\n", address("GERMANY")),
        ({"press_mode": "grey"}, "FRANCE", "BROADCAST\nHello.\nENDPRESS\n", OBSERVER),
        ({"press_mode": "grey"}, "FRANCE", "PRESS TO EG\nHello.\nENDPRESS\n", address("GERMANY")),
        ({"fake_press": "partial"}, "FRANCE", "PRESS FAKE TO R\nHello.\nENDPRESS\n", address("AUSTRIA")),
        ({"fake_press": "partial"}, "FRANCE", "PRESS TO EG FAKE\nHello.\nENDPRESS\n", address("ENGLAND")),
        ({"rule_options": ["gunboat"]}, "FRANCE", "BROADCAST\nWho?\nENDPRESS\n", OBSERVER),
        ({"rule_options": ["gunboat"]}, "FRANCE", "PRESS TO EO\nWho?\nENDPRESS\n", OBSERVER),
        ({}, "master", "BROADCAST\nFrom the master.\nENDPRESS\n", address("ENGLAND")),
        ({}, "master", "PRESS TO E\nFrom the master.\nENDPRESS\n", address("ENGLAND")),
    ],
)  # fmt: skip
def test_history_rebuilds_the_header_the_readers_got(
    harness: Harness, settings: dict[str, object], sender: str, body: str, reader: str
) -> None:
    options = settings.pop("rule_options", [])
    game = started(harness, **settings)
    set_game(harness, rule_options=options)
    if sender == "master":
        game.master(body)
    else:
        game.orders(sender, body)
    mailed = _header(plain(by_reader(harness.others)[reader]))
    [row] = stored_press(harness)
    with harness.db.unit_of_work(readonly=True) as uow:
        rebuilt = press_header(uow.games.require("demo"), row, "en")
    assert rebuilt == mailed
    assert mailed.endswith("in 'demo':")


GAME = Game(name="demo")


@pytest.mark.parametrize(
    ("recipients", "grey", "as_who", "address", "hide", "expected"),
    [
        (None, True, "France", "f@x", False, "Broadcast message in 'demo':"),
        (None, False, "France", "f@x", True, "Broadcast message from France in 'demo':"),
        (None, False, "France", "", False, "Broadcast message from France in 'demo':"),
        (None, False, None, "f@x", False, "Broadcast message from f@x in 'demo':"),
        (None, False, "France", "f@x", False, "Broadcast message from f@x as France in 'demo':"),
        ("England", True, "France", "f@x", False, "Message to England in 'demo':"),
        ("England", False, "France", "f@x", True, "Message from France to England in 'demo':"),
        ("England", False, "France", "", False, "Message from France to England in 'demo':"),
        ("England", False, None, "f@x", False, "Message from f@x to England in 'demo':"),
        ("England", False, "France", "f@x", False, "Message from f@x as France to England in 'demo':"),
    ],
)  # fmt: skip
def test_each_sentence_of_the_one_header(
    recipients: str | None, grey: bool, as_who: str | None, address: str, hide: bool, expected: str
) -> None:
    assert header_text(
        GAME, "en", recipients=recipients, grey=grey, as_who=as_who, address=address, hide_address=hide
    ) == expected  # fmt: skip


def test_who_the_header_says_writes_and_to_whom() -> None:
    assert writes_as("FRANCE", "power", "en") == "France"
    assert writes_as(None, "master", "en") == "Master"
    assert writes_as(None, "observer", "en") == "Observer"
    assert writes_as(None, None, "en") is None
    assert readers_named(["ENGLAND", "GERMANY"], observers=True, masters=True, language="en") == (
        "England, Germany, the observers, the master"
    )
    assert readers_named(["GERMANY"], observers=False, masters=False, language="fr") == "Allemagne"

