"""The reply to one mail: what the judge understood and what it did not, line by line.

Like the classic Judge (and Mailman's command results), every command line
is echoed and followed by what came of it; lines that could not be read are
echoed with the reason. The reply is assembled while the commands run and
rendered once at the end.

A reply is bounded: past ``max_bytes`` what the commands add is no longer
kept (only counted), and :func:`cap_text` cuts the rendered text with a last
line saying so, so a mail of a thousand HELP lines cannot make a reply of
megabytes (nor hold them in memory).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


@dataclass
class _Entry:
    line: int | None
    echo: str | None
    messages: list[str] = field(default_factory=list)
    error: bool = False


class Reply:
    """Collects the answer to a mail. ``body_lines`` are the lines the commands refer to."""

    def __init__(self, body_lines: Sequence[str], *, max_bytes: int | None = None) -> None:
        self._lines = list(body_lines)
        self._entries: list[_Entry] = []
        self._by_line: dict[int, _Entry] = {}
        self.preamble: list[str] = []
        self.epilogue: list[str] = []
        self.errors = 0
        self.max_bytes = max_bytes
        self.size = 0
        """Characters kept so far (echoes and messages): what the bound is checked against."""
        self.dropped = 0
        """Characters of messages not kept because the reply was already over its bound."""

    def _keep(self, entry: _Entry, messages: Sequence[str]) -> None:
        for message in messages:
            if self.max_bytes is not None and self.size > self.max_bytes:
                self.dropped += len(message) + 1
                continue
            self.size += len(message) + 1
            entry.messages.append(message)

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
        self.size += len(entry.echo or "") + 3
        self._by_line[line] = entry
        self._entries.append(entry)
        return entry

    def ok(self, line: int | None, *messages: str) -> None:
        """What a command did."""
        self._keep(self._entry(line), messages)

    def error(self, line: int | None, message: str) -> None:
        """What was wrong with a line: counted, and it sets the mail's error flag."""
        entry = self._entry(line)
        self._keep(entry, [message])
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


def cap_text(text: str, max_bytes: int, note: Callable[[int], str]) -> str:
    """``text`` cut to at most ``max_bytes`` bytes of UTF-8 at a line's end, plus ``note(cut)``.

    ``note`` gets how many bytes were left out and returns the last line
    (in the reader's language). Text within the bound is returned as it is.
    """
    data = text.encode("utf-8")
    if len(data) <= max_bytes:
        return text
    closing = note(0) + "\n"
    room = max(0, max_bytes - len(closing.encode("utf-8")) - 32)
    kept = data[:room]
    end = kept.rfind(b"\n")
    if end >= 0:
        kept = kept[: end + 1]
    head = kept.decode("utf-8", errors="ignore")
    return head + "\n" + note(len(data) - len(kept)) + "\n"
