"""HELP and GET by mail, and the help files themselves (both languages, safe look-up)."""

from __future__ import annotations

import pytest

from judge.app.game_state import helpfiles
from tests.app.conftest import Harness
from tests.app.identity_helpers import body, register_simply, set_record

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

FILES = ("councils", "deadlines", "draw", "index", "info", "master", "press", "register", "rules", "syntax")


def test_the_judge_ships_every_help_file_in_english_and_french() -> None:
    assert helpfiles.available() == FILES
    for name in FILES:
        english = helpfiles.find(name, "en")
        french = helpfiles.find(name, "fr")
        assert (english.language, french.language) == ("en", "fr")
        assert len(english.text) > 500 and len(french.text) > 500
        assert english.text != french.text


def test_an_unknown_language_falls_back_to_english() -> None:
    assert helpfiles.find("info", "de").language == "en"


@pytest.mark.parametrize(
    ("requested", "name"),
    [("INFO", "info"), ("form", "register"), ("Draws", "draw"), ("syntax.txt", "syntax"),
     ("COUNCILS", "councils"), ("conseils", "councils")],
)
def test_names_and_aliases(requested: str, name: str) -> None:
    assert helpfiles.canonical_name(requested) == name


@pytest.mark.parametrize("requested", ["../en/info", "/etc/passwd", "info/../info", "", ".info", "x" * 60, "nothing"])
def test_no_path_reaches_outside_the_help_folder(requested: str) -> None:
    assert helpfiles.canonical_name(requested) is None
    with pytest.raises(helpfiles.UnknownHelpFile) as refused:
        helpfiles.find(requested, "en")
    assert refused.value.available == FILES


def test_help_sends_the_introduction_and_goes_on_reading(harness: Harness) -> None:
    reply = harness.exchange("newcomer@example.net", "HELP\nVERSION\n")
    text = body(reply)
    assert "----- info -----\nHOW TO PLAY DIPLOMACY BY MAIL WITH THIS JUDGE\n" in text
    assert "Diplomacy email judge, version" in text
    assert "[Error Flag]" not in reply["Subject"]


def test_help_on_a_topic_sends_that_file(harness: Harness) -> None:
    text = body(harness.exchange("newcomer@example.net", "HELP deadlines\n"))
    assert "----- deadlines -----\nDEADLINES, LATENESS AND DEDICATION\n" in text
    assert "HOW TO PLAY" not in text


def test_help_is_in_the_readers_language(harness: Harness) -> None:
    register_simply(harness, "jeanne@example.org", "Jeanne", language="fr")
    text = body(harness.exchange("jeanne@example.org", "HELP\n"))
    assert "JOUER À DIPLOMATIE PAR COURRIEL AVEC CE JUGE" in text


def test_get_sends_each_file_and_names_the_unknown_ones(harness: Harness) -> None:
    reply = harness.exchange("newcomer@example.net", "GET syntax nonsense press\n")
    text = body(reply)
    assert "[Error Flag]" in reply["Subject"]
    assert "----- syntax -----\nWRITING ORDERS\n" in text
    assert "----- press -----\nPRESS: MESSAGES BETWEEN PLAYERS\n" in text
    assert (
        "There is no help file called 'nonsense'. The files are: councils, deadlines, draw, index, info, "
        "master, press, register, rules, syntax, package, dedication, flist."
    ) in text


def test_get_will_not_read_a_path(harness: Harness) -> None:
    reply = harness.exchange("newcomer@example.net", "GET ../../../etc/passwd\n")
    assert "There is no help file called '../../../etc/passwd'." in body(reply)
    assert "root:" not in body(reply)


def test_send_me_the_package(harness: Harness) -> None:
    text = body(harness.exchange("newcomer@example.net", "SEND ME PACKAGE\n"))
    for name in ("info", "index", "syntax"):
        assert f"----- {name} -----" in text


def test_get_dedication_is_your_own_record(harness: Harness) -> None:
    register_simply(harness, "jeanne@example.org", "Jeanne")
    set_record(harness, "jeanne@example.org", dedication=7)
    text = body(harness.exchange("jeanne@example.org", "GET DEDICATION\n"))
    assert "> GET DEDICATION\nDedication: 7 points.\n" in text
    unregistered = harness.exchange("newcomer@example.net", "GET DEDICATION\n")
    assert "You are not registered, so you have no dedication record yet." in body(unregistered)
    assert "[Error Flag]" in unregistered["Subject"]
