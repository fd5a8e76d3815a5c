"""One phase of the Renaissance game played whole: what the judge does at a deadline (issue 33).

The rules are in :mod:`.campaign`, :mod:`.money` and :mod:`.adjustments`; this module only
puts them in the order the rules play them, so that the mail flow (and any other caller) has one
function to call and no second copy of the sequence:

* a campaign: the money step first (repayments, gifts, loans, expenses and bribes, the
  assassinations bought, the bank's defaulters assassinated), then the moves, in which the
  victims' orders hold; the campaign's end unless the moves dislodged a unit;
* its retreats: then the campaign's end;
* a campaign's end: after the spring, the famine's toll and the plague; after the fall, the
  storms and the famine's new markers (:mod:`.disasters`); then eliminations and home countries;
* the adjustments: with money, the year's income and then upkeep and builds paid in ducats;
  without (SET NO MONEY), the basic game's builds and removals.

Every die is seeded by the caller's ``seed`` (the game's) and the phase, inside the steps
called, so a phase played again from the same position and orders gives the same result; every
die thrown is kept in :attr:`SeasonResult.rolls` for the master.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from judge.core.machiavelli.adjustments import (
    AdjustmentResult,
    Dismiss,
    Maintain,
    Raise,
    adjudicate_basic_adjustments,
)
from judge.core.machiavelli.board import MachiavelliBoard
from judge.core.machiavelli.campaign import (
    CampaignResult,
    MachiavelliPosition,
    RetreatResult,
    adjudicate_campaign,
    end_of_campaign,
    retreat_phase,
)
from judge.core.machiavelli.dice import Roll
from judge.core.machiavelli.disasters import Dice, Stricken, after_fall, after_spring
from judge.core.machiavelli.money import (
    IncomeResult,
    MoneyAdjustmentResult,
    MoneyResult,
    adjudicate_money,
    adjudicate_money_adjustments,
    collect_income,
)
from judge.core.machiavelli.options import FIRST_EDITION, MachiavelliOptions
from judge.core.machiavelli.orders import (
    Borrow,
    Expense,
    Give,
    GiveChit,
    MachiavelliOrder,
    MoneyOrder,
    PayBank,
)
from judge.core.orders import Disband, Move, Retreat
from judge.core.phase import PhaseType, Season

SeasonOrder = MachiavelliOrder | MoneyOrder | Raise | Dismiss | Maintain | Retreat
"""Any order a power may give in some phase of the game (each step takes the kinds it plays)."""


@dataclass(frozen=True, slots=True)
class SeasonResult:
    """What one phase did: the position after (the next phase's) and each step's own result
    (None where the phase has no such step), with the powers eliminated at the campaign's end
    and the orders the phase could not play (``(power, order)``: a build in a campaign, say);
    ``disasters``: what famine, plague and storms did at the campaign's end."""

    before: MachiavelliPosition
    position: MachiavelliPosition
    money: MoneyResult | None = None
    campaign: CampaignResult | None = None
    retreated: bool = False
    retreat: RetreatResult | None = None
    """A retreat phase's verdicts: each retreat or disband ordered, each dislodged unit left without one."""
    income: IncomeResult | None = None
    adjustments: MoneyAdjustmentResult | AdjustmentResult | None = None
    eliminated: tuple[str, ...] = ()
    misplaced: tuple[tuple[str, SeasonOrder], ...] = ()
    disasters: tuple[Stricken, ...] = ()

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """Every die the phase threw, in the order thrown: the master's audit of the phase."""
        found: list[Roll] = []
        if self.money is not None:
            found += self.money.rolls
        for event in self.disasters:
            found += event.rolls
        if self.income is not None:
            found += [
                Roll("income", report.power, report.rolls, f"{report.variable} ducats")
                for report in self.income.reports
                if report.rolls and report.thrown
            ]
        return tuple(found)


def play_phase(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    orders: Mapping[str, Sequence[SeasonOrder]],
    options: MachiavelliOptions = FIRST_EDITION,
    *,
    seed: int | str,
    disaster_dice: Mapping[str, Dice] | None = None,
) -> SeasonResult:
    """Play the phase of ``position`` with each power's ``orders`` (see the module's docstring).

    ``disaster_dice``: the dice of ``"famine"``, ``"plague"`` or ``"storm"`` pinned (a test's);
    any other is thrown from ``seed``."""
    pinned = disaster_dice or {}
    kind = position.phase.type
    if kind is PhaseType.ADJUSTMENT:
        return _adjustments(board, position, orders, options, seed)
    if kind is PhaseType.RETREAT:
        retreats: dict[str, list[Retreat | Disband]] = {}
        misplaced: list[tuple[str, SeasonOrder]] = []
        for power, given in orders.items():
            for order in given:
                if isinstance(order, Retreat | Disband):
                    retreats.setdefault(power, []).append(order)
                elif isinstance(order, Move):  # "A SIE - PIS" in a retreat phase is its retreat
                    retreats.setdefault(power, []).append(Retreat(order.unit, order.destination))
                else:
                    misplaced.append((power, order))
        retreated = retreat_phase(board, position, retreats, options)
        after, closing = _campaign_over(board, position, retreated.position, options, seed, pinned)
        gone, after = end_of_campaign(board, after)
        return SeasonResult(
            position,
            after,
            retreated=True,
            retreat=retreated,
            eliminated=gone,
            misplaced=tuple(misplaced),
            disasters=closing,
        )
    money_orders: dict[str, list[MoneyOrder]] = {}
    moves: dict[str, list[MachiavelliOrder]] = {}
    misplaced = []
    for power, given in orders.items():
        for order in given:
            if isinstance(order, PayBank | Give | Borrow | Expense | GiveChit):
                money_orders.setdefault(power, []).append(order)
            elif isinstance(order, Raise | Dismiss | Maintain | Retreat):
                misplaced.append((power, order))
            else:
                moves.setdefault(power, []).append(order)
    money = adjudicate_money(board, position, money_orders, options, seed=seed)
    campaign = adjudicate_campaign(
        board, money.position, moves, options, assassinated=frozenset(money.victims)
    )
    after = campaign.position
    out: tuple[str, ...] = ()
    disasters: tuple[Stricken, ...] = ()
    if after.phase.type is not PhaseType.RETREAT:
        after, disasters = _campaign_over(board, position, after, options, seed, pinned)
        out, after = end_of_campaign(board, after)
    return SeasonResult(
        position,
        after,
        money=money,
        campaign=campaign,
        eliminated=out,
        misplaced=tuple(misplaced),
        disasters=disasters,
    )


def _campaign_over(
    board: MachiavelliBoard,
    played: MachiavelliPosition,
    after: MachiavelliPosition,
    options: MachiavelliOptions,
    seed: int | str,
    pinned: Mapping[str, Dice],
) -> tuple[MachiavelliPosition, tuple[Stricken, ...]]:
    """The disasters that close the campaign of ``played`` (``after``: the next phase's position)."""
    if played.phase.season is Season.SPRING:
        done = after_spring(board, after, options, seed=seed, plague_dice=pinned.get("plague"))
    elif played.phase.season is Season.FALL:
        done = after_fall(
            board,
            after,
            options,
            seed=seed,
            storm_dice=pinned.get("storm"),
            famine_dice=pinned.get("famine"),
        )
    else:
        return after, ()
    return done.position, done.events


def _adjustments(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    orders: Mapping[str, Sequence[SeasonOrder]],
    options: MachiavelliOptions,
    seed: int | str,
) -> SeasonResult:
    """Income, then upkeep and builds in ducats; the basic game's adjustments without money."""
    given: dict[str, list[Raise | Dismiss | Maintain]] = {}
    misplaced: list[tuple[str, SeasonOrder]] = []
    for power, these in orders.items():
        for order in these:
            if isinstance(order, Raise | Dismiss | Maintain):
                given.setdefault(power, []).append(order)
            else:
                misplaced.append((power, order))
    if not options.money:
        basic = {
            power: [order for order in these if not isinstance(order, Maintain)]
            for power, these in given.items()
        }
        adjusted = adjudicate_basic_adjustments(board, position, basic, options)
        return SeasonResult(
            position, adjusted.position, adjustments=adjusted, misplaced=tuple(misplaced)
        )
    income = collect_income(board, position, seed=seed, options=options)
    paid = adjudicate_money_adjustments(board, income.position, given, options)
    return SeasonResult(
        position, paid.position, income=income, adjustments=paid, misplaced=tuple(misplaced)
    )
