"""Commands of the Judge this judge answers with a refusal and its reason (seed 004's command index).

SET PROXY, the keeper's tools (ADJUST, RECORD, FIXID, NOCONTROL), GET WHOIS,
VERSION with a level; and the files GET FLIST, GET RULES and GET
HOUSE.RULES that it does send. Each reply says what was done and why.
"""

from __future__ import annotations

import pytest

from tests.app.conftest import Harness
from tests.app.masters_helpers import as_master, moderated_game, read, state_of
from tests.app.reports_helpers import register

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def test_set_proxy_is_refused_with_the_reason_and_no_proxy_is_accepted(harness: Harness) -> None:
    moderated_game(harness, players=2)
    reply = as_master(harness, "SET PROXY\n")
    assert "[Error Flag]" in reply["Subject"]
    assert "SET PROXY is refused: this judge does not play proxy orders (A Lvp P France" in read(reply)
    assert state_of(harness).columns["proxy"] is False
    body = read(as_master(harness, "SET NO PROXY\n"))
    assert "Proxy: already NoProxy." in body


def test_set_proxy_is_refused_in_french(harness: Harness) -> None:
    moderated_game(harness, players=2, language="fr")
    assert "SET PROXY est refusé : ce juge ne joue pas les ordres par procuration" in read(
        as_master(harness, "SET PROXY\n")
    )


@pytest.mark.parametrize("words", ["ADJUST 1 5", "RECORD 1", "FIXID 5 Home", "NOCONTROL"])
def test_the_keepers_tools_are_refused_for_good_not_for_now(harness: Harness, words: str) -> None:
    register(harness, "anyone@example.org", "Some One")
    reply = harness.exchange("anyone@example.org", words + "\n")
    body = read(reply)
    name = words.split()[0]
    assert "[Error Flag]" in reply["Subject"]
    assert f"{name} is a tool of the judge's keeper, and this judge never takes it by mail" in body
    assert "yet" not in body


def test_get_flist_lists_the_files_and_get_rules_sends_them(harness: Harness) -> None:
    register(harness, "anyone@example.org", "Some One")
    body = read(harness.exchange("anyone@example.org", "GET FLIST\nGET RULES\nGET HOUSE.RULES\n"))
    assert "The files GET sends: councils, deadlines, draw, index, info, master, press, register, rules, syntax, " in body
    assert body.count("THE RULES THIS JUDGE PLAYS") == 2
    assert "SET RULE foreign_coast_support=named" in body


def test_get_rules_in_french(harness: Harness) -> None:
    register(harness, "lecteur@example.org", "Le Lecteur", language="fr")
    body = read(harness.exchange("lecteur@example.org", "GET RULES\n"))
    assert "LES RÈGLES QUE CE JUGE APPLIQUE" in body


def test_get_whois_is_refused_with_the_reason(harness: Harness) -> None:
    register(harness, "anyone@example.org", "Some One")
    reply = harness.exchange("anyone@example.org", "GET WHOIS\n")
    assert "[Error Flag]" in reply["Subject"]
    assert "GET WHOIS is not sent: the Judge mailed its whole register of players to anyone" in read(reply)
    assert "Some One" not in read(reply)


def test_version_with_a_level_says_the_level_is_not_used(harness: Harness) -> None:
    register(harness, "anyone@example.org", "Some One")
    body = read(harness.exchange("anyone@example.org", "VERSION 2\n"))
    assert "Diplomacy email judge, version " in body
    assert "VERSION takes no level on this judge: '2' was not used." in body
