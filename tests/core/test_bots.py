"""The bots of judge.core.bots: legal, complete, deterministic orders on every shipped variant,
games of bots that run to their end, and the behaviour each level promises on hand-made boards."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from judge.core.adjudicator import DEFAULT_RULES, adjudicate, validate
from judge.core.adjudicator.phases import build_sites
from judge.core.bots import LEVELS, Level, bot_orders
from judge.core.geography import GameMap
from judge.core.orders import (
    Build,
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
from judge.core.phase import Phase, PhaseType
from judge.core.position import DislodgedUnit, Position
from judge.core.random_orders import RandomOrders, opening_position
from judge.core.special_rules import NEUTRAL
from judge.core.units import Unit, UnitRef, UnitType
from judge.core.variants import available_variants, load_map
from judge.lang.orders import read_order_line


def _random_positions(game_map: GameMap, seed: int, phases: int) -> list[Position]:
    """The positions of a seeded random game (the one generator), every phase kind among them."""
    maker = RandomOrders(game_map, random.Random(seed))
    position, retreats = opening_position(game_map), {}
    seen = []
    for _ in range(phases):
        seen.append(position)
        result = adjudicate(position, maker.orders(position, retreats), DEFAULT_RULES, game_map)
        if result.winner:
            break
        position, retreats = result.position, result.retreats
    return seen


def _dislodged(game_map: GameMap, position: Position) -> Position:
    """``position``'s retreat phase with its first unit dislodged by a unit of another power that came
    from the first province next to it."""
    unit = min(position.units, key=lambda u: u.location)
    came_from = min(p for p in game_map.province_neighbours(unit.province))
    other = next(p for p in game_map.powers if p != unit.power)
    attacker = Unit(other, unit.type, unit.location)
    return Position(
        variant=position.variant,
        phase=Phase(position.phase.year, position.phase.index + 1),
        units=tuple(attacker if u is unit else u for u in position.units),
        centers=position.centers,
        dislodged=(DislodgedUnit(unit, came_from),),
    )


def _units_of(position: Position, power: str) -> list[Unit]:
    return [u for u in position.units if u.power == power]


def _problems(game_map: GameMap, position: Position, power: str, orders: Sequence[Order]) -> list[str]:
    """Everything wrong with ``orders`` as a power's full set for the phase: illegal by the core's
    validation, not read back as itself by the judge's order reader, or incomplete."""
    problems = []
    kind = position.phase.type
    for order in orders:
        reason = validate(position, power, order, game_map, DEFAULT_RULES)
        if reason is not None:
            problems.append(f"{position.phase} {power} {order}: {reason}")
        read = read_order_line(str(order), game_map, phase_type=kind)
        if len(read) != 1 or isinstance(read[0], Exception) or read[0].order != order:
            problems.append(f"{position.phase} {power} {order}: read back as {read}")
    if kind is PhaseType.MOVEMENT:
        ordered = sorted(o.unit.location for o in orders if not isinstance(o, Build | Waive | Remove))
        expected = sorted(u.location for u in _units_of(position, power))
        if ordered != expected:
            problems.append(f"{position.phase} {power}: orders for {ordered}, units at {expected}")
    elif kind is PhaseType.RETREAT:
        ordered = sorted(o.unit.location for o in orders if isinstance(o, Retreat | Disband))
        expected = sorted(d.unit.location for d in position.dislodged if d.unit.power == power)
        if ordered != expected or len(ordered) != len(orders):
            problems.append(f"{position.phase} {power}: retreats for {ordered}, dislodged at {expected}")
    else:
        owed = len(position.centers.get(power, frozenset())) - len(_units_of(position, power))
        builds = [o for o in orders if isinstance(o, Build)]
        removals = [o for o in orders if isinstance(o, Remove)]
        if owed > 0:
            possible = min(owed, len(build_sites(position, power, game_map)))
            if len(builds) != possible or removals:
                problems.append(f"{position.phase} {power}: {len(builds)} builds for {possible} possible")
        elif owed < 0:
            if len(removals) != min(-owed, len(_units_of(position, power))) or builds:
                problems.append(f"{position.phase} {power}: {len(removals)} removals for {-owed} owed")
        elif orders:
            problems.append(f"{position.phase} {power}: orders though nothing is owed: {orders}")
    return problems


@pytest.mark.parametrize("variant", available_variants())
def test_every_order_on_random_positions_is_legal_complete_and_reads_back(variant: str) -> None:
    game_map = load_map(variant)
    kinds: set[PhaseType] = set()
    problems: list[str] = []
    positions = _random_positions(game_map, 1, 22) + _random_positions(game_map, 2, 22)
    if not any(p.phase.type is PhaseType.RETREAT for p in positions):
        # Powers far apart (England and Turkey alone) may meet no one in random games: a unit
        # dislodged by hand on the boards of those games.
        positions += [_dislodged(game_map, p) for p in positions if p.phase.type is PhaseType.MOVEMENT][:6]
    for seed, position in enumerate(positions):
        kinds.add(position.phase.type)
        powers = sorted({u.power for u in position.units} - {NEUTRAL} | set(position.centers))
        for power in powers:
            for level in LEVELS:
                orders = bot_orders(game_map, position, power, DEFAULT_RULES, seed, level)
                problems += _problems(game_map, position, power, orders)
    assert kinds == set(PhaseType)
    assert problems == []


