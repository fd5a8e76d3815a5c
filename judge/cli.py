"""The `judge` command line: one entry point, one sub-command per module.

Every module in :mod:`judge.commands` is a sub-command: it defines ``NAME``,
``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``. Discovery keeps
this dispatcher free of a hand-kept list that every feature would have to edit.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType

import judge.commands
from judge.collector import collector_paused


def command_modules() -> list[ModuleType]:
    """The sub-command modules, sorted by name."""
    modules = []
    for info in pkgutil.iter_modules(judge.commands.__path__):
        if info.name.startswith("_"):
            continue
        modules.append(importlib.import_module(f"judge.commands.{info.name}"))
    return sorted(modules, key=lambda m: str(m.NAME))


def build_parser(modules: Sequence[ModuleType] | None = None) -> argparse.ArgumentParser:
    """The whole command line (``modules``: only these sub-commands; default: every one)."""
    parser = argparse.ArgumentParser(prog="judge", description="An email judge for Diplomacy.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command")
    for module in command_modules() if modules is None else modules:
        sub_parser = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(sub_parser)
        sub_parser.set_defaults(_module=module)
    return parser


def _named_command(argv: Sequence[str]) -> ModuleType | None:
    """The sub-command module the command line names, imported alone (None: not a command).

    ``judge adjudicate`` and the like then start without importing every
    other command (the database layer, the mail server...): start-up is
    most of a short batch's time.
    """
    name = next((arg for arg in argv if not arg.startswith("-")), None)
    if name is None or not name.isidentifier() or name.startswith("_"):
        return None
    if importlib.util.find_spec(f"judge.commands.{name}") is None:
        return None
    module = importlib.import_module(f"judge.commands.{name}")
    return module if getattr(module, "NAME", None) == name else None


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    # Start-up (the command's modules imported, the parser built) allocates objects that live as
    # long as the process: the collector, off meanwhile, would only trace them in vain.
    with collector_paused():
        named = _named_command(arguments)
        parser = build_parser([named] if named is not None else None)
        args = parser.parse_args(arguments)
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
