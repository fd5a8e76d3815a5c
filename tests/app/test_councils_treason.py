"""Accusation of treason, the tribunal and escapes by mail (issue 17, seed 003 rules 6 and 8).

Who may ACCUSE: a member of the accused's own council, not himself
accused; any Ambassador may be accused (the one the two others accuse),
never the General.
What is revealed: a first accusation to its author and the masters only;
the accusation in effect to the accused, his council and the masters;
tribunal lines to the same people; never to other councils.
"""

from __future__ import annotations

import pytest

from judge.core.phase import Phase
from tests.app.conftest import Harness, text
from tests.app.councils_helpers import (
    MASTER,
    Seated,
    ambassador,
    form_council_game,
    general,
    seated,
)

pytestmark = pytest.mark.engine_blind  # mail routing and wording: SQLite only, but the tests marked engine_sql


def _id(harness: Harness, address: str) -> int:
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        member = uow.councils.member_of_person(game, uow.people.by_address(address))
        assert member is not None
        return member.id


def _status(harness: Harness, address: str) -> str:
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        person = uow.people.by_address(address)
        return next(m.status for m in uow.councils.members(game) if m.person_id == person.id)


def _mail(harness: Harness, who: Seated, body: str) -> str:
    return text(harness.exchange(who.address, f"{who.signon}\n{body}\n"))


def _accused_by_two(harness: Harness) -> tuple[Seated, Seated, Seated, list[Seated]]:
    form_council_game(harness)
    members = seated(harness)
    g, a1, a2 = general(members, "FRANCE"), ambassador(members, "FRANCE", 1), ambassador(members, "FRANCE", 2)
    first = _mail(harness, g, f"ACCUSE {_id(harness, a2.address)}")
    assert "takes effect when a second member" in first
    assert _status(harness, a2.address) == "active"
    assert {str(m["To"]) for m in harness.others} <= {MASTER}  # the accused and others are not told yet
    harness.new_mail()
    second = _mail(harness, a1, f"ACCUSE {_id(harness, a2.address)}")
    assert "now cut off" in second
    return g, a1, a2, members


@pytest.mark.engine_sql
def test_two_accusers_cut_off_the_second_ambassador(harness: Harness) -> None:
    g, a1, a2, members = _accused_by_two(harness)
    assert _status(harness, a2.address) == "accused"
    told = {str(m["To"]) for m in harness.others}
    assert told == {g.address, a1.address, a2.address, MASTER}
    # cut off: no vote, no press (the roles' rule)
    assert "no vote" in _mail(harness, a2, "VOTE ABSTAIN")
    england = ambassador(members, "ENGLAND", 1)
    press = _mail(harness, a2, "PRESS TO E\nhello\nENDPRESS")
    assert "cut off" in press
    assert not any(str(m["To"]) == england.address for m in harness.others)


def test_the_general_cannot_be_accused(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    g, a1, a2 = general(members, "FRANCE"), ambassador(members, "FRANCE", 1), ambassador(members, "FRANCE", 2)
    assert "cannot be accused" in _mail(harness, a1, f"ACCUSE {_id(harness, g.address)}")
    england = ambassador(members, "ENGLAND", 2)
    assert "no longer sits on your council" in _mail(harness, g, f"ACCUSE {_id(harness, england.address)}")
    master = text(harness.exchange(MASTER, f"SIGNON Mdemo masterpw\nACCUSE {_id(harness, a2.address)}\n"))
    assert "only a council member" in master
    assert _status(harness, a2.address) == "active"


def test_the_tribunal_reaches_the_council_and_the_master_only(harness: Harness) -> None:
    g, a1, a2, members = _accused_by_two(harness)
    reply = _mail(harness, a2, "TRIBUNAL I am loyal, ask Vienna.")
    assert "Sent to the tribunal" in reply
    lines = [m for m in harness.others if str(m["Subject"]).endswith("Tribunal")]
    assert {str(m["To"]) for m in lines} == {g.address, a1.address, MASTER}
    assert "I am loyal, ask Vienna." in text(lines[0])
    answer = _mail(harness, g, "TRIBUNAL Prove it.")
    assert "Sent to the tribunal" in answer
    assert {str(m["To"]) for m in harness.others if str(m["Subject"]).endswith("Tribunal")} == {
        a1.address, a2.address, MASTER}
    outsider = general(members, "ENGLAND")
    assert "no tribunal" in _mail(harness, outsider, "TRIBUNAL let me in")


def test_one_accuser_withdrawing_rehabilitates(harness: Harness) -> None:
    g, a1, a2, _members = _accused_by_two(harness)
    reply = _mail(harness, a1, f"ACCUSE WITHDRAW {_id(harness, a2.address)}")
    assert "rehabilitated" in reply
    assert _status(harness, a2.address) == "active"
    assert {str(m["To"]) for m in harness.others} == {g.address, a1.address, a2.address, MASTER}
    assert "no accusation" in _mail(harness, g, f"ACCUSE WITHDRAW {_id(harness, g.address)}")


@pytest.mark.engine_sql
def test_escape_after_a_year_under_arrest(harness: Harness) -> None:
    _g, _a1, a2, _members = _accused_by_two(harness)
    assert "after a full game year" in _mail(harness, a2, "ESCAPE WAITLIST")
    with harness.db.unit_of_work() as uow:  # a year passes (the phases are another area's)
        game = uow.games.require("demo")
        game.current_phase = str(Phase.parse("S1902M"))
    reply = _mail(harness, a2, "ESCAPE WAITLIST")
    assert "waiting list" in reply
    assert _status(harness, a2.address) == "left"
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        member = uow.councils.members(game, power="FRANCE")
        row = next(m for m in member if m.id == _id_any(uow, game, a2.address))
        assert row.left_at is not None
        entry = row.extra["waitlist"]
        assert entry["from_phase"] == "S1902M"  # a year after his arrest in S1901M (rule 8: his exclusion)
        # rule 8: a real spy only to his true nation, a loyal member to any foreign power
        expected = [row.true_power] if row.true_power else sorted(
            {"AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"})
        assert entry["powers"] == expected
    assert {str(m["To"]) for m in harness.others} == {MASTER}


def _id_any(uow, game, address: str) -> int:  # type: ignore[no-untyped-def]
    person = uow.people.by_address(address)
    return next(m.id for m in uow.councils.members(game) if m.person_id == person.id)


def test_refusals_in_french(harness: Harness) -> None:
    form_council_game(harness, languages={n: "fr" for n in range(21)})
    members = seated(harness)
    g, a1 = general(members, "FRANCE"), ambassador(members, "FRANCE", 1)
    assert "ne peut pas être mis en accusation" in _mail(harness, a1, f"ACCUSE {_id(harness, g.address)}")
    assert "Seul le Général en chef de votre Conseil rend ses ordres" in _mail(harness, a1, "READY")
