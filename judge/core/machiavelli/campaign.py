"""One campaign of the Renaissance game: moves with garrisons, sieges, conversions and control.

The classic Judge "treats the city as if it were a separate space on the map", and so does this
module: each fortified city (and each fortress, when fortresses are in play) becomes a space of
its own, ``FLO#`` for the city of Florence, bordering only its province (for fleets too, at a
port). A garrison is a unit standing in that space; an army converting into the garrison moves
into it, a garrison converting into an army or a fleet moves out into its province. The ordinary
adjudicator (:func:`judge.core.adjudicator.adjudicate`) then decides every conflict by the rules
of Diplomacy, which the rules of the game keep: a conversion bounces against a move into the
same province as a move would, is supported from the neighbouring provinces as a move is, and a
garrison supports only into its own province because it borders nothing else.

What the plain adjudicator does not know is done around it:

* a conversion into a city needs the city to be fortified and empty (no garrison at the start
  of the campaign), so a garrison and a field unit of one province never trade places; a fleet
  converts to and from a garrison only at a port;
* sieges: an army (or, at a port, a fleet) in the province besieges a garrison of another owner
  for two consecutive campaigns; the second besiege eliminates the garrison. The besieger holds
  while it besieges; any other order in the second campaign holds and ends the siege, and LIFT
  SIEGE ends it too. A garrison whose city was besieged in the campaign before cannot convert.
  A siege lapses when its besieger is dislodged or leaves, or the garrison is gone;
* control: the last power whose unit was present in a province controls it; a garrison controls
  its city and, with no army or fleet beside it, its province; a field unit in a province whose
  city has no garrison controls the city too (:func:`update_control`);
* a unit dislodged from a province with an empty fortified city may retreat into the city only
  when it has nowhere else to go.

Venice is one space (``single_space``): its garrison stands in the province itself, so it is
never besieged and only one unit is ever there; a conversion there happens in place. A field
unit converting to the garrison succeeds unless a greater force dislodges it (it cannot retreat
into the city); a garrison converting out fails whenever Venice is attacked.

The master's options (:class:`~judge.core.machiavelli.options.MachiavelliOptions`): no summer,
fortresses in play, disbanding as a movement order (the unit leaves before the moves and
bounces no one), and the second edition's control, which changes only once the fall is over.

The straits (the first edition's rule): a fleet in Piombino or Messina as the campaign begins
holds the passage its province guards (moving away or converting, it still does); a fleet of
another power may neither move nor support across it (the order holds). A fleet that enters a
fleetless Piombino or Messina blocks the crossings of that same campaign too (the campaign is
resolved again with them held), and so does a garrison converting to a fleet there (under SET
MACH2 only the latter). Armies and garrisons hold no strait.
A held strait is closed to convoys too: no convoy carries another power's army across it, nor
carries an army across it with another power's fleet (the plain adjudicator is told which steps
each convoyed army may not take, so it looks for another chain; with none, the move fails, "the
strait is held by ..."; a chain round the strait is a route of its own, its fleets' convoys no
longer refused as needless beside the closed shortcut). The strait is held from the start of the campaign, so a holder
dislodged in that same campaign still closes it (the Judge's own rule decides a blocked crossing
before any move is resolved). What a strait closes is the scenario's data (``closes``). A
fleet's retreat across a strait held by another power's fleet after the campaign (not one that
waits to retreat itself) fails, as the moves across it: the fleet is disbanded.

Under SET MACH2 (the second edition) only Messina's strait is held (the data marks Piombino's
``first_edition_only``), and a besieged garrison may convert: a conversion is an attack like
any other.

Rebellions (caused with ducats: :mod:`.money`): the power the rebels fight neither converts
nor retreats into a rebelling city; it puts down a province's rebels by holding there with an
army or fleet all the campaign (its city's rebels stay); any other power entering the province
or its city liberates both; besieging a city that rebels against it for two campaigns puts down
the city's and the province's rebels. A province's rebels support the one move into it of a power
they do not fight (two such powers moving in: neither); they stand in a space of their own beside
the province for the moves (``ARE$``), never on the board. Not yet played here (issue 33, later
steps): the ALLY command that lets another power through a strait.

Special units (SET SPECIAL, with money: :mod:`.special_units`): the plain adjudicator is given
the strength of each unit of strength 2, by the location it stands on for the moves (under SET
MACH2 with partial cuts: an attack by a lone unit of strength 1, with no support ordered for
it, takes one point of an elite's support, not all of it), and each
special unit is followed to where the campaign leaves it (moved, converted, dislodged and
waiting to retreat) or dropped (destroyed, disbanded, besieged out). Coastal convoys (SET
COASTAL CONVOYS): the siege map lets a fleet in a coastal province with one coast convoy.

Home countries (:func:`end_of_campaign`): a power with no city left in any country it holds is
eliminated; a power keeps its own country while it holds one of its cities and a conquered one
while it holds any of its places; a country no power holds goes to the power that controls all
its provinces and cities, which may then build there.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Final

from judge.core.adjudicator import OrderResult, Outcome, Rules, adjudicate
from judge.core.adjudicator.convoys import route_exists
from judge.core.geography import GameMap, Province, Terrain
from judge.core.machiavelli.board import AUTONOMOUS, Control, MachiavelliBoard, Strait
from judge.core.machiavelli.options import FIRST_EDITION, MachiavelliOptions
from judge.core.machiavelli.orders import (
    Besiege,
    GarrisonConvert,
    GarrisonDisband,
    GarrisonHold,
    GarrisonSupport,
    LiftSiege,
    MachiavelliOrder,
    ToGarrison,
)
from judge.core.machiavelli.special_units import (
    NO_SPECIALS,
    SpecialKind,
    Specials,
    UnitPlace,
    specials_standing,
)
from judge.core.machiavelli.treasury import NO_UNREST, Finances, Rebellion, Unrest
from judge.core.machiavelli.year import next_phase
from judge.core.orders import Convoy, Disband, Hold, Move, Order, Retreat, SupportHold, SupportMove
from judge.core.phase import Phase, PhaseType, Season
from judge.core.position import DislodgedUnit, Position
from judge.core.special_rules import NEUTRAL
from judge.core.units import Unit, UnitRef, UnitType, province_of

CITY_MARK = "#"
"""``FLO#``: the city of Florence as a space of its own (never shown to players)."""

_ARMY = UnitType.ARMY
_FLEET = UnitType.FLEET


def city_space(province: str) -> str:
    return province + CITY_MARK


def is_city_space(location: str) -> bool:
    return location.endswith(CITY_MARK)


REBEL_MARK = "$"
"""``ARE$``: the rebels of Arezzo as a unit of their own during the moves (never shown)."""


def rebel_space(province: str) -> str:
    return province + REBEL_MARK


