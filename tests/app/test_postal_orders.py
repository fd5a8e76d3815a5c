"""Issue 18 by mail: postal notations and habits of seeds 000-002, from the order line to the processed phase."""

from __future__ import annotations

import pytest

from judge.core.phase import Phase
from judge.core.position import Position
from judge.core.units import Unit, UnitType
from tests.app.conftest import Harness
from tests.app.orders_helpers import StartedGame, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

A = UnitType.ARMY
F = UnitType.FLEET


def units_of(game: StartedGame) -> set[str]:
    return {f"{u.power} {u}" for u in game.position().units}


def vienna_under_attack(harness: Harness, *, languages: dict[str, str] | None = None) -> StartedGame:
    """Autumn 1901: Russia takes Vienna with support; Budapest and Trieste are held, Bohemia Russian."""
    position = Position(
        "standard", Phase.parse("F1901M"),
        (Unit("AUSTRIA", A, "VIE"), Unit("AUSTRIA", A, "BUD"), Unit("ITALY", A, "TRI"),
         Unit("RUSSIA", A, "GAL"), Unit("RUSSIA", A, "BOH")),
        {"AUSTRIA": frozenset({"VIE", "BUD", "TRI"}), "RUSSIA": frozenset({"MOS", "WAR"}),
         "ITALY": frozenset({"ROM"})},
    )  # fmt: skip
    game = start_game(harness, position=position, languages=languages)
    game.orders("RUSSIA", "A GAL - VIE\nA BOH S A GAL - VIE\n")
    game.orders("ITALY", "A TRI H\n")
    return game


def test_seed_000_retreat_list_given_with_the_movement_orders(harness: Harness) -> None:
    """Seed 000, 3.4.2: "A VIE fait retraite à BUD, TRI, GAL, BOH, TYR", sent with the movement
    orders; at the retreat phase the first legal choice is taken (BUD, TRI held, GAL the attacker's
    origin, BOH held: Tyrolia, TYR being first the Tyrrhenian Sea in the French table)."""
    game = vienna_under_attack(harness, languages={"AUSTRIA": "fr"})
    body = game.orders_text("AUSTRIA", "A VIE H\nA BUD H\nA VIE fait retraite à BUD, TRI, GAL, BOH, TYR\n")
    assert "Gardé pour F1901R" in body
    game.master("PROCESS\n")
    assert any(d.unit.province == "VIE" for d in game.position().dislodged)
    game.master("PROCESS\n")
    assert "AUSTRIA A TYR" in units_of(game)


def test_an_explicit_retreat_in_the_retreat_phase_wins(harness: Harness) -> None:
    game = vienna_under_attack(harness)
    body = game.orders_text("AUSTRIA", "A VIE H\nA BUD H\nA VIE retreat BUD, TRI, GAL, BOH, TYR\n")
    assert "Kept for F1901R" in body
    game.master("PROCESS\n")
    body = game.orders_text("AUSTRIA", "A VIE - BOH\n")  # illegal: Bohemia is held; the list stays
    assert "cannot retreat to Bohemia" in body
    game.orders("AUSTRIA", "A VIE disband\n")
    game.master("PROCESS\n")
    assert not any(u.startswith("AUSTRIA") and u.endswith(("TYR", "VIE")) for u in units_of(game))


def test_seed_000_build_list_given_in_the_autumn(harness: Harness) -> None:
    """Seed 000, 3.4.2: "construire F BRE, A PAR, A MAR" with the autumn orders: the first legal
    builds, up to the number allowed (two here), are made at the adjustments."""
    position = Position(
        "standard", Phase.parse("F1901M"),
        (Unit("FRANCE", A, "PIC"), Unit("FRANCE", F, "MAO"), Unit("GERMANY", A, "MUN")),
        {"FRANCE": frozenset({"PAR", "BRE", "MAR", "SPA"}), "GERMANY": frozenset({"MUN"})},
    )  # fmt: skip
    game = start_game(harness, position=position, languages={"FRANCE": "fr"})
    body = game.orders_text("FRANCE", "A PIC H\nF MAO H\nconstruire F BRE, A PAR, A MAR\n")
    assert "Gardé pour W1901A" in body
    game.master("PROCESS\n")
    assert game.position().phase == Phase.parse("W1901A")
    game.master("PROCESS\n")
    france = {u for u in units_of(game) if u.startswith("FRANCE")}
    assert france == {"FRANCE A PIC", "FRANCE F MAO", "FRANCE F BRE", "FRANCE A PAR"}


