"""Release of orders, ONR, grace and early elections by mail (issue 17, seed 003 rules 4 and 5).

Who may READY: the General alone (all-hold orders need READY HOLD). Who
may COUNCIL ONR / COUNCIL REPLACE: a master alone. What is revealed: ONR
counts to the master only; the grace and early election to the late
council and the masters; no other council is told.
"""

from __future__ import annotations

from judge.app.phases.guarded_scheduler import process_due
from tests.app.conftest import Harness, text
from tests.app.councils_helpers import (
    MASTER,
    Seated,
    ambassador,
    form_council_game,
    general,
    seated,
)

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


def _elect_everyone(harness: Harness) -> list[Seated]:
    """Every council re-elects its provisional General at the first election."""
    members = seated(harness)
    for member in members:
        _mail(harness, member, f"VOTE {_id(harness, general(members, member.power).address)}")
    return seated(harness)


def _phase(harness: Harness) -> str:
    with harness.db.unit_of_work(readonly=True) as uow:
        return uow.games.require("demo").current_phase or ""


def test_only_the_general_releases_and_all_hold_needs_a_confirmation(harness: Harness) -> None:
    form_council_game(harness)
    members = _elect_everyone(harness)
    assert "Only your council's General-in-chief releases" in _mail(harness, ambassador(members, "FRANCE"), "READY")
    france = general(members, "FRANCE")
    assert "READY HOLD" in _mail(harness, france, "READY")
    assert "released to the judge" in _mail(harness, france, "READY HOLD")
    assert "released to the judge" in _mail(harness, general(members, "ENGLAND"), OPENINGS["ENGLAND"] + "\nREADY")
    master = text(harness.exchange(MASTER, "SIGNON Mdemo masterpw\nREADY\n"))
    assert "only a council member" in master


def test_a_missed_release_opens_a_grace_and_a_substitute_is_elected(harness: Harness) -> None:
    form_council_game(harness)
    members = _elect_everyone(harness)
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
    assert _phase(harness) == "F1901M"


def test_a_release_during_the_grace_cancels_the_early_election(harness: Harness) -> None:
    form_council_game(harness)
    members = _elect_everyone(harness)
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
    form_council_game(harness)
    members = _elect_everyone(harness)
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
    form_council_game(harness)
    members = _elect_everyone(harness)
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
    form_council_game(harness)
    members = _elect_everyone(harness)
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
