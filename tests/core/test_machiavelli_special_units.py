"""SET SPECIAL: the citizens' militia, the elite mercenaries and the elite professionals, case by case.

Each test is named after the rule of the classic Judge's rules file it checks ("Special units
(optional)", "Movement" on retreats and self-bounces, "List of allowed expenditures and
bribes", "Military unit adjustments") and plays a hand position on the 1454 board.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

import pytest

from judge.core.adjudicator import Outcome
from judge.core.machiavelli.board import AUTONOMOUS, Control, MachiavelliBoard, load_board
from judge.core.machiavelli.campaign import (
    CampaignResult,
    MachiavelliPosition,
    adjudicate_retreats,
)
from judge.core.machiavelli.options import FIRST_EDITION, MachiavelliOptions
from judge.core.machiavelli.orders import (
    Besiege,
    GarrisonConvert,
    GarrisonSupport,
    MachiavelliOrder,
    ToGarrison,
)
from judge.core.machiavelli.special_units import SpecialKind, UnitPlace, upkeep
from judge.core.orders import Hold, Move, Retreat, SupportHold, SupportMove
from judge.core.phase import Phase
from judge.core.position import DislodgedUnit
from judge.core.units import Unit, UnitType
from tests.core.machiavelli_campaigns import hand_position, play, ref, units_of

A, F = UnitType.ARMY, UnitType.FLEET
MILITIA, MERCENARIES, PROFESSIONALS = SpecialKind.MILITIA, SpecialKind.MERCENARIES, SpecialKind.PROFESSIONALS
FLO, PAP, MIL = "FLORENCE", "PAPACY", "MILAN"


@pytest.fixture(scope="module")
def board() -> MachiavelliBoard:
    return load_board()


def at(
    board: MachiavelliBoard,
    units: Sequence[tuple[str, str]],
    specials: Mapping[UnitPlace, SpecialKind],
    garrisons: Mapping[str, str] | None = None,
    sieges: Mapping[str, tuple[str, str]] | None = None,
    phase: str = "S1455M",
) -> MachiavelliPosition:
    return hand_position(board, units, garrisons, sieges, phase, specials)


def outcome(result: CampaignResult, order: MachiavelliOrder) -> Outcome:
    (found,) = [v for v in result.verdicts if v.order == order]
    return found.outcome


# ----------------------------------------------------------------------------- the kinds


def test_special_units_costs_strengths_and_bribe_factors() -> None:
    assert (upkeep(None), upkeep(MILITIA), upkeep(MERCENARIES), upkeep(PROFESSIONALS)) == (3, 6, 6, 9)
    assert (MILITIA.strength, MERCENARIES.strength, PROFESSIONALS.strength) == (1, 2, 2)
    assert (MILITIA.bribe_factor, MERCENARIES.bribe_factor, PROFESSIONALS.bribe_factor) == (2, 1, 2)
    assert FIRST_EDITION.special is True


# ----------------------------------------------------------------------------- strength in the moves


def test_special_units_elite_mercenaries_dislodge_a_single_unit(board: MachiavelliBoard) -> None:
    position = at(board, [(FLO, "A ARE"), (PAP, "A PER")], {UnitPlace(FLO, "ARE"): MERCENARIES})
    attack = Move(ref("A ARE"), "PER")
    result = play(board, position, {FLO: [attack], PAP: [Hold(ref("A PER"))]})
    assert outcome(result, attack) is Outcome.SUCCEEDS
    assert [d.unit for d in result.position.dislodged] == [Unit(PAP, A, "PER")]
    assert result.position.specials == {UnitPlace(FLO, "PER"): MERCENARIES}


def test_special_units_citizens_militia_has_strength_one(board: MachiavelliBoard) -> None:
    position = at(board, [(FLO, "A ARE"), (PAP, "A PER")], {UnitPlace(FLO, "ARE"): MILITIA})
    attack = Move(ref("A ARE"), "PER")
    result = play(board, position, {FLO: [attack], PAP: [Hold(ref("A PER"))]})
    assert outcome(result, attack) is Outcome.FAILS
    assert result.position.specials == {UnitPlace(FLO, "ARE"): MILITIA}


def test_special_units_without_the_option_an_elite_fights_as_one(board: MachiavelliBoard) -> None:
    """The strength is the rule's, not the unit's: under SET NO SPECIAL a kept marker changes nothing."""
    position = at(board, [(FLO, "A ARE"), (PAP, "A PER")], {UnitPlace(FLO, "ARE"): MERCENARIES})
    attack = Move(ref("A ARE"), "PER")
    result = play(board, position, {FLO: [attack]}, MachiavelliOptions(special=False))
    assert outcome(result, attack) is Outcome.FAILS


def test_special_units_an_elite_holds_with_strength_two(board: MachiavelliBoard) -> None:
    position = at(
        board, [(FLO, "A ARE"), (FLO, "A SIE"), (PAP, "A PER")], {UnitPlace(PAP, "PER"): PROFESSIONALS}
    )
    attack = Move(ref("A ARE"), "PER")
    result = play(board, position, {FLO: [attack, SupportMove(ref("A SIE"), ref("A ARE"), "PER")]})
    assert outcome(result, attack) is Outcome.FAILS
    assert units_of(result.position) == {"FLORENCE A ARE", "FLORENCE A SIE", "PAPACY A PER"}


def test_special_units_an_elite_support_counts_double(board: MachiavelliBoard) -> None:
    """Two supported by an elite (1 + 2) beat a hold supported by one ordinary unit (1 + 1)."""
    position = at(
        board,
        [(FLO, "A ARE"), (FLO, "A SIE"), (PAP, "A PER"), (PAP, "A SPO")],
        {UnitPlace(FLO, "SIE"): PROFESSIONALS},
    )
    attack = Move(ref("A ARE"), "PER")
    result = play(
        board,
        position,
        {FLO: [attack, SupportMove(ref("A SIE"), ref("A ARE"), "PER")], PAP: [SupportHold(ref("A SPO"), ref("A PER"))]},
    )
    assert outcome(result, attack) is Outcome.SUCCEEDS
    assert [d.unit for d in result.position.dislodged] == [Unit(PAP, A, "PER")]


def test_special_units_a_single_unit_cuts_an_elites_whole_support(board: MachiavelliBoard) -> None:
    """"Have their support entirely cut by a unit of strength 1": Patrimony's lone army cuts
    Siena's elite support, and the attack on Perugia fails against the hold of one."""
    position = at(
        board,
        [(FLO, "A ARE"), (FLO, "A SIE"), (PAP, "A PER"), (PAP, "A PAT")],
        {UnitPlace(FLO, "SIE"): MERCENARIES},
    )
    attack = Move(ref("A ARE"), "PER")
    support = SupportMove(ref("A SIE"), ref("A ARE"), "PER")
    result = play(board, position, {FLO: [attack, support], PAP: [Move(ref("A PAT"), "SIE")]})
    assert outcome(result, support) is Outcome.FAILS
    assert outcome(result, attack) is Outcome.FAILS


