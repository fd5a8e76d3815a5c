"""Refusals a handler raises: the player is told why, and the game is left unchanged.

The dispatcher runs each handler inside a savepoint; a :class:`CommandRefused`
rolls back whatever that command had begun, adds its message to the reply
under the command's line, and the judge goes on with the next command (or
stops reading the mail, for a refused sign-on).
"""

from __future__ import annotations


class CommandRefused(Exception):
    """A command the judge will not carry out; ``message`` is already in the reader's language."""

    def __init__(self, message: str, *, stop: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.stop = stop
