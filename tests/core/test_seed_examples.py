"""The worked examples of the French source documents, adjudicated as the documents say.

Seed 000 ("I want you for Diplomacy", Vortigern
1985) gives fourteen examples in old French abbreviations (ANG/ALL/RUS...,
NRD North Sea, MAN English Channel, BOU Burgundy, ROU Rumania, SEB Sevastopol,
NOI Black Sea, GLI Gulf of Lyon, MTY Tyrrhenian Sea, IRL Irish Sea, ESP Spain,
VAR Warsaw); ``=`` marks a move that succeeds, ``:`` one that fails. Some are
garbled in transcription; each test says which reading it takes, checked
against the rulebook example the text reproduces.

Seed 002 (the French championship arbitration rules) gives four convoy
paradox examples A-D, to be resolved with the Descartes rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.core.adjudicator import AdjudicationResult, Rules, adjudicate
from judge.core.phase import Phase
from judge.core.position import Position
from judge.core.units import Unit, UnitType
from judge.core.variants import load_map
from tests.core.datc_orders import parse_orders

SPRING = Phase.parse("S1901M")


def run(
    units: Mapping[str, Sequence[str]],
    orders: Mapping[str, Sequence[str]],
    rules: Rules | None = None,
) -> AdjudicationResult:
    """Adjudicate a Spring movement; ``units`` maps each power to ``"A PAR"``-style unit specs."""
    board = tuple(
        Unit(power, UnitType(spec.split()[0]), spec.split()[1]) for power, specs in units.items() for spec in specs
    )
    position = Position("standard", SPRING, board, {})
    return adjudicate(position, parse_orders(orders, SPRING), rules or Rules(), load_map("standard"))


def located(result: AdjudicationResult) -> set[str]:
    return {f"{u.type.value} {u.location}" for u in result.position.units}


def dislodged(result: AdjudicationResult) -> set[str]:
    return {f"{d.unit.type.value} {d.unit.location}" for d in result.dislodged}


# ----------------------------------------------------------------- seed 000


def test_example_1_no_self_dislodgement_but_the_attack_still_prevents() -> None:
    # "F DAN:FIE": FIE read as KIE (Kiel), as in the rulebook example (England F Den - Kie).
    result = run(
        {"ENGLAND": ["F DEN", "F NTH", "F HEL"], "RUSSIA": ["A BER", "F BAL", "F SKA"]},
        {
            "ENGLAND": ["F DEN - KIE", "F NTH - DEN", "F HEL S F NTH - DEN"],
            "RUSSIA": ["A BER - KIE", "F BAL S F SKA - DEN", "F SKA - DEN"],
        },
    )
    assert located(result) == {"F DEN", "F NTH", "F HEL", "A BER", "F BAL", "F SKA"}
    assert dislodged(result) == set()


def test_example_2_foreign_support_cannot_dislodge_own_unit() -> None:
    # "A FIE S AUTRICHE A BOH-MUN": FIE read as KIE again (Kiel borders Munich).
    units = {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A KIE"], "AUSTRIA": ["A BOH"]}
    orders = {
        "FRANCE": ["A BUR H"],
        "GERMANY": ["A MUN - BUR", "A KIE S A BOH - MUN"],
        "AUSTRIA": ["A BOH - MUN"],
    }
    result = run(units, orders)
    assert located(result) == {"A BUR", "A MUN", "A KIE", "A BOH"}
    # "if Austria had supported its own attack, e.g. A TYR S A BOH-MUN, Munich would be dislodged"
    units["AUSTRIA"] = ["A BOH", "A TYR"]
    orders["AUSTRIA"] = ["A BOH - MUN", "A TYR S A BOH - MUN"]
    result = run(units, orders)
    assert dislodged(result) == {"A MUN"}
    assert "A MUN" in located(result)  # now the Austrian army's place


def test_example_3_standoff_between_own_units_broken_by_support() -> None:
    units = {"AUSTRIA": ["A SER", "A VIE"], "RUSSIA": ["A GAL"]}
    orders = {"AUSTRIA": ["A SER - BUD", "A VIE - BUD"], "RUSSIA": ["A GAL S A SER - BUD"]}
    assert located(run(units, orders)) == {"A BUD", "A VIE", "A GAL"}
    # "It would fail if there were an Austrian army in Budapest."
    units["AUSTRIA"] = ["A SER", "A VIE", "A BUD"]
    assert located(run(units, orders)) == {"A SER", "A VIE", "A BUD", "A GAL"}


def test_example_4_beleaguered_garrison() -> None:
    units = {"AUSTRIA": ["A SER"], "RUSSIA": ["A RUM", "A BUD"], "TURKEY": ["A BUL", "A GRE"]}
    orders = {
        "AUSTRIA": ["A SER H"],
        "RUSSIA": ["A RUM - SER", "A BUD S A RUM - SER"],
        "TURKEY": ["A BUL - SER", "A GRE S A BUL - SER"],
    }
    result = run(units, orders)
    assert located(result) == {"A SER", "A RUM", "A BUD", "A BUL", "A GRE"}
    assert dislodged(result) == set()
    # "had it tried to give a support, the support would have been cut"
    units["AUSTRIA"] = ["A SER", "A TRI"]
    orders["AUSTRIA"] = ["A SER S A TRI", "A TRI H"]
    result = run(units, orders)
    support = next(r for r in result.results if r.order is not None and str(r.order).startswith("A SER S"))
    assert support.reason == "cut"
    assert dislodged(result) == set()


def test_example_5_unit_dislodged_by_head_to_head_does_not_prevent_third() -> None:
    # "F NOIS A ROU-BUL" is "F NOI S A ROU-BUL": the Black Sea fleet supports.
    result = run(
        {"TURKEY": ["A BUL"], "RUSSIA": ["A RUM", "F BLA", "A SEV"]},
        {"TURKEY": ["A BUL - RUM"], "RUSSIA": ["A RUM - BUL", "F BLA S A RUM - BUL", "A SEV - RUM"]},
    )
    assert dislodged(result) == {"A BUL"}
    assert located(result) == {"A BUL", "F BLA", "A RUM"}  # Russian armies now in BUL and RUM
    assert {u.power for u in result.position.units} == {"RUSSIA"}


def test_example_6_supported_loser_of_head_to_head_does_not_prevent_either() -> None:
    # The text has Russia's "A GRE S A BUL-ROU"; the explanation (Russia's ROU-BUL beats the
    # supported Turkish BUL-ROU) and the rulebook example need A GRE S A ROU-BUL, read so.
    result = run(
        {"TURKEY": ["A BUL", "F BLA"], "RUSSIA": ["A RUM", "A GRE", "A SER", "A SEV"]},
        {
            "TURKEY": ["A BUL - RUM", "F BLA S A BUL - RUM"],
            "RUSSIA": ["A RUM - BUL", "A GRE S A RUM - BUL", "A SER S A RUM - BUL", "A SEV - RUM"],
        },
    )
    assert dislodged(result) == {"A BUL"}
    assert Unit("RUSSIA", UnitType.ARMY, "RUM") in result.position.units
    assert Unit("RUSSIA", UnitType.ARMY, "BUL") in result.position.units


def test_example_7_support_cut_by_attack_from_elsewhere() -> None:
    result = run(
        {"GERMANY": ["A PRU", "A SIL"], "RUSSIA": ["A WAR", "A BOH"]},
        {"GERMANY": ["A PRU - WAR", "A SIL S A PRU - WAR"], "RUSSIA": ["A WAR H", "A BOH - SIL"]},
    )
    assert located(result) == {"A PRU", "A SIL", "A WAR", "A BOH"}
    assert any(r.reason == "cut" for r in result.results)


def test_example_8_support_not_cut_by_the_attacked_unit() -> None:
    result = run(
        {"GERMANY": ["A PRU", "A SIL"], "RUSSIA": ["A WAR"]},
        {"GERMANY": ["A PRU - WAR", "A SIL S A PRU - WAR"], "RUSSIA": ["A WAR - SIL"]},
    )
    assert dislodged(result) == {"A WAR"}
    assert Unit("GERMANY", UnitType.ARMY, "WAR") in result.position.units


def test_example_9_support_cut_by_dislodgement_leaves_a_standoff() -> None:
    result = run(
        {"GERMANY": ["A BER", "A SIL"], "RUSSIA": ["A PRU", "A WAR", "F BAL"]},
        {
            "GERMANY": ["A BER - PRU", "A SIL S A BER - PRU"],
            "RUSSIA": ["A PRU - SIL", "A WAR S A PRU - SIL", "F BAL - PRU"],
        },
    )
    assert dislodged(result) == {"A SIL"}
    assert located(result) == {"A BER", "A SIL", "A WAR", "F BAL"}
    assert "PRU" in result.position.standoffs or result.position.phase.type.value == "R"
    assert "PRU" in result.position.standoffs


def test_example_10_dislodged_unit_still_cuts_support() -> None:
    # The transcription repeats example 9's Russian orders; the text ("the German army in Munich
    # is dislodged by the Russian attack, yet cuts the support of the Russian army in Silesia and
    # keeps the Russian army in Prussia out of Berlin") is the rulebook example read here:
    # Russia A PRU - BER, A SIL S A PRU - BER, A BOH - MUN, A TYR S A BOH - MUN.
    result = run(
        {"GERMANY": ["A BER", "A MUN"], "RUSSIA": ["A PRU", "A SIL", "A BOH", "A TYR"]},
        {
            "GERMANY": ["A BER H", "A MUN - SIL"],
            "RUSSIA": ["A PRU - BER", "A SIL S A PRU - BER", "A BOH - MUN", "A TYR S A BOH - MUN"],
        },
    )
    assert dislodged(result) == {"A MUN"}
    assert Unit("GERMANY", UnitType.ARMY, "BER") in result.position.units
    assert Unit("RUSSIA", UnitType.ARMY, "PRU") in result.position.units


def test_example_11_dislodged_convoying_fleet_stops_the_army() -> None:
    result = run(
        {"FRANCE": ["A SPA", "F LYO", "F TYS"], "ITALY": ["F ION", "F TUN"]},
        {
            "FRANCE": ["A SPA - NAP", "F LYO C A SPA - NAP", "F TYS C A SPA - NAP"],
            "ITALY": ["F ION - TYS", "F TUN S F ION - TYS"],
        },
    )
    assert dislodged(result) == {"F TYS"}
    assert "A SPA" in located(result)


def test_example_12_convoy_with_two_routes_survives_one_dislodgement() -> None:
    result = run(
        {"ENGLAND": ["A LON", "F ENG", "F NTH"], "FRANCE": ["F BRE", "F IRI"]},
        {
            "ENGLAND": ["A LON - BEL", "F ENG C A LON - BEL", "F NTH C A LON - BEL"],
            "FRANCE": ["F BRE - ENG", "F IRI S F BRE - ENG"],
        },
    )
    assert dislodged(result) == {"F ENG"}
    assert located(result) == {"A BEL", "F ENG", "F NTH", "F IRI"}


def test_example_13_convoyed_attack_does_not_protect_its_convoy() -> None:
    result = run(
        {"FRANCE": ["A SPA", "F LYO", "F TYS"], "ITALY": ["F ION", "F NAP"]},
        {
            "FRANCE": ["A SPA - NAP", "F LYO C A SPA - NAP", "F TYS C A SPA - NAP"],
            "ITALY": ["F ION - TYS", "F NAP S F ION - TYS"],
        },
    )
    assert dislodged(result) == {"F TYS"}
    assert "A SPA" in located(result)
    assert Unit("ITALY", UnitType.FLEET, "TYS") in result.position.units


def test_example_14_units_swap_when_one_is_convoyed() -> None:
    result = run(
        {"ENGLAND": ["A LON", "F NTH"], "FRANCE": ["A BEL", "F ENG"]},
        {
            "ENGLAND": ["A LON - BEL", "F NTH C A LON - BEL"],
            "FRANCE": ["A BEL - LON", "F ENG C A BEL - LON"],
        },
    )
    assert Unit("ENGLAND", UnitType.ARMY, "BEL") in result.position.units
    assert Unit("FRANCE", UnitType.ARMY, "LON") in result.position.units


def test_circular_movement_note_of_2_14_5() -> None:
    result = run(
        {"ENGLAND": ["A HOL", "F BEL", "F NTH"]},
        {"ENGLAND": ["A HOL - BEL", "F BEL - NTH", "F NTH - HOL"]},
    )
    assert located(result) == {"A BEL", "F NTH", "F HOL"}


# ----------------------------------------------------------------- seed 002

DESCARTES = Rules(paradox="descartes")


def test_example_a_convoyed_attack_on_a_supporter_of_the_convoying_fleet() -> None:
    units = {
        "ENGLAND": ["A LON", "F NTH", "F ENG"],
        "GERMANY": ["F DEN", "F HOL"],
        "FRANCE": ["F BEL"],
    }
    orders = {
        "ENGLAND": ["A LON - BEL", "F NTH C A LON - BEL", "F ENG S A LON - BEL"],
        "GERMANY": ["F DEN - NTH", "F HOL S F DEN - NTH"],
        "FRANCE": ["F BEL S F NTH"],
    }
    result = run(units, orders, DESCARTES)
    # The North Sea holds thanks to the French support, the army lands, Belgium is dislodged.
    assert dislodged(result) == {"F BEL"}
    assert Unit("ENGLAND", UnitType.ARMY, "BEL") in result.position.units
    assert Unit("ENGLAND", UnitType.FLEET, "NTH") in result.position.units
    # Under Szykman (and on the sites the seed lists) nothing moves.
    szykman = run(units, orders)
    assert dislodged(szykman) == set()
    assert "A LON" in located(szykman)


def test_example_b_quasi_paradox_is_resolved_simultaneously() -> None:
    units = {
        "ENGLAND": ["F EDI", "F LON"],
        "FRANCE": ["A BRE", "F ENG"],
        "GERMANY": ["F PIC", "F BEL"],
        "RUSSIA": ["A NWY", "F NTH"],
    }
    orders = {
        "ENGLAND": ["F EDI - NTH", "F LON S F EDI - NTH"],
        "FRANCE": ["A BRE - LON", "F ENG C A BRE - LON"],
        "GERMANY": ["F PIC - ENG", "F BEL S F PIC - ENG"],
        "RUSSIA": ["A NWY - BEL", "F NTH C A NWY - BEL"],
    }
    result = run(units, orders, DESCARTES)
    # Both convoyed attacks cut the supports, so neither convoying fleet is dislodged: nothing moves.
    assert dislodged(result) == set()
    assert located(result) == {"F EDI", "F LON", "A BRE", "F ENG", "F PIC", "F BEL", "A NWY", "F NTH"}
    # Szykman (DATC 6.F.22) dislodges both fleets instead.
    assert dislodged(run(units, orders)) == {"F ENG", "F NTH"}


def test_example_c_two_exclusive_convoys_both_hold() -> None:
    result = run(
        {
            "ENGLAND": ["F EDI", "F YOR"],
            "FRANCE": ["A BRE", "F ENG"],
            "GERMANY": ["F BEL", "F LON"],
            "ITALY": ["F MAO", "F IRI"],
            "RUSSIA": ["A NWY", "F NTH"],
        },
        {
            "ENGLAND": ["F EDI - NTH", "F YOR S F EDI - NTH"],
            "FRANCE": ["A BRE - LON", "F ENG C A BRE - LON"],
            "GERMANY": ["F BEL S F ENG", "F LON S F NTH"],
            "ITALY": ["F MAO - ENG", "F IRI S F MAO - ENG"],
            "RUSSIA": ["A NWY - BEL", "F NTH C A NWY - BEL"],
        },
        DESCARTES,
    )
    assert dislodged(result) == set()
    assert {"F ENG", "F NTH", "A BRE", "A NWY", "F LON", "F BEL"} <= located(result)
    # The fleets convoy, but the armies bounce one against one.
    convoys = [r for r in result.results if r.order is not None and " C " in str(r.order)]
    assert all(r.outcome.value == "succeeds" for r in convoys)


D_UNITS = {
    "ENGLAND": ["F EDI", "F LON", "F MAO", "F IRI"],
    "FRANCE": ["A BRE", "F ENG", "F BEL"],
    "RUSSIA": ["A NWY", "F NTH"],
}
D_ORDERS = {
    "ENGLAND": ["F EDI - NTH", "F LON S F EDI - NTH", "F MAO - ENG", "F IRI S F MAO - ENG"],
    "FRANCE": ["A BRE - LON", "F ENG C A BRE - LON", "F BEL S F ENG"],
    "RUSSIA": ["A NWY - BEL", "F NTH C A NWY - BEL"],
}


def test_example_d_sea_battles_first_channel_holds_north_sea_falls() -> None:
    result = run(D_UNITS, D_ORDERS, DESCARTES)
    assert dislodged(result) == {"F NTH"}
    assert {"F ENG", "A BRE", "A NWY", "F LON", "F BEL"} <= located(result)
    channel = next(r for r in result.results if r.order is not None and str(r.order).startswith("F ENG C"))
    assert channel.outcome.value == "succeeds"  # it convoys, but the army bounces in London


def test_example_d_variant_supported_convoyed_attack_dislodges_london_without_cutting() -> None:
    # "Si l'attaque de Brest sur Londres était soutenue par une unité française au pays de Galles,
    # la flotte de Londres aurait été délogée ... mais le soutien de Londres n'aurait pas été coupé."
    units = {**D_UNITS, "FRANCE": [*D_UNITS["FRANCE"], "A WAL"]}
    orders = {**D_ORDERS, "FRANCE": [*D_ORDERS["FRANCE"], "A WAL S A BRE - LON"]}
    result = run(units, orders, DESCARTES)
    assert dislodged(result) == {"F LON", "F NTH"}
    assert Unit("FRANCE", UnitType.ARMY, "LON") in result.position.units
    assert Unit("ENGLAND", UnitType.FLEET, "NTH") in result.position.units
    # Szykman: the Channel does not convoy, London stays, the North Sea still falls.
    szykman = run(units, orders)
    assert dislodged(szykman) == {"F NTH"}
    assert Unit("ENGLAND", UnitType.FLEET, "LON") in szykman.position.units


# ----------------------------------------------------------------- issue 18: as written, through judge adjudicate
#
# The same examples with the orders as the seeds write them (nationalities, "(S)", "(H)", "xxx",
# French names), read by the order reader of `judge adjudicate` (judge.ruling.rule_on).


def rule_as_written(units: Mapping[str, Sequence[str]], orders: Mapping[str, Sequence[str]], phase: str = "S1901M",
                    dislodged: Sequence[Mapping[str, str]] = ()) -> dict[str, object]:
    from judge.ruling import rule_on

    data = {
        "variant": "standard", "phase": phase,
        "units": [{"power": p, "type": s.split()[0], "loc": s.split()[1]} for p, specs in units.items() for s in specs],
        "dislodged": list(dislodged), "centers": {}, "orders": {p: list(o) for p, o in orders.items()},
    }  # fmt: skip
    result = rule_on(data)
    assert "error" not in result, result
    return result


def places(result: Mapping[str, object]) -> set[str]:
    return {f"{u['type']} {u['loc']}" for u in result["units"]}  # type: ignore[attr-defined,index]


def test_seed_000_example_3_as_written_with_the_nationality() -> None:
    """Seed 000, 2.9.4 Exemple 3: "Autriche A SER=BUD, A VIE:BUD; Russie A GAL S A AUTRICHE SER-BUD"."""
    result = rule_as_written(
        {"AUSTRIA": ["A SER", "A VIE"], "RUSSIA": ["A GAL"]},
        {"AUSTRIA": ["A SER - BUD", "A VIE - BUD"], "RUSSIA": ["A GAL S A AUTRICHE SER-BUD"]},
    )
    assert places(result) == {"A BUD", "A VIE", "A GAL"}


def test_seed_000_example_2_as_written_with_the_nationality() -> None:
    """Seed 000, 2.9.3 Exemple 2: "Allemagne A MUN:BOU, A FIE S AUTRICHE A BOH-MUN" (FIE read as KIE)."""
    result = rule_as_written(
        {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A KIE"], "AUSTRIA": ["A BOH"]},
        {"FRANCE": ["A BOU H"], "GERMANY": ["A MUN - BOU", "A KIE S AUTRICHE A BOH - MUN"], "AUSTRIA": ["A BOH - MUN"]},
    )
    assert places(result) == {"A BUR", "A MUN", "A KIE", "A BOH"}


def test_seed_001_example_7_as_written_with_brackets() -> None:
    """Seed 001, X Exemple 7: "Allemagne : A Pru-war; A Sil (S) A Pru-War; Russie : A War (H); A Boh-Sil"."""
    result = rule_as_written(
        {"GERMANY": ["A PRU", "A SIL"], "RUSSIA": ["A WAR", "A BOH"]},
        {"GERMANY": ["A Pru-war", "A Sil (S) A Pru-War"], "RUSSIA": ["A War (H)", "A Boh-Sil"]},
    )
    assert places(result) == {"A PRU", "A SIL", "A WAR", "A BOH"}


def test_seed_001_example_10_as_written_with_brackets() -> None:
    """Seed 001, X Exemple 10: "A Ber (H); A Mun-Sil; Russie : A Pru-Ber; A Sil (S) A Pru-Ber; A Boh-Mun;
    A Tyr (S) A Boh-Mun": Munich is dislodged but still cuts the support from Silesia."""
    result = rule_as_written(
        {"GERMANY": ["A BER", "A MUN"], "RUSSIA": ["A PRU", "A SIL", "A BOH", "A TYR"]},
        {"GERMANY": ["A Ber (H)", "A Mun-Sil"],
         "RUSSIA": ["A Pru-Ber", "A Sil (S) A Pru-Ber", "A Boh-Mun", "A Tyr (S) A Boh-Mun"]},
    )  # fmt: skip
    assert {"A BER", "A PRU", "A MUN"} <= places(result)
    assert [d["loc"] for d in result["dislodged"]] == ["MUN"]  # type: ignore[attr-defined,index]


