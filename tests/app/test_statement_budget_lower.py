"""The worker's statements per mail after issue 14's third round: below the budgets of
``test_statement_budget.py`` (the game's seats and the sign-on throttle come in one query; an order
mail's open phase and the power's stored orders in another).

A ratchet like that file's (same counting, commits apart): lower these when the judge does
better, never raise them. Until that file's budgets are lowered to these, both hold.
"""

from __future__ import annotations

from tests.app.conftest import Harness
from tests.app.orders_helpers import address, start_game
from tests.app.test_statement_budget import (
    ORDER_MAIL,
    ORDERING,
    PRESS_MAIL,
    SIGNON_MAIL,
    big_russia,
    one_mail,
    order_lines,
)

ORDER_MAIL_NOW = 8
PRESS_MAIL_NOW = 13
SIGNON_MAIL_NOW = 6


def test_the_lower_budgets_are_below_the_old_ones() -> None:
    assert (ORDER_MAIL_NOW, PRESS_MAIL_NOW, SIGNON_MAIL_NOW) < (ORDER_MAIL, PRESS_MAIL, SIGNON_MAIL)


def test_an_order_mail_and_a_second_one(harness: Harness) -> None:
    game = big_russia(harness)
    body = game.signon(ORDERING) + order_lines(game, harness) + "SIGNOFF\n"
    first = one_mail(harness, address(ORDERING), body)
    assert "Your orders are complete." in harness.new_mail()[-1].get_content()
    second = one_mail(harness, address(ORDERING), body)
    assert (first.commits, second.commits) == (2, 2)
    assert len(first.counted) <= ORDER_MAIL_NOW, "\n".join(first.counted)
    assert len(second.counted) <= ORDER_MAIL_NOW + 1, "\n".join(second.counted)


def test_a_press_mail(harness: Harness) -> None:
    game = start_game(harness)
    body = game.signon("FRANCE") + "PRESS TO G\nHello Germany.\nENDPRESS\nSIGNOFF\n"
    counter = one_mail(harness, address("FRANCE"), body)
    assert counter.commits == 2
    assert len(counter.counted) <= PRESS_MAIL_NOW, "\n".join(counter.counted)


def test_a_signon_mail(harness: Harness) -> None:
    game = start_game(harness)
    counter = one_mail(harness, address("FRANCE"), game.signon("FRANCE"))
    assert counter.commits == 2
    assert len(counter.counted) <= SIGNON_MAIL_NOW, "\n".join(counter.counted)
