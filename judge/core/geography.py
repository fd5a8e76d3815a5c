"""The board as an immutable graph: provinces, coasts, and who may move where.

A :class:`GameMap` is built once per variant (see :mod:`judge.core.variants`)
and then only queried, millions of times during adjudication, so everything
a query needs is precomputed into dicts of frozensets and every query is one
or two hash lookups. Nothing here can change after construction: a map can
be shared by every game and thread without locks.

Vocabulary (see :mod:`judge.core.units`): a *province* is a code (``"SPA"``);
a *location* is where a unit stands, the province code or, for a fleet on a
province with split coasts, code and coast (``"SPA/NC"``). Armies move between
provinces; fleets move between locations.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from judge.core.errors import CoastError, UnknownProvinceError, VariantError
from judge.core.phase import Phase, PhaseType, Season
from judge.core.special_rules import NEUTRAL, NO_SPECIAL_RULES, SpecialRules
from judge.core.units import Unit, UnitType, coast_of, province_of

_EMPTY: frozenset[str] = frozenset()


class Terrain(StrEnum):
    """What a province is made of; it decides which unit types may stand there."""

    LAND = "land"  # inland: armies only
    COAST = "coast"  # land touching the sea: armies and fleets
    WATER = "water"  # sea: fleets only


@dataclass(frozen=True, slots=True)
class Province:
    """One province, with the names players may use for it.

    ``coasts`` is empty unless the province has split coasts (``("NC", "SC")``
    for St Petersburg): only then must a fleet there name its coast.
    ``french_name`` and ``french_abbreviation`` are what French reports show;
    the ``*_aliases``/``french_names``/``french_abbreviations`` tuples are the
    other spellings :mod:`judge.core.names` accepts on input.
    """

    code: str
    name: str
    terrain: Terrain
    supply_center: bool
    home_of: str | None
    coasts: tuple[str, ...]
    french_name: str
    french_abbreviation: str | None
    english_aliases: tuple[str, ...] = ()
    french_names: tuple[str, ...] = ()
    french_abbreviations: tuple[str, ...] = ()

    @property
    def is_split(self) -> bool:
        return bool(self.coasts)

    @property
    def fleet_locations(self) -> tuple[str, ...]:
        """Where a fleet may stand in this province: none inland, one per coast when split."""
        if self.terrain is Terrain.LAND:
            return ()
        if self.coasts:
            return tuple(f"{self.code}/{coast}" for coast in self.coasts)
        return (self.code,)


@dataclass(frozen=True, slots=True)
class PowerNames:
    """How a power is written in reports and read in mail, in English and French.

    ``french_adjective`` is the feminine form, the one reports need ("l'armée
    autrichienne", "la flotte anglaise": both unit words are feminine).
    ``aliases`` are other words players use for it (masculine forms, old
    names); the reader accepts any of these, and the names and adjectives,
    cut down to two letters or more.
    """

    name: str
    adjective: str
    french_name: str
    french_adjective: str
    aliases: tuple[str, ...] = ()

    @classmethod
    def plain(cls, power: str) -> PowerNames:
        """Names for a variant file that gives none: the power's code in title case."""
        title = power.title()
        return cls(title, title, title, title)

    def display(self, language: str = "en") -> str:
        return self.french_name if language == "fr" else self.name

    def display_adjective(self, language: str = "en") -> str:
        return self.french_adjective if language == "fr" else self.adjective

    def every_name(self) -> tuple[str, ...]:
        return (self.name, self.adjective, self.french_name, self.french_adjective, *self.aliases)


@dataclass(frozen=True, slots=True, eq=False)
class GameMap:
    """An immutable map with precomputed adjacency; build it with :meth:`GameMap.build`.

    Compared and hashed by identity (``eq=False``): maps come from a cache, one
    object per variant, and caches elsewhere (name tables) key on that object.

    Boolean queries (``army_adjacent``, ``fleet_adjacent``, ``can_hold``,
    ``is_*``) answer False for anything unknown, since "no" is a true answer
    there; queries returning sets or tuples raise :class:`UnknownProvinceError`
    for an unknown province and :class:`CoastError` for a coast the province
    does not have, because an empty answer would hide a caller's mistake.
    """

    name: str
    powers: tuple[str, ...]
    provinces: Mapping[str, Province] = field(repr=False)
    supply_centers: frozenset[str] = field(repr=False)
    home_centers: Mapping[str, frozenset[str]] = field(repr=False)
    starting_units: tuple[Unit, ...] = field(repr=False)
    starting_centers: Mapping[str, frozenset[str]] = field(repr=False)
    win_centers: int
    power_names: Mapping[str, PowerNames] = field(repr=False)
    _army: Mapping[str, frozenset[str]] = field(repr=False)
    _fleet: Mapping[str, frozenset[str]] = field(repr=False)
    _neighbours: Mapping[str, frozenset[str]] = field(repr=False)
    _locations: frozenset[str] = field(repr=False)
    letters: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), repr=False)
    first_phase: Phase = field(default_factory=lambda: Phase(1901, 0))
    special: SpecialRules = NO_SPECIAL_RULES
    info: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), repr=False)
    title: str = ""

    # ------------------------------------------------------------------ build

    @classmethod
    def build(
        cls,
        *,
        name: str,
        powers: Iterable[str],
        provinces: Iterable[Province],
        army_adjacency: Mapping[str, Iterable[str]],
        fleet_adjacency: Mapping[str, Iterable[str]],
        starting_units: Iterable[Unit],
        win_centers: int,
        power_names: Mapping[str, PowerNames] | None = None,
        letters: Mapping[str, str] | None = None,
        start_year: int = 1901,
        start_season: Season = Season.SPRING,
        centre_owners: Mapping[str, Iterable[str]] | None = None,
        special: SpecialRules = NO_SPECIAL_RULES,
        info: Mapping[str, str] | None = None,
        title: str = "",
    ) -> GameMap:
        """Check the data and precompute the lookup tables.

        ``army_adjacency`` maps a province to the provinces an army reaches;
        ``fleet_adjacency`` maps a fleet location to the fleet locations it
        reaches. Both must be symmetric: a one-way border is a data error,
        never a feature, in every variant this judge plays. Raises
        :class:`VariantError` naming the first inconsistency found.
        """
        power_tuple = tuple(powers)
        if len(set(power_tuple)) != len(power_tuple) or not power_tuple:
            raise VariantError(f"variant {name}: powers must be distinct and non-empty")
        if NEUTRAL in power_tuple:
            raise VariantError(f"variant {name}: {NEUTRAL} is reserved for neutral units, not a power name")
        by_code: dict[str, Province] = {}
        for province in provinces:
            if province.code in by_code:
                raise VariantError(f"variant {name}: province {province.code} defined twice")
            _check_province(name, province, power_tuple)
            by_code[province.code] = province

        locations = frozenset(loc for p in by_code.values() for loc in (p.code, *p.fleet_locations))
        fleet_locations = frozenset(loc for p in by_code.values() for loc in p.fleet_locations)

        army = _symmetric_graph(
            name, "army", army_adjacency, valid=lambda code: code in by_code and by_code[code].terrain is not Terrain.WATER
        )
        fleet = _symmetric_graph(name, "fleet", fleet_adjacency, valid=lambda loc: loc in fleet_locations)
        for loc in sorted(fleet_locations):
            if not fleet.get(loc):
                coast = coast_of(loc)
                if coast is not None:
                    raise VariantError(
                        f"variant {name}: the {coast} coast of province {province_of(loc)} is unreachable "
                        f"(no fleet border lists {loc})"
                    )
                raise VariantError(f"variant {name}: province {loc} has no fleet border though fleets may stand there")

        neighbours: dict[str, set[str]] = {code: set() for code in by_code}
        for src, dsts in army.items():
            neighbours[src].update(dsts)
        for src, dsts in fleet.items():
            neighbours[province_of(src)].update(province_of(d) for d in dsts)

        supply_centers = frozenset(code for code, p in by_code.items() if p.supply_center)
        home: dict[str, frozenset[str]] = {
            power: frozenset(code for code, p in by_code.items() if p.home_of == power) for power in power_tuple
        }
        for power, centers in home.items():
            if not centers:
                raise VariantError(f"variant {name}: {power} has no home centre")
        if not 0 < win_centers <= len(supply_centers):
            raise VariantError(
                f"variant {name}: {win_centers} centres to win, but the map has {len(supply_centers)}"
            )
        owners = _centre_owners(name, centre_owners, home, power_tuple, supply_centers)
        _check_special(name, special, by_code, power_tuple, fleet)
        first_phase = Phase.of(start_season, start_year, PhaseType.MOVEMENT)

        game_map = cls(
            name=name,
            powers=power_tuple,
            provinces=MappingProxyType(by_code),
            supply_centers=supply_centers,
            home_centers=MappingProxyType(home),
            starting_units=tuple(starting_units),
            starting_centers=MappingProxyType(owners),
            win_centers=win_centers,
            power_names=MappingProxyType(
                {power: (power_names or {}).get(power) or PowerNames.plain(power) for power in power_tuple}
            ),
            _army=MappingProxyType(army),
            _fleet=MappingProxyType(fleet),
            _neighbours=MappingProxyType({k: frozenset(v) for k, v in neighbours.items()}),
            _locations=locations,
            letters=MappingProxyType(_letters(name, power_tuple, letters or {})),
            first_phase=first_phase,
            special=special,
            info=MappingProxyType(dict(info or {})),
            title=title,
        )
        game_map._check_starting_units()
        return game_map

    def power_display_name(self, power: str, language: str = "en") -> str:
        """``"France"`` / ``"France"``, ``"Germany"`` / ``"Allemagne"``: a power as reports write it."""
        names = self.power_names.get(power)
        if names is None and power == NEUTRAL:
            return "Neutre" if language == "fr" else "Neutral"
        return names.display(language) if names else power.title()

    def power_letter(self, power: str) -> str:
        """The one-letter code of ``power`` in this variant (``"F"`` for France)."""
        return self.letters[power]

    @property
    def opening_units(self) -> tuple[Unit, ...]:
        """The units on the board at the start: the powers' and, under ``neutral_units``, the neutral ones."""
        return self.starting_units + self.special.neutral_units

    def counts_as_centre(self, province: str, power: str) -> bool:
        """Whether ``province`` is a supply centre ``power`` can own (not Hong Kong for China)."""
        return province in self.supply_centers and power != NEUTRAL and self.special.counts_as_centre(province, power)

    def can_build_in(self, province: str, power: str, owned: frozenset[str] = frozenset()) -> bool:
        """Whether ``power``, owning ``owned``, may build in ``province`` when it owns it and it is free.

        Home centres only, or any owned centre under ``build_any_owned_centre``
        (with ``needs_home``: only while ``owned`` includes one of its home centres).
        """
        p = self.provinces.get(province)
        if p is None or not p.supply_center:
            return False
        if p.home_of == power:
            return True
        special = self.special
        if not special.build_any_owned_centre:
            return False
        return not special.builds_need_a_home_centre or bool(owned & self.home_centers.get(power, frozenset()))

    def _check_starting_units(self) -> None:
        occupied: set[str] = set()
        for unit in self.opening_units:
            if unit.power not in self.powers and unit.power != NEUTRAL:
                raise VariantError(f"variant {self.name}: starting unit {unit} of unknown power {unit.power}")
            if province_of(unit.location) not in self.provinces:
                raise VariantError(
                    f"variant {self.name}: starting unit {unit} of {unit.power} stands in unknown province "
                    f"{province_of(unit.location)}"
                )
            if not self.can_hold(unit.type, unit.location):
                raise VariantError(
                    f"variant {self.name}: the starting unit {unit} of {unit.power} cannot stand in province "
                    f"{unit.province}"
                )
            if unit.province in occupied:
                raise VariantError(f"variant {self.name}: two starting units in province {unit.province}")
            occupied.add(unit.province)

    # --------------------------------------------------------------- provinces

    def is_province(self, code: str) -> bool:
        """True for a province code as the map spells it (upper case, no coast)."""
        return code in self.provinces

    def province(self, code: str) -> Province:
        """The province of ``code``; a coast suffix (``"STP/NC"``) is ignored."""
        try:
            return self.provinces[province_of(code)]
        except KeyError:
            raise UnknownProvinceError(code) from None

    def is_location(self, loc: str) -> bool:
        """True for ``"PAR"``, ``"STP"`` and ``"STP/NC"``; false for ``"PAR/NC"`` or ``"STP/EC"``."""
        return loc in self._locations

    def is_water(self, province: str) -> bool:
        p = self.provinces.get(province_of(province))
        return p is not None and p.terrain is Terrain.WATER

    def is_coastal(self, province: str) -> bool:
        """Land touching the sea: both armies and fleets may stand there."""
        p = self.provinces.get(province_of(province))
        return p is not None and p.terrain is Terrain.COAST

    def is_inland(self, province: str) -> bool:
        """Land that touches no sea: armies only."""
        p = self.provinces.get(province_of(province))
        return p is not None and p.terrain is Terrain.LAND

    def is_land(self, province: str) -> bool:
        """Any land, inland or coastal: the provinces an army may stand on (not ``Terrain.LAND`` only)."""
        p = self.provinces.get(province_of(province))
        return p is not None and p.terrain is not Terrain.WATER

    def is_supply_center(self, province: str) -> bool:
        return province_of(province) in self.supply_centers

    def is_split(self, province: str) -> bool:
        """True for provinces whose coasts a fleet must name (STP, SPA, BUL on the Standard map)."""
        p = self.provinces.get(province_of(province))
        return p is not None and bool(p.coasts)

    def coasts(self, province: str) -> tuple[str, ...]:
        """The coasts a fleet must choose between in ``province`` (``("NC", "SC")``), or ``()``."""
        return self.province(province).coasts

    def fleet_locations(self, province: str) -> tuple[str, ...]:
        """Where a fleet may stand in ``province``: ``("STP/NC", "STP/SC")``, ``("BRE",)``, or ``()`` inland."""
        return self.province(province).fleet_locations

    def can_hold(self, unit_type: UnitType, location: str) -> bool:
        """Whether a unit of this type may stand on ``location`` exactly as written.

        Armies: land or coast, never with a coast suffix. Fleets: water or
        coast, and on a split-coast province only with one of its coasts.
        """
        if unit_type is UnitType.ARMY:
            p = self.provinces.get(location)
            return p is not None and p.terrain is not Terrain.WATER
        return location in self._fleet

    # --------------------------------------------------------------- movement

    def army_adjacent(self, src: str, dst: str) -> bool:
        """Whether an army moves from ``src`` to ``dst`` in one step (coasts are ignored)."""
        targets = self._army.get(src)
        if targets is None:
            targets = self._army.get(province_of(src), _EMPTY)
        return dst in targets or ("/" in dst and province_of(dst) in targets)

    def fleet_adjacent(self, src: str, dst: str) -> bool:
        """Whether a fleet at location ``src`` moves to location ``dst`` in one step.

        Both must be exact fleet locations: a bare split-coast province
        (``"SPA"``) is adjacent to nothing, since the fleet must name a coast.
        """
        return dst in self._fleet.get(src, _EMPTY)

    def adjacent(self, unit_type: UnitType, src: str, dst: str) -> bool:
        """:meth:`army_adjacent` or :meth:`fleet_adjacent` by unit type."""
        if unit_type is UnitType.ARMY:
            return self.army_adjacent(src, dst)
        return self.fleet_adjacent(src, dst)

    def army_moves(self, province: str) -> frozenset[str]:
        """Provinces an army in ``province`` reaches in one move (none from water)."""
        code = self.province(province).code
        return self._army.get(code, _EMPTY)

    def fleet_moves(self, location: str) -> frozenset[str]:
        """Locations a fleet at ``location`` reaches in one move, coast-qualified where split.

        Empty where no fleet can stand (inland, or a split-coast province
        given without its coast).
        """
        self._check_location(location)
        return self._fleet.get(location, _EMPTY)

    def fleet_coasts_toward(self, location: str, province: str) -> tuple[str, ...]:
        """The locations in ``province`` a fleet at ``location`` can reach, in the map's coast order.

        From ``"POR"`` toward ``"SPA"``: ``("SPA/NC", "SPA/SC")``; from ``"MAR"``:
        ``("SPA/SC",)``; toward a non-split province ``("X",)`` or ``()``. If
        ``province`` already names a coast, only that coast is considered.
        This is what lets an order that left out an unambiguous coast be
        completed, and an ambiguous one be refused.
        """
        reachable = self.fleet_moves(location)
        self._check_location(province)
        candidates = (province,) if coast_of(province) else self.province(province).fleet_locations
        return tuple(loc for loc in candidates if loc in reachable)

    def province_neighbours(self, province: str) -> frozenset[str]:
        """Every province bordering ``province``, for any unit type (for civil-disorder distances)."""
        return self._neighbours[self.province(province).code]

    def distances_from(self, sources: Iterable[str]) -> Mapping[str, int]:
        """Fewest province steps from any of ``sources`` to every reachable province, ignoring terrain.

        The classic Judge measures civil-disorder distances this way ("sans
        tenir compte de la nature des provinces"); breadth-first search.
        """
        distance: dict[str, int] = {}
        queue: deque[str] = deque()
        for source in sources:
            code = self.province(source).code
            if code not in distance:
                distance[code] = 0
                queue.append(code)
        while queue:
            current = queue.popleft()
            for nxt in self._neighbours[current]:
                if nxt not in distance:
                    distance[nxt] = distance[current] + 1
                    queue.append(nxt)
        return distance

    def _check_location(self, location: str) -> None:
        province = self.province(location)
        coast = coast_of(location)
        if coast is not None and coast not in province.coasts:
            raise CoastError(f"{province.name} has no coast {coast!r}")


