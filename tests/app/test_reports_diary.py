"""DIARY: private notes kept by the judge, published when the game is over."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.app.conftest import Harness, text
from tests.app.reports_helpers import MASTER, OBSERVER, address_of, finish, game_state, start_game
from tests.app.test_reports_summary import section as whole_section

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

FRANCE = "SIGNON Fdemo pwfrance\n"


def section(reply_text: str, command: str) -> list[str]:
    """The lines answering ``command``, without the orders on file that end a player's reply in a
    game that takes orders (issue 24): they are not the diary's answer."""
    lines = whole_section(reply_text, command)
    end = next((i for i, line in enumerate(lines) if " orders for " in line and line.endswith(")")), len(lines))
    while end > 0 and not lines[end - 1]:
        end -= 1
    return lines[:end]
GERMANY = "SIGNON Gdemo pwgermany\n"


def france(harness: Harness, body: str) -> str:
    return text(harness.exchange(address_of("FRANCE"), FRANCE + body))


def test_record_list_read_and_delete(harness: Harness) -> None:
    start_game(harness)
    reply = france(harness, "DIARY\nGermany trusts me.\nI will take Munich.\nENDDIARY\n")
    assert section(reply, "DIARY") == ["Diary entry 1 recorded. It stays private until the game is over."]
    harness.clock.advance(timedelta(hours=2))
    reply = france(harness, "DIARY RECORD\nSecond thoughts.\nENDDIARY\nDIARY LIST\n")
    assert section(reply, "DIARY RECORD") == ["Diary entry 2 recorded. It stays private until the game is over."]
    assert section(reply, "DIARY LIST") == [
        "Your diary entries in game 'demo':",
        "    1. S1901M  Mon Nov 23 2026 09:00:00 +0000  Germany trusts me.",
        "    2. S1901M  Mon Nov 23 2026 11:00:00 +0000  Second thoughts.",
    ]
    reply = france(harness, "DIARY READ 1\n")
    assert section(reply, "DIARY READ 1") == [
        "Diary entry 1, S1901M, Mon Nov 23 2026 09:00:00 +0000:",
        "Germany trusts me.",
        "I will take Munich.",
    ]
    reply = france(harness, "DIARY DELETE 1\nDIARY LIST\n")
    assert section(reply, "DIARY DELETE 1") == ["Diary entry 1 deleted."]
    # Numbers do not move when an earlier entry goes.
    assert section(reply, "DIARY LIST") == [
        "Your diary entries in game 'demo':",
        "    2. S1901M  Mon Nov 23 2026 11:00:00 +0000  Second thoughts.",
    ]


def test_a_diary_is_private_to_its_author(harness: Harness) -> None:
    start_game(harness)
    france(harness, "DIARY\nMy secret plan.\nENDDIARY\n")
    reply = text(harness.exchange(address_of("GERMANY"), GERMANY + "DIARY LIST\nDIARY READ 1\n"))
    assert section(reply, "DIARY LIST") == ["You have no diary entries in game 'demo'."]
    assert section(reply, "DIARY READ 1") == ["You have no diary entry 1: DIARY LIST shows your entries."]
    assert "My secret plan." not in reply


@pytest.mark.engine_sql
def test_the_master_keeps_a_diary_of_his_own(harness: Harness) -> None:
    start_game(harness)
    france(harness, "DIARY\nFrance's note.\nENDDIARY\n")
    reply = text(harness.exchange(MASTER, "SIGNON Mdemo masterpw\nDIARY\nThe players are quiet.\nENDDIARY\nDIARY LIST\n"))
    assert section(reply, "DIARY") == ["Diary entry 1 recorded. It stays private until the game is over."]
    assert section(reply, "DIARY LIST") == [
        "Your diary entries in game 'demo':",
        "    1. S1901M  Mon Nov 23 2026 09:00:00 +0000  The players are quiet.",
    ]


