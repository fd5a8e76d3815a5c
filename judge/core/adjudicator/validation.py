"""Is an order legal on this board? And if so, what exactly does it ask?

An order is *legal* when, knowing the board but none of the other orders, it
could be carried out (DATC 4.E.1): the unit exists and is the player's, the
destination can be reached, a support could be given, a convoy could be
needed. Illegal orders are ignored (the unit holds) and reported with one of
the precise errors of judge.core.errors, whose text is a sentence for the
player. The mail layer calls :func:`validate` to acknowledge orders; the
phase engines call :func:`interpret` to get the order in the form they
execute (coast completed, convoy request noted).

Whether a legal order then *works* (a support matching the supported order,
a convoy actually carrying its army) is decided during adjudication.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from judge.core.adjudicator.board import Board
from judge.core.adjudicator.convoys import (
    can_be_convoyed_between,
    fleets_on_minimal_routes,
    route_exists,
)
from judge.core.adjudicator.retreat_options import retreat_options
from judge.core.adjudicator.rules import DEFAULT_RULES, Rules
from judge.core.errors import (
    N_,
    AmbiguousCoastError,
    ArmyToSeaError,
    BuildNotHomeCentreError,
    BuildNotOwnedError,
    BuildOccupiedError,
    FleetInlandError,
    IllegalConvoyError,
    IllegalRetreatError,
    IllegalSupportError,
    Listing,
    Message,
    NoConvoyRouteError,
    NoSuchUnitError,
    NotAdjacentError,
    NotDislodgedError,
    NotYourUnitError,
    OrderError,
    Place,
    TooManyBuildsError,
    TooManyRemovalsError,
    WrongPhaseError,
)
from judge.core.geography import GameMap, Terrain
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
from judge.core.phase import PhaseType
from judge.core.position import DislodgedUnit, Position
from judge.core.units import Unit, UnitRef, UnitType, coast_of, province_of

# Enum members read through the class cost ~0.2 us each on Python 3.11: bind them once.
_ARMY = UnitType.ARMY
_FLEET = UnitType.FLEET
_WATER = Terrain.WATER
_LAND = Terrain.LAND
_MOVEMENT_PHASE = PhaseType.MOVEMENT
_RETREAT_PHASE = PhaseType.RETREAT

HOLD = "hold"
MOVE = "move"
SUPPORT_HOLD = "support_hold"
SUPPORT_MOVE = "support_move"
CONVOY = "convoy"
RETREAT = "retreat"
DISBAND = "disband"
BUILD = "build"
REMOVE = "remove"
WAIVE = "waive"

_ROLES = {
    "support": N_("There is no unit in {location} to support."),
    "convoy": N_("There is no unit in {location} to convoy."),
}

_PHASE_WORD = {PhaseType.MOVEMENT: "movement", PhaseType.RETREAT: "retreat", PhaseType.ADJUSTMENT: "adjustment"}


class Interpreted(NamedTuple):
    """A legal order in the form the engine executes.

    ``kind`` is one of the constants of this module (a ``Move`` in a retreat
    phase is a RETREAT, a ``Disband`` in an adjustment phase a REMOVE...).
    ``unit`` is the acting unit as it stands (``None`` for builds and
    waives); ``target`` the destination: a location with its coast for moves,
    retreats and builds, a province for supports and convoys; ``other`` the
    supported or convoyed unit; ``via_convoy`` whether a move must go by
    convoy (ordered so, or its destination is not adjacent).
    """

    power: str
    order: Order
    kind: str
    unit: Unit | None
    target: str | None = None
    other: Unit | None = None
    via_convoy: bool = False
    build_type: UnitType | None = None
    via_rail: bool = False
    rail_path: tuple[str, ...] = ()
    rail_unowned: frozenset[str] = frozenset()


def validate(
    position: Position,
    power: str,
    order: Order,
    game_map: GameMap,
    rules: Rules = DEFAULT_RULES,
) -> OrderError | None:
    """The reason ``order`` from ``power`` is illegal in ``position``, or ``None`` if it is legal."""
    try:
        interpret(Board(position, game_map), power, order, rules)
    except OrderError as error:
        return error
    return None


def interpret(board: Board, power: str, order: Order, rules: Rules) -> Interpreted:
    """The legal order ``order`` as the engine will execute it; raises an OrderError if illegal."""
    phase_type = board.phase_type
    if phase_type is _MOVEMENT_PHASE:
        return _movement(board, power, order, rules)
    if phase_type is _RETREAT_PHASE:
        return _retreat(board, power, order, rules)
    return _adjustment(board, power, order, rules)


def interpreter(phase_type: PhaseType) -> Callable[[Board, str, Order, Rules], Interpreted]:
    """What :func:`interpret` does for every order of a board in a phase of ``phase_type``."""
    if phase_type is _MOVEMENT_PHASE:
        return _movement
    if phase_type is _RETREAT_PHASE:
        return _retreat
    return _adjustment


def _place(board: Board, location: str) -> Place:
    """A location named in an error: its code for translations, its English name as the board writes it."""
    return Place(location, board.name(location))


def _unit(board: Board, unit: Unit, *, capital: bool = False) -> Message:
    """``"The army in Paris"``: a unit named in an error, as :meth:`Board.unit_name` writes it."""
    where = _place(board, unit.location)
    if unit.type is _ARMY:
        return Message(N_("The army in {place}") if capital else N_("the army in {place}"), place=where)
    return Message(N_("The fleet in {place}") if capital else N_("the fleet in {place}"), place=where)


# ------------------------------------------------------------------ movement


def _movement(board: Board, power: str, order: Order, rules: Rules) -> Interpreted:
    kind = type(order)
    if kind is Move:
        return _move(board, power, order, rules)  # type: ignore[arg-type]
    if kind is Hold:
        return Interpreted(power, order, HOLD, _own_unit(board, power, order.unit))  # type: ignore[union-attr]
    if kind is SupportMove:
        return _support_move(board, power, order)  # type: ignore[arg-type]
    if kind is SupportHold:
        return _support_hold(board, power, order)  # type: ignore[arg-type]
    # Subclasses (none in the judge; the classes are open) and the other kinds, the long way.
    if isinstance(order, Move):
        return _move(board, power, order, rules)
    if isinstance(order, SupportMove):
        return _support_move(board, power, order)
    if isinstance(order, Hold):
        return Interpreted(power, order, HOLD, _own_unit(board, power, order.unit))
    if isinstance(order, SupportHold):
        return _support_hold(board, power, order)
    if isinstance(order, Convoy):
        return _convoy(board, power, order)
    raise WrongPhaseError(str(order), "movement")


def _own_unit(board: Board, power: str, ref: UnitRef) -> Unit:
    """The unit an order names: the coast and unit type written are not checked (DATC 4.B.5, 4.C.2)."""
    location = ref.location
    province = board.where.get(location) or province_of(location)
    unit = board.unit_at.get(province)
    if unit is None:
        raise NoSuchUnitError(_place(board, province))
    if unit.power != power:
        raise NotYourUnitError(_place(board, province), unit.power)
    return unit


def _other_unit(board: Board, ref: UnitRef, role: str) -> Unit:
    location = ref.location
    province = board.where.get(location) or province_of(location)
    unit = board.unit_at.get(province)
    if unit is None:
        raise NoSuchUnitError(_place(board, province), Message(_ROLES[role], location=_place(board, province)))
    return unit


def _known_province(board: Board, source: Unit, destination: str) -> str:
    province = board.where.get(destination) or province_of(destination)
    if province not in board.topo.terrain:
        raise NotAdjacentError(
            _place(board, source.location), destination,
            Message(N_("There is no province {destination} on this map."), destination=destination),
        )
    return province


def _move(board: Board, power: str, order: Move, rules: Rules) -> Interpreted:
    unit = _own_unit(board, power, order.unit)
    game_map = board.game_map
    topo = board.topo
    destination = _known_province(board, unit, order.destination)
    source = topo.province[unit.location]
    if destination == source:
        raise NotAdjacentError(
            _place(board, unit.location), _place(board, destination),
            Message(N_("A unit cannot move to the province it is in.")),
        )
    if unit.type is _ARMY:
        if topo.terrain[destination] is _WATER:
            raise ArmyToSeaError(_place(board, destination))
        adjacent = destination in topo.army[source]
        wants_convoy = order.via_convoy or bool(order.route)
        if adjacent and not wants_convoy:
            return Interpreted(power, order, MOVE, unit, destination)
        rail_path = None if adjacent or wants_convoy else _railway_path(board, power, source, destination)
        if rail_path is not None:
            owned = board.position.centers.get(power, frozenset())
            unowned = frozenset(p for p in rail_path if game_map.is_supply_center(p) and p not in owned)
            return Interpreted(
                power, order, MOVE, unit, destination, via_rail=True, rail_path=rail_path, rail_unowned=unowned
            )
        if not can_be_convoyed_between(game_map, source, destination):
            raise NotAdjacentError(_place(board, unit.location), _place(board, destination))
        if not route_exists(game_map, source, destination, board.fleet_provinces()):
            if adjacent or wants_convoy:
                raise NoConvoyRouteError(_place(board, source), _place(board, destination))
            raise NotAdjacentError(_place(board, unit.location), _place(board, destination))
        return Interpreted(power, order, MOVE, unit, destination, via_convoy=True)
    if topo.terrain[destination] is _LAND:
        raise FleetInlandError(_place(board, destination))
    target = _fleet_target(board, unit.location, order.destination, destination, rules)
    return Interpreted(power, order, MOVE, unit, target)


def _railway_path(board: Board, power: str, source: str, destination: str) -> tuple[str, ...] | None:
    """The provinces an army of ``power`` passes on the variant's railway from ``source``, or None.

    None unless both ends are on the line and the railway is ``power``'s
    (special rule ``railway``). Whether the line is clear is decided with the
    other orders of the turn (:mod:`judge.core.adjudicator.movement`).
    """
    railway = board.game_map.special.railway
    if railway is None or railway.power != power:
        return None
    return railway.path_between(source, destination)


def _fleet_target(board: Board, source: str, written: str, destination: str, rules: Rules) -> str:
    """The exact location a fleet at ``source`` is sent to, completing or refusing a missing coast."""
    topo = board.topo
    moves = topo.fleet[source]
    coasts = topo.coasts[destination]
    if not coasts:
        if destination in moves:
            return destination
        raise NotAdjacentError(_place(board, source), _place(board, destination))
    coast = coast_of(written)
    if coast in coasts:
        if written in moves:
            return written
        raise NotAdjacentError(_place(board, source), _place(board, written))
    # A coast that the province does not have is garbage and ignored (DATC 4.B.6).
    reachable = [loc for loc in (f"{destination}/{c}" for c in coasts) if loc in moves]
    if not reachable:
        raise NotAdjacentError(_place(board, source), _place(board, destination))
    if len(reachable) > 1 and rules.missing_coast == "fail":
        raise AmbiguousCoastError(_place(board, destination), tuple(coast_of(r) or r for r in reachable))
    return reachable[0]


def _can_reach(board: Board, unit: Unit, province: str) -> bool:
    """Whether ``unit`` could move to ``province`` by itself (any coast), as a support requires."""
    if unit.type is _ARMY:
        return province in board.topo.army.get(unit.location, ())
    return province in board.topo.fleet_reach.get(unit.location, ())


def _support_hold(board: Board, power: str, order: SupportHold) -> Interpreted:
    unit = _own_unit(board, power, order.unit)
    supported = _other_unit(board, order.supported, "support")
    if supported is unit:
        raise IllegalSupportError(Message(N_("A unit cannot support itself.")))
    where = board.topo.province[supported.location]
    if not _can_reach(board, unit, where):
        raise NotAdjacentError(
            _place(board, unit.location),
            _place(board, where),
            Message(N_("{unit} cannot support {province}: it could not move there itself."),
                    unit=_unit(board, unit, capital=True), province=_place(board, where)),
        )
    return Interpreted(power, order, SUPPORT_HOLD, unit, where, supported)


def _support_move(board: Board, power: str, order: SupportMove) -> Interpreted:
    unit = _own_unit(board, power, order.unit)
    supported = _other_unit(board, order.supported, "support")
    if supported is unit:
        raise IllegalSupportError(Message(N_("A unit cannot support its own move.")))
    destination = _known_province(board, unit, order.destination)
    if destination == board.topo.province[supported.location]:
        raise IllegalSupportError(Message(N_("{unit} is already there."), unit=_unit(board, supported, capital=True)))
    if not _can_reach(board, unit, destination):
        raise NotAdjacentError(
            _place(board, unit.location),
            _place(board, destination),
            Message(N_("{unit} cannot support a move to {province}: it could not move there itself."),
                    unit=_unit(board, unit, capital=True), province=_place(board, destination)),
        )
    if not _supported_can_reach(board, supported, destination, unit):
        raise IllegalSupportError(
            Message(N_("{unit} cannot reach {province}."),
                    unit=_unit(board, supported, capital=True), province=_place(board, destination))
        )
    # A coast named in the support must match the fleet's move (DATC 4.B.4, 6.B.9); none is fine (6.B.15).
    target = destination
    if supported.type is _FLEET and board.topo.coasts[destination]:
        coast = coast_of(order.destination)
        if coast in board.topo.coasts[destination]:
            target = f"{destination}/{coast}"
    return Interpreted(power, order, SUPPORT_MOVE, unit, target, supported)


def _supported_can_reach(board: Board, supported: Unit, destination: str, supporter: Unit) -> bool:
    if _can_reach(board, supported, destination):
        return True
    if supported.type is _FLEET:
        return False
    railway = board.game_map.special.railway
    if (
        railway is not None
        and railway.power == supported.power
        and railway.path_between(supported.province, destination) is not None
    ):
        return True
    # By convoy, but not through the supporter: a fleet cannot support and convoy (DATC 6.D.31).
    fleets = board.fleet_provinces() - {supporter.province}
    return route_exists(board.game_map, supported.province, destination, fleets)


def _convoy(board: Board, power: str, order: Convoy) -> Interpreted:
    unit = _own_unit(board, power, order.unit)
    game_map = board.game_map
    if unit.type is not _FLEET:
        raise IllegalConvoyError(Message(N_("Only fleets can convoy.")))
    if unit.province not in board.topo.seas:  # a sea, or a coast under the rule coastal_convoys
        raise IllegalConvoyError(
            Message(N_("Only a fleet at sea can convoy; {province} is not a sea."), province=_place(board, unit.province))
        )
    convoyed = _other_unit(board, order.convoyed, "convoy")
    if convoyed.type is not _ARMY:
        raise IllegalConvoyError(Message(N_("Only armies can be convoyed.")))
    destination = _known_province(board, unit, order.destination)
    if not can_be_convoyed_between(game_map, convoyed.province, destination):
        raise IllegalConvoyError(
            Message(N_("An army cannot be convoyed from {source} to {destination}."),
                    source=_place(board, convoyed.province), destination=_place(board, destination))
        )
    closed = board.closed_steps.get(convoyed.location, ()) if board.closed_steps else ()
    useful = fleets_on_minimal_routes(game_map, convoyed.province, destination, board.fleet_provinces(), closed)
    if unit.province not in useful:
        raise IllegalConvoyError(
            Message(N_("{unit} is on no convoy route from {source} to {destination}."),
                    unit=_unit(board, unit, capital=True),
                    source=_place(board, convoyed.province), destination=_place(board, destination))
        )
    return Interpreted(power, order, CONVOY, unit, destination, convoyed)


# ------------------------------------------------------------------- retreat


def _dislodged(board: Board, power: str, ref: UnitRef) -> DislodgedUnit:
    province = province_of(ref.location)
    dislodged = board.dislodged_at.get(province)
    if dislodged is None:
        if province in board.unit_at:
            raise NotDislodgedError(_place(board, province))
        raise NoSuchUnitError(_place(board, province))
    if dislodged.unit.power != power:
        raise NotYourUnitError(_place(board, province), dislodged.unit.power)
    return dislodged


def _retreat(board: Board, power: str, order: Order, rules: Rules) -> Interpreted:
    if isinstance(order, Disband | Remove):
        return Interpreted(power, order, DISBAND, _dislodged(board, power, order.unit).unit)
    if isinstance(order, Retreat | Move) and not (isinstance(order, Move) and order.wants_convoy):
        dislodged = _dislodged(board, power, order.unit)
        target = retreat_target(board, dislodged, order.destination, rules)
        return Interpreted(power, order, RETREAT, dislodged.unit, target)
    raise WrongPhaseError(str(order), "retreat")


def retreat_target(board: Board, dislodged: DislodgedUnit, written: str, rules: Rules) -> str:
    """The exact location of a legal retreat to ``written``; raises IllegalRetreatError otherwise."""
    unit = dislodged.unit
    options = retreat_options(board, dislodged, rules)
    province = province_of(written)
    matching = [loc for loc in options if province_of(loc) == province]
    coast = coast_of(written)
    if unit.type is _FLEET and coast is not None and board.game_map.is_split(province):
        matching = [loc for loc in matching if loc == written]
    if not matching:
        here = {"unit": _unit(board, unit, capital=True), "province": _place(board, written)}
        raise IllegalRetreatError(
            Message(N_("{unit} cannot retreat to {province}; it may retreat to {options}."),
                    options=Listing(tuple(_place(board, o) for o in options), ", "), **here)
            if options
            else Message(N_("{unit} cannot retreat to {province}; it has no retreat."), **here)
        )
    if len(matching) > 1 and rules.missing_coast == "fail":
        raise AmbiguousCoastError(_place(board, province), tuple(coast_of(m) or m for m in matching))
    return matching[0]


# ---------------------------------------------------------------- adjustment


def builds_owed(position: Position, power: str) -> int:
    """Centres minus units: positive means builds, negative removals."""
    centres = len(position.centers.get(power, frozenset()))
    units = sum(1 for unit in position.units if unit.power == power)
    return centres - units


def _adjustment(board: Board, power: str, order: Order, rules: Rules) -> Interpreted:
    owed = board.owed(power)
    if isinstance(order, Build):
        if owed <= 0:
            raise TooManyBuildsError(0)
        location, build_type = build_location(board, power, order, rules)
        return Interpreted(power, order, BUILD, None, location, build_type=build_type)
    if isinstance(order, Waive):
        if owed <= 0:
            raise TooManyBuildsError(0)
        return Interpreted(power, order, WAIVE, None)
    if isinstance(order, Remove | Disband):
        if owed >= 0:
            raise TooManyRemovalsError(0)
        return Interpreted(power, order, REMOVE, _own_unit(board, power, order.unit))
    raise WrongPhaseError(str(order), "adjustment")


def build_location(board: Board, power: str, order: Build, rules: Rules) -> tuple[str, UnitType]:
    """Where the unit would stand; raises if the centre cannot take it (ignoring other builds)."""
    game_map = board.game_map
    province_code = province_of(order.location)
    province = game_map.provinces.get(province_code)
    if province is None:
        raise BuildNotHomeCentreError(Place(order.location, order.location))
    owned = board.position.centers.get(power, frozenset())
    if not game_map.can_build_in(province_code, power, owned):
        raise BuildNotHomeCentreError(_place(board, province_code))
    if province_code not in owned:
        raise BuildNotOwnedError(_place(board, province_code))
    if province_code in board.unit_at:
        raise BuildOccupiedError(_place(board, province_code))
    if order.type is _ARMY:
        if province.terrain is _WATER:
            raise ArmyToSeaError(_place(board, province_code))
        return province_code, _ARMY
    if province.terrain is _LAND:
        raise FleetInlandError(_place(board, province_code))
    if not province.coasts:
        return province_code, _FLEET
    coast = coast_of(order.location)
    if coast in province.coasts:
        return order.location, _FLEET
    if rules.missing_coast == "first":
        return f"{province_code}/{province.coasts[0]}", _FLEET
    raise AmbiguousCoastError(_place(board, province_code), province.coasts)


def phase_word(phase_type: PhaseType) -> str:
    return _PHASE_WORD[phase_type]
