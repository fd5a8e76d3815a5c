"""Release of orders, ONR, grace and early elections by mail (issue 17, seed 003 rules 4 and 5).

Who may READY: the General alone (all-hold orders need READY HOLD). Who
may COUNCIL ONR / COUNCIL REPLACE: a master alone. What is revealed: ONR
counts to the master only; the grace and early election to the late
council and the masters; no other council is told.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from judge.app.councils import releases
from judge.app.phases.guarded_scheduler import process_due
from judge.i18n import translation
from tests.app.conftest import Harness, text
from tests.app.councils_helpers import (
    MASTER,
    Seated,
    ambassador,
    elected_council_game,
    general,
    seated,
)

pytestmark = pytest.mark.engine_blind  # mail routing and wording: SQLite only, but the tests marked engine_sql

OPENINGS = {
    "AUSTRIA": "A VIE - GAL\nA BUD - SER\nF TRI - ALB",
    "ENGLAND": "F LON - NTH\nF EDI - NWG\nA LVP - YOR",
    "FRANCE": "A PAR - BUR\nA MAR S A PAR - BUR\nF BRE - MAO",
    "GERMANY": "A BER - KIE\nA MUN - BUR\nF KIE - DEN",
    "ITALY": "A ROM - APU\nA VEN H\nF NAP - ION",
    "RUSSIA": "A WAR - GAL\nA MOS - UKR\nF SEV - BLA\nF STP/SC - BOT",
    "TURKEY": "F ANK - BLA\nA CON - BUL\nA SMY - ARM",
}


def _id(harness: Harness, address: str) -> int:
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        person = uow.people.by_address(address)
        return next(m.id for m in uow.councils.members(game) if m.person_id == person.id)


def _mail(harness: Harness, who: Seated, body: str) -> str:
    return text(harness.exchange(who.address, f"{who.signon}\n{body}\n"))


def _phase(harness: Harness) -> str:
    with harness.db.unit_of_work(readonly=True) as uow:
        return uow.games.require("demo").current_phase or ""


def test_only_the_general_releases_and_all_hold_needs_a_confirmation(harness: Harness) -> None:
    members = elected_council_game(harness)
    assert "Only your council's General-in-chief releases" in _mail(harness, ambassador(members, "FRANCE"), "READY")
    france = general(members, "FRANCE")
    assert "READY HOLD" in _mail(harness, france, "READY")
    assert "released to the judge" in _mail(harness, france, "READY HOLD")
    assert "released to the judge" in _mail(harness, general(members, "ENGLAND"), OPENINGS["ENGLAND"] + "\nREADY")
    master = text(harness.exchange(MASTER, "SIGNON Mdemo masterpw\nREADY\n"))
    assert "only a council member" in master


@pytest.mark.engine_sql
def test_a_missed_release_opens_a_grace_and_a_substitute_is_elected(harness: Harness) -> None:
    members = elected_council_game(harness)
    for power, orders in OPENINGS.items():
        body = orders if power == "FRANCE" else orders + "\nREADY"
        _mail(harness, general(members, power), body)  # France's General saves drafts only
    with harness.db.unit_of_work(readonly=True) as uow:
        deadline = uow.games.require("demo").deadline_at
    harness.clock.set(deadline)
    harness.new_mail()
    process_due(harness.services)
    assert _phase(harness) == "S1901M"  # not processed: France's orders are drafts
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        early = [e for e in uow.councils.open_elections(game) if e.kind == "early"]
        assert [e.power for e in early] == ["FRANCE"]
        assert uow.councils.general(game, "FRANCE").onr_count == 1  # type: ignore[union-attr]
    grace = [m for m in harness.new_mail() if "did not release" in text(m)]
    france = [m for m in members if m.power == "FRANCE"]
    assert {str(m["To"]) for m in grace} == {*(m.address for m in france), MASTER}
    # the master sees the ONR count; a player may not ask
    onr = text(harness.exchange(MASTER, "SIGNON Mdemo masterpw\nCOUNCIL ONR\n"))
    assert "France" in onr and "1 ONR" in onr
    assert "only" in text(harness.exchange(france[1].address, f"{france[1].signon}\nCOUNCIL ONR\n")).lower()
    # the early election names the first Ambassador; he orders and releases; the phase is processed
    substitute = ambassador(members, "FRANCE", 1)
    for member in france:
        _mail(harness, member, f"VOTE {_id(harness, substitute.address)}")
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        assert uow.councils.general(game, "FRANCE").id == _id(harness, substitute.address)  # type: ignore[union-attr]
    members = seated(harness)
    assert "released" in _mail(harness, general(members, "FRANCE"), "A PAR - PIC\nA MAR - SPA\nF BRE - MAO\nREADY")
    harness.clock.advance(hours=1)
    process_due(harness.services)
    assert _phase(harness) == "S1901M"  # the incumbent's 24 hours run on (rule 4)
    harness.clock.set(deadline + timedelta(hours=24))
    process_due(harness.services)
    assert _phase(harness) == "F1901M"  # the substitute's orders, resolved at the end of the grace


def test_a_release_during_the_grace_cancels_the_early_election(harness: Harness) -> None:
    members = elected_council_game(harness)
    for power, orders in OPENINGS.items():
        _mail(harness, general(members, power), orders if power == "FRANCE" else orders + "\nREADY")
    with harness.db.unit_of_work(readonly=True) as uow:
        deadline = uow.games.require("demo").deadline_at
    harness.clock.set(deadline)
    process_due(harness.services)
    reply = _mail(harness, general(members, "FRANCE"), "READY")
    assert "early election of your council is cancelled" in reply
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        assert [(e.kind, e.state) for e in uow.councils.elections(game, power="FRANCE")][-1] == ("early", "cancelled")
    harness.clock.advance(hours=1)
    process_due(harness.services)
    assert _phase(harness) == "F1901M"


def test_the_master_replaces_a_general(harness: Harness) -> None:
    members = elected_council_game(harness)
    old = general(members, "FRANCE")
    reply = text(harness.exchange(MASTER, "SIGNON Mdemo masterpw\nCOUNCIL REPLACE F\n"))
    assert "steps down" in reply
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        assert uow.councils.general(game, "FRANCE") is None
        (early,) = uow.councils.open_elections(game, power="FRANCE")
        assert early.kind == "early"
    assert "is not a member of your council who may be elected" in _mail(
        harness, ambassador(members, "FRANCE"), f"VOTE {_id(harness, old.address)}")
    player = text(harness.exchange(old.address, f"{old.signon}\nCOUNCIL REPLACE F\n"))
    assert "master" in player.lower()


def test_an_incumbent_who_never_releases_gives_no_orders(harness: Harness) -> None:
    members = elected_council_game(harness)
    for power, orders in OPENINGS.items():
        _mail(harness, general(members, power), orders if power == "FRANCE" else orders + "\nREADY")
    with harness.db.unit_of_work(readonly=True) as uow:
        deadline = uow.games.require("demo").deadline_at
    harness.clock.set(deadline)
    process_due(harness.services)  # the grace opens; nobody votes in the early election
    harness.clock.advance(hours=25)
    process_due(harness.services)
    process_due(harness.services)
    assert _phase(harness) == "F1901M"
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        record = uow.phases.current(game)
        assert record is not None
        french = sorted(u["location"] if isinstance(u, dict) and "location" in u else str(u)
                        for u in record.position_before["units"] if "FRANCE" in str(u))  # fmt: skip
        # the drafts (A PAR - BUR, F BRE - MAO) were set aside: France's units held
        assert any("par" in u.lower() for u in french) and any("bre" in u.lower() for u in french)


def test_orders_changed_to_all_hold_after_ready_need_the_confirmation(harness: Harness) -> None:
    members = elected_council_game(harness)
    for power, orders in OPENINGS.items():
        _mail(harness, general(members, power), orders + "\nREADY")
    _mail(harness, general(members, "FRANCE"), "A PAR H\nA MAR H\nF BRE H")  # all hold now, no READY HOLD
    with harness.db.unit_of_work(readonly=True) as uow:
        deadline = uow.games.require("demo").deadline_at
    harness.clock.set(deadline)
    process_due(harness.services)
    assert _phase(harness) == "S1901M"  # an ONR: the grace opens
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        assert [e.power for e in uow.councils.open_elections(game) if e.kind == "early"] == ["FRANCE"]


def _doc(page: str) -> str:
    """A page of docs/ with its line breaks folded."""
    path = Path(__file__).resolve().parents[2] / "docs" / page
    return " ".join(line.strip() for line in path.read_text(encoding="utf-8").splitlines())


def _grace_with_a_substitute(harness: Harness) -> tuple[list[Seated], Seated, Seated]:
    """France's General misses his release; his council names Ambassador 1 at once; he orders and releases.

    Returns the members as seated before, the incumbent and the substitute."""
    members = elected_council_game(harness)
    for power, orders in OPENINGS.items():
        _mail(harness, general(members, power), orders if power == "FRANCE" else orders + "\nREADY")
    with harness.db.unit_of_work(readonly=True) as uow:
        deadline = uow.games.require("demo").deadline_at
    assert deadline is not None
    harness.clock.set(deadline)
    process_due(harness.services)
    incumbent, substitute = general(members, "FRANCE"), ambassador(members, "FRANCE", 1)
    for member in (m for m in members if m.power == "FRANCE"):
        _mail(harness, member, f"VOTE {_id(harness, substitute.address)}")  # every vote in: it closes now
    assert "released" in _mail(harness, substitute, "A PAR - PIC\nA MAR - SPA\nF BRE - MAO\nREADY")
    harness.new_mail()
    return members, incumbent, substitute


def test_the_incumbent_keeps_the_whole_grace_after_the_substitute_is_named(harness: Harness) -> None:
    """Rule 4: "Le titulaire du poste, s'il se manifeste au cours des 24h, pourra rendre ses ordres et
    provoquer l'annulation des élections anticipées": the early election closed minutes into the grace,
    and 20 hours in the incumbent still comes back, orders and READY in one mail."""
    members, incumbent, _substitute = _grace_with_a_substitute(harness)
    harness.clock.advance(hours=20)
    process_due(harness.services)
    assert _phase(harness) == "S1901M"  # the substitute released, but the grace is the incumbent's
    reply = _mail(harness, incumbent, "A PAR - BUR\nA MAR S A PAR - BUR\nF BRE - MAO\nREADY")
    others = harness.others
    assert "You came back during the grace" in reply and "released to the judge" in reply
    assert "Only your council's General-in-chief" not in reply
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        assert uow.councils.general(game, "FRANCE").id == _id(harness, incumbent.address)  # type: ignore[union-attr]
        early = uow.councils.elections(game, power="FRANCE")[-1]
        assert (early.kind, early.state) == ("early", "cancelled")
    told = [m for m in others if "came back during the grace" in text(m)
            and "sits again as an Ambassador" in text(m)]
    # the council's active members (the incumbent included) and the master, each alone; no other power
    assert sorted(str(m["To"]) for m in told) == sorted([*(m.address for m in members if m.power == "FRANCE"), MASTER])
    quoted = "came back during the grace to hand in his orders: the early election is annulled"
    assert quoted in " ".join(text(told[0]).split()) and quoted in _doc("councils.md")
    french = translation("fr").gettext(releases.INCUMBENT_BACK)
    quoted = "s'est manifesté pendant le délai de grâce pour rendre ses ordres : l'élection anticipée est annulée"
    assert quoted in french and quoted in _doc("fr/conseils.md")
    harness.clock.advance(hours=1)  # as any early processing (still 3 hours before the grace's end)
    process_due(harness.services)
    assert _phase(harness) == "F1901M"  # every General released: processed without waiting for the grace
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        record = uow.phases.current(game)
        assert record is not None
        assert "BUR" in str(record.position_before["units"]).upper()  # the incumbent's orders, not the substitute's


def test_the_incumbent_reopens_no_drafts_after_the_substitute_is_named(harness: Harness) -> None:
    """Coming back is handing in orders: orders without a READY from the incumbent are refused."""
    _members, incumbent, substitute = _grace_with_a_substitute(harness)
    reply = _mail(harness, incumbent, "A PAR - BUR")
    assert "Only your council's General-in-chief submits orders" in reply
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        assert uow.councils.general(game, "FRANCE").id == _id(harness, substitute.address)  # type: ignore[union-attr]
    harness.clock.advance(hours=25)  # the grace is over: too late to come back
    reply = _mail(harness, incumbent, "READY")
    assert "You came back" not in reply
