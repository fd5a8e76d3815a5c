"""ORDERS (issue 13): a player sees the orders on file and those kept for later phases; nobody else does."""

from __future__ import annotations

import pytest

from tests.app.conftest import Harness
from tests.app.orders_helpers import OBSERVER, plain, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def test_a_player_sees_the_orders_on_file_and_those_for_later_phases(harness: Harness) -> None:
    game = start_game(harness)
    game.orders("FRANCE", "A PAR - BUR\nPHASE Fall 1901 Movement\nA BUR - MUN\n")
    text = game.orders_text("FRANCE", "ORDERS\n")
    assert "> ORDERS\nThe orders on file are listed at the end of this reply.\n" in text
    assert "France: Army Paris -> Burgundy.\n" in text
    assert "France: Fleet Brest, No Order Processed.\n" in text
    assert "----- Pending orders:\nMovement orders for Fall of 1901.\n  A BUR - MUN\n" in text
    assert "[Error Flag]" not in str(game.orders("FRANCE", "ORDERS\n")["Subject"])


def test_orders_shows_only_the_senders_own_power(harness: Harness) -> None:
    game = start_game(harness)
    game.orders("FRANCE", "A PAR - BUR\n")
    text = game.orders_text("GERMANY", "ORDERS\n")
    assert "Germany: Army Berlin, No Order Processed.\n" in text
    assert "Paris" not in text and "France:" not in text


def test_observers_and_masters_without_become_are_refused(harness: Harness) -> None:
    game = start_game(harness)
    game.orders("FRANCE", "A PAR - BUR\n")
    watcher = plain(harness.exchange(OBSERVER, "OBSERVE demo watchpw\nORDERS\n"))
    assert "ORDERS shows a power's orders to its player only (or to a master after BECOME)." in watcher
    assert "Burgundy" not in watcher
    master = plain(game.master("ORDERS\n"))
    assert "A master must BECOME a power before ORDERS shows its orders." in master
    assert "Burgundy" not in master
    stranger = plain(harness.exchange("stranger@example.net", "ORDERS\n"))  # nobody@ is a robot's
    assert "Burgundy" not in stranger
    assert "France: Army Paris -> Burgundy.\n" in plain(game.master("BECOME F\nORDERS\n"))


def test_the_reply_echoes_as_the_guides_say(harness: Harness) -> None:
    """Issue 13: guides and replies agree (the Judge's way): commands and unreadable lines echoed, orders listed."""
    from pathlib import Path

    game = start_game(harness)
    text = game.orders_text("FRANCE", "A PAR - BUR\nA PAR - XYZ\nSET WAIT\n")
    assert "> SET WAIT\n" in text
    assert "> A PAR - XYZ\nUnrecognized destination province -> XYZ" in text
    assert "> A PAR - BUR" not in text
    assert "France: Army Paris -> Burgundy.\n" in text
    docs = Path(__file__).resolve().parents[2] / "docs"
    english = " ".join((docs / "player-guide.md").read_text(encoding="utf-8").split())
    french = " ".join((docs / "fr" / "guide-joueur.md").read_text(encoding="utf-8").split())
    assert "the orders it read are not echoed one by one but listed after" in english
    assert "les ordres lus ne sont pas repris un à un mais listés ensuite" in french
    assert "each line you sent" not in english