OBSERVER_AND_MASTER_LETTERS = frozenset("OM")
"""Letters the Judge keeps for observers and the master: no power gets them."""


def default_letters(powers: Iterable[str], given: Mapping[str, str] | None = None) -> dict[str, str]:
    """Power -> one-letter code: the given ones, then the Judge's rule for the others.

    In map order, a power takes the first letter of its name not already
    taken (ITALY before INDIA: ITALY is I, INDIA takes N); a name all of whose
    letters are taken takes the first free letter of the alphabet, then the
    first free digit (Chaos has 34 powers). O and M are never given: they
    are the observers' and the master's.
    """
    given = dict(given or {})
    taken = set(given.values()) | OBSERVER_AND_MASTER_LETTERS
    result: dict[str, str] = {}
    power_list = list(powers)
    for power in power_list:
        if power in given:
            result[power] = given[power]
            continue
        spare = "ABCDEFGHIJKLNPQRSTUVWXYZ0123456789"
        letter = next((c for c in power.upper() if c.isalpha() and c not in taken), None)
        if letter is None:
            letter = next((c for c in spare if c not in taken), None)
        if letter is None:
            raise VariantError(f"{len(power_list)} powers are more than the 34 letters and digits a power code can be")
        taken.add(letter)
        result[power] = letter
    return result


