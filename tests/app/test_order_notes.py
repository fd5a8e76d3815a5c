"""Notes under orders that stand but may not mean what the player thinks (issue 24): the phase moved
on since the mail they answer; the unit is an army where they wrote a fleet. SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.conftest import Harness
from tests.app.orders_helpers import address, plain, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def test_orders_answering_a_processed_phase_say_the_phase_moved_on_and_which_is_open(harness: Harness) -> None:
    game = start_game(harness)
    game.master("PROCESS\n")
    reply = harness.exchange(
        address("FRANCE"), game.signon("FRANCE") + "A PAR - BUR\n", subject="Re: XPY:demo - S1901M orders"
    )
    body = plain(reply)
    assert (
        "Note: your mail answers Movement for Spring of 1901, which has been processed; the phase open now "
        "is Movement for Fall of 1901, and the orders of this mail were read for it."
    ) in body
    assert "Movement orders for Fall of 1901." in body
    # answering the open phase, or giving no orders, says nothing of the kind
    body = plain(harness.exchange(address("FRANCE"), game.signon("FRANCE") + "A PAR H\n", subject="Re: XPY:demo - F1901M orders"))
    assert "Note: your mail answers" not in body
    body = plain(harness.exchange(address("FRANCE"), game.signon("FRANCE"), subject="Re: XPY:demo - S1901M orders"))
    assert "Note: your mail answers" not in body


def test_a_phase_line_for_a_processed_phase_names_the_phase_open_now(harness: Harness) -> None:
    game = start_game(harness)
    game.master("PROCESS\n")
    body = game.orders_text("FRANCE", "PHASE S1901M\nA PAR - BUR\n")
    assert (
        "That phase is already past: the phase open now is Movement for Fall of 1901; the orders that follow are ignored."
    ) in body


def test_a_wrong_unit_type_is_corrected_with_a_note(harness: Harness) -> None:
    game = start_game(harness, languages={"GERMANY": "fr"})
    reply = game.orders("FRANCE", "F Paris - Picardy\nA Brest - Mid-Atlantic Ocean\nA MAR H\n")
    body = plain(reply)
    assert "> F Paris - Picardy\nThere is an army in Paris, not a fleet: the order was read for the army.\n" in body
    assert "> A Brest - Mid-Atlantic Ocean\nThere is a fleet in Brest, not an army: the order was read for the fleet.\n" in body
    assert "France: Army Paris -> Picardy." in body
    assert not reply["Subject"].startswith("Re: [Error Flag]")  # a note, not an error
    body = game.orders_text("GERMANY", "F Munich - Ruhr\n")
    assert "> F Munich - Ruhr\nL'unité de Munich est une armée, pas une flotte : l'ordre a été lu pour l'armée.\n" in body
    body = game.orders_text("FRANCE", "A Paris - Burgundy\n")
    assert "There is an" not in body  # the right type: no note


ROOT = Path(__file__).resolve().parents[2]
GUIDES = {"en": ROOT / "docs" / "player-guide.md", "fr": ROOT / "docs" / "fr" / "guide-joueur.md"}
QUOTE_STARTS = {"en": "> There is an army in Paris", "fr": "> L'unité de Paris"}
WRITTEN = {"en": "F Paris - Picardy", "fr": "F Paris - Picardie"}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_guides_quote_of_the_wrong_type_note_is_what_the_judge_says(harness: Harness, language: str) -> None:
    lines = GUIDES[language].read_text(encoding="utf-8").splitlines()
    (quote,) = [line[2:] for line in lines if line.startswith(QUOTE_STARTS[language])]
    game = start_game(harness, languages={"FRANCE": language})
    body = game.orders_text("FRANCE", WRITTEN[language] + "\n")
    assert f"> {WRITTEN[language]}\n{quote}\n" in body