@dataclass(frozen=True, slots=True)
class MachiavelliPosition:
    """The board of the Renaissance game at the start of ``phase``.

    ``units``: the armies and fleets; ``garrisons``: city province -> owner (a power or
    :data:`AUTONOMOUS`); ``sieges``: city province -> the unit that besieged it in the campaign
    just played (a second besiege by that unit ends the garrison); ``retreats``: in a retreat
    phase, each dislodged unit's places to go; ``countries``: each home country (named by its
    first power) -> the power that holds it, its own or a conqueror (None: each power its own; a
    country no one holds is absent); ``money``: the treasuries and loans (None: the basic game,
    SET NO MONEY); ``unrest``: the rebellions and famine markers; ``specials``: the special
    units (:mod:`.special_units`), each by its owner and place.
    """

    phase: Phase
    units: tuple[Unit, ...]
    garrisons: Mapping[str, str]
    control: Control
    sieges: Mapping[str, Unit] = field(default_factory=lambda: MappingProxyType({}))
    dislodged: tuple[DislodgedUnit, ...] = ()
    retreats: Mapping[Unit, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    countries: Mapping[str, str] | None = None
    money: Finances | None = None
    unrest: Unrest = NO_UNREST
    specials: Specials = field(default_factory=lambda: NO_SPECIALS)


def opening_position(board: MachiavelliBoard, options: MachiavelliOptions = FIRST_EDITION) -> MachiavelliPosition:
    """The board at the first spring: the scenario's units, garrisons and control (under SET NO
    GARRISONS, no garrison at all: the scenario's are ignored, autonomous ones too), and with
    money the scenario's treasuries."""
    control = board.starting_control()
    if not options.garrisons:
        control = Control(
            MappingProxyType({p: o for p, o in control.provinces.items() if o != AUTONOMOUS}),
            MappingProxyType({c: o for c, o in control.cities.items() if o != AUTONOMOUS}),
        )
    return MachiavelliPosition(
        phase=Phase.of(Season.SPRING, board.first_phase.year + 1, PhaseType.MOVEMENT)
        if board.first_phase.type is PhaseType.ADJUSTMENT
        else board.first_phase,
        units=board.game_map.starting_units,
        garrisons=board.garrisons if options.garrisons else MappingProxyType({}),
        control=control,
        money=Finances(MappingProxyType(dict(board.treasuries))) if options.money else None,
    )


@dataclass(frozen=True, slots=True)
class Verdict:
    """The fate of one order: ``outcome`` and a short reason a player can read."""

    power: str
    order: MachiavelliOrder
    outcome: Outcome
    reason: str = ""


@dataclass(frozen=True, slots=True)
class CampaignResult:
    """What a campaign produced: the verdicts, the garrisons ended by siege, the position after."""

    phase: Phase
    verdicts: tuple[Verdict, ...]
    position: MachiavelliPosition
    retreats: Mapping[Unit, tuple[str, ...]]
    sieges_completed: tuple[str, ...] = ()
    disbanded: tuple[str, ...] = ()
    unordered: tuple[Verdict, ...] = ()
    """Each power's unit and garrison that no order named: it held (the verdict's order is that
    hold; its reason ``NO_ORDER``, with ``, dislodged`` when it was). The autonomous garrisons and
    the rebels, who never order, are not listed."""


NO_ORDER: Final = "no order"
"""The reason of a unit's verdict when no order named it: it held (the Judge's "no order, holds")."""

NO_RETREAT: Final = "no order, disbanded"
"""The reason of a dislodged unit's verdict when no retreat order named it: it is disbanded."""


# ----------------------------------------------------------------------------- the siege map


@functools.cache
def siege_map(
    board: MachiavelliBoard,
    fortresses: bool = False,
    rebels: frozenset[str] = frozenset(),
    coastal_convoys: bool = False,
) -> GameMap:
    """The board's map with a space of its own for each city a garrison may hold, and for the
    rebels of each province in ``rebels`` (``ARE$``, bordering only Arezzo: whence they support);
    with ``coastal_convoys`` (SET COASTAL CONVOYS) a fleet in a coastal province with one coast
    convoys (:mod:`judge.core.special_rules`; a city's space holds a garrison, which never
    convoys)."""
    game_map = board.game_map
    provinces: list[Province] = list(game_map.provinces.values())
    army: dict[str, set[str]] = {code: set(game_map.army_moves(code)) for code in game_map.provinces if game_map.is_land(code)}
    fleet: dict[str, set[str]] = {}
    for code in game_map.provinces:
        for location in game_map.fleet_locations(code):
            fleet[location] = set(game_map.fleet_moves(location))
    for code in sorted(game_map.provinces):
        if not board.may_garrison(code, fortresses=fortresses) or code in board.single_space:
            continue
        space = city_space(code)
        port = board.is_port(code, fortresses=fortresses) and len(game_map.fleet_locations(code)) == 1
        provinces.append(
            Province(
                code=space,
                name=f"city of {game_map.provinces[code].name}",
                terrain=Terrain.COAST if port else Terrain.LAND,
                supply_center=False,
                home_of=None,
                coasts=(),
                french_name=f"ville de {game_map.provinces[code].french_name}",
                french_abbreviation=None,
            )
        )
        army[space] = {code}
        army[code].add(space)
        if port:
            (location,) = game_map.fleet_locations(code)
            fleet[space] = {location}
            fleet[location].add(space)
    for code in sorted(rebels):
        space = rebel_space(code)
        provinces.append(
            Province(
                code=space,
                name=f"rebels of {game_map.provinces[code].name}",
                terrain=Terrain.LAND,
                supply_center=False,
                home_of=None,
                coasts=(),
                french_name=f"rebelles de {game_map.provinces[code].french_name}",
                french_abbreviation=None,
            )
        )
        army[space] = {code}
        army[code].add(space)
    return GameMap.build(
        name=game_map.name,
        powers=game_map.powers,
        provinces=provinces,
        army_adjacency=army,
        fleet_adjacency=fleet,
        starting_units=game_map.starting_units,
        win_centers=game_map.win_centers,
        power_names=game_map.power_names,
        letters=game_map.letters,
        special=replace(game_map.special, coastal_convoys=coastal_convoys),
    )


# ----------------------------------------------------------------------------- the campaign


def adjudicate_campaign(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    orders: Mapping[str, Sequence[MachiavelliOrder]],
    options: MachiavelliOptions = FIRST_EDITION,
    *,
    assassinated: frozenset[str] = frozenset(),
) -> CampaignResult:
    """Resolve the movement phase of ``position`` with each power's ``orders``; the orders of the
    ``assassinated`` powers hold (:func:`orders_of_the_assassinated`), and their holds put down
    no rebellion."""
    if position.phase.type is not PhaseType.MOVEMENT:
        raise ValueError(f"{position.phase} is not a campaign's movement phase")
    orders = orders_of_the_assassinated(orders, assassinated)
    position = replace(position, specials=specials_standing(position.specials, position.units, position.garrisons))
    campaign = _Campaign(board, position, options, [(power, order) for power, given in orders.items() for order in given])
    campaign.assassinated = assassinated
    campaign.read_orders()
    campaign.hold_abandoned_sieges()
    units = campaign.garrison_orders()
    rebels = frozenset(p for p, rebellion in position.unrest.rebellions.items() if rebellion.province)
    units = (*units, *(Unit(NEUTRAL, _ARMY, rebel_space(province)) for province in sorted(rebels)))
    plain_position = Position(
        board.game_map.name, Phase.of(Season.SPRING, position.phase.year, PhaseType.MOVEMENT), units, {}
    )
    spaces = siege_map(board, options.fortresses, rebels, options.coastal_convoys)
    holders = campaign.strait_holders_at_start()
    campaign.block_straits(holders)
    campaign.rebels_support(rebels)
    strengths = campaign.strengths()
    partial = options.mach2  # the second edition: a lone unit cuts one point of an elite's support
    closed = campaign.convoy_closures(holders, spaces)
    base = adjudicate(
        plain_position, campaign.plain, Rules(), spaces, strengths=strengths, partial_cuts=partial, closed_steps=closed
    )
    entered = campaign.straits_entered(base.position.units, holders)
    if entered:  # a fleet that entered blocks this turn too
        blocked = campaign.block_straits(entered)
        closed_too = campaign.convoy_closures({**holders, **entered}, spaces)
        if blocked or closed_too != closed:
            base = adjudicate(
                plain_position, campaign.plain, Rules(), spaces,
                strengths=strengths, partial_cuts=partial, closed_steps=closed_too,
            )  # fmt: skip
    campaign.judge(base.results, {d.unit.location for d in base.dislodged})
    return campaign.after(base.position.units, base.dislodged, base.retreats)


class _Campaign:
    """The work of :func:`adjudicate_campaign`: orders in, the plain adjudicator's orders out, and back."""

    def __init__(
        self,
        board: MachiavelliBoard,
        position: MachiavelliPosition,
        options: MachiavelliOptions,
        numbered: list[tuple[str, MachiavelliOrder]],
    ) -> None:
        self.board = board
        self.position = position
        self.options = options
        self.fortresses = options.fortresses
        self.numbered = numbered
        self.field_at = {unit.province: unit for unit in position.units}
        self.verdicts: dict[int, Verdict] = {}
        self.plain: dict[str, list[Order]] = {}
        self.converting_to: dict[str, UnitType] = {}  # city -> the type its garrison becomes
        self.assassinated: frozenset[str] = frozenset()
        self.besieging: dict[str, Unit] = {}  # city -> its besieger this campaign
        self.garrison_unit: dict[str, Unit] = {}
        self.dislodged: set[str] = set()
        self.disbanded_units: set[Unit] = set()
        self.disbanded_garrisons: set[str] = set()
        self.one_space: dict[str, tuple[int, UnitType | None]] = {}  # Venice: a conversion in place
        self.attacked: set[str] = set()
        self.moved_to: dict[str, str] = {}  # a unit's location -> where its successful move took it
        self.barred_by: dict[str, str] = {}  # a convoyed army's location -> the holder of the strait barring it
        self.unordered: list[Verdict] = []

    def refuse(self, number: int, reason: str) -> None:
        power, order = self.numbered[number]
        self.verdicts[number] = Verdict(power, order, Outcome.INVALID, reason)

    def give(self, power: str, order: Order) -> None:
        self.plain.setdefault(power, []).append(order)

    def read_orders(self) -> None:
        """Check the game's own orders and turn them into orders of the plain adjudicator."""
        for number, (power, order) in enumerate(self.numbered):
            if isinstance(order, Besiege | LiftSiege | ToGarrison | Disband):
                self.read_field_order(number, power, order)
            elif isinstance(order, GarrisonHold | GarrisonSupport | GarrisonConvert | GarrisonDisband):
                self.read_garrison_order(number, power, order)
            elif REBEL_MARK in str(getattr(order, "destination", "")):
                self.refuse(number, "no such place")  # the rebels' space is no place to go
            else:
                self.give(power, order)

    def read_garrison_order(
        self, number: int, power: str, order: GarrisonHold | GarrisonSupport | GarrisonConvert | GarrisonDisband
    ) -> None:
        city = order.province
        if self.position.garrisons.get(city) != power:
            self.refuse(number, "no such garrison")
        elif isinstance(order, GarrisonDisband):
            if not self.options.disband:
                self.refuse(number, "no disbanding in a campaign (SET DISBAND)")
            else:
                self.disbanded_garrisons.add(city)
                self.verdicts[number] = Verdict(power, order, Outcome.SUCCEEDS, "disbanded")
        elif isinstance(order, GarrisonConvert):
            reason = _why_not_convert_out(self.board, self.position, city, order.to, self.fortresses, self.options.mach2)
            if reason:
                self.refuse(number, reason)
            elif city in self.board.single_space:
                self.one_space[city] = (number, order.to)
            else:
                self.converting_to[city] = order.to

    def read_field_order(self, number: int, power: str, order: Besiege | LiftSiege | ToGarrison | Disband) -> None:
        unit = self.field_at.get(order.unit.province)
        if unit is None or unit.power != power:
            self.refuse(number, "no such unit")
            return
        here = UnitRef(unit.type, unit.location)
        if isinstance(order, Disband):
            if not self.options.disband:
                self.refuse(number, "no disbanding in a campaign (SET DISBAND)")
            else:
                self.disbanded_units.add(unit)
                self.verdicts[number] = Verdict(power, order, Outcome.SUCCEEDS, "disbanded")
            return
        if isinstance(order, ToGarrison):
            reason = _why_not_garrison(self.board, self.position, unit, self.fortresses)
            if not self.options.garrisons:
                reason = "no garrisons in this game (SET NO GARRISONS)"
            if reason:
                self.refuse(number, reason)
            elif unit.province in self.board.single_space:
                self.one_space[unit.province] = (number, None)
                self.give(power, Hold(here))
            else:
                self.give(power, Move(here, city_space(unit.province)))
            return
        self.give(power, Hold(here))  # a besieger, or a unit lifting its siege, holds
        if isinstance(order, Besiege):
            reason = _why_not_besiege(self.board, self.position, unit, self.fortresses)
            if reason:
                self.refuse(number, reason)
                return
            self.besieging[unit.province] = unit
        self.verdicts[number] = Verdict(power, order, Outcome.SUCCEEDS)

    def rebels_support(self, rebels: frozenset[str]) -> None:
        """The rebels of a province support the one move into it of a power they do not fight (a
        garrison converting out included); with moves of two or more such, they support none."""
        for province in sorted(rebels):
            against = self.position.unrest.rebellions[province].against
            moves = [
                order
                for power, given in self.plain.items()
                if power not in (against, NEUTRAL)
                for order in given
                if isinstance(order, Move) and province_of(order.destination) == province
            ]
            if len(moves) == 1:
                (move,) = moves
                here = UnitRef(_ARMY, rebel_space(province))
                self.plain.setdefault(NEUTRAL, []).append(SupportMove(here, move.unit, move.destination))

    def strait_holders_at_start(self) -> dict[Strait, str]:
        """Each strait held by a fleet standing in its province as the campaign begins (whatever
        that fleet is ordered: moving away or converting, it still holds the strait)."""
        return {
            strait: unit.power
            for strait in self.board.straits
            if not (self.options.mach2 and strait.first_edition_only)
            for unit in self.position.units
            if unit.type is _FLEET and unit.province == strait.province
        }

    def straits_entered(self, moved: Sequence[Unit], holders: Mapping[Strait, str]) -> dict[Strait, str]:
        """The straits without a fleet at the start that a fleet entered, or a garrison converting
        to a fleet took; under SET MACH2 only the garrison's conversion counts (the Judge's code
        blocks then with a fleet converted from a garrison, never with one that sailed in)."""
        standing = set(moved)
        return {
            strait: unit.power
            for strait in self.board.straits
            if strait not in holders and not (self.options.mach2 and strait.first_edition_only)
            for unit in moved
            if unit.type is _FLEET
            and unit.location == strait.province
            and (not self.options.mach2 or self.converted_to_fleet(strait.province, standing))
        }

    def converted_to_fleet(self, city: str, standing: set[Unit]) -> bool:
        """Whether the garrison of ``city`` converted to a fleet this campaign (it ordered so, and
        no longer stands in its city's space among the ``standing`` units)."""
        garrison = self.garrison_unit.get(city)
        return garrison is not None and self.converting_to.get(city) is _FLEET and garrison not in standing

    def block_straits(self, holders: Mapping[Strait, str]) -> bool:
        """A fleet of another power may not move or support across a held strait: such an order
        holds instead. True when an order was changed."""
        changed = False
        for power, given in self.plain.items():
            for index, order in enumerate(given):
                holder = self.strait_crossed(power, order, holders)
                if holder is None:
                    continue
                assert isinstance(order, Move | SupportMove)
                given[index] = Hold(order.unit)
                changed = True
                for number, (who, original) in enumerate(self.numbered):
                    if who == power and original is order:
                        self.verdicts[number] = Verdict(power, order, Outcome.FAILS, f"the strait is held by {holder}")
        return changed

    def strait_crossed(self, power: str, order: Order, holders: Mapping[Strait, str]) -> str | None:
        """The power holding the strait ``order`` crosses against ``power``, if any."""
        if not isinstance(order, Move | SupportMove):
            return None
        unit = self.field_at.get(order.unit.province)
        if unit is None or unit.type is not _FLEET or unit.power != power:
            return None
        ends = {unit.province, province_of(order.destination)}
        closing = "moves" if isinstance(order, Move) else "supports"
        for strait, holder in holders.items():
            if holder != power and closing in strait.closes and ends == strait.step:
                return holder
        return None

    def convoy_closures(self, holders: Mapping[Strait, str], spaces: GameMap) -> dict[str, frozenset[frozenset[str]]]:
        """By each convoyed army's location, the held straits no convoy may carry it across: those of
        another power than the army's, and those where a fleet of another power than the holder's
        would convoy it across (the Judge's rules: "no hostile fleet can move or convoy" across, "no
        player may use the straits without the controlling player's permission"). An army whose
        ordered convoys reach its destination only across such a strait is noted in ``barred_by``
        with the strait's holder, the reason its move fails."""
        closures: dict[str, frozenset[frozenset[str]]] = {}
        self.barred_by = {}
        convoying = [s for s in holders if "convoys" in s.closes]
        if not convoying:
            return closures
        carriers = self.convoying_fleets()
        for power, given in self.plain.items():
            for order in given:
                army = self.field_at.get(order.unit.province) if isinstance(order, Move) else None
                if army is None or army.type is not _ARMY or army.power != power:
                    continue
                assert isinstance(order, Move)
                destination = province_of(order.destination)
                fleets = carriers.get((army.province, destination))
                if not fleets:
                    continue
                barred = {
                    strait.step: holders[strait]
                    for strait in convoying
                    if holders[strait] != army.power
                    or any(fleets.get(end, holders[strait]) != holders[strait] for end in strait.step)
                }
                if not barred:
                    continue
                closures[army.location] = frozenset(barred)
                if route_exists(spaces, army.province, destination, fleets) and not route_exists(
                    spaces, army.province, destination, fleets, frozenset(barred)
                ):
                    self.barred_by[army.location] = min(barred.values())
        return closures

    def convoying_fleets(self) -> dict[tuple[str, str], dict[str, str]]:
        """The fleets ordered to convoy, by the army's province and its destination: each fleet's
        province -> its power."""
        found: dict[tuple[str, str], dict[str, str]] = {}
        for power, given in self.plain.items():
            for order in given:
                if (
                    isinstance(order, Convoy)
                    and (fleet := self.field_at.get(order.unit.province)) is not None
                    and fleet.type is _FLEET
                    and fleet.power == power
                ):
                    key = (order.convoyed.province, province_of(order.destination))
                    found.setdefault(key, {})[fleet.province] = power
        return found

    def hold_abandoned_sieges(self) -> None:
        """The second campaign of a siege: a besieger that does not besiege again holds (it is free
        when the garrison is already gone), and the siege ends."""
        position = self.position
        for city, besieger in position.sieges.items():
            rebels = _shut_against(position.unrest.rebellions.get(city), besieger.power)
            gone = (city not in position.garrisons and not rebels) or city in self.disbanded_garrisons
            if city in self.besieging or besieger not in position.units or besieger in self.disbanded_units or gone:
                continue
            self.plain[besieger.power] = [
                Hold(UnitRef(besieger.type, besieger.location)) if _orders_unit(o, besieger) else o
                for o in self.plain.get(besieger.power, [])
            ]
            for number, (power, order) in enumerate(self.numbered):
                if power == besieger.power and not isinstance(order, LiftSiege) and _names_unit(order, besieger):
                    self.verdicts[number] = Verdict(power, order, Outcome.FAILS, "holds: the siege is abandoned")

    def garrison_orders(self) -> tuple[Unit, ...]:
        """The garrisons as units of their cities' spaces, and their orders; the units of the board."""
        units = [unit for unit in self.position.units if unit not in self.disbanded_units]
        for city, owner in sorted(self.position.garrisons.items()):
            if city in self.disbanded_garrisons:
                continue
            power = NEUTRAL if owner == AUTONOMOUS else owner
            if city in self.board.single_space:
                unit = Unit(power, _ARMY, city)
            else:
                unit = Unit(power, self.converting_to.get(city, _ARMY), city_space(city))
            self.garrison_unit[city] = unit
            units.append(unit)
        for number, (power, order) in enumerate(self.numbered):
            if number in self.verdicts or not isinstance(order, GarrisonHold | GarrisonSupport | GarrisonConvert):
                continue
            unit = self.garrison_unit[order.province]
            here = UnitRef(unit.type, unit.location)
            if isinstance(order, GarrisonHold) or order.province in self.one_space:
                self.give(power, Hold(here))
            elif isinstance(order, GarrisonConvert):
                self.give(power, Move(here, order.province))
            elif order.destination is None:
                self.give(power, SupportHold(here, order.supported))
            else:
                self.give(power, SupportMove(here, order.supported, order.destination))
        return tuple(units)

    def location_of(self, place: UnitPlace) -> str | None:
        """Where the special unit ``place`` stands for the plain adjudicator, if it is in play."""
        if place.garrison:
            unit = self.garrison_unit.get(place.province)
            return unit.location if unit is not None and self.position.garrisons.get(place.province) == place.power else None
        found = self.field_at.get(place.province)
        if found is None or found.power != place.power or found in self.disbanded_units:
            return None
        return found.location

    def strengths(self) -> dict[str, int]:
        """The special units of strength 2, by the location they stand on for the plain adjudicator
        (none without SET SPECIAL and money)."""
        if not (self.options.special and self.options.money):
            return {}
        return {
            location: kind.strength
            for place, kind in self.position.specials.items()
            if kind.strength != 1 and (location := self.location_of(place)) is not None
        }

    def specials_after(self, units: Sequence[Unit], garrisons: Mapping[str, str], dislodged: Sequence[DislodgedUnit]) -> Specials:
        """Each special unit followed to where the campaign left it: moved, converted, or dislodged
        and waiting to retreat; gone when disbanded, destroyed or its garrison besieged out."""
        found: dict[UnitPlace, SpecialKind] = {}
        for place, kind in self.position.specials.items():
            location = self.location_of(place)
            if location is None:
                continue
            if location in self.dislodged:
                if not place.garrison:
                    found[place] = kind
                continue
            destination = self.moved_to.get(location)
            if destination is not None:
                if is_city_space(destination):
                    found[UnitPlace(place.power, destination[: -len(CITY_MARK)], True)] = kind
                else:
                    found[UnitPlace(place.power, province_of(destination), False)] = kind
            elif place.province in self.board.single_space:  # Venice: converted in place, or not
                garrisoned = garrisons.get(place.province) == place.power
                found[UnitPlace(place.power, place.province, garrisoned)] = kind
            else:
                found[place] = kind
        return specials_standing(MappingProxyType(found), units, garrisons, dislodged)

    def judge(self, results: Sequence[OrderResult], dislodged: set[str]) -> None:
        """Each order's verdict from the plain adjudicator's results."""
        self.dislodged = dislodged
        outcome_of: dict[str | None, OrderResult] = {}
        for result in results:  # an invalid order's result, then its unit's hold: the order's counts
            outcome_of.setdefault(result.unit.location if result.unit else None, result)
            if isinstance(result.order, Move) and result.outcome is not Outcome.INVALID:
                self.attacked.add(province_of(result.order.destination))
                if result.outcome is Outcome.SUCCEEDS and result.unit is not None:
                    self.moved_to[result.unit.location] = result.order.destination
        for number, (power, order) in enumerate(self.numbered):
            if isinstance(order, Besiege) and number in self.verdicts:
                unit = self.field_at[order.unit.province]
                if self.verdicts[number].outcome is Outcome.SUCCEEDS and unit.location in dislodged:
                    self.verdicts[number] = Verdict(power, order, Outcome.FAILS, "dislodged")
            if number in self.verdicts:
                continue
            location = _location_of(order, self.position, self.garrison_unit)
            found = outcome_of.get(location)
            if found is None:
                self.verdicts[number] = Verdict(power, order, Outcome.INVALID, "no such unit")
            elif found.outcome is Outcome.FAILS and location in self.barred_by:
                reason = f"the strait is held by {self.barred_by[location]}"
                self.verdicts[number] = Verdict(power, order, Outcome.FAILS, reason)
            else:
                self.verdicts[number] = Verdict(power, order, found.outcome, found.reason)
        self.judge_unordered(results)
        for city, (number, to) in self.one_space.items():
            if to is None and city in dislodged:  # a field unit of Venice converting, dislodged
                power, order = self.numbered[number]
                self.verdicts[number] = Verdict(power, order, Outcome.FAILS, "dislodged")

    def judge_unordered(self, results: Sequence[OrderResult]) -> None:
        """A verdict for each unit and garrison of a power that no order named (it held)."""
        named = {_location_of(order, self.position, self.garrison_unit) for _, order in self.numbered}
        garrison_at = {unit.location: city for city, unit in self.garrison_unit.items()}
        for result in results:
            unit = result.unit
            if result.order is not None or unit is None or unit.power == NEUTRAL or unit.location in named:
                continue
            city = garrison_at.get(unit.location)
            order: MachiavelliOrder = (
                GarrisonHold(city) if city is not None else Hold(UnitRef(unit.type, unit.location))
            )
            reason = f"{NO_ORDER}, dislodged" if "dislodged" in result.reason else NO_ORDER
            self.unordered.append(Verdict(unit.power, order, result.outcome, reason))

    def after(
        self,
        moved: Sequence[Unit],
        dislodged_units: Sequence[DislodgedUnit],
        options: Mapping[Unit, tuple[str, ...]],
    ) -> CampaignResult:
        """The board after the moves: garrisons back out of their spaces, sieges kept or ended, control."""
        board, position = self.board, self.position
        units: list[Unit] = []
        garrisons: dict[str, str] = {}
        for unit in moved:
            owner = AUTONOMOUS if unit.power == NEUTRAL else unit.power
            if unit.location.endswith(REBEL_MARK):
                continue  # the rebels are no unit of the board
            if is_city_space(unit.location):
                garrisons[unit.location[: -len(CITY_MARK)]] = owner
            elif unit.province in board.single_space:
                self.one_space_after(unit, owner, units, garrisons)
            else:
                units.append(unit)
        sieges: dict[str, Unit] = {}
        completed: list[str] = []
        put_down: set[str] = set()
        for city, besieger in self.besieging.items():
            rebels = city not in position.garrisons  # the siege of a city that rebels against its power
            if besieger.location in self.dislodged or (city in garrisons) is rebels:
                continue  # the siege lapses
            if position.sieges.get(city) != besieger:
                sieges[city] = besieger
                continue
            if rebels:
                put_down.add(city)
            else:
                del garrisons[city]
            completed.append(city)
        retreats = _retreat_options(options, garrisons, position.unrest.rebellions)
        dislodged = tuple(
            DislodgedUnit(d.unit, province_of(d.attacker_from), d.attacker_via_convoy)
            for d in dislodged_units
            if retreats.get(d.unit)
        )
        following = next_phase(position.phase, dislodged=bool(dislodged), summer=self.options.summer)
        unrest = _rebels_after(position, tuple(units), garrisons, self.held(units), put_down)
        after = MachiavelliPosition(
            phase=following,
            units=tuple(units),
            garrisons=MappingProxyType(garrisons),
            control=_control_after(board, position.control, tuple(units), garrisons, following, self.options),
            sieges=MappingProxyType(live_sieges(sieges, tuple(units), garrisons, unrest.rebellions)),
            dislodged=dislodged,
            retreats=MappingProxyType({d.unit: retreats[d.unit] for d in dislodged}),
            countries=position.countries,
            money=position.money,
            unrest=unrest,
            specials=self.specials_after(units, garrisons, dislodged),
        )
        disbanded = [str(unit) for unit in self.disbanded_units] + [f"G {city}" for city in self.disbanded_garrisons]
        return CampaignResult(
            phase=position.phase,
            verdicts=tuple(self.verdicts[number] for number in sorted(self.verdicts)),
            position=after,
            retreats=MappingProxyType(retreats),
            sieges_completed=tuple(sorted(completed)),
            disbanded=tuple(sorted(disbanded)),
            unordered=tuple(sorted(self.unordered, key=lambda v: (v.power, str(v.order)))),
        )

    def held(self, after: Sequence[Unit]) -> tuple[Unit, ...]:
        """The armies and fleets that held all the campaign where they stood (ordered to hold,
        or given no order), still there after the moves."""
        ordered: dict[Unit, MachiavelliOrder] = {}
        for power, order in self.numbered:
            for unit in self.position.units:
                if unit.power == power and _names_unit(order, unit):
                    ordered.setdefault(unit, order)
        return tuple(
            unit
            for unit in self.position.units
            if unit in after
            and unit.power not in self.assassinated
            and isinstance(ordered.get(unit, Hold(UnitRef(unit.type, unit.location))), Hold)
        )

    def one_space_after(self, unit: Unit, owner: str, units: list[Unit], garrisons: dict[str, str]) -> None:
        """Venice, one space: the unit there after the moves, and its conversion in place.

        A field unit converting to the garrison does so unless it is dislodged (a greater attack
        eliminates it: it cannot retreat into the city); a garrison converting to an army or a
        fleet fails whenever Venice is attacked, whatever the strengths.
        """
        city = unit.province
        if city in self.dislodged:  # the unit there now is the one that dislodged the old one
            units.append(unit)
            return
        was_garrison = city in self.garrison_unit
        converting = self.one_space.get(city)
        if converting is None:
            if was_garrison:
                garrisons[city] = owner
            else:
                units.append(unit)
            return
        number, to = converting
        power, order = self.numbered[number]
        if to is None:  # the field unit becomes the garrison (it was not dislodged: it is still there)
            garrisons[city] = owner
            self.verdicts[number] = Verdict(power, order, Outcome.SUCCEEDS)
        elif city in self.attacked:
            garrisons[city] = owner
            self.verdicts[number] = Verdict(power, order, Outcome.FAILS, "Venice attacked")
        else:
            units.append(Unit(unit.power, to, city))
            self.verdicts[number] = Verdict(power, order, Outcome.SUCCEEDS)


@dataclass(frozen=True, slots=True)
class RetreatResult:
    """What a retreat phase did: the position after, and a verdict for each retreat or disband
    ordered and for each dislodged unit no order named (``unordered``: it is disbanded, the reason
    :data:`NO_RETREAT`), as the results list them."""

    position: MachiavelliPosition
    verdicts: tuple[Verdict, ...] = ()
    unordered: tuple[Verdict, ...] = ()


def adjudicate_retreats(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    orders: Mapping[str, Sequence[Retreat | Disband]],
    options: MachiavelliOptions = FIRST_EDITION,
) -> MachiavelliPosition:
    """The position after a campaign's retreats (:func:`retreat_phase`, without its verdicts)."""
    return retreat_phase(board, position, orders, options).position


def retreat_phase(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    orders: Mapping[str, Sequence[Retreat | Disband]],
    options: MachiavelliOptions = FIRST_EDITION,
) -> RetreatResult:
    """Resolve a campaign's retreats; a unit retreating into its province's city becomes its garrison.

    A retreat to a place the campaign did not offer (a city while there was somewhere else to
    go) is refused (invalid), and the unit is disbanded as with no order.
    """
    if position.phase.type is not PhaseType.RETREAT:
        raise ValueError(f"{position.phase} is not a retreat phase")
    units = list(position.units)
    for city, owner in position.garrisons.items():
        units.append(Unit(NEUTRAL if owner == AUTONOMOUS else owner, _ARMY, city if city in board.single_space else city_space(city)))
    offered = {unit.province: places for unit, places in position.retreats.items()}
    barred = {
        (power, order): holder
        for power, given in orders.items()
        for order in given
        if (holder := _strait_barring(board, position, power, order, options)) is not None
    }
    allowed = {
        power: [
            o for o in given
            if (power, o) not in barred
            and (not isinstance(o, Retreat) or o.destination in offered.get(o.unit.province, ()))
        ]
        for power, given in orders.items()
    }  # fmt: skip
    plain = Position(
        board.game_map.name,
        Phase.of(Season.SPRING, position.phase.year, PhaseType.RETREAT),
        tuple(units),
        {},
        position.dislodged,
    )
    base = adjudicate(plain, allowed, Rules(), siege_map(board, options.fortresses, coastal_convoys=options.coastal_convoys))
    after_units: list[Unit] = []
    garrisons = dict(position.garrisons)
    for unit in base.position.units:
        if is_city_space(unit.location):
            garrisons[unit.location[: -len(CITY_MARK)]] = AUTONOMOUS if unit.power == NEUTRAL else unit.power
        elif unit.power != NEUTRAL and not (unit.province in garrisons and unit.province in board.single_space):
            after_units.append(unit)
    done = Phase.of(position.phase.season, position.phase.year, PhaseType.MOVEMENT)
    following = next_phase(done, summer=options.summer)
    unrest = _rebels_after(position, tuple(after_units), garrisons, ())
    after = MachiavelliPosition(
        phase=following,
        units=tuple(after_units),
        garrisons=MappingProxyType(garrisons),
        control=_control_after(board, position.control, tuple(after_units), garrisons, following, options),
        sieges=MappingProxyType(live_sieges(position.sieges, tuple(after_units), garrisons, unrest.rebellions)),
        countries=position.countries,
        money=position.money,
        unrest=unrest,
        specials=_specials_retreated(position, base.results, tuple(after_units), garrisons),
    )
    return RetreatResult(after, *_retreat_verdicts(position, orders, allowed, barred, base.results))


def _strait_barring(
    board: MachiavelliBoard, position: MachiavelliPosition, power: str, order: Retreat | Disband, options: MachiavelliOptions
) -> str | None:
    """The power whose fleet holds the strait a fleet's retreat would cross, when it is another
    power's (as the moves across it, the Judge's retreats are closed: the fleet is disbanded).
    The strait is held by a fleet standing in its province after the campaign; a holder that was
    dislodged itself and waits to retreat holds nothing."""
    if not isinstance(order, Retreat):
        return None
    fleet = next((u for u in position.retreats if u.power == power and u.province == order.unit.province), None)
    if fleet is None or fleet.type is not _FLEET:
        return None
    ends = {fleet.province, province_of(order.destination)}
    for strait in board.straits:
        if (options.mach2 and strait.first_edition_only) or "moves" not in strait.closes or ends != strait.step:
            continue
        holder = next((u.power for u in position.units if u.type is _FLEET and u.province == strait.province), None)
        if holder is not None and holder != power:
            return holder
    return None


def _retreat_verdicts(
    position: MachiavelliPosition,
    orders: Mapping[str, Sequence[Retreat | Disband]],
    allowed: Mapping[str, Sequence[Retreat | Disband]],
    barred: Mapping[tuple[str, Retreat | Disband], str],
    results: Sequence[OrderResult],
) -> tuple[tuple[Verdict, ...], tuple[Verdict, ...]]:
    """Each retreat order's verdict as given (one to a place not offered: invalid; one across a
    strait another power holds: fails), then each dislodged unit of a power that no order named
    (disbanded)."""
    played: dict[tuple[str, Order], OrderResult] = {}
    for result in results:
        if result.order is not None:
            played.setdefault((result.power, result.order), result)
    dislodged = {(unit.power, unit.province) for unit in position.retreats}
    verdicts: list[Verdict] = []
    for power, given in orders.items():
        for order in given:
            found = played.get((power, order))
            if (power, province_of(order.unit.location)) not in dislodged:
                verdicts.append(Verdict(power, order, Outcome.INVALID, "no such unit"))
            elif (power, order) in barred:
                verdicts.append(Verdict(power, order, Outcome.FAILS, f"the strait is held by {barred[power, order]}"))
            elif order not in allowed.get(power, ()):
                verdicts.append(Verdict(power, order, Outcome.INVALID, "not a place it may retreat to"))
            elif found is None:
                verdicts.append(Verdict(power, order, Outcome.INVALID, "no such unit"))
            else:
                verdicts.append(Verdict(power, order, found.outcome, found.reason))
    named = {(power, province_of(order.unit.location)) for power, given in orders.items() for order in given}
    unordered = [
        Verdict(unit.power, Disband(UnitRef(unit.type, unit.location)), Outcome.SUCCEEDS, NO_RETREAT)
        for unit in sorted(position.retreats, key=str)
        if (unit.power, unit.province) not in named
    ]  # the Judge's "no order: disbanded"
    return tuple(verdicts), tuple(unordered)


def _specials_retreated(
    position: MachiavelliPosition, results: Sequence[OrderResult], units: tuple[Unit, ...], garrisons: Mapping[str, str]
) -> Specials:
    """The special units after the retreats: a dislodged one follows its retreat (into its
    city: now a garrison) or is gone; the others stay where they are."""
    retreated = {
        (result.unit.power, result.unit.province): result.order.destination
        for result in results
        if isinstance(result.order, Retreat) and result.outcome is Outcome.SUCCEEDS and result.unit is not None
    }
    pending = {(d.unit.power, d.unit.province) for d in position.dislodged}
    found: dict[UnitPlace, SpecialKind] = {}
    for place, kind in position.specials.items():
        key = (place.power, place.province)
        if place.garrison or key not in pending:
            found[place] = kind
        elif key in retreated:
            destination = retreated[key]
            garrison = is_city_space(destination)
            found[UnitPlace(place.power, destination[: -len(CITY_MARK)] if garrison else province_of(destination), garrison)] = kind
    return specials_standing(MappingProxyType(found), units, garrisons)


# ----------------------------------------------------------------------------- control


def update_control(
    board: MachiavelliBoard, control: Control, units: tuple[Unit, ...], garrisons: Mapping[str, str]
) -> Control:
    """Control after a step of the campaign: the last power present in a province controls it.

    A garrison controls its city, and its province when no army or fleet stands beside it; an
    army or fleet controls its province, and the province's city when no garrison holds it. A
    province left empty keeps its controller (the seas are controlled by no one).
    """
    provinces = dict(control.provinces)
    cities = dict(control.cities)
    field_power = {unit.province: unit.power for unit in units if board.game_map.is_land(unit.province)}
    for city, owner in garrisons.items():
        if city in board.cities:  # a fortress is no city: its garrison holds only the province
            cities[city] = owner
        if city not in field_power:
            provinces[city] = owner
    for province, power in field_power.items():
        provinces[province] = power
        if province in board.cities and province not in garrisons:
            cities[province] = power
    return Control(MappingProxyType(provinces), MappingProxyType(cities))


def _control_after(
    board: MachiavelliBoard,
    control: Control,
    units: tuple[Unit, ...],
    garrisons: Mapping[str, str],
    following: Phase,
    options: MachiavelliOptions,
) -> Control:
    """Control at every step (first edition), or only once the fall is over (SET MACH2)."""
    if options.mach2 and following.type is not PhaseType.ADJUSTMENT:
        return control
    return update_control(board, control, units, garrisons)


def countries_held(board: MachiavelliBoard, position: MachiavelliPosition) -> dict[str, str]:
    """Home country -> the power holding it (its own power unless conquered; absent: no one)."""
    if position.countries is None:
        return {power: power for power in board.game_map.powers}
    return dict(position.countries)


def _holds_a_city(board: MachiavelliBoard, control: Control, country: str, power: str) -> bool:
    return any(control.cities.get(city) == power for city in board.home_countries[country] if city in board.cities)


def _holds_a_place(board: MachiavelliBoard, control: Control, country: str, power: str) -> bool:
    return any(
        control.provinces.get(place) == power or control.cities.get(place) == power
        for place in board.home_countries[country]
    )


def eliminated(board: MachiavelliBoard, position: MachiavelliPosition) -> tuple[str, ...]:
    """The powers to eliminate at the end of a campaign: present on the board (a unit, a garrison
    or control of a place), they control no city of any country they hold."""
    control = position.control
    held = countries_held(board, position)
    present = (
        {unit.power for unit in position.units}
        | set(position.garrisons.values())
        | set(control.provinces.values())
        | set(control.cities.values())
    )
    return tuple(
        power
        for power in board.game_map.powers
        if power in present
        and not any(_holds_a_city(board, control, country, power) for country, holder in held.items() if holder == power)
    )


def end_of_campaign(board: MachiavelliBoard, position: MachiavelliPosition) -> tuple[tuple[str, ...], MachiavelliPosition]:
    """Eliminations, then the home countries lost and conquered, once a campaign is over.

    A power holding no city of any country it holds is eliminated, and its countries are held by
    no one. A power keeps its own country while it holds one of its cities; a conquered country
    is lost when its holder controls none of its provinces and cities. A country held by no one
    goes to the power that controls all its provinces and cities.
    """
    out = eliminated(board, position)
    position = eliminate(position, out)
    control = position.control
    held = {country: holder for country, holder in countries_held(board, position).items() if holder not in out}
    for country, holder in list(held.items()):
        keeps = _holds_a_city if country == holder else _holds_a_place
        if not keeps(board, control, country, holder):
            del held[country]
    for country in board.game_map.powers:
        if country in held:
            continue
        home = board.home_countries[country]
        owners = {control.provinces.get(place) for place in home}
        owners |= {control.cities.get(place) for place in home if place in board.cities}
        if len(owners) == 1:
            (owner,) = owners
            if owner in board.game_map.powers:
                held[country] = owner
    if held == countries_held(board, position):
        return out, position
    return out, replace(position, countries=MappingProxyType(held))


def eliminate(position: MachiavelliPosition, powers: tuple[str, ...]) -> MachiavelliPosition:
    """``position`` without ``powers``: their units and garrisons removed, their places unowned."""
    if not powers:
        return position
    gone = set(powers)
    control = Control(
        MappingProxyType({p: owner for p, owner in position.control.provinces.items() if owner not in gone}),
        MappingProxyType({c: owner for c, owner in position.control.cities.items() if owner not in gone}),
    )
    return MachiavelliPosition(
        phase=position.phase,
        units=tuple(unit for unit in position.units if unit.power not in gone),
        garrisons=MappingProxyType({c: owner for c, owner in position.garrisons.items() if owner not in gone}),
        control=control,
        sieges=MappingProxyType({c: unit for c, unit in position.sieges.items() if unit.power not in gone}),
        dislodged=tuple(d for d in position.dislodged if d.unit.power not in gone),
        retreats=MappingProxyType({u: p for u, p in position.retreats.items() if u.power not in gone}),
        countries=position.countries
        if position.countries is None
        else MappingProxyType({c: h for c, h in position.countries.items() if h not in gone}),
        money=position.money,
        unrest=position.unrest,
        specials=MappingProxyType({place: kind for place, kind in position.specials.items() if place.power not in gone}),
    )


# ----------------------------------------------------------------------------- helpers


def _why_not_garrison(board: MachiavelliBoard, position: MachiavelliPosition, unit: Unit, fortresses: bool) -> str:
    city = unit.province
    if not board.may_garrison(city, fortresses=fortresses):
        return "no fortified city"
    if city in position.garrisons:
        return "city occupied"
    if unit.type is _FLEET and not board.is_port(city, fortresses=fortresses):
        return "fleets convert only at ports"
    rebellion = position.unrest.rebellions.get(city)
    if rebellion is not None and rebellion.city and rebellion.against == unit.power:
        return "the city rebels"
    return ""


def orders_of_the_assassinated(
    orders: Mapping[str, Sequence[MachiavelliOrder]], victims: Sequence[str] | frozenset[str]
) -> dict[str, list[MachiavelliOrder]]:
    """``orders`` with each of the victims' orders turned into a hold of the unit it names."""
    result: dict[str, list[MachiavelliOrder]] = {}
    for power, given in orders.items():
        if power not in victims:
            result[power] = list(given)
            continue
        held: list[MachiavelliOrder] = []
        for order in given:
            if isinstance(order, GarrisonHold | GarrisonSupport | GarrisonConvert | GarrisonDisband):
                held.append(GarrisonHold(order.province))
                continue
            unit = getattr(order, "unit", None)
            if isinstance(unit, UnitRef):
                held.append(Hold(unit))
        result[power] = held
    return result


def _shut_against(rebellion: Rebellion | None, power: str) -> bool:
    return rebellion is not None and rebellion.city and rebellion.against == power


def live_sieges(
    sieges: Mapping[str, Unit], units: tuple[Unit, ...], garrisons: Mapping[str, str], rebellions: Mapping[str, Rebellion]
) -> dict[str, Unit]:
    """The sieges still going on: the besieger still there, against another power's garrison, or
    against the rebels of an ungarrisoned city who fight the besieger's power."""
    return {
        city: besieger
        for city, besieger in sieges.items()
        if besieger in units
        and (
            garrisons.get(city) not in (None, besieger.power)
            if city in garrisons
            else _shut_against(rebellions.get(city), besieger.power)
        )
    }


def _rebels_after(
    position: MachiavelliPosition,
    units: tuple[Unit, ...],
    garrisons: Mapping[str, str],
    held: tuple[Unit, ...],
    put_down: set[str] | frozenset[str] = frozenset(),
) -> Unrest:
    """The rebellions a campaign (or its retreats) ends: a power the rebels do not fight that
    enters the province or its city liberates both; the power they fight puts down the
    province's rebellion by holding there with an army or fleet all the campaign (its city's
    rebels stay), and both by completing the siege of the rebelling city (``put_down``).
    Pacifying with ducats is an expense (:mod:`.money`)."""
    rebellions = position.unrest.rebellions
    if not rebellions:
        return position.unrest
    before = {(u.power, u.province) for u in position.units} | {(o, c) for c, o in position.garrisons.items()}
    entered = ({(u.power, u.province) for u in units} | {(o, c) for c, o in garrisons.items()}) - before
    kept: dict[str, Rebellion] = {}
    for province, rebellion in rebellions.items():
        if province in put_down:
            continue
        if any(place == province and power not in (rebellion.against, AUTONOMOUS) for power, place in entered):
            continue
        if rebellion.province and any(u.power == rebellion.against and u.province == province for u in held):
            rebellion = replace(rebellion, province=False)
        if rebellion.province or rebellion.city:
            kept[province] = rebellion
    return Unrest(MappingProxyType(kept), position.unrest.famine)


def _why_not_besiege(board: MachiavelliBoard, position: MachiavelliPosition, unit: Unit, fortresses: bool) -> str:
    city = unit.province
    owner = position.garrisons.get(city)
    if owner is None and not _shut_against(position.unrest.rebellions.get(city), unit.power):
        return "no garrison to besiege"
    if owner == unit.power:
        return "own garrison: holds"
    if city in board.single_space:
        return "cannot be besieged"
    if unit.type is _FLEET and not board.is_port(city, fortresses=fortresses):
        return "fleets besiege only ports"
    return ""


def _why_not_convert_out(
    board: MachiavelliBoard, position: MachiavelliPosition, city: str, to: UnitType, fortresses: bool, mach2: bool
) -> str:
    if city in position.sieges and not mach2:  # the second edition: a conversion is an attack like any
        return "besieged"
    if to is _FLEET and not board.is_port(city, fortresses=fortresses):
        return "fleets convert only at ports"
    return ""


def _names_unit(order: MachiavelliOrder, unit: Unit) -> bool:
    ref = getattr(order, "unit", None)
    return isinstance(ref, UnitRef) and ref.province == unit.province


def _orders_unit(order: Order, unit: Unit) -> bool:
    ref = getattr(order, "unit", None)
    return isinstance(ref, UnitRef) and ref.province == unit.province


def _location_of(order: MachiavelliOrder, position: MachiavelliPosition, garrison_unit: Mapping[str, Unit]) -> str | None:
    if isinstance(order, GarrisonHold | GarrisonSupport | GarrisonConvert):
        unit = garrison_unit.get(order.province)
        return unit.location if unit else None
    ref = getattr(order, "unit", None)
    if not isinstance(ref, UnitRef):
        return None
    for unit in position.units:
        if unit.province == ref.province:
            return unit.location
    return None


def _retreat_options(
    options: Mapping[Unit, tuple[str, ...]], garrisons: Mapping[str, str], rebellions: Mapping[str, Rebellion]
) -> dict[Unit, tuple[str, ...]]:
    """A retreat into a city only when there is nowhere else to go (and the city is empty, and
    does not rebel against the retreating unit's power: its gates are shut)."""
    result: dict[Unit, tuple[str, ...]] = {}
    for unit, places in options.items():
        if unit.power == NEUTRAL or is_city_space(unit.location):
            result[unit] = ()
            continue
        elsewhere = tuple(p for p in places if not is_city_space(p) and not p.endswith(REBEL_MARK))
        cities = tuple(
            p
            for p in places
            if is_city_space(p)
            and p[: -len(CITY_MARK)] not in garrisons
            and not _shut_against(rebellions.get(p[: -len(CITY_MARK)]), unit.power)
        )
        result[unit] = elsewhere or cities
    return result


__all__ = [
    "CITY_MARK",
    "CampaignResult",
    "MachiavelliPosition",
    "RetreatResult",
    "Verdict",
    "adjudicate_campaign",
    "adjudicate_retreats",
    "city_space",
    "countries_held",
    "eliminate",
    "eliminated",
    "end_of_campaign",
    "live_sieges",
    "opening_position",
    "orders_of_the_assassinated",
    "retreat_phase",
    "siege_map",
    "update_control",
]
