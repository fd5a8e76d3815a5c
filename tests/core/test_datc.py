"""The 183 DATC v3.1 cases, run through `judge adjudicate --jsonl` (the real CLI path).

The cases are files of the repository (``tests/data/datc``, read by
``tests.data_dir.datc_cases``), so a fresh clone runs them with nothing beside it.

All cases go through one in-process call of the CLI's ``main`` with
redirected standard input and output (fast), and one subprocess run checks
that the installed command gives the same lines. Each case is its own test,
named by its DATC id, comparing the board after the phase (and the
dislodged units that have a retreat) as multisets, as the cases' README asks.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from judge.cli import main as cli_main
from tests.data_dir import datc_cases

INPUT_KEYS = ("variant", "phase", "units", "centers", "dislodged", "standoffs", "orders", "rules")


CASES = datc_cases()


# DATC v3.1 rewrote these 6.J cases for the 2023 rulebook's civil disorder rule
# (distance to an owned centre; units on centres last) and keeps the rewrites
# in the supplement as "<id>.v3.1". The older texts, also kept, encode the
# 2000 rulebook's rule, so they run under that rule option: the engine must
# pass both readings, each under its own rules.
REWRITTEN_FOR_2023 = {c["variant_of"] for c in CASES if ".v3.1" in c["id"]}
PRE_2023_RULES = {"civil_disorder_removals": "distance_to_home"}


def position_of(case: dict[str, Any]) -> dict[str, Any]:
    """The case as a `judge adjudicate` position (the format is the contract's)."""
    position = {key: case[key] for key in INPUT_KEYS if key in case}
    if case.get("datc_id") in REWRITTEN_FOR_2023 and ".v3.1" not in case.get("id", ""):
        position["rules"] = dict(PRE_2023_RULES)
    return position


def run_cli_in_process(lines: list[str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    stdout = io.StringIO()
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys, "stdout", stdout)
    status = cli_main(["adjudicate", "--jsonl"])
    monkeypatch.undo()
    assert status == 0
    return stdout.getvalue().splitlines()


@pytest.fixture(scope="module")
def rulings() -> Iterator[dict[str, dict[str, Any]]]:
    """Every case's result (and every 6.H case's previous phase), from one CLI run."""
    inputs: list[tuple[str, dict[str, Any]]] = []
    for case in CASES:
        inputs.append((case["id"], position_of(case)))
        if "previous_phase" in case:
            inputs.append((case["id"] + "#previous", position_of(case["previous_phase"])))
    with pytest.MonkeyPatch.context() as patch:
        out = run_cli_in_process([json.dumps(data) for _, data in inputs], patch)
    assert len(out) == len(inputs), "one output line per input line"
    yield {key: json.loads(line) for (key, _), line in zip(inputs, out, strict=True)}


def test_all_datc_cases_are_present() -> None:
    assert len(CASES) == 183
    assert len({case["id"] for case in CASES}) == 183


def unit_key(entry: dict[str, Any]) -> tuple[str, str, str]:
    return (entry["power"], entry["type"], entry["loc"])


def dislodged_key(entry: dict[str, Any], with_attacker: bool) -> tuple[str, ...]:
    key = unit_key(entry)
    return (*key, entry["attacker_from"]) if with_attacker else key


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_datc_case(case: dict[str, Any], rulings: dict[str, dict[str, Any]]) -> None:
    result = rulings[case["id"]]
    assert "error" not in result, result.get("error")
    expected = case["expected"]
    assert Counter(map(unit_key, result["units"])) == Counter(map(unit_key, expected["units"]))
    # The cases list only dislodged units that can retreat; units with none are destroyed.
    with_attacker = all("attacker_from" in d for d in expected["dislodged"])
    retreating = [d for d in result["dislodged"] if d["retreats"]]
    assert Counter(dislodged_key(d, with_attacker) for d in retreating) == Counter(
        dislodged_key(d, with_attacker) for d in expected["dislodged"]
    )
    assert len(result["results"]) >= sum(len(lines) for lines in case["orders"].values())


RETREAT_CASES = [c for c in CASES if "previous_phase" in c]


@pytest.mark.parametrize("case", RETREAT_CASES, ids=[c["id"] for c in RETREAT_CASES])
def test_datc_retreat_case_previous_phase(
    case: dict[str, Any], rulings: dict[str, dict[str, Any]]
) -> None:
    """The movement phase before a 6.H case leads to the board the case starts from."""
    result = rulings[case["id"] + "#previous"]
    assert "error" not in result, result.get("error")
    assert Counter(map(unit_key, result["units"])) == Counter(map(unit_key, case["units"]))
    dislodged = {dislodged_key(d, True) for d in result["dislodged"]}
    assert {dislodged_key(d, True) for d in case["dislodged"]} <= dislodged
    if result["next_phase"] != case["phase"]:
        # No retreat phase when no dislodged unit can retreat (6.H.15: the
        # case still gives one, to show that the coastal crawl is refused).
        assert all(not d["retreats"] for d in result["dislodged"]), result["dislodged"]


def test_datc_through_a_real_subprocess(rulings: dict[str, dict[str, Any]]) -> None:
    """The installed entry point gives the same lines as the in-process run."""
    lines = [json.dumps(position_of(case)) for case in CASES]
    done = subprocess.run(
        [sys.executable, "-m", "judge.cli", "adjudicate", "--jsonl"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert len(out) == len(CASES)
    for case, line in zip(CASES, out, strict=True):
        assert json.loads(line) == rulings[case["id"]], case["id"]
