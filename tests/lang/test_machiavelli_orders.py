"""The Renaissance game's own orders read in English and in French, as the classic Judge writes them
(its rules file's "Order syntax"), and Diplomacy's orders read as in every game."""

from __future__ import annotations

import pytest

from judge.core.machiavelli.board import load_board
from judge.core.machiavelli.orders import (
    Besiege,
    GarrisonConvert,
    GarrisonDisband,
    GarrisonHold,
    GarrisonSupport,
    LiftSiege,
    MachiavelliOrder,
    ToGarrison,
)
from judge.core.orders import Convoy, Disband, Hold, Move, SupportHold, SupportMove
from judge.core.units import UnitRef, UnitType
from judge.lang.machiavelli_orders import read_machiavelli_order
from judge.lang.order_values import OrderSyntaxError

A, F = UnitType.ARMY, UnitType.FLEET
MAP = load_board().game_map


def a(location: str) -> UnitRef:
    return UnitRef(A, location)


def f(location: str) -> UnitRef:
    return UnitRef(F, location)


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("A SIE BESIEGE", Besiege(a("SIE"))),
        ("a sie b", Besiege(a("SIE"))),
        ("Army Siena beseige", Besiege(a("SIE"))),
        ("F PIO SIEGE", Besiege(f("PIO"))),
        ("A SIE LIFT SIEGE", LiftSiege(a("SIE"))),
        ("A SIE LS", LiftSiege(a("SIE"))),
        ("A PAV CONVERT TO GARRISON", ToGarrison(a("PAV"))),
        ("A PAV C G", ToGarrison(a("PAV"))),
        ("G GEN C A", GarrisonConvert("GEN", A)),
        ("G Pisa convert to fleet", GarrisonConvert("PSA", F)),
        ("G FLO H", GarrisonHold("FLO")),
        ("G FLO S A ARE - FLO", GarrisonSupport("FLO", a("ARE"), "FLO")),
        ("G FLO S A FLO", GarrisonSupport("FLO", a("FLO"), None)),
        ("A FOR S G GEN - GEN", SupportMove(a("FOR"), UnitRef(None, "GEN#"), "GEN")),
        ("A SAV DISBAND", Disband(a("SAV"))),
        ("G SAV D", GarrisonDisband("SAV")),
        # Diplomacy's orders, read as in every game; C followed by a unit and its move is a convoy.
        ("A FLO - SIE", Move(a("FLO"), "SIE")),
        ("F GON C A NAP - MES", Convoy(f("GON"), a("NAP"), "MES")),
        ("A ARE S A FLO", SupportHold(a("ARE"), a("FLO"))),
        ("A ARE H", Hold(a("ARE"))),
    ],
)
def test_english_orders(text: str, order: MachiavelliOrder) -> None:
    assert read_machiavelli_order(text, MAP) == order


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("A Sienne assiège", Besiege(a("SIE"))),
        ("A Sienne lève le siège", LiftSiege(a("SIE"))),
        ("A Pavie se convertit en garnison", ToGarrison(a("PAV"))),
        ("G Gênes convertit en armée", GarrisonConvert("GEN", A)),
        ("Garnison Pise c flotte", GarrisonConvert("PSA", F)),
        ("G Florence T", GarrisonHold("FLO")),
        ("G Florence soutient A Arezzo - Florence", GarrisonSupport("FLO", a("ARE"), "FLO")),
        ("A Savoie disperse", Disband(a("SAV"))),
        ("A Florence - Sienne", Move(a("FLO"), "SIE")),
    ],
)
def test_french_orders(text: str, order: MachiavelliOrder) -> None:
    assert read_machiavelli_order(text, MAP, french=True) == order


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("A PAV C F", "converts only into a garrison"),
        ("G GEN C G", "converts into an army or a fleet"),
        ("A XYZ BESIEGE", "XYZ"),
        ("", "Empty order"),
    ],
)
def test_orders_that_cannot_be_read(text: str, fragment: str) -> None:
    with pytest.raises(OrderSyntaxError) as raised:
        read_machiavelli_order(text, MAP)
    assert fragment.lower() in raised.value.message.lower()