def test_an_explicit_build_in_the_adjustment_phase_replaces_the_list(harness: Harness) -> None:
    position = Position(
        "standard", Phase.parse("F1901M"),
        (Unit("FRANCE", A, "PIC"), Unit("GERMANY", A, "MUN")),
        {"FRANCE": frozenset({"PAR", "BRE"}), "GERMANY": frozenset({"MUN"})},
    )  # fmt: skip
    game = start_game(harness, position=position)
    game.orders("FRANCE", "A PIC H\nBUILD F BRE, A PAR\n")
    game.master("PROCESS\n")
    body = game.orders_text("FRANCE", "BUILD A BRE\n")
    assert "France: Builds an army in Brest." in body
    game.master("PROCESS\n")
    assert {u for u in units_of(game) if u.startswith("FRANCE")} == {"FRANCE A PIC", "FRANCE A BRE"}


def test_a_french_players_mar_is_the_army_in_marseilles(harness: Harness) -> None:
    """Issue 18: "today a French player's A MAR - ESP is refused as no unit in North Africa"."""
    game = start_game(harness, languages={"FRANCE": "fr"})
    body = game.orders_text("FRANCE", "A MAR - ESP\n")
    assert "« MAR » lu comme Marseille et non Afrique du Nord" in body
    assert "Afrique du Nord" not in body.split("« MAR »")[0]
    with harness.db.unit_of_work(readonly=True) as uow:
        row = uow.orders.current(game.game(uow), "S1901M")["FRANCE"]
        assert list(row.canonical) == ["A MAR - SPA"]


def test_seed_002_a_wrong_nationality_is_noted_and_the_support_stands(harness: Harness) -> None:
    """Seed 002: "l'ordre restera valide même si la nationalité indiquée est erronée"; seed 000's
    "F NRD C ANGLETERRE A LON-BEL" style."""
    game = start_game(harness, languages={"FRANCE": "fr"})
    body = game.orders_text("FRANCE", "F BRE S ALLEMAGNE F LON - MAN\n")
    assert "Remarque : l'unité de Londres est de la puissance Angleterre, pas Allemagne" in body
    assert "Error flag" not in body and "[Error Flag]" not in body
    with harness.db.unit_of_work(readonly=True) as uow:
        row = uow.orders.current(game.game(uow), "S1901M")["FRANCE"]
        assert list(row.canonical) == ["F BRE S F LON - ENG"]
    body = game.orders_text("FRANCE", "F BRE S ANGLETERRE F LON - MAN\n")
    assert "Remarque" not in body


def test_english_nationality_note(harness: Harness) -> None:
    game = start_game(harness)
    body = game.orders_text("FRANCE", "F BRE S GERMAN F LON - ENG\n")
    assert "Note: the unit in London is England's, not Germany's (the order stands as written)." in body


def test_seed_001_bracketed_orders_by_mail(harness: Harness) -> None:
    """Seed 001, IX: "A Bur (S) A Tyr-Mun" style orders in a mail."""
    game = start_game(harness)
    body = game.orders_text("GERMANY", "A Mun (H)\nA Ber (S) A Mun (H)\nF Kie (H)\n")
    assert "Your orders are complete." in body


def test_a_build_list_in_its_own_phase_says_what_it_gives_and_what_not(harness: Harness) -> None:
    """Issue 18: a build list longer than the builds allowed is taken in the order written,
    the first legal ones up to the number allowed, with a note about the rest."""
    position = Position(
        "standard", Phase.parse("W1901A"), (Unit("FRANCE", A, "PAR"), Unit("GERMANY", A, "MUN")),
        {"FRANCE": frozenset({"PAR", "BRE", "MAR"}), "GERMANY": frozenset({"MUN"})},
    )  # fmt: skip
    game = start_game(harness, position=position)
    body = game.orders_text("FRANCE", "BUILD A PAR, F BRE, A MAR, A BRE\n")
    assert ("On the board now, the list gives: BUILD F BRE; BUILD A MAR; not taken (not legal, or more than "
            "allowed): BUILD A PAR; BUILD A NAF; BUILD A BRE.") in body
    assert "Your orders are complete." in body
    game.master("PROCESS\n")
    assert {u for u in units_of(game) if u.startswith("FRANCE")} == {"FRANCE A PAR", "FRANCE F BRE", "FRANCE A MAR"}


