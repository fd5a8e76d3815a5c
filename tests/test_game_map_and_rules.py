"""One way for ``judge.app`` to get a game's map and one to get its adjudication rules.

A game's map is its variant's map as the game's settings leave it (SET NO RAILWAYS, SET ANY
CENTRES...): :func:`judge.app.game_state.variant_rules.game_map_of`. A module that loads the
variant's map itself (``load_map(game.variant)``) reads a game whose settings changed its rules
as if they had not, and the copies drift. Likewise the game's rule options are read in
:func:`judge.app.game_state.game_rules.game_rules` only. These tests read the source (AST), so
they see a call wherever it is, inside functions too.
"""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "judge" / "app"

MAP_HOME = APP / "game_state" / "variant_rules.py"
RULES_HOME = APP / "game_state" / "game_rules.py"


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _last_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _is_a_games_variant(node: ast.expr) -> bool:
    """``game.variant``, ``session.game.variant``, ``self.game.variant``, ``new_game.variant``..."""
    if not (isinstance(node, ast.Attribute) and node.attr == "variant"):
        return False
    owner = _last_name(node.value)
    return owner is not None and "game" in owner.lower()


def maps_loaded_from_a_games_variant(source: str) -> list[int]:
    """The lines of ``source`` that call ``load_map`` with a game's variant."""
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and _called_name(node) == "load_map"
        and any(_is_a_games_variant(arg) for arg in [*node.args, *(kw.value for kw in node.keywords)])
    )


def rules_read_from_a_mapping(source: str) -> list[int]:
    """The lines of ``source`` that make a ``Rules`` from a mapping other than a literal one
    (a literal ``{name: value}`` only checks that one option word can be read)."""
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and _called_name(node) == "from_mapping"
        and not all(isinstance(arg, ast.Dict) for arg in node.args)
    )


def _app_sources() -> list[tuple[Path, str]]:
    return [(path, path.read_text(encoding="utf-8")) for path in sorted(APP.rglob("*.py"))]


def test_no_module_of_the_app_loads_a_games_map_but_the_one_home() -> None:
    found = [
        f"{path.relative_to(APP.parents[1])}:{line}"
        for path, source in _app_sources()
        if path != MAP_HOME
        for line in maps_loaded_from_a_games_variant(source)
    ]
    assert found == [], "use judge.app.game_state.variant_rules.game_map_of(game) instead"


def test_no_module_of_the_app_reads_a_games_rules_but_the_one_home() -> None:
    found = [
        f"{path.relative_to(APP.parents[1])}:{line}"
        for path, source in _app_sources()
        if path != RULES_HOME
        for line in rules_read_from_a_mapping(source)
    ]
    assert found == [], "use judge.app.game_state.game_rules.game_rules(game) instead"


def test_each_way_is_defined_once() -> None:
    defined: dict[str, list[str]] = {}
    for path, source in _app_sources():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef):
                defined.setdefault(node.name, []).append(str(path.relative_to(APP)))
    assert defined["game_map_of"] == ["game_state/variant_rules.py"]
    assert defined["game_rules"] == ["game_state/game_rules.py"]
    assert "game_map" not in defined
    assert "adjudication_rules" not in defined


def test_the_scan_sees_a_games_map_loaded_anywhere() -> None:
    source = (
        "from judge.core import variants\n"
        "from judge.core.variants import load_map\n"
        "def f(game, session, self, variant, position):\n"
        "    load_map(game.variant)\n"
        "    variants.load_map(session.game.variant)\n"
        "    x = [load_map(self.game.variant)]\n"
        "    load_map(variant=game.variant)\n"
        "    load_map(variant)\n"
        "    load_map(position.variant)\n"
        "    load_map('standard')\n"
    )
    assert maps_loaded_from_a_games_variant(source) == [4, 5, 6, 7]


def test_the_scan_sees_rules_made_from_a_stored_mapping() -> None:
    source = (
        "def f(game, name, value, stored):\n"
        "    Rules.from_mapping(game.extra_settings['rules'])\n"
        "    Rules.from_mapping(dict(stored))\n"
        "    Rules.from_mapping({name: value})\n"
    )
    assert rules_read_from_a_mapping(source) == [2, 3]
