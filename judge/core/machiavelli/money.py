"""Money in the Renaissance game (the advanced rules): income, upkeep, the bank, gifts, expenses.

The figures are the classic Judge's rules for the standard scenario:

* **Income**, once a year when the adjustments begin (:func:`collect_income`): a ducat for each
  sea holding one of the power's fleets, a ducat for each land province it controls, each city
  it controls its number of ducats (1, or the number of a major city; a fortress yields
  nothing), and the variable income: the dice of each home country it holds (and of a city such
  as Genoa, for whoever controls that city), each die read in the scenario's table. Under SET NO
  DICE every die reads 4 in odd years and 3 in even years. A province under famine, or in
  rebellion, yields nothing; a city yields nothing when it rebels or when its province starves
  without a garrison in it (a garrisoned city always yields).
* **Upkeep** (:func:`adjudicate_money_adjustments`): every unit on the board costs 3 ducats a
  year (a citizens' militia or elite mercenaries 6, elite professionals 9); a unit not maintained (or not paid for) is removed, and each new unit costs 3 ducats,
  placed by the rules of :mod:`.adjustments`, never in a rebelling or starving province.
* **The bank**, before each campaign's moves (:func:`adjudicate_money`): a power owes the bank
  25 ducats of principal at most; a loan runs one year at 20% or two years at 50%, the interest
  rounded up, and falls due in the same campaign of that later year. In order: repayments to the
  bank (interest of the earliest loan first, then its principal, then the next loan), gifts to
  other powers (refused while the giver owes the bank), new loans, then the bank collects what
  is due. A power that cannot pay defaults: the bank takes its treasury, strikes the loans due,
  never lends to it again, and has it assassinated (:attr:`MoneyResult.defaulted`; its
  expenses that campaign are spent for nothing, its orders hold, its besieged garrisons fall
  and its provinces may rebel: :mod:`.assassination`).
* **Expenses**, up to four a campaign, paid in their numbers' order (with what is left when the
  treasury runs short) and spent whether or not they work: famine relief (3 ducats), pacifying a
  rebellion (12), causing one in a province another power controls (9; 15 in that power's home
  country), counter-bribes (any amount, 3 or more) and bribes. A bribe costs, at least: 6 to
  disband an autonomous garrison, 9 to buy one, 9 to make another power's garrison autonomous,
  12 to disband another power's garrison, army or fleet, 18 to buy it; double for a garrison of a
  major city, and double again for a citizens' militia or elite professionals
  (:mod:`.special_units`: a special unit bought stays special; a power never buys a second). Of the bribes aimed at one unit only the largest counts (a tie for the largest:
  all fail); the counter-bribes on that unit are taken from it, and it succeeds if what remains
  still pays its price. A bought unit changes sides where it stands (with the province's control,
  and any rebellion against its old owner there ends); a unit bought or disbanded ends the sieges
  it was part of.
* **Assassination** (SET ASSASSINATIONS, with the dice), an expense of 12, 24 or 36 ducats
  paid after every other: each power starts with one chit against each other power, and an
  attempt spends the payer's chit against its victim (without one it is wasted). One die: the
  attempt succeeds on 1 for 12 ducats, 1-2 for 24, 1-3 for 36 (more is wasted); under 12 it
  fails and keeps the chit. A chit may be given to another power (:class:`GiveChit`, with the
  gifts). Whether one attempt or several succeed, the victim is assassinated once
  (:mod:`.assassination`); his own expenses still go through, unlike a defaulter's. Who paid is
  his secret (his books and the master's rolls); the victim is public.
* **Adjacency** (SET ADJACENCY): an expense needs one of the payer's units (army, fleet or
  garrison) in the province it aims at or in a province next to it; a power may always
  counter-bribe its own units.

Everything here is a function of the position, the orders, the options and the seed: no clock,
no I/O. Each step returns a ledger of every ducat that moved, so that a game can be audited.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from judge.core.adjudicator import Outcome
from judge.core.machiavelli.adjustments import (
    AdjustmentVerdict,
    Dismiss,
    Maintain,
    Raise,
    build_sites,
    dismiss_unit,
    trades_old_for_new,
    why_not_build,
)
from judge.core.machiavelli.assassination import RebellionRoll, assassinate
from judge.core.machiavelli.board import AUTONOMOUS, MachiavelliBoard
from judge.core.machiavelli.campaign import (
    MachiavelliPosition,
    countries_held,
    live_sieges,
    update_control,
)
from judge.core.machiavelli.dice import Roll, dice_for
from judge.core.machiavelli.options import FIRST_EDITION, MachiavelliOptions
from judge.core.machiavelli.orders import (
    Assassinate,
    Borrow,
    Bribe,
    BribeKind,
    CauseRebellion,
    CounterBribe,
    Expense,
    FamineRelief,
    Give,
    GiveChit,
    MoneyOrder,
    PacifyRebellion,
    PayBank,
    Target,
)
from judge.core.machiavelli.special_units import (
    SpecialKind,
    UnitPlace,
    has_special,
    special_of,
    specials_standing,
    upkeep,
)
from judge.core.machiavelli.treasury import Finances, Loan, Rebellion, Unrest
from judge.core.machiavelli.year import next_phase
from judge.core.phase import Phase, PhaseType
from judge.core.units import Unit, UnitType

UPKEEP = upkeep(None)
"""Ducats an ordinary unit costs each year, to build or to keep (a special unit: 6 or 9)."""
BANK_LIMIT = 25
"""The most principal a power may owe the bank."""
LOAN_INTEREST = MappingProxyType({1: 20, 2: 50})
"""Per cent of interest by the loan's years."""
MAX_EXPENSES = 4
FAMINE_RELIEF = 3
PACIFY_REBELLION = 12
CONQUERED_REBELLION = 9
HOME_REBELLION = 15
COUNTER_BRIBE_MINIMUM = 3
DISBAND_AUTONOMOUS = 6
BUY_AUTONOMOUS = 9
TO_AUTONOMOUS = 9
DISBAND_COMMITTED = 12
BUY_COMMITTED = 18
ASSASSINATION_STEP = 12
"""Ducats that buy each sixth of an assassination's chance."""
ASSASSINATION_MOST = 3
"""The most sixths an attempt may buy (36 ducats: a half chance)."""
NO_DICE_ROLLS = (3, 4)
"""Under SET NO DICE a die reads 3 in even years and 4 in odd years."""