def test_a_list_after_a_phase_line_is_kept_for_that_phase(harness: Harness) -> None:
    """PHASE blocks stay as they are: a list after PHASE goes to that phase, as any order."""
    game = vienna_under_attack(harness)
    body = game.orders_text("AUSTRIA", "A VIE H\nA BUD H\nPHASE F1901R\nA VIE R BUD, TRI, TYR\n")
    assert "Kept for" not in body
    with harness.db.unit_of_work(readonly=True) as uow:
        row = uow.orders.current(game.game(uow), "F1901R")["AUSTRIA"]
        assert list(row.canonical) == ["A VIE R BUD, TRI, TYR, TYS"]
    game.master("PROCESS\n")
    game.master("PROCESS\n")
    assert "AUSTRIA A TYR" in units_of(game)


def germany_moving_through_holland(harness: Harness) -> StartedGame:
    position = Position(
        "standard", Phase.parse("F1901M"),
        (Unit("GERMANY", F, "HOL"), Unit("GERMANY", F, "KIE"), Unit("GERMANY", A, "MUN")),
        {"GERMANY": frozenset({"MUN"})},  # Holland is taken: 2 centres, 3 units
    )  # fmt: skip
    return start_game(harness, position=position, languages={"GERMANY": "fr"})


def test_seed_000_removal_with_the_origin_follows_the_unit(harness: Harness) -> None:
    """Seed 000, 3.4.2: "retirer F(HOL)" with "F HOL-NRD, F KIE-HOL" removes the fleet that left
    Holland, wherever it went, not the one that came in."""
    game = germany_moving_through_holland(harness)
    body = game.orders_text("GERMANY", "F HOL - NRD\nF KIE - HOL\nA MUN H\nretirer F(HOL)\n")
    assert "L'unité retirée est suivie depuis sa province actuelle" in body
    assert "IF GERMANY F NTH\n    REMOVE F NTH\n  ELSE\n    REMOVE F HOL\n  ENDIF" in body
    game.master("PROCESS\n")
    assert game.position().phase == Phase.parse("W1901A")
    game.master("PROCESS\n")
    assert {u for u in units_of(game) if u.startswith("GERMANY")} == {"GERMANY F HOL", "GERMANY A MUN"}


def test_the_origin_is_followed_when_the_move_fails_too(harness: Harness) -> None:
    position = Position(
        "standard", Phase.parse("F1901M"),
        (Unit("GERMANY", F, "HOL"), Unit("GERMANY", F, "KIE"), Unit("GERMANY", A, "MUN"), Unit("GERMANY", A, "RUH"),
         Unit("FRANCE", A, "BUR")),
        {"GERMANY": frozenset({"MUN"}), "FRANCE": frozenset({"PAR"})},  # 3 centres after the autumn, 4 units
    )  # fmt: skip
    game = start_game(harness, position=position)
    game.orders("FRANCE", "A BUR - BEL\n")
    body = game.orders_text("GERMANY", "F HOL - BEL\nF KIE - HOL\nA MUN H\nA RUH H\nREMOVE F(HOL)\n")
    assert "IF GERMANY F BEL\n    REMOVE F BEL\n  ELSE\n    REMOVE F HOL\n  ENDIF" in body
    game.master("PROCESS\n")
    game.master("PROCESS\n")
    # Holland's fleet bounced in Belgium, so Kiel's could not enter Holland: the fleet in Holland is removed.
    assert {u for u in units_of(game) if u.startswith("GERMANY")} == {"GERMANY F KIE", "GERMANY A MUN", "GERMANY A RUH"}


