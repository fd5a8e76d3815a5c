"""The board of the Renaissance game: the map, its cities and fortresses, home countries, garrisons.

A scenario is a variant file (docs/variants.md) with a few keys more, read here after
:func:`judge.core.variants.parse_map` has read and checked the map itself:

* a province's ``"city"``: ``{"income": N, "fortified": bool, "port": bool}``. Every
  city is a supply centre of the map (what victory counts) and every supply centre a
  city. ``income`` is the ducats the city yields (above 1: a major city);
* a province's ``"fortress"``: ``{"port": bool}``, a fortified place with no income, in
  play only when the master switches fortresses on;
* a province's ``"home_country"``: the power whose home country it belongs to, city or
  not (the map's ``"home"`` marks only the home cities, where builds go);
* the section ``"machiavelli"``: ``first_phase`` (the adjustments before the first
  spring), ``garrisons`` (each power's garrisons at the start), ``autonomous_garrisons``
  (garrisons of no power), ``treasuries`` (ducats at the start), ``single_space`` (a
  province whose city and province are one space, as Venice: one unit at most) and
  ``straits`` (a fleet in ``province`` holds the passage between the two ``joins``;
  ``first_edition_only``: not under the second edition's rules; ``closes``: what the passage is
  closed to for another power, among ``moves`` and ``supports`` of its fleets across it and
  ``convoys`` of its armies, or by its fleets, across it; left out: all three, the classic
  Judge's rule); ``variable_income``: the
  dice thrown each year for a home country (keyed by its power: whoever holds the country
  throws them) or for a city (keyed by its province: whoever controls the city), each as
  ``{"dice": N, "table": [six incomes, for a roll of 1 to 6]}``; ``second_edition_special_units``:
  each power's kinds of special unit (``militia``, ``mercenaries``, ``professionals``) it may
  build under the second edition's rules (SET MACH2; every power is named, maybe with none);
  ``famine_table``, ``plague_table`` (land provinces) and ``storm_table`` (seas): eleven rows of eleven
  cells, a province code or null, read at the row and column of two throws of two dice (2 to
  12), as :mod:`judge.core.machiavelli.disasters` plays them (a table left out: that disaster
  never strikes this scenario).

Control at the start: a power controls its home country, provinces and cities; a
garrison controls its city and, with no other unit there, its province (an autonomous
garrison as any other).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from judge.core.errors import PhaseError, VariantError
from judge.core.geography import GameMap, Terrain
from judge.core.machiavelli.special_units import SpecialKind
from judge.core.phase import Phase
from judge.core.units import province_of
from judge.core.variants import SCENARIO_DIRECTORIES, load_map, parse_map, scenario_data

AUTONOMOUS = "AUTONOMOUS"
"""The owner of an autonomous garrison: no power's, never a power of the variant."""

SCENARIO_DIRECTORY = "machiavelli"
"""Where the scenarios live inside the variants package (not among the playable variants yet)."""


@dataclass(frozen=True, slots=True)
class City:
    """A city, or a fortress (``fortress``: no income, in play only with fortresses on)."""

    province: str
    income: int
    fortified: bool
    port: bool
    fortress: bool = False

    @property
    def major(self) -> bool:
        """A city worth more than one ducat (the number printed in it on the board)."""
        return self.income > 1


STRAIT_CLOSES: tuple[str, ...] = ("moves", "supports", "convoys")
"""What a held strait may be closed to (a scenario's ``closes``): another power's fleets moving or
supporting across it, and convoys across it of another power's armies or by another power's fleets."""


@dataclass(frozen=True, slots=True)
class Strait:
    """A fleet in ``province`` holds the passage between the two fleet locations ``joins``
    (``first_edition_only``: not under the second edition's rules, SET MACH2), closed to other
    powers' ``closes`` (:data:`STRAIT_CLOSES`)."""

    province: str
    joins: tuple[str, str]
    first_edition_only: bool = False
    closes: frozenset[str] = frozenset(STRAIT_CLOSES)

    @property
    def step(self) -> frozenset[str]:
        """The two provinces the passage joins (coasts dropped): a convoy's step across it."""
        return frozenset(province_of(end) for end in self.joins)


@dataclass(frozen=True, slots=True)
class VariableIncome:
    """The variable income of a home country or a city: ``dice`` rolls of one die, each read in
    ``table`` (the ducats for a roll of 1 to 6)."""

    dice: int
    table: tuple[int, int, int, int, int, int]


DisasterTable = tuple[tuple[str | None, ...], ...]
"""Eleven rows (a throw of two dice, 2 to 12) of eleven cells (the same for the column): the
province struck at that row and column, or None; empty: the scenario has no such table."""