def test_the_same_seed_gives_the_same_orders_and_the_seed_breaks_ties() -> None:
    game_map = load_map("standard")
    position = opening_position(game_map)
    for level in LEVELS:
        first = {p: bot_orders(game_map, position, p, DEFAULT_RULES, 5, level) for p in game_map.powers}
        again = {p: bot_orders(game_map, position, p, DEFAULT_RULES, 5, level) for p in game_map.powers}
        assert first == again
    differ = {
        tuple(map(str, bot_orders(game_map, position, p, DEFAULT_RULES, seed, "normal")))
        for p in game_map.powers
        for seed in range(8)
    }
    assert len(differ) > len(game_map.powers)


def test_an_unknown_level_is_refused() -> None:
    game_map = load_map("standard")
    with pytest.raises(ValueError, match="unknown bot level"):
        bot_orders(game_map, opening_position(game_map), "FRANCE", DEFAULT_RULES, 0, "clever")  # type: ignore[arg-type]


def _bot_game(variant: str, years: int, level: Level = "normal") -> tuple[Position, str | None, list[str]]:
    """Every power played by a bot of ``level`` until a solo or ``years`` years have passed."""
    game_map = load_map(variant)
    position = opening_position(game_map)
    problems: list[str] = []
    while position.phase.year < game_map.first_phase.year + years:
        orders = {}
        for index, power in enumerate(game_map.powers):
            given = bot_orders(game_map, position, power, DEFAULT_RULES, index, level)
            problems += [
                f"{position.phase} {power} {o}: {r}"
                for o in given
                if (r := validate(position, power, o, game_map, DEFAULT_RULES)) is not None
            ]
            if given:
                orders[power] = given
        result = adjudicate(position, orders, DEFAULT_RULES, game_map)
        position = result.position
        if result.winner:
            return position, result.winner, problems
    return position, None, problems


@pytest.mark.parametrize("variant", available_variants())
def test_a_game_of_bots_plays_every_phase_legally(variant: str) -> None:
    game_map = load_map(variant)
    position, _winner, problems = _bot_game(variant, 3)
    assert problems == []
    assert position.phase >= Phase(game_map.first_phase.year + 3, 0)


@pytest.mark.slow
@pytest.mark.parametrize("variant", available_variants())
def test_a_game_of_bots_runs_to_its_end(variant: str) -> None:
    """To a solo, or 40 years; the normal bots of Standard reach a solo."""
    position, winner, problems = _bot_game(variant, 40)
    assert problems == []
    if variant == "standard":
        assert winner is not None
        assert len(position.centers[winner]) >= load_map(variant).win_centers


# ------------------------------------------------------------------ behaviour on hand-made boards


def _position(phase: str, units: str, centers: dict[str, str], dislodged: Sequence[DislodgedUnit] = ()) -> Position:
    """``units``: "FRANCE A PAR, GERMANY A BUR"; ``centers``: power -> "PAR MAR"."""
    made = []
    for item in units.split(","):
        power, kind, location = item.split()
        made.append(Unit(power, UnitType(kind), location))
    return Position(
        variant="standard",
        phase=Phase.parse(phase),
        units=tuple(made),
        centers={p: frozenset(c.split()) for p, c in centers.items()},
        dislodged=tuple(dislodged),
    )


STANDARD_CENTRES = {
    "ENGLAND": "LON LVP EDI",
    "GERMANY": "BER MUN KIE",
    "ITALY": "ROM NAP VEN",
    "AUSTRIA": "VIE BUD TRI",
    "RUSSIA": "MOS STP WAR SEV",
    "TURKEY": "ANK CON SMY",
}


def _u(text: str) -> UnitRef:
    kind, location = text.split()
    return UnitRef(UnitType(kind), location)


def _orders(position: Position, power: str, level: Level, seed: int = 0) -> list[Order]:
    game_map = load_map("standard")
    orders = bot_orders(game_map, position, power, DEFAULT_RULES, seed, level)
    assert _problems(game_map, position, power, orders) == []
    return orders


