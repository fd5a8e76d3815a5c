"""What every recipient sees in each press mode: white, grey, white/grey, grey/white, none; the master's copy."""

from __future__ import annotations

import pytest

from judge.app.game_state.setting_table import ALL_PRESS
from judge.db.enums import PressKind
from tests.app.conftest import Harness, one_text
from tests.app.orders_helpers import StartedGame
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
HELLO = "BROADCAST\nHello all.\nENDPRESS\n"


def everyone_but_france() -> set[str]:
    return player_addresses(*(p for p in ALL_PLAYERS if p != "FRANCE")) | {MASTER, OBSERVER}


def test_white_broadcast_names_the_sender_to_everyone(harness: Harness) -> None:
    game = started(harness)
    reply = game.orders("FRANCE", HELLO)
    assert "Broadcast sent to everyone in game 'demo':\n\nHello all." in plain(reply)
    mail = one_text(harness.others)
    assert recipients(mail) == everyone_but_france()
    assert mail["Subject"] == "XPY:demo - S1901M Broadcast"
    assert plain(mail) == f"Broadcast message from {FRANCE} as France in 'demo':\n\nHello all.\n"
    [row] = stored_press(harness)
    assert (row.kind, row.grey, row.shown_recipients, row.sender_power) == (PressKind.BROADCAST, False, None, "FRANCE")


def test_grey_game_hides_the_sender_but_not_from_the_master(harness: Harness) -> None:
    game = started(harness, press_mode="grey")
    reply = game.orders("FRANCE", HELLO)
    assert "Sent as grey press: the recipients are not told who sent it." in plain(reply)
    copies = by_reader(harness.others)
    assert plain(copies[address("ENGLAND")]) == "Broadcast message in 'demo':\n\nHello all.\n"
    assert plain(copies[OBSERVER]) == "Broadcast message in 'demo':\n\nHello all.\n"
    assert copies[address("ENGLAND")]["Subject"] == "XPY:demo - S1901M Broadcast"
    assert plain(copies[MASTER]) == (
        f"Broadcast message from {FRANCE} as France in 'demo':\n"
        "Sent as grey press: the recipients are not told who sent it.\n\nHello all.\n"
    )
    assert set(copies) == everyone_but_france()
    assert stored_press(harness)[0].grey is True


def test_grey_partial_press_names_neither_sender_in_text_nor_subject(harness: Harness) -> None:
    game = started(harness, press_mode="grey")
    game.orders("FRANCE", "PRESS TO EG\nLet us share Belgium.\nENDPRESS\n")
    mail = one_text(harness.others)
    assert recipients(mail) == player_addresses("ENGLAND", "GERMANY")
    assert mail["Subject"] == "XPY:demo - S1901M Press to EG"
    assert plain(mail) == "Message to England, Germany in 'demo':\n\nLet us share Belgium.\n"


@pytest.mark.parametrize(
    ("mode", "option", "grey"),
    [
        ("white/grey", "", False),
        ("white/grey", " GREY", True),
        ("white/grey", " WHITE", False),
        ("grey/white", "", True),
        ("grey/white", " WHITE", False),
        ("grey/white", " ANONYMOUSLY", True),
        ("grey", "", True),
        ("white", "", False),
        ("white", " UNANONYMOUS", False),
    ],
)
def test_the_mode_s_default_and_the_sender_s_choice(harness: Harness, mode: str, option: str, grey: bool) -> None:
    game = started(harness, press_mode=mode)
    game.orders("FRANCE", f"PRESS{option} TO E\nA word.\nENDPRESS\n")
    text = copy_of(harness, address("ENGLAND"))
    if grey:
        assert text == "Message to England in 'demo':\n\nA word.\n"
    else:
        assert text == f"Message from {FRANCE} as France to England in 'demo':\n\nA word.\n"
    assert stored_press(harness)[0].grey is grey


@pytest.mark.parametrize(
    ("mode", "body", "message"),
    [
        ("white", "PRESS GREY TO E", "Grey (anonymous) press is not allowed in this game: send it white."),
        ("grey", "PRESS WHITE TO E", "Only grey (anonymous) press is allowed in this game: leave out WHITE."),
        ("none", "PRESS TO E", "This game has no press, except to the master (PRESS TO M)."),
        ("none", "BROADCAST", "This game has no press, except to the master (PRESS TO M)."),
    ],
)
def test_press_the_mode_forbids_is_refused_and_nothing_is_sent(
    harness: Harness, mode: str, body: str, message: str
) -> None:
    game = started(harness, press_mode=mode)
    reply = game.orders("FRANCE", f"{body}\nx\nENDPRESS\n")
    assert f"{message} The press was not sent." in plain(reply)
    assert reply["Subject"].startswith("Re: [Error Flag] ")
    assert harness.others == []
    assert stored_press(harness) == []


