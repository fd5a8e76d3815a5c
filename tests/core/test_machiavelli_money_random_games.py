"""Seeded random games of the Renaissance game with money: whatever the orders, no ducat appears
or vanishes unaccounted for, and no treasury goes below nothing.

Each game starts at the scenario's first adjustments (income, then upkeep), then plays its years
(one of them with special units built at random and fleets convoying from the coasts, two of
its armies set beside the fleets of Pisa and Naples so that they may):
every campaign, each power pays the bank, gives, borrows and spends four expenses at random
(bribes and counter-bribes on units near and far, rebellions, pacifications, famine relief),
before the random moves of :mod:`tests.core.test_machiavelli_random_games`; every winter
collects the income and pays for units kept and built. A famine marker or two is laid on the
board each winter so that relief has something to relieve (the famine's own dice, with every
other die, are played in :mod:`tests.core.test_machiavelli_dice_random_games`).
After every step: the board is legal (the same checks as the games without money, and the JSON
round trip with treasuries and loans); each treasury is its old value plus the ledger's entries;
gifts add up to nothing; no treasury is below zero; no power owes the bank more than 25 ducats of
principal or a loan already due; a power that defaulted is never lent to again. A defaulter is
assassinated: its orders hold in the moves that follow, and its provinces may rebel.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from types import MappingProxyType

import pytest

from judge.core.adjudicator import Outcome
from judge.core.machiavelli.adjustments import Dismiss, Maintain, Raise, build_sites
from judge.core.machiavelli.board import AUTONOMOUS, MachiavelliBoard, load_board
from judge.core.machiavelli.campaign import (
    MachiavelliPosition,
    adjudicate_campaign,
    adjudicate_retreats,
    end_of_campaign,
    opening_position,
)
from judge.core.machiavelli.money import (
    BANK_LIMIT,
    Entry,
    MoneyAdjustmentOrder,
    adjudicate_money,
    adjudicate_money_adjustments,
    collect_income,
)
from judge.core.machiavelli.options import MachiavelliOptions
from judge.core.machiavelli.orders import (
    Borrow,
    Bribe,
    BribeKind,
    CauseRebellion,
    CounterBribe,
    Expense,
    ExpenseAction,
    FamineRelief,
    Give,
    MoneyOrder,
    PacifyRebellion,
    PayBank,
    Target,
)
from judge.core.machiavelli.special_units import SpecialKind
from judge.core.machiavelli.treasury import Finances, Unrest
from judge.core.orders import Convoy, Disband, Retreat
from judge.core.phase import PhaseType
from judge.core.units import UnitRef, UnitType
from tests.core.test_machiavelli_random_games import _check, _orders, coastal_convoys

YEARS = 4


def _money(position: MachiavelliPosition) -> Finances:
    assert position.money is not None
    return position.money


def _targets(position: MachiavelliPosition) -> list[Target]:
    return [Target(unit.province) for unit in position.units] + [
        Target(city, True) for city in position.garrisons
    ]


def _near(board: MachiavelliBoard, position: MachiavelliPosition, power: str) -> list[Target]:
    """The units of other powers (and autonomous garrisons) in or next to ``power``'s provinces."""
    places = {unit.province for unit in position.units if unit.power == power}
    places |= {city for city, owner in position.garrisons.items() if owner == power}
    reach = places | {n for place in places for n in board.game_map.province_neighbours(place)}
    return [t for t in _targets(position) if t.province in reach]


def _action(
    rng: random.Random, board: MachiavelliBoard, position: MachiavelliPosition, power: str
) -> ExpenseAction:
    land = sorted(p for p in board.game_map.provinces if board.game_map.is_land(p))
    choice = rng.random()
    near = _near(board, position, power)
    targets = near if near and rng.random() < 0.8 else _targets(position)
    if choice < 0.35 and targets:
        target = rng.choice(targets)
        return Bribe(rng.choice(list(BribeKind)), target)
    if choice < 0.55 and targets:
        return CounterBribe(rng.choice(targets))
    if choice < 0.7:
        return CauseRebellion(rng.choice(land))
    if choice < 0.85:
        rebels = sorted(position.unrest.rebellions)
        return PacifyRebellion(
            rng.choice(rebels) if rebels and rng.random() < 0.8 else rng.choice(land)
        )
    famine = sorted(position.unrest.famine)
    return FamineRelief(rng.choice(famine) if famine and rng.random() < 0.8 else rng.choice(land))


