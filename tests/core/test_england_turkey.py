"""England* vs Turkey (vDiplomacy's "Classic - England* Vs Turkey", webDiplomacy's code
variants/ClassicEvT): hand cases from the source's rules, and seeded random games through
`judge adjudicate`.

The PyPI `diplomacy` package has no map of this variant, so the proof is of two kinds:

* hand cases, each from a fact of the source: England starts F North Sea, A London, F English
  Channel (variants/ClassicEvT/classes/adjudicatorPreGame.php) and owns Edinburgh, Liverpool and
  London (they are England's in its install.php), so it builds there and nowhere else; Turkey
  starts as in Standard; the five other powers do not exist (their home centres are neutral:
  "Neutral" in install.php), so no one builds in them; 18 centres win (webDiplomacy's target,
  round(18/34 x 34));
* seeded random games played by the core, every phase of which is given to `judge adjudicate
  --jsonl` (the judge's own entry for a position by name): the CLI must rule as the core does, the
  board must stay a board, builds happen only in the builder's home centres, and a winner is
  declared exactly when a power reaches 18 centres. ``JUDGE_EVT_GAMES`` makes a longer run.
"""

from __future__ import annotations

import io
import json
import os
import random
import sys
from typing import Any

import pytest

from judge.cli import main as cli_main
from judge.core.adjudicator import Rules, adjudicate
from judge.core.phase import PhaseType
from judge.core.position import Position
from judge.core.random_orders import RandomOrders, opening_position
from judge.core.serialization import centers_to_json, position_to_json, units_to_json
from judge.core.units import Unit
from judge.core.variants import load_map
from tests.core.test_variant_data import check_board

VARIANT = "england_turkey"
GAMES = int(os.environ.get("JUDGE_EVT_GAMES", "12"))
PHASES = 120
HOMES = {"ENGLAND": {"EDI", "LON", "LVP"}, "TURKEY": {"ANK", "CON", "SMY"}}


def cli(positions: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """`judge adjudicate --jsonl` on a batch of positions, in-process."""
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(json.dumps(p) + "\n" for p in positions)))
    monkeypatch.setattr(sys, "stdout", out)
    assert cli_main(["adjudicate", "--jsonl"]) == 0
    monkeypatch.undo()
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(results) == len(positions)
    return results


