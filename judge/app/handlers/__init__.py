"""Command handlers, one module per command (or per tight family of SET commands).

Every module in this package is imported by :func:`load_all`, which the lookups
below call (once: it is cached): a module registers its handler with
``@handles(CommandType)`` in :mod:`judge.app.session.registry`, which refuses two handlers
for one command. The dispatch asks :func:`handler_for`; nothing below the handlers
imports them.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import TYPE_CHECKING

from judge.app.session.registry import Handler, registered_handlers

if TYPE_CHECKING:
    from judge.lang.commands import Command


@cache
def load_all() -> tuple[str, ...]:
    names = tuple(
        info.name for info in pkgutil.iter_modules(__path__) if not info.name.startswith("_")
    )
    for name in names:
        importlib.import_module(f"{__name__}.{name}")
    return names


def handler_for(command: Command) -> Handler | None:
    """The handler registered for this command's type, if any."""
    load_all()
    return registered_handlers().get(type(command))


def registered() -> dict[type[Command], Handler]:
    """Every command type with its handler."""
    load_all()
    return registered_handlers()
