"""Reading a whole mail body into commands and errors, line by line, as the Judge did.

Each line is a command or an order. A line whose first word is a command
keyword (derived from ``grammar/mail.lark``) is parsed with the command
grammar; any other line goes to the order reader (:mod:`judge.lang.orders`),
inside IF blocks too. Some commands open a block that the reader collects
here: the REGISTER form (up to END), press text (up to ENDPRESS,
ENDBROADCAST, SIGNOFF or the end of the mail), SET COMMENT BEGIN (up to
SIGNOFF), DIARY (up to ENDDIARY), and IF ... ENDIF, whose structure this
module builds (the end of the mail, a PHASE line or SIGNOFF close open IFs
silently, as the Judge did). SIGNOFF or a ``-- `` signature line
(:func:`judge.mail.signature.is_signature_line`, the decoder's rule too) ends the reading, and so do the ways people end a mail (a closing line, a phone's
footer) when no command follows them; prose after the last command is
:class:`~judge.lang.commands.IgnoredText`, not a bad order (the rules are
in :mod:`judge.lang.signatures`).

Nothing a mail contains makes :func:`parse_mail` raise: every problem is a
:class:`~judge.lang.errors.MailError` in the result and the next line is
read. Explicit limits keep a hostile mail cheap: see the ``MAX_*`` constants.
Before SIGNON, a line that is neither a command nor an order is reported as
an unknown command; whether orders need a SIGNON is the handlers' business.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)

from judge.core.errors import CoreError, Listing
from judge.core.geography import GameMap
from judge.core.phase import PhaseType
from judge.core.variants import load_map
from judge.lang import commands as c
from judge.lang.builder import CommandBuilder
from judge.lang.conditions import And, Condition, Not, Or
from judge.lang.errors import N_, CommandError, MailError, Message, Wording, english, translatable
from judge.lang.grammar import (
    START_COMMAND,
    START_REGISTER_FIELD,
    TRANSLATABLE_DESCRIPTIONS,
    command_parser,
    command_words,
    describe_terminal,
    one_word_commands,
)
from judge.lang.orders import OrderSyntaxError, ReadOrder, read_order_line
from judge.lang.signatures import is_sign_off, looks_like_prose
from judge.mail.signature import is_signature_line

MAX_MAIL_CHARS = 1_000_000
"""Characters read from a mail body; the rest is reported and ignored."""
MAX_LINES = 10_000
"""Lines read from a mail body."""
MAX_LINE_LENGTH = 1_023
"""Characters in a command or order line (the Judge split longer lines); press text may be longer."""
MAX_IF_DEPTH = 16
"""IF blocks inside IF blocks."""
MAX_CONDITION_DEPTH = 32
"""Nesting of parentheses, and NOTs, in one condition."""
MAX_CONDITION_TERMS = 64
"""ANDs and ORs in one condition (the transformer recurses once per operator)."""
MAX_ERRORS = 100
"""Errors reported before the reading stops."""
MAX_REGISTER_FIELDS = 50
"""Lines of one REGISTER form."""
MAX_PROSE_LINES = 100
"""Lines of prose read after the last command (a letter under the orders) before the reading stops."""



@dataclass(frozen=True, slots=True)
class SignonReading:
    """How to read the rest of a mail after its sign-on, as the caller knows the game: its
    map, the current phase's type and whether French forms are read (``map_for_signon``)."""

    game_map: GameMap
    phase_type: PhaseType | None
    french: bool
    line_reader: LineReader | None = None
    """The variant's own reader of an order line (None: the judge's order reader): a line it
    reads, or one that is no prose, becomes a :class:`judge.lang.commands.SheetLineCommand`."""


LineReader = Callable[[str], OrderSyntaxError | None]
"""Why a line does not read as an order of the variant whose orders are kept as text (None: it does)."""

SignonMap = Callable[[c.Signon | c.Create], GameMap | SignonReading | None]

