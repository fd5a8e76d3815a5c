"""Seed 002's house rules as adjudicator rule options, each with the seed's own example where it gives one.

Seed 002 is the French championship's rules (XLIe championnat de France,
"IV Annotation sur les règles du jeu"). Every option is off by default, so
the DATC cases are untouched; these tests show each one changes exactly the
situation the seed describes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.core.adjudicator import AdjudicationResult, Outcome, Rules, adjudicate
from judge.core.phase import Phase
from judge.core.position import Position
from judge.core.units import Unit, UnitType
from judge.core.variants import load_map
from tests.core.datc_orders import parse_orders

A, F = UnitType.ARMY, UnitType.FLEET
NAMED = Rules(foreign_coast_support="named")
COMPLETE = Rules(complete_from_support=True)


def play(
    units: Sequence[Unit],
    orders: Mapping[str, Sequence[str]],
    rules: Rules,
    phase: str = "S1901M",
    centers: Mapping[str, frozenset[str]] | None = None,
) -> AdjudicationResult:
    position = Position("standard", Phase.parse(phase), tuple(units), centers or {}, ())
    return adjudicate(position, parse_orders(orders, position.phase), rules, load_map("standard"))


def locations(result: AdjudicationResult) -> set[str]:
    return {unit.location for unit in result.position.units}


# --------------------------------------------- support to a fleet attacking a split coast

SPAIN = [Unit("ENGLAND", F, "MAO"), Unit("FRANCE", A, "MAR"), Unit("ITALY", A, "SPA")]


def test_foreign_support_without_the_coast_is_valid_by_default() -> None:
    """DATC 6.B.15 / 4.B.4: a support that names no coast counts."""
    result = play(SPAIN, {"ENGLAND": ["F MAO - SPA/NC"], "FRANCE": ["A MAR S F MAO - SPA"]}, Rules())
    assert "SPA/NC" in locations(result)
    assert [d.unit.location for d in result.dislodged] == ["SPA"]


def test_seed002_foreign_support_must_name_the_attacked_coast() -> None:
    """Seed 002, "Autres éléments sur la rédaction des soutiens": "un ordre de soutien d'une flotte d'une
    autre nationalité pour une attaque vers une région à plusieurs côtes n'est valable, dans le cas où la
    flotte peut effectivement attaquer plus d'une côte, que si la côte attaquée est indiquée et est la même
    que dans l'ordre d'attaque" (the seed's form: "A Marseille S F Atlantique - Espagne côte nord")."""
    bare = play(SPAIN, {"ENGLAND": ["F MAO - SPA/NC"], "FRANCE": ["A MAR S F MAO - SPA"]}, NAMED)
    assert bare.dislodged == ()
    assert "MAO" in locations(bare)
    support = next(r for r in bare.results if r.power == "FRANCE")
    assert support.outcome is Outcome.FAILS and support.reason == "void"

    named = play(SPAIN, {"ENGLAND": ["F MAO - SPA/NC"], "FRANCE": ["A MAR S F MAO - SPA/NC"]}, NAMED)
    assert [d.unit.location for d in named.dislodged] == ["SPA"]

    wrong = play(SPAIN, {"ENGLAND": ["F MAO - SPA/NC"], "FRANCE": ["A MAR S F MAO - SPA/SC"]}, NAMED)
    assert wrong.dislodged == ()


def test_seed002_same_nationality_support_needs_no_coast() -> None:
    """Seed 002: "Si la flotte soutenue est de la même nationalité que l'unité qui donne son soutien, la
    mention de la côte n'est pas obligatoire"."""
    units = [Unit("FRANCE", F, "MAO"), Unit("FRANCE", A, "GAS"), Unit("ITALY", A, "SPA")]
    result = play(units, {"FRANCE": ["F MAO - SPA/NC", "A GAS S F MAO - SPA"]}, NAMED)
    assert [d.unit.location for d in result.dislodged] == ["SPA"]


