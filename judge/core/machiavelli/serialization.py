"""A campaign's position as a JSON-ready dict and back: how the game will keep its board.

The format extends the positions of :mod:`judge.core.serialization` with what only this game
has::

    {"variant": "machiavelli", "phase": "U1454M",
     "units": [{"power": "FLORENCE", "type": "A", "loc": "SIE"}],
     "garrisons": {"SIE": "AUTONOMOUS", "VEN": "VENICE"},
     "control": {"provinces": {"SIE": "FLORENCE"}, "cities": {"SIE": "AUTONOMOUS"}},
     "sieges": {"SIE": {"power": "FLORENCE", "type": "A", "loc": "SIE"}},
     "countries": {"MILAN": "FRANCE", "NAPLES": "NAPLES"},
     "dislodged": [{"power": "MILAN", "type": "A", "loc": "GEN", "attacker_from": "MON",
                    "attacker_via_convoy": false, "retreats": ["GEN#"]}],
     "treasuries": {"FLORENCE": 12, "MILAN": 0},
     "loans": {"FLORENCE": [{"principal": 15, "interest": 8, "due": "U1456M"}]},
     "barred": ["NAPLES"],
     "chits": {"FLORENCE": ["MILAN", "TURKEY"], "MILAN": []},
     "rebellions": {"SLZ": {"against": "FRANCE", "city": true},
                    "ARE": {"against": "FLORENCE", "city": true, "province": false}},
     "famine": ["MIL"],
     "special_units": [{"power": "FLORENCE", "province": "FLO", "garrison": true,
                        "kind": "professionals"}]}

``treasuries`` is present exactly when the game plays with money (``loans`` and ``barred``, the
powers the bank no longer lends to, only when not empty; ``chits``, each power's assassination
chits, once a chit was spent or given: absent, each power holds the start's, one against each
other power); ``rebellions``, ``famine`` and
``special_units`` (each special unit by its owner, province and whether it is the garrison, and
its kind: ``militia``, ``mercenaries`` or ``professionals``) only when not empty.

Writing is deterministic (keys and units sorted); reading checks everything against the board
and raises one :class:`~judge.core.errors.PositionError` naming the fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from judge.core.errors import PhaseError, PositionError
from judge.core.machiavelli.board import AUTONOMOUS, Control, MachiavelliBoard
from judge.core.machiavelli.campaign import (
    MachiavelliPosition,
    city_space,
    is_city_space,
    live_sieges,
)
from judge.core.machiavelli.special_units import (
    NO_SPECIALS,
    SpecialKind,
    Specials,
    UnitPlace,
    specials_standing,
)
from judge.core.machiavelli.treasury import NO_UNREST, Finances, Loan, Rebellion, Unrest
from judge.core.phase import Phase, PhaseType
from judge.core.position import DislodgedUnit
from judge.core.units import Unit, UnitType, province_of


def position_to_json(position: MachiavelliPosition, variant: str = "machiavelli") -> dict[str, Any]:
    data: dict[str, Any] = {
        "variant": variant,
        "phase": str(position.phase),
        "units": [_unit(u) for u in sorted(position.units, key=lambda u: (u.power, u.location))],
        "garrisons": dict(sorted(position.garrisons.items())),
        "control": {
            "provinces": dict(sorted(position.control.provinces.items())),
            "cities": dict(sorted(position.control.cities.items())),
        },
        "sieges": {city: _unit(unit) for city, unit in sorted(position.sieges.items())},
    }
    if position.countries is not None:
        data["countries"] = dict(sorted(position.countries.items()))
    if position.dislodged:
        data["dislodged"] = [
            {
                **_unit(d.unit),
                "attacker_from": d.attacker_from,
                "attacker_via_convoy": d.attacker_via_convoy,
                "retreats": sorted(position.retreats.get(d.unit, ())),
            }
            for d in sorted(position.dislodged, key=lambda d: (d.unit.power, d.unit.location))
        ]
    if position.money is not None:
        money = position.money
        data["treasuries"] = dict(sorted(money.treasuries.items()))
        if money.loans:
            data["loans"] = {
                power: [{"principal": loan.principal, "interest": loan.interest, "due": str(loan.due)} for loan in loans]
                for power, loans in sorted(money.loans.items())
            }
        if money.barred:
            data["barred"] = sorted(money.barred)
        if money.chits is not None:
            data["chits"] = {power: sorted(held) for power, held in sorted(money.chits.items())}
    if position.unrest.rebellions:
        data["rebellions"] = {
            province: {"against": rebellion.against, "city": rebellion.city}
            | ({} if rebellion.province else {"province": False})
            for province, rebellion in sorted(position.unrest.rebellions.items())
        }
    if position.unrest.famine:
        data["famine"] = sorted(position.unrest.famine)
    # Only the special units still standing: a step that removes units (the dice, a siege) need
    # not know about them, and what is kept always reads back.
    specials = specials_standing(position.specials, position.units, position.garrisons, position.dislodged)
    if specials:
        data["special_units"] = [
            {"power": place.power, "province": place.province, "garrison": place.garrison, "kind": kind.value}
            for place, kind in sorted(specials.items())
        ]
    return data


def position_from_json(board: MachiavelliBoard, data: object) -> MachiavelliPosition:
    """Read :func:`position_to_json`'s format, checked against ``board``."""
    root = _mapping(data, "the position")
    try:
        phase = Phase.parse(_text(root.get("phase"), "phase"))
    except PhaseError as error:
        raise PositionError(str(error)) from None
    owners = (*board.game_map.powers, AUTONOMOUS)
    units = tuple(_read_unit(board, entry, f"unit {n + 1}") for n, entry in enumerate(_list(root.get("units", []), "units")))
    provinces = [unit.province for unit in units]
    if len(set(provinces)) != len(provinces):
        raise PositionError("two armies or fleets stand in one province")
    garrisons: dict[str, str] = {}
    for city, owner in _mapping(root.get("garrisons", {}), "garrisons").items():
        if not board.may_garrison(city, fortresses=True):
            raise PositionError(f"garrisons: {city} is no fortified city")
        if owner not in owners:
            raise PositionError(f"garrisons: {city} belongs to unknown power {owner!r}")
        if city in board.single_space and city in provinces:
            raise PositionError(f"garrisons: {city} holds one unit only")
        garrisons[city] = str(owner)
    control = _mapping(root.get("control", {}), "control")
    provinces_control = _owners(control.get("provinces", {}), "control.provinces", owners, board.game_map.is_land)
    cities_control = _owners(control.get("cities", {}), "control.cities", owners, lambda code: code in board.cities)
    unrest = _read_unrest(board, root)
    sieges: dict[str, Unit] = {}
    for city, entry in _mapping(root.get("sieges", {}), "sieges").items():
        unit = _read_unit(board, entry, f"the siege of {city}")
        if unit.province != city or city not in live_sieges({city: unit}, units, garrisons, unrest.rebellions):
            raise PositionError(f"the siege of {city}: no besieger of another owner's garrison, or of rebels, there")
        sieges[city] = unit
    dislodged: list[DislodgedUnit] = []
    retreats: dict[Unit, tuple[str, ...]] = {}
    for n, entry in enumerate(_list(root.get("dislodged", []), "dislodged")):
        if phase.type is not PhaseType.RETREAT:
            raise PositionError(f"dislodged units belong to retreat phases, not {phase}")
        unit = _read_unit(board, entry, f"dislodged unit {n + 1}")
        fields = _mapping(entry, "dislodged")
        attacker = _text(fields.get("attacker_from"), f"dislodged unit {n + 1}: attacker_from")
        places = tuple(str(p) for p in _list(fields.get("retreats", []), "retreats"))
        for place in places:
            known = place == city_space(unit.province) if is_city_space(place) else board.game_map.is_location(place)
            if not known:
                raise PositionError(f"dislodged unit {n + 1}: cannot retreat to {place}")
        dislodged.append(DislodgedUnit(unit, attacker, bool(fields.get("attacker_via_convoy", False))))
        retreats[unit] = places
    countries: dict[str, str] | None = None
    if "countries" in root:
        countries = {}
        for country, holder in _mapping(root["countries"], "countries").items():
            if country not in board.game_map.powers or holder not in board.game_map.powers:
                raise PositionError(f"countries: {country} held by {holder!r}: both must be powers")
            countries[country] = str(holder)
    return MachiavelliPosition(
        phase=phase,
        units=units,
        garrisons=MappingProxyType(garrisons),
        control=Control(MappingProxyType(provinces_control), MappingProxyType(cities_control)),
        sieges=MappingProxyType(sieges),
        dislodged=tuple(dislodged),
        retreats=MappingProxyType(retreats),
        countries=None if countries is None else MappingProxyType(countries),
        money=_read_money(board, root),
        unrest=unrest,
        specials=_read_specials(root, units, garrisons, dislodged),
    )


