"""SET SPECIAL in the orders: a special unit's kind is written in its build, in English and French
(the classic Judge's order syntax: ``<build> <stype> <type> <province>``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.core.machiavelli.adjustments import Raise
from judge.core.machiavelli.board import load_board
from judge.core.machiavelli.special_units import SpecialKind
from judge.core.units import UnitType
from judge.lang.machiavelli_orders import read_adjustment_order
from judge.lang.order_values import OrderSyntaxError

MAP = load_board().game_map
A, F = UnitType.ARMY, UnitType.FLEET
MILITIA, MERCENARIES, PROFESSIONALS = SpecialKind.MILITIA, SpecialKind.MERCENARIES, SpecialKind.PROFESSIONALS


@pytest.mark.parametrize(
    ("text", "french", "order"),
    [
        ("BUILD CITIZEN'S MILITIA A FLO", False, Raise("FLO", A, special=MILITIA)),
        ("build citizens' militia army florence", False, Raise("FLO", A, special=MILITIA)),
        ("b cm g flo", False, Raise("FLO", None, garrison=True, special=MILITIA)),
        ("BUILD ELITE MERCENARIES F PSA", False, Raise("PSA", F, special=MERCENARIES)),
        ("build elite mercenary arezzo", False, Raise("ARE", A, special=MERCENARIES)),
        ("b em a are", False, Raise("ARE", A, special=MERCENARIES)),
        ("BUILD ELITE MERCENARIES A ARE", False, Raise("ARE", A, special=MERCENARIES)),
        ("Construit milice A FLO", True, Raise("FLO", A, special=MILITIA)),
        ("BUILD ELITE PROFESSIONALS G FLO", False, Raise("FLO", None, garrison=True, special=PROFESSIONALS)),
        ("build professional a flo", False, Raise("FLO", A, special=PROFESSIONALS)),
        ("BUILD A FLO", False, Raise("FLO", A)),
        ("Construit milice armée Florence", True, Raise("FLO", A, special=MILITIA)),
        ("Construit mercenaires d'élite flotte Pise", True, Raise("PSA", F, special=MERCENARIES)),
        ("CONSTRUIT PROFESSIONNELS D'ÉLITE GARNISON FLORENCE", True, Raise("FLO", None, garrison=True, special=PROFESSIONALS)),
        ("lève milice citoyenne A ARE", True, Raise("ARE", A, special=MILITIA)),
    ],
)
def test_special_units_are_built_with_their_kind_in_english_and_french(text: str, french: bool, order: Raise) -> None:
    assert read_adjustment_order(text, MAP, french=french) == order


@pytest.mark.parametrize("text", ["MAINTAIN ELITE MERCENARIES A ARE", "REMOVE MILITIA G FLO"])
def test_special_units_kind_only_in_a_build(text: str) -> None:
    with pytest.raises(OrderSyntaxError, match="only when it is built"):
        read_adjustment_order(text, MAP)


def test_special_units_builds_quoted_in_docs_variants_are_read() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "variants.md").read_text(encoding="utf-8")
    quoted = re.findall(r"`((?:BUILD|CONSTRUIT) [^`]+)`", docs)
    assert quoted == ["BUILD ELITE MERCENARIES A ARE", "CONSTRUIT MILICE A FLO"]
    for text in quoted:
        assert read_adjustment_order(text, MAP, french=text.startswith("CONSTRUIT")).special is not None
