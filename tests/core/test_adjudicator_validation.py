"""validate(): each kind of illegal order gives its own error, with a sentence a player can read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from judge.core.adjudicator import Rules, validate
from judge.core.errors import (
    AmbiguousCoastError,
    ArmyToSeaError,
    BuildNotHomeCentreError,
    BuildNotOwnedError,
    BuildOccupiedError,
    CoastError,
    FleetInlandError,
    IllegalConvoyError,
    IllegalRetreatError,
    IllegalSupportError,
    NoConvoyRouteError,
    NoSuchUnitError,
    NotAdjacentError,
    NotDislodgedError,
    NotYourUnitError,
    OrderError,
    TooManyBuildsError,
    TooManyRemovalsError,
    WrongPhaseError,
)
from judge.core.orders import Move, Order
from judge.core.phase import Phase
from judge.core.position import DislodgedUnit, Position
from judge.core.units import Unit, UnitRef, UnitType
from judge.core.variants import load_map
from tests.core.datc_orders import parse_order

A, F = UnitType.ARMY, UnitType.FLEET


def check(
    phase: str,
    units: Sequence[Unit],
    power: str,
    text: str | Order,
    *,
    centers: Mapping[str, frozenset[str]] | None = None,
    dislodged: Sequence[DislodgedUnit] = (),
    rules: Rules | None = None,
) -> OrderError | None:
    position = Position("standard", Phase.parse(phase), tuple(units), centers or {}, tuple(dislodged))
    order = parse_order(text, position.phase.type) if isinstance(text, str) else text
    return validate(position, power, order, load_map("standard"), rules or Rules())


def test_legal_orders_give_none() -> None:
    units = [Unit("ENGLAND", F, "NTH"), Unit("ENGLAND", A, "YOR"), Unit("ENGLAND", F, "LON")]
    for text in ("F NTH - BEL", "A YOR - NWY", "F NTH C A YOR - NWY", "F LON S F NTH - ENG", "A YOR H", "F LON S A YOR"):
        assert check("S1901M", units, "ENGLAND", text) is None, text


def test_not_adjacent_reads_as_a_sentence() -> None:
    error = check("S1901M", [Unit("ENGLAND", F, "NTH")], "ENGLAND", "F NTH - PIC")
    assert isinstance(error, NotAdjacentError)
    assert str(error) == "North Sea is not adjacent to Picardy."


def test_no_unit_and_foreign_unit() -> None:
    units = [Unit("FRANCE", A, "PAR")]
    assert isinstance(check("S1901M", units, "FRANCE", "A BUR - MUN"), NoSuchUnitError)
    error = check("S1901M", units, "GERMANY", "A PAR - BUR")
    assert isinstance(error, NotYourUnitError)
    assert "France" in str(error)


def test_wrong_unit_type_and_wrong_own_coast_are_ignored() -> None:
    # DATC 4.C.2 and 4.B.5: the order still names the unit in that province.
    assert check("S1901M", [Unit("FRANCE", F, "BRE")], "FRANCE", "A BRE - MAO") is None
    assert check("S1901M", [Unit("FRANCE", F, "SPA/SC")], "FRANCE", "F SPA/NC - LYO") is None


def test_army_to_sea_and_fleet_inland() -> None:
    assert isinstance(check("S1901M", [Unit("FRANCE", A, "BRE")], "FRANCE", "A BRE - ENG"), ArmyToSeaError)
    error = check("S1901M", [Unit("FRANCE", F, "BRE")], "FRANCE", "F BRE - PAR")
    assert isinstance(error, FleetInlandError)
    assert "Paris" in str(error)


def test_coasts_of_fleet_moves() -> None:
    error = check("S1901M", [Unit("FRANCE", F, "MAO")], "FRANCE", "F MAO - SPA")
    assert isinstance(error, AmbiguousCoastError)
    assert isinstance(error, CoastError)
    assert error.coasts == ("NC", "SC")
    # The named coast cannot be reached from Marseilles (DATC 4.B.3): illegal.
    assert isinstance(check("S1901M", [Unit("FRANCE", F, "MAR")], "FRANCE", "F MAR - SPA/NC"), NotAdjacentError)
    # A coast the province does not have is ignored (DATC 4.B.6).
    # The reader refuses a coast on a province without coasts; the engine, given one, ignores it.
    spurious_coast = Move(UnitRef(F, "GAS"), "BRE/NC")
    assert check("S1901M", [Unit("FRANCE", F, "GAS")], "FRANCE", spurious_coast) is None


def test_fleet_must_follow_the_coast() -> None:
    assert isinstance(check("S1901M", [Unit("ITALY", F, "ROM")], "ITALY", "F ROM - VEN"), NotAdjacentError)


def test_move_to_own_province() -> None:
    assert isinstance(check("S1901M", [Unit("FRANCE", A, "PAR")], "FRANCE", "A PAR - PAR"), NotAdjacentError)


def test_convoyed_moves_need_a_chain_of_fleets() -> None:
    assert isinstance(check("S1901M", [Unit("ENGLAND", A, "LON")], "ENGLAND", "A LON - BEL"), NotAdjacentError)
    error = check("S1901M", [Unit("FRANCE", A, "PIC")], "FRANCE", "A PIC - BEL VIA CONVOY")
    assert isinstance(error, NoConvoyRouteError)
    units = [Unit("ENGLAND", A, "LON"), Unit("GERMANY", F, "NTH")]
    assert check("S1901M", units, "ENGLAND", "A LON - BEL") is None


def test_convoy_orders() -> None:
    units = [
        Unit("ENGLAND", F, "LON"),
        Unit("ENGLAND", A, "WAL"),
        Unit("ENGLAND", F, "NTH"),
        Unit("ENGLAND", F, "ENG"),
    ]
    error = check("S1901M", units, "ENGLAND", "F LON C A WAL - BEL")
    assert isinstance(error, IllegalConvoyError)  # a fleet on a coast never convoys
    assert isinstance(check("S1901M", units, "ENGLAND", "F NTH C F LON - BEL"), IllegalConvoyError)
    assert isinstance(check("S1901M", units, "ENGLAND", "A WAL C A WAL - BEL"), IllegalConvoyError)
    assert check("S1901M", units, "ENGLAND", "F ENG C A WAL - BEL") is None


def test_convoy_by_a_fleet_no_route_needs_is_illegal() -> None:
    # DATC 6.G.19: Marseilles - Gulf of Lyon - Spain needs no fleet in the Western Mediterranean.
    units = [Unit("FRANCE", A, "MAR"), Unit("FRANCE", F, "WES"), Unit("ITALY", F, "LYO")]
    error = check("S1901M", units, "FRANCE", "F WES C A MAR - SPA")
    assert isinstance(error, IllegalConvoyError)
    assert check("S1901M", units, "ITALY", "F LYO C A MAR - SPA") is None


def test_a_fleet_beside_two_fleets_that_touch_is_on_no_route_and_may_not_convoy() -> None:
    # Belgium - Gascony: English Channel then Mid-Atlantic, which touch; the Irish Sea between them
    # could only lengthen the chain, so its convoy is never needed.
    units = [Unit("FRANCE", A, "BEL"), Unit("FRANCE", F, "ENG"), Unit("FRANCE", F, "IRI"), Unit("FRANCE", F, "MAO")]
    assert isinstance(check("S1901M", units, "FRANCE", "F IRI C A BEL - GAS"), IllegalConvoyError)
    assert check("S1901M", units, "FRANCE", "F ENG C A BEL - GAS") is None
    assert check("S1901M", units, "FRANCE", "F MAO C A BEL - GAS") is None


def test_support_orders() -> None:
    units = [Unit("AUSTRIA", A, "RUM"), Unit("TURKEY", F, "BLA"), Unit("TURKEY", A, "BUL")]
    assert isinstance(check("S1901M", units, "TURKEY", "A BUL S A BUL"), IllegalSupportError)
    # DATC 6.D.31: the only convoy route passes through the supporting fleet.
    assert isinstance(check("S1901M", units, "TURKEY", "F BLA S A RUM - ARM"), IllegalSupportError)
    error = check("S1901M", units, "TURKEY", "A BUL S A RUM - UKR")
    assert isinstance(error, NotAdjacentError)
    assert "could not move there" in str(error)
    assert check("S1901M", units, "TURKEY", "F BLA S A RUM - SEV") is None
    assert isinstance(check("S1901M", units, "TURKEY", "A BUL S A SER - GRE"), NoSuchUnitError)


def test_a_support_for_a_move_to_an_inland_province_the_army_cannot_reach_is_refused() -> None:
    # Rumania does not border Vienna, and no convoy lands inland: Galicia's support is for nothing.
    units = [Unit("AUSTRIA", A, "RUM"), Unit("RUSSIA", A, "GAL")]
    error = check("S1901M", units, "RUSSIA", "A GAL S A RUM - VIE")
    assert isinstance(error, IllegalSupportError)
    assert str(error) == "The army in Rumania cannot reach Vienna."
    assert check("S1901M", units, "RUSSIA", "A GAL S A RUM - BUD") is None


def test_orders_of_the_wrong_phase() -> None:
    units = [Unit("FRANCE", A, "PAR")]
    error = check("S1901M", units, "FRANCE", "BUILD A PAR")
    assert isinstance(error, WrongPhaseError)
    assert "movement phase" in str(error)
    dislodged = [DislodgedUnit(Unit("FRANCE", A, "BUR"), "MUN")]
    error = check("S1901R", [Unit("GERMANY", A, "BUR"), Unit("FRANCE", A, "PAR")], "FRANCE", "A PAR S A BUR",
                  dislodged=dislodged)
    assert isinstance(error, WrongPhaseError)


def test_retreat_orders() -> None:
    units = [Unit("GERMANY", A, "BUR"), Unit("FRANCE", A, "PAR"), Unit("FRANCE", A, "GAS")]
    dislodged = [DislodgedUnit(Unit("FRANCE", A, "BUR"), "MUN")]
    assert check("S1901R", units, "FRANCE", "A BUR - PIC", dislodged=dislodged) is None
    assert isinstance(check("S1901R", units, "FRANCE", "A BUR - MUN", dislodged=dislodged), IllegalRetreatError)
    assert isinstance(check("S1901R", units, "FRANCE", "A BUR - PAR", dislodged=dislodged), IllegalRetreatError)
    assert isinstance(check("S1901R", units, "FRANCE", "A PAR - PIC", dislodged=dislodged), NotDislodgedError)
    assert isinstance(check("S1901R", units, "GERMANY", "A BUR DISBAND", dislodged=dislodged), NotYourUnitError)
    assert check("S1901R", units, "FRANCE", "A BUR DISBAND", dislodged=dislodged) is None


def test_a_fleet_retreat_without_a_coast_goes_to_the_only_coast_it_reaches() -> None:
    # From Norway a fleet reaches St Petersburg's north coast only: "F NWY - STP" needs no coast.
    dislodged = [DislodgedUnit(Unit("RUSSIA", F, "NWY"), "NTH")]
    assert check("S1901R", [Unit("ENGLAND", F, "BAR")], "RUSSIA", "F NWY - STP", dislodged=dislodged) is None


def test_a_removal_not_owed_is_refused_in_words() -> None:
    error = check("W1901A", [Unit("RUSSIA", A, "MOS")], "RUSSIA", "REMOVE A MOS", centers={"RUSSIA": frozenset({"MOS"})})
    assert isinstance(error, TooManyRemovalsError)
    assert str(error) == "You do not have to remove any units."


def test_retreat_standoff_province_is_refused() -> None:
    position_units = [Unit("GERMANY", A, "BUR")]
    dislodged = [DislodgedUnit(Unit("FRANCE", A, "BUR"), "MUN")]
    position = Position("standard", Phase.parse("S1901R"), tuple(position_units), {}, tuple(dislodged),
                        frozenset({"PIC"}))
    order = parse_order("A BUR - PIC", position.phase.type)
    assert isinstance(validate(position, "FRANCE", order, load_map("standard")), IllegalRetreatError)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("BUILD A MUN", BuildNotHomeCentreError),
        ("BUILD A MAR", BuildNotOwnedError),
        ("BUILD A PAR", BuildOccupiedError),
    ],
)
def test_build_errors(text: str, error: type[OrderError]) -> None:
    units = [Unit("FRANCE", A, "PAR")]
    centers = {"FRANCE": frozenset({"PAR", "BRE", "SPA"})}
    assert isinstance(check("W1901A", units, "FRANCE", text, centers=centers), error)
    assert check("W1901A", units, "FRANCE", "BUILD F BRE", centers=centers) is None


def test_fleet_build_inland() -> None:
    error = check("W1901A", [], "GERMANY", "BUILD F MUN", centers={"GERMANY": frozenset({"MUN"})})
    assert isinstance(error, FleetInlandError)


def test_builds_and_removals_only_when_owed() -> None:
    units = [Unit("FRANCE", A, "PAR")]
    assert isinstance(
        check("W1901A", units, "FRANCE", "BUILD A BRE", centers={"FRANCE": frozenset({"PAR"})}),
        TooManyBuildsError,
    )
    assert isinstance(check("W1901A", units, "FRANCE", "REMOVE A PAR", centers={"FRANCE": frozenset({"PAR"})}),
                      TooManyRemovalsError)
    assert check("W1901A", units, "FRANCE", "REMOVE A PAR", centers={}) is None


def test_the_wrong_phase_is_named_with_its_own_article_in_each_language() -> None:
    from judge.core.errors import render
    from judge.i18n import translation

    error = WrongPhaseError("A PAR - BUR", "adjustment")
    assert str(error) == "The order A PAR - BUR cannot be given in an adjustment phase."
    assert render(error.translatable, translation("fr").gettext) == (
        "L'ordre A PAR - BUR ne peut pas être donné en phase d'ajustement.")
    assert str(WrongPhaseError("A PAR S A BUR", "retreat")).endswith("cannot be given in a retreat phase.")