def test_special_units_self_bounce_the_elite_goes_through(board: MachiavelliBoard) -> None:
    """"If you try to self-bounce one of your multistrength units with one of your one strength
    units the multistrength unit's move will succeed and the other unit will bounce.\""""
    position = at(board, [(FLO, "A ARE"), (FLO, "A SIE")], {UnitPlace(FLO, "SIE"): MERCENARIES})
    elite, plain = Move(ref("A SIE"), "PER"), Move(ref("A ARE"), "PER")
    result = play(board, position, {FLO: [elite, plain]})
    assert outcome(result, elite) is Outcome.SUCCEEDS
    assert outcome(result, plain) is Outcome.FAILS
    assert units_of(result.position) == {"FLORENCE A ARE", "FLORENCE A PER"}


def test_special_units_count_as_one_in_the_retreats(board: MachiavelliBoard) -> None:
    """"This is a bounce: a mil m pav, elite a tur m pav": two retreats to one place, one of them
    an elite's, both fail and both units are gone (with the elite's marker)."""
    elite, plain = Unit(FLO, A, "ARE"), Unit(PAP, A, "SPO")
    position = MachiavelliPosition(
        Phase.parse("S1455R"),
        (Unit(MIL, A, "SIE"), Unit(MIL, A, "AQU")),
        MappingProxyType({}),
        Control(MappingProxyType({}), MappingProxyType({})),
        dislodged=(DislodgedUnit(elite, "SIE", False), DislodgedUnit(plain, "AQU", False)),
        retreats=MappingProxyType({elite: ("URB", "PER"), plain: ("URB", "PER")}),
        specials=MappingProxyType({UnitPlace(FLO, "ARE"): MERCENARIES}),
    )
    after = adjudicate_retreats(
        board, position, {FLO: [Retreat(ref("A ARE"), "URB")], PAP: [Retreat(ref("A SPO"), "URB")]}
    )
    assert units_of(after) == {"MILAN A SIE", "MILAN A AQU"}
    assert after.specials == {}


