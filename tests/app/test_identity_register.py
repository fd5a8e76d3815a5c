"""REGISTER ... END by mail: what is recorded, what the reply says field by field, re-registration."""

from __future__ import annotations

from datetime import date

import pytest

from judge.app.handlers.register import read_birthdate
from judge.db.enums import AuditKind
from tests.app.conftest import Harness
from tests.app.identity_helpers import (
    audit,
    body,
    code_sent_to,
    confirm,
    form,
    people_count,
    person,
    register,
)

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

JEANNE = "jeanne@example.org"


def test_a_first_registration_is_recorded_and_echoed_field_by_field(harness: Harness) -> None:
    harness.send("Jeanne@Example.org", form("Name: Jeanne Martin", "Country: France", "Phone: 555 1234"))
    harness.drain()
    [reply] = [m for m in harness.new_mail() if m["To"] == "jeanne@example.org"]  # the sender, canonical
    text = body(reply)
    assert "[Error Flag]" not in reply["Subject"]
    assert (
        "> REGISTER\n"
        "Registration recorded for Jeanne Martin <jeanne@example.org>.\n"
        "No Email field: your address jeanne@example.org is the registration's address.\n"
        "Not given (optional): Site, Address, Timezone, Birthdate, Sex.\n"
        "\n"
        "The judge now has (send it back between REGISTER and END to change it):\n"
        "Name:      Jeanne Martin\n"
        "Email:     jeanne@example.org\n"
        "Phone:     555 1234\n"
        "Country:   France\n"
        "Level:     Amateur\n"
        "Language:  en\n"
        "Package:   no\n"
        "Dedication: 0 points.\n"
    ) in text
    # Issue 13: the fields the summary shows are not echoed again with nothing under them.
    for line in ("> Name: Jeanne Martin", "> Country: France", "> Phone: 555 1234"):
        assert line not in text
    assert text.endswith("On-time ratio: 1.00   CD ratio: 0.00\n")
    stored = person(harness, JEANNE)
    assert stored is not None
    assert (stored.name, stored.country, stored.phone, stored.level, stored.language) == (
        "Jeanne Martin", "France", "555 1234", "amateur", "en",
    )
    assert stored.addresses == [JEANNE] and stored.primary == JEANNE
    assert audit(harness, AuditKind.REGISTRATION) == [(JEANNE, "registered")]


def test_an_email_address_is_linked_only_when_both_addresses_confirm(harness: Harness) -> None:
    reply = register(harness, "work@example.com", "Name: Jeanne", "Country: France", f"Email: {JEANNE}")
    text = body(reply)
    assert (
        "Registration recorded for Jeanne <work@example.com>.\n"
        "A confirmation code has been mailed to work@example.com, the registration's primary "
        "address. Nothing of this changes before CONFIRM <code> comes back from work@example.com, "
        "within 3 days: add the address jeanne@example.org (which gets a code of its own).\n"
    ) in text
    stored = person(harness, "work@example.com")
    assert stored is not None and stored.addresses == ["work@example.com"]
    assert [m["To"] for m in harness.others] == ["work@example.com"]  # nothing to jeanne@ yet
    owner = confirm(harness, "work@example.com")
    assert (
        "Confirmed.\nA confirmation code has been mailed to jeanne@example.org: it becomes an "
        "address of your registration only when CONFIRM <code> comes back from it, within 3 days."
    ) in body(owner)
    assert person(harness, JEANNE) is None
    [code_mail] = harness.others
    assert code_mail["To"] == JEANNE
    assert body(code_mail).startswith(
        "Someone asked the judge XPY to add this address (jeanne@example.org) to a registration, "
        "and that registration's owner agreed. Once added, the judge's mail for that person would "
        "come here, and mail from here would be read as theirs.\n"
    )
    confirmed = confirm(harness, JEANNE)
    assert "Confirmed: jeanne@example.org is now an address of Jeanne's registration." in body(confirmed)
    [told] = harness.others
    assert told["To"] == "work@example.com"
    assert body(told) == "jeanne@example.org confirmed: it is now an address of your registration on the judge XPY.\n"
    stored = person(harness, JEANNE)
    assert stored is not None
    assert stored.primary == JEANNE  # the first Email address, once both confirmed
    assert stored.addresses == ["jeanne@example.org", "work@example.com"]