_CONTROL = {code: " " for code in (*range(0x00, 0x09), *range(0x0A, 0x20), 0x7F, *range(0x80, 0xA0))}
_FIRST_WORD = re.compile(r"[^\s(),]+")
# First words that start a command only with the right second word ("I am also", "end if").
_LEAD_WORDS = {
    "i": ("am",),
    "sign": ("on", "off"),
    "end": ("if", "press", "broadcast"),
    "force": ("begin",),
    "postal": ("press",),
}
# Greetings that are also sign-on aliases: a line starting so that is no sign-on is a greeting.
_SIGNON_ALIASES = ("hello", "login", "logon")
_HEADER_WORDS = ("from", "reply-to", "resent-from")
_PRESS_WORDS = ("press", "broadcast", "postal")
_PRESS_ENDS = {"endpress": "endpress", "endbroadcast": "endbroadcast", "end press": "endpress", "end broadcast": "endbroadcast"}
_DIARY_ENDS = ("enddiary", "end diary", "endpress", "end press")
_SIGNOFFS = ("signoff", "sign off", "logoff", "logout")
INTERNAL_ERROR_MESSAGE = "The judge could not read this line (internal error); it was ignored."


@dataclass(frozen=True, slots=True)
class ParseResult:
    """What a mail says: its commands in order, and every line that could not be read."""

    commands: tuple[c.Command, ...]
    errors: tuple[MailError, ...]

    @property
    def ok(self) -> bool:
        return not self.errors


def parse_mail(
    body: str,
    game_map: GameMap | None = None,
    *,
    phase_type: PhaseType | None = None,
    french: bool = False,
    map_for_signon: SignonMap | None = None,
    line_reader: LineReader | None = None,
) -> ParseResult:
    """Read a mail body; never raises.

    ``game_map`` is the variant orders and conditions are read with (the
    standard map by default); ``phase_type`` the current phase's type, which
    settles a few order forms (``F TRI - ALB`` is a retreat in a retreat
    phase); ``french`` accepts the French order forms and names.
    ``map_for_signon`` lets the caller switch maps at the SIGNON line (it
    knows the game's variant; the parser does not): it gets the sign-on and
    returns the game's map (or a :class:`SignonReading`: the map, phase type and
    language for the rest of the mail), or None to keep the current one. Without it, a
    sign-on or CREATE that names a variant switches to that variant. ``line_reader``: the
    variant's own order lines (see :class:`SignonReading`), from the first line.
    """
    reader = _MailReader(game_map or load_map("standard"), phase_type, french, map_for_signon, line_reader)
    return reader.read(body)


@dataclass(slots=True)
class _OpenIf:
    """An IF block being read."""

    line: int
    branches: list[tuple[int, Condition | None, list[c.OrderCommand | c.Conditional]]]
    otherwise: list[c.OrderCommand | c.Conditional] | None = None
    broken: bool = False

    @property
    def current(self) -> list[c.OrderCommand | c.Conditional]:
        return self.otherwise if self.otherwise is not None else self.branches[-1][2]


@dataclass(slots=True)
class _Lines:
    """The lines of the mail with a cursor, so that blocks can take the lines they own."""

    lines: list[str]
    index: int = 0

    def __iter__(self) -> Iterator[tuple[int, str]]:
        while self.index < len(self.lines):
            self.index += 1
            yield self.index, self.lines[self.index - 1]

    def peek(self) -> str | None:
        return self.lines[self.index] if self.index < len(self.lines) else None


