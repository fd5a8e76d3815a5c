"""The Renaissance game's money orders read in English and in French, as the classic Judge's rules
file writes them (its "Expenditure orders" and the example of a Florentine campaign)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.core.machiavelli.adjustments import Dismiss, Maintain, Raise
from judge.core.machiavelli.board import load_board
from judge.core.machiavelli.orders import (
    Assassinate,
    Besiege,
    Borrow,
    Bribe,
    BribeKind,
    CauseRebellion,
    CounterBribe,
    Expense,
    FamineRelief,
    Give,
    GiveChit,
    MoneyOrder,
    PacifyRebellion,
    PayBank,
    Target,
)
from judge.core.orders import Move
from judge.core.units import UnitRef, UnitType
from judge.lang.machiavelli_orders import (
    read_adjustment_order,
    read_campaign_order,
    read_money_order,
)
from judge.lang.order_values import OrderSyntaxError

MAP = load_board().game_map


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("Pay 14 ducats to bank", PayBank(14)),
        ("PAY 14 D TO THE BANK", PayBank(14)),
        ("Pay  6 ducats to Milan", Give(6, "MILAN")),
        ("give 6 to venetian", Give(6, "VENICE")),
        ("LEND 5 DUCATS TO NAPLES", Give(5, "NAPLES")),
        ("loan 5d to Papacy", Give(5, "PAPACY")),
        ("Borrow 25 ducats for 2 years", Borrow(25, 2)),
        ("borrow 10 d for 1 year", Borrow(10, 1)),
        (
            "Expense 1: 12 ducats Disband Army Bologna",
            Expense(1, 12, Bribe(BribeKind.DISBAND, Target("BOL"))),
        ),
        (
            "Expense 2:  3 ducats Counter-bribe Army Arezzo",
            Expense(2, 3, CounterBribe(Target("ARE"))),
        ),
        (
            "EXPENSE 3: 6 DUCATS COUNTER BRIBE G MOD",
            Expense(3, 6, CounterBribe(Target("MOD", garrison=True))),
        ),
        (
            "expense 1: 18 ducats buy f marseille",
            Expense(1, 18, Bribe(BribeKind.BUY, Target("MAR"))),
        ),
        (
            "expense 1: 21 ducats bribe buy a bol",
            Expense(1, 21, Bribe(BribeKind.BUY, Target("BOL"))),
        ),
        (
            "Expense 1: 9 ducats disband g trent",
            Expense(1, 9, Bribe(BribeKind.DISBAND, Target("TRT", garrison=True))),
        ),
        (
            "Expense 1: 9 ducats buy g savoy",
            Expense(1, 9, Bribe(BribeKind.BUY, Target("SAV", garrison=True))),
        ),
        (
            "Expense 1: 9 ducats garrison to autonomous bologna",
            Expense(1, 9, Bribe(BribeKind.TO_AUTONOMOUS, Target("BOL", garrison=True))),
        ),
        (
            "expense 4: 9 d g bol to autonomous",
            Expense(4, 9, Bribe(BribeKind.TO_AUTONOMOUS, Target("BOL", garrison=True))),
        ),
        ("Expense 2: 3 ducats famine relief milan", Expense(2, 3, FamineRelief("MIL"))),
        ("Expense 1: 12 ducats pacify rebellion rome", Expense(1, 12, PacifyRebellion("RME"))),
        ("Expense 1: 9 ducats cause rebellion slz", Expense(1, 9, CauseRebellion("SLZ"))),
        ("Expense 1: 15 ducats cause rebellion tunis", Expense(1, 15, CauseRebellion("TUN"))),
        ("Expense 2: none", Expense(2, 0, None)),
        ("EXPENSE2: NONE", Expense(2, 0, None)),
        ("Expense 3: 24 ducats Assassinate Papacy", Expense(3, 24, Assassinate("PAPACY"))),
        ("expense 1: 36 d assassinate turk", Expense(1, 36, Assassinate("TURKEY"))),
        ("Give Turkey to Naples", GiveChit("TURKEY", "NAPLES")),
        ("GIVE TURKEY CHIT TO NAPLES", GiveChit("TURKEY", "NAPLES")),
        ("give the turkish assassination chit to naples", GiveChit("TURKEY", "NAPLES")),
    ],
)
def test_the_money_orders_are_read_in_english(text: str, order: MoneyOrder) -> None:
    assert read_money_order(text, MAP) == order


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("Paie 14 ducats à la banque", PayBank(14)),
        ("Donne 6 ducats à Milan", Give(6, "MILAN")),
        ("PRÊTE 5 D À NAPLES", Give(5, "NAPLES")),
        ("Emprunte 25 ducats pour 2 ans", Borrow(25, 2)),
        (
            "Dépense 1 : 12 ducats disperse armée Bologne",
            Expense(1, 12, Bribe(BribeKind.DISBAND, Target("BOL"))),
        ),
        (
            "dépense 2 : 3 ducats contre-corruption A ARE",
            Expense(2, 3, CounterBribe(Target("ARE"))),
        ),
        (
            "Dépense 3 : 18 ducats achète flotte Marseille",
            Expense(3, 18, Bribe(BribeKind.BUY, Target("MAR"))),
        ),
        (
            "Dépense 1 : 9 ducats garnison en autonome BOL",
            Expense(1, 9, Bribe(BribeKind.TO_AUTONOMOUS, Target("BOL", True))),
        ),
        ("Dépense 2 : 3 ducats secours famine Milan", Expense(2, 3, FamineRelief("MIL"))),
        ("Dépense 1 : 12 ducats pacifie la révolte Rome", Expense(1, 12, PacifyRebellion("RME"))),
        ("Dépense 4 : 9 ducats soulève SLZ", Expense(4, 9, CauseRebellion("SLZ"))),
        ("Dépense 2 : aucune", Expense(2, 0, None)),
        ("Dépense 3 : 24 ducats assassine la Papauté", Expense(3, 24, Assassinate("PAPACY"))),
        ("Donne Turquie à Naples", GiveChit("TURKEY", "NAPLES")),
    ],
)
def test_the_money_orders_are_read_in_french(text: str, order: MoneyOrder) -> None:
    assert read_money_order(text, MAP, french=True) == order


@pytest.mark.parametrize(
    "text",
    [
        "Pay 14 ducats to Spain",
        "Expense 5: 3 ducats famine relief milan",
        "Expense 1: famine relief milan",
        "Expense 1: 3 ducats bless milan",
        "Expense 1: 3 ducats famine relief atlantis",
        "Borrow many ducats",
        "Expense 1: 12 ducats assassinate Spain",
        "Give Spain to Naples",
        "steal 3 ducats",
    ],
)
def test_a_money_order_that_cannot_be_read_is_refused(text: str) -> None:
    with pytest.raises(OrderSyntaxError):
        read_money_order(text, MAP)


def test_a_campaigns_orders_mix_money_and_moves() -> None:
    """The rules' example of a Florentine campaign, line by line."""
    lines = [
        "Pay 14 ducats to bank",
        "Pay  6 ducats to Milan",
        "Borrow 25 ducats for 2 years",
        "Expense 1: 12 ducats Disband Army Bologna",
        "Army Arezzo -> Siena",
        "A SIE BESIEGE",
    ]
    read = [read_campaign_order(line, MAP) for line in lines]
    assert read == [
        PayBank(14),
        Give(6, "MILAN"),
        Borrow(25, 2),
        Expense(1, 12, Bribe(BribeKind.DISBAND, Target("BOL"))),
        Move(UnitRef(UnitType.ARMY, "ARE"), "SIE"),
        Besiege(UnitRef(UnitType.ARMY, "SIE")),
    ]


