"""Loading variants: the map data files shipped in :mod:`judge.variants`.

Variants are data, not code: a JSON file per variant names the powers, the
provinces (names in English and French, terrain, supply centres, homes,
coasts, adjacencies) and the starting units. This module reads such a file,
checks every field's type, and hands the content to :meth:`GameMap.build`,
which checks the geography itself. Maps are cached: one object per variant
for the life of the process, so identity-keyed caches elsewhere stay valid.

The only I/O in the core is reading variant files: the package's (straight
from its directory when it is one, else through :mod:`importlib.resources`,
so it works from a wheel or a zip too) and, for
an author checking a new file, one whose path the caller gives
(:func:`load_map_file`, behind ``judge variant FILE``). The file format is
documented in docs/variants.md; the special rules are read by
:mod:`judge.core.special_rules`.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from judge.core.errors import VariantError
from judge.core.geography import GameMap, PowerNames, Province, Terrain
from judge.core.phase import Season
from judge.core.special_rules import NEUTRAL, read_special_rules
from judge.core.units import Unit, UnitType

if TYPE_CHECKING:
    from pathlib import Path

_PACKAGE = "judge.variants"
_SUFFIX = ".json"
_VARIANT_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


_REGISTERED: dict[str, GameMap] = {}

NEUTRAL_NAMES = PowerNames("Neutral", "Neutral", "Neutre", "neutre")
"""How reports name the neutral units' pseudo-power (special rule neutral_units, SET NEUTRALS)."""


def available_variants() -> tuple[str, ...]:
    """Names of the variants shipped with the package (and any registered), sorted."""
    if not _REGISTERED:
        return _shipped_variants()
    return tuple(sorted({*_shipped_variants(), *_REGISTERED}))


def offered_variants() -> tuple[str, ...]:
    """The variants a game is created on, changed to (SET VARIANT) or joined by name: every variant
    file (:func:`available_variants`) and the scenarios played by a flow of their own
    (:data:`SCENARIO_DIRECTORIES`: the Renaissance game), sorted."""
    return tuple(sorted({*available_variants(), *SCENARIO_DIRECTORIES}))


@functools.cache
def _shipped_variants() -> tuple[str, ...]:
    """Read once: the package's files do not change under a running judge, and
    :func:`load_map` asks on every call (several times per mail)."""
    directory = _package_directory()
    if directory is not None:
        return tuple(
            sorted(
                name[: -len(_SUFFIX)]
                for name in os.listdir(directory)
                if name.endswith(_SUFFIX) and os.path.isfile(os.path.join(directory, name))
            )
        )
    from importlib import resources

    names = (
        entry.name[: -len(_SUFFIX)]
        for entry in resources.files(_PACKAGE).iterdir()
        if entry.name.endswith(_SUFFIX) and entry.is_file()
    )
    return tuple(sorted(names))


@functools.cache
def _package_directory() -> str | None:
    """The directory of the variants package when it is a plain one (a source tree, an
    unpacked install), else None: then :mod:`importlib.resources` reads the files (a zip).
    Read straight, the files cost no import of importlib.resources and pathlib at start-up."""
    import judge.variants

    file = getattr(judge.variants, "__file__", None)
    if file is None:
        return None
    directory = os.path.dirname(file)
    return directory if os.path.isfile(os.path.join(directory, "standard" + _SUFFIX)) else None


def register_map(game_map: GameMap) -> None:
    """Make a map built elsewhere (a test's or a tool's) known by its name to :func:`load_map`.

    A registered map hides a shipped one of the same name; :func:`unregister_map` undoes it.
    """
    _REGISTERED[game_map.name.lower()] = game_map
    _names_by_power.cache_clear()


def unregister_map(name: str) -> None:
    _REGISTERED.pop(name.lower(), None)
    _names_by_power.cache_clear()


def load_map_file(path: str | Path) -> GameMap:
    """Read and check a variant file outside the package (for authors checking a new file)."""
    from pathlib import Path

    source = Path(path)
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise VariantError(f"{source.name}: not valid JSON ({error})") from None
    except OSError as error:
        raise VariantError(f"{source}: cannot be read ({error.strerror})") from None
    return parse_map(data, source=source.name)


def load_map(name: str = "standard") -> GameMap:
    """The map of variant ``name`` (case-insensitive), read once and cached.

    Raises :class:`VariantError` for an unknown variant or a data file that
    is not consistent.
    """
    key = name.strip().lower()
    registered = _REGISTERED.get(key)
    if registered is not None:
        return registered
    if key in SCENARIO_DIRECTORIES and key not in available_variants():
        return _load_scenario_map(key)
    if not _VARIANT_NAME.match(key) or key not in available_variants():
        known = ", ".join(available_variants())
        raise VariantError(f"unknown variant {name!r} (known: {known})")
    return _load_cached(key)


SCENARIO_DIRECTORIES = {"machiavelli": "machiavelli"}
"""Scenarios kept beside the variants but not offered among them (:func:`available_variants`
does not list them): name -> the directory of ``judge/variants/`` its file is in. Their map is
still what :func:`load_map` gives for their name, so that a game on one (created only where its
variant is offered) reads its kept positions, owing powers and clock like any other game's."""


@functools.cache
def _load_scenario_map(key: str) -> GameMap:
    """The map of scenario ``key`` (its other keys are its own flow's: the Renaissance game's
    board reads them, :mod:`judge.core.machiavelli.board`)."""
    return parse_map(scenario_data(SCENARIO_DIRECTORIES[key], key), source=key)


@functools.cache
def _load_cached(key: str) -> GameMap:
    directory = _package_directory()
    if directory is not None:
        with open(os.path.join(directory, key + _SUFFIX), encoding="utf-8") as handle:
            text = handle.read()
    else:
        from importlib import resources

        text = resources.files(_PACKAGE).joinpath(key + _SUFFIX).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise VariantError(f"variant {key}: data file is not valid JSON ({error})") from None
    return parse_map(data, source=key)