@dataclass(frozen=True, slots=True)
class Control:
    """Who controls each land province and each city (absent: no one)."""

    provinces: Mapping[str, str]
    cities: Mapping[str, str]


@dataclass(frozen=True, slots=True, eq=False)
class MachiavelliBoard:
    """A scenario: its :class:`GameMap` and what only this game has (see the module's docstring)."""

    game_map: GameMap
    cities: Mapping[str, City]
    fortresses: Mapping[str, City]
    home_countries: Mapping[str, frozenset[str]]
    garrisons: Mapping[str, str]
    treasuries: Mapping[str, int]
    single_space: frozenset[str]
    straits: tuple[Strait, ...]
    first_phase: Phase
    variable_income: Mapping[str, VariableIncome] = field(default_factory=lambda: MappingProxyType({}))
    second_edition_specials: Mapping[str, frozenset[SpecialKind]] = field(default_factory=lambda: MappingProxyType({}))
    """Under SET MACH2, the kinds of special unit each power may build (empty: no limit)."""
    famine_table: DisasterTable = ()
    plague_table: DisasterTable = ()
    storm_table: DisasterTable = ()

    def city(self, province: str, *, fortresses: bool = False) -> City | None:
        """The city of ``province``, or its fortress when fortresses are in play, or None."""
        found = self.cities.get(province)
        if found is None and fortresses:
            found = self.fortresses.get(province)
        return found

    def may_garrison(self, province: str, *, fortresses: bool = False) -> bool:
        """Whether a garrison may stand in ``province``: a fortified city, or a fortress in play."""
        city = self.city(province, fortresses=fortresses)
        return city is not None and city.fortified

    def is_port(self, province: str, *, fortresses: bool = False) -> bool:
        """Whether fleets are built in, and convert to and from a garrison of, ``province``."""
        city = self.city(province, fortresses=fortresses)
        return city is not None and city.port

    def home_country_of(self, province: str) -> str | None:
        for power, provinces in self.home_countries.items():
            if province in provinces:
                return power
        return None

    def starting_control(self) -> Control:
        """Control at the start: the home countries, and the cities (with provinces) of the garrisons."""
        provinces: dict[str, str] = {}
        cities: dict[str, str] = {}
        for power, home in self.home_countries.items():
            for province in home:
                provinces[province] = power
                if province in self.cities:
                    cities[province] = power
        field_units = {unit.province for unit in self.game_map.starting_units}
        for province, owner in self.garrisons.items():
            cities[province] = owner
            if province not in field_units:
                provinces[province] = owner
        return Control(MappingProxyType(provinces), MappingProxyType(cities))


def load_board(name: str = "machiavelli") -> MachiavelliBoard:
    """The scenario ``name`` shipped in ``judge/variants/machiavelli/`` (read once, cached)."""
    return _load_cached(name.strip().lower())


@functools.cache
def _load_cached(name: str) -> MachiavelliBoard:
    # The very map load_map(name) gives the flow, so the core's caches keyed by the map are shared.
    shipped = load_map(name) if SCENARIO_DIRECTORIES.get(name) == SCENARIO_DIRECTORY else None
    return parse_board(scenario_data(SCENARIO_DIRECTORY, name), source=name, game_map=shipped)