def test_an_email_address_nobody_confirms_stays_free(harness: Harness) -> None:
    register(harness, "mallory@example.net", "Name: Mallory", "Country: X", f"Email: {JEANNE}")
    harness.clock.advance(hours=73)
    reply = register(harness, JEANNE, "Name: Jeanne", "Country: France")
    assert "Registration recorded for Jeanne <jeanne@example.org>." in body(reply)


def test_a_form_without_name_or_country_is_refused_and_nothing_is_recorded(harness: Harness) -> None:
    reply = register(harness, JEANNE, "Phone: 555", "Level: Expert")
    assert "[Error Flag]" in reply["Subject"]
    assert (
        "> REGISTER\nRegistration refused: the form must give Name, Country. Nothing was recorded."
        in body(reply)
    )
    assert people_count(harness) == 0
    assert audit(harness, AuditKind.REGISTRATION) == []


def test_wrong_fields_are_reported_under_their_lines_and_left_out(harness: Harness) -> None:
    reply = register(
        harness, JEANNE,
        "Name: Jeanne", "Country: France", "Level: Grandmaster", "Birthdate: the day after",
        "Package: perhaps", "Language: klingon", "Email: not-an-address",
    )  # fmt: skip
    text = body(reply)
    assert "[Error Flag]" in reply["Subject"]
    assert (
        "> Level: Grandmaster\n"
        "Unknown level: Amateur assumed. Levels are Novice, Amateur, Intermediate, Advanced, Expert.\n"
    ) in text
    assert (
        "> Birthdate: the day after\n"
        "This date could not be read (write e.g. Dec 25, 1980 or 25/12/1980); it was left out.\n"
    ) in text
    assert "> Package: perhaps\nAnswer yes or no; this field was left out.\n" in text
    assert "> Language: klingon\nThe judge writes in en (English) or fr (French); this field was left out.\n" in text
    assert "> Email: not-an-address\n'not-an-address' is not a mail address (it needs the form name@domain); it was left out.\n" in text
    stored = person(harness, JEANNE)
    assert stored is not None
    assert (stored.level, stored.birth_date, stored.wants_package, stored.language) == ("amateur", None, False, "en")
    assert stored.addresses == [JEANNE]


def test_every_field_of_the_form_is_stored(harness: Harness) -> None:
    register(
        harness, JEANNE,
        "Name: Jeanne Martin", "Phone: +33 1 23", "Site: Université de Lyon",
        "Address: 12 rue des Lilas, Lyon", "Country: France", "Timezone: Europe/Paris",
        "Level: intermediate", "Birthdate: Dec 25, 1990", "Sex: Female", "Club: Lyon",
    )  # fmt: skip
    stored = person(harness, JEANNE)
    assert stored is not None
    assert stored.postal_address == "12 rue des Lilas, Lyon"
    assert stored.time_zone == "Europe/Paris"
    assert stored.level == "intermediate"
    assert stored.birth_date == "1990-12-25"
    assert stored.extra == {"Club": "Lyon"}


def test_french_keywords_and_language_make_the_reply_french(harness: Harness) -> None:
    reply = harness.exchange(
        JEANNE, form("Nom: Jeanne", "Pays: France", "Langue: fr", "Niveau: Débutant") + "VERSION\n"
    )
    text = body(reply)
    assert "Inscription enregistrée pour Jeanne <jeanne@example.org>." in text
    assert "Juge de Diplomatie par courriel, version" in text  # the rest of the mail too
    stored = person(harness, JEANNE)
    assert stored is not None
    assert (stored.language, stored.level) == ("fr", "novice")
    later = harness.exchange(JEANNE, "WHOIS nobody\n")
    assert "Aucune inscription n'a d'adresse commençant par « nobody »." in body(later)