@dataclass(frozen=True, slots=True)
class Entry:
    """``ducats`` (signed) moved in or out of ``power``'s treasury, and why (``kind``: income,
    upkeep, build, repay, gift, borrow, collect, seized, expense)."""

    power: str
    kind: str
    ducats: int


@dataclass(frozen=True, slots=True)
class MoneyVerdict:
    power: str
    order: MoneyOrder
    outcome: Outcome
    reason: str = ""
    paid: int = 0


@dataclass(frozen=True, slots=True)
class MoneyResult:
    """The campaign's money step: ``position`` is the same phase, ready for the moves."""

    position: MachiavelliPosition
    verdicts: tuple[MoneyVerdict, ...]
    ledger: tuple[Entry, ...]
    defaulted: tuple[str, ...]
    garrisons_lost: tuple[str, ...] = ()
    rebellion_rolls: tuple[RebellionRoll, ...] = ()
    assassinated: tuple[str, ...] = ()
    """The powers whose leader a power's expense assassinated (the bank's victims: ``defaulted``)."""
    attempts: tuple[Roll, ...] = ()
    """The die of each assassination attempt, and who paid for it (the master's eyes only)."""

    @property
    def victims(self) -> tuple[str, ...]:
        """Every power assassinated this campaign, by the bank or by another power."""
        return tuple(sorted({*self.defaulted, *self.assassinated}))

    @property
    def rolls(self) -> tuple[Roll, ...]:
        rebels = tuple(
            Roll("rebellion", f"{r.power} {r.province}", (r.roll,), "rose" if r.rose else "calm")
            for r in self.rebellion_rolls
        )
        return (*self.attempts, *rebels)


@dataclass(frozen=True, slots=True)
class IncomeReport:
    power: str
    fleets: int
    provinces: int
    cities: int
    rolls: tuple[int, ...]
    variable: int
    thrown: bool = True
    """False under SET NO DICE: ``rolls`` are the year's fixed numbers, no die was thrown."""

    @property
    def total(self) -> int:
        return self.fleets + self.provinces + self.cities + self.variable


@dataclass(frozen=True, slots=True)
class IncomeResult:
    position: MachiavelliPosition
    reports: tuple[IncomeReport, ...]
    ledger: tuple[Entry, ...]


MoneyAdjustmentOrder = Raise | Dismiss | Maintain


@dataclass(frozen=True, slots=True)
class MoneyAdjustmentResult:
    verdicts: tuple[AdjustmentVerdict, ...]
    position: MachiavelliPosition
    ledger: tuple[Entry, ...]


def finances(board: MachiavelliBoard, position: MachiavelliPosition) -> Finances:
    """The position's finances (the scenario's treasuries when it carries none yet)."""
    if position.money is not None:
        return position.money
    return Finances(MappingProxyType(dict(board.treasuries)))


def chits_held(board: MachiavelliBoard, money: Finances) -> dict[str, tuple[str, ...]]:
    """Each power's assassination chits (at the start: one against each other power)."""
    if money.chits is not None:
        return {power: tuple(held) for power, held in money.chits.items()}
    powers = board.game_map.powers
    return {power: tuple(other for other in powers if other != power) for power in powers}


# ----------------------------------------------------------------------------- income


