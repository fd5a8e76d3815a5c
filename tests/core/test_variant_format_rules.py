"""Special rules of variant files, case by case in the DATC's style, on the made-up Tinyland map.

Each case gives the position, the orders and the outcome the rule's text
(judge/core/special_rules.py, docs/variants.md) calls for. Tinyland: a line
AAA-BBB-CCC-DDD-EEE-FFF of land provinces, GGG beside CCC and DDD, HHH beside
GGG and EEE; centres AAA (North), DDD, FFF (South), GGG (Frozen Antarctica), HHH.
"""

from __future__ import annotations

from judge.core.adjudicator import Outcome
from judge.core.special_rules import NEUTRAL
from judge.core.units import Unit, UnitType
from judge.core.variants import parse_map
from tests.core.tiny_variant import play, tiny_data, tiny_map

A = UnitType.ARMY
N, S, X = "NORTH", "SOUTH", "FROZEN-ANTARCTICA"
HOMES = {N: frozenset({"AAA"}), S: frozenset({"FFF"}), X: frozenset({"GGG"})}
RAILWAY = {"name": "railway", "power": N, "provinces": ["AAA", "BBB", "CCC", "DDD", "EEE"]}


def units_of(result: object) -> set[tuple[str, str]]:
    return {(u.power, u.location) for u in result.position.units}  # type: ignore[attr-defined]


def outcome(result: object, power: str, location: str) -> Outcome:
    for r in result.results:  # type: ignore[attr-defined]
        if r.power == power and r.unit is not None and r.unit.location == location:
            return r.outcome
    raise AssertionError(f"no result for {power} {location}")


# ------------------------------------------------------------------ build_any_owned_centre


def test_build_in_an_owned_centre_that_is_not_home_under_the_rule() -> None:
    game_map = tiny_map(special_rules=["build_any_owned_centre"])
    centers = {N: frozenset({"AAA", "DDD"})}
    result = play(game_map, "W1901A", [Unit(N, A, "AAA")], {N: ["BUILD A DDD"]}, centers)
    assert (N, "DDD") in units_of(result)


def test_without_the_rule_only_home_centres_take_builds() -> None:
    game_map = tiny_map()
    centers = {N: frozenset({"AAA", "DDD"})}
    result = play(game_map, "W1901A", [Unit(N, A, "AAA")], {N: ["BUILD A DDD"]}, centers)
    assert (N, "DDD") not in units_of(result)
    assert result.results[0].outcome is Outcome.INVALID


def test_a_free_owned_centre_makes_a_winter_only_under_the_rule() -> None:
    # North's home AAA is occupied; HHH is owned and free: an adjustment phase only if it may build there.
    units = [Unit(N, A, "AAA"), Unit(N, A, "CCC")]
    centers = {N: frozenset({"AAA", "HHH"})}
    fall_orders = {N: ["A CCC - DDD"]}
    with_rule = play(tiny_map(special_rules=["build_any_owned_centre"]), "F1901M", units, fall_orders, centers)
    assert str(with_rule.next_phase) == "W1901A"
    without = play(tiny_map(), "F1901M", units, fall_orders, centers)
    assert str(without.next_phase) == "S1902M"


def test_the_rule_does_not_lift_the_occupied_centre_ban() -> None:
    game_map = tiny_map(special_rules=["build_any_owned_centre"])
    units = [Unit(N, A, "AAA"), Unit(N, A, "DDD")]
    result = play(game_map, "W1901A", units, {N: ["BUILD A DDD"]}, {N: frozenset({"AAA", "DDD", "HHH"})})
    assert result.results[0].outcome is Outcome.INVALID


def test_a_build_in_an_unowned_centre_fails_even_under_the_rule() -> None:
    game_map = tiny_map(special_rules=["build_any_owned_centre"])
    result = play(game_map, "W1901A", [], {N: ["BUILD A DDD"]}, {N: frozenset({"AAA"})})
    assert (N, "DDD") not in units_of(result)


# ------------------------------------------------------------------ hong_kong

HONG_KONG = {"name": "hong_kong", "province": "HHH", "not_for": X}


def test_hong_kong_is_no_centre_for_the_excluded_power() -> None:
    game_map = tiny_map(special_rules=[HONG_KONG])
    result = play(game_map, "F1901M", [Unit(X, A, "GGG")], {X: ["A GGG - HHH"]}, {X: HOMES[X]})
    assert (X, "HHH") in units_of(result)
    assert result.position.centers[X] == {"GGG"}
    assert str(result.next_phase) == "S1902M"  # no build owed