@pytest.mark.parametrize("seed", range(4))
def test_sensible_supports_a_threatened_centre_and_never_attacks(seed: int) -> None:
    position = _position(
        "F1901M",
        "FRANCE A PAR, FRANCE A PIC, FRANCE A GAS, GERMANY A BUR, GERMANY A RUH, ENGLAND F ENG",
        {"FRANCE": "PAR MAR BRE", **STANDARD_CENTRES},
    )
    orders = _orders(position, "FRANCE", "sensible", seed)
    assert Hold(_u("A PAR")) in orders
    assert SupportHold(_u("A PIC"), _u("A PAR")) in orders or SupportHold(_u("A GAS"), _u("A PAR")) in orders
    assert not [o for o in orders if isinstance(o, SupportMove)]
    # The only move: the army in Gascony into Brest, French, empty and threatened by the English fleet.
    assert [o for o in orders if isinstance(o, Move)] == [Move(_u("A GAS"), "BRE")]


def test_sensible_fills_an_empty_threatened_centre_but_enters_nothing_foreign() -> None:
    position = _position(
        "S1902M",
        "FRANCE A GAS, FRANCE A BUR, GERMANY A RUH, ITALY A PIE",
        {"FRANCE": "PAR MAR BRE", **STANDARD_CENTRES},
    )
    orders = _orders(position, "FRANCE", "sensible")
    moves = [o for o in orders if isinstance(o, Move)]
    assert moves and all(o.destination in ("PAR", "MAR", "BRE") for o in moves)
    assert Move(_u("A GAS"), "MAR") in orders or Move(_u("A BUR"), "MAR") in orders



@pytest.mark.parametrize("level", LEVELS)
def test_a_dislodged_unit_retreats_to_a_centre_rather_than_away(level: Level) -> None:
    # The French army in Burgundy was dislodged from Munich; Paris and Marseilles are French and
    # empty, Picardy and Gascony are not centres. The sensible bot keeps a centre of its own; the
    # normal one may take neutral Belgium instead (a centre all the same, in the fall).
    position = _position(
        "F1901R",
        "GERMANY A BUR, GERMANY A RUH, FRANCE F BRE",
        {"FRANCE": "PAR MAR BRE", **STANDARD_CENTRES},
        dislodged=[DislodgedUnit(Unit("FRANCE", UnitType.ARMY, "BUR"), "MUN")],
    )
    orders = _orders(position, "FRANCE", level)
    assert len(orders) == 1
    assert isinstance(orders[0], Retreat)
    assert orders[0].destination in (("PAR", "MAR") if level == "sensible" else ("PAR", "MAR", "BEL"))


def test_sensible_builds_where_threatened_and_removes_the_farthest() -> None:
    # One build: Marseilles, next to the Italian army, before Paris (Brest is taken).
    owed_one = _position(
        "W1901A",
        "FRANCE A PIC, FRANCE F BRE, ITALY A PIE",
        {"FRANCE": "PAR MAR BRE", **STANDARD_CENTRES},
    )
    orders = _orders(owed_one, "FRANCE", "sensible")
    assert len(orders) == 1 and isinstance(orders[0], Build) and orders[0].location == "MAR"
    # Two units too many: the army in Moscow, far from every French centre, goes first.
    surplus = _position(
        "W1903A",
        "FRANCE A PAR, FRANCE A MOS, FRANCE A GAS",
        {"FRANCE": "PAR MAR", **{k: v for k, v in STANDARD_CENTRES.items() if k != "RUSSIA"}},
    )
    assert _orders(surplus, "FRANCE", "sensible") == [Remove(_u("A MOS"))]


@pytest.mark.parametrize("seed", range(4))
def test_normal_takes_an_undefended_neutral_centre(seed: int) -> None:
    position = _position(
        "F1901M",
        "GERMANY A RUH, GERMANY A KIE, GERMANY A MUN, FRANCE A PAR",
        {"FRANCE": "PAR MAR BRE", **STANDARD_CENTRES},
    )
    orders = _orders(position, "GERMANY", "normal", seed)
    taken = {o.destination for o in orders if isinstance(o, Move)}
    assert taken & {"HOL", "BEL", "DEN"}


@pytest.mark.parametrize("seed", range(4))
def test_normal_supports_its_own_attack(seed: int) -> None:
    # Belgium is French and held; the German armies in Holland and the Ruhr can take it together.
    position = _position(
        "F1902M",
        "GERMANY A HOL, GERMANY A RUH, FRANCE A BEL",
        {"FRANCE": "PAR MAR BRE BEL", "GERMANY": "BER MUN KIE HOL"}
        | {k: v for k, v in STANDARD_CENTRES.items() if k != "GERMANY"},
    )
    orders = _orders(position, "GERMANY", "normal", seed)
    moves = [o for o in orders if isinstance(o, Move) and o.destination == "BEL"]
    assert len(moves) == 1
    mover = moves[0].unit
    assert [o for o in orders if isinstance(o, SupportMove)] == [
        SupportMove(_u("A RUH") if mover == _u("A HOL") else _u("A HOL"), mover, "BEL")
    ]