def test_seed_001_convoy_as_written_with_the_nationality() -> None:
    """Seed 001, XII: "A Lon-Bel, F Nth (C) Lon-Bel" and, for France, "F Nth (C) Angleterre Lon-Bel"."""
    result = rule_as_written({"ENGLAND": ["A LON", "F NTH"]}, {"ENGLAND": ["A Lon-Bel", "F Nth (C) Lon-Bel"]})
    assert places(result) == {"A BEL", "F NTH"}
    result = rule_as_written(
        {"ENGLAND": ["A LON"], "FRANCE": ["F NTH"]},
        {"ENGLAND": ["A Lon-Bel"], "FRANCE": ["F Nth (C) Angleterre Lon-Bel"]},
    )
    assert places(result) == {"A BEL", "F NTH"}


def test_seed_002_survivor_turkey_holds_as_written() -> None:
    """Seed 002, "Survivor Turkey": "F Constantinople S A Bulgarie xxx ; A Bulgarie S F Constantinople xxx";
    the supports to hold keep Bulgaria against a single supported attack."""
    result = rule_as_written(
        {"TURKEY": ["F CON", "A BUL"], "RUSSIA": ["A RUM", "A SER"]},
        {"TURKEY": ["F Constantinople S A Bulgarie xxx", "A Bulgarie S F Constantinople xxx"],
         "RUSSIA": ["A RUM - BUL", "A SER S A RUM - BUL"]},
    )  # fmt: skip
    assert places(result) == {"F CON", "A BUL", "A RUM", "A SER"}
    entries = result["results"]
    turkish = [e["order"] for e in entries if e["power"] == "TURKEY"]  # type: ignore[index,attr-defined]
    assert turkish == ["F CON S A BUL", "A BUL S F CON"]


