"""SET LANGUAGE: a person's own language, a game's default, and who reads what.

The rule under test: a person's explicit choice (SET LANGUAGE, or a REGISTER
Language line) wins; the game's default (set by a master) covers everyone
who never chose, unregistered observers included; English otherwise.
"""

from __future__ import annotations

from email.message import EmailMessage
from typing import Any

import pytest

from judge.app.session.readers import GAME_LANGUAGE, LANGUAGE_CHOSEN
from tests.app.conftest import Harness, text
from tests.app.reports_helpers import (
    MASTER,
    OBSERVER,
    address_of,
    finish,
    password_of,
    process,
    register,
    start_game,
)

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

STRANGER = "stranger@example.net"


def person(harness: Harness, address: str) -> tuple[str, bool]:
    """(language, chose it) of the person registered at ``address``."""
    with harness.db.unit_of_work(readonly=True) as uow:
        found = uow.people.by_address(address)
        assert found is not None
        return found.language, bool((found.extra or {}).get(LANGUAGE_CHOSEN))


def game_settings(harness: Harness, name: str = "demo") -> dict[str, Any]:
    with harness.db.unit_of_work(readonly=True) as uow:
        return dict(uow.games.require(name).extra_settings)


def results_by_address(harness: Harness) -> dict[str, str]:
    """The S1901M results mail each address got."""
    return {
        str(m["To"]): body_of(m)
        for m in harness.new_mail()
        if m["Subject"] == "XPY:demo - S1901M Results"
    }


def body_of(message: EmailMessage) -> str:
    """The plain text of a mail, with plain newlines."""
    return text(message).replace("\r\n", "\n")


# ---------------------------------------------------------------- a person's own language


def test_a_registered_player_switches_to_french_and_the_reply_says_so_in_french(harness: Harness) -> None:
    register(harness, STRANGER, "Sam Stranger")
    body = body_of(harness.exchange(STRANGER, "SET LANGUAGE fr\n"))
    assert body.endswith("> SET LANGUAGE fr\nDésormais, le juge vous écrit en français.\n")
    assert person(harness, STRANGER) == ("fr", True)
    # The next mail is answered in French from its first line.
    later = body_of(harness.exchange(STRANGER, "LIST nosuchgame\n"))
    assert "Désormais" not in later
    assert "partie" in later.lower()


def test_back_to_english_is_a_choice_too(harness: Harness) -> None:
    register(harness, STRANGER, "Sam Stranger", language="fr")
    body = body_of(harness.exchange(STRANGER, "SET LANGUE anglais\n"))
    assert "From now on the judge writes to you in English." in body
    assert person(harness, STRANGER) == ("en", True)


def test_asking_again_for_the_same_language_changes_nothing(harness: Harness) -> None:
    register(harness, STRANGER, "Sam Stranger")
    harness.exchange(STRANGER, "SET LANGUAGE fr\n")
    body = body_of(harness.exchange(STRANGER, "SET LANGUAGE fr\n"))
    assert "Le juge vous écrit déjà en français." in body
    assert person(harness, STRANGER) == ("fr", True)


def test_an_unregistered_sender_is_told_to_register_and_nothing_is_recorded(harness: Harness) -> None:
    reply = harness.exchange(STRANGER, "SET LANGUAGE fr\n")
    body = body_of(reply)
    assert (
        "Only a registered person can choose a language: send REGISTER with a 'Language: fr' line first."
        in body
    )
    assert "[Error Flag]" in str(reply["Subject"])
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.people.by_address(STRANGER) is None


def test_a_bad_language_is_refused_by_the_reader(harness: Harness) -> None:
    register(harness, STRANGER, "Sam Stranger")
    body = body_of(harness.exchange(STRANGER, "SET LANGUAGE de\n"))
    assert "Unknown language -> de (the judge writes FR or EN)" in body
    assert person(harness, STRANGER) == ("en", False)


def test_a_player_signed_on_sets_their_own_language_not_the_games(harness: Harness) -> None:
    start_game(harness)
    france = address_of("FRANCE")
    body = body_of(harness.exchange(france, f"SIGNON Fdemo {password_of('FRANCE')}\nSET LANGUAGE fr\n"))
    assert "Désormais, le juge vous écrit en français." in body
    assert person(harness, france) == ("fr", True)
    assert GAME_LANGUAGE not in game_settings(harness)


def test_a_master_before_signon_sets_their_own_language(harness: Harness) -> None:
    start_game(harness)
    harness.exchange(MASTER, "SET LANGUAGE fr\nSIGNON Mdemo masterpw\n")
    assert person(harness, MASTER) == ("fr", True)
    assert GAME_LANGUAGE not in game_settings(harness)


def test_register_with_a_language_line_is_a_choice_and_whois_does_not_show_the_note(harness: Harness) -> None:
    form = "REGISTER\nName: Ann Example\nCountry: France\nLanguage: en\nEND\n"
    harness.exchange(STRANGER, form)
    assert person(harness, STRANGER) == ("en", True)
    body = body_of(harness.exchange(STRANGER, "REGISTER\nPhone: 123\nEND\n"))
    assert LANGUAGE_CHOSEN not in body


