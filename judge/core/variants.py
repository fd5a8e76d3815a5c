"""Loading variants: the map data files shipped in :mod:`judge.variants`.

Variants are data, not code: a JSON file per variant names the powers, the
provinces (names in English and French, terrain, supply centres, homes,
coasts, adjacencies) and the starting units. This module reads such a file,
checks every field's type, and hands the content to :meth:`GameMap.build`,
which checks the geography itself. Maps are cached: one object per variant
for the life of the process, so identity-keyed caches elsewhere stay valid.

The only I/O in the core is reading these package files (through
:mod:`importlib.resources`, so it works from a wheel or a zip too).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from importlib import resources

from judge.core.errors import VariantError
from judge.core.geography import GameMap, PowerNames, Province, Terrain
from judge.core.units import Unit, UnitType

_PACKAGE = "judge.variants"
_SUFFIX = ".json"
_VARIANT_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


@functools.cache
def available_variants() -> tuple[str, ...]:
    """Names of the variants shipped with the package, sorted.

    Read once: the package's files do not change under a running judge, and
    :func:`load_map` asks on every call (several times per mail).
    """
    names = (
        entry.name[: -len(_SUFFIX)]
        for entry in resources.files(_PACKAGE).iterdir()
        if entry.name.endswith(_SUFFIX) and entry.is_file()
    )
    return tuple(sorted(names))


def load_map(name: str = "standard") -> GameMap:
    """The map of variant ``name`` (case-insensitive), read once and cached.

    Raises :class:`VariantError` for an unknown variant or a data file that
    is not consistent.
    """
    key = name.strip().lower()
    if not _VARIANT_NAME.match(key) or key not in available_variants():
        known = ", ".join(available_variants())
        raise VariantError(f"unknown variant {name!r} (known: {known})")
    return _load_cached(key)


@functools.cache
def _load_cached(key: str) -> GameMap:
    text = resources.files(_PACKAGE).joinpath(key + _SUFFIX).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise VariantError(f"variant {key}: data file is not valid JSON ({error})") from None
    return parse_map(data, source=key)


def parse_map(data: object, *, source: str = "<data>") -> GameMap:
    """Build a map from the decoded JSON of a variant file (public for tests and tools).

    Every field is checked for type before use, so a broken file gives a
    :class:`VariantError` that names the field, never a ``KeyError``.
    """
    root = _mapping(data, source)
    name = _string(root.get("name"), f"{source}: name")
    where = f"variant {name}"
    powers = _strings(root.get("powers"), f"{where}: powers")
    win_centers = root.get("win_centers")
    if not isinstance(win_centers, int) or isinstance(win_centers, bool):
        raise VariantError(f"{where}: win_centers must be an integer")

    provinces: list[Province] = []
    army: dict[str, list[str]] = {}
    fleet: dict[str, list[str]] = {}
    for code, raw in _mapping(root.get("provinces"), f"{where}: provinces").items():
        entry = _mapping(raw, f"{where}: province {code}")
        ctx = f"{where}: province {code}"
        try:
            terrain = Terrain(_string(entry.get("terrain"), f"{ctx}: terrain"))
        except ValueError:
            raise VariantError(f"{ctx}: terrain must be land, coast or water") from None
        coasts_raw = _mapping(entry.get("coasts", {}), f"{ctx}: coasts")
        home = entry.get("home")
        if home is not None and not isinstance(home, str):
            raise VariantError(f"{ctx}: home must be a power name")
        french_abbreviation = entry.get("french_abbreviation")
        if french_abbreviation is not None and not isinstance(french_abbreviation, str):
            raise VariantError(f"{ctx}: french_abbreviation must be a string")
        french_names = _strings(entry.get("french_names", []), f"{ctx}: french_names")
        english_name = _string(entry.get("name"), f"{ctx}: name")
        supply_center = entry.get("supply_center", False)
        if not isinstance(supply_center, bool):
            raise VariantError(f"{ctx}: supply_center must be true or false")
        provinces.append(
            Province(
                code=code,
                name=english_name,
                terrain=terrain,
                supply_center=supply_center,
                home_of=home,
                coasts=tuple(coasts_raw),
                french_name=french_names[0] if french_names else english_name,
                french_abbreviation=french_abbreviation,
                english_aliases=_strings(entry.get("english_aliases", []), f"{ctx}: english_aliases"),
                french_names=french_names,
                french_abbreviations=_strings(
                    entry.get("french_abbreviations", []), f"{ctx}: french_abbreviations"
                ),
            )
        )
        if "army" in entry:
            army[code] = list(_strings(entry["army"], f"{ctx}: army"))
        if "fleet" in entry:
            fleet[code] = list(_strings(entry["fleet"], f"{ctx}: fleet"))
        for coast, targets in coasts_raw.items():
            fleet[f"{code}/{coast}"] = list(_strings(targets, f"{ctx}: coast {coast}"))

    units: list[Unit] = []
    for power, specs in _mapping(root.get("starting_units"), f"{where}: starting_units").items():
        for spec in _strings(specs, f"{where}: starting units of {power}"):
            units.append(_unit(power, spec, where))

    return GameMap.build(
        name=name,
        powers=powers,
        provinces=provinces,
        army_adjacency=army,
        fleet_adjacency=fleet,
        starting_units=units,
        win_centers=win_centers,
        power_names=_power_names(root.get("power_names", {}), powers, where),
    )


@functools.cache
def _names_by_power() -> dict[str, PowerNames]:
    names: dict[str, PowerNames] = {}
    for variant in available_variants():
        for power, power_names in load_map(variant).power_names.items():
            names.setdefault(power, power_names)
    return names


def power_names_of(power: str) -> PowerNames:
    """The names of a power known to any variant (plain names for an unknown one).

    For reports that name a power without a map at hand; a variant that gives
    one power other names than another variant does wins only for its map
    (:meth:`GameMap.power_display_name`).
    """
    return _names_by_power().get(power.upper()) or PowerNames.plain(power)


def _power_names(value: object, powers: tuple[str, ...], where: str) -> dict[str, PowerNames]:
    """The optional ``power_names`` table; powers it leaves out get plain names."""
    names: dict[str, PowerNames] = {}
    for power, raw in _mapping(value, f"{where}: power_names").items():
        if power not in powers:
            raise VariantError(f"{where}: power_names names unknown power {power}")
        ctx = f"{where}: power_names of {power}"
        entry = _mapping(raw, ctx)
        names[power] = PowerNames(
            name=_string(entry.get("name"), f"{ctx}: name"),
            adjective=_string(entry.get("adjective"), f"{ctx}: adjective"),
            french_name=_string(entry.get("french_name"), f"{ctx}: french_name"),
            french_adjective=_string(entry.get("french_adjective"), f"{ctx}: french_adjective"),
            aliases=_strings(entry.get("aliases", []), f"{ctx}: aliases") if entry.get("aliases") else (),
        )
    return names


def _unit(power: str, spec: str, where: str) -> Unit:
    parts = spec.split()
    if len(parts) != 2 or parts[0] not in ("A", "F"):
        raise VariantError(f"{where}: cannot read starting unit {spec!r} (expected e.g. 'F STP/SC')")
    return Unit(power, UnitType(parts[0]), parts[1])


def _mapping(value: object, what: str) -> Mapping[str, object]:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise VariantError(f"{what} must be an object")
    return value


def _string(value: object, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise VariantError(f"{what} must be a non-empty string")
    return value


def _strings(value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise VariantError(f"{what} must be a list of non-empty strings")
    return tuple(value)
