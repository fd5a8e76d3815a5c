"""House rules of seeds 000 and 002 as game options set by mail: who sets them, when, and what they do.

* ``SET END YEAR n`` (seed 002, "Limitation de la durée des parties": "les parties se termineront au
  plus tard fin 1906, fin 1907, fin 1908 ou fin 1909");
* ``SET CD AFTER n`` (seed 000, 3.6 "Joueurs de remplacement": "un pays n'ayant pas reçu d'ordre pendant
  3 saisons consécutives sombrerait automatiquement dans le désordre civil");
* the adjudicator's rule options ``surplus_adjustments``, ``foreign_coast_support`` and
  ``complete_from_support`` (seed 002), set like every rule option (``SET RULE``, ``SET VARIANT word``).
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from judge.app.game_state.boards import opening_position
from judge.app.phases.guarded_scheduler import process_due
from judge.core.adjudicator import Rules
from judge.core.phase import Phase
from judge.core.position import Position
from judge.core.units import Unit, UnitType
from judge.core.variants import load_map
from tests.app.conftest import Harness
from tests.app.masters_helpers import (
    as_master,
    as_power,
    moderated_game,
    players_by_power,
    read,
    state_of,
)
from tests.app.orders_helpers import StartedGame, address, plain, start_game
from tests.app.press_helpers import recipients, set_extra
from tests.app.reports_helpers import register

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

# ------------------------------------------------------------------ who sets them, and when


def test_the_master_sets_the_house_rules_before_the_start(harness: Harness) -> None:
    moderated_game(harness, players=2)
    body = read(as_master(harness, "SET END YEAR 1906, CD AFTER 3\nSET VARIANT surplusfirst namedcoast completeorders\n"))
    assert "Last year: 1906 (was -)." in body
    assert "Civil disorder after missed seasons: 3 (was -)." in body
    extra = state_of(harness).columns["extra_settings"]
    assert (extra["end_year"], extra["cd_after_missed_seasons"]) == (1906, 3)
    assert extra["rules"] == {
        "complete_from_support": "true", "foreign_coast_support": "named", "surplus_adjustments": "first",
    }  # fmt: skip
    assert Rules.from_mapping(extra["rules"]) == Rules(
        surplus_adjustments="first", foreign_coast_support="named", complete_from_support=True
    )
    body = read(as_master(harness, "SET RULE surplus_adjustments=last\nSET END YEAR 0\n"))
    extra = state_of(harness).columns["extra_settings"]
    assert "surplus_adjustments" not in extra["rules"] and not extra["end_year"]


def test_players_of_a_moderated_game_may_not_and_nobody_may_once_it_started(harness: Harness) -> None:
    moderated_game(harness)
    power = next(iter(players_by_power(harness)))
    body = read(as_power(harness, power, "SET END YEAR 1906\n"))
    assert "Only the master" in body or "only the master" in body
    body = read(as_master(harness, "SET END YEAR 1906\nSET CD AFTER 3\nSET RULE foreign_coast_support=named\n"))
    assert "Last year can only be changed before the game starts." in body
    assert "Civil disorder after missed seasons can only be changed before the game starts." in body
    assert "Rules can only be changed before the game starts." in body
    assert "end_year" not in state_of(harness).columns["extra_settings"]


def test_the_change_is_announced_to_the_game_in_french_too(harness: Harness) -> None:
    moderated_game(harness, players=2, language="fr")
    body = read(as_master(harness, "SET END YEAR 1907\n"))
    assert "Dernière année : 1907" in body


# ------------------------------------------------------------------ SET END YEAR


def test_seed002_the_game_ends_after_its_last_year_and_is_scored(harness: Harness) -> None:
    """Seed 002: "Même sans accord entre les joueurs ou sans solo, les parties se termineront au plus tard
    fin 1906..." -- here a game with SET END YEAR 1901 ends after the last phase of 1901."""
    game = start_game(harness, "demo", languages={"GERMANY": "fr"})
    set_extra(harness, {"end_year": 1901, "scoring": "sum-of-squares"})
    game.master("PROCESS\n")
    assert game.state()["state"] == "active"
    game.master("PROCESS\n")  # F1901M: no centre changed hands, no adjustments: 1901 is over
    state = game.state()
    assert state["state"] == "finished"
    subjects = [m["Subject"] for m in harness.others]
    assert "XPY:demo - F1901M Game Over" in subjects
    assert subjects.index("XPY:demo - F1901M Game Over") > subjects.index("XPY:demo - F1901M Results")
    over = [m for m in harness.others if m["Subject"] == "XPY:demo - F1901M Game Over"]
    english = next(m for m in over if address("FRANCE") in recipients(m))
    assert plain(english).startswith(
        "Game 'demo' is over: it reached the end of 1901, its last year (SET END YEAR), and is scored as a "
        "draw between Austria, England, France, Germany, Italy, Russia and Turkey.\n"
    )
    assert "Scores (Sum of squares):\n" in plain(english)
    french = next(m for m in over if address("GERMANY") in recipients(m))
    assert plain(french).startswith("La partie 'demo' est terminée : elle a atteint la fin de 1901")
    with harness.db.unit_of_work(readonly=True) as uow:
        outcome = uow.games.require("demo").extra_settings["outcome"]
    assert (outcome["kind"], outcome["ended"], outcome["year"]) == ("draw", "end_year", 1901)