@dataclass(slots=True)
class _MailReader:
    game_map: GameMap
    phase_type: PhaseType | None
    french: bool
    map_for_signon: SignonMap | None
    line_reader: LineReader | None = None
    commands: list[c.Command] = field(default_factory=list)
    errors: list[MailError] = field(default_factory=list)
    stack: list[_OpenIf] = field(default_factory=list)
    signed_on: bool = False
    stopped: bool = False
    prose: list[tuple[int, str, list[ReadOrder | OrderSyntaxError]]] = field(default_factory=list)
    """Lines of prose since the last command (see :mod:`judge.lang.signatures`)."""
    reading_ahead: tuple[int, int | None] = (0, None)
    """What :meth:`_reads_after` last found: lines before the first number were looked at, and
    the second is the line of the command found there (None: none up to the first number)."""

    # ------------------------------------------------------------ the loop

    def read(self, body: str) -> ParseResult:
        if not isinstance(body, str):
            body = str(body)
        truncated = len(body) > MAX_MAIL_CHARS
        if truncated:
            body = body[:MAX_MAIL_CHARS]
        lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        if lines[-1] == "":
            lines.pop()  # the newline that ends the last line does not start another
        if len(lines) > MAX_LINES:
            lines = lines[:MAX_LINES]
            truncated = True
        source = _Lines(lines)
        for number, raw in source:
            try:
                self._line(number, raw, source)
            except Exception:  # a bug must cost one line, never the mail
                self._error(number, 1, raw, INTERNAL_ERROR_MESSAGE)
            if self.stopped:
                break
            if len(self.errors) >= MAX_ERRORS:
                self._error(number, 1, raw, Message(N_("Too many errors ({max_errors}): the rest of the mail was not read."), max_errors=MAX_ERRORS))
                break
        else:
            if truncated:
                self._error(
                    len(lines), 1, lines[-1][:MAX_LINE_LENGTH],
                    Message(N_("The mail is too long (at most {max_lines} lines and {max_mail_chars} characters): the rest was not read."), max_lines=MAX_LINES, max_mail_chars=MAX_MAIL_CHARS),
                )
        self._close_all()
        self._prose_ignored()
        return ParseResult(tuple(self.commands), tuple(self.errors))

    def _line(self, number: int, raw: str, source: _Lines) -> None:
        text = raw.translate(_CONTROL)
        stripped = text.strip()
        if not stripped:
            return
        if is_signature_line(stripped):
            self._signoff(c.Signoff(number, signature=True))
            return
        if len(text) > MAX_LINE_LENGTH:
            self._error(
                number, MAX_LINE_LENGTH + 1, text[:MAX_LINE_LENGTH],
                Message(N_("Line too long ({count} characters, at most {max_line_length}): it was not read."), count=len(text), max_line_length=MAX_LINE_LENGTH),
            )
            return
        if is_sign_off(stripped):
            if not self._reads_after(number, source):
                self._signoff(c.Signoff(number, signature=True))
                return
            if not self.stack:  # a sign-off with orders after it hides nothing: text not read
                self.commands.append(c.IgnoredText(number, stripped))
                return
            # in an open IF block with more to read: a line of the block that is no order
        first_match = _FIRST_WORD.match(stripped)
        first = first_match.group().lower() if first_match else ""
        read_before = (len(self.commands), len(self.errors))
        if self.stack and stripped.lower().rstrip(".") == "end":
            # Players close an IF with a bare END; nothing else in an order block can mean it.
            self._conditional(number, text, "endif", None)
        elif _is_command(first, stripped):
            self._command(number, text, first.rstrip(":"), source)
        elif self.line_reader is not None and not self.stack:
            # A variant whose orders are kept as sent: its reader's line, or a line meant as one
            # (refused by name when its orders are acknowledged); prose is set aside as always.
            fault = self.line_reader(stripped)
            if fault is None or not self._prose(number, text, [fault]):
                self.commands.append(c.SheetLineCommand(number, stripped))
        else:
            results = read_order_line(text.rstrip(), self.game_map, phase_type=self.phase_type, french=self.french)
            if self._prose(number, text, results):
                return
            self._orders(number, text, first, results)
        self._prose_was_orders(read_before)

    # ------------------------------------------------------------ prose after the orders

    def _reads_after(self, number: int, source: _Lines) -> bool:
        """Whether a command or an order (or a line meant as one) comes after line ``number``,
        before a signature line or SIGNOFF. Each line is looked at once per mail: the answer found covers every line up
        to the command found (or to the end)."""
        scanned, found = self.reading_ahead
        if number < scanned and (found is None or number < found):
            return found is not None
        found = None
        for index in range(number, len(source.lines)):
            stripped = source.lines[index].translate(_CONTROL).strip()
            if not stripped or is_sign_off(stripped):
                continue
            key = " ".join(stripped.lower().split())
            if is_signature_line(stripped) or key in _SIGNOFFS:
                break
            first_match = _FIRST_WORD.match(stripped)
            first = first_match.group().lower() if first_match else ""
            if len(stripped) > MAX_LINE_LENGTH or _is_command(first, stripped) or self.stack:
                found = index + 1
                break
            if self.line_reader is not None and self.line_reader(stripped) is None:
                found = index + 1
                break
            results = read_order_line(stripped, self.game_map, phase_type=self.phase_type, french=self.french)
            if any(isinstance(result, ReadOrder) for result in results) or not looks_like_prose(
                stripped, self.game_map, french=self.french
            ):
                found = index + 1
                break
        self.reading_ahead = (found if found is not None else len(source.lines) + 1, found)
        return found is not None

    def _prose(self, number: int, text: str, results: list[ReadOrder | OrderSyntaxError]) -> bool:
        """Keep aside a signed-on line of prose outside any block: whether it is text after the
        last command (reported as not read) or a bad order (read more) is known later."""
        if not self.signed_on or self.stack or any(isinstance(r, ReadOrder) for r in results):
            return False
        if not looks_like_prose(text, self.game_map, french=self.french):
            return False
        self.prose.append((number, text, results))
        if len(self.prose) >= MAX_PROSE_LINES:
            self._error(number, 1, text, Message(N_("Too many lines of text after the orders ({max_prose_lines}): the rest of the mail was not read."), max_prose_lines=MAX_PROSE_LINES))
            self._prose_ignored()
            self.stopped = True
        return True

    def _prose_was_orders(self, read_before: tuple[int, int]) -> None:
        """A command or an error after prose: the prose was between commands, so it was meant as
        orders; its errors go in, in line order, before the errors of the line that followed it."""
        if not self.prose:
            return
        commands, errors = read_before
        added = self.commands[commands:]
        if len(self.errors) == errors and all(isinstance(command, c.Signoff) for command in added):
            return
        later = self.errors[errors:]
        del self.errors[errors:]
        for number, text, results in self.prose:
            for result in results:
                if not isinstance(result, ReadOrder):
                    self._error(number, result.column, text, result.translatable or result.message, order_line=True)
        self.errors += later
        self.prose.clear()

    def _prose_ignored(self) -> None:
        """The prose left when the reading ends came after the last command: not read, not wrong."""
        for number, text, _results in self.prose:
            self.commands.append(c.IgnoredText(number, text.strip()))
        self.prose.clear()

    # ------------------------------------------------------------ orders

    def _orders(self, number: int, text: str, first: str, results: list[ReadOrder | OrderSyntaxError]) -> None:
        if not self.signed_on and not self.stack and not any(isinstance(r, ReadOrder) for r in results):
            self._error(number, _indent(text), text, Message(N_("Unknown command -> {first}"), first=first))
            return
        position = 0
        for result in results:
            if isinstance(result, ReadOrder):
                column = text.find(result.text, position)
                column = column + 1 if column >= 0 else _indent(text)
                position = max(position, column - 1 + len(result.text))
                self._add(c.OrderCommand(number, result, column))
            elif self.stack:
                self._break_block(number, result.column, text, result.translatable or result.message)
            else:
                self._error(
                    number, result.column, text, result.translatable or result.message, order_line=self.signed_on
                )

    def _break_block(self, number: int, column: int, text: str, message: Wording) -> None:
        """A line of an open IF block that cannot be read: the whole block is refused, so that no
        branch is kept without the line its writer meant in it (an ELSE without its order)."""
        self.stack[-1].broken = True
        self._error(
            number, column, text, Message(N_("{message} (the whole IF block is ignored)"), message=message),
            order_line=self.signed_on,
        )

    def _add(self, command: c.OrderCommand | c.Conditional) -> None:
        if self.stack:
            self.stack[-1].current.append(command)
        else:
            self.commands.append(command)

    # ------------------------------------------------------------ commands

    def _command(self, number: int, text: str, keyword: str, source: _Lines) -> None:
        try:
            built = self._parse(number, text, keyword, START_COMMAND)
        except CommandError as error:
            column = error.column or _indent(text)
            self._command_failed(number, text, keyword, source, error.wording, column)
            return
        if isinstance(built, tuple):
            self._conditional(number, text, built[0], built[1])
            return
        for command in built:
            self._dispatch(number, text, command, source)
            if self.stopped:
                return

    def _parse(self, number: int, text: str, keyword: str, start: str) -> Any:
        """The built command(s) of one line; raises CommandError for anything unreadable."""
        if start == START_COMMAND and keyword in ("if", "elseif", "elif", "elsif", "else"):
            _check_condition_size(text)
            text = _close_parentheses(text)
        tree = one_word_commands().get(text.strip().lower()) if start == START_COMMAND else None
        if tree is None:
            try:
                tree = command_parser().parse(text, start=start)
            except UnexpectedInput as error:
                raise _syntax_error(error, text, keyword) from None
        builder = CommandBuilder(number, self.game_map, french=self.french, keyword=keyword)
        try:
            built = builder.transform(tree)
        except VisitError as error:
            if isinstance(error.orig_exc, CommandError):
                raise error.orig_exc from None
            if isinstance(error.orig_exc, CoreError):
                raise CommandError(error.orig_exc.translatable or str(error.orig_exc)) from None
            raise
        if isinstance(built, tuple) and built[1] is not None:
            _check_condition_depth(built[1])
        return built

    def _command_failed(
        self, number: int, text: str, keyword: str, source: _Lines, message: Wording, column: int
    ) -> None:
        if keyword in _SIGNON_ALIASES:
            self._error(number, _indent(text), text, Message(N_("Unknown command -> {keyword} (to sign on: SIGNON Fgame password)"), keyword=keyword))
            return
        if keyword in _PRESS_WORDS:
            self._error(number, column, text, Message(N_("{message} The press was not sent."), message=message))
            self._take_press_body(source)
            return
        if keyword == "if" or (keyword in ("elseif", "elif", "elsif") or (keyword == "else" and _has_more_words(text))):
            self._error(number, column, text, Message(N_("{message} (the whole IF block is ignored)"), message=message))
            if keyword == "if":
                self.stack.append(_OpenIf(number, [(number, None, [])], broken=True))
            elif self.stack:
                frame = self.stack[-1]
                frame.broken = True
                if frame.otherwise is None:
                    frame.branches.append((number, None, []))
            return
        self._error(number, column, text, message)

    def _dispatch(self, number: int, text: str, command: c.Command, source: _Lines) -> None:
        if self.stack and not isinstance(command, c.PhaseCommand | c.Signoff):
            name = type(command).KIND.split("_")[0].upper()
            self._break_block(number, _indent(text), text, Message(N_("{name} cannot be given inside IF ... ENDIF"), name=name))
            if isinstance(command, c.Press):
                self._take_press_body(source)
            return
        if isinstance(command, c.Signoff):
            self._signoff(command)
        elif isinstance(command, c.Signon | c.Create):
            self._signon(number, text, command)
        elif isinstance(command, c.PhaseCommand):
            self._close_all()
            if command.phase is not None:
                self.phase_type = command.phase.type
            self.commands.append(command)
        elif isinstance(command, c.Register):
            self.commands.append(replace(command, fields=self._take_register(source)))
        elif isinstance(command, c.Press):
            body, ended_by, end_line = self._take_press_body(source)
            self.commands.append(replace(command, body=body, ended_by=ended_by))
            if ended_by in ("signoff", "signature"):
                self._signoff(c.Signoff(end_line, signature=ended_by == "signature"))
        elif isinstance(command, c.SetComment) and command.full:
            body, ended_by, end_line = self._take_body(source, _SIGNOFFS)
            self.commands.append(replace(command, text=body))
            if ended_by != "end":
                self._signoff(c.Signoff(end_line, signature=ended_by == "signature"))
        elif isinstance(command, c.Diary) and command.action is c.DiaryAction.RECORD:
            body, ended_by, end_line = self._take_body(source, (*_DIARY_ENDS, *_SIGNOFFS))
            self.commands.append(replace(command, body=body))
            if ended_by in _SIGNOFFS or ended_by == "signature":
                self._signoff(c.Signoff(end_line, signature=ended_by == "signature"))
        else:
            self.commands.append(command)

    def _signon(self, number: int, text: str, command: c.Signon | c.Create) -> None:
        if self.signed_on:
            self._error(number, _indent(text), text, Message(N_("Only one SIGNON (or CREATE, OBSERVE) per mail: this one was ignored.")))
            return
        self.signed_on = True
        self.commands.append(command)
        new_map: GameMap | None = None
        if self.map_for_signon is not None:
            switched = self.map_for_signon(command)
            if isinstance(switched, SignonReading):
                self.phase_type, self.french = switched.phase_type, switched.french
                self.line_reader = switched.line_reader
                new_map = switched.game_map
            else:
                new_map = switched
        elif command.variant is not None:
            try:
                new_map = load_map(command.variant)
            except CoreError:
                new_map = None
        if new_map is not None:
            self.game_map = new_map

    def _signoff(self, command: c.Signoff) -> None:
        self._close_all()
        self._prose_ignored()
        self.commands.append(command)
        self.stopped = True

    # ------------------------------------------------------------ blocks

    def _take_register(self, source: _Lines) -> tuple[c.RegisterField, ...]:
        fields: list[c.RegisterField] = []
        while (peeked := source.peek()) is not None:
            text = peeked.translate(_CONTROL)
            stripped = text.strip()
            if stripped and ":" not in stripped:
                if stripped.lower() == "end":
                    source.index += 1
                break
            source.index += 1
            if not stripped:
                continue
            number = source.index
            if len(fields) >= MAX_REGISTER_FIELDS or len(text) > MAX_LINE_LENGTH:
                self._error(number, 1, text[:MAX_LINE_LENGTH], Message(N_("Too many or too long REGISTER lines: line ignored.")))
                continue
            try:
                fields.append(self._parse(number, text, "register", START_REGISTER_FIELD))
            except CommandError as error:
                self._error(number, error.column or 1, text, Message(N_("Cannot read this REGISTER line: {message}"), message=error.wording))
        return tuple(fields)

    def _take_press_body(self, source: _Lines) -> tuple[str, str, int]:
        ends = {**_PRESS_ENDS, **{word: "signoff" for word in _SIGNOFFS}}
        return self._take_body(source, tuple(ends), ends)

    def _take_body(
        self, source: _Lines, ends: tuple[str, ...], names: dict[str, str] | None = None
    ) -> tuple[str, str, int]:
        """Lines up to one of ``ends`` (alone on its line), kept verbatim; and what ended them."""
        body: list[str] = []
        while (peeked := source.peek()) is not None:
            source.index += 1
            key = " ".join(peeked.strip().lower().split())
            if key in ends:
                ended = names[key] if names else key
                return "\n".join(body), ended, source.index
            if is_signature_line(peeked):
                return "\n".join(body), "signature", source.index
            body.append(peeked)
        return "\n".join(body), "end", source.index

    # ------------------------------------------------------------ IF blocks

    def _conditional(self, number: int, text: str, keyword: str, condition: Condition | None) -> None:
        if keyword == "if":
            if len(self.stack) >= MAX_IF_DEPTH:
                self._error(number, _indent(text), text, Message(N_("IF blocks nested too deep (at most {max_if_depth}); the whole IF block is ignored."), max_if_depth=MAX_IF_DEPTH))
                self.stack.append(_OpenIf(number, [(number, condition, [])], broken=True))
                return
            self.stack.append(_OpenIf(number, [(number, condition, [])]))
            return
        if not self.stack:
            word = {"elseif": "ELSE IF", "else": "ELSE", "endif": "ENDIF"}[keyword]
            self._error(number, _indent(text), text, Message(N_("{word} without IF: ignored."), word=word))
            return
        frame = self.stack[-1]
        if keyword == "endif":
            self._finish(self.stack.pop(), closed=True)
        elif frame.otherwise is not None:
            self._error(number, _indent(text), text, Message(
                N_("ELSE IF after ELSE: the whole IF block is ignored.") if keyword == "elseif"
                else N_("A second ELSE in one IF: the whole IF block is ignored.")
            ))
            frame.broken = True
        elif keyword == "elseif":
            frame.branches.append((number, condition, []))
        else:
            frame.otherwise = []

    def _finish(self, frame: _OpenIf, *, closed: bool) -> None:
        if frame.broken:
            if self.stack:
                self.stack[-1].broken = True
            return
        branches = tuple(
            c.Branch(line, condition, tuple(body))
            for line, condition, body in frame.branches
            if condition is not None
        )
        conditional = c.Conditional(frame.line, branches, tuple(frame.otherwise or ()), closed)
        self._add(conditional)

    def _close_all(self) -> None:
        while self.stack:
            self._finish(self.stack.pop(), closed=False)

    # ------------------------------------------------------------ errors

    def _error(self, number: int, column: int, text: str, message: Wording, *, order_line: bool = False) -> None:
        self.errors.append(
            MailError(number, max(column, 1), text.rstrip(), english(message), translatable(message), order_line)
        )