@pytest.mark.engine_sql
def test_registering_again_updates_only_what_is_given_once_confirmed(harness: Harness) -> None:
    register(harness, JEANNE, "Name: Jeanne", "Country: France", "Phone: 555")
    reply = register(harness, JEANNE, "Country: Belgique", "Level: Expert")
    assert (
        "> REGISTER\nNothing was changed yet.\n"
        "A confirmation code has been mailed to jeanne@example.org, the registration's primary "
        "address. Nothing of this changes before CONFIRM <code> comes back from "
        "jeanne@example.org, within 3 days: change country, level.\n"
    ) in body(reply)
    waiting = person(harness, JEANNE)
    assert waiting is not None and (waiting.country, waiting.level) == ("France", "amateur")
    confirmed = confirm(harness, JEANNE)
    assert "Confirmed: registration updated: country, level." in body(confirmed)
    stored = person(harness, JEANNE)
    assert stored is not None
    assert (stored.name, stored.country, stored.level, stored.phone) == ("Jeanne", "Belgique", "expert", "555")
    assert audit(harness, AuditKind.REGISTRATION) == [
        (JEANNE, "registered"), (JEANNE, "updated, confirmed by jeanne@example.org"),
    ]
    assert people_count(harness) == 1


def test_registering_again_with_nothing_new_says_so(harness: Harness) -> None:
    register(harness, JEANNE, "Name: Jeanne", "Country: France")
    reply = register(harness, JEANNE, "Name: Jeanne", "Country: France")
    assert "Registration unchanged: it already said all this." in body(reply)


def test_an_update_may_move_the_primary_address(harness: Harness) -> None:
    register(harness, JEANNE, "Name: Jeanne", "Country: France")
    register(harness, JEANNE, "Email: new@example.org")
    confirm(harness, JEANNE)  # the owner, from the primary address
    assert person(harness, "new@example.org") is None  # not before its own confirmation
    confirm(harness, "new@example.org")
    stored = person(harness, "new@example.org")
    assert stored is not None
    assert stored.primary == "new@example.org"
    assert stored.addresses == ["jeanne@example.org", "new@example.org"]
    register(harness, JEANNE, f"Email: {JEANNE}")  # back: the primary (new@) confirms
    assert code_sent_to(harness, "new@example.org")
    again = person(harness, JEANNE)
    assert again is not None and again.primary == "new@example.org"
    confirm(harness, "new@example.org")
    again = person(harness, JEANNE)
    assert again is not None and again.primary == JEANNE


def test_someone_elses_address_is_never_taken(harness: Harness) -> None:
    register(harness, JEANNE, "Name: Jeanne", "Country: France", "Phone: 555 1234")
    reply = register(harness, "mallory@example.net", "Name: Mallory", "Country: X", f"Email: {JEANNE}")
    assert "[Error Flag]" not in reply["Subject"]
    assert (
        "Nothing was recorded yet: jeanne@example.org belongs to a registration, so a confirmation "
        "code has been mailed to it. This form will change that registration, and "
        "mallory@example.net will be linked to it, only when CONFIRM <code> is sent back from "
        "jeanne@example.org, within 3 days. If nobody does, nothing changes."
    ) in body(reply)
    assert "555 1234" not in body(reply) and "Jeanne" not in body(reply)  # nothing of hers is shown
    assert people_count(harness) == 1
    assert person(harness, "mallory@example.net") is None
    jeanne = person(harness, JEANNE)
    assert jeanne is not None and jeanne.name == "Jeanne"
    [code_mail] = [m for m in harness.others if m["To"] == JEANNE]
    assert body(code_mail).startswith(
        "The address mallory@example.net sent a REGISTER form that would change your registration "
        "on the judge XPY and link mallory@example.net to it.\n"
    )
    # A registered person cannot take it either: the rest of the form waits for its own owner.
    register(harness, "mallory@example.net", "Name: Mallory", "Country: X")
    reply = register(harness, "mallory@example.net", f"Email: {JEANNE}", "Phone: 1")
    assert "jeanne@example.org belongs to another registration; it was left out." in body(reply)
    assert [m["To"] for m in harness.others] == ["mallory@example.net"]
    confirm(harness, "mallory@example.net")
    mallory = person(harness, "mallory@example.net")
    jeanne = person(harness, JEANNE)
    assert mallory is not None and jeanne is not None
    assert mallory.addresses == ["mallory@example.net"] and mallory.phone == "1"
    assert jeanne.name == "Jeanne" and jeanne.addresses == [JEANNE]


