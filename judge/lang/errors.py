"""What the mail reader says about a line it cannot read.

A :class:`MailError` is a value in the parse result, never an exception that
escapes: a mail with a mistake on line 5 still has lines 6 to 40 read. The
message is written for the player, in the Judge's style (the reply echoes
the line, then says what is wrong), and the column points at the word at
fault so that a reply can underline it.

:class:`CommandError` is the exception the reading code raises internally
(from the grammar's transformer, the date reader, the condition reader) and
that :mod:`judge.lang.mail` turns into a :class:`MailError`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MailError:
    """One problem in a mail: where it is, the line as written, and what is wrong.

    ``line`` and ``column`` are 1-based; ``text`` is the whole line (the
    Judge echoes the line before the explanation); ``message`` is a sentence
    a player understands.
    """

    line: int
    column: int
    text: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message}"


class CommandError(ValueError):
    """A command line that cannot be read; ``column`` is 1-based in the line, or 0 if unknown."""

    def __init__(self, message: str, column: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.column = column
