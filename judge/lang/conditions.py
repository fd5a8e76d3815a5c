"""Conditions of conditional orders: what they are, how they are read, how they are tested.

``IF not french army ruhr and (russian prussia or russian silesia)``: a
condition is made of terms ``[not] [power] [type] province`` (the words in
any order) combined with AND and OR, evaluated strictly left to right as
the Judge did (``a or b and c`` is ``(a or b) and c``), with parentheses to
group and NOT to negate. A term is true when a unit of that power and type
stands in the province at the start of the phase.

The grammar gives the structure; :func:`read_term` settles which words of a
term are the power, the type and the province, with the map: a province can
take several words ("english channel", "mer du Nord"), so the longest run of
words that names a province wins and every other word must be NOT, a power
or a unit type.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from judge.core.errors import CoreError
from judge.core.geography import GameMap
from judge.core.names import name_key, name_table, resolve_location
from judge.core.units import Unit, UnitType
from judge.lang.errors import N_, CommandError, Message
from judge.lang.powers import fold, power_named

MAX_TERM_WORDS = 12


@dataclass(frozen=True, slots=True)
class UnitPresent:
    """True when a unit (of ``power`` and ``unit_type`` if given) stands in ``province``."""

    province: str
    power: str | None = None
    unit_type: UnitType | None = None

    def __str__(self) -> str:
        parts = [p for p in (self.power, self.unit_type.value if self.unit_type else None) if p]
        return " ".join((*parts, self.province))


@dataclass(frozen=True, slots=True)
class Not:
    operand: Condition

    def __str__(self) -> str:
        inner = str(self.operand)
        return f"NOT {inner}" if isinstance(self.operand, UnitPresent | Not) else f"NOT ({inner})"


@dataclass(frozen=True, slots=True)
class And:
    left: Condition
    right: Condition

    def __str__(self) -> str:
        return f"{_left(self.left, And)} AND {_grouped(self.right)}"


@dataclass(frozen=True, slots=True)
class Or:
    left: Condition
    right: Condition

    def __str__(self) -> str:
        return f"{_left(self.left, Or)} OR {_grouped(self.right)}"


Condition = UnitPresent | Not | And | Or


def _left(condition: Condition, same: type) -> str:
    """A left operand of the other operator gets parentheses: it reads the same, and clearer."""
    if isinstance(condition, And | Or) and not isinstance(condition, same):
        return f"({condition})"
    return str(condition)


def _grouped(condition: Condition) -> str:
    """Right operands that are themselves AND/OR need parentheses (left-to-right reading)."""
    return f"({condition})" if isinstance(condition, And | Or) else str(condition)


def holds(condition: Condition, units: Iterable[Unit]) -> bool:
    """Whether ``condition`` is true for the units on the board at the start of the phase."""
    present = tuple(units)
    return _holds(condition, present)


def _holds(condition: Condition, units: tuple[Unit, ...]) -> bool:
    # Iterative over the left spine: conditions chain to the left
    # (a AND b OR c ...), so a long chain must not recurse once per term.
    pending: list[tuple[str, Condition]] = []
    node = condition
    while isinstance(node, And | Or):
        pending.append(("and" if isinstance(node, And) else "or", node.right))
        node = node.left
    value = _holds_leaf(node, units)
    for operator, right in reversed(pending):
        if operator == "and":
            value = value and _holds(right, units)
        else:
            value = value or _holds(right, units)
    return value


def _holds_leaf(condition: Condition, units: tuple[Unit, ...]) -> bool:
    if isinstance(condition, Not):
        return not _holds(condition.operand, units)
    assert isinstance(condition, UnitPresent)
    return any(
        unit.province == condition.province
        and (condition.power is None or unit.power == condition.power)
        and (condition.unit_type is None or unit.type is condition.unit_type)
        for unit in units
    )


_TYPE_WORDS = {
    "a": UnitType.ARMY, "army": UnitType.ARMY, "armee": UnitType.ARMY,
    "f": UnitType.FLEET, "fleet": UnitType.FLEET, "flotte": UnitType.FLEET,
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Word:
    """One word of a term and its 1-based column in the line."""

    text: str
    column: int


def read_term(words: Sequence[Word], game_map: GameMap, *, french: bool = False) -> Condition:
    """Read ``[not] [power] [type] province`` (any order) into a condition.

    Raises :class:`CommandError` when no run of the words names a province
    with only NOT, one power and one unit type around it.
    """
    if len(words) > MAX_TERM_WORDS:
        raise CommandError(
            Message(N_("Too many words in one condition (at most {max_term_words}); use AND/OR between terms."), max_term_words=MAX_TERM_WORDS),
            words[0].column,
        )
    roles = [_modifier(word.text, game_map) for word in words]
    table = name_table(game_map)
    natural = _natural_span(roles)
    # Longest run of words first: "english channel" is the Channel, not an English unit in
    # "channel". Runs are looked up in the name table (cheap) before being resolved.
    spans = sorted(
        ((start, end) for start in range(len(words)) for end in range(start + 1, len(words) + 1)),
        key=lambda span: (span[0] - span[1], span[0]),
    )
    keys = [name_key(word.text) for word in words]  # a run's key is its words' keys joined
    for start, end in spans:
        if (start, end) != natural and table.outcome("".join(keys[start:end]), french) is None:
            continue
        text = " ".join(word.text for word in words[start:end])
        term = _term(text, roles[:start] + roles[end:], game_map, french=french)
        if term is not None:
            return term
    start, end = natural
    text = " ".join(word.text for word in words[start:end])
    try:
        resolve_location(text, game_map, french=french)
    except CoreError as error:
        if all(role is not None for role in roles):
            shown = " ".join(word.text for word in words)
            raise CommandError(Message(N_("The condition names no province -> {shown}"), shown=shown), words[0].column) from None
        raise CommandError(error.translatable or str(error), words[start].column) from None
    raise CommandError(
        Message(N_("Cannot read condition -> {words} (expected [not] [power] [army|fleet] province)"), words=' '.join(w.text for w in words)),
        words[0].column,
    )


def _term(
    text: str, outside: Sequence[tuple[str, str] | None], game_map: GameMap, *, french: bool
) -> Condition | None:
    """The term when ``text`` names a province and the other words are NOT, one power, one type."""
    if any(role is None for role in outside):
        return None
    powers = [role[1] for role in outside if role is not None and role[0] == "power"]
    types = [role[1] for role in outside if role is not None and role[0] == "type"]
    if len(powers) > 1 or len(types) > 1:
        return None
    try:
        reading = resolve_location(text, game_map, french=french)
    except CoreError:
        return None
    term: Condition = UnitPresent(
        reading.province, powers[0] if powers else None, _TYPE_WORDS[types[0]] if types else None
    )
    negations = sum(1 for role in outside if role is not None and role[0] == "not")
    return Not(term) if negations % 2 else term


def _modifier(text: str, game_map: GameMap) -> tuple[str, str] | None:
    """("not", ...), ("type", word) or ("power", name) when the word can be one, else None."""
    folded = fold(text).rstrip(".,:")
    if folded == "not":
        return ("not", folded)
    if folded in _TYPE_WORDS:
        return ("type", folded)
    power = power_named(folded, game_map)
    return ("power", power) if power is not None else None


def _natural_span(roles: Sequence[tuple[str, str] | None]) -> tuple[int, int]:
    """The words a player most likely meant as the province: the last run of non-modifiers."""
    end = len(roles)
    while end > 0 and roles[end - 1] is not None:
        end -= 1
    if end == 0:
        return (len(roles) - 1, len(roles))
    start = end
    while start > 0 and roles[start - 1] is None:
        start -= 1
    return (start, end)
