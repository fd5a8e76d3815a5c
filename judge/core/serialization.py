"""Positions and adjudication results as JSON-ready dicts: the `judge adjudicate` contract.

Moderators and other programs check a ruling by sending a position as JSON
and reading the result back, so both directions follow one fixed format
(documented in README and ``judge adjudicate --help``)::

    {"variant": "standard", "phase": "S1901M",
     "units": [{"power": "ENGLAND", "type": "F", "loc": "STP/SC"}],
     "centers": {"ENGLAND": ["LON", "EDI", "LVP"]},
     "dislodged": [{"power": "RUSSIA", "type": "A", "loc": "PRU",
                    "attacker_from": "BER", "attacker_via_convoy": false}],
     "standoffs": ["BOH"],
     "orders": {"ENGLAND": ["F NTH - PIC"]}, "rules": {}}

Pure: dicts in, values out, and back. Reading checks everything against the
variant's map and raises one :class:`~judge.core.errors.CoreError` per problem
with a one-line message ("unit 2 (FRANCE F PAR): a fleet cannot stand in
Paris"), never a ``KeyError`` or ``TypeError``. Writing is deterministic:
centres sorted, units sorted by power then location, so two runs of the same
input give byte-identical output.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from judge.core.adjudicator.results import AdjudicationResult, OrderResult
from judge.core.errors import PositionError
from judge.core.geography import GameMap
from judge.core.orders import Build
from judge.core.phase import Phase, PhaseType
from judge.core.position import DislodgedUnit, Position
from judge.core.special_rules import NEUTRAL
from judge.core.units import Unit, UnitType, province_of
from judge.core.variants import load_map

__all__ = [
    "PositionInput",
    "dislodged_to_json",
    "order_result_to_json",
    "phase_to_json",
    "position_from_json",
    "position_to_json",
    "result_to_json",
    "unit_to_json",
]


class PositionInput(NamedTuple):
    """What a JSON position holds: the board, the order lines by power, the rule options.

    A tuple, so ``position, orders, rules = position_from_json(data)`` works;
    ``game_map`` is the variant's map, already loaded to check the position.
    """

    position: Position
    orders: Mapping[str, tuple[str, ...]]
    rules: Mapping[str, Any]
    game_map: GameMap


def position_from_json(data: object) -> PositionInput:
    """Read a position in the contract's format; unknown keys are ignored.

    Raises a :class:`CoreError` subclass with a one-line message: an unknown
    variant (:class:`VariantError`), phase (:class:`PhaseError`), power or
    province, a unit where it cannot stand, two units in one province, a
    field of the wrong type (:class:`PositionError`).
    """
    root = _object(data, "a position")
    variant = root.get("variant", "standard")
    if variant is None:
        variant = "standard"
    if not isinstance(variant, str):
        raise PositionError('variant must be a string such as "standard"')
    game_map = load_map(variant)
    phase_text = root.get("phase")
    if not isinstance(phase_text, str):
        raise PositionError('phase is missing: give e.g. "phase": "S1901M"')
    phase = _PHASES.get(phase_text)
    if phase is None:
        phase = Phase.parse(phase_text)
        if len(_PHASES) < 4096:
            _PHASES[phase_text] = phase

    units = _board_units(root.get("units"), game_map)
    centers = _centers(root.get("centers"), game_map)

    dislodged_data = root.get("dislodged") or []
    standoffs_data = root.get("standoffs") or []
    if (dislodged_data or standoffs_data) and phase.type is not PhaseType.RETREAT:
        raise PositionError(f"dislodged units and standoffs belong to retreat phases, not {phase}")
    dislodged: tuple[DislodgedUnit, ...] = ()
    if dislodged_data:
        dislodged = tuple(_dislodged(dislodged_data, game_map))
        _check_one_per_province([d.unit for d in dislodged], "dislodged")
    standoffs: frozenset[str] = (
        frozenset(_provinces(standoffs_data, game_map, "standoffs")) if standoffs_data else _NO_STANDOFFS
    )

    position = Position(
        variant=game_map.name,
        phase=phase,
        units=units,
        centers=centers,
        dislodged=dislodged,
        standoffs=standoffs,
    )
    return PositionInput(
        position, _orders(root.get("orders"), game_map), _rules(root.get("rules")), game_map
    )


# ---------------------------------------------------------------------------- writing

_MOVEMENT = PhaseType.MOVEMENT  # an enum member read through its class costs ~0.2 us each time


def phase_to_json(phase: Phase) -> str:
    """``S1901M``, ``F1901R``, ``W1901A``: the phase as the contract writes it."""
    return str(phase)


def unit_to_json(unit: Unit) -> dict[str, Any]:
    return {"power": unit.power, "type": unit.type._value_, "loc": unit.location}


def dislodged_to_json(
    dislodged: DislodgedUnit, retreats: Iterable[str] | None = None
) -> dict[str, Any]:
    """A dislodged unit; with ``retreats`` (sorted here) as a result gives it, without as a position does."""
    entry = unit_to_json(dislodged.unit)
    entry["attacker_from"] = province_of(dislodged.attacker_from)
    entry["attacker_via_convoy"] = dislodged.attacker_via_convoy
    if retreats is not None:
        entry["retreats"] = sorted(retreats)
    return entry


def units_to_json(units: Iterable[Unit]) -> list[dict[str, Any]]:
    """Units in a stable order: by power, then location."""
    # By (power, location, type): the type is a str enum, which sorts as its value.
    return [
        {"power": u.power, "type": u.type._value_, "loc": u.location}
        for u in sorted(units, key=_UNIT_ORDER)
    ]


_UNIT_ORDER = operator.attrgetter("power", "location", "type")


def centers_to_json(centers: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """Centres by power, powers and centres sorted; powers owning nothing are left out."""
    return {power: sorted(owned) for power, owned in sorted(centers.items()) if owned}


def position_to_json(
    position: Position,
    orders: Mapping[str, Sequence[str]] | None = None,
    rules: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The inverse of :func:`position_from_json` (used to build inputs and to store positions)."""
    data: dict[str, Any] = {
        "variant": position.variant,
        "phase": phase_to_json(position.phase),
        "units": units_to_json(position.units),
        "centers": centers_to_json(position.centers),
    }
    if position.phase.type is PhaseType.RETREAT:
        data["dislodged"] = [
            dislodged_to_json(d)
            for d in sorted(position.dislodged, key=lambda d: (d.unit.power, d.unit.location))
        ]
        data["standoffs"] = sorted(position.standoffs)
    if orders is not None:
        data["orders"] = {power: list(lines) for power, lines in sorted(orders.items())}
    if rules is not None:
        data["rules"] = dict(rules)
    return data


