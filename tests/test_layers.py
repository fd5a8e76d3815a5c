"""The floors of the judge, and the order of ``judge.app``'s rooms: imports only go down.

``tests/test_import_cycles.py`` forbids circles; this test states the plan the code follows,
so a reader knows where a module may reach without reading it. Every import counts:
at module level, inside functions, and under ``TYPE_CHECKING`` (a type is a dependency
too). A module may import from its own floor (peers) and from any floor below.

Floors of ``judge`` (low to high): the pure core; the edges it is read and kept through
(language, database, clock, mail, maps...); the application; the command line.
Inside ``judge.app`` each sub-package is a room named after a flow, in the order of
:data:`APP_ROOMS`; a room imports only rooms before it (and itself).
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "judge"

#: ``judge``'s floors, low to high; a top-level package or module not named here fails the test.
JUDGE_FLOORS: tuple[frozenset[str], ...] = (
    frozenset({"core", "variants"}),
    frozenset(
        {"lang", "grammar", "db", "migrations", "timekeeping", "mail", "maps", "ruling", "waiting", "json_text", "collector",
         "i18n", "locale", "help", "config", "logs"}
    ),
    frozenset({"app"}),
    frozenset({"commands", "cli", "web"}),  # web: the read-only pages, a face of the judge like its command line
)

#: ``judge.app``'s rooms, low to high.
APP_ROOMS: tuple[str, ...] = (
    "session",  # one mail's state and reply, refusals, the registry, services, readers
    "audience",  # who may see what
    "game_state",  # what the database holds about one game
    "mail_out",  # outbox, sender, press routing, results maps, wording, alarms
    "councils",  # the council variant's own rules at the edge, and its game hooks
    "machiavelli",  # the Renaissance game at the edge: a phase played from what is kept, its results
    "hooks",  # the game hooks: the one way a variant or house rule takes part in the flow, resolved per game
    "reports",  # what the judge writes about games and people
    "games",  # a game's life: creation, start, masters, draws, end
    "people",  # sign-on checks, registrations, takeover, guessing limits
    "phases",  # planning, the scheduler, processing, deadline actions
    "orders",  # the order mail
    "handlers",  # one module per command
    "mail_in",  # the worker and the dispatch of a mail's commands
    "console",  # the operator's console, health, metrics, retention
    "runtime",  # the running judge
)


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        found[name] = path
    return found


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """Every ``judge`` module this file imports, wherever the import statement is."""
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                targets.add(full if full in modules else node.module)
        elif isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        else:
            targets.update(_imported_by_name(node))
    return {target for target in targets if target == "judge" or target.startswith("judge.")}


def _is_import_module(node: ast.AST) -> bool:
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return name == "import_module"


def _imported_by_name(node: ast.AST) -> set[str]:
    """``import_module("judge....")``, or ``import_module`` handed with its name to another call
    (``asyncio.to_thread(importlib.import_module, "judge....")``): imports all the same, which a
    module may not use to reach past the floors."""
    if not isinstance(node, ast.Call):
        return set()
    found = set()
    arguments = [node.func, *node.args]
    for before, after in itertools.pairwise(arguments):
        if _is_import_module(before) and isinstance(after, ast.Constant) and isinstance(after.value, str):
            found.add(after.value)
    return found


def _judge_floor(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) < 2:
        return None  # the package's face, judge/__init__.py
    for index, floor in enumerate(JUDGE_FLOORS):
        if parts[1] in floor:
            return index
    raise AssertionError(f"{module}: judge.{parts[1]} is on no floor of JUDGE_FLOORS")


def _room(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) < 3 or parts[1] != "app":
        return None
    if parts[2] not in APP_ROOMS:
        raise AssertionError(f"{module} sits in no room of APP_ROOMS")
    return APP_ROOMS.index(parts[2])


def _violations() -> list[str]:
    modules = _modules()
    found: list[str] = []
    for name, path in sorted(modules.items()):
        here_floor, here_room = _judge_floor(name), _room(name)
        for target in sorted(_imports(path, modules)):
            there_floor, there_room = _judge_floor(target), _room(target)
            if here_floor is not None and there_floor is not None and there_floor > here_floor:
                found.append(f"{name} (floor {here_floor}) imports {target} (floor {there_floor})")
            elif here_room is not None and there_room is not None and there_room > here_room:
                found.append(f"{name} ({APP_ROOMS[here_room]}) imports {target} ({APP_ROOMS[there_room]})")
            elif here_room is not None and target == "judge.app":
                found.append(f"{name} imports the package's face judge.app")
    return found


def test_imports_only_go_down_the_floors_and_rooms() -> None:
    assert _violations() == []


def test_the_check_sees_an_import_up_a_floor_even_inside_a_function(tmp_path: Path) -> None:
    source = "import importlib\ndef f():\n    from judge.app.mail_in.worker import run\n    importlib.import_module('judge.web.serving')\n    asyncio.to_thread(importlib.import_module, 'judge.commands.serve')\n"
    path = tmp_path / "m.py"
    path.write_text(source, encoding="utf-8")
    modules = _modules()
    assert _imports(path, modules) == {"judge.app.mail_in.worker", "judge.web.serving", "judge.commands.serve"}
    assert _room("judge.app.mail_in.worker") > _room("judge.app.session.reply")  # type: ignore[operator]
    assert _judge_floor("judge.app.mail_in.worker") > _judge_floor("judge.core.orders")  # type: ignore[operator]


def test_no_module_of_app_sits_outside_a_room() -> None:
    loose = sorted(p.name for p in (PACKAGE / "app").glob("*.py") if p.name != "__init__.py")
    assert loose == []
    rooms = sorted(p.name for p in (PACKAGE / "app").iterdir() if (p / "__init__.py").exists())
    assert rooms == sorted(APP_ROOMS)


def test_no_two_modules_of_app_share_a_name_nor_take_a_name_of_judge() -> None:
    judge_names = {p.stem if p.suffix == ".py" else p.name for p in PACKAGE.iterdir()} - {"__init__", "app", "__pycache__"}
    seen: dict[str, str] = {}
    clashes: list[str] = []
    for path in sorted((PACKAGE / "app").rglob("*")):
        if path.name == "__pycache__" or "__pycache__" in path.parts:
            continue
        if path.is_dir() and (path / "__init__.py").exists():
            name = path.name
        elif path.suffix == ".py" and path.name != "__init__.py":
            name = path.stem
        else:
            continue
        where = str(path.relative_to(PACKAGE))
        if name in judge_names:
            clashes.append(f"{where} takes the name of judge.{name}")
        if name in seen:
            clashes.append(f"{where} and {seen[name]} share the name {name}")
        seen.setdefault(name, where)
    assert clashes == []


@pytest.mark.parametrize("room", APP_ROOMS)
def test_every_room_says_what_it_is_for(room: str) -> None:
    init = PACKAGE / "app" / room / "__init__.py"
    assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), f"judge/app/{room} has no docstring"