def test_seed_000_removal_without_the_origin_warns_when_units_move_through_its_province(harness: Harness) -> None:
    """Seed 000, 3.4.2: with "F HOL-NRD, F KIE-HOL", "retirer F HOL" is ambiguous; the reply says
    which unit the removal will take (the one in Holland at the adjustments)."""
    game = germany_moving_through_holland(harness)
    body = game.orders_text("GERMANY", "F HOL - NRD\nF KIE - HOL\nA MUN H\nretirer F HOL\n")
    assert "Gardé pour W1901A" in body
    assert ("REMOVE F HOL : vos ordres font sortir une unité de Hollande ou l'y font entrer ; le retrait vise "
            "l'unité qui s'y trouvera aux ajustements.") in body
    game.master("PROCESS\n")
    game.master("PROCESS\n")
    assert {u for u in units_of(game) if u.startswith("GERMANY")} == {"GERMANY F NTH", "GERMANY A MUN"}


def test_a_build_list_under_set_any_centres_builds_in_a_foreign_centre(harness: Harness) -> None:
    """SET ANY CENTRES: France may build in Belgium, which it owns; a postal build list naming
    Belgium is read on the game's map with its rules (the core's build sites), not the bare
    variant's, so the list gives the build and the adjustment makes it."""
    position = Position(
        "standard", Phase.parse("W1901A"),
        (Unit("FRANCE", A, "PAR"), Unit("FRANCE", A, "BRE"), Unit("FRANCE", A, "MAR"), Unit("GERMANY", A, "MUN")),
        {"FRANCE": frozenset({"PAR", "BRE", "MAR", "BEL"}), "GERMANY": frozenset({"MUN"})},
    )  # fmt: skip
    game = start_game(harness, position=position, settings={"build_centres": "any"})
    body = game.orders_text("FRANCE", "BUILD A BEL, A PAR\n")
    assert ("On the board now, the list gives: BUILD A BEL; not taken (not legal, or more than allowed): "
            "BUILD A PAR.") in body
    assert "Your orders are complete." in body
    game.master("PROCESS\n")
    assert "FRANCE A BEL" in units_of(game)


def test_without_set_any_centres_the_same_list_gives_nothing(harness: Harness) -> None:
    """The same board under the default (home centres): Belgium is no build site, so the list gives nothing."""
    position = Position(
        "standard", Phase.parse("W1901A"),
        (Unit("FRANCE", A, "PAR"), Unit("FRANCE", A, "BRE"), Unit("FRANCE", A, "MAR"), Unit("GERMANY", A, "MUN")),
        {"FRANCE": frozenset({"PAR", "BRE", "MAR", "BEL"}), "GERMANY": frozenset({"MUN"})},
    )  # fmt: skip
    game = start_game(harness, position=position)
    body = game.orders_text("FRANCE", "BUILD A BEL, A PAR\n")
    assert "On the board now, the list gives nothing" in body


def test_a_build_list_is_chosen_as_the_games_rules_judge_it(harness: Harness) -> None:
    """The game's adjudication options (here ``firstcoast``: a fleet built without its coast takes
    the first) decide which choice of a list is legal, as at the processing: St Petersburg is
    taken, not passed over for Moscow."""
    from tests.app.press_helpers import set_extra

    position = Position(
        "standard", Phase.parse("W1901A"),
        (Unit("RUSSIA", A, "WAR"), Unit("RUSSIA", A, "UKR"), Unit("GERMANY", A, "MUN")),
        {"RUSSIA": frozenset({"WAR", "STP", "MOS"}), "GERMANY": frozenset({"MUN"})},
    )  # fmt: skip
    game = start_game(harness, position=position)
    set_extra(harness, {"rules": {"missing_coast": "first"}})
    body = game.orders_text("RUSSIA", "BUILD F STP, A MOS\n")
    assert ("On the board now, the list gives: BUILD F STP; not taken (not legal, or more than allowed): "
            "BUILD A MOS.") in body
    game.master("PROCESS\n")
    russia = {u for u in units_of(game) if u.startswith("RUSSIA")}
    assert russia == {"RUSSIA A WAR", "RUSSIA A UKR", "RUSSIA F STP/NC"}
