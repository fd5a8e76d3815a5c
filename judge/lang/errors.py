"""What the mail reader says about a line it cannot read.

A :class:`MailError` is a value in the parse result, never an exception that
escapes: a mail with a mistake on line 5 still has lines 6 to 40 read. The
message is written for the player, in the Judge's style (the reply echoes
the line, then says what is wrong), and the column points at the word at
fault so that a reply can underline it.

:class:`CommandError` is the exception the reading code raises internally
(from the grammar's transformer, the date reader, the condition reader) and
that :mod:`judge.lang.mail` turns into a :class:`MailError`.

Every message is built as a :class:`~judge.core.errors.Message` (a template
marked with :func:`N_` and its arguments): ``message`` is its English text,
which ``judge parse`` prints and the golden tests compare, and
``translatable`` keeps the message itself so that the app layer can write it
in the reader's language (``judge.app.session.error_text``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from judge.core.errors import N_, Message

__all__ = ["N_", "CommandError", "MailError", "Message", "Wording", "english", "translatable"]

Wording = str | Message
"""A message as the reader builds it: a :class:`Message`, or plain English where nothing is to translate."""


def english(wording: Wording) -> str:
    """The English text of a message."""
    return wording if isinstance(wording, str) else str(wording)


def translatable(wording: Wording) -> Message | None:
    return wording if isinstance(wording, Message) else None


@dataclass(frozen=True, slots=True)
class MailError:
    """One problem in a mail: where it is, the line as written, and what is wrong.

    ``line`` and ``column`` are 1-based; ``text`` is the whole line (the
    Judge echoes the line before the explanation); ``message`` is a sentence
    a player understands, in English; ``translatable`` the same sentence as
    a :class:`Message`, when it has one, for readers of other languages.
    """

    line: int
    column: int
    text: str
    message: str
    translatable: Message | None = field(default=None, compare=False, repr=False)
    order_line: bool = field(default=False, compare=False, repr=False)
    """The line was read as orders (after a sign-on): a failed order, which leaves the orders
    on file as they were and counts as a mistake in them (the error flag)."""

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message}"


class CommandError(ValueError):
    """A command line that cannot be read; ``column`` is 1-based in the line, or 0 if unknown."""

    def __init__(self, message: Wording, column: int = 0) -> None:
        super().__init__(english(message))
        self.message = english(message)
        self.translatable = translatable(message)
        self.column = column

    @property
    def wording(self) -> Wording:
        """The message as built: a :class:`Message` when it can be translated."""
        return self.translatable or self.message