def test_special_units_a_dislodged_elite_keeps_its_kind_where_it_retreats(board: MachiavelliBoard) -> None:
    elite = Unit(FLO, A, "ARE")
    position = MachiavelliPosition(
        Phase.parse("S1455R"),
        (Unit(MIL, A, "ARE"),),
        MappingProxyType({}),
        Control(MappingProxyType({}), MappingProxyType({})),
        dislodged=(DislodgedUnit(elite, "SIE", False),),
        retreats=MappingProxyType({elite: ("URB", "PER")}),
        specials=MappingProxyType({UnitPlace(FLO, "ARE"): PROFESSIONALS}),
    )
    after = adjudicate_retreats(board, position, {FLO: [Retreat(ref("A ARE"), "URB")]})
    assert after.specials == {UnitPlace(FLO, "URB"): PROFESSIONALS}


# ----------------------------------------------------------------------------- garrisons


def test_special_units_a_special_garrison_supports_with_strength_two(board: MachiavelliBoard) -> None:
    """An elite garrison of Perugia supports its army's hold with two: an attack of three
    (supported twice) on Perugia fails."""
    position = at(
        board,
        [(FLO, "A ARE"), (FLO, "A SIE"), (FLO, "A URB"), (PAP, "A PER")],
        {UnitPlace(PAP, "PER", True): MERCENARIES},
        garrisons={"PER": PAP},
    )
    attack = Move(ref("A ARE"), "PER")
    result = play(
        board,
        position,
        {
            FLO: [attack, SupportMove(ref("A SIE"), ref("A ARE"), "PER"), SupportMove(ref("A URB"), ref("A ARE"), "PER")],
            PAP: [GarrisonSupport("PER", ref("A PER"))],
        },
    )
    assert outcome(result, attack) is Outcome.FAILS


def test_special_units_a_conversion_keeps_the_kind(board: MachiavelliBoard) -> None:
    """An elite army converting into Arezzo's empty city becomes an elite garrison, and back."""
    position = at(board, [(FLO, "A ARE")], {UnitPlace(FLO, "ARE"): PROFESSIONALS})
    result = play(board, position, {FLO: [ToGarrison(ref("A ARE"))]})
    assert result.position.garrisons == {"ARE": FLO}
    assert result.position.specials == {UnitPlace(FLO, "ARE", True): PROFESSIONALS}
    back = play(board, result.position, {FLO: [GarrisonConvert("ARE", A)]})
    assert units_of(back.position) == {"FLORENCE A ARE"}
    assert back.position.specials == {UnitPlace(FLO, "ARE"): PROFESSIONALS}


