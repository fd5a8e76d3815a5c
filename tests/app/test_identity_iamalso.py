"""IAMALSO by mail: linking the sending address to a registration, and what it does not give."""

from __future__ import annotations

from judge.db.enums import AuditKind
from tests.app.conftest import Harness
from tests.app.games_helpers import form_game, powers_of
from tests.app.identity_helpers import audit, body, person, register_simply

JEANNE = "jeanne@example.org"
ALIAS = "jeanne@work.example"


def test_the_sending_address_is_linked_and_the_owner_told(harness: Harness) -> None:
    register_simply(harness, JEANNE, "Jeanne")
    reply = harness.exchange(ALIAS, f"IAMALSO {JEANNE}\n")
    assert "[Error Flag]" not in reply["Subject"]
    assert body(reply).endswith(
        f"> IAMALSO {JEANNE}\n"
        "jeanne@work.example is now an address of Jeanne's registration (jeanne@example.org).\n"
        "This gives no password: to play a power from this address you still sign on with that "
        "power's password.\n"
    )
    stored = person(harness, ALIAS)
    assert stored is not None
    assert stored.addresses == [JEANNE, ALIAS]
    assert stored.primary == JEANNE
    [notice] = harness.others
    assert notice["To"] == JEANNE
    assert body(notice) == (
        "The address jeanne@work.example has been linked to your registration on the judge XPY "
        "with IAMALSO. If this was not you, write to the judge keeper at keeper@example.org.\n"
    )
    assert audit(harness, AuditKind.NEW_ADDRESS) == [(ALIAS, f"IAMALSO {JEANNE}")]


def test_the_linked_address_is_then_recognised_as_the_person(harness: Harness) -> None:
    register_simply(harness, JEANNE, "Jeanne", language="fr")
    reply = harness.exchange(ALIAS, f"IAMALSO {JEANNE}\nWHOIS jeanne@work\n")
    text = body(reply)
    assert "jeanne@work.example est désormais une adresse de l'inscription de Jeanne" in text
    assert "Package:   no" in text  # the own record, shown whole


def test_an_unknown_address_is_refused(harness: Harness) -> None:
    reply = harness.exchange(ALIAS, f"IAMALSO {JEANNE}\n")
    assert "[Error Flag]" in reply["Subject"]
    assert (
        "No registration has the address jeanne@example.org. Send IAMALSO with an address you "
        "registered, or register with REGISTER."
    ) in body(reply)
    assert person(harness, ALIAS) is None
    assert harness.others == []


def test_an_address_of_another_registration_is_not_moved(harness: Harness) -> None:
    register_simply(harness, JEANNE, "Jeanne")
    register_simply(harness, "mallory@example.net", "Mallory")
    reply = harness.exchange("mallory@example.net", f"IAMALSO {JEANNE}\n")
    assert "[Error Flag]" in reply["Subject"]
    assert (
        "This address already belongs to another registration; it cannot be linked to "
        "jeanne@example.org."
    ) in body(reply)
    jeanne, mallory = person(harness, JEANNE), person(harness, "mallory@example.net")
    assert jeanne is not None and mallory is not None
    assert jeanne.addresses == [JEANNE] and mallory.addresses == ["mallory@example.net"]
    assert audit(harness, AuditKind.NEW_ADDRESS) == []


def test_linking_twice_is_harmless(harness: Harness) -> None:
    register_simply(harness, JEANNE, "Jeanne")
    harness.exchange(ALIAS, f"IAMALSO {JEANNE}\n")
    reply = harness.exchange(ALIAS, f"IAMALSO {JEANNE}\n")
    assert "jeanne@work.example is already an address of Jeanne's registration." in body(reply)
    assert harness.others == []
    assert len(audit(harness, AuditKind.NEW_ADDRESS)) == 1


def test_an_alias_still_needs_the_power_password(harness: Harness) -> None:
    addresses = form_game(harness, "demo")
    owner = addresses[3]
    letter = powers_of(harness, "demo")[owner][0]
    harness.exchange("claimer@example.net", f"IAMALSO {owner}\n")
    refused = harness.exchange("claimer@example.net", f"SIGNON {letter}demo not-the-password\n")
    assert "[Error Flag]" in refused["Subject"]
    accepted = harness.exchange("claimer@example.net", f"SIGNON {letter}demo pw3\n")
    assert "[Error Flag]" not in accepted["Subject"]
