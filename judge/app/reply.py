"""The reply to one mail: what the judge understood and what it did not, line by line.

Like the classic Judge (and Mailman's command results), every command line
is echoed and followed by what came of it; lines that could not be read are
echoed with the reason. The reply is assembled while the commands run and
rendered once at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass
class _Entry:
    line: int | None
    echo: str | None
    messages: list[str] = field(default_factory=list)
    error: bool = False


class Reply:
    """Collects the answer to a mail. ``body_lines`` are the lines the commands refer to."""

    def __init__(self, body_lines: Sequence[str]) -> None:
        self._lines = list(body_lines)
        self._entries: list[_Entry] = []
        self._by_line: dict[int, _Entry] = {}
        self.preamble: list[str] = []
        self.epilogue: list[str] = []
        self.errors = 0

    def _echo(self, line: int) -> str:
        if 1 <= line <= len(self._lines):
            return self._lines[line - 1].rstrip()
        return ""

    def _entry(self, line: int | None) -> _Entry:
        if line is None:
            entry = _Entry(None, None)
            self._entries.append(entry)
            return entry
        known = self._by_line.get(line)
        if known is not None:
            return known
        entry = _Entry(line, self._echo(line))
        self._by_line[line] = entry
        self._entries.append(entry)
        return entry

    def ok(self, line: int | None, *messages: str) -> None:
        """What a command did."""
        self._entry(line).messages.extend(messages)

    def error(self, line: int | None, message: str) -> None:
        """What was wrong with a line: counted, and it sets the mail's error flag."""
        entry = self._entry(line)
        entry.messages.append(message)
        entry.error = True
        self.errors += 1

    def echo_only(self, line: int) -> None:
        """Echo a line that needs no comment (so the reply shows it was read)."""
        self._entry(line)

    def render_since(self, line: int) -> str:
        """The entries from mail line ``line`` on (and the lines tied to none), with the epilogue.

        For a copy of part of a reply: the player whose power a master BECAME
        sees what was done in their name, not the master's earlier commands.
        """
        out: list[str] = []
        for entry in self._entries:
            if entry.line is not None and entry.line < line:
                continue
            if entry.echo is not None:
                out.append(f"> {entry.echo}")
            out.extend(entry.messages)
            out.append("")
        out.extend(self.epilogue)
        return "\n".join(out).rstrip() + "\n"

    def render(self) -> str:
        out: list[str] = list(self.preamble)
        if out:
            out.append("")
        for entry in self._entries:
            if entry.echo is not None:
                out.append(f"> {entry.echo}")
            out.extend(entry.messages)
            out.append("")
        out.extend(self.epilogue)
        return "\n".join(out).rstrip() + "\n"