def _money_orders(
    rng: random.Random, board: MachiavelliBoard, position: MachiavelliPosition
) -> dict[str, list[MoneyOrder]]:
    orders: dict[str, list[MoneyOrder]] = {}
    powers = board.game_map.powers
    for power in powers:
        given: list[MoneyOrder] = []
        if rng.random() < 0.3:
            given.append(PayBank(rng.randint(1, 20)))
        if rng.random() < 0.3:
            given.append(Give(rng.randint(1, 12), rng.choice(powers)))
        if rng.random() < 0.4:
            given.append(Borrow(rng.randint(1, 20), rng.choice((1, 2, 3))))
        for number in range(1, 5):
            if rng.random() < 0.5:
                action = _action(rng, board, position, power)
                given.append(Expense(number, rng.choice((3, 6, 9, 12, 15, 18, 21, 24, 36)), action))
        if rng.random() < 0.05:
            given.append(Expense(rng.randint(1, 4), 0, None))
        orders[power] = given
    return orders


def _winter_orders(
    rng: random.Random,
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    special: bool = False,
) -> dict[str, list[MoneyAdjustmentOrder]]:
    orders: dict[str, list[MoneyAdjustmentOrder]] = {}
    for power in board.game_map.powers:
        given: list[MoneyAdjustmentOrder] = []
        own = [(unit.province, False) for unit in position.units if unit.power == power]
        own += [(city, True) for city, owner in position.garrisons.items() if owner == power]
        for province, garrison in own:
            roll = rng.random()
            given.append(
                Maintain(province, garrison) if roll < 0.6 else Dismiss(province, garrison)
            )
        for site in sorted(build_sites(board, position, power)):
            if rng.random() < 0.4:
                kind = (
                    UnitType.FLEET if board.is_port(site) and rng.random() < 0.4 else UnitType.ARMY
                )
                elite = rng.choice(list(SpecialKind)) if special and rng.random() < 0.5 else None
                given.append(Raise(site, kind, garrison=rng.random() < 0.3, special=elite))
        rng.shuffle(given)
        orders[power] = given
    return orders


def _check_ledger(
    before: MachiavelliPosition, after: MachiavelliPosition, ledger: tuple[Entry, ...]
) -> None:
    old, new = _money(before), _money(after)
    for power, ducats in new.treasuries.items():
        assert ducats >= 0, f"{power} has {ducats} ducats"
        moved = sum(entry.ducats for entry in ledger if entry.power == power)
        assert ducats == old.treasury(power) + moved, (
            f"{power}: {old.treasury(power)} + {moved} != {ducats}"
        )
    assert sum(entry.ducats for entry in ledger if entry.kind == "gift") == 0, (
        "gifts made or lost ducats"
    )


