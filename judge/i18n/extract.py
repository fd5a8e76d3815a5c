"""Finding every translatable message in the judge's code.

A message is the literal first argument of a call to ``_`` or ``N_``. Used by
the catalog test (every message must be translated) and by developers to
update the catalog: ``python -m judge.i18n.extract`` prints the missing
entries in ``.po`` form.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

MARKERS = frozenset({"_", "N_"})


def messages_in_source(source: str, filename: str = "<source>") -> Iterator[tuple[str, int]]:
    """(message, line) for each marked literal in one module's source."""
    tree = ast.parse(source, filename)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in MARKERS
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.args[0].value, node.lineno


def messages_in_package(root: Path) -> dict[str, list[str]]:
    """message -> the places (``path:line``) it is used, for every .py file under root."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        for message, line in messages_in_source(path.read_text(encoding="utf-8"), str(path)):
            found.setdefault(message, []).append(f"{path.relative_to(root.parent)}:{line}")
    return found


def _po_quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def main() -> int:
    from judge.i18n import read_catalog

    package = Path(__file__).resolve().parent.parent
    catalog = read_catalog("fr")
    for message, places in messages_in_package(package).items():
        if message in catalog:
            continue
        print(f"#: {' '.join(places)}")
        print(f"msgid {_po_quote(message)}")
        print('msgstr ""\n')
    return 0


if __name__ == "__main__":
    sys.exit(main())
