"""The command grammar, built once and lazily, and what it says about first words.

``grammar/mail.lark`` ships inside the package (as ``judge/grammar``) and is
loaded with Lark's package loader, so it works from a wheel. The LALR tables
are built on first use (a few tens of milliseconds) and kept; Lark's on-disk
cache is not used, since it breaks read-only installs.

:func:`command_words` is derived from the grammar itself: the keywords a
command line can start with. The mail reader uses it to send a line to the
command grammar or to the order reader without trying both.
"""

from __future__ import annotations

import re
from functools import cache

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput
from lark.lexer import PatternStr

from judge.lang.errors import N_

GRAMMAR_PACKAGE = "judge"
GRAMMAR_PATH = "grammar/mail.lark"
START_COMMAND = "command"
START_REGISTER_FIELD = "register_field"


@cache
def command_parser() -> Lark:
    """The LALR parser of ``grammar/mail.lark`` (start symbols ``command`` and ``register_field``)."""
    return Lark.open_from_package(
        GRAMMAR_PACKAGE,
        GRAMMAR_PATH,
        parser="lalr",
        lexer="contextual",
        start=[START_COMMAND, START_REGISTER_FIELD],
        propagate_positions=False,
        maybe_placeholders=False,
        cache=False,
    )


_REGEX_WORDS = re.compile(r"[a-z][a-z\-]*")


@cache
def command_words() -> frozenset[str]:
    """Lower-case words a command line may start with (``set``, ``signon``, ``reply-to``...)."""
    parser = command_parser()
    interactive = parser.parse_interactive("", start=START_COMMAND)
    words: set[str] = set()
    accepted: set[str] = interactive.accepts()  # type: ignore[no-untyped-call]
    for name in accepted:
        if name == "$END":
            continue
        pattern = parser.get_terminal(name).pattern
        if isinstance(pattern, PatternStr):
            words.add(pattern.value.lower())
        else:
            group = pattern.value[pattern.value.index("(") + 1 : pattern.value.index(")")]
            words.update(_REGEX_WORDS.findall(group))
    return frozenset(words)


@cache
def one_word_commands() -> dict[str, Tree[Token]]:
    """Parse trees of the command lines that are one keyword alone (``else``, ``signoff``...).

    Parsed once from the grammar itself, so that the most frequent lines of a
    mail skip the parser; a line found here reads exactly as if it had been
    parsed (the mail reader checks the text is that word alone).
    """
    parser = command_parser()
    trees: dict[str, Tree[Token]] = {}
    for word in command_words():
        try:
            trees[word] = parser.parse(word, start=START_COMMAND)
        except UnexpectedInput:
            continue
    return trees


def describe_terminal(name: str) -> str:
    """How an error message names what the grammar expected (in English; see :data:`TRANSLATABLE_DESCRIPTIONS`)."""
    if name in _DESCRIPTIONS:
        return _DESCRIPTIONS[name]
    if "END" in name and not name.isalpha():
        return _END_OF_LINE
    try:
        pattern = command_parser().get_terminal(name).pattern
    except KeyError:
        return name.lower()
    if isinstance(pattern, PatternStr):
        return pattern.value.upper()
    return name.replace("_", " ").lower()


_END_OF_LINE = N_("the end of the line")
_DESCRIPTIONS = {
    "WORD": N_("a word"),
    "REST": N_("a value"),
    "$END": _END_OF_LINE,
    "COMMA": "','",
    "LPAR": "'('",
    "RPAR": "')'",
    "FULL": "FULL",
    "SCHEDULE_PHASE": N_("MOVE, RETREAT or ADJUST"),
    "NUMERIC_OPTION": N_("an option"),
    "ABSENCE_WORD": "ABSENCE",
    "IDENTIFIER_KIND": N_("BN, MN or EP"),
    "DIARY_ACTION": N_("RECORD, LIST, READ or DELETE"),
    "PLUS_LETTERS": N_("+letters"),
    "MINUS_LETTERS": N_("-letters"),
    "ADMIN_COMMAND": N_("admin command"),
    "HEADER": N_("header"),
    "FIELD_NAME": N_("field name"),
}

TRANSLATABLE_DESCRIPTIONS = frozenset(
    text for text in _DESCRIPTIONS.values() if not text.isupper() and not text.startswith("'")
)
"""The descriptions that are words of a language (a message to translate), not keywords or signs."""