def _is_command(first: str, stripped: str) -> bool:
    word = first.rstrip(":")
    if word not in command_words():
        return False
    if word in _HEADER_WORDS:
        return re.match(r"^[^\s:]+\s*:", stripped) is not None
    seconds = _LEAD_WORDS.get(word)
    if seconds is None:
        return True
    words = stripped.lower().split()
    return len(words) > 1 and words[1] in seconds


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip()) + 1


def _has_more_words(text: str) -> bool:
    return len(text.split()) > 1


def _check_condition_size(text: str) -> None:
    """Bound the nesting of a condition before it is parsed (the tree is built recursively)."""
    words = text.lower().replace("(", " ").replace(")", " ").split()
    if sum(word in ("and", "or") for word in words) > MAX_CONDITION_TERMS:
        raise CommandError(Message(N_("Too many ANDs and ORs in one condition (at most {max_condition_terms})."), max_condition_terms=MAX_CONDITION_TERMS), _indent(text))
    if words.count("not") > MAX_CONDITION_DEPTH:
        raise CommandError(Message(N_("Too many NOTs in one condition (at most {max_condition_depth})."), max_condition_depth=MAX_CONDITION_DEPTH), _indent(text))
    depth = deepest = 0
    for char in text:
        if char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth -= 1
    if deepest > MAX_CONDITION_DEPTH:
        raise CommandError(Message(N_("Parentheses nested too deep (at most {max_condition_depth})."), max_condition_depth=MAX_CONDITION_DEPTH), text.find("(") + 1)


