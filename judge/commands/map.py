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
        position = json.loads(Path(args.position).read_text(encoding="utf-8"))
        result = json.loads(Path(args.result).read_text(encoding="utf-8")) if args.result else None
        svg = svg_from_contract(position, result, title=args.title)
    except (OSError, json.JSONDecodeError, CoreError) as error:
        print(f"judge map: {error}", file=sys.stderr)
        return 1
    if output.suffix.lower() == ".svg":
        output.write_text(svg, encoding="utf-8")
    else:
        output.write_bytes(svg_to_png(svg))
    return 0
