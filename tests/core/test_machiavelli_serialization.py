"""A campaign's position kept as JSON and read back: the same board, and every fault named."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from types import MappingProxyType
from typing import Any

import pytest

from judge.core.errors import PositionError
from judge.core.machiavelli.board import load_board
from judge.core.machiavelli.campaign import adjudicate_campaign, opening_position
from judge.core.machiavelli.orders import Besiege, MachiavelliOrder
from judge.core.machiavelli.serialization import position_from_json, position_to_json
from judge.core.machiavelli.special_units import SpecialKind, UnitPlace
from judge.core.machiavelli.treasury import Finances, Loan, Rebellion, Unrest
from judge.core.orders import Move, SupportMove
from judge.core.phase import Phase
from judge.core.units import UnitRef, UnitType

BOARD = load_board()
A = UnitType.ARMY


def _a(location: str) -> UnitRef:
    return UnitRef(A, location)


def _retreat_position() -> dict[str, Any]:
    """After the summer of 1454: Florence's army besieges the autonomous garrison of Siena."""
    position = opening_position(BOARD)
    spring: dict[str, list[MachiavelliOrder]] = {
        "FLORENCE": [Move(_a("ARE"), "SIE")],
        "MILAN": [Move(_a("PAV"), "MON")],
    }
    position = adjudicate_campaign(BOARD, position, spring).position
    summer: dict[str, list[MachiavelliOrder]] = {
        "FLORENCE": [Besiege(_a("SIE"))],
        "MILAN": [Move(_a("MON"), "TUR"), SupportMove(_a("MIL"), _a("CRE"), "PAV")],
    }
    return position_to_json(adjudicate_campaign(BOARD, position, summer).position)


def test_a_position_read_back_is_the_same_board() -> None:
    data = _retreat_position()
    assert data["sieges"] == {"SIE": {"power": "FLORENCE", "type": "A", "loc": "SIE"}}
    text = json.dumps(data, sort_keys=True)
    again = position_from_json(BOARD, json.loads(text))
    assert json.dumps(position_to_json(again), sort_keys=True) == text
    opening = position_to_json(opening_position(BOARD))
    assert opening["garrisons"]["VEN"] == "VENICE" and opening["garrisons"]["GEN"] == "AUTONOMOUS"
    assert position_to_json(position_from_json(BOARD, opening)) == opening
    conquered = replace(opening_position(BOARD), countries=MappingProxyType({"FLORENCE": "PAPACY", "PAPACY": "PAPACY"}))
    kept = position_to_json(conquered)
    assert kept["countries"] == {"FLORENCE": "PAPACY", "PAPACY": "PAPACY"}
    assert position_from_json(BOARD, kept).countries == {"FLORENCE": "PAPACY", "PAPACY": "PAPACY"}


def test_treasuries_loans_rebellions_and_famine_are_kept_and_read_back() -> None:
    money = Finances(
        MappingProxyType({power: 4 for power in BOARD.game_map.powers} | {"FLORENCE": 12}),
        MappingProxyType({"FLORENCE": (Loan(15, 8, Phase.parse("U1456M")), Loan(3, 1, Phase.parse("S1457M")))}),
        frozenset({"NAPLES"}),
    )
    unrest = Unrest(
        MappingProxyType(
            {"SLZ": Rebellion("FRANCE", city=True), "PST": Rebellion("FLORENCE"), "ARE": Rebellion("FLORENCE", True, False)}
        ),
        frozenset({"MIL"}),
    )
    position = replace(opening_position(BOARD), money=money, unrest=unrest)
    data = position_to_json(position)
    assert data["loans"] == {
        "FLORENCE": [{"principal": 15, "interest": 8, "due": "U1456M"}, {"principal": 3, "interest": 1, "due": "S1457M"}]
    }
    assert data["rebellions"]["SLZ"] == {"against": "FRANCE", "city": True}
    assert data["rebellions"]["ARE"] == {"against": "FLORENCE", "city": True, "province": False}
    again = position_from_json(BOARD, json.loads(json.dumps(data)))
    assert again == position
    basic = replace(opening_position(BOARD), money=None)
    assert "treasuries" not in position_to_json(basic)
    assert position_from_json(BOARD, position_to_json(basic)).money is None