def _letters(variant: str, powers: tuple[str, ...], given: Mapping[str, str]) -> dict[str, str]:
    for power, letter in given.items():
        if power not in powers:
            raise VariantError(f"variant {variant}: letters names unknown power {power}")
        if len(letter) != 1 or not letter.isalnum() or letter != letter.upper():
            raise VariantError(f"variant {variant}: the letter of {power} must be one capital letter or digit")
        if letter in OBSERVER_AND_MASTER_LETTERS:
            raise VariantError(f"variant {variant}: {power} cannot have letter {letter} (kept for observers and master)")
    if len(set(given.values())) != len(given):
        raise VariantError(f"variant {variant}: two powers share one letter")
    return default_letters(powers, given)


def _centre_owners(
    variant: str,
    given: Mapping[str, Iterable[str]] | None,
    home: Mapping[str, frozenset[str]],
    powers: tuple[str, ...],
    supply_centers: frozenset[str],
) -> dict[str, frozenset[str]]:
    """Centres owned at the start: the file's ``centre_owners``, or each power's home centres."""
    if given is None:
        return dict(home)
    owners: dict[str, frozenset[str]] = {}
    seen: dict[str, str] = {}
    for power, centres in given.items():
        if power not in powers:
            raise VariantError(f"variant {variant}: centre_owners names unknown power {power}")
        for centre in centres:
            if centre not in supply_centers:
                raise VariantError(
                    f"variant {variant}: centre_owners gives {power} province {centre}, which is not a supply centre"
                )
            if centre in seen:
                raise VariantError(f"variant {variant}: centre {centre} is owned by both {seen[centre]} and {power}")
            seen[centre] = power
        owners[power] = frozenset(centres)
    return owners