def test_a_form_naming_a_registration_is_applied_when_its_owner_confirms(harness: Harness) -> None:
    register(harness, JEANNE, "Name: Jeanne", "Country: France")
    register(harness, "jm@work.example", "Name: Jeanne M.", "Birthdate: 25/12/1990", f"Email: {JEANNE}")
    [code_mail] = [m for m in harness.others if m["To"] == JEANNE]
    code = body(code_mail).split("CONFIRM ")[1].split()[0]
    reply = harness.exchange(JEANNE, f"CONFIRM {code}\n")
    assert "Registration updated: birth_date, name." in body(reply)
    assert person(harness, "jm@work.example") is None  # the asking address proves itself too
    confirm(harness, "jm@work.example")
    stored = person(harness, "jm@work.example")
    assert stored is not None
    assert stored.name == "Jeanne M." and stored.birth_date == "1990-12-25"
    assert stored.addresses == [JEANNE, "jm@work.example"] and stored.primary == JEANNE


def test_a_form_naming_two_registrations_is_refused(harness: Harness) -> None:
    register(harness, JEANNE, "Name: Jeanne", "Country: France")
    register(harness, "paul@example.org", "Name: Paul", "Country: France")
    reply = register(harness, "x@example.net", "Name: X", f"Email: {JEANNE}, paul@example.org")
    assert "The addresses of this form belong to different registrations. Nothing was recorded." in body(reply)
    assert harness.others == []


def test_the_package_is_appended_when_asked_for(harness: Harness) -> None:
    reply = register(harness, JEANNE, "Name: Jeanne", "Country: France", "Package: yes")
    text = body(reply)
    assert "You asked for the new player's package: the files info, index, syntax follow." in text
    for name in ("info", "index", "syntax"):
        assert f"----- {name} -----" in text
    assert text.index("> REGISTER") < text.index("----- info -----")


def test_too_long_a_name_is_refused(harness: Harness) -> None:
    reply = register(harness, JEANNE, "Name: " + "x" * 201, "Country: France")
    text = body(reply)
    assert "Registration refused: the form must give Name. Nothing was recorded." in text
    assert people_count(harness) == 0


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("Dec 25, 1907", date(1907, 12, 25)),
        ("25 December 1990", date(1990, 12, 25)),
        ("25 décembre 1990", date(1990, 12, 25)),
        ("1er mai 1980", date(1980, 5, 1)),
        ("25th Dec 1990", date(1990, 12, 25)),
        ("25/12/1990", date(1990, 12, 25)),
        ("1990-12-25", date(1990, 12, 25)),
        ("31/02/1990", None),
        ("next tuesday", None),
        ("Dec 25", None),
        ("Dec 25, 2030", None),
        ("Dec 25, 1850", None),
    ],
)
def test_birthdates_are_read_as_people_write_them(written: str, expected: date | None) -> None:
    assert read_birthdate(written, date(2026, 11, 23)) == expected
