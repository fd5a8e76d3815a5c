"""`judge adjudicate`: rule on a position given as JSON, print the result as JSON.

This is how moderators and other programs check a ruling without a game,
mail or database: the same reader and adjudicator as the judge itself, on a
position written by hand. The contract (fixed; tests hold it):

* ``judge adjudicate [FILE]`` reads one position (FILE, or standard input when
  FILE is absent or ``-``) and writes one result;
* ``judge adjudicate --jsonl`` reads one position per line of standard input
  and writes one result per line, in the same order; blank lines are skipped;
* a position that cannot be read or adjudicated gives ``{"error": "..."}`` in
  place of its result, and the run goes on;
* the exit status is 0 unless the input itself cannot be read.

Order lines are read as English first; a line that does not read in English
is read again with the French names and keywords ("A Paris - Bourgogne"),
so a position may mix both. The formats are in :mod:`judge.core.serialization`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from judge.core.geography import GameMap
    from judge.core.orders import Order
    from judge.core.phase import PhaseType
    from judge.core.units import Unit, UnitRef
    from judge.lang.orders import OrderSyntaxError, ReadOrder

NAME = "adjudicate"
HELP = "adjudicate a position given as JSON and print the result as JSON"

_EPILOG = """\
input:  {"variant": "standard", "phase": "S1901M",
         "units": [{"power": "ENGLAND", "type": "F", "loc": "NTH"}],
         "centers": {"ENGLAND": ["LON", "EDI", "LVP"]},
         "dislodged": [], "standoffs": [],
         "orders": {"ENGLAND": ["F NTH - PIC"]}, "rules": {}}
output: {"phase": "S1901M", "next_phase": "F1901M", "units": [...],
         "dislodged": [...], "centers": {...}, "results": [...], "winner": null}
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = _EPILOG
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        help="a JSON file holding one position (default: standard input)",
    )
    parser.add_argument(
        "--jsonl",
        action="store_true",
        help="read JSON Lines from standard input, one position per line, one result per line",
    )


def run(args: argparse.Namespace) -> int:
    _utf8(sys.stdout)
    if args.jsonl:
        if args.file != "-":
            print("judge adjudicate: --jsonl reads standard input; give no FILE", file=sys.stderr)
            return 2
        _utf8(sys.stdin)
        try:
            for line in sys.stdin:
                if line.strip():
                    _write(sys.stdout, rule_on_text(line))
                    sys.stdout.flush()
        except (OSError, UnicodeDecodeError) as error:
            print(f"judge adjudicate: cannot read standard input: {error}", file=sys.stderr)
            return 1
        return 0
    try:
        if args.file == "-":
            _utf8(sys.stdin)
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        print(f"judge adjudicate: cannot read {args.file}: {error}", file=sys.stderr)
        return 1
    _write(sys.stdout, rule_on_text(text))
    return 0


def rule_on_text(text: str) -> dict[str, Any]:
    """The result (or ``{"error": ...}``) for one position written as JSON text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return {"error": f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"}
    return rule_on(data)


def rule_on(data: object) -> dict[str, Any]:
    """The result for one decoded position; every failure becomes ``{"error": ...}``."""
    from judge.core.errors import CoreError

    try:
        return _rule_on(data)
    except CoreError as error:
        return {"error": _one_line(str(error))}
    except Exception as error:
        return {
            "error": _one_line(
                f"internal error while adjudicating: {type(error).__name__}: {error}"
            )
        }


def _rule_on(data: object) -> dict[str, Any]:
    from judge.core.adjudicator import adjudicate
    from judge.core.adjudicator.rules import Rules
    from judge.core.serialization import order_result_to_json, position_from_json, result_to_json

    given = position_from_json(data)
    rules = Rules.from_mapping(given.rules)
    phase_type = given.position.phase.type
    lines = list(_read_lines(given.orders, given.game_map, phase_type))
    orders: dict[str, list[Order]] = {}
    for power, read in lines:
        if not isinstance(read, Exception):
            orders.setdefault(power, []).append(read.order)
    result = adjudicate(given.position, orders, rules, given.game_map)
    units = given.position.units + tuple(d.unit for d in given.position.dislodged)

    # One entry per line given, in the order given, then the engine's entries
    # for units that got no order (and anything else it has to report).
    pending = list(result.results)
    entries: list[dict[str, Any]] = []
    for power, read in lines:
        if isinstance(read, Exception):
            entries.append(_unreadable(power, read, units))
            continue
        match = next(
            (k for k, r in enumerate(pending) if r.power == power and r.order == read.order), None
        )
        if match is None:
            entries.append(
                {"power": power, "unit": None, "order": str(read.order), "outcome": "invalid",
                 "reason": "the adjudicator gave no result for this order"}
            )  # fmt: skip
        else:
            entries.append(_named_unit(order_result_to_json(pending.pop(match)), read.order, units))
    entries.extend(order_result_to_json(r) for r in pending)
    return result_to_json(result, entries)


def _named_unit(entry: dict[str, Any], order: Order, units: Sequence[Unit]) -> dict[str, Any]:
    """Fill ``unit`` for an order the engine tied to no unit (one that is not there, say).

    The contract leaves ``unit`` null only when the line names no unit: the
    unit on the board when there is one in that province, else as written.
    """
    ref = getattr(order, "unit", None)
    if entry["unit"] is None and ref is not None:
        entry["unit"] = _unit_text(entry["power"], ref, units)
    return entry


def _unit_text(power: str, ref: UnitRef, units: Iterable[Unit]) -> str:
    on_board = next((u for u in units if u.power == power and u.province == ref.province), None)
    return str(on_board) if on_board is not None else str(ref)


def _read_lines(
    orders: Mapping[str, Sequence[str]], game_map: GameMap, phase_type: PhaseType
) -> Iterable[tuple[str, ReadOrder | OrderSyntaxError]]:
    """Every order of every power, read; a line in French is read again as French."""
    from judge.lang.orders import OrderSyntaxError, read_order_line

    for power in sorted(orders):
        for line in orders[power]:
            read = read_order_line(line, game_map, phase_type=phase_type)
            if any(isinstance(r, OrderSyntaxError) for r in read):
                french = read_order_line(line, game_map, phase_type=phase_type, french=True)
                if sum(isinstance(r, OrderSyntaxError) for r in french) < sum(
                    isinstance(r, OrderSyntaxError) for r in read
                ):
                    read = french
            if not read:
                read = [OrderSyntaxError("Empty order", 1, line)]
            for item in read:
                yield power, item


def _unreadable(power: str, error: OrderSyntaxError, units: Iterable[Unit]) -> dict[str, Any]:
    """The result entry of a line that could not be read; names the unit when that much was read."""
    unit_text = _unit_text(power, error.unit, units) if error.unit is not None else None
    return {
        "power": power,
        "unit": unit_text,
        "order": None,
        "outcome": "invalid",
        "reason": _one_line(str(error)),
    }


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _write(stream: IO[str], data: Mapping[str, Any]) -> None:
    stream.write(json.dumps(data, ensure_ascii=False) + "\n")


def _utf8(stream: Any) -> None:
    """Read and write UTF-8 whatever the locale says (French names, accents in reasons)."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):
            reconfigure(encoding="utf-8")
