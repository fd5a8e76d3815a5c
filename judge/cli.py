"""The `judge` command line: one entry point, one sub-command per job.

Sub-commands are registered in ``COMMANDS``; each module that provides one
exposes ``add_arguments(parser)`` and ``run(args) -> int`` so that this file
stays a thin dispatcher and heavy imports happen only for the job asked for.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="judge", description="An email judge for Diplomacy.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command")
    for name, (module_name, help_text) in COMMANDS.items():
        module = importlib.import_module(module_name)
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(sub_parser)
        sub_parser.set_defaults(_module=module)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        from judge import __version__

        print(f"judge {__version__}")
        return 0
    if args.command is None:
        parser.print_help()
        return 2
    result: int = args._module.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
