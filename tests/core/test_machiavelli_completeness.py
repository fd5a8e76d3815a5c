"""When a power's orders of the Renaissance game are complete (issue 33): each phase's own rule
(:func:`judge.core.machiavelli.completeness.orders_owed`), which early processing waits on."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from judge.core.machiavelli.adjustments import Dismiss, Maintain, Raise
from judge.core.machiavelli.board import load_board
from judge.core.machiavelli.campaign import opening_position
from judge.core.machiavelli.completeness import orders_owed
from judge.core.machiavelli.options import FIRST_EDITION
from judge.core.machiavelli.orders import Expense, FamineRelief, GarrisonHold, ToGarrison
from judge.core.orders import Disband, Hold, Move, Retreat
from judge.core.phase import Phase, PhaseType, Season
from judge.core.position import DislodgedUnit
from judge.core.units import Unit, UnitRef, UnitType

BOARD = load_board()
START = opening_position(BOARD)
A, F = UnitType.ARMY, UnitType.FLEET


def test_a_campaign_is_complete_when_every_unit_and_garrison_is_named() -> None:
    venice = [u for u in START.units if u.power == "VENICE"]
    assert START.garrisons.get("VEN") == "VENICE"
    none = orders_owed(BOARD, START, "VENICE", ())
    assert none.owes and not none.complete
    assert set(none.units) == set(venice) and none.garrisons == ("VEN",)
    units_only = [Hold(UnitRef(u.type, u.location)) for u in venice]
    assert orders_owed(BOARD, START, "VENICE", units_only).garrisons == ("VEN",)
    whole = orders_owed(BOARD, START, "VENICE", [*units_only, GarrisonHold("VEN")])
    assert whole.complete


def test_money_orders_are_never_owed_and_do_not_name_a_unit() -> None:
    florence = [u for u in START.units if u.power == "FLORENCE"]
    spend = Expense(1, 3, FamineRelief("PSA"))
    assert not orders_owed(BOARD, START, "FLORENCE", [spend]).complete
    moves = [Move(UnitRef(u.type, u.location), u.location) for u in florence[:1]]
    moves += [ToGarrison(UnitRef(u.type, u.location)) for u in florence[1:]]
    assert orders_owed(BOARD, START, "FLORENCE", moves).complete


def test_a_power_with_nothing_on_the_board_owes_nothing() -> None:
    empty = replace(START, units=tuple(u for u in START.units if u.power != "MILAN"))
    owed = orders_owed(BOARD, empty, "MILAN", ())
    assert not owed.owes and owed.complete


def test_retreats_owe_an_order_for_each_dislodged_unit() -> None:
    dislodged = Unit("MILAN", A, "PAV")
    position = replace(
        START,
        phase=Phase.of(Season.SPRING, 1454, PhaseType.RETREAT),
        dislodged=(DislodgedUnit(dislodged, "CRE", False),),
        retreats=MappingProxyType({dislodged: ("MIL",)}),
    )
    assert orders_owed(BOARD, position, "MILAN", ()).units == (dislodged,)
    assert orders_owed(BOARD, position, "MILAN", [Retreat(UnitRef(A, "PAV"), "MIL")]).complete
    assert orders_owed(BOARD, position, "MILAN", [Disband(UnitRef(A, "PAV"))]).complete
    assert not orders_owed(BOARD, position, "FLORENCE", ()).owes


def test_adjustments_with_money_owe_upkeep_or_removal_of_each_unit_and_no_build() -> None:
    winter = replace(START, phase=Phase.of(Season.WINTER, 1454, PhaseType.ADJUSTMENT))
    venice = [u for u in START.units if u.power == "VENICE"]
    orders: list[object] = [Maintain(u.province) for u in venice[:-1]]
    owed = orders_owed(BOARD, winter, "VENICE", orders, FIRST_EDITION)
    assert owed.units == (venice[-1],) and owed.garrisons == ("VEN",)
    orders += [Dismiss(venice[-1].province), Maintain("VEN", garrison=True)]
    assert orders_owed(BOARD, winter, "VENICE", orders, FIRST_EDITION).complete
    assert not orders_owed(BOARD, winter, "VENICE", [Maintain("VEN", garrison=True)]).complete


def test_adjustments_without_money_owe_the_removals_due_and_the_builds_possible() -> None:
    basic = replace(FIRST_EDITION, money=False)
    winter = replace(START, phase=Phase.of(Season.WINTER, 1454, PhaseType.ADJUSTMENT))
    crowded = replace(winter, units=(*winter.units, Unit("MILAN", F, "ION")))  # 4 units, 3 cities
    owed = orders_owed(BOARD, crowded, "MILAN", (), basic)
    assert owed.owes and owed.removals_left == 1 and not owed.complete
    assert orders_owed(BOARD, crowded, "MILAN", [Dismiss("ION")], basic).complete
    bare = replace(winter, units=tuple(u for u in winter.units if u.location != "MIL"))  # 2 units
    short = orders_owed(BOARD, bare, "MILAN", (), basic)
    assert short.owes and short.builds_left == 1
    assert orders_owed(BOARD, bare, "MILAN", [Raise("MIL", A)], basic).complete
    assert not orders_owed(BOARD, winter, "MILAN", (), basic).owes  # nothing to build or remove
