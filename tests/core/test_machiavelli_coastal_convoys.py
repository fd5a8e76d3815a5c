"""SET COASTAL CONVOYS: a fleet in a coastal province convoys (the classic Judge's rules file,
"Convoys": "Fleets may convoy even if they are in coastal provinces. Armies must start and
finish in coastal provinces. Convoys cannot jump coasts."), played on the 1454 board.

Genoa's fleet borders Savoy and Modena, two coastal provinces no army border joins, so an army
of Savoy reaches Modena in one campaign only by that convoy.
"""

from __future__ import annotations

import pytest

from judge.core.adjudicator import Outcome
from judge.core.machiavelli.board import MachiavelliBoard, load_board
from judge.core.machiavelli.campaign import (
    MachiavelliPosition,
    adjudicate_campaign,
)
from judge.core.machiavelli.options import FIRST_EDITION, MachiavelliOptions
from judge.core.machiavelli.orders import MachiavelliOrder
from judge.core.orders import Convoy, Move, SupportMove
from judge.core.units import Unit, UnitType
from tests.core.machiavelli_campaigns import hand_position, ref, units_of, verdict

A, F = UnitType.ARMY, UnitType.FLEET
NO_COASTAL = MachiavelliOptions(coastal_convoys=False)


@pytest.fixture(scope="module")
def board() -> MachiavelliBoard:
    return load_board()


def at(board: MachiavelliBoard, *units: tuple[str, str]) -> MachiavelliPosition:
    return hand_position(board, units)


SAVOY_TO_MODENA = Move(ref("A SAV"), "MOD")
GENOA_CONVOYS = Convoy(ref("F GEN"), ref("A SAV"), "MOD")


def test_coastal_convoys_are_the_first_editions_default() -> None:
    assert FIRST_EDITION.coastal_convoys is True


def test_coastal_convoy_a_fleet_in_a_coastal_province_carries_an_army(board: MachiavelliBoard) -> None:
    position = at(board, ("MILAN", "A SAV"), ("MILAN", "F GEN"))
    result = adjudicate_campaign(board, position, {"MILAN": [SAVOY_TO_MODENA, GENOA_CONVOYS]})
    assert verdict(result, SAVOY_TO_MODENA)[0] is Outcome.SUCCEEDS
    assert verdict(result, GENOA_CONVOYS)[0] is Outcome.SUCCEEDS
    assert units_of(result.position) == {"MILAN A MOD", "MILAN F GEN"}


def test_coastal_convoy_without_the_option_the_coastal_fleet_convoys_nothing(board: MachiavelliBoard) -> None:
    position = at(board, ("MILAN", "A SAV"), ("MILAN", "F GEN"))
    result = adjudicate_campaign(board, position, {"MILAN": [SAVOY_TO_MODENA, GENOA_CONVOYS]}, NO_COASTAL)
    assert verdict(result, GENOA_CONVOYS)[0] is Outcome.INVALID
    assert verdict(result, SAVOY_TO_MODENA)[0] is not Outcome.SUCCEEDS
    assert units_of(result.position) == {"MILAN A SAV", "MILAN F GEN"}


def test_coastal_convoy_fails_when_the_convoying_fleet_is_dislodged(board: MachiavelliBoard) -> None:
    position = at(
        board, ("MILAN", "A SAV"), ("MILAN", "F GEN"), ("FLORENCE", "A MON"), ("FLORENCE", "A FOR")
    )
    attack = Move(ref("A MON"), "GEN")
    orders: dict[str, list[MachiavelliOrder]] = {
        "MILAN": [SAVOY_TO_MODENA, GENOA_CONVOYS],
        "FLORENCE": [attack, SupportMove(ref("A FOR"), ref("A MON"), "GEN")],
    }
    result = adjudicate_campaign(board, position, orders)
    assert verdict(result, attack)[0] is Outcome.SUCCEEDS
    assert verdict(result, SAVOY_TO_MODENA)[0] is Outcome.FAILS
    assert "MILAN A SAV" in units_of(result.position)
    assert [d.unit for d in result.position.dislodged] == [Unit("MILAN", F, "GEN")]


def test_coastal_convoy_cannot_jump_coasts(board: MachiavelliBoard) -> None:
    """Croatia's fleet stands on one of two coasts: it carries no army from Carniola (its north
    coast) to Dalmatia (its south coast)."""
    position = at(board, ("VENICE", "A CRN"), ("VENICE", "F CRO/NC"))
    move = Move(ref("A CRN"), "DAL")
    convoy = Convoy(ref("F CRO/NC"), ref("A CRN"), "DAL")
    result = adjudicate_campaign(board, position, {"VENICE": [move, convoy]})
    assert verdict(result, convoy)[0] is Outcome.INVALID
    assert verdict(result, move)[0] is not Outcome.SUCCEEDS
    assert "VENICE A CRN" in units_of(result.position)


def test_coastal_convoy_the_army_lands_only_on_a_coast(board: MachiavelliBoard) -> None:
    """Armies start and finish in coastal provinces: Genoa's fleet does not carry an army of
    Savoy to Pontremoli, inland."""
    position = at(board, ("MILAN", "A SAV"), ("MILAN", "F GEN"))
    convoy = Convoy(ref("F GEN"), ref("A SAV"), "PON")
    result = adjudicate_campaign(board, position, {"MILAN": [Move(ref("A SAV"), "PON"), convoy]})
    assert verdict(result, convoy)[0] is Outcome.INVALID
    assert "MILAN A SAV" in units_of(result.position)