def collect_income(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    seed: int | str,
    options: MachiavelliOptions = FIRST_EDITION,
) -> IncomeResult:
    """Pay every power its year's income at the start of the adjustments of ``position``.

    The dice come from ``seed`` and the phase only, thrown in the board's order of powers and
    then of cities, so the same game always rolls the same numbers.
    """
    if position.phase.type is not PhaseType.ADJUSTMENT:
        raise ValueError(
            f"{position.phase} is not an adjustment phase: income comes with the adjustments"
        )
    rng = random.Random(f"{seed}/{position.phase}/income")
    money = finances(board, position)
    treasuries = dict(money.treasuries)
    reports: list[IncomeReport] = []
    ledger: list[Entry] = []
    for power in board.game_map.powers:
        rolls = _variable_rolls(board, position, power, rng, options)
        report = IncomeReport(
            power,
            fleets=_fleets_at_sea(board, position, power),
            provinces=_province_income(board, position, power),
            cities=_city_income(board, position, power),
            rolls=tuple(roll for roll, _ in rolls),
            variable=sum(ducats for _, ducats in rolls),
            thrown=options.dice,
        )
        reports.append(report)
        if report.total:
            treasuries[power] = treasuries.get(power, 0) + report.total
            ledger.append(Entry(power, "income", report.total))
    return IncomeResult(
        replace(position, money=replace(money, treasuries=MappingProxyType(treasuries))),
        tuple(reports),
        tuple(ledger),
    )


def _fleets_at_sea(board: MachiavelliBoard, position: MachiavelliPosition, power: str) -> int:
    return sum(
        1
        for unit in position.units
        if unit.power == power
        and unit.type is UnitType.FLEET
        and board.game_map.is_water(unit.province)
    )


def _province_income(board: MachiavelliBoard, position: MachiavelliPosition, power: str) -> int:
    unrest = position.unrest
    return sum(
        1
        for province, owner in position.control.provinces.items()
        if owner == power
        and province not in unrest.famine
        and not _province_rebels(position, province)
    )


def _province_rebels(position: MachiavelliPosition, province: str) -> bool:
    rebellion = position.unrest.rebellions.get(province)
    return rebellion is not None and rebellion.province


def _city_income(board: MachiavelliBoard, position: MachiavelliPosition, power: str) -> int:
    unrest = position.unrest
    total = 0
    for city, owner in position.control.cities.items():
        found = board.cities.get(city)
        if owner != power or found is None:
            continue
        garrisoned = city in position.garrisons
        rebellion = unrest.rebellions.get(city)
        if not garrisoned and (city in unrest.famine or (rebellion is not None and rebellion.city)):
            continue
        total += found.income
    return total


def _variable_rolls(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    power: str,
    rng: random.Random,
    options: MachiavelliOptions,
) -> list[tuple[int, int]]:
    """(roll, ducats) of each die ``power`` throws: for the countries it holds, then its cities."""
    held = countries_held(board, position)
    sources = [country for country in board.game_map.powers if held.get(country) == power]
    sources += sorted(
        city for city in board.variable_income if position.control.cities.get(city) == power
    )
    rolls: list[tuple[int, int]] = []
    for source in sources:
        table = board.variable_income.get(source)
        if table is None:
            continue
        for _ in range(table.dice):
            roll = rng.randint(1, 6) if options.dice else NO_DICE_ROLLS[position.phase.year % 2]
            rolls.append((roll, table.table[roll - 1]))
    return rolls


# ----------------------------------------------------------------------------- adjustments


