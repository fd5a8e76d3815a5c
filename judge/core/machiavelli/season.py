"""One phase of the Renaissance game played whole: what the judge does at a deadline (issue 33).

The rules are in :mod:`.campaign`, :mod:`.money` and :mod:`.adjustments`; this module only
puts them in the order the rules play them, so that the mail flow (and any other caller) has one
function to call and no second copy of the sequence:

* a campaign: the money step first (repayments, gifts, loans, expenses and bribes: the bank's
  defaulters assassinated), then the moves, in which the defaulters' orders hold; the campaign's
  end (eliminations, home countries) unless the moves dislodged a unit;
* its retreats: then the campaign's end;
* the adjustments: with money, the year's income and then upkeep and builds paid in ducats;
  without (SET NO MONEY), the basic game's builds and removals.

Every die is seeded by the caller's ``seed`` (the game's) and the phase, inside the steps
called, so a phase played again from the same position and orders gives the same result.
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
    adjudicate_campaign,
    adjudicate_retreats,
    end_of_campaign,
)
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
    MachiavelliOrder,
    MoneyOrder,
    PayBank,
)
from judge.core.orders import Disband, Move, Retreat
from judge.core.phase import PhaseType

SeasonOrder = MachiavelliOrder | MoneyOrder | Raise | Dismiss | Maintain | Retreat
"""Any order a power may give in some phase of the game (each step takes the kinds it plays)."""


@dataclass(frozen=True, slots=True)
class SeasonResult:
    """What one phase did: the position after (the next phase's) and each step's own result
    (None where the phase has no such step), with the powers eliminated at the campaign's end
    and the orders the phase could not play (``(power, order)``: a build in a campaign, say)."""

    before: MachiavelliPosition
    position: MachiavelliPosition
    money: MoneyResult | None = None
    campaign: CampaignResult | None = None
    retreated: bool = False
    income: IncomeResult | None = None
    adjustments: MoneyAdjustmentResult | AdjustmentResult | None = None
    eliminated: tuple[str, ...] = ()
    misplaced: tuple[tuple[str, SeasonOrder], ...] = ()


def play_phase(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    orders: Mapping[str, Sequence[SeasonOrder]],
    options: MachiavelliOptions = FIRST_EDITION,
    *,
    seed: int | str,
) -> SeasonResult:
    """Play the phase of ``position`` with each power's ``orders`` (see the module's docstring)."""
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
        after = adjudicate_retreats(board, position, retreats, options)
        gone, after = end_of_campaign(board, after)
        return SeasonResult(
            position, after, retreated=True, eliminated=gone, misplaced=tuple(misplaced)
        )
    money_orders: dict[str, list[MoneyOrder]] = {}
    moves: dict[str, list[MachiavelliOrder]] = {}
    misplaced = []
    for power, given in orders.items():
        for order in given:
            if isinstance(order, PayBank | Give | Borrow | Expense):
                money_orders.setdefault(power, []).append(order)
            elif isinstance(order, Raise | Dismiss | Maintain | Retreat):
                misplaced.append((power, order))
            else:
                moves.setdefault(power, []).append(order)
    money = adjudicate_money(board, position, money_orders, options, seed=seed)
    campaign = adjudicate_campaign(
        board, money.position, moves, options, assassinated=frozenset(money.defaulted)
    )
    after = campaign.position
    out: tuple[str, ...] = ()
    if after.phase.type is not PhaseType.RETREAT:
        out, after = end_of_campaign(board, after)
    return SeasonResult(
        position, after, money=money, campaign=campaign, eliminated=out, misplaced=tuple(misplaced)
    )


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