def _read_specials(
    root: Mapping[str, Any], units: tuple[Unit, ...], garrisons: Mapping[str, str], dislodged: list[DislodgedUnit]
) -> Specials:
    """The special units: each names its owner's army, fleet or garrison; a power has one at most."""
    entries = _list(root.get("special_units", []), "special_units")
    if not entries:
        return NO_SPECIALS
    field = {(unit.power, unit.province) for unit in units} | {(d.unit.power, d.unit.province) for d in dislodged}
    found: dict[UnitPlace, SpecialKind] = {}
    for n, entry in enumerate(entries):
        fields = _mapping(entry, f"special unit {n + 1}")
        power = _text(fields.get("power"), f"special unit {n + 1}: power")
        province = _text(fields.get("province"), f"special unit {n + 1}: province")
        garrison = fields.get("garrison", False)
        kind = fields.get("kind")
        if not isinstance(garrison, bool):
            raise PositionError(f"special unit {n + 1}: garrison must be true or false")
        if kind not in {k.value for k in SpecialKind}:
            raise PositionError(f"special unit {n + 1}: the kind is militia, mercenaries or professionals, not {kind!r}")
        there = garrisons.get(province) == power if garrison else (power, province) in field
        if not there:
            raise PositionError(f"special unit {n + 1}: {power} has no {'garrison' if garrison else 'army or fleet'} in {province}")
        place = UnitPlace(power, province, garrison)
        if place in found or (power != AUTONOMOUS and any(p.power == power for p in found)):
            raise PositionError(f"special units: {power} has more than one")
        found[place] = SpecialKind(str(kind))
    return MappingProxyType(found)