def test_special_units_are_kept_and_read_back() -> None:
    specials = {
        UnitPlace("FLORENCE", "ARE"): SpecialKind.MERCENARIES,
        UnitPlace("VENICE", "VEN", True): SpecialKind.PROFESSIONALS,
        UnitPlace("AUTONOMOUS", "GEN", True): SpecialKind.MILITIA,
        UnitPlace("AUTONOMOUS", "SIE", True): SpecialKind.MILITIA,
    }
    position = replace(opening_position(BOARD), specials=MappingProxyType(specials))
    data = position_to_json(position)
    assert data["special_units"][0] == {"power": "AUTONOMOUS", "province": "GEN", "garrison": True, "kind": "militia"}
    assert {(e["power"], e["kind"]) for e in data["special_units"]} >= {("FLORENCE", "mercenaries"), ("VENICE", "professionals")}
    assert position_from_json(BOARD, json.loads(json.dumps(data))) == position
    assert "special_units" not in position_to_json(opening_position(BOARD))
    gone = replace(position, units=tuple(u for u in position.units if u.province != "ARE"))
    assert ("FLORENCE", "mercenaries") not in {(e["power"], e["kind"]) for e in position_to_json(gone)["special_units"]}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(phase="X1454"), "cannot read phase"),
        (lambda d: d["units"].append({"power": "SPAIN", "type": "A", "loc": "MIL"}), "unknown power"),
        (lambda d: d["units"].append({"power": "MILAN", "type": "G", "loc": "COM"}), "A or F"),
        (lambda d: d["units"].append({"power": "MILAN", "type": "F", "loc": "MIL"}), "cannot stand"),
        (lambda d: d["units"].append({"power": "FLORENCE", "type": "A", "loc": "MIL"}), "two armies or fleets"),
        (lambda d: d["garrisons"].update(ALB="TURKEY"), "no fortified city"),
        (lambda d: d["garrisons"].update(FLO="SPAIN"), "unknown power"),
        (lambda d: d["control"]["provinces"].update(ETS="NAPLES"), "cannot be controlled"),
        (lambda d: d["control"]["cities"].update(COM="MILAN"), "cannot be controlled"),
        (lambda d: d["sieges"].update(SIE={"power": "FLORENCE", "type": "A", "loc": "ARE"}), "siege of SIE"),
        (lambda d: d.update(dislodged=[{"power": "MILAN", "type": "A", "loc": "MIL", "attacker_from": "COM"}]), "retreat phases"),
        (lambda d: d.update(units="none"), "must be a list"),
        (lambda d: d.update(countries={"FLORENCE": "SPAIN"}), "both must be powers"),
        (lambda d: d["treasuries"].update(FLORENCE=-1), "whole number of ducats"),
        (lambda d: d["treasuries"].update(SPAIN=3), "unknown power"),
        (lambda d: d.update(loans={"MILAN": [{"principal": 5, "interest": 1, "due": "W1455A"}]}), "falls due in a campaign"),
        (lambda d: d.update(loans={"MILAN": [{"principal": 0, "interest": 0, "due": "S1455M"}]}), "owes nothing"),
        (lambda d: d.update(barred=["SPAIN"]), "unknown power"),
        (lambda d: d.update(rebellions={"ETS": {"against": "MILAN"}}), "no land province"),
        (lambda d: d.update(rebellions={"PST": {"against": "MILAN", "city": True}}), "fortified city"),
        (lambda d: d.update(famine=["ETS"]), "no land province"),
        (lambda d: d.update(rebellions={"PST": {"against": "MILAN", "province": False}}), "rebels nowhere"),
        (lambda d: (d.pop("treasuries"), d.update(barred=["MILAN"])), "need treasuries"),
        (lambda d: d.update(special_units=[{"power": "FLORENCE", "province": "ARE", "kind": "knights"}]), "kind is militia"),
        (lambda d: d.update(special_units=[{"power": "FLORENCE", "province": "MIL", "kind": "militia"}]), "no army or fleet"),
        (lambda d: d.update(special_units=[{"power": "FLORENCE", "province": "ARE", "garrison": True, "kind": "militia"}]), "no garrison"),
        (
            lambda d: d.update(
                special_units=[
                    {"power": "FLORENCE", "province": "ARE", "kind": "militia"},
                    {"power": "FLORENCE", "province": "FLO", "kind": "mercenaries"},
                ]
            ),
            "more than one",
        ),
    ],
)
def test_a_broken_position_is_refused_by_name(change: Any, message: str) -> None:
    data = copy.deepcopy(position_to_json(opening_position(BOARD)))
    data["sieges"] = {}
    change(data)
    with pytest.raises(PositionError, match=message):
        position_from_json(BOARD, data)