def _check_bank(
    before: MachiavelliPosition, after: MachiavelliPosition, defaulted: tuple[str, ...]
) -> None:
    old, new = _money(before), _money(after)
    for power, loans in new.loans.items():
        assert new.debt(power) <= BANK_LIMIT
        assert all(loan.due > after.phase and loan.owed > 0 for loan in loans), (
            "a loan due was left unpaid"
        )
        if power in old.barred:
            assert new.debt(power) <= old.debt(power), "the bank lent to a defaulter"
    assert set(defaulted) <= new.barred and old.barred <= new.barred


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (11, MachiavelliOptions()),
        (12, MachiavelliOptions(adjacency=False)),
        (13, MachiavelliOptions(dice=False, summer=False)),
        (14, MachiavelliOptions(loans=False, mach2=True)),
        (15, MachiavelliOptions(adjacency=False, fortresses=True)),
        (16, MachiavelliOptions(special=True, coastal_convoys=True)),
    ],
)
def test_seeded_random_money_games_account_for_every_ducat(
    seed: int, options: MachiavelliOptions
) -> None:
    rng = random.Random(seed)
    board = load_board()
    special = seed == 16  # the game that raises special units and convoys from the coasts
    opening = opening_position(board, options)
    treasuries = {power: rng.randint(20, 60) for power in board.game_map.powers}
    if special:  # armies beside the fleets of Pisa and Naples, which may carry them along the coast
        moved = {"ARE": "LUC", "BAR": "SLR"}
        opening = replace(
            opening,
            units=tuple(replace(u, location=moved.get(u.location, u.location)) for u in opening.units),
        )
    position = replace(
        opening, phase=board.first_phase, money=Finances(MappingProxyType(treasuries))
    )
    land = sorted(p for p in board.game_map.provinces if board.game_map.is_land(p))
    seen: Counter[str] = Counter()
    while position.phase.year < board.first_phase.year + 1 + YEARS:
        _check(board, position, options)
        if position.phase.type is PhaseType.ADJUSTMENT:
            income = collect_income(board, position, seed=seed, options=options)
            assert all(report.total >= 0 for report in income.reports)
            _check_ledger(position, income.position, income.ledger)
            position = income.position
            adjusted = adjudicate_money_adjustments(
                board, position, _winter_orders(rng, board, position, special), options
            )
            _check_ledger(position, adjusted.position, adjusted.ledger)
            for power in board.game_map.powers:
                paid = [
                    v
                    for v in adjusted.verdicts
                    if v.power == power and v.outcome is Outcome.SUCCEEDS
                ]
                units = sum(u.power == power for u in adjusted.position.units)
                units += sum(owner == power for owner in adjusted.position.garrisons.values())
                assert units == sum(isinstance(v.order, Maintain | Raise) for v in paid), (
                    "a unit kept unpaid"
                )
            seen["build"] += sum(
                isinstance(v.order, Raise) and v.outcome is Outcome.SUCCEEDS
                for v in adjusted.verdicts
            )
            seen["special built"] += sum(
                isinstance(v.order, Raise) and v.order.special is not None and v.outcome is Outcome.SUCCEEDS
                for v in adjusted.verdicts
            )
            famine = frozenset(rng.sample(land, rng.randint(0, 2)))
            position = replace(
                adjusted.position, unrest=Unrest(adjusted.position.unrest.rebellions, famine)
            )
            continue
        if position.phase.type is PhaseType.RETREAT:
            retreats: dict[str, list[Retreat | Disband]] = {}
            for unit, places in position.retreats.items():
                here = UnitRef(unit.type, unit.location)
                retreats.setdefault(unit.power, []).append(Retreat(here, rng.choice(places)))
            position = adjudicate_retreats(board, position, retreats, options)
        else:
            orders = _money_orders(rng, board, position)
            result = adjudicate_money(board, position, orders, options, seed=seed)
            _check_ledger(position, result.position, result.ledger)
            _check_bank(position, result.position, result.defaulted)
            for verdict in result.verdicts:
                if isinstance(verdict.order, Expense):
                    assert 0 <= verdict.paid <= verdict.order.ducats
                if verdict.outcome is Outcome.SUCCEEDS:
                    seen[
                        type(verdict.order.action).__name__
                        if isinstance(verdict.order, Expense)
                        else type(verdict.order).__name__
                    ] += 1
            seen["default"] += len(result.defaulted)
            assert all(
                owner in board.game_map.powers or owner == AUTONOMOUS
                for owner in result.position.garrisons.values()
            )
            _check(board, result.position, options)
            moves = _orders(rng, board, result.position)
            if special:
                coastal_convoys(rng, board, result.position, moves)
                seen["special in play"] += len(result.position.specials)
            assassinated = frozenset(result.defaulted)
            seen["garrison lost"] += len(result.garrisons_lost)
            seen["rebellion rolled"] += sum(roll.rose for roll in result.rebellion_rolls)
            played = adjudicate_campaign(
                board, result.position, moves, options, assassinated=assassinated
            )
            seen["coastal convoy"] += sum(
                isinstance(v.order, Convoy)
                and v.outcome is Outcome.SUCCEEDS
                and not board.game_map.is_water(v.order.unit.province)
                for v in played.verdicts
            )
            position = played.position
        if position.phase.type is not PhaseType.RETREAT:
            position = end_of_campaign(board, position)[1]
    assert seen["Bribe"] and seen["CounterBribe"] and seen["build"], f"too quiet to test: {seen}"
    if special:
        assert seen["special built"] and seen["special in play"] and seen["coastal convoy"], (
            f"no special unit or coastal convoy: {seen}"
        )
    assert seen["Borrow"] or not options.lends, f"no loan in the whole game: {seen}"
    assert (seen["default"] and seen["rebellion rolled"]) or not options.lends, (
        f"no default: {seen}"
    )