def _read_money(board: MachiavelliBoard, root: Mapping[str, Any]) -> Finances | None:
    if "treasuries" not in root:
        if "loans" in root or "barred" in root or "chits" in root:
            raise PositionError("loans, barred and chits need treasuries")
        return None
    powers = board.game_map.powers
    treasuries: dict[str, int] = {}
    for power, ducats in _mapping(root["treasuries"], "treasuries").items():
        if power not in powers:
            raise PositionError(f"treasuries: unknown power {power!r}")
        treasuries[power] = _ducats(ducats, f"the treasury of {power}")
    loans: dict[str, tuple[Loan, ...]] = {}
    for power, entries in _mapping(root.get("loans", {}), "loans").items():
        if power not in powers:
            raise PositionError(f"loans: unknown power {power!r}")
        found: list[Loan] = []
        for entry in _list(entries, f"the loans of {power}"):
            fields = _mapping(entry, f"a loan of {power}")
            try:
                due = Phase.parse(_text(fields.get("due"), f"a loan of {power}: due"))
            except PhaseError as error:
                raise PositionError(str(error)) from None
            if due.type is not PhaseType.MOVEMENT:
                raise PositionError(f"a loan of {power} falls due in a campaign, not {due}")
            loan = Loan(_ducats(fields.get("principal"), "a loan's principal"), _ducats(fields.get("interest"), "a loan's interest"), due)
            if not loan.owed:
                raise PositionError(f"a loan of {power} owes nothing")
            found.append(loan)
        if found:
            loans[power] = tuple(sorted(found, key=lambda loan: loan.due))
    barred = _list(root.get("barred", []), "barred")
    if not all(power in powers for power in barred):
        raise PositionError("barred names an unknown power")
    chits: dict[str, tuple[str, ...]] | None = None
    if "chits" in root:
        chits = {}
        for power, victims in _mapping(root["chits"], "chits").items():
            held = _list(victims, f"the chits of {power}")
            # A chit may be given to its own victim (a pledge of peace): he may never spend it.
            if power not in powers or not all(victim in powers for victim in held):
                raise PositionError(f"chits: {power!r} holds a chit against no power of the game")
            chits[power] = tuple(sorted(str(victim) for victim in held))
    return Finances(
        MappingProxyType(treasuries),
        MappingProxyType(loans),
        frozenset(str(p) for p in barred),
        None if chits is None else MappingProxyType(chits),
    )


