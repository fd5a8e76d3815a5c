"""The grammar runner: Lark's LALR(1) tables for ``grammar/orders.lark``, run by a small loop.

Lark builds and checks the tables from the grammar (the grammar stays the one
source of truth); this module reads them out of Lark once (from its parser's
``_parse_table``, an internal of Lark: ``pyproject.toml`` pins Lark to the minor
version this is written for, and the tests of the order reader fail if it
moves) and runs them over token types. The parse of an order depends on its
token types alone, so it runs once per sequence of types (:func:`_shape`) and
the tree is then filled with the order's tokens.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from judge.lang.order_tokens import Token

# A parse node: (rule or alias name, children). Tokens are the leaves.
Node = tuple[str, tuple[Any, ...]]


class _Inline(list[Any]):
    """Children of one of Lark's helper rules (``x+``, ``x*``), spliced into the parent."""


@dataclass(frozen=True, slots=True, eq=False)
class _Reduction:
    """What the parser does when it reduces by one rule of the grammar."""

    size: int  # symbols popped
    goto: str  # the rule's own name, to find the next state
    node: str  # the name the node gets (its alias, if any)
    inline: bool  # a helper rule: splice its children into the parent
    top: bool  # the start rule: its one child is the result


@dataclass(frozen=True, slots=True, eq=False)
class _Tables:
    """Lark's LALR(1) tables for grammar/orders.lark, in a form a small loop can run fast.

    Lark builds and checks the tables from the grammar (the grammar stays the
    one source of truth); this module only runs them. Running them here
    rather than through ``Lark.parse`` skips per-call objects and parse
    trees: a node is a plain tuple, which is what makes reading an order
    take tens of microseconds.
    """

    # state -> token or rule name -> (shift?, next state or reduction)
    actions: dict[int, dict[str, tuple[bool, Any]]]
    start: int
    end: int


@lru_cache(maxsize=1)
def _tables() -> _Tables:
    """The tables, built once on first use (no on-disk cache: installs may be read-only)."""
    from importlib.resources import files

    from lark import Lark
    from lark.lexer import Lexer
    from lark.parsers.lalr_analysis import Shift

    class _ListLexer(Lexer):
        """Lets Lark build the tables of a grammar whose tokens come from elsewhere."""

        def __init__(self, lexer_conf: Any) -> None:
            del lexer_conf

        def lex(self, data: Any) -> Iterator[Any]:  # type: ignore[override]
            return iter(data)

    grammar = files("judge").joinpath("grammar", "orders.lark").read_text(encoding="utf-8")
    lark = Lark(grammar, parser="lalr", lexer=_ListLexer)
    table = lark.parser.parser._parse_table
    reductions: dict[int, _Reduction] = {}
    actions: dict[int, dict[str, tuple[bool, Any]]] = {}
    for state, row in table.states.items():
        actions[state] = {}
        for symbol, (action, arg) in row.items():
            if action is Shift:
                actions[state][symbol] = (True, arg)
                continue
            reduction = reductions.get(id(arg))
            if reduction is None:
                origin = arg.origin.name
                reduction = _Reduction(
                    size=len(arg.expansion),
                    goto=origin,
                    node=str(arg.alias or origin),
                    inline=origin.startswith("__"),
                    top=origin == "start",
                )
                reductions[id(arg)] = reduction
            actions[state][symbol] = (False, reduction)
    return _Tables(actions, table.start_states["start"], table.end_states["start"])


class ParseFailure(Exception):
    """The token the parser could not take, and the token types it expected there."""

    def __init__(self, token: Token, expected: frozenset[str]) -> None:
        super().__init__(token.type)
        self.token = token
        self.expected = expected


_END: Final = Token("$END", "")

# A parse tree whose leaves are token positions: the shape of every order
# written with the same token types ("A LON - BEL" and "F BRE - MAO").
_Template = tuple[str, tuple[Any, ...]]


def parse_tokens(tokens: Sequence[Token]) -> Node:
    """Run the LALR tables over ``tokens``; raises :class:`ParseFailure`.

    The parse depends on the token types alone, so it runs once per sequence
    of types (:func:`_shape`) and the tree is then filled with these tokens.
    """
    shape = _shape(tuple(token.type for token in tokens))
    if isinstance(shape, _ShapeFailure):
        token = tokens[shape.position] if shape.position < len(tokens) else _END
        raise ParseFailure(token, shape.expected)
    return _fill(shape, tokens)


def _fill(template: _Template, tokens: Sequence[Token]) -> Node:
    name, children = template
    return name, tuple([tokens[c] if type(c) is int else _fill(c, tokens) for c in children])


@dataclass(frozen=True, slots=True, eq=False)
class _ShapeFailure:
    """Where a sequence of token types stops parsing, and the types expected there."""

    position: int  # index of the token refused; len(types) for the end
    expected: frozenset[str]


@lru_cache(maxsize=4096)
def _shape(types: tuple[str, ...]) -> _Template | _ShapeFailure:
    """Run the LALR tables over token types; leaves are positions in ``types``."""
    tables = _tables()
    actions = tables.actions
    states = [tables.start]
    values: list[Any] = []
    for position, kind in enumerate((*types, "$END")):
        while True:
            row = actions[states[-1]]
            try:
                shift, arg = row[kind]
            except KeyError:
                expected = frozenset(s for s in row if s.isupper() or s == "$END")
                return _ShapeFailure(position, expected)
            if shift:
                states.append(arg)
                values.append(position)
                break
            reduction: _Reduction = arg
            size = reduction.size
            popped = values[len(values) - size :] if size else []
            if size:
                del states[-size:]
                del values[-size:]
            children: list[Any] = []
            for child in popped:
                if type(child) is _Inline:
                    children.extend(child)
                elif not (type(child) is int and types[child][0] == "_"):
                    children.append(child)
            if reduction.top:
                return children[0]  # type: ignore[no-any-return]
            value: Any = (
                _Inline(children) if reduction.inline else (reduction.node, tuple(children))
            )
            states.append(actions[states[-1]][reduction.goto][1])
            values.append(value)
    raise AssertionError("the parser ended without reaching its end state")  # pragma: no cover
