"""No confirmation-code cannon (issue 25): the judge mails few codes, and only its own words.

The attack: one 57 KB mail of REGISTER blocks with 1,824 ``Email:`` lines made
the judge mail 1,824 "Confirmation needed" mails to arbitrary addresses, each
quoting the attacker's Name field (a spam URL). Now: at most one code per mail
(:data:`judge.app.people.claims.PER_MAIL`), and a code for a third party's address
only after the registration's owner confirmed; then the operator's bounds per
requesting address and per domain a day, and for the whole judge an hour
(``JUDGE_CONFIRMATIONS_*``). Past a bound the requester is told once per mail.

Who may ask for a code: anyone. What a code mail reveals: the judge's text,
addresses and the code, nothing a requester wrote.
"""

from __future__ import annotations

from dataclasses import replace
from email.message import EmailMessage

import pytest

from tests.app.conftest import Harness
from tests.app.identity_helpers import body, person, register_simply

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

SPAM = "Visit http://pills.spam.example now"
ATTACKER = "cannon@attacker.example"
BLOCKS, LINES_PER_BLOCK, ADDRESSES_PER_LINE = 57, 8, 4  # 1,824 addresses


def cannon_mail() -> str:
    """The attack's shape: valid REGISTER blocks, each with the spam name and 32 addresses."""
    blocks = []
    for block in range(BLOCKS):
        emails = "".join(
            "Email: "
            + ", ".join(f"victim{block:02d}{line}{n}@target{n}.example" for n in range(ADDRESSES_PER_LINE))
            + "\n"
            for line in range(LINES_PER_BLOCK)
        )
        blocks.append(f"REGISTER\nName: {SPAM}\nCountry: Nowhere\n{emails}END\n")
    return "".join(blocks)


def _confirmations(mails: list[EmailMessage]) -> list[EmailMessage]:
    return [m for m in mails if "Confirmation needed" in str(m["Subject"])]


def test_the_57_kb_cannon_mail_makes_one_confirmation_mail_to_its_own_sender(harness: Harness) -> None:
    attack = cannon_mail()
    assert 57_000 <= len(attack.encode()) < 60_000
    assert attack.count("@") == BLOCKS * LINES_PER_BLOCK * ADDRESSES_PER_LINE == 1_824
    reply = harness.exchange(ATTACKER, attack)
    codes = _confirmations(harness.others)
    assert len(codes) == 1, f"{len(codes)} confirmation mails for one attacker mail"
    assert [m["To"] for m in harness.others] == [ATTACKER]  # no third party gets anything
    assert SPAM not in body(codes[0])
    told = (
        "The judge mails at most one confirmation code per mail: no code was mailed for this "
        "request, nor for any later one in this mail. Send it in a mail of its own."
    )
    assert body(reply).count(told) == 1


def test_the_cannon_from_a_registered_sender_makes_one_code_mail_too(harness: Harness) -> None:
    register_simply(harness, ATTACKER, "Cannon")
    harness.exchange(ATTACKER, cannon_mail())
    assert [m["To"] for m in _confirmations(harness.others)] == [ATTACKER]
    assert len(harness.others) == 1


def _people(harness: Harness, *addresses: str) -> None:
    for n, address in enumerate(addresses):
        register_simply(harness, address, f"Person {n}")


def _iamalso(harness: Harness, sender: str, owner: str) -> EmailMessage:
    return harness.exchange(sender, f"IAMALSO {owner}\n")


def test_one_sender_gets_five_codes_a_day(harness: Harness) -> None:
    owners = [f"owner{n}@d{n}.example" for n in range(7)]
    _people(harness, *owners)
    for owner in owners[:5]:
        _iamalso(harness, "asker@example.net", owner)
        assert [m["To"] for m in harness.others] == [owner]
    reply = _iamalso(harness, "asker@example.net", owners[5])
    assert harness.others == []
    assert (
        "The judge has mailed as many confirmation codes as it does in a day at the request of "
        "asker@example.net: no code was mailed, here or for any later request of this mail. "
        "Try again tomorrow."
    ) in body(reply)
    harness.clock.advance(hours=24, minutes=1)
    _iamalso(harness, "asker@example.net", owners[6])
    assert [m["To"] for m in harness.others] == [owners[6]]


def _two_codes_then_a_refusal(harness: Harness, owners: list[str]) -> EmailMessage:
    """Three strangers ask three owners: the first two get their code, the third is refused."""
    _people(harness, *owners)
    for n, owner in enumerate(owners[:2]):
        _iamalso(harness, f"asker{n}@example.net", owner)
        assert len(harness.others) == 1
    reply = _iamalso(harness, "asker9@example.net", owners[2])
    assert harness.others == []
    return reply


def test_one_domain_gets_a_bounded_number_of_codes_a_day(harness: Harness) -> None:
    harness.services.config = replace(harness.services.config, confirmations_per_domain_per_day=2)
    reply = _two_codes_then_a_refusal(harness, [f"owner{n}@same.example" for n in range(3)])
    assert "as many confirmation codes as it does in a day to addresses at same.example" in body(reply)


def test_the_whole_judge_mails_a_bounded_number_of_codes_an_hour(harness: Harness) -> None:
    harness.services.config = replace(harness.services.config, confirmations_per_hour=2)
    owners = [f"owner{n}@d{n}.example" for n in range(3)]
    reply = _two_codes_then_a_refusal(harness, owners)
    assert "as many confirmation codes as it does in an hour" in body(reply)
    harness.clock.advance(hours=1, minutes=1)
    _iamalso(harness, "asker9@example.net", owners[2])
    assert [m["To"] for m in harness.others] == [owners[2]]


def test_many_requests_in_one_mail_make_one_code_and_one_sentence(harness: Harness) -> None:
    owners = [f"owner{n}@d{n}.example" for n in range(5)]
    _people(harness, *owners)
    reply = harness.exchange("asker@example.net", "".join(f"IAMALSO {owner}\n" for owner in owners))
    assert [m["To"] for m in harness.others] == [owners[0]]
    assert body(reply).count("The judge mails at most one confirmation code per mail") == 1
    assert person(harness, "asker@example.net") is None
