"""Addresses a person types into a command (REGISTER Email:, SET ADDRESS) are checked and stored canonically.

Who may run them: REGISTER anyone, SET ADDRESS a player signed on to a game.
What they reveal: the refusal names only the address the sender gave and why
it cannot be used; nothing is stored from a refused address.
"""

from __future__ import annotations

import pytest

from judge.db.repositories.people import normalise_address
from tests.app.conftest import Harness
from tests.app.games_helpers import form_game, powers_of, read
from tests.app.identity_helpers import body, confirm, person, register

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def _report_address(harness: Harness, game: str, address: str) -> str | None:
    with harness.db.unit_of_work(readonly=True) as uow:
        found = uow.people.by_address(address)
        assert found is not None
        seat = uow.seats.of_person(uow.games.require(game), found)
        assert seat is not None
        return seat.report_address


def test_register_refuses_a_non_ascii_broken_address_with_a_sentence(harness: Harness) -> None:
    reply = register(
        harness, "ana@example.org", "Name: Ana", "Country: Spain", "Email: ana@bad..例子.example"
    )
    text = body(reply)
    assert "Traceback" not in text
    assert (
        "'ana@bad..例子.example' is not a mail address (the domain is not a valid international "
        "name); it was left out."
    ) in text
    stored = person(harness, "ana@example.org")
    assert stored is not None and stored.addresses == ["ana@example.org"]


def test_register_stores_an_international_domain_in_its_ascii_form(harness: Harness) -> None:
    register(harness, "ana@example.org", "Name: Ana", "Country: Spain", "Email: Ana@Bücher.example")
    confirm(harness, "ana@example.org")  # the registration's owner first, then the new address
    confirm(harness, "ana@xn--bcher-kva.example")
    stored = person(harness, "ana@xn--bcher-kva.example")
    assert stored is not None
    assert stored.primary == "ana@xn--bcher-kva.example"


def test_register_says_why_in_french(harness: Harness) -> None:
    reply = register(
        harness, "ana@example.org", "Name: Ana", "Country: Spain", "Language: fr", "Email: ana@.example"
    )
    assert (
        "« ana@.example » n'est pas une adresse électronique (le domaine a une partie vide ou mal "
        "formée) ; elle n'a pas été retenue."
    ) in body(reply)


@pytest.mark.engine_sql
def test_set_address_refuses_a_bad_address_and_changes_nothing(harness: Harness) -> None:
    addresses = form_game(harness)
    first = addresses[0]
    powers = powers_of(harness, "demo")
    letter = powers[first][0]
    reply = harness.exchange(first, f"SIGNON {letter}demo pw0\nSET ADDRESS 用户@例子..example\n")
    text = read(reply)
    assert "[Error Flag]" in reply["Subject"]
    assert "Traceback" not in text
    assert "This is not a mail address: 用户@例子..example (" in text
    assert "Nothing was changed." in text
    assert _report_address(harness, "demo", first) in (None, "")


def test_set_address_stores_the_canonical_form(harness: Harness) -> None:
    addresses = form_game(harness)
    first = addresses[0]
    letter = powers_of(harness, "demo")[first][0]
    register(harness, first, "Email: Home@Bücher.Example")  # an address of the registration first
    confirm(harness, first)
    confirm(harness, "home@xn--bcher-kva.example")
    reply = harness.exchange(first, f"SIGNON {letter}demo pw0\nSET ADDRESS Home@Bücher.Example\n")
    assert "[Error Flag]" not in reply["Subject"], read(reply)
    assert _report_address(harness, "demo", first) == "home@xn--bcher-kva.example"
    assert normalise_address("Home@X.example") == "home@x.example"