def test_diaries_are_published_when_the_game_is_over(harness: Harness) -> None:
    start_game(harness)
    france(harness, "DIARY\nGermany trusts me.\nENDDIARY\nDIARY\nDeleted thought.\nENDDIARY\nDIARY DELETE 2\n")
    harness.exchange(address_of("GERMANY"), GERMANY + "DIARY\nFrance trusts me.\nENDDIARY\n")
    finish(harness, "demo")
    reply = text(harness.exchange(address_of("GERMANY"), GERMANY + "DIARY LIST\n"))
    assert section(reply, "DIARY LIST") == [
        "Game 'demo' is over: its diaries are published.",
        "",
        "Diary of France, S1901M:",
        "Germany trusts me.",
        "",
        "Diary of Germany, S1901M:",
        "France trusts me.",
    ]


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("DIARY READ 3\n", "You have no diary entry 3: DIARY LIST shows your entries."),
        ("DIARY DELETE 3\n", "You have no diary entry 3: DIARY LIST shows your entries."),
        ("DIARY\n\nENDDIARY\n", "This diary entry has no text; nothing was recorded."),
    ],
)
def test_refusals_leave_the_diary_unchanged(harness: Harness, body: str, reason: str) -> None:
    start_game(harness)
    france(harness, "DIARY\nKept.\nENDDIARY\n")
    before = game_state(harness, "demo")
    reply = harness.exchange(address_of("FRANCE"), FRANCE + body)
    assert reply["Subject"].startswith("Re: [Error Flag]")
    assert section(text(reply), body.splitlines()[0]) == [reason]
    assert game_state(harness, "demo") == before


def test_diary_before_sign_on_is_refused(harness: Harness) -> None:
    start_game(harness)
    reply = harness.exchange(address_of("FRANCE"), "DIARY LIST\n")
    assert "DIARY needs a SIGNON first: whose diary, in which game?" in text(reply)


def test_an_unregistered_observer_has_no_diary(harness: Harness) -> None:
    start_game(harness)
    before = game_state(harness, "demo")
    reply = harness.exchange(OBSERVER, "OBSERVE demo watchpw\nDIARY\nNotes.\nENDDIARY\n")
    assert "Only registered observers may keep a diary: send REGISTER first (see HELP)." in text(reply)
    assert game_state(harness, "demo") == before


def test_nothing_is_recorded_or_deleted_after_the_end(harness: Harness) -> None:
    start_game(harness)
    france(harness, "DIARY\nKept.\nENDDIARY\n")
    finish(harness, "demo")
    before = game_state(harness, "demo")
    reply = france(harness, "DIARY\nToo late.\nENDDIARY\nDIARY DELETE 1\n")
    assert section(reply, "DIARY") == [
        "Game 'demo' is over and its diaries are published: nothing more can be recorded.",
    ]
    assert section(reply, "DIARY DELETE 1") == [
        "Game 'demo' is over and its diaries are published: nothing can be deleted."
    ]
    assert game_state(harness, "demo") == before


def test_diary_in_french(harness: Harness) -> None:
    start_game(harness, languages={"FRANCE": "fr"})
    reply = france(harness, "DIARY\nMon plan.\nENDDIARY\nDIARY LIST\n")
    assert section(reply, "DIARY") == [
        "Entrée 1 du journal enregistrée. Elle reste privée jusqu'à la fin de la partie.",
    ]
    assert section(reply, "DIARY LIST")[0] == "Vos entrées de journal dans la partie 'demo' :"


def test_published_diaries_name_their_authors(harness: Harness) -> None:
    from tests.app.reports_helpers import register

    start_game(harness)
    register(harness, "looker@example.net", "Looker")
    france(harness, "DIARY\nFrom France.\nENDDIARY\n")
    harness.exchange(MASTER, "SIGNON Mdemo masterpw\nDIARY\nFrom the master.\nENDDIARY\n")
    harness.exchange("looker@example.net", "OBSERVE demo lookpw\nDIARY\nFrom an observer.\nENDDIARY\n")
    finish(harness, "demo")
    published = section(france(harness, "DIARY LIST\n"), "DIARY LIST")
    assert [line for line in published if line.startswith("Diary of ")] == [
        "Diary of France, S1901M:",
        "Diary of Master, S1901M:",
        "Diary of Observer, S1901M:",
    ]