def test_special_units_cannot_dislodge_a_besieger_in_the_second_siege_season(board: MachiavelliBoard) -> None:
    """"Cannot dislodge any besieger in the second siege season": an elite garrison besieged in
    the campaign before may not convert, whatever its strength, and the siege ends it."""
    position = at(
        board,
        [(PAP, "A PER")],
        {UnitPlace(FLO, "PER", True): PROFESSIONALS},
        garrisons={"PER": FLO},
        sieges={"PER": (PAP, "A PER")},
    )
    convert = GarrisonConvert("PER", A)
    result = play(board, position, {FLO: [convert], PAP: [Besiege(ref("A PER"))]})
    assert outcome(result, convert) is Outcome.INVALID
    assert result.sieges_completed == ("PER",)
    assert result.position.garrisons == {}
    assert result.position.specials == {}


def test_special_units_an_autonomous_special_garrison_stays_special(board: MachiavelliBoard) -> None:
    position = at(board, [], {UnitPlace(AUTONOMOUS, "SIE", True): MILITIA}, garrisons={"SIE": AUTONOMOUS})
    result = play(board, position, {})
    assert result.position.specials == {UnitPlace(AUTONOMOUS, "SIE", True): MILITIA}


MACH2 = MachiavelliOptions(mach2=True)


def test_special_units_second_edition_a_lone_unit_cuts_one_point_of_an_elites_support(board: MachiavelliBoard) -> None:
    """Mach2: a strength-1 attack cuts one point of an elite's support (the classic Judge's code:
    a full cut needs an attacker of strength 2 or with support): Siena's elite still gives one,
    and the attack on Perugia (1 + 1) beats its hold of one."""
    position = at(
        board,
        [(FLO, "A ARE"), (FLO, "A SIE"), (PAP, "A PER"), (PAP, "A PAT")],
        {UnitPlace(FLO, "SIE"): MERCENARIES},
    )
    attack = Move(ref("A ARE"), "PER")
    orders: dict[str, list[MachiavelliOrder]] = {
        FLO: [attack, SupportMove(ref("A SIE"), ref("A ARE"), "PER")],
        PAP: [Move(ref("A PAT"), "SIE")],
    }
    assert outcome(play(board, position, orders), attack) is Outcome.FAILS  # first edition: all cut
    result = play(board, position, orders, MACH2)
    assert outcome(result, attack) is Outcome.SUCCEEDS
    assert [d.unit for d in result.position.dislodged] == [Unit(PAP, A, "PER")]


def test_special_units_second_edition_a_supported_attack_cuts_an_elites_whole_support(board: MachiavelliBoard) -> None:
    position = at(
        board,
        [(FLO, "A ARE"), (FLO, "A SIE"), (PAP, "A PER"), (PAP, "A PAT"), (PAP, "A PIO")],
        {UnitPlace(FLO, "SIE"): MERCENARIES},
    )
    attack = Move(ref("A ARE"), "PER")
    orders: dict[str, list[MachiavelliOrder]] = {
        FLO: [attack, SupportMove(ref("A SIE"), ref("A ARE"), "PER")],
        PAP: [Move(ref("A PAT"), "SIE"), SupportMove(ref("A PIO"), ref("A PAT"), "SIE")],
    }
    assert outcome(play(board, position, orders, MACH2), attack) is Outcome.FAILS


def test_special_units_venice_converts_in_place_and_keeps_the_kind(board: MachiavelliBoard) -> None:
    position = at(board, [("VENICE", "A VEN")], {UnitPlace("VENICE", "VEN"): PROFESSIONALS})
    result = play(board, position, {"VENICE": [ToGarrison(ref("A VEN"))]})
    assert result.position.garrisons == {"VEN": "VENICE"}
    assert result.position.specials == {UnitPlace("VENICE", "VEN", True): PROFESSIONALS}
    back = play(board, result.position, {"VENICE": [GarrisonConvert("VEN", F)]})
    assert units_of(back.position) == {"VENICE F VEN"}
    assert back.position.specials == {UnitPlace("VENICE", "VEN"): PROFESSIONALS}
