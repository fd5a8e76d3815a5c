"""Orders by mail: the acknowledgement, merging, future phases, IF blocks, CLEAR, and every refusal."""

from __future__ import annotations

import pytest

from judge.db.enums import OrderBlockKind
from tests.app.conftest import Harness
from tests.app.orders_helpers import MASTER, OBSERVER, StartedGame, address, plain, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def test_orders_are_acknowledged_unit_by_unit_with_completeness(harness: Harness) -> None:
    game = start_game(harness)
    reply = game.orders("FRANCE", "A PAR - BUR\nF BRE - MAO\n")
    body = plain(reply)
    assert reply["Subject"] == "Re: XPY:demo - S1901M orders"
    assert (
        "Movement orders for Spring of 1901.  (demo.001)\n\n"
        "France: Fleet Brest -> Mid-Atlantic Ocean.\n"
        "France: Army Marseilles, No Order Processed.\n"
        "France: Army Paris -> Burgundy.\n\n"
        "Your orders are not complete: 1 unit(s) without orders.\n"
    ) in body
    assert "> A PAR - BUR" not in body  # good orders are shown in the list, not echoed


@pytest.mark.engine_sql
def test_a_second_mail_replaces_only_the_units_it_names_and_every_version_is_kept(harness: Harness) -> None:
    game = start_game(harness)
    game.orders("FRANCE", "A PAR - BUR\nF BRE - MAO\nA MAR - SPA\n")
    body = game.orders_text("FRANCE", "A PAR - PIC\n")
    assert "France: Army Paris -> Picardy." in body
    assert "France: Army Marseilles -> Spain." in body
    assert "Your orders are complete." in body
    with harness.db.unit_of_work(readonly=True) as uow:
        versions = uow.orders.versions(game.game(uow), "S1901M", "FRANCE")
        assert [v.canonical for v in versions] == [
            ["A PAR - BUR", "F BRE - MAO", "A MAR - SPA"],
            ["F BRE - MAO", "A MAR - SPA", "A PAR - PIC"],
        ]
        assert versions[0].superseded_at is not None and versions[1].superseded_at is None


def test_an_order_for_another_powers_unit_is_refused_and_changes_nothing(harness: Harness) -> None:
    game = start_game(harness)
    game.orders("FRANCE", "A PAR - BUR\n")
    before = game.state()
    reply = game.orders("FRANCE", "A MUN - RUH\n")
    body = plain(reply)
    assert "> A MUN - RUH" in body
    assert "A MUN - RUH: The unit in Munich belongs to Germany, not to you." in body
    assert reply["Subject"].startswith("Re: [Error Flag] ")
    assert "France: Army Paris -> Burgundy." in body
    assert game.state() == before


def test_an_illegal_order_is_explained_and_the_error_flag_keeps_orders_incomplete(harness: Harness) -> None:
    game = start_game(harness)
    body = game.orders_text("FRANCE", "A PAR - BUR\nF BRE - MAO\nA MAR - MUN\n")
    assert "> A MAR - MUN" in body
    assert "A MAR - MUN: Marseilles is not adjacent to Munich." in body
    assert "Your orders are not complete: 1 unit(s) without orders." in body
    assert "Error flag set" in body
    body = game.orders_text("FRANCE", "A MAR H\n")
    assert "Your orders are complete." in body
    assert "Error flag" not in body


def test_orders_before_signon_are_refused(harness: Harness) -> None:
    start_game(harness)
    reply = harness.exchange(address("FRANCE"), "A PAR - BUR\n")
    body = plain(reply)
    assert "> A PAR - BUR" in body
    assert "Orders must follow a SIGNON." in body
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.by_name("demo")
        assert game is not None and uow.orders.current(game, "S1901M") == {}


def test_a_wrong_password_reads_no_orders(harness: Harness) -> None:
    game = start_game(harness)
    before = game.state()
    body = plain(harness.exchange(address("FRANCE"), "SIGNON Fdemo wrong\nA PAR - BUR\n"))
    assert "Invalid password" in body
    assert game.state() == before


def test_observers_and_masters_without_become_cannot_order(harness: Harness) -> None:
    game = start_game(harness)
    before = game.state()
    body = plain(harness.exchange(OBSERVER, "SIGNON Odemo watchpw\nA PAR - BUR\n"))
    assert "Observers cannot give orders." in body
    body = plain(game.master("A PAR - BUR\n"))
    assert "A master must BECOME a power before giving its orders." in body
    assert game.state() == before
    assert MASTER