def test_hong_kong_is_a_centre_for_the_other_powers() -> None:
    game_map = tiny_map(special_rules=[HONG_KONG])
    result = play(game_map, "F1901M", [Unit(S, A, "EEE")], {S: ["A EEE - HHH"]}, HOMES)
    assert result.position.centers[S] == {"FFF", "HHH"}


def test_the_excluded_power_takes_hong_kong_from_its_owner_without_owning_it() -> None:
    game_map = tiny_map(special_rules=[HONG_KONG])
    centers = {**HOMES, S: frozenset({"FFF", "HHH"})}
    result = play(game_map, "F1901M", [Unit(X, A, "GGG")], {X: ["A GGG - HHH"]}, centers)
    assert result.position.centers[S] == {"FFF"}
    assert all("HHH" not in owned for owned in result.position.centers.values())


def test_hong_kong_does_not_count_for_victory_for_the_excluded_power() -> None:
    # Four centres win; Frozen Antarctica stands on GGG, DDD, FFF and Hong Kong: only three count.
    game_map = tiny_map(special_rules=[HONG_KONG])
    units = [Unit(X, A, "GGG"), Unit(X, A, "DDD"), Unit(X, A, "FFF"), Unit(X, A, "EEE")]
    centers = {X: frozenset({"GGG", "DDD", "FFF"})}
    result = play(game_map, "F1901M", units, {X: ["A EEE - HHH"]}, centers)
    assert result.winner is None
    without_rule = play(tiny_map(), "F1901M", units, {X: ["A EEE - HHH"]}, centers)
    assert without_rule.winner == X


# ------------------------------------------------------------------ railway


def test_railway_carries_an_army_along_empty_line() -> None:
    game_map = tiny_map(special_rules=[RAILWAY], centre_owners={N: ["AAA", "DDD"], S: ["FFF"], X: ["GGG"]})
    result = play(game_map, "S1901M", [Unit(N, A, "AAA")], {N: ["A AAA - EEE"]}, game_map.starting_centers)
    assert units_of(result) == {(N, "EEE")}


def test_railway_bounces_on_a_foreign_unit_that_stays_on_the_way() -> None:
    game_map = tiny_map(special_rules=[RAILWAY])
    result = play(game_map, "S1901M", [Unit(N, A, "AAA"), Unit(S, A, "BBB")], {N: ["A AAA - CCC"]})
    assert outcome(result, N, "AAA") is Outcome.FAILS
    assert (N, "AAA") in units_of(result)


def test_railway_passes_when_the_foreign_unit_on_the_way_leaves() -> None:
    game_map = tiny_map(special_rules=[RAILWAY])
    units = [Unit(N, A, "AAA"), Unit(S, A, "BBB")]
    result = play(game_map, "S1901M", units, {N: ["A AAA - CCC"], S: ["A BBB - KKK"]})
    assert units_of(result) == {(N, "CCC"), (S, "KKK")}


def test_railway_passes_when_two_armies_bounce_on_the_way() -> None:
    data = tiny_data(special_rules=[RAILWAY])
    data["provinces"]["LLL"] = {"name": "Lima", "terrain": "land", "army": ["CCC"]}
    data["provinces"]["CCC"]["army"].append("LLL")
    game_map = parse_map(data)
    units = [Unit(N, A, "AAA"), Unit(S, A, "LLL"), Unit(X, A, "GGG")]
    orders = {N: ["A AAA - EEE"], S: ["A LLL - CCC"], X: ["A GGG - CCC"]}
    result = play(game_map, "S1901M", units, orders, {N: frozenset({"AAA", "DDD"})})
    assert units_of(result) == {(N, "EEE"), (S, "LLL"), (X, "GGG")}


def test_railway_bounces_when_a_foreign_army_enters_the_way() -> None:
    game_map = tiny_map(special_rules=[RAILWAY])
    units = [Unit(N, A, "AAA"), Unit(X, A, "GGG")]
    result = play(game_map, "S1901M", units, {N: ["A AAA - DDD"], X: ["A GGG - CCC"]})
    assert outcome(result, N, "AAA") is Outcome.FAILS
    assert units_of(result) == {(N, "AAA"), (X, "CCC")}


def test_a_stopped_train_does_not_bounce_others_at_its_destination() -> None:
    game_map = tiny_map(special_rules=[RAILWAY])
    units = [Unit(N, A, "AAA"), Unit(S, A, "BBB"), Unit(X, A, "GGG")]
    result = play(game_map, "S1901M", units, {N: ["A AAA - CCC"], X: ["A GGG - CCC"]})
    assert units_of(result) == {(N, "AAA"), (S, "BBB"), (X, "CCC")}