def adjudicate_money_adjustments(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    orders: Mapping[str, Sequence[MoneyAdjustmentOrder]],
    options: MachiavelliOptions = FIRST_EDITION,
) -> MoneyAdjustmentResult:
    """The advanced game's adjustments (income already collected): keep or build, 3 ducats each
    (a special unit 6, or 9 for the elite professionals).

    Each power's orders are taken in the order given; a unit is kept only when maintained and
    paid for, and removed otherwise ("not maintained"); a build is placed as in the basic game
    (:func:`~judge.core.machiavelli.adjustments.why_not_build`), never in a rebelling or starving
    province, and paid for. An order the treasury cannot pay fails. A special unit is built only
    by a power without one (one not yet removed this winter, or built earlier in its orders), and
    under SET MACH2 only of a kind the scenario lets that power build (it may still keep one it
    has, or buy one: the classic Judge's reading of the second edition).
    """
    if position.phase.type is not PhaseType.ADJUSTMENT:
        raise ValueError(f"{position.phase} is not an adjustment phase")
    money = finances(board, position)
    treasuries = dict(money.treasuries)
    units = list(position.units)
    garrisons = dict(position.garrisons)
    specials = dict(specials_standing(position.specials, position.units, position.garrisons))
    verdicts: list[AdjustmentVerdict] = []
    ledger: list[Entry] = []
    for power in board.game_map.powers:
        kept: set[tuple[str, bool]] = set()
        dismissed: set[tuple[str, bool]] = set()
        used: set[str] = set()
        sites = build_sites(board, position, power)
        owned_at_start = {(u.province, False) for u in position.units if u.power == power}
        owned_at_start |= {
            (city, True) for city, owner in position.garrisons.items() if owner == power
        }
        for order in orders.get(power, ()):
            if isinstance(order, Dismiss):
                key = (order.province, order.garrison)
                if key not in owned_at_start or key in dismissed:
                    verdicts.append(
                        AdjustmentVerdict(power, order, Outcome.INVALID, "no such unit")
                    )
                    continue
                dismiss_unit(power, order, units, garrisons)
                specials.pop(UnitPlace(power, order.province, order.garrison), None)
                dismissed.add(key)
                kept.discard(key)
                verdicts.append(AdjustmentVerdict(power, order, Outcome.SUCCEEDS))
                continue
            if isinstance(order, Maintain):
                key = (order.province, order.garrison)
                reason = (
                    "no such unit"
                    if key not in owned_at_start or key in dismissed
                    else "already maintained"
                    if key in kept
                    else ""
                )
                kind = special_of(specials, power, order.province, order.garrison)
            else:
                reason = _why_not_raise(
                    board, position, order, sites, used, units, garrisons, dismissed, options
                )
                kind = order.special
                if not reason and kind is not None and has_special(specials, power):
                    reason = "one special unit a power"
                limits = board.second_edition_specials
                if not reason and kind is not None and options.mach2 and limits and kind not in limits.get(power, ()):
                    reason = "this power raises no such special unit (SET MACH2)"
            cost = upkeep(kind)
            if not reason and treasuries.get(power, 0) < cost:
                reason = "not enough ducats"
            if reason:
                verdicts.append(AdjustmentVerdict(power, order, Outcome.INVALID, reason))
                continue
            treasuries[power] -= cost
            if isinstance(order, Maintain):
                kept.add((order.province, order.garrison))
                ledger.append(Entry(power, "upkeep", -cost))
            else:
                used.add(order.province)
                if order.garrison:
                    garrisons[order.province] = power
                else:
                    units.append(Unit(power, order.type or UnitType.ARMY, order.province))
                if kind is not None:
                    specials[UnitPlace(power, order.province, order.garrison)] = kind
                ledger.append(Entry(power, "build", -cost))
            verdicts.append(AdjustmentVerdict(power, order, Outcome.SUCCEEDS))
        for province, garrison in sorted(owned_at_start - kept - dismissed):
            order = Dismiss(province, garrison)
            dismiss_unit(power, order, units, garrisons)
            specials.pop(UnitPlace(power, province, garrison), None)
            verdicts.append(AdjustmentVerdict(power, order, Outcome.SUCCEEDS, "not maintained"))
    after_units = tuple(units)
    return MoneyAdjustmentResult(
        tuple(verdicts),
        replace(
            position,
            phase=next_phase(position.phase, summer=options.summer),
            units=after_units,
            garrisons=MappingProxyType(garrisons),
            control=update_control(board, position.control, after_units, garrisons),
            sieges=MappingProxyType(
                {
                    city: unit
                    for city, unit in position.sieges.items()
                    if unit in after_units and city in garrisons
                }
            ),
            money=replace(money, treasuries=MappingProxyType(treasuries)),
            specials=MappingProxyType(specials),
        ),
        tuple(ledger),
    )


def _why_not_raise(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    order: Raise,
    sites: frozenset[str],
    used: set[str],
    units: list[Unit],
    garrisons: Mapping[str, str],
    dismissed: set[tuple[str, bool]],
    options: MachiavelliOptions,
) -> str:
    if trades_old_for_new(board, order, dismissed):
        return "no new unit for an old one in one place"
    rebellion = position.unrest.rebellions.get(order.province)
    if rebellion is not None and (rebellion.city if order.garrison else rebellion.province):
        return "the province rebels"
    if order.province in position.unrest.famine:
        return "famine"
    return why_not_build(board, order, sites, used, units, garrisons, options)


# ----------------------------------------------------------------------------- a campaign's money


def adjudicate_money(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    orders: Mapping[str, Sequence[MoneyOrder]],
    options: MachiavelliOptions = FIRST_EDITION,
    *,
    seed: int | str,
) -> MoneyResult:
    """The borrowing and expenditure steps of the campaign of ``position``, before its moves
    (under SET NO MONEY every money order is refused and the position is left as it is).

    The bank's defaulters are assassinated (:func:`~.assassination.assassinate`, its dice from
    ``seed``): the moves that follow must hold their orders, ``adjudicate_campaign(...,
    assassinated=frozenset(result.defaulted))``."""
    if position.phase.type is not PhaseType.MOVEMENT:
        raise ValueError(f"{position.phase} is not a campaign's movement phase")
    powers = [power for power in board.game_map.powers if power in orders]
    if not options.money:
        refused = tuple(
            MoneyVerdict(power, order, Outcome.INVALID, "no money in this game (SET NO MONEY)")
            for power in powers
            for order in orders[power]
        )
        return MoneyResult(position, refused, (), ())
    step = _MoneyStep(board, position, options, seed)
    for power in powers:
        step.repay(power, [o for o in orders[power] if isinstance(o, PayBank)])
    step.gifts({power: [o for o in orders[power] if isinstance(o, Give)] for power in powers})
    step.give_chits({power: [o for o in orders[power] if isinstance(o, GiveChit)] for power in powers})
    for power in powers:
        step.borrow(power, [o for o in orders[power] if isinstance(o, Borrow)])
    step.collect()
    step.expenses({power: [o for o in orders[power] if isinstance(o, Expense)] for power in powers})
    result = step.result()
    if not result.victims:
        return result
    killed = assassinate(board, result.position, result.victims, seed, options)
    return replace(
        result,
        position=killed.position,
        garrisons_lost=killed.garrisons_lost,
        rebellion_rolls=killed.rolls,
    )


