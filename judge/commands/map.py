"""`judge map`: draw a ruling, or a variant's opening, as PNG or SVG.

``judge map POSITION.json [--orders-result RESULT.json] -o board.png|board.svg``
reads a position in the `judge adjudicate` contract's format (and, if given,
the result `judge adjudicate` wrote for it) and draws the board: anyone can
so check a ruling by eye. ``judge map --variant NAME [--phase S1901M] -o
board.png`` draws a variant's opening with no position file (the board a
game of it starts from, as the Game Starting mail shows it). PNG or SVG by
the output file's extension; ``--language fr`` gives the French picture.
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
HELP = "draw a position (and its adjudicated orders), or a variant's opening, as PNG or SVG"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", nargs="?", help="position JSON (the `judge adjudicate` input format)")
    parser.add_argument("--orders-result", dest="result", help="the result JSON `judge adjudicate` gave for it")
    parser.add_argument("--variant", help="draw this variant's opening instead of a position file")
    parser.add_argument("--phase", help="with --variant: the opening's phase (it must be the variant's first)")
    parser.add_argument("-o", "--output", required=True, help="board.png or board.svg")
    parser.add_argument("--title", help="title over the map (default: variant and phase)")
    parser.add_argument("--language", choices=("en", "fr"), default="en", help="the picture's language")


def run(args: argparse.Namespace) -> int:
    from judge.app.reports.opening_boards import opening_svg
    from judge.maps.contract import svg_from_contract
    from judge.maps.png import svg_to_png

    output = Path(args.output)
    if output.suffix.lower() not in (".png", ".svg"):
        print("judge map: the output must end in .png or .svg", file=sys.stderr)
        return 2
    if (args.position is None) == (args.variant is None):
        print("judge map: give a position file or --variant NAME (one of them)", file=sys.stderr)
        return 2
    try:
        if args.variant is not None:
            if args.result:
                print("judge map: --orders-result goes with a position file, not --variant", file=sys.stderr)
                return 2
            svg = opening_svg(args.variant, args.phase, args.title, args.language)
        else:
            position = _read_json(args.position)
            result = _read_json(args.result) if args.result else None
            svg = svg_from_contract(position, result, title=args.title, language=args.language)
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
