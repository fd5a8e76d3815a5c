"""Sign-offs, phone footers and prose under the orders (issue 24): no error, no error flag; real
mistakes still raise it. The guides' quoted note is read from the guides. SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.conftest import Harness
from tests.app.orders_helpers import StartedGame, plain, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

ROOT = Path(__file__).resolve().parents[2]
GUIDES = {"en": ROOT / "docs" / "player-guide.md", "fr": ROOT / "docs" / "fr" / "guide-joueur.md"}

FOOTERS = (
    "Thanks!", "Thank you", "Cheers,\nBob", "Merci", "Merci !", "Cordialement,\nJeanne Martin", "Best regards, Jeanne",
    "- Jeanne", "Sent from my iPhone", "Sent from my Android", "Envoyé de mon iPhone", "Envoyé depuis mon mobile",
    "Get Outlook for iOS", "Sent from Mail for Windows", "Sent with Proton Mail", "Téléchargez Outlook pour Android",
)  # fmt: skip


def guide_note(language: str) -> str:
    """The note section 1 of the guide quotes for prose after the orders."""
    text = GUIDES[language].read_text(encoding="utf-8")
    (note,) = [line.strip()[2:] for line in text.split("## 2.")[0].splitlines() if line.strip().startswith("> ")]
    return note


def error_flagged(game: StartedGame) -> bool:
    from judge.app.game_state.order_sheets import error_flags

    with game.harness.db.unit_of_work(readonly=True) as uow:
        return "FRANCE" in error_flags(game.game(uow))


@pytest.mark.parametrize("footer", FOOTERS)
def test_a_sign_off_or_a_client_footer_ends_the_orders_without_an_error(harness: Harness, footer: str) -> None:
    game = start_game(harness)
    reply = game.orders("FRANCE", f"A PAR - BUR\nF BRE - MAO\nA MAR H\n\n{footer}\n")
    body = plain(reply)
    assert not reply["Subject"].startswith("Re: [Error Flag]")
    assert "Unrecognized" not in body and "Error flag" not in body
    assert "Your orders are complete." in body
    assert not error_flagged(game)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_prose_after_the_last_order_is_echoed_as_not_read_and_sets_no_flag(harness: Harness, language: str) -> None:
    game = start_game(harness, languages={"FRANCE": language})
    game.orders("FRANCE", "A PAR - MUN\n")  # a real mistake first: the flag is up
    assert error_flagged(game)
    prose = {"en": "Good luck to all of you", "fr": "Bonne chance à tous et à toutes"}[language]
    reply = game.orders("FRANCE", f"A PAR - BUR\nF BRE - MAO\nA MAR H\nThanks for the game so far, everyone\n{prose}\n")
    body = plain(reply)
    assert f"> {prose}\n{guide_note(language)}\n" in body
    assert "Unrecognized source province" not in body and "did you mean ANK" not in body
    assert not reply["Subject"].startswith("Re: [Error Flag]")
    assert not error_flagged(game)  # the clean mail cleared it: prose is no mistake


def test_the_issues_thanks_is_no_longer_a_bad_order(harness: Harness) -> None:
    game = start_game(harness)
    body = game.orders_text("FRANCE", "A PAR - BUR\nF BRE - MAO\nA MAR H\nThanks\n")
    assert "Unrecognized source province -> Thanks (did you mean ANK?)" not in body
    assert "Your orders are complete." in body


def test_a_wrong_order_after_the_orders_still_sets_the_flag(harness: Harness) -> None:
    game = start_game(harness)
    reply = game.orders("FRANCE", "A PAR - BUR\nF BRE - MAO\nA MAR H\nA Burgandy - Picardy\nThanks!\n")
    body = plain(reply)
    assert "Unrecognized source province -> Burgandy (did you mean BUR?)" in body
    assert reply["Subject"].startswith("Re: [Error Flag]")
    assert error_flagged(game)


def test_prose_between_orders_is_a_bad_order_and_a_sign_off_hides_no_order_after_it(harness: Harness) -> None:
    game = start_game(harness)
    reply = game.orders("FRANCE", "A PAR - BUR\nSent from my iPhone\nF BRE - MAO\nWhat a day it was\nA MAR H\n")
    body = plain(reply)
    assert "France: Fleet Brest -> Mid-Atlantic Ocean." in body  # read after the footer
    assert "France: Army Marseilles HOLD." in body
    assert "> What a day it was\n" in body and "> Sent from my iPhone\nNot read: text after your orders" in body
    assert reply["Subject"].startswith("Re: [Error Flag]")
    assert error_flagged(game)


def test_a_mistyped_command_after_the_orders_is_still_an_error(harness: Harness) -> None:
    game = start_game(harness)
    reply = game.orders("FRANCE", "A PAR - BUR\nF BRE - MAO\nA MAR H\nsett wait\n")
    assert reply["Subject"].startswith("Re: [Error Flag]")
    assert error_flagged(game)
