"""`judge map POSITION.json [--orders-result RESULT.json] -o board.png|board.svg`: draw a ruling.

Reads a position in the `judge adjudicate` contract's format (and, if given,
the result `judge adjudicate` wrote for it) and draws the board: PNG or SVG
by the output file's extension. Anyone can so check a ruling by eye.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import orjson

from judge.core.errors import CoreError

NAME = "map"
HELP = "draw a position (and its adjudicated orders) as PNG or SVG"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", help="position JSON (the `judge adjudicate` input format)")
    parser.add_argument("--orders-result", dest="result", help="the result JSON `judge adjudicate` gave for it")
    parser.add_argument("-o", "--output", required=True, help="board.png or board.svg")
    parser.add_argument("--title", help="title over the map (default: variant and phase)")


def run(args: argparse.Namespace) -> int:
    from judge.maps.contract import svg_from_contract
    from judge.maps.png import svg_to_png

    output = Path(args.output)
    if output.suffix.lower() not in (".png", ".svg"):
        print("judge map: the output must end in .png or .svg", file=sys.stderr)
        return 2
    try:
        position = _read_json(args.position)
        result = _read_json(args.result) if args.result else None
        svg = svg_from_contract(position, result, title=args.title)
    except (OSError, json.JSONDecodeError, CoreError) as error:  # orjson's error is a JSONDecodeError
        print(f"judge map: {error}", file=sys.stderr)
        return 1
    except RecursionError:  # a structure deep enough to exhaust the stack is no position anyway
        print("judge map: the JSON is nested too deeply to be a position or a result", file=sys.stderr)
        return 1
    if output.suffix.lower() == ".svg":
        output.write_text(svg, encoding="utf-8")
    else:
        output.write_bytes(svg_to_png(svg))
    return 0


def _read_json(path: str) -> Any:
    """The JSON of ``path``, read with orjson: past 1,024 levels of nesting it says so (a
    JSONDecodeError) instead of exhausting the stack as the standard library's reader does."""
    return orjson.loads(Path(path).read_bytes())