def test_only_the_first_railway_order_given_each_turn_rides() -> None:
    # One army a turn takes the railway: the later order is refused and its army holds.
    game_map = tiny_map(special_rules=[RAILWAY])
    units = [Unit(N, A, "AAA"), Unit(N, A, "BBB")]
    centers = {N: frozenset({"AAA", "DDD"})}
    for first, second in (("A AAA - CCC", "A BBB - EEE"), ("A BBB - EEE", "A AAA - CCC")):
        result = play(game_map, "S1901M", units, {N: [first, second]}, centers)
        ridden = first.split()[1]
        refused = second.split()[1]
        assert units_of(result) == {(N, first.split()[-1]), (N, refused)}
        reasons = [(r.unit.location, r.outcome, r.reason) for r in result.results if r.unit is not None]
        assert (ridden, Outcome.SUCCEEDS, "") in reasons
        assert (refused, Outcome.INVALID, "only one army may take the railway each turn") in reasons


def test_railway_passes_through_an_own_unit() -> None:
    game_map = tiny_map(special_rules=[RAILWAY])
    result = play(game_map, "S1901M", [Unit(N, A, "AAA"), Unit(N, A, "BBB")], {N: ["A AAA - CCC"]})
    assert units_of(result) == {(N, "CCC"), (N, "BBB")}


def test_railway_cannot_pass_an_unowned_supply_centre() -> None:
    game_map = tiny_map(special_rules=[RAILWAY])
    result = play(game_map, "S1901M", [Unit(N, A, "AAA")], {N: ["A AAA - EEE"]}, HOMES)
    assert outcome(result, N, "AAA") is Outcome.FAILS
    owned = play(game_map, "S1901M", [Unit(N, A, "AAA")], {N: ["A AAA - EEE"]}, {N: frozenset({"AAA", "DDD"})})
    assert units_of(owned) == {(N, "EEE")}


def test_railway_passes_an_unowned_supply_centre_its_own_army_holds() -> None:
    game_map = tiny_map(special_rules=[RAILWAY])
    units = [Unit(N, A, "AAA"), Unit(N, A, "DDD")]
    holding = play(game_map, "S1901M", units, {N: ["A AAA - EEE"]}, HOMES)
    assert units_of(holding) == {(N, "EEE"), (N, "DDD")}
    leaving = play(game_map, "S1901M", units, {N: ["A AAA - EEE", "A DDD - GGG"]}, HOMES)
    assert outcome(leaving, N, "AAA") is Outcome.FAILS
    bounced = play(
        game_map, "S1901M", [*units, Unit(X, A, "GGG")], {N: ["A AAA - EEE", "A DDD - GGG"]}, HOMES
    )
    assert (N, "EEE") in units_of(bounced)  # the army meant to leave the centre stayed: the line is clear


def test_railway_may_leave_and_enter_an_unowned_supply_centre() -> None:
    game_map = tiny_map(special_rules=[RAILWAY])
    result = play(game_map, "S1901M", [Unit(N, A, "DDD")], {N: ["A DDD - AAA"]}, HOMES)
    assert units_of(result) == {(N, "AAA")}


def test_only_the_railway_power_may_use_it() -> None:
    game_map = tiny_map(special_rules=[RAILWAY])
    result = play(game_map, "S1901M", [Unit(S, A, "AAA")], {S: ["A AAA - CCC"]})
    assert outcome(result, S, "AAA") is Outcome.INVALID


def test_a_move_by_railway_cannot_dislodge() -> None:
    game_map = tiny_map(special_rules=[RAILWAY])
    units = [Unit(N, A, "AAA"), Unit(N, A, "BBB"), Unit(S, A, "CCC")]
    result = play(game_map, "S1901M", units, {N: ["A AAA - CCC", "A BBB S A AAA - CCC"]})
    assert outcome(result, N, "AAA") is Outcome.FAILS
    assert (S, "CCC") in units_of(result) and not result.dislodged


def test_a_move_by_railway_cannot_cut_support() -> None:
    # Frozen Antarctica's GGG, supported from CCC, dislodges North's DDD; North's train to CCC does not cut.
    game_map = tiny_map(special_rules=[RAILWAY])
    units = [Unit(N, A, "AAA"), Unit(N, A, "DDD"), Unit(X, A, "GGG"), Unit(X, A, "CCC")]
    orders = {N: ["A AAA - CCC"], X: ["A GGG - DDD", "A CCC S A GGG - DDD"]}
    result = play(game_map, "S1901M", units, orders)
    assert (X, "DDD") in units_of(result)
    assert [d.unit.location for d in result.dislodged] == ["DDD"]
    assert outcome(result, N, "AAA") is Outcome.FAILS


