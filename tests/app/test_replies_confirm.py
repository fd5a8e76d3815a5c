"""Every reply to a player signed on as their power ends with the orders on file and whether they are
complete, even when no order line of the mail was read (issue 24). SQLite and PostgreSQL.

Who sees it: the player of the power alone (their reply); an observer's reply shows no orders.
"""

from __future__ import annotations

import pytest

from judge.app.game_state.order_sheets import error_flags
from tests.app.conftest import Harness
from tests.app.orders_helpers import OBSERVER, StartedGame, plain, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

ON_FILE = (
    "Movement orders for Spring of 1901.  (demo.001)\n\n"
    "France: Fleet Brest -> Mid-Atlantic Ocean.\n"
    "France: Army Marseilles HOLD.\n"
    "France: Army Paris -> Burgundy.\n\n"
)


def flagged(game: StartedGame) -> bool:
    with game.harness.db.unit_of_work(readonly=True) as uow:
        return "FRANCE" in error_flags(game.game(uow))


def test_a_bare_signon_shows_the_orders_on_file_and_that_they_are_now_complete(harness: Harness) -> None:
    game = start_game(harness)
    game.orders("FRANCE", "A PAR - BUR\nF BRE - MAO\nA MAR H\nA MAR - MUN\n")  # a mistake: the flag is up
    assert flagged(game)
    reply = game.orders("FRANCE", "")
    body = plain(reply)
    assert body.endswith(ON_FILE + "Your orders are complete.\n")
    assert not reply["Subject"].startswith("Re: [Error Flag]")
    assert not flagged(game)


def test_a_mail_whose_every_order_line_failed_lists_the_errors_and_the_orders_on_file(harness: Harness) -> None:
    game = start_game(harness)
    game.orders("FRANCE", "A PAR - BUR\nF BRE - MAO\nA MAR H\n")
    reply = game.orders("FRANCE", "A Burgandy - Picardy\nF Brestt - ENG\n")
    body = plain(reply)
    assert "> A Burgandy - Picardy\nUnrecognized source province -> Burgandy (did you mean BUR?)\n" in body
    assert "> F Brestt - ENG\n" in body
    assert ON_FILE in body
    assert body.endswith(
        ON_FILE + "Every unit has an order, but this mail had errors: the error flag is set and your "
        "orders do not count as complete until a mail without errors arrives.\n"
    )
    assert reply["Subject"].startswith("Re: [Error Flag]")
    assert flagged(game)  # orders that really are wrong raise the flag, read or not


def test_a_press_only_mail_ends_with_the_orders_on_file(harness: Harness) -> None:
    game = start_game(harness)
    game.orders("FRANCE", "A PAR - BUR\nF BRE - MAO\n")
    body = plain(game.orders("FRANCE", "BROADCAST\nPeace in our time.\nENDPRESS\n"))
    assert body.endswith(
        "Movement orders for Spring of 1901.  (demo.001)\n\n"
        "France: Fleet Brest -> Mid-Atlantic Ocean.\n"
        "France: Army Marseilles, No Order Processed.\n"
        "France: Army Paris -> Burgundy.\n\n"
        "Your orders are not complete: 1 unit(s) without orders.\n"
    )
    assert not flagged(game)


def test_the_orders_are_shown_once_and_only_to_the_powers_player(harness: Harness) -> None:
    game = start_game(harness)
    body = game.orders_text("FRANCE", "A PAR - BUR\nF BRE - MAO\nA MAR H\n")
    assert body.count("Movement orders for Spring of 1901.") == 1
    body = plain(harness.exchange(OBSERVER, "SIGNON Odemo watchpw\nBROADCAST\nHello.\nENDPRESS\n"))
    assert "Movement orders" not in body and "A PAR" not in body and "Army Paris" not in body