def test_press_to_the_master_is_always_allowed_and_always_white(harness: Harness) -> None:
    game = started(harness, press_mode="grey", partial_press=False)
    reply = game.orders("FRANCE", "PRESS GREY TO M\nMay I have more time?\nENDPRESS\n")
    assert "Press sent to the master:" in plain(reply)
    mail = one_text(harness.others)
    assert recipients(mail) == {MASTER}
    assert mail["Subject"] == "XPY:demo - S1901M Press from F to M"
    assert plain(mail) == f"Message from {FRANCE} as France to the master in 'demo':\n\nMay I have more time?\n"
    assert stored_press(harness)[0].grey is False


def test_press_to_the_master_cannot_be_faked(harness: Harness) -> None:
    game = started(harness, fake_press="partial")
    reply = game.orders("FRANCE", "PRESS TO M FAKE\nx\nENDPRESS\n")
    assert "Press to the master cannot be faked. The press was not sent." in plain(reply)
    assert harness.others == []


def test_the_master_may_always_send_press(harness: Harness) -> None:
    game = started(harness, press_mode="none", partial_press=False)
    reply = game.master("BROADCAST\nDeadline extended.\nENDPRESS\nPRESS TO R\nA private word.\nENDPRESS\n")
    assert "[Error Flag]" not in reply["Subject"]
    broadcast = one_text([m for m in harness.others if str(m["Subject"]).endswith("Broadcast")])
    private = one_text([m for m in harness.others if not str(m["Subject"]).endswith("Broadcast")])
    assert recipients(broadcast) == player_addresses(*ALL_PLAYERS) | {OBSERVER}
    assert plain(broadcast) == f"Broadcast message from {MASTER} as Master in 'demo':\n\nDeadline extended.\n"
    assert recipients(private) == {address("RUSSIA")}
    assert plain(private) == f"Message from {MASTER} as Master to Russia in 'demo':\n\nA private word.\n"


def test_partial_press_reaches_the_master_only_when_he_asked_for_all_press(harness: Harness) -> None:
    game = started(harness)
    game.orders("FRANCE", "PRESS TO E\nOne.\nENDPRESS\n")
    assert MASTER not in by_reader(harness.others)
    set_extra(harness, {ALL_PRESS: [MASTER]})
    game.orders("FRANCE", "PRESS TO E\nTwo.\nENDPRESS\n")
    copies = by_reader(harness.others)
    assert set(copies) == {address("ENGLAND"), MASTER}
    assert plain(copies[MASTER]) == f"Message from {FRANCE} as France to England in 'demo':\n\nTwo.\n"


def test_a_french_reader_of_grey_press(harness: Harness) -> None:
    from tests.app.orders_helpers import start_game

    game: StartedGame = start_game(harness, "demo", languages={"ENGLAND": "fr"}, settings={"press_mode": "grey"})
    game.orders("FRANCE", "BROADCAST\nBonjour.\nENDPRESS\nPRESS TO EG\nSecret.\nENDPRESS\n")
    french = [m for m in harness.others if address("ENGLAND") in recipients(m)]
    assert [plain(m) for m in french] == [
        "Message à tous dans 'demo' :\n\nBonjour.\n",
        "Message à Angleterre, Allemagne dans 'demo' :\n\nSecret.\n",
    ]


def test_observers_watching_all_press_get_the_recipients_copy(harness: Harness) -> None:
    game = started(harness, press_mode="grey", watch_all_press=True)
    set_extra(harness, {ALL_PRESS: [OBSERVER]})
    game.orders("FRANCE", "PRESS TO E\nQuiet now.\nENDPRESS\n")
    mail = one_text(harness.others)
    assert recipients(mail) == {address("ENGLAND"), OBSERVER}
    assert plain(mail) == "Message to England in 'demo':\n\nQuiet now.\n"


def test_observers_asking_for_all_press_get_nothing_more_unless_the_game_lets_them(harness: Harness) -> None:
    game = started(harness)
    set_extra(harness, {ALL_PRESS: [OBSERVER]})
    game.orders("FRANCE", "PRESS TO E\nQuiet now.\nENDPRESS\n")
    assert [recipients(m) for m in harness.others] == [{address("ENGLAND")}]
