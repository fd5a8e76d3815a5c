"""Rule options: reading and writing them, and one game situation per option where it matters."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from judge.core.adjudicator import AdjudicationResult, Outcome, Rules, adjudicate
from judge.core.errors import CoreError, RulesError
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
    rules: Rules,
    centers: Mapping[str, frozenset[str]] | None = None,
    dislodged: Sequence[DislodgedUnit] = (),
) -> AdjudicationResult:
    position = Position("standard", Phase.parse(phase), tuple(units), centers or {}, tuple(dislodged))
    return adjudicate(position, parse_orders(orders, position.phase), rules, load_map("standard"))


# ------------------------------------------------------------------ the value


def test_defaults_follow_datc_preferences_and_the_judge_for_duplicates() -> None:
    rules = Rules()
    assert rules.paradox == "szykman"
    assert rules.civil_disorder_removals == "distance_to_owned"
    assert rules.missing_retreats == "disband"
    assert rules.missing_coast == "fail"
    assert rules.duplicate_orders == "last"
    assert rules.adjacent_convoy == "intent"
    assert rules.retreat_to_convoy_origin is True


def test_mapping_round_trip() -> None:
    rules = Rules(paradox="descartes", duplicate_orders="hold", retreat_to_convoy_origin=False)
    assert Rules.from_mapping(rules.to_mapping()) == rules
    assert Rules.from_mapping({}) == Rules()


def test_from_mapping_is_lenient_on_case_and_booleans() -> None:
    rules = Rules.from_mapping({"paradox": " Descartes ", "retreat_to_convoy_origin": "no"})
    assert rules.paradox == "descartes"
    assert rules.retreat_to_convoy_origin is False


def test_unknown_option_is_named() -> None:
    with pytest.raises(RulesError) as caught:
        Rules.from_mapping({"paradoxx": "szykman"})
    assert caught.value.option == "paradoxx"
    assert "paradoxx" in str(caught.value)
    assert isinstance(caught.value, CoreError)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("paradox", "1982"),
        ("civil_disorder_removals", "random"),
        ("missing_retreats", "hold"),
        ("missing_coast", "second"),
        ("duplicate_orders", "both"),
        ("adjacent_convoy", "never"),
        ("retreat_to_convoy_origin", "maybe"),
    ],
)
def test_bad_value_names_option_value_and_choices(option: str, value: str) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.from_mapping({option: value})
    assert caught.value.option == option
    assert caught.value.value == value
    assert caught.value.allowed
    assert option in str(caught.value)


# ------------------------------------------------------------------ paradox


def test_paradox_option_changes_a_second_order_paradox() -> None:
    units = [
        Unit("ENGLAND", F, "EDI"),
        Unit("ENGLAND", F, "LON"),
        Unit("FRANCE", A, "BRE"),
        Unit("FRANCE", F, "ENG"),
        Unit("GERMANY", F, "PIC"),
        Unit("GERMANY", F, "BEL"),
        Unit("RUSSIA", A, "NWY"),
        Unit("RUSSIA", F, "NTH"),
    ]
    orders = {
        "ENGLAND": ["F EDI - NTH", "F LON S F EDI - NTH"],
        "FRANCE": ["A BRE - LON", "F ENG C A BRE - LON"],
        "GERMANY": ["F PIC - ENG", "F BEL S F PIC - ENG"],
        "RUSSIA": ["A NWY - BEL", "F NTH C A NWY - BEL"],
    }
    szykman = play("S1901M", units, orders, Rules())
    descartes = play("S1901M", units, orders, Rules(paradox="descartes"))
    assert {d.unit.location for d in szykman.dislodged} == {"ENG", "NTH"}
    assert descartes.dislodged == ()


# ------------------------------------------------------- civil disorder removals

CD_UNITS = [Unit("FRANCE", A, "DEN"), Unit("FRANCE", A, "GAL"), Unit("FRANCE", A, "STP")]
CD_CENTERS = {"FRANCE": frozenset({"PAR", "STP"})}


@pytest.mark.parametrize(
    ("rule", "removed"),
    [
        # Owned centres PAR, STP: Denmark and Galicia are both 3 away; Denmark comes first alphabetically.
        ("distance_to_owned", "DEN"),
        # Home centres BRE, PAR, MAR: Galicia and St Petersburg are 4 from the nearest; Galicia first.
        ("distance_to_home", "GAL"),
        # Sum of distances to the three home centres: St Petersburg is the farthest.
        ("seed000", "STP"),
    ],
)
def test_civil_disorder_removal_rule(rule: str, removed: str) -> None:
    result = play("W1901A", CD_UNITS, {}, Rules(civil_disorder_removals=rule), CD_CENTERS)
    remaining = {u.location for u in result.position.units}
    assert remaining == {"DEN", "GAL", "STP"} - {removed}
    (line,) = result.results
    assert line.unit is not None and line.unit.location == removed
    assert line.reason == "removed in civil disorder"


def test_seed000_removal_prefers_ordinary_province_on_equal_sums() -> None:
    # For Italy (home ROM, NAP, VEN) Berlin and Silesia both sum to 12; Berlin, a centre, would come
    # first alphabetically, but seed 000 removes from ordinary provinces before centres.
    units = [Unit("ITALY", A, "BER"), Unit("ITALY", A, "SIL"), Unit("ITALY", A, "ROM")]
    centers = {"ITALY": frozenset({"ROM"})}
    seed = play("W1901A", units, {}, Rules(civil_disorder_removals="seed000"), centers)
    assert set(seed.position.units) == {Unit("ITALY", A, "ROM")}
    units = [*units[:2], Unit("ITALY", A, "ROM"), Unit("ITALY", A, "NAP")]
    centers = {"ITALY": frozenset({"ROM", "NAP", "VEN"})}
    seed = play("W1901A", units, {}, Rules(civil_disorder_removals="seed000"), centers)
    assert Unit("ITALY", A, "SIL") not in seed.position.units
    assert Unit("ITALY", A, "BER") in seed.position.units


# ------------------------------------------------------------- missing retreats


def test_missing_retreat_disbands_by_default_and_seed000_retreats_towards_home() -> None:
    dislodged = [DislodgedUnit(Unit("FRANCE", A, "BUR"), "MUN")]
    units = [Unit("GERMANY", A, "BUR")]
    disband = play("S1901R", units, {}, Rules(), dislodged=dislodged)
    assert {u.location for u in disband.position.units} == {"BUR"}
    assert disband.results[0].reason == "no order: disbanded"
    # Options PAR, PIC, GAS, MAR, BEL, RUH; sums to BRE+PAR+MAR: PAR 3, GAS 3 -> the centre, Paris.
    seed = play("S1901R", units, {}, Rules(missing_retreats="seed000"), dislodged=dislodged)
    assert Unit("FRANCE", A, "PAR") in seed.position.units
    assert seed.results[0].outcome is Outcome.SUCCEEDS


# ----------------------------------------------------------------- missing coast


def test_missing_coast_fails_or_takes_the_first_coast() -> None:
    units = [Unit("FRANCE", F, "MAO")]
    fail = play("S1901M", units, {"FRANCE": ["F MAO - SPA"]}, Rules())
    assert Unit("FRANCE", F, "MAO") in fail.position.units
    assert fail.results[0].outcome is Outcome.INVALID
    assert "coast" in fail.results[0].reason
    first = play("S1901M", units, {"FRANCE": ["F MAO - SPA"]}, Rules(missing_coast="first"))
    assert Unit("FRANCE", F, "SPA/NC") in first.position.units


def test_missing_coast_with_one_reachable_coast_goes_there_under_both_rules() -> None:
    for rules in (Rules(), Rules(missing_coast="first")):
        result = play("S1901M", [Unit("FRANCE", F, "MAR")], {"FRANCE": ["F MAR - SPA"]}, rules)
        assert Unit("FRANCE", F, "SPA/SC") in result.position.units


def test_missing_coast_in_a_build() -> None:
    units = [Unit("RUSSIA", A, "MOS")]
    centers = {"RUSSIA": frozenset({"MOS", "STP"})}
    fail = play("W1901A", units, {"RUSSIA": ["BUILD F STP"]}, Rules(), centers)
    assert fail.results[0].outcome is Outcome.INVALID
    first = play("W1901A", units, {"RUSSIA": ["BUILD F STP"]}, Rules(missing_coast="first"), centers)
    assert Unit("RUSSIA", F, "STP/NC") in first.position.units


# ------------------------------------------------------------- duplicate orders


@pytest.mark.parametrize(
    ("rule", "where"),
    [("last", "PIE"), ("first", "TYR"), ("hold", "VEN")],
)
def test_duplicate_orders(rule: str, where: str) -> None:
    result = play(
        "S1901M",
        [Unit("ITALY", A, "VEN")],
        {"ITALY": ["A VEN - TYR", "A VEN - PIE"]},
        Rules(duplicate_orders=rule),
    )
    assert result.position.units == (Unit("ITALY", A, where),)
    invalid = [r for r in result.results if r.outcome is Outcome.INVALID]
    assert len(invalid) == (2 if rule == "hold" else 1)


def test_duplicate_hold_rule_leaves_the_unit_able_to_receive_hold_support() -> None:
    units = [Unit("ITALY", A, "VEN"), Unit("ITALY", A, "ROM"), Unit("AUSTRIA", A, "TRI"), Unit("AUSTRIA", A, "TYR")]
    orders = {
        "ITALY": ["A VEN - TYR", "A VEN - PIE", "A ROM S A VEN"],
        "AUSTRIA": ["A TRI - VEN", "A TYR S A TRI - VEN"],
    }
    held = play("S1901M", units, orders, Rules(duplicate_orders="hold"))
    assert held.dislodged == ()  # 2 against 2: Venice holds with Rome's support
    last = play("S1901M", units, orders, Rules(duplicate_orders="last"))
    assert Unit("ITALY", A, "PIE") in last.position.units  # it moved away; Austria takes Venice
    assert Unit("AUSTRIA", A, "VEN") in last.position.units


def test_identical_repeated_orders_are_one_order_even_under_hold() -> None:
    result = play(
        "S1901M",
        [Unit("ITALY", A, "VEN")],
        {"ITALY": ["A VEN - TYR", "A VEN - TYR"]},
        Rules(duplicate_orders="hold"),
    )
    assert result.position.units == (Unit("ITALY", A, "TYR"),)


def test_an_illegal_order_does_not_count_as_a_duplicate() -> None:
    result = play(
        "S1901M",
        [Unit("ITALY", A, "VEN")],
        {"ITALY": ["A VEN - TYR", "A VEN - MUN"]},
        Rules(duplicate_orders="hold"),
    )
    assert result.position.units == (Unit("ITALY", A, "TYR"),)


# -------------------------------------------------------------- adjacent convoy


def test_adjacent_convoy_intent_of_own_fleet_or_only_when_explicit() -> None:
    units = [Unit("FRANCE", A, "PIC"), Unit("FRANCE", F, "ENG"), Unit("GERMANY", A, "BEL")]
    orders = {"FRANCE": ["A PIC - BEL", "F ENG C A PIC - BEL"], "GERMANY": ["A BEL - PIC"]}
    intent = play("S1901M", units, orders, Rules())
    assert {Unit("FRANCE", A, "BEL"), Unit("GERMANY", A, "PIC")} <= set(intent.position.units)
    explicit = play("S1901M", units, orders, Rules(adjacent_convoy="explicit"))
    assert {Unit("FRANCE", A, "PIC"), Unit("GERMANY", A, "BEL")} <= set(explicit.position.units)
    via = {"FRANCE": ["A PIC - BEL VIA CONVOY", "F ENG C A PIC - BEL"], "GERMANY": ["A BEL - PIC"]}
    assert Unit("FRANCE", A, "BEL") in play("S1901M", units, via, Rules(adjacent_convoy="explicit")).position.units


# ------------------------------------------------------ retreat to convoy origin


def test_retreat_to_the_origin_of_a_convoyed_attacker() -> None:
    units = [Unit("ENGLAND", A, "BEL")]
    dislodged = [DislodgedUnit(Unit("GERMANY", A, "BEL"), "PIC", attacker_via_convoy=True)]
    orders = {"GERMANY": ["A BEL - PIC"]}
    allowed = play("S1901R", units, orders, Rules(), dislodged=dislodged)
    assert Unit("GERMANY", A, "PIC") in allowed.position.units
    refused = play("S1901R", units, orders, Rules(retreat_to_convoy_origin=False), dislodged=dislodged)
    assert refused.results[0].outcome is Outcome.INVALID
    assert Unit("GERMANY", A, "PIC") not in refused.position.units


def test_a_unit_without_orders_dislodged_by_the_first_unit_is_reported_dislodged() -> None:
    """An unordered unit holds; when it is dislodged its result fails and says so, whichever unit of
    the position (the first one here) dislodged it."""
    units = [Unit("FRANCE", A, "BUR"), Unit("FRANCE", A, "RUH"), Unit("GERMANY", A, "MUN")]
    result = play("S1901M", units, {"FRANCE": ["A BUR - MUN", "A RUH S A BUR - MUN"]}, Rules())
    assert [d.unit for d in result.dislodged] == [Unit("GERMANY", A, "MUN")]
    munich = [r for r in result.results if r.unit == Unit("GERMANY", A, "MUN")]
    assert [(r.order, r.outcome, r.reason) for r in munich] == [(None, Outcome.FAILS, "no order: holds, dislodged")]