def parse_board(data: object, *, source: str = "<data>", game_map: GameMap | None = None) -> MachiavelliBoard:
    """Read a scenario from its decoded JSON; a :class:`VariantError` names the first fault.

    ``game_map``: the map already read from the same data (:func:`judge.core.variants.load_map`'s)."""
    if game_map is None:
        game_map = parse_map(data, source=source)
    assert isinstance(data, dict)  # parse_map refuses anything else
    where = f"scenario {game_map.name}"
    raw_provinces = data["provinces"]
    cities: dict[str, City] = {}
    fortresses: dict[str, City] = {}
    homes: dict[str, set[str]] = {power: set() for power in game_map.powers}
    for code, entry in raw_provinces.items():
        province = game_map.provinces[code]
        ctx = f"{where}: province {code}"
        if "city" in entry and "fortress" in entry:
            raise VariantError(f"{ctx}: a province has a city or a fortress, not both")
        if "city" in entry:
            cities[code] = _city(code, entry["city"], ctx, fortress=False)
        elif "fortress" in entry:
            fortresses[code] = _city(code, entry["fortress"], ctx, fortress=True)
        found = cities.get(code) or fortresses.get(code)
        if found is not None:
            if province.terrain is Terrain.WATER:
                raise VariantError(f"{ctx}: a sea has no city")
            if found.port and province.terrain is not Terrain.COAST:
                raise VariantError(f"{ctx}: a port must be on the coast")
        if (code in cities) != province.supply_center:
            raise VariantError(f"{ctx}: a province with a city is a supply centre, and only such a province")
        home = entry.get("home_country")
        if home is not None:
            if home not in homes:
                raise VariantError(f"{ctx}: home_country names unknown power {home!r}")
            if province.terrain is Terrain.WATER:
                raise VariantError(f"{ctx}: a sea belongs to no home country")
            homes[home].add(code)
        if province.home_of is not None and province.home_of != home:
            raise VariantError(f"{ctx}: a home city belongs to its power's home country")
    section = data.get("machiavelli")
    if not isinstance(section, dict):
        raise VariantError(f"{where}: the \"machiavelli\" section is missing")
    first_phase = _phase(section.get("first_phase"), where)
    single_space = frozenset(_codes(section.get("single_space", []), f"{where}: single_space"))
    for code in single_space:
        if code not in cities:
            raise VariantError(f"{where}: single_space names {code}, which has no city")
    fortified = {code for code, city in (*cities.items(), *fortresses.items()) if city.fortified}
    garrisons = _garrisons(section, game_map, fortified, single_space, where)
    return MachiavelliBoard(
        game_map=game_map,
        cities=MappingProxyType(cities),
        fortresses=MappingProxyType(fortresses),
        home_countries=MappingProxyType({power: frozenset(codes) for power, codes in homes.items()}),
        garrisons=MappingProxyType(garrisons),
        treasuries=MappingProxyType(_treasuries(section.get("treasuries"), game_map, where)),
        single_space=single_space,
        straits=_straits(section.get("straits", []), game_map, where),
        first_phase=first_phase,
        variable_income=MappingProxyType(_variable_income(section.get("variable_income", {}), game_map, cities, where)),
        second_edition_specials=MappingProxyType(
            _second_edition_specials(section.get("second_edition_special_units"), game_map, where)
        ),
        famine_table=_disaster_table(section.get("famine_table"), game_map, "famine_table", where, sea=False),
        plague_table=_disaster_table(section.get("plague_table"), game_map, "plague_table", where, sea=False),
        storm_table=_disaster_table(section.get("storm_table"), game_map, "storm_table", where, sea=True),
    )


def _second_edition_specials(value: object, game_map: GameMap, where: str) -> dict[str, frozenset[SpecialKind]]:
    if value is None:
        return {}
    kinds = {kind.value for kind in SpecialKind}
    if not isinstance(value, dict) or set(value) != set(game_map.powers):
        raise VariantError(f"{where}: second_edition_special_units must name each power once, and only the powers")
    found: dict[str, frozenset[SpecialKind]] = {}
    for power, named in value.items():
        if not isinstance(named, list) or not all(isinstance(n, str) and n in kinds for n in named):
            raise VariantError(f"{where}: second_edition_special_units of {power}: a list of {', '.join(sorted(kinds))}")
        found[power] = frozenset(SpecialKind(n) for n in named)
    return found


def _city(code: str, value: object, ctx: str, *, fortress: bool) -> City:
    if not isinstance(value, dict):
        raise VariantError(f"{ctx}: {'fortress' if fortress else 'city'} must be an object")
    port = value.get("port", False)
    if not isinstance(port, bool):
        raise VariantError(f"{ctx}: port must be true or false")
    if fortress:
        return City(code, 0, True, port, fortress=True)
    income = value.get("income")
    fortified = value.get("fortified", False)
    if not isinstance(income, int) or isinstance(income, bool) or income < 1:
        raise VariantError(f"{ctx}: a city's income is a whole number of ducats, 1 or more")
    if not isinstance(fortified, bool):
        raise VariantError(f"{ctx}: fortified must be true or false")
    return City(code, income, fortified, port)


def _phase(value: object, where: str) -> Phase:
    if not isinstance(value, str):
        raise VariantError(f"{where}: first_phase must be a phase such as W1453A")
    try:
        return Phase.parse(value)
    except PhaseError as error:
        raise VariantError(f"{where}: first_phase: {error}") from None