def test_seed_000_retreat_list_as_written() -> None:
    """Seed 000, 3.4.2: "A VIE fait retraite à BUD, TRI, GAL, BOH, TYR", at the retreat phase:
    BUD and TRI are held, GAL is where the attack came from, BOH is held: TYR (Tyrolia)."""
    result = rule_as_written(
        {"AUSTRIA": ["A BUD"], "ITALY": ["A TRI"], "RUSSIA": ["A VIE", "A BOH"]},
        {"AUSTRIA": ["A VIE fait retraite à BUD, TRI, GAL, BOH, TYR"]},
        phase="F1901R",
        dislodged=[{"power": "AUSTRIA", "type": "A", "loc": "VIE", "attacker_from": "GAL"}],
    )
    assert "A TYR" in places(result)


def test_a_french_mar_is_marseilles_when_the_army_is_there() -> None:
    """Issue 18: a French player's "A MAR - ESP" is no longer "no unit in North Africa"."""
    result = rule_as_written({"FRANCE": ["A MAR"]}, {"FRANCE": ["A MAR - ESP"]})
    assert places(result) == {"A SPA"}


def test_seed_000_build_list_as_written() -> None:
    """Seed 000, 3.4.2: "construire F BRE, A PAR, A MAR" at the adjustments, two builds owed and
    Paris held: F BRE, then A MAR (MAR being first North Africa in the French table, no home centre)."""
    from judge.ruling import rule_on

    result = rule_on({
        "variant": "standard", "phase": "W1901A",
        "units": [{"power": "FRANCE", "type": "A", "loc": "PAR"}, {"power": "FRANCE", "type": "A", "loc": "SPA"}],
        "centers": {"FRANCE": ["PAR", "BRE", "MAR", "SPA", "POR"]},
        "orders": {"FRANCE": ["construire F BRE, A PAR, A MAR"]},
    })  # fmt: skip
    assert places(result) == {"A PAR", "A SPA", "F BRE", "A MAR"}
    assert [e["order"] for e in result["results"]] == ["BUILD F BRE", "BUILD A MAR"]  # type: ignore[index]


def test_seed_000_removal_with_the_origin_in_brackets_as_written() -> None:
    """Seed 000, 3.4.2: "retirer F(HOL)"."""
    from judge.ruling import rule_on

    result = rule_on({
        "variant": "standard", "phase": "W1901A",
        "units": [{"power": "GERMANY", "type": "F", "loc": "HOL"}, {"power": "GERMANY", "type": "A", "loc": "MUN"}],
        "centers": {"GERMANY": ["MUN"]},
        "orders": {"GERMANY": ["retirer F(HOL)"]},
    })  # fmt: skip
    assert places(result) == {"A MUN"}
