"""docs/testing.md's mutation section cannot drift from benchmarks/mutations.py.

Every command the page quotes for the benchmark is accepted by the script's own argument parser,
and every mutant the script lists as equivalent is explained on the page (by its module and
function), so a mutant is never left out of the score without a reason a reader can check.
"""

from __future__ import annotations

import functools
import importlib.util
import re
import shlex
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "testing.md"


@functools.cache
def _benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutations_benchmark", ROOT / "benchmarks" / "mutations.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _quoted_commands() -> list[list[str]]:
    text = PAGE.read_text(encoding="utf-8")
    return [
        shlex.split(line)[2:]
        for line in re.findall(r"^\.venv/bin/python benchmarks/mutations\.py.*$", text, flags=re.M)
    ]


def test_every_quoted_command_is_one_the_script_accepts() -> None:
    commands = _quoted_commands()
    assert commands, "the page quotes no run of benchmarks/mutations.py"
    parser = _benchmark().arguments()
    for words in commands:
        parser.parse_args(words)  # exits (SystemExit) on an option the script does not have


def test_every_equivalent_mutant_is_explained_on_the_page() -> None:
    text = PAGE.read_text(encoding="utf-8")
    missing = [
        f"{path} {function}"
        for path, function, _line, _change in _benchmark().EQUIVALENT
        if f"`{path}`" not in text or f"`{function}`" not in text
    ]
    assert not missing, missing


def test_every_fixed_selection_names_a_target_module_and_test_files_that_exist() -> None:
    benchmark = _benchmark()
    targets = {module.partition(":")[0] for area in benchmark.AREAS.values() for module in area.modules}
    for module, tests in benchmark.SELECTIONS.items():
        assert module in targets, module
        assert tests, module
        for test in tests:
            assert (ROOT / test.partition("::")[0]).is_file(), (module, test)
