"""A registration moves only with its owner's proof (issue 25): what a forged From line cannot do.

The attacker writes ``From: <the victim's address>`` (the reply goes to the
victim; the attacker reads only mailboxes of his own, here ``mal@evil.example``).
Each test plays the whole attack: whatever code reaches a mailbox the attacker
reads is sent back from it with CONFIRM, and then the victim's registration is
read from the database.

Who may change a registration: only the reader of its primary address
(REGISTER from any of its addresses waits for a code mailed there); who may
add an address: the primary address's reader and then the new address's.
What the mails reveal: a code mail carries the judge's text, addresses and the
code, never a requester's words.
"""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from tests.app.conftest import Harness
from tests.app.games_helpers import form_game, powers_of, read
from tests.app.identity_helpers import body, code_sent_to, confirm, form, person, register

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

VICTIM = "victim@example.org"
SECOND = "victim@work.example"
MAL = "mal@evil.example"


def _victim(harness: Harness) -> None:
    register(harness, VICTIM, "Name: Vera Victim", "Country: France", "Phone: 555 0101", "Address: 1 rue Haute")


def _attacker_confirms_what_he_reads(harness: Harness, mails: list[EmailMessage]) -> None:
    """The attacker answers, from his own mailbox, every code that reached it."""
    for mail in [m for m in mails if m["To"] == MAL]:
        code = body(mail).split("CONFIRM ")[1].split()[0]
        harness.exchange(MAL, f"CONFIRM {code}\n")


def test_a_forged_from_cannot_add_the_attackers_address_to_a_registration(harness: Harness) -> None:
    _victim(harness)
    reply = harness.exchange(VICTIM, form(f"Email: {MAL}"))  # forged: only the From line says victim
    assert reply["To"] == VICTIM
    assert [m["To"] for m in harness.others] == [VICTIM]  # the code goes to the owner, never to mal
    _attacker_confirms_what_he_reads(harness, harness.others)
    assert person(harness, MAL) is None
    stored = person(harness, VICTIM)
    assert stored is not None
    assert stored.addresses == [VICTIM] and stored.primary == VICTIM


def test_a_forged_from_of_a_secondary_address_asks_the_primary_one(harness: Harness) -> None:
    _victim(harness)
    register(harness, VICTIM, f"Email: {VICTIM}, {SECOND}")
    confirm(harness, VICTIM)
    confirm(harness, SECOND)
    harness.exchange(SECOND, form(f"Email: {MAL}"))  # forged From: the victim's other address
    assert [m["To"] for m in harness.others] == [VICTIM]
    _attacker_confirms_what_he_reads(harness, harness.others)
    stored = person(harness, VICTIM)
    assert stored is not None and stored.addresses == [VICTIM, SECOND] and stored.primary == VICTIM


def test_the_new_address_is_linked_only_when_it_confirms_too(harness: Harness) -> None:
    _victim(harness)
    register(harness, VICTIM, f"Email: {SECOND}")
    confirm(harness, VICTIM)  # the owner agrees...
    stored = person(harness, VICTIM)
    assert stored is not None and stored.addresses == [VICTIM]  # ...but SECOND has not answered
    harness.clock.advance(hours=73)  # and never does: its code expires
    reply = harness.exchange(SECOND, f"CONFIRM {code_sent_to_last(harness, SECOND)}\n")
    assert "No request waits for this code" in body(reply)
    assert person(harness, SECOND) is None


def code_sent_to_last(harness: Harness, address: str) -> str:
    """The code of the newest mail ever queued for ``address``."""
    [*_, mail] = [m for m in harness.outbox() if m["To"] == address and "CONFIRM " in body(m)]
    return body(mail).split("CONFIRM ")[1].split()[0]


def test_a_forged_from_cannot_rename_a_registration_or_change_its_personal_fields(harness: Harness) -> None:
    _victim(harness)
    reply = harness.exchange(VICTIM, form("Name: Evil Twin", "Phone: 0", "Address: nowhere", "Language: fr"))
    assert "Rien n'a encore été changé." in body(reply)  # the reply (to the victim) says it waits
    [code_mail] = harness.others
    assert code_mail["To"] == VICTIM  # the primary address decides
    assert "change language, name, phone, postal_address." in body(code_mail)
    assert "Evil Twin" not in body(code_mail) and "nowhere" not in body(code_mail)
    stored = person(harness, VICTIM)
    assert stored is not None
    assert (stored.name, stored.phone, stored.postal_address, stored.language) == (
        "Vera Victim", "555 0101", "1 rue Haute", "en",
    )
    # The owner, reading the code, may apply it: then, and only then, it changes.
    harness.exchange(VICTIM, f"CONFIRM {code_sent_to(harness, VICTIM)}\n")
    stored = person(harness, VICTIM)
    assert stored is not None and (stored.name, stored.language) == ("Evil Twin", "fr")


