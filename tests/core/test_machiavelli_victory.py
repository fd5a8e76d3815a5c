"""The Renaissance game's victory and what a silent power keeps (issue 33): a power wins with the
scenario's cities (15) and two home countries (:mod:`judge.core.machiavelli.victory`); a power
with no orders at the adjustments keeps, nearest home first, what its ducats pay for
(:mod:`judge.core.machiavelli.disorder`)."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from judge.core.machiavelli.adjustments import Maintain
from judge.core.machiavelli.board import Control, load_board
from judge.core.machiavelli.campaign import MachiavelliPosition, opening_position
from judge.core.machiavelli.disorder import upkeep_in_disorder
from judge.core.machiavelli.money import adjudicate_money_adjustments, finances
from judge.core.machiavelli.treasury import Finances
from judge.core.machiavelli.victory import standings, winner
from judge.core.phase import Phase, PhaseType, Season
from judge.core.units import Unit, UnitType

BOARD = load_board()
START = opening_position(BOARD)
CITIES = sorted(BOARD.cities)


def with_cities(position: MachiavelliPosition, owned: dict[str, list[str]], countries: dict[str, str]) -> MachiavelliPosition:
    cities = {city: power for power, these in owned.items() for city in these}
    return replace(
        position,
        control=Control(position.control.provinces, MappingProxyType(cities)),
        countries=MappingProxyType(countries),
    )


def test_fifteen_cities_and_two_home_countries_win() -> None:
    assert BOARD.game_map.win_centers == 15
    won = with_cities(START, {"FLORENCE": CITIES[:15]}, {"FLORENCE": "FLORENCE", "MILAN": "FLORENCE"})
    assert winner(BOARD, won) == "FLORENCE"
    assert standings(BOARD, won)["FLORENCE"].countries == ("FLORENCE", "MILAN")


def test_fourteen_cities_or_one_home_country_do_not_win() -> None:
    few = with_cities(START, {"FLORENCE": CITIES[:14]}, {"FLORENCE": "FLORENCE", "MILAN": "FLORENCE"})
    assert winner(BOARD, few) is None
    alone = with_cities(START, {"FLORENCE": CITIES[:20]}, {"FLORENCE": "FLORENCE", "MILAN": "MILAN"})
    assert winner(BOARD, alone) is None


def test_two_powers_at_the_count_the_one_with_more_cities_wins_and_a_tie_is_no_win() -> None:
    countries = {"FLORENCE": "FLORENCE", "MILAN": "FLORENCE", "VENICE": "VENICE", "PAPACY": "VENICE"}
    more = with_cities(START, {"FLORENCE": CITIES[:16], "VENICE": CITIES[16:31]}, countries)
    assert winner(BOARD, more) == "FLORENCE"
    tied = with_cities(START, {"FLORENCE": CITIES[:15], "VENICE": CITIES[15:30]}, countries)
    assert winner(BOARD, tied) is None


def test_a_silent_power_maintains_nearest_home_first_garrisons_first() -> None:
    far = Unit("VENICE", UnitType.ARMY, "SIE")
    position = replace(START, units=(*START.units, far))
    orders = upkeep_in_disorder(BOARD, position, "VENICE")
    assert orders[-1] == Maintain("SIE")
    assert orders[0] == Maintain("VEN", garrison=True)  # a garrison of its home, before the armies
    held = {u.province for u in position.units if u.power == "VENICE"} | {"VEN"}
    assert {order.province for order in orders} == held


def test_a_silent_power_keeps_what_its_ducats_pay_for_and_loses_the_farthest() -> None:
    far = Unit("VENICE", UnitType.ARMY, "SIE")
    winter = replace(
        START, phase=Phase.of(Season.WINTER, 1454, PhaseType.ADJUSTMENT), units=(*START.units, far)
    )
    money = finances(BOARD, winter)
    poor = replace(winter, money=Finances(MappingProxyType({**money.treasuries, "VENICE": 12}), money.loans))
    paid = adjudicate_money_adjustments(BOARD, poor, {"VENICE": upkeep_in_disorder(BOARD, poor, "VENICE")})
    kept = {u.province for u in paid.position.units if u.power == "VENICE"}
    assert paid.position.garrisons.get("VEN") == "VENICE"
    assert "SIE" not in kept and len(kept) == 3  # 12 ducats: four upkeeps, the farthest unit lost