def _close_parentheses(text: str) -> str:
    """The end of a line closes the parentheses left open (before a final THEN), as the Judge did."""
    missing = text.count("(") - text.count(")")
    if missing <= 0:
        return text
    body = text.rstrip()
    match = re.search(r"\s+then$", body, re.IGNORECASE)
    if match:
        return body[: match.start()] + ")" * missing + body[match.start() :]
    return body + ")" * missing


def _check_condition_depth(condition: Condition) -> None:
    """Reject conditions whose NOTs and parentheses nest deeper than the limit."""
    pending: list[tuple[Condition, int]] = [(condition, 0)]
    while pending:
        node, depth = pending.pop()
        if depth > MAX_CONDITION_DEPTH:
            raise CommandError(Message(N_("Condition nested too deep (at most {max_condition_depth} NOTs and parentheses)."), max_condition_depth=MAX_CONDITION_DEPTH))
        if isinstance(node, Not):
            pending.append((node.operand, depth + 1))
        elif isinstance(node, And | Or):
            pending.append((node.left, depth))
            pending.append((node.right, depth + 1))


def _syntax_error(error: UnexpectedInput, text: str, keyword: str) -> CommandError:
    name = keyword.upper()
    if (isinstance(error, UnexpectedToken) and error.token.type == "$END") or isinstance(error, UnexpectedEOF):
        expected = {str(name) for name in error.expected}
        return CommandError(Message(N_("{name}: the line ends too soon; expected {expected}."), name=name, expected=_expected(expected)), len(text.rstrip()) + 1)
    if isinstance(error, UnexpectedToken):
        return CommandError(
            Message(N_("{name}: cannot read '{token}' here; expected {expected}."), name=name, token=error.token, expected=_expected(error.expected)),
            error.token.column or 1,
        )
    if isinstance(error, UnexpectedCharacters):
        return CommandError(
            Message(N_("{name}: cannot read '{char}' here; expected {expected}."), name=name, char=error.char, expected=_expected(error.allowed or set())),
            error.column,
        )
    return CommandError(Message(N_("{name}: cannot read this line."), name=name), 1)


def _expected(names: set[str] | frozenset[str]) -> Wording:
    """What the grammar expected, in words: ``"a word or the end of the line"``."""
    described = sorted({describe_terminal(name) for name in names if not name.startswith("__")})
    items: list[Wording] = [Message(d) if d in TRANSLATABLE_DESCRIPTIONS else d for d in described]
    if not items:
        return Message(N_("something else"))
    if len(items) > 6:
        return Message("{items}, ...", items=Listing(tuple(items[:6]), ", "))
    if len(items) == 1:
        return items[0]
    return Message(N_("{first} or {last}"), first=Listing(tuple(items[:-1]), ", "), last=items[-1])
