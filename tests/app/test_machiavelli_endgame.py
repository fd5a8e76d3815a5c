"""The Renaissance game's edges by mail (issue 33): a silent power's units hold and its garrisons
stay, a power that loses its last city is eliminated (its seat leaves the game, the results say
so), and a power with 15 cities and two home countries wins: the game ends with the Victory
notice and the final summary, as any game's end.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any

import pytest

from judge.core.machiavelli.campaign import update_control
from judge.core.machiavelli.serialization import position_from_json, position_to_json
from judge.db.enums import SeatStatus
from tests.app.conftest import Harness
from tests.app.masters_helpers import MASTER, MASTER_PASSWORD, read, state_of
from tests.app.test_machiavelli_deadlines import kept_position, start
from tests.app.test_machiavelli_mail import BOARD, as_power, exchange_ok, process, seats

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def keep(harness: Harness, position: dict[str, Any]) -> None:
    """The open phase's board replaced, as a master's repair would (the test's hand position)."""
    with harness.db.unit_of_work() as uow:
        record = uow.phases.current(uow.games.require("mach"))
        assert record is not None
        record.position_before = position


def test_a_silent_power_holds_and_keeps_its_units_and_garrisons(harness: Harness) -> None:
    start(harness)
    process(harness)  # nobody sent orders: each keeps what its income pays for, nearest home first
    kept = kept_position(harness)
    assert kept["phase"] == "S1454M" and kept["garrisons"].get("VEN") == "VENICE"
    assert {u["power"] for u in kept["units"]} == set(BOARD.game_map.powers)
    as_power(harness, "FLORENCE", ["A ARE - SIE"])  # everyone else silent
    spring = process(harness)
    after = kept_position(harness)
    venice = seats(harness)["VENICE"]
    assert "  Venice: G VEN: no order, holds" in spring[venice]
    assert after["garrisons"].get("VEN") == "VENICE"
    assert {(u["power"], u["loc"]) for u in after["units"] if u["power"] != "FLORENCE"} == {
        (u["power"], u["loc"]) for u in kept["units"] if u["power"] != "FLORENCE"
    }
    with harness.db.unit_of_work(readonly=True) as uow:
        statuses = {s.power: s.status for s in uow.games.require("mach").seats}
    assert set(statuses.values()) == {SeatStatus.PLAYING}  # a missed season is no civil disorder yet


def test_an_elimination_and_a_victory_end_the_game_by_mail(harness: Harness) -> None:
    start(harness)
    process(harness)
    before = position_from_json(BOARD, kept_position(harness))
    # Florence's garrisons in every autonomous city and in Milan's three; Milan's country is Florence's.
    garrisons = {city: ("FLORENCE" if owner != "VENICE" else owner) for city, owner in before.garrisons.items()}
    garrisons.update({city: "FLORENCE" for city in ("MIL", "CRE", "PAV")})
    countries = {power: power for power in BOARD.game_map.powers} | {"MILAN": "FLORENCE"}
    hand = replace(
        before,
        garrisons=MappingProxyType(garrisons),
        control=update_control(BOARD, before.control, before.units, garrisons),
        countries=MappingProxyType(countries),
    )
    keep(harness, position_to_json(hand))
    naples = seats(harness)["NAPLES"]
    harness.exchange(naples, "SET LANGUAGE fr\n")  # Naples's player reads French
    harness.new_mail()
    exchange_ok(harness, MASTER, f"SIGNON Mmach {MASTER_PASSWORD}\nPROCESS\n")
    sent = harness.others
    results = {str(m["To"]): read(m) for m in sent if "Campaign results" in read(m)}
    florence, milan = seats(harness)["FLORENCE"], seats(harness)["MILAN"]
    assert "Milan is eliminated." in results[milan]
    assert "Florence has won: 18 cities and 2 home countries." in results[florence]
    victory = [m for m in sent if "Victory" in str(m["Subject"])]
    assert victory and all("Victory: L" in str(m["Subject"]) for m in victory)
    summary = next(read(m) for m in victory if str(m["To"]) == MASTER)
    # The summary counts what the Renaissance game's victory counts: cities, never supply centres.
    assert "Game 'mach' is over: Florence has won with 18 cities." in summary, summary
    assert "Cities at the end of each year:" in summary and "Cities    Score" in summary
    assert "supply centre" not in summary.lower() and "Centres" not in summary
    french = next(read(m) for m in victory if str(m["To"]) == naples)
    assert "La partie 'mach' est terminée : Florence l'a emporté avec 18 villes." in french, french
    assert "Villes à la fin de chaque année :" in french and "centres" not in french.lower()
    assert "Cities and home countries at the end:" in summary
    assert "  Florence: 18 cities; home countries: Florence, Milan" in summary
    assert "  Milan: 0 cities; home countries: -" in summary
    assert "Treasury" not in summary and "ducats" not in summary  # the books stay private
    game = state_of(harness, "mach")
    assert game.columns["state"] == "finished"
    with harness.db.unit_of_work(readonly=True) as uow:
        statuses = {s.power: s.status for s in uow.games.require("mach").seats}
    assert statuses["MILAN"] is SeatStatus.ELIMINATED
    assert statuses["FLORENCE"] is not SeatStatus.ELIMINATED
