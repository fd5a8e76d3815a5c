"""`judge adjudicate` on a non-standard variant: the variant from the position, powers named loosely."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from judge.cli import main as cli_main
from judge.core.variants import available_variants, load_map, register_map, unregister_map
from tests.core.tiny_variant import tiny_data, tiny_map


@pytest.fixture(autouse=True)
def tinyland() -> Iterator[None]:
    register_map(tiny_map(special_rules=[{"name": "neutral_units", "units": ["A DDD"]}]))
    yield
    unregister_map("tinyland")


def adjudicate(position: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(position)))
    monkeypatch.setattr(sys, "stdout", out)
    assert cli_main(["adjudicate"]) == 0
    monkeypatch.undo()
    result: dict[str, Any] = json.loads(out.getvalue())
    return result


@pytest.mark.parametrize("name", ["FROZEN-ANTARCTICA", "Frozen Antarctica", "FROZENANTARCTICA", "frozen_antarctica"])
def test_a_power_is_named_in_any_case_with_or_without_spaces_and_hyphens(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = adjudicate(
        {
            "variant": "TinyLand",
            "phase": "S1901M",
            "units": [{"power": name, "type": "A", "loc": "GGG"}, {"power": "north", "type": "A", "loc": "AAA"}],
            "centers": {name: ["GGG"], "North": ["AAA"]},
            "orders": {name: ["A GGG - HHH"], "NORTH": ["A AAA - BBB"]},
        },
        monkeypatch,
    )
    assert "error" not in result, result
    assert {(u["power"], u["loc"]) for u in result["units"]} == {("FROZEN-ANTARCTICA", "HHH"), ("NORTH", "BBB")}
    assert result["centers"] == {"FROZEN-ANTARCTICA": ["GGG"], "NORTH": ["AAA"]}
    assert {r["power"] for r in result["results"]} == {"FROZEN-ANTARCTICA", "NORTH"}


def test_map_codes_and_neutral_units_go_through_the_contract(monkeypatch: pytest.MonkeyPatch) -> None:
    result = adjudicate(
        {
            "variant": "tinyland",
            "phase": "S1901M",
            "units": [
                {"power": "NORTH", "type": "A", "loc": "CCC"},
                {"power": "NORTH", "type": "A", "loc": "GGG"},
                {"power": "NEUTRAL", "type": "A", "loc": "DDD"},
            ],
            "centers": {},
            "orders": {"NORTH": ["A CCC - DDD", "A GGG S A CCC - DDD"]},
        },
        monkeypatch,
    )
    assert {(u["power"], u["loc"]) for u in result["units"]} == {("NORTH", "DDD"), ("NORTH", "GGG")}
    assert result["next_phase"] == "F1901M"


def test_an_unknown_power_is_refused_with_the_variants_powers(monkeypatch: pytest.MonkeyPatch) -> None:
    result = adjudicate(
        {"variant": "tinyland", "phase": "S1901M", "units": [{"power": "ENGLAND", "type": "A", "loc": "AAA"}]},
        monkeypatch,
    )
    assert "unknown power 'ENGLAND'" in result["error"]
    assert "NORTH, SOUTH, FROZEN-ANTARCTICA" in result["error"]


def test_neutral_units_are_read_on_any_map(monkeypatch: pytest.MonkeyPatch) -> None:
    # The Judge's SET NEUTRALS puts neutral armies on any map: the contract reads them everywhere.
    result = adjudicate(
        {
            "variant": "standard",
            "phase": "S1901M",
            "units": [{"power": "NEUTRAL", "type": "A", "loc": "BUR"}, {"power": "FRANCE", "type": "A", "loc": "MAR"}],
            "orders": {"FRANCE": ["A MAR - BUR"]},
        },
        monkeypatch,
    )
    assert {(u["power"], u["loc"]) for u in result["units"]} == {("NEUTRAL", "BUR"), ("FRANCE", "MAR")}
    result = adjudicate(
        {"variant": "standard", "phase": "S1901M", "centers": {"NEUTRAL": ["PAR"]}, "units": []},
        monkeypatch,
    )
    assert "unknown power 'NEUTRAL'" in result["error"]


@pytest.mark.parametrize("variant", available_variants())
def test_judge_adjudicate_accepts_every_shipped_variant(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.app.game_state.boards import opening_position
    from judge.core.serialization import position_to_json

    game_map = load_map(variant)
    position = position_to_json(opening_position(game_map))
    position["variant"] = variant.upper()
    # Every power holds, named as its English name in lower case.
    position["orders"] = {
        game_map.power_names[u.power].name.lower(): [f"{u.type.value} {u.location} H"]
        for u in game_map.starting_units[:1]
    }
    result = adjudicate(position, monkeypatch)
    assert "error" not in result, result
    assert len(result["units"]) == len(game_map.starting_units)
    assert {u["power"] for u in result["units"]} <= set(game_map.powers)


def test_judge_variant_checks_files_and_names_the_fault(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(tiny_data()), encoding="utf-8")
    broken_data = tiny_data()
    broken_data["provinces"]["CCC"]["army"] = ["BBB", "DDD", "GGG", "EEE"]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(broken_data), encoding="utf-8")
    assert cli_main(["variant", str(good)]) == 0
    assert "good.json: ok: tinyland: Tinyland (a made-up map for tests); 3 powers (NSF), 5 centres, 4 to win" in (
        capsys.readouterr().out
    )
    assert cli_main(["variant", str(good), str(broken)]) == 1
    out = capsys.readouterr().out
    assert "broken.json: variant tinyland: one-way border: province CCC lists EEE" in out


def test_judge_variant_lists_the_shipped_variants(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["variant"]) == 0
    out = capsys.readouterr().out
    assert "colonial: Colonial Diplomacy; 7 powers (BCFHJRT), 58 centres, 30 to win, from S1870M; " \
        "rules: hong_kong, railway, suez_canal" in out


def test_adjudicate_help_tells_how_variants_and_powers_are_written(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli_main(["adjudicate", "--help"])
    out = capsys.readouterr().out
    assert '"variant" is any shipped variant (judge variant lists them)' in out
    assert '("FROZEN-ANTARCTICA", "Frozen Antarctica")' in out


def test_judge_variant_list_and_a_shipped_name_give_the_summary_with_the_first_phase_played(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli_main(["variant", "list"]) == 0
    listed = capsys.readouterr().out
    # Chaos's board starts empty: the first phase asking for orders is the winter 1900 builds.
    assert "chaos: Chaos; 34 powers" in listed and "from W1900A; rules: build_any_owned_centre" in listed
    assert cli_main(["variant", "Chaos"]) == 0
    assert "from W1900A" in capsys.readouterr().out
    assert cli_main(["variant", "nosuch"]) == 1
    assert "nosuch: no such file, nor a shipped variant (" in capsys.readouterr().out