def order_result_to_json(result: OrderResult) -> dict[str, Any]:
    """One entry of ``results``: who, which unit, which order, how it ended, why.

    ``order`` is the order in canonical notation (``A LON - BEL VIA CONVOY``);
    a build names the unit it creates, since it has no unit before the phase.
    """
    unit = result.unit
    order = result.order
    unit_text: str | None
    if unit is not None:
        unit_text = unit.type._value_ + " " + unit.location  # str(unit)
    elif isinstance(order, Build):
        unit_text = f"{order.type.value} {order.location}"
    else:
        unit_text = None
    return {
        "power": result.power,
        "unit": unit_text,
        "order": None if order is None else order.__str__(),
        "outcome": result.outcome._value_,
        "reason": result.reason,
    }


def result_to_json(
    result: AdjudicationResult, results: Sequence[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """An adjudicated phase in the contract's format.

    ``results`` replaces the entries made from ``result.results`` when the
    caller has more to say (lines that could not be read, kept in the order
    they were written); see :mod:`judge.commands.adjudicate`.
    """
    after = result.position
    dislodged: list[dict[str, Any]] = []
    if result.dislodged and result.phase.type is _MOVEMENT:
        dislodged = [
            dislodged_to_json(d, result.retreats.get(d.unit, ()))
            for d in sorted(result.dislodged, key=lambda d: (d.unit.power, d.unit.location))
        ]
    return {
        "phase": phase_to_json(result.phase),
        "next_phase": phase_to_json(result.next_phase),
        "units": units_to_json(after.units),
        "dislodged": dislodged,
        "centers": centers_to_json(after.centers),
        "results": list(results)
        if results is not None
        else [order_result_to_json(r) for r in result.results],
        "winner": result.winner,
    }


# ---------------------------------------------------------------------------- reading helpers


def _object(value: object, what: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise PositionError(f"{what} must be a JSON object, not {_json_type(value)}")
    return value


def _list(value: object, what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise PositionError(f"{what} must be a list, not {_json_type(value)}")
    return value


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _power(value: object, game_map: GameMap, where: str, *, neutral: bool = False) -> str:
    """The power ``value`` names, as the variant file spells it.

    Any case, with or without spaces, hyphens or underscores, and the
    power's English name too: ``FROZEN-ANTARCTICA``, ``Frozen Antarctica``
    and ``FROZENANTARCTICA`` are one power. ``neutral`` also accepts the
    neutral units' ``NEUTRAL`` (for units: any map may have them, as the
    Judge's SET NEUTRALS puts them on any map).
    """
    if not isinstance(value, str):
        raise PositionError(f'{where}: power must be a string such as "ENGLAND"')
    if value in _power_codes(game_map):  # written as the variant file does (the usual case)
        return value
    power = power_by_key(game_map).get(_power_key(value))
    if power is None and neutral and _power_key(value) == _power_key(NEUTRAL):
        return NEUTRAL
    if power is None:
        raise PositionError(
            f"{where}: unknown power {value!r} (the {game_map.name} powers are {', '.join(game_map.powers)})"
        )
    return power


def _power_key(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


@functools.lru_cache(maxsize=16)
def _power_codes(game_map: GameMap) -> frozenset[str]:
    return frozenset(game_map.powers)


@functools.lru_cache(maxsize=16)
def power_by_key(game_map: GameMap) -> Mapping[str, str]:
    """Folded power code or English name -> the power's code (built once per map)."""
    table: dict[str, str] = {}
    for power in game_map.powers:
        table.setdefault(_power_key(game_map.power_names[power].name), power)
    for power in game_map.powers:
        table[_power_key(power)] = power
    return table


def _province_code(value: object, game_map: GameMap, where: str) -> str:
    if isinstance(value, str):
        known = _known_province(game_map, value)
        if known is not None:
            return known
    if not isinstance(value, str) or not value.strip():
        raise PositionError(f'{where}: a province code such as "PAR" is needed')
    code = value.strip().upper()
    if not game_map.is_province(province_of(code)):
        raise PositionError(f"{where}: unknown province {value!r}")
    return code


@functools.lru_cache(maxsize=4096)
def _known_province(game_map: GameMap, value: str) -> str | None:
    """The code ``value`` names on the map, read once (pure, so never stale); None if it names none."""
    code = value.strip().upper()
    return code if code and game_map.is_province(province_of(code)) else None


def _unit(entry: object, game_map: GameMap, where: str) -> Unit:
    data = _object(entry, where)
    power_text, type_text, loc_text = data.get("power"), data.get("type"), data.get("loc")
    if isinstance(power_text, str) and isinstance(type_text, str) and isinstance(loc_text, str):
        known = _known_unit(game_map, power_text, type_text, loc_text)
        if known is not None:
            return known
    return _read_unit(game_map, power_text, type_text, loc_text, where)


@functools.lru_cache(maxsize=16384)
def _known_unit(game_map: GameMap, power_text: str, type_text: str, loc_text: str) -> Unit | None:
    """A valid unit written this way, read once (a batch repeats the same few hundred); None if invalid.

    A pure function of its arguments (maps are immutable), so the cache can
    never be stale; an invalid unit is read again by :func:`_read_unit`,
    which says why with the entry's place in the input.
    """
    try:
        return _read_unit(game_map, power_text, type_text, loc_text, "")
    except PositionError:
        return None


def _read_unit(game_map: GameMap, power_text: object, type_text: object, loc_text: object, where: str) -> Unit:
    power = _power(power_text, game_map, where, neutral=True)
    if not isinstance(type_text, str) or type_text.strip().upper() not in ("A", "F"):
        raise PositionError(f'{where}: type must be "A" or "F", not {_json_type(type_text)}')
    unit_type = UnitType(type_text.strip().upper())
    location = _province_code(loc_text, game_map, where)
    label = f"{where} ({power} {unit_type.value} {location})"
    if not game_map.is_location(location):
        raise PositionError(f"{label}: {game_map.province(location).name} has no such coast")
    if not game_map.can_hold(unit_type, location):
        raise PositionError(f"{label}: {_why_not_there(game_map, unit_type, location)}")
    return Unit(power, unit_type, location)


def _why_not_there(game_map: GameMap, unit_type: UnitType, location: str) -> str:
    province = game_map.province(location)
    if unit_type is UnitType.ARMY:
        if game_map.is_water(location):
            return f"an army cannot stand in {province.name} (sea)"
        return f"an army stands on the province, not a coast: write {province.code}"
    if game_map.is_inland(location):
        return f"a fleet cannot stand in {province.name} (inland)"
    coasts = " or ".join(province.fleet_locations)
    return f"a fleet in {province.name} must name its coast ({coasts})"


# Phase text -> Phase: a batch names the same few dozen phases (Phase is immutable, the parse pure).
_PHASES: dict[str, Phase] = {}
_NO_STANDOFFS: frozenset[str] = frozenset()


def _board_units(value: object, game_map: GameMap) -> tuple[Unit, ...]:
    """The ``units`` of a position, one per province, as :func:`_units` and
    :func:`_check_one_per_province` read and check them.

    The fast path: each entry written as a valid unit was written before is
    found by its location and two string comparisons (see :func:`_last_at`),
    or one lookup of the entry as written (see :func:`_valid_units`); when
    any entry is not valid, or two units share a province, the entries are
    read again one by one, which finds the first problem and words it as always.
    """
    if type(value) is list:
        known = _valid_units(game_map)
        last = _last_at(game_map)
        units: list[Unit] = []
        provinces: set[str] = set()
        try:
            # A string or a list for an entry, a field missing, a list or an object for a field
            # (unhashable): TypeError or KeyError, and the full reading says what is wrong.
            for entry in value:
                location = entry["loc"]
                hit = last.get(location)
                if hit is None or hit[0] != entry["power"] or hit[1] != entry["type"]:
                    found = known.get((entry["power"], entry["type"], location))
                    if found is None:
                        found = _remember_unit(known, game_map, entry)
                        if found is None:
                            break
                    hit = (entry["power"], entry["type"], found[0], found[1])
                    if len(last) >= _MAX_VALID_UNITS:
                        last.clear()
                    last[location] = hit
                units.append(hit[2])
                provinces.add(hit[3])
            else:
                if len(provinces) == len(units):
                    return tuple(units)
        except (KeyError, TypeError):
            pass
    units_read = tuple(_units(value, game_map, "units"))
    _check_one_per_province(units_read, "units")
    return units_read


@functools.lru_cache(maxsize=16)
def _last_at(game_map: GameMap) -> dict[object, tuple[object, object, Unit, str]]:
    """Location as written -> (power and type as written, the unit, its province): the last valid
    entry read at each location, per map object; a pure function's memo like :func:`_valid_units`."""
    return {}


@functools.lru_cache(maxsize=16)
def _valid_units(game_map: GameMap) -> dict[tuple[object, object, object], tuple[Unit, str]]:
    """(power, type, loc) as written -> the unit and its province, for entries read and found valid.

    One table per map object (maps are immutable and compared by identity),
    filled as entries are met and emptied when it grows past
    ``_MAX_VALID_UNITS``: a pure function's memo, never stale.
    """
    return {}


_MAX_VALID_UNITS = 16_384


def _remember_unit(
    known: dict[tuple[object, object, object], tuple[Unit, str]], game_map: GameMap, entry: Mapping[str, Any]
) -> tuple[Unit, str] | None:
    power_text, type_text, loc_text = entry.get("power"), entry.get("type"), entry.get("loc")
    if not (isinstance(power_text, str) and isinstance(type_text, str) and isinstance(loc_text, str)):
        return None
    unit = _known_unit(game_map, power_text, type_text, loc_text)
    if unit is None:
        return None
    if len(known) >= _MAX_VALID_UNITS:
        known.clear()
    found = known[(power_text, type_text, loc_text)] = (unit, unit.province)
    return found


def _units(value: object, game_map: GameMap, what: str) -> Iterable[Unit]:
    for index, entry in enumerate(_list(value, what)):
        yield _unit(entry, game_map, f"{what} {index + 1}")


def _check_one_per_province(units: Iterable[Unit], what: str) -> None:
    seen: dict[str, Unit] = {}
    for unit in units:
        other = seen.get(unit.province)
        if other is not None:
            raise PositionError(
                f"{what}: two units in {unit.province} ({other.power} {other} and {unit.power} {unit})"
            )
        seen[unit.province] = unit


def _centers(value: object, game_map: GameMap) -> Mapping[str, frozenset[str]]:
    if value is None:
        return {power: frozenset(owned) for power, owned in game_map.starting_centers.items()}
    data = _object(value, "centers")
    fast = _known_centers(data, game_map)
    if fast is not None:
        return fast
    return _read_centers(data, game_map)


def _known_centers(data: Mapping[str, Any], game_map: GameMap) -> dict[str, frozenset[str]] | None:
    """The centres as :func:`_read_centers` reads them when every power's list was read valid
    before (one lookup a power) and no centre has two owners; else None (read them in full)."""
    known = _valid_centers(game_map)
    centers: dict[str, frozenset[str]] = {}
    total = 0
    for raw_power, codes in data.items():
        if type(codes) is not list:
            return None
        try:
            key = (raw_power, tuple(codes))
            found = known.get(key)
        except TypeError:  # unhashable entries: the full reading words the error
            return None
        if found is None:
            try:
                found = _read_centers({raw_power: codes}, game_map).popitem()
            except PositionError:
                return None
            if len(known) >= _MAX_VALID_UNITS:
                known.clear()
            known[key] = found
        power, owned = found
        if power in centers:  # one power written twice ("ENGLAND", "England"): merged by the full reading
            return None
        centers[power] = owned
        total += len(owned)
    if total and len(frozenset().union(*centers.values())) != total:
        return None  # a centre owned twice: the full reading says which
    return centers


@functools.lru_cache(maxsize=16)
def _valid_centers(game_map: GameMap) -> dict[tuple[str, tuple[Any, ...]], tuple[str, frozenset[str]]]:
    """(power as written, centres as written) -> (power, centres), for lists read and found valid;
    per map object, a pure function's memo like :func:`_valid_units`."""
    return {}


def _read_centers(data: Mapping[str, Any], game_map: GameMap) -> dict[str, frozenset[str]]:
    owner: dict[str, str] = {}
    centers: dict[str, frozenset[str]] = {}
    for raw_power, codes in data.items():
        where = f"centers of {raw_power}"
        power = _power(raw_power, game_map, "centers")
        owned: set[str] = set()
        for code in _provinces(codes, game_map, where):
            if not game_map.is_supply_center(code):
                raise PositionError(f"{where}: {code} is not a supply centre")
            if owner.get(code, power) != power:
                raise PositionError(f"centers: {code} is owned by both {owner[code]} and {power}")
            owner[code] = power
            owned.add(code)
        centers[power] = frozenset(owned) | centers.get(power, frozenset())
    return centers


def _provinces(value: object, game_map: GameMap, what: str) -> Iterable[str]:
    for entry in _list(value, what):
        code = _province_code(entry, game_map, what)
        if "/" in code:
            raise PositionError(f"{what}: {code}: give the province without a coast")
        yield code


def _dislodged(value: object, game_map: GameMap) -> Iterable[DislodgedUnit]:
    for index, entry in enumerate(_list(value, "dislodged")):
        where = f"dislodged {index + 1}"
        unit = _unit(entry, game_map, where)
        data = _object(entry, where)
        attacker = _province_code(data.get("attacker_from"), game_map, f"{where}: attacker_from")
        via = data.get("attacker_via_convoy", False)
        if not isinstance(via, bool):
            raise PositionError(f"{where}: attacker_via_convoy must be true or false")
        yield DislodgedUnit(unit, province_of(attacker), via)


def _orders(value: object, game_map: GameMap) -> Mapping[str, tuple[str, ...]]:
    if value is None:
        return {}
    data = _object(value, "orders")
    orders: dict[str, tuple[str, ...]] = {}
    codes = _power_codes(game_map)
    for raw_power, lines in data.items():
        power = raw_power if raw_power in codes else _power(raw_power, game_map, "orders")
        if type(lines) is list and all(map(_is_str, lines)):  # the usual case
            texts = tuple(lines)
        else:
            if isinstance(lines, str):
                lines = lines.splitlines()
            listed = _list(lines, f"orders of {power}")
            for line in listed:
                if not isinstance(line, str):
                    raise PositionError(
                        f"orders of {power}: each order must be a string, not {_json_type(line)}"
                    )
            texts = tuple(listed)
        orders[power] = orders[power] + texts if power in orders else texts
    return orders


_is_str = str.__instancecheck__
"""isinstance(x, str), without a Python frame for each line."""


def _rules(value: object) -> Mapping[str, Any]:
    if value is None:
        return {}
    return dict(_object(value, "rules"))
