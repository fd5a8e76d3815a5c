"""`judge parse [FILE]`: what the judge makes of a mail body, as JSON.

For players and masters ("what will the judge read in my mail?") and for
tests. Reads one mail body (the text, not the headers) from FILE or standard
input, parses it exactly as the judge does, and prints the commands and the
errors. Exit status 0 when the mail has no error, 1 when it has some, 2 when
the file cannot be read.
"""

from __future__ import annotations

import argparse

NAME = "parse"
HELP = "show, as JSON, the commands and errors the judge reads in a mail body"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default="-", help="mail body (default: standard input)")
    parser.add_argument("--variant", default="standard", help="variant whose map names are read (default: standard)")
    parser.add_argument(
        "--phase",
        choices=("movement", "retreat", "adjustment"),
        help="type of the current phase (settles e.g. 'F TRI - ALB' as a retreat)",
    )
    parser.add_argument("--french", action="store_true", help="accept French order forms and names")
    parser.add_argument("--compact", action="store_true", help="one line of JSON instead of indented")


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from judge.core.errors import VariantError
    from judge.core.phase import PhaseType
    from judge.core.variants import load_map
    from judge.lang.mail import parse_mail
    from judge.lang.serialize import result_to_json

    try:
        if args.file == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as handle:
                data = handle.read()
    except OSError as error:
        print(f"judge parse: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    try:
        game_map = load_map(args.variant)
    except VariantError as error:
        print(f"judge parse: {error}", file=sys.stderr)
        return 2
    phase_type = {"movement": PhaseType.MOVEMENT, "retreat": PhaseType.RETREAT, "adjustment": PhaseType.ADJUSTMENT}.get(
        args.phase or ""
    )
    body = data.decode("utf-8", errors="replace")
    result = parse_mail(body, game_map, phase_type=phase_type, french=args.french)
    indent = None if args.compact else 2
    print(json.dumps(result_to_json(result), ensure_ascii=False, indent=indent))
    return 0 if result.ok else 1