def test_seed002_coast_needed_only_when_the_fleet_could_reach_two() -> None:
    """Seed 002: "dans le cas où la flotte peut effectivement attaquer plus d'une côte": from the Gulf of
    Lyon only the south coast of Spain can be reached, so a foreign support without a coast is valid."""
    units = [Unit("ENGLAND", F, "LYO"), Unit("FRANCE", A, "MAR"), Unit("ITALY", A, "SPA")]
    result = play(units, {"ENGLAND": ["F LYO - SPA/SC"], "FRANCE": ["A MAR S F LYO - SPA"]}, NAMED)
    assert [d.unit.location for d in result.dislodged] == ["SPA"]


# --------------------------------------------- incomplete order completed from the support order


def test_missing_order_holds_by_default() -> None:
    units = [Unit("FRANCE", A, "PAR"), Unit("FRANCE", A, "BUR")]
    result = play(units, {"FRANCE": ["A BUR S A PAR - PIC"]}, Rules())
    assert locations(result) == {"PAR", "BUR"}


def test_seed002_missing_order_completed_from_own_support() -> None:
    """Seed 002, "Ordre manquant ou incomplet": "Un ordre manquant ou incomplet pour une unité sera
    considéré comme légal si l'ordre pour cette unité est complet dans l'ordre de soutien ou de convoi
    rédigé pour une autre unité de la même nationalité"."""
    units = [Unit("FRANCE", A, "PAR"), Unit("FRANCE", A, "BUR")]
    result = play(units, {"FRANCE": ["A BUR S A PAR - PIC"]}, COMPLETE)
    assert locations(result) == {"PIC", "BUR"}
    completed = next(r for r in result.results if r.unit == Unit("FRANCE", A, "PAR"))
    assert completed.outcome is Outcome.SUCCEEDS and completed.order is not None
    assert completed.reason == "completed"  # the results say the order was completed, not written


def test_seed002_coastless_move_completed_from_the_support_naming_the_coast() -> None:
    """Seed 002: an incomplete order (a fleet to Spain without its coast, seed 002 "Ordres légaux": a build
    of a fleet in St Petersburg without its coast is illegal likewise) is completed by the support."""
    units = [Unit("FRANCE", F, "MAO"), Unit("FRANCE", F, "POR")]
    orders = {"FRANCE": ["F MAO - SPA", "F POR S F MAO - SPA/NC"]}
    assert "MAO" in locations(play(units, orders, Rules()))
    assert "SPA/NC" in locations(play(units, orders, COMPLETE))


def test_seed002_no_completion_when_the_units_own_legal_order_differs() -> None:
    """Seed 002: "sauf s'il y a un autre [ordre] complet légal pour cette unité"."""
    units = [Unit("FRANCE", A, "PAR"), Unit("FRANCE", A, "BUR")]
    result = play(units, {"FRANCE": ["A PAR - GAS", "A BUR S A PAR - PIC"]}, COMPLETE)
    assert locations(result) == {"GAS", "BUR"}


def test_seed002_a_support_to_hold_completes_no_order() -> None:
    """Only a move is completed: a unit supported to hold, with no order, holds as any unit without
    one does, and the results do not call a hold it was never given "completed"."""
    units = [Unit("FRANCE", F, "MAO"), Unit("FRANCE", F, "BRE")]
    result = play(units, {"FRANCE": ["F BRE S F MAO"]}, COMPLETE)
    assert locations(result) == {"MAO", "BRE"}
    fleet = [(r.order, r.reason) for r in result.results if r.unit == Unit("FRANCE", F, "MAO")]
    assert fleet == [(None, "no order: holds")]