def one(position: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    (result,) = cli([position], monkeypatch)
    return result


def units_of(result: dict[str, Any]) -> set[str]:
    return {f"{u['power']} {u['type']} {u['loc']}" for u in result["units"]}


# ------------------------------------------------------------------ hand cases


def test_the_opening_is_the_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    start = opening_position(load_map(VARIANT))
    assert {f"{u.power} {u}" for u in start.units} == {
        "ENGLAND F NTH", "ENGLAND A LON", "ENGLAND F ENG", "TURKEY F ANK", "TURKEY A CON", "TURKEY A SMY",
    }  # fmt: skip
    assert {p: set(c) for p, c in start.centers.items()} == HOMES
    # Written by name, the opening holds: nothing moves, nothing is built in the winter.
    result = one({**position_to_json(start), "orders": {}}, monkeypatch)
    assert result["next_phase"] == "F1901M" and units_of(result) == {
        f"{u.power} {u.type.value} {u.location}" for u in start.units
    }


def test_the_fleets_at_sea_move_from_the_north_sea_and_the_channel(monkeypatch: pytest.MonkeyPatch) -> None:
    start = position_to_json(opening_position(load_map(VARIANT)))
    start["orders"] = {"ENGLAND": ["F NTH - NWY", "F ENG - BRE", "A LON - WAL"], "TURKEY": ["A CON - BUL"]}
    result = one(start, monkeypatch)
    assert units_of(result) >= {"ENGLAND F NWY", "ENGLAND F BRE", "ENGLAND A WAL", "TURKEY A BUL"}


def winter(england: list[str], centres: dict[str, list[str]], orders: list[str]) -> dict[str, Any]:
    return {
        "variant": VARIANT, "phase": "W1901A",
        "units": [{"power": "ENGLAND", "type": u[0], "loc": u[2:]} for u in england]
        + [{"power": "TURKEY", "type": "A", "loc": "CON"}],
        "centers": centres, "orders": {"ENGLAND": orders},
    }  # fmt: skip


def test_england_builds_in_its_empty_home_centres_edinburgh_and_liverpool(monkeypatch: pytest.MonkeyPatch) -> None:
    centres = {"ENGLAND": ["EDI", "LON", "LVP", "NWY", "BRE"], "TURKEY": ["ANK", "CON", "SMY"]}
    result = one(winter(["F NWY", "F BRE", "A LON"], centres, ["BUILD F EDI", "BUILD A LVP"]), monkeypatch)
    assert units_of(result) == {"ENGLAND F NWY", "ENGLAND F BRE", "ENGLAND A LON", "ENGLAND F EDI",
                                "ENGLAND A LVP", "TURKEY A CON"}  # fmt: skip


@pytest.mark.parametrize("centre", ["BRE", "STP", "NWY"])
def test_no_one_builds_in_a_centre_that_is_no_home_of_its_own(centre: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Brest and St Petersburg were French and Russian homes; in this variant they are neutral centres.
    centres = {"ENGLAND": ["EDI", "LON", "LVP", "NWY", "BRE", "STP"], "TURKEY": ["ANK", "CON", "SMY"]}
    result = one(winter(["A LON"], centres, [f"BUILD A {centre}"]), monkeypatch)
    assert units_of(result) == {"ENGLAND A LON", "TURKEY A CON"}
    assert result["results"][0]["outcome"] != "succeeds"


def test_turkey_builds_not_in_sevastopol(monkeypatch: pytest.MonkeyPatch) -> None:
    position = {
        "variant": VARIANT, "phase": "W1901A", "units": [{"power": "TURKEY", "type": "F", "loc": "ANK"}],
        "centers": {"ENGLAND": ["EDI", "LON", "LVP"], "TURKEY": ["ANK", "CON", "SMY", "SEV"]},
        "orders": {"TURKEY": ["BUILD F SEV", "BUILD A CON"]},
    }  # fmt: skip
    assert units_of(one(position, monkeypatch)) == {"TURKEY F ANK", "TURKEY A CON"}


@pytest.mark.parametrize("power", ["RUSSIA", "France", "austria"])
def test_the_powers_not_played_do_not_exist(power: str, monkeypatch: pytest.MonkeyPatch) -> None:
    position = {"variant": VARIANT, "phase": "S1901M", "units": [{"power": power, "type": "A", "loc": "MOS"}]}
    assert "unknown power" in one(position, monkeypatch)["error"]


SEVENTEEN = ["EDI", "LON", "LVP", "NWY", "DEN", "HOL", "BEL", "BRE", "PAR", "MAR", "SPA", "POR", "KIE", "BER",
             "MUN", "STP", "MOS"]  # fmt: skip


@pytest.mark.parametrize(("target", "winner"), [("SWE", "ENGLAND"), ("NTH", None)])
def test_eighteen_centres_win_and_seventeen_do_not(
    target: str, winner: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    position = {
        "variant": VARIANT, "phase": "F1901M",
        "units": [{"power": "ENGLAND", "type": "F", "loc": "NWY"}, {"power": "TURKEY", "type": "A", "loc": "CON"}],
        "centers": {"ENGLAND": SEVENTEEN, "TURKEY": ["ANK", "CON", "SMY"]},
        "orders": {"ENGLAND": [f"F NWY - {target}"]},
    }  # fmt: skip
    result = one(position, monkeypatch)
    assert result["winner"] == winner
    # Leaving Norway empty keeps it: England still has 17 when the fleet goes to sea, 18 with Sweden.
    assert len(result["centers"]["ENGLAND"]) == (18 if winner else 17)


# ------------------------------------------------------------------ seeded random games


def play(seed: int) -> tuple[list[dict[str, Any]], list[tuple[Position, Any]]]:
    """A random game by the core: the CLI inputs of its phases and the core's results."""
    rng = random.Random(seed)
    game_map = load_map(VARIANT)
    rules = Rules()
    maker = RandomOrders(game_map, rng, mischief=0.2)
    position = opening_position(game_map)
    options: dict[Unit, tuple[str, ...]] = {}
    inputs: list[dict[str, Any]] = []
    played: list[tuple[Position, Any]] = []
    for _ in range(PHASES):
        orders = maker.orders(position, options)
        inputs.append(position_to_json(position, {p: [str(o) for o in listed] for p, listed in orders.items()}))
        result = adjudicate(position, orders, rules, game_map)
        played.append((position, result))
        if result.winner is not None:
            break
        options = dict(result.retreats)
        position = result.position
    return inputs, played


def test_seeded_random_games_through_judge_adjudicate(monkeypatch: pytest.MonkeyPatch) -> None:
    game_map = load_map(VARIANT)
    phases = winners = 0
    for seed in range(GAMES):
        inputs, played = play(seed)
        ours = cli(inputs, monkeypatch)
        for data, ruled, (before, result) in zip(inputs, ours, played, strict=True):
            phases += 1
            where = f"seed {seed} {data['phase']}"
            assert "error" not in ruled, (where, ruled)
            # The judge's entry rules as the core does.
            assert ruled["next_phase"] == str(result.next_phase), where
            assert ruled["units"] == units_to_json(result.position.units), where
            assert ruled["centers"] == centers_to_json(result.position.centers), where
            assert ruled["winner"] == result.winner, where
            check_board(game_map, result.position)
            assert {u.power for u in result.position.units} <= {"ENGLAND", "TURKEY"}
            if before.phase.type is PhaseType.ADJUSTMENT:
                for unit in set(result.position.units) - set(before.units):
                    assert unit.province in HOMES[unit.power], (where, unit)
            counts = {p: len(c) for p, c in result.position.centers.items()}
            if result.winner is not None:
                winners += 1
                assert counts[result.winner] >= 18, where
            else:
                assert all(n < 18 for n in counts.values()), (where, counts)
    print(f"\nengland_turkey: {GAMES} games, {phases} phases through judge adjudicate, {winners} won by 18 centres")
    assert phases >= GAMES * 20
    assert winners >= 1  # the victory rule is reached, not only read
