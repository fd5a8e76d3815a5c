"""IAMALSO and CONFIRM by mail: linking an address to a registration only with proof from that registration.

Who may run them: IAMALSO anyone (from the address to be linked); CONFIRM
anyone, but it acts only from the address the code was mailed to.
What they reveal: IAMALSO says whether the named address is registered
(as WHOIS does) and nothing of the registration; the code goes only to the
claimed address, with who asked; CONFIRM's refusal is the same whatever
was wrong.
"""

from __future__ import annotations

import re
from email.message import EmailMessage

import pytest

from judge.db.enums import AuditKind
from judge.db.models import AddressClaim
from tests.app.conftest import Harness
from tests.app.games_helpers import form_game, powers_of
from tests.app.identity_helpers import audit, body, person, register, register_simply

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

JEANNE = "jeanne@example.org"
ALIAS = "jeanne@work.example"
NO_CLAIM = (
    "No request waits for this code from this address (the code is wrong, used or expired, or "
    "was mailed to another address). Nothing was changed."
)


def _code_mail(harness: Harness, to: str) -> EmailMessage:
    [mail] = [m for m in harness.others if m["To"] == to]
    return mail


def _code(mail: EmailMessage) -> str:
    found = re.search(r"^CONFIRM ([A-Z0-9-]+)$", body(mail), re.MULTILINE)
    assert found is not None, body(mail)
    return found.group(1)


def _claim(harness: Harness, claimer: str = ALIAS, owner: str = JEANNE) -> str:
    harness.exchange(claimer, f"IAMALSO {owner}\n")
    return _code(_code_mail(harness, owner))


def test_iamalso_links_nothing_and_mails_a_code_to_the_claimed_address(harness: Harness) -> None:
    register_simply(harness, JEANNE, "Jeanne")
    reply = harness.exchange(ALIAS, f"IAMALSO {JEANNE}\n")
    assert "[Error Flag]" not in reply["Subject"]
    assert body(reply).endswith(
        f"> IAMALSO {JEANNE}\n"
        "Nothing is linked yet. A confirmation code has been mailed to jeanne@example.org. "
        "jeanne@work.example becomes an address of that registration only when CONFIRM <code> is "
        "sent back from jeanne@example.org, within 3 days, and then jeanne@work.example answers the "
        "code the judge mails it. If nobody does, nothing changes.\n"
    )
    assert person(harness, ALIAS) is None
    stored = person(harness, JEANNE)
    assert stored is not None and stored.addresses == [JEANNE]
    mail = _code_mail(harness, JEANNE)
    code = _code(mail)
    assert mail["Subject"] == "XPY Confirmation needed"
    assert body(mail) == (
        "The address jeanne@work.example asks to be linked to your registration on the "
        "judge XPY, with IAMALSO. Once linked, mail from jeanne@work.example would be read as yours "
        "(it gives no game password).\n"
        "\n"
        "If this was you, answer from this address (jeanne@example.org) with this line:\n"
        "\n"
        f"CONFIRM {code}\n"
        "\n"
        "The code works once, only from this address, until Thu Nov 26 2026 09:00:00 +0000. If "
        "this was not you, do nothing: nothing changes and the code expires.\n"
    )
    assert ALIAS not in {str(m["To"]) for m in harness.others}  # the code never goes to the claimer
    assert audit(harness, AuditKind.NEW_ADDRESS) == []


def test_the_code_is_random_and_stored_only_hashed(harness: Harness) -> None:
    register_simply(harness, JEANNE, "Jeanne")
    register_simply(harness, "paul@example.org", "Paul")
    first = _claim(harness)
    second = _claim(harness, "p2@work.example", "paul@example.org")
    assert first != second
    assert re.fullmatch(r"[A-Z2-9]{4}(-[A-Z2-9]{4}){3}", first)
    with harness.db.unit_of_work(readonly=True) as uow:
        rows = uow.session.query(AddressClaim).all()
        stored = " ".join(f"{row.token_hash} {row.payload}" for row in rows)
    assert len(rows) == 2
    for code in (first, second):
        assert code not in stored and code.replace("-", "") not in stored.upper()