def _check_special(
    variant: str,
    special: SpecialRules,
    provinces: Mapping[str, Province],
    powers: tuple[str, ...],
    fleet: Mapping[str, frozenset[str]],
) -> None:
    """Every province and power a special rule names must be on the map."""
    hk = special.hong_kong
    if hk is not None:
        if hk.province not in provinces or not provinces[hk.province].supply_center:
            raise VariantError(f"variant {variant}: hong_kong names province {hk.province}, which is not a supply centre")
        if hk.not_for not in powers:
            raise VariantError(f"variant {variant}: hong_kong names unknown power {hk.not_for}")
    rail = special.railway
    if rail is not None:
        if rail.power not in powers:
            raise VariantError(f"variant {variant}: railway names unknown power {rail.power}")
        for code in rail.provinces:
            if code not in provinces or provinces[code].terrain is Terrain.WATER:
                raise VariantError(f"variant {variant}: railway names province {code}, which is not a land province")
    suez = special.suez_canal
    if suez is not None:
        if suez.province not in provinces or provinces[suez.province].terrain is not Terrain.COAST:
            raise VariantError(f"variant {variant}: suez_canal names province {suez.province}, which is not coastal")
        for sea in suez.seas:
            if sea not in fleet.get(suez.province, _EMPTY):
                raise VariantError(
                    f"variant {variant}: suez_canal joins {suez.province} to {sea}, but no fleet border lists it"
                )


