"""SET SPECIAL in the results: a special unit's build is written back with its kind, and the
board after names the unit's kind, in English and in French."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import pytest

from judge.app.machiavelli.season_report import season_texts
from judge.core.machiavelli.adjustments import Maintain, Raise
from judge.core.machiavelli.board import load_board
from judge.core.machiavelli.campaign import opening_position
from judge.core.machiavelli.season import play_phase
from judge.core.machiavelli.special_units import SpecialKind, UnitPlace
from judge.core.machiavelli.treasury import Finances
from judge.core.orders import Move
from judge.core.phase import Phase
from judge.core.units import UnitRef, UnitType
from judge.i18n import translation

BOARD = load_board()


@pytest.mark.parametrize(
    ("language", "board_line"),
    [
        ("en", "Florence: A ARE (elite mercenaries), A FLO, F PSA."),
        ("fr", "Florence: A ARE (mercenaires d'élite), A FLO, F PSA."),
    ],
)
def test_special_units_in_the_results_of_the_adjustments(language: str, board_line: str) -> None:
    start = opening_position(BOARD)
    position = replace(
        start,
        phase=Phase.parse("W1454A"),
        units=tuple(u for u in start.units if u.province != "ARE"),
        money=Finances(MappingProxyType({power: 20 for power in BOARD.game_map.powers})),
    )
    orders = {"FLORENCE": [Raise("ARE", UnitType.ARMY, special=SpecialKind.MERCENARIES), Maintain("FLO"), Maintain("PSA")]}
    result = play_phase(BOARD, position, orders, seed="special-report")
    assert result.position.specials == {UnitPlace("FLORENCE", "ARE"): SpecialKind.MERCENARIES}
    texts = season_texts(result, BOARD.game_map, language, translation(language).gettext)
    public = "\n".join(texts.public)
    assert "BUILD ELITE MERCENARIES A ARE" in public
    assert board_line in texts.public, texts.public


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "  Florence: elite mercenaries A ARE - PER: succeeds"),
        ("fr", "  Florence: mercenaires d'élite A ARE - PER: réussit"),
    ],
)
def test_special_units_in_the_orders_of_a_campaign(language: str, line: str) -> None:
    """The Judge writes "Elite Mercenary Army Arezzo -> Siena": the kind before the unit."""
    start = opening_position(BOARD)
    position = replace(
        start,
        phase=Phase.parse("S1455M"),
        units=tuple(u for u in start.units if u.province != "PER"),
        money=Finances(MappingProxyType({power: 0 for power in BOARD.game_map.powers})),
        specials=MappingProxyType({UnitPlace("FLORENCE", "ARE"): SpecialKind.MERCENARIES}),
    )
    result = play_phase(BOARD, position, {"FLORENCE": [Move(UnitRef(UnitType.ARMY, "ARE"), "PER")]}, seed="special-report")
    texts = season_texts(result, BOARD.game_map, language, translation(language).gettext)
    assert line in texts.public, texts.public
    assert result.position.specials == {UnitPlace("FLORENCE", "PER"): SpecialKind.MERCENARIES}