def test_without_an_end_year_the_game_goes_on(harness: Harness) -> None:
    game = start_game(harness, "demo")
    game.master("PROCESS\n")
    game.master("PROCESS\n")
    assert game.state()["state"] == "active"


# ------------------------------------------------------------------ SET CD AFTER


def _seat_status(game: StartedGame, power: str) -> str:
    with game.harness.db.unit_of_work(readonly=True) as uow:
        seat = next(s for s in game.game(uow).seats if s.power == power)
        return seat.status.value


def test_seed000_civil_disorder_after_three_seasons_without_orders(harness: Harness) -> None:
    """Seed 000, 3.6: "un pays n'ayant pas reçu d'ordre pendant 3 saisons consécutives sombrerait
    automatiquement dans le désordre civil". Italy sends nothing; the others send orders."""
    game = start_game(harness, "demo")
    set_extra(harness, {"cd_after_missed_seasons": 3})
    holds = {"AUSTRIA": "A VIE H", "ENGLAND": "A LVP H", "FRANCE": "A PAR H", "GERMANY": "A BER H",
             "RUSSIA": "A MOS H", "TURKEY": "A CON H"}  # fmt: skip
    for season in range(3):
        assert _seat_status(game, "ITALY") != "civil_disorder", season
        for power, order in holds.items():
            game.orders(power, order + "\n")
        game.master("PROCESS\n")
    assert _seat_status(game, "ITALY") == "civil_disorder"
    assert _seat_status(game, "FRANCE") != "civil_disorder"
    with harness.db.unit_of_work(readonly=True) as uow:
        missed = uow.games.require("demo").extra_settings["missed_seasons"]
    assert missed["ITALY"] == 3 and missed["FRANCE"] == 0


def test_orders_start_the_count_again(harness: Harness) -> None:
    game = start_game(harness, "demo")
    set_extra(harness, {"cd_after_missed_seasons": 2})
    game.master("PROCESS\n")  # nobody sent orders: one missed season each
    game.orders("ITALY", "A ROM H\n")
    game.master("PROCESS\n")
    assert _seat_status(game, "ITALY") != "civil_disorder"
    assert _seat_status(game, "FRANCE") == "civil_disorder"


# ------------------------------------------------------------------ surplus builds


def _builds_position() -> Position:
    """Winter 1901: France owns Paris, Brest, Marseilles and Belgium with two armies away from home
    (Burgundy, Picardy): it owes two builds and has three free home centres to build in."""
    start = opening_position(load_map("standard"))
    army = UnitType.ARMY
    others = [u for u in start.units if u.power != "FRANCE"]
    units = (*others, Unit("FRANCE", army, "BUR"), Unit("FRANCE", army, "PIC"))
    centres = dict(start.centers)
    centres["FRANCE"] = frozenset({"PAR", "BRE", "MAR", "BEL"})
    return dataclasses.replace(start, phase=Phase.parse("W1901A"), units=units, centers=centres)


def _french_units(game: StartedGame) -> set[str]:
    return {f"{u.type.value} {u.location}" for u in game.position().units if u.power == "FRANCE"}


def test_surplus_builds_the_judge_keeps_the_last_ones(harness: Harness) -> None:
    """The default (the Judge): "the last build orders override the first ones"."""
    game = start_game(harness, "demo", position=_builds_position())
    game.orders("FRANCE", "BUILD A PAR\nBUILD F BRE\nBUILD A MAR\n")
    game.master("PROCESS\n")
    assert _french_units(game) == {"A BUR", "A PIC", "F BRE", "A MAR"}


def test_seed002_surplus_builds_the_first_legal_ones_written_are_kept(harness: Harness) -> None:
    """Seed 002, "Ajustements surnuméraires ou insuffisants": "ne seront pris en compte que les premiers
    ajustements légaux notés jusqu'à ce qu'il y ait le nombre souhaité d'ajustements"."""
    game = start_game(harness, "demo", position=_builds_position())
    set_extra(harness, {"rules": {"surplus_adjustments": "first"}})
    game.orders("FRANCE", "BUILD A PAR\nBUILD F BRE\nBUILD A MAR\n")
    game.master("PROCESS\n")
    assert _french_units(game) == {"A BUR", "A PIC", "A PAR", "F BRE"}