def _codes(value: object, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise VariantError(f"{what} must be a list of province codes")
    return list(value)


def _garrisons(
    section: Mapping[str, object],
    game_map: GameMap,
    fortified: set[str],
    single_space: frozenset[str],
    where: str,
) -> dict[str, str]:
    placed: dict[str, str] = {}
    owned = section.get("garrisons", {})
    if not isinstance(owned, dict):
        raise VariantError(f"{where}: garrisons must map each power to its cities")
    entries = [(power, code) for power, codes in owned.items() for code in _codes(codes, f"{where}: garrisons")]
    entries += [(AUTONOMOUS, code) for code in _codes(section.get("autonomous_garrisons", []), f"{where}: autonomous_garrisons")]
    field_units = {unit.province for unit in game_map.starting_units}
    for owner, code in entries:
        if owner != AUTONOMOUS and owner not in game_map.powers:
            raise VariantError(f"{where}: garrisons names unknown power {owner!r}")
        if code not in fortified:
            raise VariantError(f"{where}: a garrison stands in {code}, which is no fortified city")
        if code in placed:
            raise VariantError(f"{where}: two garrisons in the city of {code}")
        if code in single_space and code in field_units:
            raise VariantError(f"{where}: {code} holds one unit only, and has both a garrison and a field unit")
        placed[code] = owner
    return placed


def _treasuries(value: object, game_map: GameMap, where: str) -> dict[str, int]:
    if not isinstance(value, dict):
        raise VariantError(f"{where}: treasuries must give each power its ducats")
    if set(value) != set(game_map.powers):
        raise VariantError(f"{where}: treasuries must name each power once, and only the powers")
    for power, ducats in value.items():
        if not isinstance(ducats, int) or isinstance(ducats, bool) or ducats < 0:
            raise VariantError(f"{where}: the treasury of {power} must be a whole number of ducats, 0 or more")
    return dict(value)


def _straits(value: object, game_map: GameMap, where: str) -> tuple[Strait, ...]:
    if not isinstance(value, list):
        raise VariantError(f"{where}: straits must be a list")
    found: list[Strait] = []
    for entry in value:
        if not isinstance(entry, dict) or not isinstance(entry.get("province"), str):
            raise VariantError(f"{where}: each strait is an object with a province")
        province = entry["province"]
        joins = _codes(entry.get("joins"), f"{where}: strait of {province}: joins")
        if len(joins) != 2:
            raise VariantError(f"{where}: the strait of {province} joins exactly two places")
        if not game_map.is_coastal(province):
            raise VariantError(f"{where}: the strait is held from {province}, which is no coastal province")
        first, second = joins
        if not game_map.fleet_adjacent(first, second):
            raise VariantError(f"{where}: the strait of {province} joins {first} and {second}, which no fleet border joins")
        for end in joins:
            if not game_map.fleet_adjacent(province, end):
                raise VariantError(f"{where}: the strait of {province} reaches {end}, which does not border it")
        first_only = entry.get("first_edition_only", False)
        if not isinstance(first_only, bool):
            raise VariantError(f"{where}: the strait of {province}: first_edition_only must be true or false")
        closes = entry.get("closes", list(STRAIT_CLOSES))
        if not isinstance(closes, list) or not closes or any(c not in STRAIT_CLOSES for c in closes):
            raise VariantError(f"{where}: the strait of {province}: closes lists some of {', '.join(STRAIT_CLOSES)}")
        found.append(Strait(province, (first, second), first_only, frozenset(closes)))
    return tuple(found)


def _variable_income(value: object, game_map: GameMap, cities: Mapping[str, City], where: str) -> dict[str, VariableIncome]:
    if not isinstance(value, dict):
        raise VariantError(f"{where}: variable_income must map powers and cities to their dice")
    found: dict[str, VariableIncome] = {}
    for key, entry in value.items():
        ctx = f"{where}: variable_income of {key}"
        if key not in game_map.powers and key not in cities:
            raise VariantError(f"{ctx}: neither a power nor a city")
        if not isinstance(entry, dict):
            raise VariantError(f"{ctx} must be an object")
        dice, table = entry.get("dice"), entry.get("table")
        if not isinstance(dice, int) or isinstance(dice, bool) or dice < 1:
            raise VariantError(f"{ctx}: dice must be a whole number, 1 or more")
        if not isinstance(table, list) or len(table) != 6 or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in table
        ):
            raise VariantError(f"{ctx}: table must give six incomes of 0 ducats or more")
        found[key] = VariableIncome(dice, (table[0], table[1], table[2], table[3], table[4], table[5]))
    return found


def _disaster_table(value: object, game_map: GameMap, key: str, where: str, *, sea: bool) -> DisasterTable:
    if value is None:
        return ()
    ctx = f"{where}: {key}"
    if not isinstance(value, list) or len(value) != 11:
        raise VariantError(f"{ctx} must be eleven rows, for throws of 2 to 12")
    rows: list[tuple[str | None, ...]] = []
    for number, row in enumerate(value, start=2):
        if not isinstance(row, list) or len(row) != 11:
            raise VariantError(f"{ctx}: row {number} must have eleven cells, for throws of 2 to 12")
        for cell in row:
            if cell is None:
                continue
            if not isinstance(cell, str) or cell not in game_map.provinces:
                raise VariantError(f"{ctx}: row {number} names {cell!r}, which is no province")
            if game_map.is_water(cell) != sea:
                kind = "a sea" if sea else "a land province"
                raise VariantError(f"{ctx}: row {number} names {cell}, which is not {kind}")
        rows.append(tuple(row))
    return tuple(rows)