class _MoneyStep:
    """The work of :func:`adjudicate_money`, one step of the rules after another."""

    def __init__(
        self,
        board: MachiavelliBoard,
        position: MachiavelliPosition,
        options: MachiavelliOptions,
        seed: int | str,
    ) -> None:
        self.board = board
        self.position = position
        self.options = options
        self.seed = seed
        money = finances(board, position)
        self.chits = {power: list(held) for power, held in chits_held(board, money).items()}
        self.assassinated: set[str] = set()
        self.attempts: list[Roll] = []
        self.treasuries = dict(money.treasuries)
        self.loans = {power: list(loans) for power, loans in money.loans.items()}
        self.barred = set(money.barred)
        self.verdicts: list[MoneyVerdict] = []
        self.ledger: list[Entry] = []
        self.defaulted: list[str] = []
        self.units = list(position.units)
        self.garrisons = dict(position.garrisons)
        self.sieges = dict(position.sieges)
        self.rebellions = dict(position.unrest.rebellions)
        self.famine = set(position.unrest.famine)
        self.specials: dict[UnitPlace, SpecialKind] = dict(
            specials_standing(position.specials, position.units, position.garrisons)
        )

    # -- the bank and the gifts

    def _move(self, power: str, kind: str, ducats: int) -> None:
        if ducats:
            self.treasuries[power] = self.treasuries.get(power, 0) + ducats
            self.ledger.append(Entry(power, kind, ducats))

    def repay(self, power: str, payments: list[PayBank]) -> None:
        for order in payments:
            owed = sum(loan.owed for loan in self.loans.get(power, ()))
            if order.ducats <= 0:
                self.verdicts.append(
                    MoneyVerdict(power, order, Outcome.INVALID, "no ducats to pay")
                )
                continue
            if not owed:
                self.verdicts.append(
                    MoneyVerdict(power, order, Outcome.INVALID, "no debt to the bank")
                )
                continue
            paying = min(order.ducats, owed, self.treasuries.get(power, 0))
            self._pay_loans(power, paying)
            self._move(power, "repay", -paying)
            outcome = Outcome.SUCCEEDS if paying == order.ducats else Outcome.FAILS
            reason = "" if paying == order.ducats else f"paid {paying} ducats only"
            self.verdicts.append(MoneyVerdict(power, order, outcome, reason, paying))

    def _pay_loans(self, power: str, ducats: int) -> None:
        """Interest of the earliest loan, then its principal, then the next loan's."""
        remaining: list[Loan] = []
        for loan in self.loans.get(power, []):
            interest = min(ducats, loan.interest)
            ducats -= interest
            principal = min(ducats, loan.principal)
            ducats -= principal
            left = Loan(loan.principal - principal, loan.interest - interest, loan.due)
            if left.owed:
                remaining.append(left)
        self.loans[power] = remaining

    def gifts(self, gifts: Mapping[str, list[Give]]) -> None:
        """Every giver pays from its treasury as the gifts begin: a gift received cannot be
        passed on in the same step."""
        received: dict[str, int] = {}
        for power, given in gifts.items():
            for order in given:
                reason = ""
                if order.power == power or order.power not in self.board.game_map.powers:
                    reason = "no such power to give to"
                elif order.ducats <= 0:
                    reason = "no ducats to give"
                elif self.loans.get(power):
                    reason = "a power in debt to the bank gives nothing"
                elif order.ducats > self.treasuries.get(power, 0):
                    reason = "not enough ducats"
                if reason:
                    self.verdicts.append(MoneyVerdict(power, order, Outcome.INVALID, reason))
                    continue
                self._move(power, "gift", -order.ducats)
                received[order.power] = received.get(order.power, 0) + order.ducats
                self.verdicts.append(
                    MoneyVerdict(power, order, Outcome.SUCCEEDS, paid=order.ducats)
                )
        for power, ducats in sorted(received.items()):
            self._move(power, "gift", ducats)

    def give_chits(self, given: Mapping[str, list[GiveChit]]) -> None:
        """Chits change hands before the expenses: one received may be spent this campaign."""
        for power, orders in given.items():
            for order in orders:
                powers = self.board.game_map.powers
                reason = (
                    "no assassinations in this game"
                    if not self.options.plays_assassinations
                    else "no such power to give to"
                    if order.power == power or order.power not in powers
                    else f"no chit against {order.victim}"
                    if order.victim not in self.chits.get(power, [])
                    else ""
                )
                if reason:
                    self.verdicts.append(MoneyVerdict(power, order, Outcome.INVALID, reason))
                    continue
                self.chits[power].remove(order.victim)
                self.chits.setdefault(order.power, []).append(order.victim)
                self.verdicts.append(MoneyVerdict(power, order, Outcome.SUCCEEDS))

    def borrow(self, power: str, loans: list[Borrow]) -> None:
        for order in loans:
            debt = sum(loan.principal for loan in self.loans.get(power, ()))
            reason = ""
            if not self.options.lends:
                reason = "no loans in this game (SET NO LOANS)"
            elif power in self.barred:
                reason = "the bank lends nothing to a power that defaulted"
            elif order.years not in LOAN_INTEREST:
                reason = "a loan runs for 1 or 2 years"
            elif order.ducats <= 0:
                reason = "no ducats to borrow"
            elif debt + order.ducats > BANK_LIMIT:
                reason = f"the bank lends {BANK_LIMIT} ducats at most"
            if reason:
                self.verdicts.append(MoneyVerdict(power, order, Outcome.INVALID, reason))
                continue
            phase = self.position.phase
            loan = Loan(
                order.ducats,
                math.ceil(order.ducats * LOAN_INTEREST[order.years] / 100),
                Phase.of(phase.season, phase.year + order.years, PhaseType.MOVEMENT),
            )
            self.loans[power] = sorted(
                [*self.loans.get(power, []), loan], key=lambda made: made.due
            )
            self._move(power, "borrow", order.ducats)
            self.verdicts.append(MoneyVerdict(power, order, Outcome.SUCCEEDS))

    def collect(self) -> None:
        """The bank takes what falls due this campaign (or earlier); a power that cannot pay
        loses its treasury to the bank, the loans due are struck off, and it is assassinated."""
        phase = self.position.phase
        for power in self.board.game_map.powers:
            due = [loan for loan in self.loans.get(power, []) if loan.due <= phase]
            if not due:
                continue
            total = sum(loan.owed for loan in due)
            self.loans[power] = [loan for loan in self.loans[power] if loan.due > phase]
            if total <= self.treasuries.get(power, 0):
                self._move(power, "collect", -total)
                continue
            self._move(power, "seized", -self.treasuries.get(power, 0))
            self.barred.add(power)
            self.defaulted.append(power)

    # -- the expenses

    def expenses(self, given: Mapping[str, list[Expense]]) -> None:
        spent: list[tuple[str, Expense, int]] = []
        for power, expenses in given.items():
            latest: dict[int, Expense] = {}
            for order in expenses:
                if 1 <= order.number <= MAX_EXPENSES:
                    latest[order.number] = order
                else:
                    self.verdicts.append(
                        MoneyVerdict(power, order, Outcome.INVALID, "expenses are numbered 1 to 4")
                    )
            for number in sorted(latest):
                order = latest[number]
                if order.action is None:
                    continue
                paid = min(max(order.ducats, 0), self.treasuries.get(power, 0))
                self._move(power, "expense", -paid)
                if power in self.defaulted:
                    self.verdicts.append(
                        MoneyVerdict(power, order, Outcome.FAILS, "assassinated by the bank", paid)
                    )
                else:
                    spent.append((power, order, paid))
        self._relief_and_pacification(spent)
        self._bribes(spent)
        self._rebellions(spent)
        self._assassinations(spent)

    def _verdict(
        self, power: str, order: Expense, paid: int, reason: str = "", failed: bool = False
    ) -> None:
        outcome = (
            Outcome.INVALID
            if reason and not failed
            else Outcome.FAILS
            if failed
            else Outcome.SUCCEEDS
        )
        self.verdicts.append(MoneyVerdict(power, order, outcome, reason, paid))

    def _near(self, power: str, province: str) -> bool:
        """Whether ``power`` has a unit in ``province`` or in a province next to it (always, under
        SET NO ADJACENCY)."""
        if not self.options.adjacency:
            return True
        places = {unit.province for unit in self.position.units if unit.power == power}
        places |= {city for city, owner in self.position.garrisons.items() if owner == power}
        return province in places or bool(
            places & self.board.game_map.province_neighbours(province)
        )

    def _relief_and_pacification(self, spent: list[tuple[str, Expense, int]]) -> None:
        for power, order, paid in spent:
            action = order.action
            if isinstance(action, FamineRelief):
                reason = (
                    "no famine there"
                    if action.province not in self.position.unrest.famine
                    else "no unit near"
                    if not self._near(power, action.province)
                    else f"famine relief costs {FAMINE_RELIEF} ducats"
                    if paid < FAMINE_RELIEF
                    else ""
                )
                if not reason:
                    self.famine.discard(action.province)
                self._verdict(power, order, paid, reason)
            elif isinstance(action, PacifyRebellion):
                reason = (
                    "no rebellion there"
                    if action.province not in self.position.unrest.rebellions
                    else "no unit near"
                    if not self._near(power, action.province)
                    else f"pacifying a rebellion costs {PACIFY_REBELLION} ducats"
                    if paid < PACIFY_REBELLION
                    else ""
                )
                if not reason:
                    self.rebellions.pop(action.province, None)
                self._verdict(power, order, paid, reason)

    def bribe_price(self, power: str, action: Bribe) -> tuple[int, str]:
        """The least a bribe costs, or 0 and why it cannot be made."""
        target = action.target
        owner = self._owner(target)
        if owner is None:
            return 0, "no such unit"
        if owner == power:
            return 0, "a power does not bribe its own unit"
        if not self._near(power, target.province):
            return 0, "no unit near"
        autonomous = owner == AUTONOMOUS
        if action.kind is BribeKind.TO_AUTONOMOUS:
            if not target.garrison or autonomous:
                return 0, "only another power's garrison is made autonomous"
            price = TO_AUTONOMOUS
        elif action.kind is BribeKind.DISBAND:
            price = DISBAND_AUTONOMOUS if autonomous else DISBAND_COMMITTED
        else:
            price = BUY_AUTONOMOUS if autonomous else BUY_COMMITTED
        city = self.board.cities.get(target.province)
        if target.garrison and city is not None and city.major:
            price *= 2
        kind = special_of(self.specials, owner, target.province, target.garrison)
        if kind is not None:
            price *= kind.bribe_factor
        return price, ""

    def _owner(self, target: Target) -> str | None:
        if target.garrison:
            return self.position.garrisons.get(target.province)
        for unit in self.position.units:
            if unit.province == target.province:
                return unit.power
        return None

    def _bribes(self, spent: list[tuple[str, Expense, int]]) -> None:
        """Counter-bribes first (they count whatever they meet), then each unit's largest bribe."""
        countered: dict[Target, int] = {}
        bids: dict[Target, list[tuple[str, Expense, int, int]]] = {}
        for power, order, paid in spent:
            action = order.action
            if isinstance(action, CounterBribe):
                owner = self._owner(action.target)
                reason = (
                    "no such unit"
                    if owner is None
                    else "no unit near"
                    if owner != power and not self._near(power, action.target.province)
                    else f"a counter-bribe is {COUNTER_BRIBE_MINIMUM} ducats or more"
                    if paid < COUNTER_BRIBE_MINIMUM
                    else ""
                )
                if not reason:
                    countered[action.target] = countered.get(action.target, 0) + paid
                self._verdict(power, order, paid, reason)
            elif isinstance(action, Bribe):
                price, reason = self.bribe_price(power, action)
                if reason:
                    self._verdict(power, order, paid, reason)
                else:
                    bids.setdefault(action.target, []).append((power, order, paid, price))
        for target, offers in bids.items():
            best = max(paid for _, _, paid, _ in offers)
            tied = sum(paid == best for _, _, paid, _ in offers) > 1
            for power, order, paid, price in offers:
                if tied and paid == best:
                    self._verdict(power, order, paid, "tied with another bribe", failed=True)
                elif paid < best or tied:
                    self._verdict(power, order, paid, "outbid", failed=True)
                elif paid - countered.get(target, 0) < price:
                    reason = "countered" if countered.get(target) else "too few ducats"
                    self._verdict(power, order, paid, reason, failed=True)
                elif self._second_special(power, order):
                    self._verdict(power, order, paid, "one special unit a power", failed=True)
                else:
                    assert isinstance(order.action, Bribe)
                    self._apply_bribe(power, order.action)
                    self._verdict(power, order, paid)

    def _second_special(self, power: str, order: Expense) -> bool:
        """Whether buying the unit ``order`` aims at would give ``power`` a second special unit."""
        action = order.action
        if not isinstance(action, Bribe) or action.kind is not BribeKind.BUY:
            return False
        owner = self._owner(action.target)
        bought = owner is not None and special_of(self.specials, owner, action.target.province, action.target.garrison)
        return bool(bought) and has_special(self.specials, power)

    def _apply_bribe(self, power: str, action: Bribe) -> None:
        target = action.target
        owner = self._owner(target)
        kind = None if owner is None else self.specials.pop(UnitPlace(owner, target.province, target.garrison), None)
        if kind is not None and action.kind is not BribeKind.DISBAND:
            new_owner = power if action.kind is BribeKind.BUY else AUTONOMOUS
            self.specials[UnitPlace(new_owner, target.province, target.garrison)] = kind
        if target.garrison:
            old = self.garrisons.pop(target.province)
            if action.kind is BribeKind.BUY:
                self.garrisons[target.province] = power
            elif action.kind is BribeKind.TO_AUTONOMOUS:
                self.garrisons[target.province] = AUTONOMOUS
            besieger = self.sieges.get(target.province)
            if besieger is not None and self.garrisons.get(target.province) in (
                None,
                besieger.power,
            ):
                del self.sieges[target.province]
        else:
            (unit,) = [u for u in self.units if u.province == target.province]
            old = unit.power
            self.units.remove(unit)
            bought = Unit(power, unit.type, unit.location) if action.kind is BribeKind.BUY else None
            if bought is not None:
                self.units.append(bought)
            for city, besieger in list(self.sieges.items()):
                if besieger == unit:
                    if bought is None or self.garrisons.get(city) == power:
                        del self.sieges[city]
                    else:
                        self.sieges[city] = bought
        rebellion = self.rebellions.get(target.province)
        if action.kind is BribeKind.BUY and rebellion is not None and rebellion.against == old:
            del self.rebellions[target.province]

    def _rebellions(self, spent: list[tuple[str, Expense, int]]) -> None:
        control = self.position.control.provinces
        held = countries_held(self.board, self.position)
        for power, order, paid in spent:
            action = order.action
            if not isinstance(action, CauseRebellion):
                continue
            province = action.province
            against = control.get(province)
            country = self.board.home_country_of(province)
            home = country is not None and held.get(country) == against
            price = HOME_REBELLION if home else CONQUERED_REBELLION
            occupied = (
                any(unit.province == province for unit in self.units) or province in self.garrisons
            )
            reason = (
                "no land province"
                if not self.board.game_map.is_land(province)
                else "no power controls it"
                if against is None or against == AUTONOMOUS
                else "a power does not raise rebels against itself"
                if against == power
                else "already in rebellion"
                if province in self.rebellions and province in self.position.unrest.rebellions
                else "Venice holds a unit"
                if province in self.board.single_space and occupied
                else "no unit near"
                if not self._near(power, province)
                else f"this rebellion costs {price} ducats"
                if paid < price
                else ""
            )
            if not reason and against is not None and province not in self.rebellions:
                city = self.board.may_garrison(province, fortresses=self.options.fortresses)
                self.rebellions[province] = Rebellion(
                    against, city and province not in self.garrisons
                )
            self._verdict(power, order, paid, reason)

    def _assassinations(self, spent: list[tuple[str, Expense, int]]) -> None:
        """The attempts, after every other expense: each spends its chit and throws one die."""
        for power, order, paid in spent:
            action = order.action
            if not isinstance(action, Assassinate):
                continue
            victim = action.power
            reason = (
                "no assassinations in this game"
                if not self.options.plays_assassinations
                else "no such power"
                if victim not in self.board.game_map.powers
                else "a power does not assassinate itself"
                if victim == power
                else f"an assassination costs {ASSASSINATION_STEP} ducats or more"
                if paid < ASSASSINATION_STEP
                else f"no chit against {victim}"
                if victim not in self.chits.get(power, [])
                else ""
            )
            if reason:
                failed = reason.startswith(("an assassination costs", "no chit"))
                self._verdict(power, order, paid, reason, failed=failed)
                continue
            self.chits[power].remove(victim)
            chance = min(paid // ASSASSINATION_STEP, ASSASSINATION_MOST)
            rng = dice_for(self.seed, self.position.phase, f"assassination/{power}/{order.number}")
            die = rng.randint(1, 6)
            success = die <= chance
            self.attempts.append(
                Roll(
                    "assassination",
                    f"{power} against {victim}",
                    (die,),
                    f"success (needed 1 to {chance})" if success else f"failed (needed 1 to {chance})",
                )
            )
            if success:
                self.assassinated.add(victim)
                self._verdict(power, order, paid)
            else:
                self._verdict(power, order, paid, f"the die was {die}", failed=True)

    # -- the result

    def result(self) -> MoneyResult:
        position = self.position
        units = tuple(self.units)
        control = (
            position.control
            if self.options.mach2
            else update_control(self.board, position.control, units, self.garrisons)
        )
        money = Finances(
            MappingProxyType(dict(self.treasuries)),
            MappingProxyType({power: tuple(loans) for power, loans in self.loans.items() if loans}),
            frozenset(self.barred),
            MappingProxyType({power: tuple(sorted(held)) for power, held in self.chits.items()}),
        )
        after = replace(
            position,
            units=units,
            garrisons=MappingProxyType(self.garrisons),
            control=control,
            sieges=MappingProxyType(
                live_sieges(self.sieges, units, self.garrisons, self.rebellions)
            ),
            money=money,
            unrest=Unrest(MappingProxyType(self.rebellions), frozenset(self.famine)),
            specials=MappingProxyType(self.specials),
        )
        return MoneyResult(
            after,
            tuple(self.verdicts),
            tuple(self.ledger),
            tuple(self.defaulted),
            assassinated=tuple(sorted(self.assassinated)),
            attempts=tuple(self.attempts),
        )
