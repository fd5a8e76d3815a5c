"""`judge variant FILE...`: check variant files before shipping them, or list the shipped variants.

An author runs it on a new or edited file: the file is read and checked
exactly as the judge reads its own (:func:`judge.core.variants.load_map_file`),
and either a one-line summary is printed or the sentence that names what is
wrong (a one-way border, an unknown code, a centre without a province...),
with exit status 1. Without a file, or with ``list``, the shipped variants
are listed; a shipped variant's name (``judge variant chaos``) gives its line.
Each line says the first phase a game of the variant asks orders for (Chaos,
whose board starts empty: ``W1900A``, the builds), as the judge starts it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from judge.app.game_state.boards import opening_position
from judge.core.errors import VariantError
from judge.core.geography import GameMap
from judge.core.variants import available_variants, load_map, load_map_file

LIST = "list"

NAME = "variant"
HELP = "check variant files (or list the shipped variants)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files", nargs="*",
        help="variant JSON files to check, or shipped variants' names (none, or 'list': list the shipped variants)",
    )


def run(args: argparse.Namespace) -> int:
    if not args.files or args.files == [LIST]:
        for name in available_variants():
            print(summary(load_map(name)))
        return 0
    status = 0
    shipped = {name.lower(): name for name in available_variants()}
    for path in args.files:
        if path.lower() in shipped and not Path(path).exists():
            print(summary(load_map(shipped[path.lower()])))
            continue
        if not Path(path).exists():
            print(f"{path}: no such file, nor a shipped variant ({', '.join(sorted(shipped))})")
            status = 1
            continue
        try:
            game_map = load_map_file(path)
        except VariantError as error:
            print(f"{path}: {error}")
            status = 1
            continue
        print(f"{path}: ok: {summary(game_map)}")
    return status


def summary(game_map: GameMap) -> str:
    """``colonial: Colonial Diplomacy; 7 powers (BCFHJRT), 58 centres, 30 to win, from S1870M; rules: ...``."""
    rules = ", ".join(game_map.special.names) or "none"
    letters = "".join(game_map.letters[p] for p in game_map.powers)
    return (
        f"{game_map.name}: {game_map.title}; {len(game_map.powers)} powers ({letters}), "
        f"{len(game_map.supply_centers)} centres, {game_map.win_centers} to win, from {opening_position(game_map).phase}; "
        f"rules: {rules}"
    )
