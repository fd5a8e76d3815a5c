"""Postal preference lists: retreats, builds and removals given in order of preference.

Seed 000 (3.4.2, "Retraites et constructions conditionnelles") asks postal
players to send, with their movement orders, the retreats of units that may
be dislodged and (in the autumn) their builds or removals, as lists in order
of preference: "A VIE fait retraite à BUD, TRI, GAL, BOH, TYR", "construire
F BRE, A PAR, A MAR", "retirer F(HOL)". The game master then takes the first
choice that is legal when the phase comes; for builds, the first ones that
are legal, up to the number allowed.

Here are the pieces that need no database: :func:`continuation` reads the
pieces after a comma that extend a list (a bare province after a retreat, a
unit after a build or a removal), :class:`Preference` is a list kept as one
item of a power's orders (its text reads back as the same list), and
:func:`choose` picks the orders a list stands for on a given board.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from judge.core.adjudicator import DEFAULT_RULES, Rules, validate
from judge.core.adjudicator.validation import builds_owed
from judge.core.errors import CoreError
from judge.core.geography import GameMap
from judge.core.orders import Build, Order, Remove, Retreat, Waive
from judge.core.position import Position
from judge.core.units import UnitRef, province_of

__all__ = ["Preference", "choose", "is_list_head", "preference_text"]

def is_list_head(order: Order) -> bool:
    """Whether a list of choices may follow ``order`` after a comma."""
    return isinstance(order, Retreat | Build | Remove)


def preference_text(choices: Sequence[Order]) -> str:
    """The judge's notation of a list: ``A VIE R BUD, TRI``; ``BUILD F BRE, A PAR``; ``REMOVE F HOL, A MUN``.

    The first choice is written in full, the others as short as the reader
    needs to add them to the list; the text reads back as the same list.
    """
    first, *rest = choices
    parts = [str(first)]
    for choice in rest:
        if isinstance(choice, Retreat):
            parts.append(choice.destination)
        elif isinstance(choice, Build):
            parts.append(f"{choice.type.value} {choice.location}")
        elif isinstance(choice, Remove):
            parts.append(str(choice.unit))
        else:  # pragma: no cover - lists hold only these kinds
            parts.append(str(choice))
    return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class Preference:
    """A list of choices kept as one item of a power's orders, best first."""

    choices: tuple[Order, ...]

    def __str__(self) -> str:
        return preference_text(self.choices)

    @property
    def kind(self) -> type[Order]:
        """The kind of its orders: Retreat, Build or Remove."""
        return type(self.choices[0])

    @property
    def unit(self) -> UnitRef | None:
        """The unit a retreat list is for (None for builds and removals)."""
        first = self.choices[0]
        return first.unit if isinstance(first, Retreat) else None


@dataclass(frozen=True, slots=True)
class Choice:
    """What a list came to on a board: the orders taken and the choices passed over."""

    taken: tuple[Order, ...]
    passed: tuple[tuple[Order, str], ...]  # (choice, why it was not taken)


def choose(
    position: Position,
    power: str,
    choices: Sequence[Order],
    game_map: GameMap,
    rules: Rules = DEFAULT_RULES,
    *,
    others: Iterable[Order] = (),
) -> Choice:
    """The orders a list stands for on ``position``.

    A retreat list gives its first legal retreat (none when no choice is
    legal: the unit is then disbanded, as an unordered dislodged unit).
    A build list gives its first legal builds, as many as the power may
    still build; a removal list its first legal removals, as many as it
    must still remove. ``others`` are the power's orders beside the list
    (builds or removals given one by one count against the number allowed,
    and their provinces are taken).
    """
    taken: list[Order] = []
    passed: list[tuple[Order, str]] = []
    first = choices[0]
    if isinstance(first, Retreat):
        for choice in choices:
            problem = _problem(position, power, choice, game_map, rules)
            if problem is None:
                return Choice((choice,), tuple(passed))
            passed.append((choice, problem))
        return Choice((), tuple(passed))
    owed = builds_owed(position, power)
    other = list(others)
    if isinstance(first, Build):
        room = owed - sum(isinstance(o, Build | Waive) for o in other)
        kind: type[Order] = Build
    else:
        room = -owed - sum(isinstance(o, Remove) for o in other)
        kind = Remove
    used = {_province(o) for o in other if isinstance(o, kind)}
    for choice in choices:
        if len(taken) >= room:
            passed.append((choice, "enough"))
            continue
        province = _province(choice)
        if province in used:
            passed.append((choice, "twice"))
            continue
        problem = _problem(position, power, choice, game_map, rules)
        if problem is not None:
            passed.append((choice, problem))
            continue
        taken.append(choice)
        used.add(province)
    return Choice(tuple(taken), tuple(passed))


def _province(order: Order) -> str:
    if isinstance(order, Build):
        return province_of(order.location)
    if isinstance(order, Remove | Retreat):
        return order.unit.province
    return ""


def _problem(position: Position, power: str, order: Order, game_map: GameMap, rules: Rules) -> str | None:
    try:
        error = validate(position, power, order, game_map, rules)
    except CoreError as raised:
        return str(raised)
    return None if error is None else str(error)
