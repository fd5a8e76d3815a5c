"""One place that says which handler runs each command.

Handlers are small functions, one module each under :mod:`judge.app.handlers`,
registered with :func:`handles`. A handler gets the command and the mail's
session, changes the game through the session's unit of work, writes to the
reply, and returns whether the judge goes on reading the mail. It never sends
mail itself.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any, TypeVar

from judge.app.session.mail_session import MailSession
from judge.lang.commands import Command


class Next(Enum):
    CONTINUE = "continue"
    STOP = "stop"  # the rest of the mail is not read (SIGNOFF, a failed SIGNON)


C = TypeVar("C", bound=Command)
Handler = Callable[[Any, MailSession], Next]

_HANDLERS: dict[type[Command], Handler] = {}


def handles(*command_types: type[C]) -> Callable[[Callable[[C, MailSession], Next]], Callable[[C, MailSession], Next]]:
    """Register the decorated function as the handler of ``command_types``."""

    def register(function: Callable[[C, MailSession], Next]) -> Callable[[C, MailSession], Next]:
        for command_type in command_types:
            if command_type in _HANDLERS:
                raise RuntimeError(f"two handlers for {command_type.__name__}")
            _HANDLERS[command_type] = function
        return function

    return register


def registered_handlers() -> dict[type[Command], Handler]:
    """The table as it stands: complete once :func:`judge.app.handlers.load_all` has run.

    The registry sits below the handlers (every handler imports it to register), so it
    never imports them; :mod:`judge.app.handlers` loads them and answers lookups.
    """
    return dict(_HANDLERS)