def test_confirm_from_the_claimed_address_then_from_the_claimer_links_it(harness: Harness) -> None:
    register_simply(harness, JEANNE, "Jeanne")
    code = _claim(harness)
    reply = harness.exchange(JEANNE, f"CONFIRM {code.lower()}\n")
    assert "[Error Flag]" not in reply["Subject"]
    assert (
        "Confirmed.\nA confirmation code has been mailed to jeanne@work.example: it becomes an "
        "address of your registration only when CONFIRM <code> comes back from it, within 3 days."
    ) in body(reply)
    assert person(harness, ALIAS) is None  # the asking address has not proved itself yet
    linked = harness.exchange(ALIAS, f"CONFIRM {_code(_code_mail(harness, ALIAS))}\n")
    assert "Confirmed: jeanne@work.example is now an address of Jeanne's registration." in body(linked)
    stored = person(harness, ALIAS)
    assert stored is not None and stored.addresses == [JEANNE, ALIAS] and stored.primary == JEANNE
    [told] = harness.others
    assert told["To"] == JEANNE
    assert body(told) == "jeanne@work.example confirmed: it is now an address of your registration on the judge XPY.\n"
    assert audit(harness, AuditKind.NEW_ADDRESS) == [(ALIAS, f"new address confirmed by {ALIAS}")]
    again = harness.exchange(ALIAS, f"IAMALSO {JEANNE}\nWHOIS jeanne@work\n")
    assert "jeanne@work.example is already an address of Jeanne's registration." in body(again)
    assert "Package:   no" in body(again)  # now the person's own record, shown whole


def test_the_right_code_from_any_other_address_does_nothing(harness: Harness) -> None:
    register_simply(harness, JEANNE, "Jeanne")
    code = _claim(harness)
    for sender in (ALIAS, "mallory@evil.example"):
        reply = harness.exchange(sender, f"CONFIRM {code}\n")
        assert "[Error Flag]" in reply["Subject"]
        assert NO_CLAIM in body(reply)
    assert person(harness, ALIAS) is None
    assert "Confirmed" in body(harness.exchange(JEANNE, f"CONFIRM {code}\n"))  # still usable by its owner


def test_a_code_works_once(harness: Harness) -> None:
    register_simply(harness, JEANNE, "Jeanne")
    code = _claim(harness)
    harness.exchange(JEANNE, f"CONFIRM {code}\n")
    reply = harness.exchange(JEANNE, f"CONFIRM {code}\n")
    assert NO_CLAIM in body(reply)
    assert harness.others == []


def test_a_code_expires_after_three_days(harness: Harness) -> None:
    register_simply(harness, JEANNE, "Jeanne")
    code = _claim(harness)
    harness.clock.advance(hours=72)
    reply = harness.exchange(JEANNE, f"CONFIRM {code}\n")
    assert NO_CLAIM in body(reply)
    assert person(harness, ALIAS) is None


def test_five_wrong_codes_from_the_address_kill_its_claims(harness: Harness) -> None:
    register_simply(harness, JEANNE, "Jeanne")
    code = _claim(harness)
    for _ in range(5):
        assert NO_CLAIM in body(harness.exchange(JEANNE, "CONFIRM AAAA-BBBB-CCCC-DDDD\n"))
    assert NO_CLAIM in body(harness.exchange(JEANNE, f"CONFIRM {code}\n"))
    assert person(harness, ALIAS) is None


def test_at_most_three_codes_wait_for_one_address(harness: Harness) -> None:
    register_simply(harness, JEANNE, "Jeanne")
    for n in range(3):
        harness.exchange(f"claimer{n}@example.net", f"IAMALSO {JEANNE}\n")
        assert len([m for m in harness.others if m["To"] == JEANNE]) == 1
    reply = harness.exchange("claimer3@example.net", f"IAMALSO {JEANNE}\n")
    assert "[Error Flag]" in reply["Subject"]
    assert (
        "Nothing was linked.\nCodes already wait for an answer from jeanne@example.org; no new one "
        "was mailed."
    ) in body(reply)
    assert harness.others == []


def test_the_code_mail_is_in_the_owner_s_language(harness: Harness) -> None:
    register_simply(harness, JEANNE, "Jeanne", language="fr")
    harness.exchange(ALIAS, f"IAMALSO {JEANNE}\n")
    mail = _code_mail(harness, JEANNE)
    assert "L'adresse jeanne@work.example demande à être liée à votre inscription sur le juge XPY" in body(mail)
    assert "si ce n'était pas vous, ne faites rien" in body(mail).lower()