# ---------------------------------------------------------------- a game's default


def test_a_master_sets_the_games_default_and_the_game_is_told(harness: Harness) -> None:
    start_game(harness)
    reply = harness.exchange(MASTER, "SIGNON Mdemo masterpw\nSET LANGUAGE fr\n")
    body = body_of(reply)
    assert (
        "> SET LANGUAGE fr\nThe default language of game 'demo' is now French: the game's mail is written in it "
        "for everyone who has not chosen a language (SET LANGUAGE before SIGNON sets your own).\n"
    ) in body
    assert game_settings(harness)[GAME_LANGUAGE] == "fr"
    assert person(harness, MASTER) == ("en", False)
    notices = [m for m in harness.others if "Parameter Change" in str(m["Subject"])]
    assert notices, [m["Subject"] for m in harness.others]
    # The game's players never chose: the notice is now in French for them.
    assert any("Langue par défaut" in body_of(m) for m in notices)


def test_the_default_again_changes_nothing(harness: Harness) -> None:
    start_game(harness)
    harness.exchange(MASTER, "SIGNON Mdemo masterpw\nSET LANGUAGE fr\n")
    body = body_of(harness.exchange(MASTER, "SIGNON Mdemo masterpw\nSET LANGUAGE fr\n"))
    # The master never chose a language: the game's default now covers him too.
    assert "> SET LANGUAGE fr\nLa langue par défaut de la partie 'demo' est déjà le français.\n" in body
    assert not [m for m in harness.others if "Parameter Change" in str(m["Subject"])]


def test_results_follow_choice_then_game_default_then_english(harness: Harness) -> None:
    start_game(harness, languages={"GERMANY": "fr"})
    harness.exchange(address_of("ENGLAND"), "SET LANGUAGE en\n")  # explicit English
    harness.exchange(MASTER, "SIGNON Mdemo masterpw\nSET LANGUAGE fr\n")
    harness.new_mail()
    process(harness, "demo")
    results = results_by_address(harness)
    french = {address for address, body in results.items() if body.startswith("Résultats")}
    assert address_of("GERMANY") in french  # registered in French
    assert address_of("FRANCE") in french  # never chose: the game's default
    assert OBSERVER in french  # unregistered observer: the game's default
    assert MASTER in french  # the master never chose either
    assert address_of("ENGLAND") not in french  # chose English: the choice wins
    assert results[address_of("ENGLAND")].split()[0] != "Résultats"


def test_without_a_default_results_stay_in_each_readers_own_language(harness: Harness) -> None:
    start_game(harness, languages={"GERMANY": "fr"})
    harness.new_mail()
    process(harness, "demo")
    results = results_by_address(harness)
    assert results[address_of("GERMANY")].startswith("Résultats")
    assert not results[address_of("FRANCE")].startswith("Résultats")
    assert not results[OBSERVER].startswith("Résultats")


def test_a_registered_observer_gets_the_results_in_his_own_language(harness: Harness) -> None:
    """The observer is found by his address among the registered people: his French is used,
    and no other person's language."""
    register(harness, OBSERVER, "Walter Watcher", language="fr")
    start_game(harness)
    harness.new_mail()
    process(harness, "demo")
    results = results_by_address(harness)
    assert results[OBSERVER].startswith("Résultats")
    assert not results[address_of("FRANCE")].startswith("Résultats")


def test_a_player_who_never_chose_gets_replies_in_the_games_default(harness: Harness) -> None:
    start_game(harness)
    harness.exchange(MASTER, "SIGNON Mdemo masterpw\nSET LANGUAGE fr\n")
    body = body_of(harness.exchange(address_of("ITALY"), f"SIGNON Idemo {password_of('ITALY')}\nA Rom - Apu\n"))
    assert "Italie" in body or "italie" in body.lower()
    # An English choice keeps English replies in the same game.
    harness.exchange(address_of("ITALY"), "SET LANGUAGE en\n")
    body = body_of(harness.exchange(address_of("ITALY"), f"SIGNON Idemo {password_of('ITALY')}\nA Rom - Apu\n"))
    assert "Italy" in body


# ---------------------------------------------------------------- refusals


def test_a_master_of_a_finished_game_cannot_change_its_default(harness: Harness) -> None:
    start_game(harness)
    finish(harness, "demo")
    body = body_of(harness.exchange(MASTER, "SIGNON Mdemo masterpw\nSET LANGUAGE fr\n"))
    assert "Game 'demo' is over: its settings can no longer be changed." in body
    assert GAME_LANGUAGE not in game_settings(harness)


def test_an_unregistered_observer_cannot_choose(harness: Harness) -> None:
    start_game(harness)
    body = body_of(harness.exchange(OBSERVER, "SIGNON Odemo watchpw\nSET LANGUAGE fr\n"))
    assert "Only a registered person can choose a language" in body
    assert GAME_LANGUAGE not in game_settings(harness)
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.people.by_address(OBSERVER) is None