def test_the_primary_address_never_moves_on_a_claim_alone(harness: Harness) -> None:
    _victim(harness)
    register(harness, VICTIM, f"Email: {VICTIM}, {SECOND}")
    confirm(harness, VICTIM)
    confirm(harness, SECOND)
    harness.exchange(SECOND, form(f"Email: {SECOND}"))  # forged: make the second address primary
    stored = person(harness, VICTIM)
    assert stored is not None and stored.primary == VICTIM
    assert [m["To"] for m in harness.others] == [VICTIM]


@pytest.mark.engine_sql
def test_iamalso_from_the_attacker_mails_the_code_to_the_victim_only(harness: Harness) -> None:
    _victim(harness)
    reply = harness.exchange(MAL, f"IAMALSO {VICTIM}\n")
    assert "Nothing is linked yet." in body(reply)
    assert [m["To"] for m in harness.others] == [VICTIM]
    assert "Vera" not in body(harness.others[0])
    harness.exchange(MAL, "CONFIRM AAAA-BBBB-CCCC-DDDD\n")  # a guess from the attacker's mailbox
    assert person(harness, MAL) is None
    stored = person(harness, VICTIM)
    assert stored is not None and stored.addresses == [VICTIM]


def test_set_address_takes_only_the_registrations_addresses(harness: Harness) -> None:
    addresses = form_game(harness)
    first = addresses[0]
    letter = powers_of(harness, "demo")[first][0]
    reply = harness.exchange(first, f"SIGNON {letter}demo pw0\nSET ADDRESS {MAL}\n")
    assert "[Error Flag]" in reply["Subject"]
    assert (
        f"SET ADDRESS takes only addresses of your registration: {MAL} is not one. Add it first "
        "with REGISTER and an Email: line (your registration's primary address and the new address "
        "each confirm it). Nothing was changed."
    ) in read(reply)
    assert all(MAL not in str(m["To"]) for m in harness.others)
    with harness.db.unit_of_work(readonly=True) as uow:
        found = uow.people.by_address(first)
        assert found is not None
        seat = uow.seats.of_person(uow.games.require("demo"), found)
        assert seat is not None and seat.report_address in (None, "")
    reply = harness.exchange(first, f"SIGNON {letter}demo pw0\nSET ADDRESS {first}\n")
    assert "[Error Flag]" not in reply["Subject"], read(reply)


def test_a_code_mail_carries_no_word_of_the_requester(harness: Harness) -> None:
    spam = "Cheap pills at http://spam.example"
    register(harness, "new@example.net", f"Name: {spam}", "Country: X", "Email: third@example.com")
    [owner_mail] = harness.others
    assert spam not in body(owner_mail)
    confirm(harness, "new@example.net")
    [third_mail] = harness.others
    assert third_mail["To"] == "third@example.com"
    text = body(third_mail)
    assert spam not in text and "new@example.net" not in text
    assert text.startswith("Someone asked the judge XPY to add this address (third@example.com)")


def test_a_forged_from_cannot_tie_an_unregistered_address_to_the_forgers_registration(
    harness: Harness,
) -> None:
    innocent = "innocent@example.net"
    register(harness, MAL, "Name: Mal", "Country: X")
    harness.exchange(innocent, f"IAMALSO {MAL}\n")  # forged: the From line says innocent
    confirm(harness, MAL)  # the forger agrees, from his own registration's address...
    assert [m["To"] for m in harness.others] == [innocent]  # ...but innocent gets the next code
    harness.exchange(MAL, "CONFIRM AAAA-BBBB-CCCC-DDDD\n")
    assert person(harness, innocent) is None
    reply = register(harness, innocent, "Name: Ines", "Country: France")  # innocent stays free
    assert "Registration recorded for Ines <innocent@example.net>." in body(reply)