def test_orders_for_a_later_phase_are_kept_apart_and_cleared_by_clear(harness: Harness) -> None:
    game = start_game(harness)
    body = game.orders_text("FRANCE", "A PAR - BUR\nPHASE Fall 1901 Movement\nA BUR - MUN\n")
    assert "The orders that follow are kept for Movement for Fall of 1901." in body
    assert "France: Army Paris -> Burgundy." in body
    assert "----- Pending orders:\nMovement orders for Fall of 1901.\n  A BUR - MUN" in body
    with harness.db.unit_of_work(readonly=True) as uow:
        stored = uow.orders.current(game.game(uow), "F1901M")
        assert stored["FRANCE"].kind is OrderBlockKind.FUTURE
        assert stored["FRANCE"].canonical == ["A BUR - MUN"]
    body = game.orders_text("FRANCE", "CLEAR\n")
    assert "Orders for later phases cleared." in body
    assert "Pending orders" not in body
    assert "France: Army Paris -> Burgundy." in body  # current orders are never cleared
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.orders.current(game.game(uow), "F1901M") == {}


def test_a_past_phase_is_refused_and_the_orders_after_it_are_ignored(harness: Harness) -> None:
    game = start_game(harness)
    before = game.state()
    reply = game.orders("FRANCE", "PHASE Spring 1900 Movement\nA PAR - BUR\n")
    body = plain(reply)
    assert "That phase is already past" in body
    assert "Ignored: these orders follow a PHASE line that was not accepted." in body
    assert game.state()["orders"] == before["orders"]


def test_an_unreadable_phase_line_also_stops_the_orders_after_it(harness: Harness) -> None:
    game = start_game(harness)
    body = game.orders_text("FRANCE", "PHASE someday\nA PAR - BUR\n")
    assert "Ignored: these orders follow a PHASE line that was not accepted." in body
    assert "France: Army Paris, No Order Processed." in body


def test_an_if_block_is_stored_and_shown_decided_on_the_current_board(harness: Harness) -> None:
    game = start_game(harness)
    body = game.orders_text(
        "FRANCE",
        "A MAR H\nF BRE H\nIF german army munich\n A PAR - PIC\nELSE\n A PAR - BUR\nENDIF\n",
    )
    assert "France: Army Paris -> Picardy." in body
    assert "decided in this order on the board at the start of the phase (for a unit, the order or block given last wins):\n1. IF GERMANY A MUN" in body
    assert "Your orders are complete." in body
    with harness.db.unit_of_work(readonly=True) as uow:
        stored = uow.orders.current(game.game(uow), "S1901M")["FRANCE"]
        assert stored.kind is OrderBlockKind.CONDITIONAL
        assert stored.canonical[-1] == "IF GERMANY A MUN\n  A PAR - PIC\nELSE\n  A PAR - BUR\nENDIF"


def test_an_if_block_with_an_illegal_order_is_not_kept(harness: Harness) -> None:
    game = start_game(harness)
    before = game.state()
    body = game.orders_text("FRANCE", "IF german army munich\n A PAR - MUN\nENDIF\n")
    assert "The IF block was not kept" in body
    assert "A PAR - MUN: " in body
    assert game.state()["orders"] == before["orders"]


def test_a_french_player_reads_the_acknowledgement_in_french(harness: Harness) -> None:
    game = start_game(harness, languages={"FRANCE": "fr"})
    body = game.orders_text("FRANCE", "A Paris - Bourgogne\nF Brest - Manche\n")
    assert "Ordres de mouvement du printemps 1901.  (demo.001)" in body
    assert "France: Armée Paris -> Bourgogne." in body
    assert "France: Armée Marseille, aucun ordre traité." in body
    assert "Vos ordres ne sont pas complets : 1 unité(s) sans ordre." in body


def test_support_of_a_foreign_unit_names_its_power(harness: Harness) -> None:
    game = start_game(harness)
    body = game.orders_text("GERMANY", "A MUN S A PAR - BUR\n")
    assert "Germany: Army Munich SUPPORT French Army Paris -> Burgundy." in body


def started(harness: Harness) -> StartedGame:
    return start_game(harness)