def test_a_move_by_railway_bounces_an_equal_attack() -> None:
    game_map = tiny_map(special_rules=[RAILWAY])
    units = [Unit(N, A, "AAA"), Unit(S, A, "DDD")]
    result = play(game_map, "S1901M", units, {N: ["A AAA - CCC"], S: ["A DDD - CCC"]})
    assert units_of(result) == {(N, "AAA"), (S, "DDD")}


def test_a_move_by_railway_may_be_supported_to_win() -> None:
    game_map = tiny_map(special_rules=[RAILWAY])
    units = [Unit(N, A, "AAA"), Unit(N, A, "BBB"), Unit(S, A, "DDD")]
    orders = {N: ["A AAA - CCC", "A BBB S A AAA - CCC"], S: ["A DDD - CCC"]}
    result = play(game_map, "S1901M", units, orders)
    assert (N, "CCC") in units_of(result)


def test_a_move_by_railway_enters_a_province_its_holder_leaves() -> None:
    game_map = tiny_map(special_rules=[RAILWAY])
    units = [Unit(N, A, "AAA"), Unit(S, A, "CCC")]
    result = play(game_map, "S1901M", units, {N: ["A AAA - CCC"], S: ["A CCC - GGG"]})
    assert units_of(result) == {(N, "CCC"), (S, "GGG")}


# ------------------------------------------------------------------ neutral_units

NEUTRALS = {"name": "neutral_units", "units": ["A DDD"]}


def test_neutral_units_stand_at_the_start_and_defend() -> None:
    game_map = tiny_map(special_rules=[NEUTRALS])
    assert Unit(NEUTRAL, A, "DDD") in game_map.opening_units
    result = play(game_map, "S1901M", [Unit(N, A, "CCC"), Unit(NEUTRAL, A, "DDD")], {N: ["A CCC - DDD"]})
    assert outcome(result, N, "CCC") is Outcome.FAILS
    assert (NEUTRAL, "DDD") in units_of(result)


def test_a_dislodged_neutral_unit_is_destroyed_without_a_retreat() -> None:
    game_map = tiny_map(special_rules=[NEUTRALS])
    units = [Unit(N, A, "CCC"), Unit(N, A, "GGG"), Unit(NEUTRAL, A, "DDD")]
    result = play(game_map, "S1901M", units, {N: ["A CCC - DDD", "A GGG S A CCC - DDD"]})
    assert (N, "DDD") in units_of(result)
    assert all(u.power != NEUTRAL for u in result.position.units)
    assert str(result.next_phase) == "F1901M"  # no retreat phase for the neutral


def test_a_neutral_unit_may_be_supported_to_hold() -> None:
    game_map = tiny_map(special_rules=[NEUTRALS])
    units = [Unit(N, A, "CCC"), Unit(N, A, "EEE"), Unit(S, A, "GGG"), Unit(NEUTRAL, A, "DDD")]
    orders = {N: ["A CCC - DDD", "A EEE S A CCC - DDD"], S: ["A GGG S A DDD"]}
    result = play(game_map, "S1901M", units, orders)
    assert (NEUTRAL, "DDD") in units_of(result)


def test_neutral_units_own_no_centre_and_owe_no_removal() -> None:
    game_map = tiny_map(special_rules=[NEUTRALS])
    units = [Unit(N, A, "AAA"), Unit(NEUTRAL, A, "DDD")]
    result = play(game_map, "F1901M", units, {}, {N: frozenset({"AAA"})})
    assert result.position.centers == {N: frozenset({"AAA"})}
    assert str(result.next_phase) == "S1902M"
    winter = play(game_map, "W1901A", [*units, Unit(N, A, "CCC")], {}, {N: frozenset({"AAA", "FFF"})})
    assert (NEUTRAL, "DDD") in units_of(winter)


REBUILT = {"name": "neutral_units", "rebuild": True, "units": ["A DDD"]}
"""Known World 901's neutral armies, as webDiplomacy plays them: raised again in the winter."""


def test_a_neutral_army_is_raised_again_where_it_stood_when_no_one_owns_it_and_it_is_empty() -> None:
    game_map = tiny_map(special_rules=[REBUILT])
    units = [Unit(N, A, "AAA"), Unit(S, A, "FFF")]  # the neutral in DDD was destroyed in the spring
    centers = {N: frozenset({"AAA"}), S: frozenset({"FFF"})}
    fall = play(game_map, "F1901M", units, {}, centers)
    assert str(fall.next_phase) == "W1901A"  # held for the neutral alone: no power adjusts
    winter = play(game_map, "W1901A", units, {}, centers)
    assert (NEUTRAL, "DDD") in units_of(winter)
    assert str(winter.next_phase) == "S1902M"
    raised = [r for r in winter.results if r.power == NEUTRAL]
    assert len(raised) == 1 and raised[0].outcome is Outcome.SUCCEEDS