def _read_unrest(board: MachiavelliBoard, root: Mapping[str, Any]) -> Unrest:
    rebellions: dict[str, Rebellion] = {}
    for province, entry in _mapping(root.get("rebellions", {}), "rebellions").items():
        fields = _mapping(entry, f"the rebellion of {province}")
        against = fields.get("against")
        city = fields.get("city", False)
        if not (board.game_map.is_province(province) and board.game_map.is_land(province)):
            raise PositionError(f"rebellions: {province} is no land province")
        if against not in board.game_map.powers:
            raise PositionError(f"the rebellion of {province} is against unknown power {against!r}")
        if not isinstance(city, bool) or (city and not board.may_garrison(province, fortresses=True)):
            raise PositionError(f"the rebellion of {province}: city must be true only for a fortified city")
        in_province = fields.get("province", True)
        if not isinstance(in_province, bool) or not (in_province or city):
            raise PositionError(f"the rebellion of {province} rebels nowhere: province and city both false")
        rebellions[province] = Rebellion(str(against), city, in_province)
    famine = _list(root.get("famine", []), "famine")
    for province in famine:
        if not isinstance(province, str) or not board.game_map.is_province(province) or not board.game_map.is_land(province):
            raise PositionError(f"famine: {province!r} is no land province")
    if not rebellions and not famine:
        return NO_UNREST
    return Unrest(MappingProxyType(rebellions), frozenset(famine))


def _ducats(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise PositionError(f"{what} must be a whole number of ducats, 0 or more")
    return value


def _unit(unit: Unit) -> dict[str, str]:
    return {"power": unit.power, "type": unit.type.value, "loc": unit.location}


def _read_unit(board: MachiavelliBoard, entry: object, what: str) -> Unit:
    fields = _mapping(entry, what)
    power = _text(fields.get("power"), f"{what}: power")
    kind = _text(fields.get("type"), f"{what}: type")
    location = _text(fields.get("loc"), f"{what}: loc")
    if power not in board.game_map.powers:
        raise PositionError(f"{what}: unknown power {power!r}")
    if kind not in ("A", "F"):
        raise PositionError(f"{what}: the type of an army or fleet is A or F, not {kind!r}")
    if not board.game_map.can_hold(UnitType(kind), location):
        raise PositionError(f"{what}: {kind} cannot stand in {location}")
    return Unit(power, UnitType(kind), location)


def _owners(value: object, what: str, owners: tuple[str, ...], valid: Any) -> dict[str, str]:
    result: dict[str, str] = {}
    for code, owner in _mapping(value, what).items():
        if not valid(province_of(code)):
            raise PositionError(f"{what}: {code} cannot be controlled")
        if owner not in owners:
            raise PositionError(f"{what}: {code} controlled by unknown power {owner!r}")
        result[code] = str(owner)
    return result


def _mapping(value: object, what: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise PositionError(f"{what} must be an object")
    return value


def _list(value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise PositionError(f"{what} must be a list")
    return value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise PositionError(f"{what} must be a non-empty string")
    return value