def test_an_unknown_address_is_refused(harness: Harness) -> None:
    reply = harness.exchange(ALIAS, f"IAMALSO {JEANNE}\n")
    assert "[Error Flag]" in reply["Subject"]
    assert (
        "No registration has the address jeanne@example.org. Send IAMALSO with an address you "
        "registered, or register with REGISTER."
    ) in body(reply)
    assert person(harness, ALIAS) is None
    assert harness.others == []


def test_an_unusable_address_is_refused_with_a_sentence(harness: Harness) -> None:
    reply = harness.exchange(ALIAS, "IAMALSO jeanne@例子..example\n")
    assert "[Error Flag]" in reply["Subject"]
    assert "This is not a mail address: jeanne@例子..example (" in body(reply)
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
    assert harness.others == []


def test_a_claimer_who_registered_meanwhile_is_not_moved_by_the_confirmation(harness: Harness) -> None:
    register_simply(harness, JEANNE, "Jeanne")
    code = _claim(harness)
    register(harness, ALIAS, "Name: Other", "Country: Italy")
    reply = harness.exchange(JEANNE, f"CONFIRM {code}\n")
    assert "jeanne@work.example now belongs to another registration" in body(reply)
    other = person(harness, ALIAS)
    assert other is not None and other.name == "Other"


def test_a_confirmed_alias_still_needs_the_power_password(harness: Harness) -> None:
    addresses = form_game(harness, "demo")
    owner = addresses[3]
    letter = powers_of(harness, "demo")[owner][0]
    code = _claim(harness, "claimer@example.net", owner)
    harness.exchange(owner, f"CONFIRM {code}\n")
    refused = harness.exchange("claimer@example.net", f"SIGNON {letter}demo not-the-password\n")
    assert "[Error Flag]" in refused["Subject"]
    accepted = harness.exchange("claimer@example.net", f"SIGNON {letter}demo pw3\n")
    assert "[Error Flag]" not in accepted["Subject"]


def test_the_guides_quote_the_iamalso_reply_as_the_judge_gives_it(harness: Harness) -> None:
    from pathlib import Path

    from judge.i18n import translation

    docs = Path(__file__).resolve().parents[2] / "docs"
    register_simply(harness, JEANNE, "Jeanne")
    reply = harness.exchange(ALIAS, f"IAMALSO {JEANNE}\n")
    answer = body(reply).split(f"> IAMALSO {JEANNE}\n")[1].strip()
    assert f"> {answer}\n" in (docs / "player-guide.md").read_text(encoding="utf-8")
    # The French guide quotes the same reply as a French reader gets it.
    template = (
        "Nothing is linked yet. A confirmation code has been mailed to {address}. {sender} becomes an "
        "address of that registration only when CONFIRM <code> is sent back from {address}, within "
        "{days} days, and then {sender} answers the code the judge mails it. If nobody does, nothing "
        "changes."
    )
    assert template.format(address=JEANNE, sender=ALIAS, days=3) == answer
    french = translation("fr").gettext(template).format(address=JEANNE, sender=ALIAS, days=3)
    assert f"> {french}\n" in (docs / "fr" / "guide-joueur.md").read_text(encoding="utf-8")


@pytest.mark.engine_sql
def test_claims_expired_a_month_ago_are_forgotten(harness: Harness) -> None:
    register_simply(harness, JEANNE, "Jeanne")
    _claim(harness)
    harness.clock.advance(hours=24 * 34)
    _claim(harness, "other@work.example")
    with harness.db.unit_of_work(readonly=True) as uow:
        assert [row.requester for row in uow.session.query(AddressClaim).all()] == ["other@work.example"]


def test_an_unconfirmed_claimer_cannot_rewrite_the_registration(harness: Harness) -> None:
    register(harness, JEANNE, "Name: Jeanne", "Country: France", "Phone: 555 1234")
    harness.exchange("mallory@evil.example", f"IAMALSO {JEANNE}\n")
    reply = register(harness, "mallory@evil.example", "Name: Mallory", "Phone: 0", f"Email: {JEANNE}")
    assert "555 1234" not in body(reply)
    jeanne = person(harness, JEANNE)
    assert jeanne is not None
    assert (jeanne.name, jeanne.phone, jeanne.addresses) == ("Jeanne", "555 1234", [JEANNE])
    assert person(harness, "mallory@evil.example") is None
