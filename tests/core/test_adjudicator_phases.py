"""The flow of phases, centre ownership, the winner, and what the results say."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.core.adjudicator import AdjudicationResult, Outcome, Rules, adjudicate
from judge.core.phase import Phase
from judge.core.position import DislodgedUnit, Position
from judge.core.units import Unit, UnitType
from judge.core.variants import load_map
from tests.core.datc_orders import parse_orders

A, F = UnitType.ARMY, UnitType.FLEET


def play(
    phase: str,
    units: Sequence[Unit],
    orders: Mapping[str, Sequence[str]],
    centers: Mapping[str, frozenset[str]] | None = None,
    dislodged: Sequence[DislodgedUnit] = (),
    standoffs: frozenset[str] = frozenset(),
    rules: Rules | None = None,
) -> AdjudicationResult:
    position = Position("standard", Phase.parse(phase), tuple(units), centers or {}, tuple(dislodged), standoffs)
    return adjudicate(position, parse_orders(orders, position.phase), rules or Rules(), load_map("standard"))


def start() -> Position:
    game_map = load_map("standard")
    return Position("standard", Phase.parse("S1901M"), game_map.starting_units, game_map.starting_centers)


# ------------------------------------------------------------------ phase flow


def test_quiet_year_skips_retreats_and_adjustments() -> None:
    game_map = load_map("standard")
    spring = adjudicate(start(), {}, Rules(), game_map)
    assert str(spring.next_phase) == "F1901M"
    assert spring.position.phase == spring.next_phase
    fall = adjudicate(spring.position, {}, Rules(), game_map)
    assert str(fall.next_phase) == "S1902M"
    assert fall.position.centers == start().centers
    assert len(fall.results) == 22
    assert all(r.order is None and r.reason == "no order: holds" for r in fall.results)


def test_centres_change_only_after_fall() -> None:
    centers = {"FRANCE": frozenset({"PAR"})}
    spring = play("S1901M", [Unit("FRANCE", A, "GAS")], {"FRANCE": ["A GAS - SPA"]}, centers)
    assert spring.position.centers == centers
    assert str(spring.next_phase) == "F1901M"
    fall = play("F1901M", [Unit("FRANCE", A, "GAS")], {"FRANCE": ["A GAS - SPA"]}, centers)
    assert fall.position.centers == {"FRANCE": frozenset({"PAR", "SPA"})}
    assert str(fall.next_phase) == "W1901A"  # one build owed, Paris free


def test_build_owed_without_a_free_home_centre_skips_winter() -> None:
    # France takes Spain: 3 centres (PAR, POR, SPA), 2 units, but its only owned home centre is occupied.
    centers = {"FRANCE": frozenset({"PAR", "POR"})}
    units = [Unit("FRANCE", A, "GAS"), Unit("FRANCE", A, "PAR")]
    fall = play("F1901M", units, {"FRANCE": ["A GAS - SPA"]}, centers)
    assert fall.position.centers == {"FRANCE": frozenset({"PAR", "POR", "SPA"})}
    assert str(fall.next_phase) == "S1902M"


def test_captured_home_centre_owner_keeps_an_empty_centre() -> None:
    centers = {"FRANCE": frozenset({"PAR", "BRE"}), "ENGLAND": frozenset({"LON"})}
    units = [Unit("FRANCE", A, "PAR"), Unit("FRANCE", F, "BRE"), Unit("ENGLAND", F, "LON")]
    fall = play("F1901M", units, {"FRANCE": ["F BRE - MAO"]}, centers)
    assert fall.position.centers["FRANCE"] == frozenset({"PAR", "BRE"})
    assert str(fall.next_phase) == "S1902M"


def test_fall_dislodgement_goes_to_retreats_then_centres_then_winter() -> None:
    units = [Unit("FRANCE", A, "BUR"), Unit("GERMANY", A, "MUN"), Unit("GERMANY", A, "RUH")]
    centers = {"FRANCE": frozenset({"PAR", "MAR"}), "GERMANY": frozenset({"MUN", "KIE"})}
    movement = play("F1901M", units, {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]}, centers)
    assert str(movement.next_phase) == "F1901R"
    assert movement.position.centers == centers  # not before the retreats
    (gone,) = movement.position.dislodged
    assert gone.unit == Unit("FRANCE", A, "BUR") and gone.attacker_from == "MUN"
    assert "MUN" not in movement.retreats[gone.unit]
    retreat = adjudicate(movement.position, parse_orders({"FRANCE": ["A BUR - PAR"]}, movement.next_phase),
                         Rules(), load_map("standard"))
    assert Unit("FRANCE", A, "PAR") in retreat.position.units
    # France: 2 centres, 1 unit, Marseilles free -> a build; so winter comes next.
    assert str(retreat.next_phase) == "W1901A"


def test_spring_retreat_leads_to_fall_movement() -> None:
    units = [Unit("GERMANY", A, "BUR")]
    dislodged = [DislodgedUnit(Unit("FRANCE", A, "BUR"), "MUN")]
    result = play("S1901R", units, {"FRANCE": ["A BUR - PAR"]}, dislodged=dislodged)
    assert str(result.next_phase) == "F1901M"
    assert result.position.dislodged == () and result.position.standoffs == frozenset()


def test_unit_without_retreat_is_destroyed_and_no_retreat_phase_follows() -> None:
    # DATC 6.H.15-like: Portugal dislodged from Spain, the Mid-Atlantic occupied: nowhere to go.
    units = [Unit("FRANCE", F, "SPA/SC"), Unit("FRANCE", F, "MAO"), Unit("ENGLAND", F, "POR")]
    result = play("S1901M", units, {"FRANCE": ["F SPA/SC - POR", "F MAO S F SPA/SC - POR"]})
    assert [d.unit for d in result.dislodged] == [Unit("ENGLAND", F, "POR")]
    assert result.retreats[Unit("ENGLAND", F, "POR")] == ()
    assert str(result.next_phase) == "F1901M"
    assert Unit("ENGLAND", F, "POR") not in result.position.units


def test_fleet_retreats_are_listed_per_coast() -> None:
    units = [Unit("ENGLAND", F, "MAO"), Unit("FRANCE", F, "BRE"), Unit("FRANCE", F, "ENG"),
             Unit("FRANCE", F, "IRI"), Unit("FRANCE", F, "NAO")]
    orders = {"FRANCE": ["F BRE - MAO", "F ENG S F BRE - MAO"]}
    result = play("S1901M", units, orders)
    options = result.retreats[Unit("ENGLAND", F, "MAO")]
    assert {"SPA/NC", "SPA/SC", "POR", "GAS", "WES", "NAF"} <= set(options)
    assert "SPA" not in options and "BRE" not in options


def test_standoff_provinces_are_recorded_and_closed_to_retreats() -> None:
    units = [Unit("FRANCE", A, "PAR"), Unit("GERMANY", A, "MUN"), Unit("GERMANY", A, "RUH"),
             Unit("FRANCE", A, "BUR"), Unit("ITALY", A, "PIE"), Unit("AUSTRIA", A, "TYR")]
    orders = {
        "GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"],
        "ITALY": ["A PIE - MAR"],
        "FRANCE": ["A PAR - GAS"],
        "AUSTRIA": ["A TYR - PIE"],
    }
    result = play("S1901M", units, orders)
    assert "GAS" not in result.position.standoffs
    units.append(Unit("ENGLAND", F, "MAO"))
    orders["ENGLAND"] = ["F MAO - GAS"]
    result = play("S1901M", units, orders)
    assert "GAS" in result.position.standoffs
    assert "GAS" not in result.retreats[Unit("FRANCE", A, "BUR")]


def test_two_retreats_to_one_province_destroy_both() -> None:
    units = [Unit("ITALY", A, "TRI"), Unit("ITALY", F, "GRE")]
    dislodged = [DislodgedUnit(Unit("AUSTRIA", F, "TRI"), "TYR"), DislodgedUnit(Unit("TURKEY", F, "GRE"), "ION")]
    result = play("S1901R", units, {"AUSTRIA": ["F TRI - ALB"], "TURKEY": ["F GRE - ALB"]}, dislodged=dislodged)
    assert set(result.position.units) == set(units)
    assert [r.reason for r in result.results] == ["bounce, destroyed", "bounce, destroyed"]


def test_an_illegal_retreat_and_a_superseded_one_are_invalid_with_their_reason() -> None:
    # The results mail quotes the reason: the refused retreat's says where the unit could go.
    units = [Unit("GERMANY", A, "BUR")]
    dislodged = [DislodgedUnit(Unit("FRANCE", A, "BUR"), "MUN")]
    refused = play("S1901R", units, {"FRANCE": ["A BUR - MUN"]}, dislodged=dislodged)
    assert [(r.outcome, r.reason) for r in refused.results] == [
        (Outcome.INVALID, "The army in Burgundy cannot retreat to Munich; it may retreat to Belgium, Gascony, "
                          "Marseilles, Paris, Picardy, Ruhr."),
        (Outcome.FAILS, "no order: disbanded"),
    ]
    twice = play("S1901R", units, {"FRANCE": ["A BUR - PAR", "A BUR - PIC"]}, dislodged=dislodged)
    assert [(r.outcome, r.reason) for r in twice.results] == [
        (Outcome.INVALID, "superseded by a later order"),
        (Outcome.SUCCEEDS, ""),
    ]
    assert Unit("FRANCE", A, "PIC") in twice.position.units


def test_a_power_with_a_centre_and_no_unit_brings_a_winter() -> None:
    # Germany keeps Munich with no unit left: it owes a build, so the winter is played.
    centers = {"FRANCE": frozenset({"PAR"}), "GERMANY": frozenset({"MUN"})}
    assert str(play("F1901M", [Unit("FRANCE", A, "PAR")], {}, centers).next_phase) == "W1901A"


def test_a_power_with_no_centre_yet_takes_the_one_its_army_stands_on() -> None:
    # France is in no entry of the centres at all (a power that lost every centre, say).
    result = play("F1901M", [Unit("FRANCE", A, "BEL")], {}, {"GERMANY": frozenset({"MUN"})})
    assert result.position.centers == {"FRANCE": frozenset({"BEL"}), "GERMANY": frozenset({"MUN"})}
    assert str(result.next_phase) == "W1901A"


# ---------------------------------------------------------------- adjustments


def test_one_removal_owed_takes_the_first_removal_and_refuses_the_next() -> None:
    units = [Unit("RUSSIA", A, "MOS"), Unit("RUSSIA", A, "WAR")]
    result = play("W1901A", units, {"RUSSIA": ["REMOVE A WAR", "REMOVE A MOS"]}, {"RUSSIA": frozenset({"MOS"})})
    assert [(r.outcome, r.reason) for r in result.results] == [
        (Outcome.SUCCEEDS, "removed"),
        (Outcome.INVALID, "You have to remove only 1 unit(s)."),
    ]
    assert result.position.units == (Unit("RUSSIA", A, "MOS"),)


def test_a_power_with_units_and_no_centre_entry_removes_them_all() -> None:
    # France has no entry in the centres at all: it owes one removal per unit.
    result = play("W1901A", [Unit("FRANCE", A, "PAR"), Unit("GERMANY", A, "MUN")], {}, {"GERMANY": frozenset({"MUN"})})
    assert result.position.units == (Unit("GERMANY", A, "MUN"),)
    assert [(r.power, r.outcome, r.reason) for r in result.results] == [
        ("FRANCE", Outcome.FAILS, "removed in civil disorder"),
    ]


def test_a_power_with_neither_centre_nor_unit_may_not_even_waive() -> None:
    result = play("W1901A", [Unit("GERMANY", A, "MUN")], {"FRANCE": ["WAIVE"]}, {"GERMANY": frozenset({"MUN", "BER"})})
    assert [(r.power, r.outcome, r.reason) for r in result.results] == [
        ("FRANCE", Outcome.INVALID, "You may not build any units."),
    ]


def test_builds_waive_and_the_first_legal_builds_count() -> None:
    centers = {"RUSSIA": frozenset({"MOS", "STP", "WAR", "SEV"})}
    units = [Unit("RUSSIA", A, "MOS")]
    orders = {"RUSSIA": ["BUILD A MUN", "BUILD A WAR", "WAIVE", "BUILD F STP/NC", "BUILD F SEV"]}
    result = play("W1901A", units, orders, centers)
    assert set(result.position.units) == {Unit("RUSSIA", A, "MOS"), Unit("RUSSIA", A, "WAR"), Unit("RUSSIA", F, "STP/NC")}
    assert [r.outcome for r in result.results] == [
        Outcome.INVALID,
        Outcome.SUCCEEDS,
        Outcome.SUCCEEDS,
        Outcome.SUCCEEDS,
        Outcome.INVALID,
    ]
    assert result.results[2].reason == "waived"
    assert str(result.next_phase) == "S1902M"


def test_two_builds_in_one_centre() -> None:
    centers = {"FRANCE": frozenset({"PAR", "BRE", "MAR"})}
    result = play("W1901A", [], {"FRANCE": ["BUILD F BRE", "BUILD A BRE"]}, centers)
    assert result.position.units == (Unit("FRANCE", F, "BRE"),)
    assert result.results[1].outcome is Outcome.INVALID


def test_removals_and_civil_disorder_for_the_rest() -> None:
    centers = {"FRANCE": frozenset({"PAR"})}
    units = [Unit("FRANCE", A, "PIC"), Unit("FRANCE", A, "PAR"), Unit("FRANCE", F, "LYO")]
    result = play("W1901A", units, {"FRANCE": ["REMOVE A PAR", "REMOVE A PAR"]}, centers)
    assert result.position.units == (Unit("FRANCE", A, "PIC"),)
    assert [r.outcome for r in result.results] == [Outcome.SUCCEEDS, Outcome.INVALID, Outcome.FAILS]
    assert result.results[2].unit == Unit("FRANCE", F, "LYO")


def test_power_without_orders_owing_removals_is_handled() -> None:
    centers = {"FRANCE": frozenset({"PAR"}), "ENGLAND": frozenset({"LON", "EDI"})}
    units = [Unit("FRANCE", A, "PAR"), Unit("FRANCE", A, "MUN"), Unit("ENGLAND", F, "LON")]
    result = play("W1901A", units, {"ENGLAND": ["BUILD F EDI"]}, centers)
    assert set(result.position.units) == {Unit("FRANCE", A, "PAR"), Unit("ENGLAND", F, "LON"), Unit("ENGLAND", F, "EDI")}


# -------------------------------------------------------------------- winner


def test_winner_after_fall_with_eighteen_centres() -> None:
    game_map = load_map("standard")
    seventeen = frozenset(sorted(game_map.supply_centers - {"NWY"})[:17])
    centers = {"FRANCE": seventeen}
    units = [Unit("FRANCE", F, "NTH")]
    spring = play("S1901M", units, {"FRANCE": ["F NTH - NWY"]}, centers)
    assert spring.winner is None
    fall = play("F1901M", units, {"FRANCE": ["F NTH - NWY"]}, centers)
    assert len(fall.position.centers["FRANCE"]) == 18
    assert fall.winner == "FRANCE"


# ------------------------------------------------------------------- results


def test_reasons_in_the_judges_words() -> None:
    units = [
        Unit("FRANCE", A, "PAR"), Unit("FRANCE", A, "MAR"), Unit("GERMANY", A, "MUN"),
        Unit("ITALY", A, "PIE"), Unit("ENGLAND", A, "LON"), Unit("FRANCE", A, "GAS"),
    ]
    orders = {
        "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "A GAS S A SPA"],
        "GERMANY": ["A MUN - BUR"],
        "ITALY": ["A PIE - MAR"],
        "ENGLAND": ["A LON - BEL"],
    }
    result = play("S1901M", units, orders)
    by_order = {str(r.order): r for r in result.results if r.order is not None}
    assert by_order["A MUN - BUR"].reason == "bounce"
    assert by_order["A PAR - BUR"].reason == "bounce"  # Marseilles' support is cut
    assert by_order["A MAR S A PAR - BUR"].reason == "cut"
    assert by_order["A PIE - MAR"].reason == "bounce"
    assert by_order["A LON - BEL"].outcome is Outcome.INVALID
    assert by_order["A GAS S A SPA"].outcome is Outcome.INVALID
    unordered = [r for r in result.results if r.order is None]
    assert {(r.unit, r.reason) for r in unordered} == {
        (Unit("ENGLAND", A, "LON"), "no order: holds (invalid order)"),
        (Unit("FRANCE", A, "GAS"), "no order: holds (invalid order)"),
    }


def test_void_support_and_convoy_and_no_convoy() -> None:
    units = [Unit("ENGLAND", A, "LON"), Unit("ENGLAND", F, "NTH"), Unit("ENGLAND", A, "YOR"),
             Unit("ENGLAND", A, "WAL")]
    orders = {"ENGLAND": ["A LON - BEL", "F NTH C A YOR - HOL", "A YOR H", "A WAL S A YOR - LVP"]}
    result = play("S1901M", units, orders)
    by_order = {str(r.order): r for r in result.results}
    assert by_order["A LON - BEL"].reason == "no convoy"
    assert by_order["F NTH C A YOR - HOL"].reason == "void"
    assert by_order["A WAL S A YOR - LVP"].reason == "void"
    assert by_order["A YOR H"].outcome is Outcome.SUCCEEDS


def test_disrupted_convoy_and_dislodged_reasons() -> None:
    units = [Unit("ENGLAND", A, "LON"), Unit("ENGLAND", F, "NTH"), Unit("GERMANY", F, "HEL"),
             Unit("GERMANY", F, "DEN")]
    orders = {
        "ENGLAND": ["A LON - BEL", "F NTH C A LON - BEL"],
        "GERMANY": ["F HEL - NTH", "F DEN S F HEL - NTH"],
    }
    result = play("S1901M", units, orders)
    by_order = {str(r.order): r for r in result.results}
    assert by_order["A LON - BEL"].reason == "disrupted"
    assert by_order["F NTH C A LON - BEL"].reason == "dislodged"
    assert by_order["F NTH C A LON - BEL"].outcome is Outcome.FAILS
    assert by_order["F HEL - NTH"].outcome is Outcome.SUCCEEDS


def test_convoyed_attacker_is_recorded_for_the_retreat() -> None:
    units = [Unit("ENGLAND", A, "LON"), Unit("ENGLAND", F, "NTH"), Unit("ENGLAND", F, "ENG"),
             Unit("FRANCE", A, "BEL")]
    orders = {"ENGLAND": ["A LON - BEL", "F NTH C A LON - BEL", "F ENG S A LON - BEL"]}
    result = play("S1901M", units, orders)
    (gone,) = result.dislodged
    assert gone.attacker_from == "LON"
    assert gone.attacker_via_convoy is True

