"""A throwaway reader for the DATC order strings of /work/shared/datc, for engine tests only.

The real order grammar lives in judge.lang; this covers exactly the shapes the
DATC JSON uses (``A LON - BEL``, ``A LON - BEL VIA CONVOY``, ``F NTH C A LON - BEL``,
``F TRI S A BUD``, ``BUILD F STP/NC``, ``REMOVE LYO``, ``F TRI DISBAND``), so the
engine can be run on every case without depending on another engineer's parser.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from judge.core.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from judge.core.phase import Phase, PhaseType
from judge.core.position import DislodgedUnit, Position
from judge.core.units import Unit, UnitRef, UnitType

DATC_DIR = Path("/work/shared/datc")


def load_cases() -> list[dict[str, Any]]:
    """All 183 cases: the 167 of all_cases.json and the 16 of the v3.1 supplement."""
    cases: list[dict[str, Any]] = json.loads((DATC_DIR / "cases" / "all_cases.json").read_text())
    cases += json.loads((DATC_DIR / "supplement_v3_1.json").read_text())
    return cases


def _ref(words: list[str]) -> tuple[UnitRef, list[str]]:
    if words[0] in ("A", "F"):
        return UnitRef(UnitType(words[0]), words[1]), words[2:]
    return UnitRef(None, words[0]), words[1:]


def parse_order(text: str, phase_type: PhaseType) -> Order:
    words = text.upper().split()
    if words[0] == "BUILD":
        return Build(UnitType(words[1]), words[2])
    if words == ["WAIVE"]:
        return Waive()
    if words[0] == "REMOVE":
        return Remove(_ref(words[1:])[0])
    unit, rest = _ref(words)
    verb = rest[0]
    if verb == "H":
        return Hold(unit)
    if verb in ("DISBAND", "D"):
        return Disband(unit)
    if verb == "-":
        destination = rest[1]
        via = rest[2:] == ["VIA", "CONVOY"]
        if phase_type is PhaseType.RETREAT:
            return Retreat(unit, destination)
        return Move(unit, destination, via_convoy=via)
    if verb == "S":
        supported, tail = _ref(rest[1:])
        if tail and tail[0] == "-":
            return SupportMove(unit, supported, tail[1])
        return SupportHold(unit, supported)
    if verb == "C":
        convoyed, tail = _ref(rest[1:])
        return Convoy(unit, convoyed, tail[1])
    raise ValueError(f"cannot read DATC order {text!r}")


def parse_orders(raw: Mapping[str, Sequence[str]], phase: Phase) -> dict[str, list[Order]]:
    return {power: [parse_order(o, phase.type) for o in orders] for power, orders in raw.items()}


def units_of(raw: Sequence[Mapping[str, str]]) -> tuple[Unit, ...]:
    return tuple(Unit(u["power"], UnitType(u["type"]), u["loc"]) for u in raw)


def position_of(case: Mapping[str, Any]) -> Position:
    phase = Phase.parse(case["phase"])
    return Position(
        variant="standard",
        phase=phase,
        units=units_of(case["units"]),
        centers={p: frozenset(c) for p, c in case.get("centers", {}).items()},
        dislodged=tuple(
            DislodgedUnit(
                Unit(d["power"], UnitType(d["type"]), d["loc"]),
                d["attacker_from"],
                d.get("attacker_via_convoy", False),
            )
            for d in case.get("dislodged", [])
        ),
        standoffs=frozenset(case.get("standoffs", [])),
    )