def test_seed000_in_an_nmr_game_the_scheduler_processes_without_the_late_power_until_its_third_miss(
    harness: Harness,
) -> None:
    """Seed 000, 3.5.4 and 3.6: a power without orders is "ONR", its units hold, and only after three
    consecutive seasons does it fall into civil disorder. Here the clock runs to each grace, as the judge
    would, in an NMR game (which processes at the end of grace) with SET CD AFTER 2 to keep it short."""
    game = start_game(harness, "demo", settings={"nmr": True})
    set_extra(harness, {"cd_after_missed_seasons": 2})
    for season in ("S1901M", "F1901M"):
        assert game.state()["phase"] == season
        assert _seat_status(game, "ITALY") != "civil_disorder"
        for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "RUSSIA", "TURKEY"):
            holds = [f"{u.type.value} {u.location} H" for u in game.position().units if u.power == power]
            game.orders(power, "\n".join(holds) + "\n")
        with harness.db.unit_of_work(readonly=True) as uow:
            row = uow.games.require("demo")
            assert row.deadline_at is not None and row.grace_at is not None
            deadline, grace = row.deadline_at, row.grace_at
        for moment in (deadline, grace - timedelta(hours=24), grace):
            harness.clock.set(max(moment, harness.clock.now()))
            process_due(harness.services)
    assert game.state()["phase"] == "S1902M"
    assert _seat_status(game, "ITALY") == "civil_disorder"
    assert _seat_status(game, "FRANCE") == "playing"


# ------------------------------------------------------------------ the seed 002 rules by mail, end to end


def _spring(*units: Unit) -> Position:
    start = opening_position(load_map("standard"))
    return dataclasses.replace(start, units=units)


def test_seed002_completed_order_by_mail(harness: Harness) -> None:
    """Seed 002, "Ordre manquant ou incomplet": France writes F MAO - SPA without the coast (refused as
    ambiguous when the mail is read) and F POR S F MAO - SPA/NC; under completeorders the fleet goes to
    the north coast named by its own power's support."""
    fleet = UnitType.FLEET
    board = _spring(Unit("FRANCE", fleet, "MAO"), Unit("FRANCE", fleet, "POR"), Unit("ENGLAND", fleet, "LON"))
    game = start_game(harness, "demo", position=board)
    set_extra(harness, {"rules": {"complete_from_support": "true"}})
    game.orders("FRANCE", "F MAO - SPA\nF POR S F MAO - SPA/NC\n")
    game.master("PROCESS\n")
    assert {u.location for u in game.position().units if u.power == "FRANCE"} == {"SPA/NC", "POR"}
    [results] = [m for m in harness.others if m["Subject"] == "XPY:demo - S1901M Results"
                 and address("FRANCE") in recipients(m)]
    assert "(*completed from its power's support or convoy*)" in plain(results)


@pytest.mark.parametrize(
    ("rules", "english"), [({}, "SPA/NC"), ({"foreign_coast_support": "named"}, "MAO")]
)
def test_seed002_foreign_support_without_the_coast_by_mail(
    harness: Harness, rules: dict[str, str], english: str
) -> None:
    """Seed 002, "Autres éléments sur la rédaction des soutiens", under namedcoast: the French support
    without a coast does not help the English fleet, which bounces off the Italian army in Spain (by
    default, the DATC's reading, it does)."""
    army, fleet = UnitType.ARMY, UnitType.FLEET
    board = _spring(Unit("ENGLAND", fleet, "MAO"), Unit("FRANCE", army, "MAR"), Unit("ITALY", army, "SPA"))
    game = start_game(harness, "demo", position=board)
    set_extra(harness, {"rules": rules})
    game.orders("ENGLAND", "F MAO - SPA/NC\n")
    game.orders("FRANCE", "A MAR S F MAO - SPA\n")
    game.master("PROCESS\n")
    assert {u.location for u in game.position().units if u.power == "ENGLAND"} == {english}


def test_list_shows_the_house_rules_to_anyone(harness: Harness) -> None:
    """What the options reveal: LIST game shows them to anyone, before joining and during play."""
    moderated_game(harness, players=2)
    as_master(harness, "SET END YEAR 1906, CD AFTER 3\nSET VARIANT namedcoast\n")
    register(harness, "curious@example.org", "Curious")
    body = read(harness.exchange("curious@example.org", "LIST modo\n"))
    assert (
        "  Rules: foreign_coast_support=named. The game ends after 1906. "
        "Civil disorder after 3 seasons without orders.\n"
    ) in body


def test_list_shows_nothing_more_for_a_game_with_the_defaults(harness: Harness) -> None:
    moderated_game(harness, players=2)
    register(harness, "curious@example.org", "Curious")
    body = read(harness.exchange("curious@example.org", "LIST modo\n"))
    assert "The game ends after" not in body and "  Rules: " not in body


def test_the_last_year_cannot_come_before_the_first(harness: Harness) -> None:
    moderated_game(harness, players=2)
    reply = as_master(harness, "SET END YEAR 1900\n")
    assert "[Error Flag]" in reply["Subject"]
    assert "The last year cannot come before the game's first year, 1901 (0 turns it off)." in read(reply)
    assert "end_year" not in state_of(harness).columns["extra_settings"]
    assert "Last year: 1901 (was -)." in read(as_master(harness, "SET END YEAR 1901\n"))
