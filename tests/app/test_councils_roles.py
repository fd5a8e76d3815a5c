"""Seed 003, rules 1 and 3, by mail: the General alone orders, votes and concedes; press goes
from Ambassadors to Ambassadors; the General writes only to his own council (issue 17)."""

from __future__ import annotations

import pytest
from sqlalchemy import event

from tests.app.conftest import Harness, text
from tests.app.councils_helpers import MASTER, ambassador, form_council_game, general, seated
from tests.app.reports_helpers import address_of, password_of, start_game

pytestmark = pytest.mark.engine_blind  # mail routing and wording: SQLite only, but the tests marked engine_sql


def test_an_ambassador_may_not_order_and_is_told_why(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    amb = ambassador(members, "FRANCE")
    reply = text(harness.exchange(amb.address, f"{amb.signon}\nA Par-Bur\n"))
    assert (
        "Only your council's General-in-chief submits orders for France (councils, rule 1)" in reply
    )
    gen = general(members, "FRANCE")
    reply = text(harness.exchange(gen.address, f"{gen.signon}\nA Par-Bur\n"))
    assert "General-in-chief submits orders" not in reply
    assert "Par" in reply and "Burgundy" in reply


def test_the_refusal_is_in_the_members_language(harness: Harness) -> None:
    form_council_game(harness, languages={n: "fr" for n in range(21)})
    amb = ambassador(seated(harness), "GERMANY")
    reply = text(harness.exchange(amb.address, f"{amb.signon}\nA Mun-Ruh\n"))
    assert "Seul le Général en chef de votre Conseil remet les ordres" in reply


def test_only_the_general_votes_a_draw_or_concedes(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    amb = ambassador(members, "ITALY", 2)
    reply = text(harness.exchange(amb.address, f"{amb.signon}\nSET DRAW\nSET CONCEDE F\n"))
    assert "Only your council's General-in-chief proposes and votes draws for Italy" in reply
    assert "Only your council's General-in-chief may concede for Italy" in reply
    gen = general(members, "ITALY")
    reply = text(harness.exchange(gen.address, f"{gen.signon}\nSET DRAW\n"))
    assert "General-in-chief proposes" not in reply
    with harness.db.unit_of_work(readonly=True) as uow:
        votes = uow.press.votes(uow.games.require("demo"))
        assert len(votes) == 1


def _readers(harness: Harness) -> set[str]:
    return {a.strip() for m in harness.others for a in str(m["To"]).split(",")}


def test_the_general_writes_only_to_his_own_ambassadors(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    gen = general(members, "FRANCE")
    refused = text(
        harness.exchange(gen.address, f"{gen.signon}\nPRESS TO E\nLet us ally.\nENDPRESS\n")
    )
    assert "The General-in-chief may write only to the Ambassadors of his own council" in refused
    assert "PRESS TO F" in refused
    assert not [m for m in harness.others if "Press" in str(m["Subject"])]
    refused = text(
        harness.exchange(gen.address, f"{gen.signon}\nBROADCAST\nHello all.\nENDPRESS\n")
    )
    assert "may write only to the Ambassadors of his own council" in refused
    harness.exchange(
        gen.address, f"{gen.signon}\nPRESS TO F\nHold Burgundy at all costs.\nENDPRESS\n"
    )
    own = {ambassador(members, "FRANCE", 1).address, ambassador(members, "FRANCE", 2).address}
    assert _readers(harness) == own | {MASTER}


def test_ambassadors_reach_ambassadors_never_a_general(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    amb = ambassador(members, "FRANCE")
    reply = text(
        harness.exchange(amb.address, f"{amb.signon}\nPRESS TO E\nShall we talk?\nENDPRESS\n")
    )
    assert "Press sent: 2 council members read it" in reply
    english = {ambassador(members, "ENGLAND", 1).address, ambassador(members, "ENGLAND", 2).address}
    assert _readers(harness) == english | {MASTER}
    assert general(members, "ENGLAND").address not in _readers(harness)


@pytest.mark.engine_sql
def test_one_ambassador_per_nation_on_a_multi_party_thread(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    amb = ambassador(members, "FRANCE", 2)
    harness.exchange(amb.address, f"{amb.signon}\nPRESS TO EGR\nA four-way room.\nENDPRESS\n")
    readers = _readers(harness) - {MASTER}
    by_nation = [m.power for m in members if m.address in readers]
    assert sorted(by_nation) == ["ENGLAND", "GERMANY", "RUSSIA"]
    assert all(m.role == "ambassador" for m in members if m.address in readers)


def test_a_broadcast_reaches_every_ambassador_and_no_general(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    amb = ambassador(members, "TURKEY")
    harness.exchange(
        amb.address, f"{amb.signon}\nBROADCAST\nThe tower of Babel is open.\nENDPRESS\n"
    )
    expected = {m.address for m in members if m.role == "ambassador" and m.address != amb.address}
    assert _readers(harness) - {MASTER} == expected


@pytest.mark.engine_sql
def test_a_game_without_councils_reads_no_council_table(harness: Harness) -> None:
    start_game(harness)
    statements: list[str] = []

    def seen(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        statements.append(statement)

    event.listen(harness.db.engine, "before_cursor_execute", seen)
    try:
        harness.exchange(
            address_of("FRANCE"),
            f"SIGNON Fdemo {password_of('FRANCE')}\nA Par-Bur\nSET DRAW\nPRESS TO E\nhello\nENDPRESS\n",
        )
    finally:
        event.remove(harness.db.engine, "before_cursor_execute", seen)
    assert statements
    assert not [s for s in statements if "council_" in s]


def test_an_observers_press_reaches_the_ambassadors_not_the_general(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    harness.exchange("watcher@example.net", "OBSERVE demo watchpw\n")
    harness.exchange(
        "watcher@example.net",
        "SIGNON Odemo watchpw\nPRESS TO E\nGreetings from the gallery.\nENDPRESS\n",
    )
    english = {m.address for m in members if m.power == "ENGLAND" and m.role == "ambassador"}
    assert _readers(harness) == english | {MASTER}
    assert general(members, "ENGLAND").address not in _readers(harness)


def test_press_to_observers_from_an_ambassador_is_refused(harness: Harness) -> None:
    form_council_game(harness)
    amb = ambassador(seated(harness), "AUSTRIA")
    reply = text(
        harness.exchange(amb.address, f"{amb.signon}\nPRESS TO O\nHello gallery.\nENDPRESS\n")
    )
    assert "press to observers is not allowed" in reply
    assert not [m for m in harness.others if "Press" in str(m["Subject"])]


def test_a_member_with_no_address_of_his_own_gets_his_mail_at_his_registered_one() -> None:
    """member_addresses: an empty SET ADDRESS list is no choice: the primary address stands."""
    from judge.app.audience.council_members import ADDRESS_KEY, member_addresses
    from judge.db.models import CouncilMember, Person, PersonAddress

    person = Person(addresses=[PersonAddress(address="old@example.net", is_primary=False),
                               PersonAddress(address="main@example.net", is_primary=True)])  # fmt: skip
    assert member_addresses(CouncilMember(extra={ADDRESS_KEY: []}), person) == ["main@example.net"]
    assert member_addresses(CouncilMember(extra=None), person) == ["main@example.net"]
    chosen = CouncilMember(extra={ADDRESS_KEY: ["a@example.net", "", "b@example.net"]})
    assert member_addresses(chosen, person) == ["a@example.net", "b@example.net"]
    assert member_addresses(CouncilMember(extra={}), None) == []