def test_a_neutral_army_is_not_raised_in_a_centre_a_power_owns() -> None:
    game_map = tiny_map(special_rules=["build_any_owned_centre", REBUILT])
    units = [Unit(N, A, "AAA"), Unit(S, A, "FFF")]
    centers = {N: frozenset({"AAA", "DDD"}), S: frozenset({"FFF"})}
    winter = play(game_map, "W1901A", units, {N: ["BUILD A DDD"]}, centers)
    assert (N, "DDD") in units_of(winter) and (NEUTRAL, "DDD") not in units_of(winter)
    fall = play(game_map, "F1901M", [*units, Unit(N, A, "CCC")], {}, centers)
    assert str(fall.next_phase) == "S1902M"  # nothing to adjust, nothing to raise


def test_a_neutral_army_is_not_raised_where_a_unit_stands() -> None:
    game_map = tiny_map(special_rules=[REBUILT])
    units = [Unit(N, A, "AAA"), Unit(S, A, "FFF"), Unit(S, A, "DDD")]
    centers = {N: frozenset({"AAA"}), S: frozenset({"FFF", "GGG"})}
    winter = play(game_map, "W1901A", units, {S: ["BUILD A GGG"]}, centers)
    assert all(u.power != NEUTRAL for u in winter.position.units)


def test_without_rebuild_a_destroyed_neutral_stays_gone() -> None:
    game_map = tiny_map(special_rules=[NEUTRALS])
    units = [Unit(N, A, "AAA"), Unit(S, A, "FFF")]
    centers = {N: frozenset({"AAA"}), S: frozenset({"FFF"})}
    fall = play(game_map, "F1901M", units, {}, centers)
    assert str(fall.next_phase) == "S1902M"
    assert all(u.power != NEUTRAL for u in fall.position.units)


def test_rebuild_must_be_true_or_false() -> None:
    import pytest

    from judge.core.errors import VariantError

    with pytest.raises(VariantError, match="rebuild must be true or false"):
        tiny_map(special_rules=[{**REBUILT, "rebuild": "yes"}])


def test_only_one_army_a_turn_takes_the_railway() -> None:
    game_map = tiny_map(special_rules=[RAILWAY])
    units = [Unit(N, A, "AAA"), Unit(N, A, "EEE")]
    centers = {N: frozenset({"AAA", "DDD"})}
    alone = play(game_map, "S1901M", units, {N: ["A EEE - BBB"]}, centers)
    assert (N, "BBB") in units_of(alone)  # the line is clear for either army
    result = play(game_map, "S1901M", units, {N: ["A AAA - CCC", "A EEE - BBB"]}, centers)
    assert (N, "CCC") in units_of(result)
    assert outcome(result, N, "EEE") is Outcome.INVALID
    assert (N, "EEE") in units_of(result)


def test_with_needs_home_builds_go_anywhere_only_while_a_home_centre_is_owned() -> None:
    game_map = tiny_map(special_rules=[{"name": "build_any_owned_centre", "needs_home": True}])
    with_home = play(game_map, "W1901A", [Unit(N, A, "AAA")], {N: ["BUILD A DDD"]}, {N: frozenset({"AAA", "DDD"})})
    assert (N, "DDD") in units_of(with_home)
    units = [Unit(N, A, "FFF")]
    without_home = play(game_map, "W1901A", units, {N: ["BUILD A DDD"]}, {N: frozenset({"FFF", "DDD"})})
    assert (N, "DDD") not in units_of(without_home)
    assert without_home.results[0].outcome is Outcome.INVALID


# ------------------------------------------------------------------ suez_canal


def test_a_fleet_crosses_the_canal_province_by_the_maps_own_borders() -> None:
    game_map = tiny_map(special_rules=[{"name": "suez_canal", "province": "KKK", "seas": ["WWW"]}])
    assert game_map.special.suez_canal is not None and game_map.special.suez_canal.seas == ("WWW",)
    into = play(game_map, "S1901M", [Unit(N, UnitType.FLEET, "WWW")], {N: ["F WWW - KKK"]})
    assert (N, "KKK") in units_of(into)
    out = play(game_map, "S1901M", [Unit(N, UnitType.FLEET, "KKK")], {N: ["F KKK - WWW"]})
    assert (N, "WWW") in units_of(out)