def scenario_data(directory: str, name: str) -> object:
    """The decoded JSON of ``judge/variants/<directory>/<name>.json``: a scenario kept beside the
    variants but not among them (the Renaissance game's, :mod:`judge.core.machiavelli.board`)."""
    if not _VARIANT_NAME.match(directory) or not _VARIANT_NAME.match(name):
        raise VariantError(f"unknown scenario {directory}/{name}")
    package = _package_directory()
    if package is not None:
        path = os.path.join(package, directory, name + _SUFFIX)
        if not os.path.isfile(path):
            raise VariantError(f"unknown scenario {directory}/{name}")
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    else:
        from importlib import resources

        entry = resources.files(_PACKAGE).joinpath(directory, name + _SUFFIX)
        if not entry.is_file():
            raise VariantError(f"unknown scenario {directory}/{name}")
        text = entry.read_text(encoding="utf-8")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise VariantError(f"scenario {directory}/{name}: not valid JSON ({error})") from None


def parse_map(data: object, *, source: str = "<data>") -> GameMap:
    """Build a map from the decoded JSON of a variant file (public for tests and tools).

    Every field is checked for type before use, so a broken file gives a
    :class:`VariantError` that names the field, never a ``KeyError``.
    """
    root = _mapping(data, source)
    name = _string(root.get("name"), f"{source}: name")
    where = f"variant {name}"
    powers = _strings(root.get("powers"), f"{where}: powers")
    win_centers = _victory(root, where)
    start_year, start_season = _start(root.get("start"), where)

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

    for power in _mapping(root.get("starting_units"), f"{where}: starting_units"):
        if power not in powers:
            raise VariantError(f"{where}: starting_units names unknown power {power}")

    return GameMap.build(
        name=name,
        powers=powers,
        provinces=provinces,
        army_adjacency=army,
        fleet_adjacency=fleet,
        starting_units=units,
        win_centers=win_centers,
        power_names=_power_names(root.get("power_names", {}), powers, where),
        letters=_letters(root.get("letters"), where),
        start_year=start_year,
        start_season=start_season,
        centre_owners=_centre_owners(root.get("centre_owners"), where),
        special=read_special_rules(root.get("special_rules"), where),
        info=_info(root.get("info"), where),
        title=title if isinstance(title := root.get("title"), str) else name,
    )


def _victory(root: Mapping[str, object], where: str) -> int:
    """``"victory": {"centres": N}`` or the older ``"win_centers": N`` (both accepted; they must agree)."""
    found: list[object] = []
    if "victory" in root:
        victory = _mapping(root["victory"], f"{where}: victory")
        found.append(victory.get("centres", victory.get("centers")))
    if "win_centers" in root:
        found.append(root["win_centers"])
    if not found:
        raise VariantError(f"{where}: the victory threshold is missing (\"victory\": {{\"centres\": N}})")
    for value in found:
        if not isinstance(value, int) or isinstance(value, bool):
            raise VariantError(f"{where}: the centres needed to win must be an integer")
    if len(set(found)) > 1:
        raise VariantError(f"{where}: victory.centres and win_centers disagree")
    value = found[0]
    assert isinstance(value, int)
    return value


_SEASONS = {"spring": Season.SPRING, "fall": Season.FALL, "autumn": Season.FALL}


def _start(value: object, where: str) -> tuple[int, Season]:
    if value is None:
        return 1901, Season.SPRING
    start = _mapping(value, f"{where}: start")
    year = start.get("year", 1901)
    if not isinstance(year, int) or isinstance(year, bool) or not 1 <= year <= 99999:
        raise VariantError(f"{where}: start.year must be a year such as 1901")
    season = start.get("season", "spring")
    if not isinstance(season, str) or season.lower() not in _SEASONS:
        raise VariantError(f"{where}: start.season must be spring or fall")
    return year, _SEASONS[season.lower()]


def _letters(value: object, where: str) -> dict[str, str] | None:
    if value is None:
        return None
    letters = _mapping(value, f"{where}: letters")
    for power, letter in letters.items():
        if not isinstance(letter, str):
            raise VariantError(f"{where}: the letter of {power} must be a string")
    return {power: str(letter) for power, letter in letters.items()}


def _centre_owners(value: object, where: str) -> dict[str, tuple[str, ...]] | None:
    if value is None:
        return None
    owners = _mapping(value, f"{where}: centre_owners")
    return {power: _strings(centres, f"{where}: centre_owners of {power}") if centres else () for power, centres in owners.items()}


def _info(value: object, where: str) -> dict[str, str]:
    if value is None:
        return {}
    info = _mapping(value, f"{where}: info")
    for language, text in info.items():
        if language not in ("en", "fr"):
            raise VariantError(f"{where}: info is given in {language!r}; only en and fr are read")
        _string(text, f"{where}: info.{language}")
    return {language: str(text) for language, text in info.items()}


@functools.cache
def _names_by_power() -> dict[str, PowerNames]:
    names: dict[str, PowerNames] = {}
    for variant in (*available_variants(), *SCENARIO_DIRECTORIES):  # the Renaissance game's Papacy too
        for power, power_names in load_map(variant).power_names.items():
            names.setdefault(power, power_names)
    return names


def power_names_of(power: str) -> PowerNames:
    """The names of a power known to any variant (plain names for an unknown one).

    For reports that name a power without a map at hand; a variant that gives
    one power other names than another variant does wins only for its map
    (:meth:`GameMap.power_display_name`).
    """
    if power.upper() == NEUTRAL:
        return NEUTRAL_NAMES
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