def test_the_money_orders_the_variants_page_quotes_are_read() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "variants.md").read_text(
        encoding="utf-8"
    )
    quoted = re.findall(r"`((?:PAY|GIVE|BORROW|EXPENSE) [^`]+)`", docs)
    assert len(quoted) == 6
    for text in quoted:
        read_money_order(text, MAP)


@pytest.mark.parametrize(
    ("text", "french", "order"),
    [
        ("BUILD A FLO", False, Raise("FLO", UnitType.ARMY)),
        ("build fleet pisa", False, Raise("PSA", UnitType.FLEET)),
        ("B G FLO", False, Raise("FLO", None, garrison=True)),
        ("build arezzo", False, Raise("ARE", UnitType.ARMY)),
        ("MAINTAIN F PSA", False, Maintain("PSA")),
        ("m g ven", False, Maintain("VEN", garrison=True)),
        ("REMOVE G SIE", False, Dismiss("SIE", garrison=True)),
        ("disband a are", False, Dismiss("ARE")),
        ("Construit armée Florence", True, Raise("FLO", UnitType.ARMY)),
        ("Construit garnison Florence", True, Raise("FLO", None, garrison=True)),
        ("Entretient flotte Pise", True, Maintain("PSA")),
        ("Retire G SIE", True, Dismiss("SIE", garrison=True)),
    ],
)
def test_the_adjustments_are_read_in_english_and_french(
    text: str, french: bool, order: object
) -> None:
    assert read_adjustment_order(text, MAP, french=french) == order


def test_an_adjustment_that_cannot_be_read_is_refused() -> None:
    with pytest.raises(OrderSyntaxError):
        read_adjustment_order("raise a flo", MAP)
