"""HTML mail -> plain text lines, so an HTML-only order mail reads like a typed one.

The stdlib parser is enough: the judge needs line structure (one order per
line, as the player saw it), not layout. Block elements and ``<br>`` end lines,
runs of spaces collapse as a browser would, ``<pre>`` is kept verbatim,
scripts and styles vanish, and text inside ``<blockquote>`` comes out with
``> `` in front so the quoted earlier mail is dropped like a plain-text quote.

The work is linear in the size of the HTML, whatever the markup: the stdlib
parser rescans the rest of the document for every unterminated ``<!--``,
``<!`` or ``<?`` (a 400 KB mail of ``<!--`` took minutes), so markup that
can never close (any ``<`` after the last ``>``) is turned into text first.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt",
        "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3",
        "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre",
        "section", "table", "tbody", "thead", "tfoot", "tr", "ul",
    }
)  # fmt: skip
_INVISIBLE = frozenset({"head", "script", "style", "title", "template"})
_CELLS = frozenset({"td", "th"})
_SPACES = re.compile(r"[ \t\r\n\f\v]+")
_TAG = re.compile(r"<[^>]*>")


class _TextExtractor(HTMLParser):
    """Collects lines; each remembers whether it was written inside a blockquote."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._current: list[str] = []
        self._ends_with_space = False
        self._current_quoted = False
        self._quote_depth = 0
        self._pre_depth = 0
        self._invisible_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _INVISIBLE:
            self._invisible_depth += 1
        elif tag == "br":
            self._break()
        elif tag in _BLOCKS:
            self._end_line()
            if tag == "blockquote":
                self._quote_depth += 1
            elif tag == "pre":
                self._pre_depth += 1
        elif tag in _CELLS and self._current:
            self._current.append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            self._break()
        elif tag in _BLOCKS:
            self._end_line()

    def handle_endtag(self, tag: str) -> None:
        if tag in _INVISIBLE:
            self._invisible_depth = max(0, self._invisible_depth - 1)
        elif tag in _BLOCKS:
            self._end_line()
            if tag == "blockquote":
                self._quote_depth = max(0, self._quote_depth - 1)
            elif tag == "pre":
                self._pre_depth = max(0, self._pre_depth - 1)

    def handle_data(self, data: str) -> None:
        if self._invisible_depth:
            return
        if self._pre_depth:
            pieces = data.replace("\r\n", "\n").split("\n")
            for index, piece in enumerate(pieces):
                if index:
                    self._break()
                self._add(piece)
            return
        text = _SPACES.sub(" ", data)
        if not self._current or self._ends_with_space:
            text = text.lstrip(" ")
        self._add(text)

    def _add(self, text: str) -> None:
        if text:
            self._current.append(text)
            self._ends_with_space = text.endswith(" ")
            if self._quote_depth:
                self._current_quoted = True

    def _break(self) -> None:
        """``<br>``: always a new line, even an empty one (that is how blank lines are typed)."""
        line = "".join(self._current).rstrip()
        quoted = self._current_quoted or bool(self._quote_depth)
        self.lines.append(f"> {line}" if quoted else line)
        self._current = []
        self._ends_with_space = False
        self._current_quoted = False

    def _end_line(self) -> None:
        """A block boundary: ends the current line only if something is on it."""
        if any(piece.strip() for piece in self._current):
            self._break()
        else:
            self._current = []
            self._ends_with_space = False
            self._current_quoted = False

    def finish(self) -> str:
        self.close()
        self._end_line()
        return "\n".join(self.lines)


def html_to_text(html: str) -> str:
    """Plain text of an HTML body, one rendered line per line. Never raises."""
    extractor = _TextExtractor()
    try:
        extractor.feed(_close_or_escape(html))
        return extractor.finish()
    except Exception:  # a parser bug on hostile markup must not lose the mail
        return _TAG.sub(" ", html)


def _close_or_escape(html: str) -> str:
    """``html`` with every ``<`` after the last ``>`` written ``&lt;`` (it can open nothing).

    Such a ``<`` would make the parser search the whole rest of the document
    for its end, once per ``<``: quadratic time on hostile mail.
    """
    last = html.rfind(">")
    if html.find("<", last + 1) < 0:
        return html
    return html[: last + 1] + html[last + 1 :].replace("<", "&lt;")
