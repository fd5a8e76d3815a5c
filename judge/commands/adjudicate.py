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
so a position may mix both. The ``variant`` field chooses the map (any
shipped variant, docs/variants.md) and its province codes; powers are read
in any case and spacing and written back as the variant file spells them.
The formats are in :mod:`judge.core.serialization`;
the ruling itself is :mod:`judge.ruling` (shared with the judge's phase processing).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Mapping
from typing import IO, Any

import orjson

from judge.ruling import rule_on, rule_on_text

__all__ = ["rule_on", "rule_on_text"]

NAME = "adjudicate"
HELP = "adjudicate a position given as JSON and print the result as JSON"

_EPILOG = """\
input:  {"variant": "standard", "phase": "S1901M",
         "units": [{"power": "ENGLAND", "type": "F", "loc": "NTH"}],
         "centers": {"ENGLAND": ["LON", "EDI", "LVP"]},
         "dislodged": [], "standoffs": [],
         "orders": {"ENGLAND": ["F NTH - BEL"]}, "rules": {}}
output: {"phase": "S1901M", "next_phase": "F1901M", "units": [...],
         "dislodged": [...], "centers": {...}, "results": [...], "winner": null}

"variant" is any shipped variant (judge variant lists them), with its own
province codes; a power may be written in any case, with or without spaces
and hyphens ("FROZEN-ANTARCTICA", "Frozen Antarctica"); output writes it as
the variant file does. Neutral units have the power "NEUTRAL".
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


def _write(stream: IO[str], data: Mapping[str, Any]) -> None:
    """One result as one line of JSON (UTF-8 as is, no escapes), encoded by orjson (several times faster)."""
    try:
        text = orjson.dumps(data).decode("utf-8")
    except TypeError:  # nothing the ruling returns today; the standard library as the last word
        text = json.dumps(data, ensure_ascii=False)
    stream.write(text + "\n")


def _utf8(stream: Any) -> None:
    """Read and write UTF-8 whatever the locale says (French names, accents in reasons)."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):
            reconfigure(encoding="utf-8")
