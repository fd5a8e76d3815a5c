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
import gc
import io
import json
import sys
from collections.abc import Callable, Mapping
from typing import IO, Any

import orjson

from judge.collector import collector_paused
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
        waiting = _input_waiting(sys.stdin)
        pending: list[bytes] = []
        first = True
        threshold = gc.get_threshold()
        try:
            for line in sys.stdin:
                if line.strip():
                    if first:
                        pending.append(_encode(_start_up(line)))
                        first = False
                    else:
                        pending.append(_encode(rule_on_text(line)))
                    # Each result is out before the judge waits for more input (a program may send
                    # one position and wait for its result); while more input is already there,
                    # the results go out together, one system call for many lines instead of one each
                    # (at most _BATCH of them: a long input does not make the judge hold its output).
                    if len(pending) >= _BATCH or not waiting():
                        _send(sys.stdout, pending)
        except (OSError, UnicodeDecodeError) as error:
            _send(sys.stdout, pending)
            print(f"judge adjudicate: cannot read standard input: {error}", file=sys.stderr)
            return 1
        finally:
            gc.set_threshold(*threshold)
        _send(sys.stdout, pending)
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


def _start_up(line: str) -> dict[str, Any]:
    """The first position's result, with the collector off while it runs, then frozen out of its way.

    The first position imports the engine and builds the map's tables: most of what it allocates
    lives as long as the process, and the collector would trace it again and again, in vain, at
    every collection it triggers then and later in the batch (and once more as the process ends).
    Frozen, those objects are left out of every collection; a position's own garbage is collected
    as before from the second one on. The first position's cyclic garbage, if any, is kept
    (a bounded, one-time cost, as with any object frozen).

    Then, for the rest of the batch, the youngest generation is collected after _YOUNG_THRESHOLD
    net new objects rather than 700: a position's objects are freed by their reference counts as its result is written, so
    a collection in the middle of one only traces objects still in use; fewer collections trace
    fewer of them. Cyclic garbage waits longer, never more than that many objects.
    """
    with collector_paused():
        try:
            return rule_on_text(line)
        finally:
            gc.freeze()
            gc.set_threshold(_YOUNG_THRESHOLD)


_YOUNG_THRESHOLD = 50_000
"""The collector's threshold for its youngest generation in a batch (Python's default is 700)."""


_BATCH = 64
"""The most results held back while more input is waiting."""


def _write(stream: IO[str], data: Mapping[str, Any]) -> None:
    """One result as one line of JSON (UTF-8 as is, no escapes)."""
    _send(stream, [_encode(data)])


def _encode(data: Mapping[str, Any]) -> bytes:
    """One result as one line of JSON in UTF-8, encoded by orjson (several times faster)."""
    try:
        return orjson.dumps(data, option=orjson.OPT_APPEND_NEWLINE)
    except TypeError:  # nothing the ruling returns today; the standard library as the last word
        return (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8")


def _send(stream: IO[str], lines: list[bytes]) -> None:
    """Write ``lines`` (then empty the list) and flush: as bytes to the stream's buffer when it
    has one (after anything it holds as text), with no decoding and encoding again."""
    if not lines:
        return
    payload = b"".join(lines) if len(lines) > 1 else lines[0]
    lines.clear()
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(payload.decode("utf-8"))
    else:
        stream.flush()
        buffer.write(payload)
    stream.flush()


def _input_waiting(stream: IO[str]) -> Callable[[], bool]:
    """A test of whether more of ``stream`` can be read at once (without waiting for a writer).

    It never says so wrongly: the bytes are already in the pipe or file (or it is at its end).
    Lines the stream has read ahead of us are not seen: then it says no, and the caller flushes
    its output, which is never wrong, only slower. Where ``select`` cannot tell (a stream with no
    file descriptor, a system without select on pipes), always no.
    """
    try:
        import select

        descriptor = stream.fileno()
        select.select([descriptor], [], [], 0)
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return _never

    def waiting() -> bool:
        try:
            return bool(select.select([descriptor], [], [], 0)[0])
        except (OSError, ValueError):
            return False

    return waiting


def _never() -> bool:
    return False


def _utf8(stream: Any) -> None:
    """Read and write UTF-8 whatever the locale says (French names, accents in reasons)."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):
            reconfigure(encoding="utf-8")