def _check_province(variant: str, province: Province, powers: tuple[str, ...]) -> None:
    code = province.code
    if not code or code != code.upper() or "/" in code:
        raise VariantError(f"variant {variant}: bad province code {code!r}")
    if province.coasts and province.terrain is not Terrain.COAST:
        raise VariantError(f"variant {variant}: {code} has coasts but is not a coastal province")
    if len(province.coasts) == 1:
        raise VariantError(f"variant {variant}: {code} has a single named coast; leave coasts empty instead")
    if province.home_of is not None:
        if province.home_of not in powers:
            raise VariantError(f"variant {variant}: {code} is home of unknown power {province.home_of}")
        if not province.supply_center:
            raise VariantError(f"variant {variant}: home centre {code} of {province.home_of} is not a supply centre")


def _symmetric_graph(
    variant: str,
    kind: str,
    adjacency: Mapping[str, Iterable[str]],
    *,
    valid: Callable[[str], bool],
) -> dict[str, frozenset[str]]:
    graph: dict[str, frozenset[str]] = {}
    for src, dsts in adjacency.items():
        if not valid(src):
            raise VariantError(
                f"variant {variant}: {kind} borders are given for {src}, which is no province or coast where "
                f"{'an army' if kind == 'army' else 'a fleet'} can stand"
            )
        targets = frozenset(dsts)
        home = province_of(src)
        for dst in targets:
            if not valid(dst):
                raise VariantError(
                    f"variant {variant}: province {home} has a {kind} border to {dst}, which is an "
                    f"unknown code or no place {'an army' if kind == 'army' else 'a fleet'} can stand"
                )
            if province_of(dst) == home:
                raise VariantError(f"variant {variant}: {kind} adjacency {src}-{dst} stays in one province")
        graph[src] = targets
    for src, targets in graph.items():
        for dst in targets:
            if src not in graph.get(dst, _EMPTY):
                raise VariantError(
                    f"variant {variant}: one-way border: province {province_of(src)} lists {dst} as a {kind} "
                    f"border, but {dst} does not list {src}"
                )
    return graph
