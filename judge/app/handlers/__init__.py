"""Command handlers, one module per command (or per tight family of SET commands).

Every module in this package is imported by :func:`load_all`, which
:mod:`judge.app.registry` calls once: a module registers its handler with
``@handles(CommandType)``; the registry refuses two handlers for one command.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache


@cache
def load_all() -> tuple[str, ...]:
    names = tuple(
        info.name for info in pkgutil.iter_modules(__path__) if not info.name.startswith("_")
    )
    for name in names:
        importlib.import_module(f"{__name__}.{name}")
    return names
