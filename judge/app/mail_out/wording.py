"""How units, orders, powers and phases are written in the judge's reports.

The Judge wrote orders back in full words (``France: Army Paris -> Burgundy.``,
``Germany: Army Munich SUPPORT French Army Paris -> Burgundy.``), naming a
foreign unit with its power's adjective, so the acknowledgement and the
results read the same way; both use these functions. Every word a reader
sees comes from the reader's language: the phrases through gettext, the
province names through :func:`judge.core.names.province_display_name`, the
power names and adjectives from the table below (data, not messages: they
are names, and French adjectives agree with "armée" and "flotte", both
feminine).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from judge.core.geography import GameMap
from judge.core.names import province_display_name
from judge.core.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from judge.core.phase import Phase, PhaseType, Season
from judge.core.position import DislodgedUnit, Position
from judge.core.units import Unit, UnitRef, UnitType, province_of
from judge.core.variants import power_names_of
from judge.i18n import Gettext


# power -> (English name, English adjective, French name, French feminine adjective)
def power_name(power: str, language: str) -> str:
    """``FRANCE`` -> ``France``; ``ENGLAND`` -> ``Angleterre`` in French (the variant file's names)."""
    return power_names_of(power).display(language)


def power_adjective(power: str, language: str) -> str:
    return power_names_of(power).display_adjective(language)


def power_label(power: str, language: str, width: int = 0) -> str:
    """``France:`` padded to ``width`` so that the orders of every power line up."""
    return f"{power_name(power, language)}:".ljust(width)


def label_width(powers: Sequence[str], language: str) -> int:
    return max((len(power_name(p, language)) + 1 for p in powers), default=0)


@functools.lru_cache(maxsize=8192)
def place(location: str, language: str, game_map: GameMap) -> str:
    """``location``'s name in ``language`` on ``game_map`` (:func:`judge.core.names.province_display_name`).

    Kept by location, language and map (maps come from a cache, one object per variant and
    settings, compared by identity): a results mail names forty-odd places in each language,
    the same few hundred a map has, game after game: looked up each time, the names were about
    a quarter of a report's writing."""
    return province_display_name(location, "fr" if language == "fr" else "en", game_map)


def places(locations: Sequence[str], language: str, game_map: GameMap, _: Gettext) -> str:
    """``Albania``, ``Albania or Greece``, ``Albania, Greece or Serbia``."""
    names = [place(loc, language, game_map) for loc in locations]
    if len(names) <= 1:
        return "".join(names)
    return _("{first} or {last}").format(first=", ".join(names[:-1]), last=names[-1])


def unit_phrase(
    unit_type: UnitType | None,
    location: str,
    power: str | None,
    viewer: str | None,
    language: str,
    game_map: GameMap,
    _: Gettext,
) -> str:
    """``Army Paris``; ``French Army Paris`` when the unit is not ``viewer``'s (the one ordering)."""
    where = place(location, language, game_map)
    foreign = power is not None and viewer is not None and power != viewer
    if unit_type is UnitType.FLEET:
        if foreign:
            return _("{adjective} Fleet {place}").format(
                adjective=power_adjective(power or "", language), place=where
            )
        return _("Fleet {place}").format(place=where)
    if unit_type is UnitType.ARMY:
        if foreign:
            return _("{adjective} Army {place}").format(
                adjective=power_adjective(power or "", language), place=where
            )
        return _("Army {place}").format(place=where)
    return _("Unit {place}").format(place=where)


def board_unit(position: Position, ref: UnitRef | str) -> Unit | None:
    """The unit standing (or waiting to retreat) where ``ref`` says, if any."""
    province = province_of(ref.location if isinstance(ref, UnitRef) else ref)
    standing, waiting = _board_index(position)
    unit = standing.get(province)
    return unit if unit is not None else waiting.get(province)


_BoardIndex = tuple[tuple[Unit, ...], tuple[DislodgedUnit, ...], dict[str, Unit], dict[str, Unit]]
_LAST_BOARD: list[_BoardIndex] = []
"""The board last indexed: a report names some forty units of one position, in each language."""


def _board_index(position: Position) -> tuple[dict[str, Unit], dict[str, Unit]]:
    """{province: the unit standing there} and {province: the unit waiting to retreat from it} of
    ``position`` (the first of each, as a scan of its units finds them), kept for the position
    last asked about (known by its very tuples of units, which the entry holds alive)."""
    last = _LAST_BOARD[0] if _LAST_BOARD else None
    if last is not None and last[0] is position.units and last[1] is position.dislodged:
        return last[2], last[3]
    standing: dict[str, Unit] = {}
    for unit in position.units:
        standing.setdefault(unit.province, unit)
    waiting: dict[str, Unit] = {}
    for dislodged in position.dislodged:
        waiting.setdefault(dislodged.unit.province, dislodged.unit)
    _LAST_BOARD[:] = [(position.units, position.dislodged, standing, waiting)]
    return standing, waiting


def order_phrase(
    order: Order, power: str, position: Position, language: str, game_map: GameMap, _: Gettext
) -> str:
    """One order in words, without the power label and the final full stop.

    What the words take from the board is the units the order names, as :func:`_units_named`
    finds them; the rest is the order itself, so the words are written once for each order,
    units named and language (:func:`_order_words`), game after game."""
    return _order_words(order, power, _units_named(order, position), language, game_map, _)


_Named = tuple[Unit | None, ...]
"""The units an order names as they stand on the board (None: no unit there), in the order
:func:`_order_words` names them: the ordered unit, then the one it supports or convoys."""


def _units_named(order: Order, position: Position) -> _Named:
    """The units ``order`` names, looked up on ``position``: the ordered unit (in a retreat phase
    the one waiting to retreat first, as the unit that retreats is one of those), the unit it
    supports or convoys; a Remove's unit as it stands; none for a build or a waived build."""
    if isinstance(order, (Build, Waive)):
        return ()
    if isinstance(order, Remove):
        return (board_unit(position, order.unit),)
    ref = order.unit
    acting = _board_index(position)[1].get(ref.province) if position.phase.type is PhaseType.RETREAT else None
    acting = acting or board_unit(position, ref)
    if isinstance(order, (SupportHold, SupportMove, Convoy)):
        return (acting, board_unit(position, order.convoyed if isinstance(order, Convoy) else order.supported))
    return (acting,)


@functools.lru_cache(maxsize=16384)
def _order_words(
    order: Order, power: str, named: _Named, language: str, game_map: GameMap, _: Gettext
) -> str:
    """:func:`order_phrase` of ``order`` given by ``power`` whose units are ``named``: kept by all of
    them (orders and units compare by value, a map by identity, one object a variant, the gettext by
    its catalogue), as a results mail writes some thirty orders in each language, most of them met
    in the games before."""

    def name(ref: UnitRef, unit: Unit | None) -> str:
        if unit is None:
            return unit_phrase(ref.type, ref.location, None, power, language, game_map, _)
        return unit_phrase(unit.type, unit.location, unit.power, power, language, game_map, _)

    def to(location: str) -> str:
        return place(location, language, game_map)

    if isinstance(order, Hold):
        return _("{unit} HOLD").format(unit=name(order.unit, named[0]))
    if isinstance(order, Move):
        path = " -> ".join([name(order.unit, named[0]), *(to(p) for p in order.route), to(order.destination)])
        return _("{path} VIA CONVOY").format(path=path) if order.via_convoy and not order.route else path
    if isinstance(order, Retreat):
        return f"{name(order.unit, named[0])} -> {to(order.destination)}"
    if isinstance(order, SupportHold):
        return _("{unit} SUPPORT {other}").format(
            unit=name(order.unit, named[0]), other=name(order.supported, named[1])
        )
    if isinstance(order, SupportMove):
        return _("{unit} SUPPORT {other} -> {place}").format(
            unit=name(order.unit, named[0]), other=name(order.supported, named[1]), place=to(order.destination)
        )
    if isinstance(order, Convoy):
        return _("{unit} CONVOY {other} -> {place}").format(
            unit=name(order.unit, named[0]), other=name(order.convoyed, named[1]), place=to(order.destination)
        )
    if isinstance(order, Disband):
        return _("{unit} DISBAND").format(unit=name(order.unit, named[0]))
    if isinstance(order, Build):
        if order.type is UnitType.FLEET:
            return _("Builds a fleet in {place}").format(place=to(order.location))
        return _("Builds an army in {place}").format(place=to(order.location))
    if isinstance(order, Remove):
        unit = named[0]
        unit_type = unit.type if unit is not None else order.unit.type
        location = unit.location if unit is not None else order.unit.location
        if unit_type is UnitType.FLEET:
            return _("Removes the fleet in {place}").format(place=to(location))
        return _("Removes the army in {place}").format(place=to(location))
    assert isinstance(order, Waive)
    return _("Build waived")


def unordered_phrase(unit: Unit, position: Position, language: str, game_map: GameMap, _: Gettext) -> str:
    """A unit that got no order: ``Army Paris, No Order Processed``."""
    named = unit_phrase(unit.type, unit.location, unit.power, unit.power, language, game_map, _)
    if position.phase.type is PhaseType.RETREAT:
        return _("{unit}, No Order Processed (DISBAND)").format(unit=named)
    return _("{unit}, No Order Processed").format(unit=named)


def phase_heading(kind: str, phase: Phase, _: Gettext) -> str:
    """``Movement orders for Spring of 1901.`` (kind ``orders``) or ``... results ...`` (``results``)."""
    year = phase.year
    key = (phase.season, phase.type)
    if kind == "orders":
        texts = {
            (Season.SPRING, PhaseType.MOVEMENT): _("Movement orders for Spring of {year}."),
            (Season.SUMMER, PhaseType.MOVEMENT): _("Movement orders for Summer of {year}."),
            (Season.SUMMER, PhaseType.RETREAT): _("Retreat orders for Summer of {year}."),
            (Season.FALL, PhaseType.MOVEMENT): _("Movement orders for Fall of {year}."),
            (Season.SPRING, PhaseType.RETREAT): _("Retreat orders for Spring of {year}."),
            (Season.FALL, PhaseType.RETREAT): _("Retreat orders for Fall of {year}."),
            (Season.WINTER, PhaseType.ADJUSTMENT): _("Adjustment orders for Winter of {year}."),
        }
    else:
        texts = {
            (Season.SPRING, PhaseType.MOVEMENT): _("Movement results for Spring of {year}."),
            (Season.SUMMER, PhaseType.MOVEMENT): _("Movement results for Summer of {year}."),
            (Season.SUMMER, PhaseType.RETREAT): _("Retreat results for Summer of {year}."),
            (Season.FALL, PhaseType.MOVEMENT): _("Movement results for Fall of {year}."),
            (Season.SPRING, PhaseType.RETREAT): _("Retreat results for Spring of {year}."),
            (Season.FALL, PhaseType.RETREAT): _("Retreat results for Fall of {year}."),
            (Season.WINTER, PhaseType.ADJUSTMENT): _("Adjustment results for Winter of {year}."),
        }
    return texts[key].format(year=year)


def phase_name(phase: Phase, _: Gettext) -> str:
    """``Movement for Fall of 1901``: what the next phase will be (the Renaissance game has a summer)."""
    texts = {
        (Season.SPRING, PhaseType.MOVEMENT): _("Movement for Spring of {year}"),
        (Season.SUMMER, PhaseType.MOVEMENT): _("Movement for Summer of {year}"),
        (Season.SUMMER, PhaseType.RETREAT): _("Retreat for Summer of {year}"),
        (Season.FALL, PhaseType.MOVEMENT): _("Movement for Fall of {year}"),
        (Season.SPRING, PhaseType.RETREAT): _("Retreat for Spring of {year}"),
        (Season.FALL, PhaseType.RETREAT): _("Retreat for Fall of {year}"),
        (Season.WINTER, PhaseType.ADJUSTMENT): _("Adjustment for Winter of {year}"),
    }
    return texts[(phase.season, phase.type)].format(year=phase.year)


def game_reference(game: str, turn: int) -> str:
    """``(game.001)``: the game and the number of the turn, as the Judge wrote it."""
    return f"({game}.{turn:03d})"