def test_seed002_no_completion_from_another_power_or_disagreeing_supports() -> None:
    """Only the same nationality's orders complete ("une autre unité de la même nationalité"), and
    two supports that say different things complete nothing."""
    units = [Unit("FRANCE", A, "PAR"), Unit("GERMANY", A, "BUR")]
    assert locations(play(units, {"GERMANY": ["A BUR S A PAR - PIC"]}, COMPLETE)) == {"PAR", "BUR"}
    units = [Unit("FRANCE", A, "PAR"), Unit("FRANCE", A, "BUR"), Unit("FRANCE", F, "BRE")]
    orders = {"FRANCE": ["A BUR S A PAR - PIC", "F BRE S A PAR - GAS"]}
    assert locations(play(units, orders, COMPLETE)) == {"PAR", "BUR", "BRE"}


def test_seed002_missing_convoy_order_completed_when_it_is_the_only_way() -> None:
    """Seed 002: "un ordre manquant ou incomplet de convoi sera considéré comme légal si l'ordre pour
    cette unité est le seul possible pour rendre possible un ordre d'attaque par convoi rédigé par une
    autre unité de la même nationalité" (the seed's convoy example is A Espagne - Toscane with F golfe
    du Lion C A Espagne - Toscane)."""
    units = [Unit("ITALY", A, "SPA"), Unit("ITALY", F, "LYO")]
    orders = {"ITALY": ["A SPA - TUS"]}
    assert locations(play(units, orders, Rules())) == {"SPA", "LYO"}
    assert locations(play(units, orders, COMPLETE)) == {"TUS", "LYO"}


def test_seed002_no_convoy_completion_when_two_fleets_could_each_do_it() -> None:
    """"le seul possible": with two fleets either of which would carry the army, neither is chosen."""
    units = [Unit("ENGLAND", A, "LON"), Unit("ENGLAND", F, "NTH"), Unit("ENGLAND", F, "ENG")]
    assert locations(play(units, {"ENGLAND": ["A LON - BEL"]}, COMPLETE)) == {"LON", "NTH", "ENG"}


def test_seed002_no_convoy_completion_when_the_needed_fleet_is_not_enough() -> None:
    """Marseilles - Tunis: the Gulf of Lyon is needed, but then either the Western Mediterranean or
    the Tyrrhenian Sea: no chain is "le seul possible", so not even the Gulf of Lyon is completed."""
    units = [Unit("FRANCE", A, "MAR"), Unit("FRANCE", F, "LYO"), Unit("FRANCE", F, "WES"), Unit("FRANCE", F, "TYS")]
    result = play(units, {"FRANCE": ["A MAR - TUN"]}, COMPLETE)
    assert locations(result) == {"MAR", "LYO", "WES", "TYS"}
    fleets = [(r.unit.location, r.order, r.reason) for r in result.results if r.unit is not None and r.unit.type is F]
    assert sorted(fleets) == [(sea, None, "no order: holds") for sea in ("LYO", "TYS", "WES")]


def test_seed002_another_powers_order_to_the_unit_does_not_stop_the_completion() -> None:
    """Only the unit's own power's orders count as "another complete legal order for that unit": a
    German order naming the French army (illegal: not Germany's) leaves the French completion alone."""
    units = [Unit("FRANCE", A, "PAR"), Unit("FRANCE", A, "BUR")]
    result = play(units, {"FRANCE": ["A BUR S A PAR - PIC"], "GERMANY": ["A PAR - GAS"]}, COMPLETE)
    assert locations(result) == {"PIC", "BUR"}


def test_seed002_a_convoy_ordered_in_full_completes_no_other_fleet() -> None:
    """The completion is for a missing convoy order only: when the convoy given carries the army, an
    idle fleet of the same power that could also carry it is left alone (it holds, no order)."""
    units = [Unit("ENGLAND", A, "LON"), Unit("ENGLAND", F, "NTH"), Unit("ENGLAND", F, "ENG")]
    result = play(units, {"ENGLAND": ["A LON - BEL", "F NTH C A LON - BEL"]}, COMPLETE)
    assert locations(result) == {"BEL", "NTH", "ENG"}
    channel = [r for r in result.results if r.unit is not None and r.unit.location == "ENG"]
    assert [(r.order, r.reason) for r in channel] == [(None, "no order: holds")]
