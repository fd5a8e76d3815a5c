"""Money in the Renaissance game, one rule a test: income, upkeep, the bank and its defaulters,
gifts, expenses, bribes and counter-bribes, rebellions and famine relief.

Each test is a hand position (the standard scenario, changed where the rule needs it) and the
outcome the rules give; the figures are the classic Judge's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

import pytest

from judge.core.adjudicator import Outcome
from judge.core.machiavelli.adjustments import Dismiss, Maintain, Raise
from judge.core.machiavelli.board import AUTONOMOUS, Control, MachiavelliBoard, load_board
from judge.core.machiavelli.campaign import (
    MachiavelliPosition,
    adjudicate_campaign,
    opening_position,
)
from judge.core.machiavelli.money import (
    MoneyResult,
    adjudicate_money,
    adjudicate_money_adjustments,
    collect_income,
)
from judge.core.machiavelli.options import MachiavelliOptions
from judge.core.machiavelli.orders import (
    Besiege,
    Borrow,
    Bribe,
    BribeKind,
    CauseRebellion,
    CounterBribe,
    Expense,
    ExpenseAction,
    FamineRelief,
    GarrisonConvert,
    Give,
    MoneyOrder,
    PacifyRebellion,
    PayBank,
    Target,
    ToGarrison,
)
from judge.core.machiavelli.serialization import position_from_json, position_to_json
from judge.core.machiavelli.treasury import Finances, Loan, Rebellion, Unrest
from judge.core.orders import Hold, Move, SupportMove
from judge.core.phase import Phase
from judge.core.units import Unit, UnitRef, UnitType

A, F = UnitType.ARMY, UnitType.FLEET
FLO, MIL, VEN, NAP, PAP, FRA = "FLORENCE", "MILAN", "VENICE", "NAPLES", "PAPACY", "FRANCE"
NO_DICE = MachiavelliOptions(dice=False)
BOARD: MachiavelliBoard = load_board()
SEED = "money-tests"


def at(
    phase: str,
    treasuries: Mapping[str, int] | None = None,
    *,
    units: Sequence[Unit] | None = None,
    garrisons: Mapping[str, str] | None = None,
    loans: Mapping[str, tuple[Loan, ...]] | None = None,
    barred: frozenset[str] = frozenset(),
    unrest: Unrest | None = None,
    provinces: Mapping[str, str] | None = None,
    cities: Mapping[str, str] | None = None,
) -> MachiavelliPosition:
    """The opening, at ``phase``, with the treasuries, units and control given."""
    start = opening_position(BOARD)
    control = Control(
        MappingProxyType({**start.control.provinces, **(provinces or {})}),
        MappingProxyType({**start.control.cities, **(cities or {})}),
    )
    return replace(
        start,
        phase=Phase.parse(phase),
        units=tuple(units) if units is not None else start.units,
        garrisons=MappingProxyType(dict(garrisons)) if garrisons is not None else start.garrisons,
        control=control,
        money=Finances(
            MappingProxyType(
                {power: (treasuries or {}).get(power, 0) for power in BOARD.game_map.powers}
            ),
            MappingProxyType(dict(loans or {})),
            barred,
        ),
        unrest=unrest or Unrest(),
    )


def spend(number: int, ducats: int, action: ExpenseAction | None) -> Expense:
    return Expense(number, ducats, action)


def money(
    position: MachiavelliPosition,
    orders: Mapping[str, Sequence[MoneyOrder]],
    options: MachiavelliOptions | None = None,
) -> MoneyResult:
    return adjudicate_money(BOARD, position, orders, options or MachiavelliOptions(), seed=SEED)


def verdict(result: MoneyResult, power: str, order: MoneyOrder) -> tuple[Outcome, str]:
    (found,) = [v for v in result.verdicts if v.power == power and v.order == order]
    return found.outcome, found.reason


def treasury(position: MachiavelliPosition, power: str) -> int:
    assert position.money is not None
    return position.money.treasury(power)


def unit_at(position: MachiavelliPosition, province: str) -> Unit | None:
    return next((unit for unit in position.units if unit.province == province), None)


# ----------------------------------------------------------------------------- income


def test_income_is_a_ducat_a_province_the_cities_numbers_and_the_variable_dice() -> None:
    """Florence at the opening: 4 provinces, cities worth 1 + 3 + 1, two dice that read 3 in an
    even year under SET NO DICE (3 ducats each in its table): 4 + 5 + 6."""
    result = collect_income(BOARD, at("W1454A"), seed=1, options=NO_DICE)
    (report,) = [r for r in result.reports if r.power == FLO]
    assert (report.provinces, report.cities, report.fleets, report.rolls, report.variable) == (
        4,
        5,
        0,
        (3, 3),
        6,
    )
    assert treasury(result.position, FLO) == 15
    assert result.position.phase == Phase.parse("W1454A")


def test_income_pays_a_ducat_for_each_fleet_at_sea() -> None:
    units = [*opening_position(BOARD).units, Unit(VEN, F, "UAS"), Unit(VEN, F, "LAS")]
    before = collect_income(BOARD, at("W1454A"), seed=1, options=NO_DICE)
    after = collect_income(BOARD, at("W1454A", units=units), seed=1, options=NO_DICE)
    assert treasury(after.position, VEN) - treasury(before.position, VEN) == 2


def test_under_no_dice_a_die_reads_four_in_odd_years_and_three_in_even_years() -> None:
    """Milan's table reads 4 for a roll of 4, 3 for a roll of 3."""
    odd = collect_income(BOARD, at("W1455A"), seed=1, options=NO_DICE)
    even = collect_income(BOARD, at("W1454A"), seed=1, options=NO_DICE)
    ((odd_milan,), (even_milan,)) = (
        [r for r in odd.reports if r.power == MIL],
        [r for r in even.reports if r.power == MIL],
    )
    assert (odd_milan.rolls, odd_milan.variable) == ((4,), 4)
    assert (even_milan.rolls, even_milan.variable) == ((3,), 3)


def test_the_variable_income_roll_is_seeded_by_the_game_and_the_phase() -> None:
    first = collect_income(BOARD, at("W1454A"), seed="game-7")
    again = collect_income(BOARD, at("W1454A"), seed="game-7")
    assert first.reports == again.reports
    rolls = {
        roll
        for seed in range(40)
        for r in collect_income(BOARD, at("W1454A"), seed=seed).reports
        for roll in r.rolls
    }
    assert rolls == {1, 2, 3, 4, 5, 6}


def test_genoas_die_goes_to_whoever_controls_the_city_of_genoa() -> None:
    """Genoa is worth 3 ducats, its own die (1 to 4 ducats) goes with the city."""
    plain = collect_income(BOARD, at("W1454A"), seed=3, options=NO_DICE)
    holding = collect_income(BOARD, at("W1454A", cities={"GEN": MIL}), seed=3, options=NO_DICE)
    (milan,) = [r for r in holding.reports if r.power == MIL]
    (before,) = [r for r in plain.reports if r.power == MIL]
    assert milan.cities - before.cities == 3
    assert milan.rolls == (3, 3)  # Milan's die, then Genoa's
    assert milan.variable - before.variable == 2  # Genoa's table reads 2 for a 3


def test_a_famined_province_yields_nothing_but_its_garrisoned_city_does() -> None:
    """Famine in Florence (garrisoned by Florence) and Pistoia: the provinces yield nothing, the
    garrisoned city of Florence still its 3 ducats."""
    famine = Unrest(famine=frozenset({"FLO", "PST"}))
    position = at("W1454A", unrest=famine, garrisons={**BOARD.garrisons, "FLO": FLO})
    (report,) = [
        r
        for r in collect_income(BOARD, position, seed=1, options=NO_DICE).reports
        if r.power == FLO
    ]
    assert (report.provinces, report.cities) == (2, 5)
    ungarrisoned = at("W1454A", unrest=famine)
    (bare,) = [
        r
        for r in collect_income(BOARD, ungarrisoned, seed=1, options=NO_DICE).reports
        if r.power == FLO
    ]
    assert (bare.provinces, bare.cities) == (2, 2)


def test_a_rebelling_province_and_its_ungarrisoned_city_yield_nothing() -> None:
    rebels = Unrest(MappingProxyType({"ARE": Rebellion(FLO, city=True), "PST": Rebellion(FLO)}))
    (report,) = [
        r
        for r in collect_income(BOARD, at("W1454A", unrest=rebels), seed=1, options=NO_DICE).reports
        if r.power == FLO
    ]
    assert (report.provinces, report.cities) == (2, 4)


def test_income_comes_only_with_the_adjustments() -> None:
    with pytest.raises(ValueError, match="not an adjustment phase"):
        collect_income(BOARD, at("S1455M"), seed=1)


# ----------------------------------------------------------------------------- upkeep and builds


def test_each_unit_kept_costs_three_ducats_and_a_unit_not_maintained_is_removed() -> None:
    position = at("W1454A", {FLO: 7})
    orders = {FLO: [Maintain("ARE"), Maintain("FLO"), Maintain("PSA")]}
    result = adjudicate_money_adjustments(BOARD, position, orders)
    assert treasury(result.position, FLO) == 1
    assert unit_at(result.position, "PSA") is None  # the third upkeep could not be paid
    reasons = {(v.order, v.reason) for v in result.verdicts if v.power == FLO}
    assert (Maintain("PSA"), "not enough ducats") in reasons
    assert (Dismiss("PSA"), "not maintained") in reasons
    assert result.position.phase == Phase.parse("S1455M")
    assert sum(entry.ducats for entry in result.ledger if entry.power == FLO) == -6


def test_a_unit_with_no_order_is_not_kept() -> None:
    result = adjudicate_money_adjustments(BOARD, at("W1454A", {MIL: 30}), {})
    assert not [unit for unit in result.position.units if unit.power == MIL]
    assert treasury(result.position, MIL) == 30


def test_a_build_costs_three_ducats_in_a_home_city_held_with_its_province() -> None:
    units = [u for u in opening_position(BOARD).units if u.province != "ARE"]
    position = at("W1454A", {FLO: 6}, units=units)
    orders = {FLO: [Raise("ARE", A), Raise("PST", A), Raise("FLO", garrison=True)]}
    result = adjudicate_money_adjustments(BOARD, position, orders)
    outcomes = {v.order: (v.outcome, v.reason) for v in result.verdicts if v.power == FLO}
    assert outcomes[Raise("ARE", A)] == (Outcome.SUCCEEDS, "")
    assert outcomes[Raise("PST", A)][0] is Outcome.INVALID  # Pistoia has no city
    assert outcomes[Raise("FLO", garrison=True)] == (Outcome.SUCCEEDS, "")
    assert result.position.garrisons["FLO"] == FLO
    assert treasury(result.position, FLO) == 0


def test_no_unit_is_built_in_a_rebelling_or_starving_province() -> None:
    units = [u for u in opening_position(BOARD).units if u.province not in ("ARE", "PSA")]
    unrest = Unrest(MappingProxyType({"ARE": Rebellion(FLO, city=True)}), frozenset({"PSA"}))
    position = at("W1454A", {FLO: 30}, units=units, unrest=unrest)
    result = adjudicate_money_adjustments(
        BOARD, position, {FLO: [Raise("ARE", A), Raise("PSA", F)]}
    )
    reasons = {v.order: v.reason for v in result.verdicts if v.power == FLO}
    assert reasons[Raise("ARE", A)] == "the province rebels"
    assert reasons[Raise("PSA", F)] == "famine"


# ----------------------------------------------------------------------------- the bank


def test_a_loan_for_two_years_costs_half_again_rounded_up_and_falls_due_in_the_same_campaign() -> (
    None
):
    """The rules' example: 15 ducats in the summer of 1492 for two years; 23 due in summer 1494."""
    result = money(at("U1455M", {FLO: 0}), {FLO: [Borrow(15, 2)]})
    assert result.position.money is not None
    assert result.position.money.loans[FLO] == (Loan(15, 8, Phase.parse("U1457M")),)
    assert treasury(result.position, FLO) == 15


def test_a_loan_for_one_year_costs_a_fifth_rounded_up() -> None:
    result = money(at("S1455M"), {FLO: [Borrow(11, 1)]})
    assert result.position.money is not None
    assert result.position.money.loans[FLO] == (Loan(11, 3, Phase.parse("S1456M")),)


def test_the_bank_lends_twenty_five_ducats_of_principal_at_most() -> None:
    """The rules' second example: 20 ducats and a loan of 25 + 13 due. Borrowing 18 would owe 43 of
    principal: refused. Paying the 20 first (interest, then principal) leaves 18 + 0, so 7 more
    may be borrowed, short of the 18 due: the power defaults."""
    due = Phase.parse("S1456M")
    position = at("S1456M", {FLO: 20}, loans={FLO: (Loan(25, 13, due),)})
    refused = money(position, {FLO: [Borrow(18, 1)]})
    assert verdict(refused, FLO, Borrow(18, 1)) == (
        Outcome.INVALID,
        "the bank lends 25 ducats at most",
    )
    paid = money(position, {FLO: [PayBank(20), Borrow(7, 1)]})
    assert verdict(paid, FLO, Borrow(7, 1))[0] is Outcome.SUCCEEDS
    assert paid.defaulted == (FLO,)  # 7 ducats for 18 due


def test_the_loan_due_is_met_with_a_new_loan_taken_in_the_same_campaign() -> None:
    """The first example: 13 ducats and 23 due; a new loan of 10 pays it off."""
    due = Phase.parse("U1457M")
    position = at("U1457M", {FLO: 13}, loans={FLO: (Loan(15, 8, due),)})
    result = money(position, {FLO: [Borrow(10, 1)]})
    assert result.defaulted == ()
    assert result.position.money is not None
    assert result.position.money.loans[FLO] == (Loan(10, 2, Phase.parse("U1458M")),)
    assert treasury(result.position, FLO) == 0


def test_repayment_pays_the_earliest_loans_interest_then_its_principal_then_the_next_loan() -> None:
    first, second = Loan(10, 2, Phase.parse("S1456M")), Loan(10, 5, Phase.parse("S1457M"))
    position = at("F1455M", {FLO: 20}, loans={FLO: (first, second)})
    result = money(position, {FLO: [PayBank(14)]})
    assert result.position.money is not None
    assert result.position.money.loans[FLO] == (Loan(10, 3, Phase.parse("S1457M")),)
    assert treasury(result.position, FLO) == 6


def test_a_defaulter_loses_its_treasury_is_assassinated_and_is_never_lent_to_again() -> None:
    """Rule: who cannot repay is assassinated by the bankers and never borrows again; the
    campaign's expenses of the victim are spent for nothing."""
    due = Phase.parse("S1456M")
    later = Loan(5, 1, Phase.parse("S1457M"))
    position = at("S1456M", {FLO: 10}, loans={FLO: (Loan(10, 2, due), later)})
    expense = spend(1, 3, CounterBribe(Target("ARE")))
    result = money(position, {FLO: [expense]})
    assert result.defaulted == (FLO,)
    assert result.position.money is not None
    assert FLO in result.position.money.barred
    assert result.position.money.loans[FLO] == (later,)  # the loans not yet due stay
    assert treasury(result.position, FLO) == 0
    assert verdict(result, FLO, expense) == (Outcome.FAILS, "assassinated by the bank")
    again = money(replace(result.position, phase=Phase.parse("U1456M")), {FLO: [Borrow(1, 1)]})
    assert verdict(again, FLO, Borrow(1, 1)) == (
        Outcome.INVALID,
        "the bank lends nothing to a power that defaulted",
    )


def test_a_loan_is_paid_off_when_due_and_the_debt_ends() -> None:
    due = Phase.parse("S1456M")
    result = money(at("S1456M", {FLO: 20}, loans={FLO: (Loan(10, 2, due),)}), {})
    assert result.defaulted == ()
    assert result.position.money is not None
    assert FLO not in result.position.money.loans
    assert treasury(result.position, FLO) == 8


def test_no_loans_under_set_no_loans() -> None:
    result = money(at("S1455M"), {FLO: [Borrow(5, 1)]}, MachiavelliOptions(loans=False))
    assert verdict(result, FLO, Borrow(5, 1))[0] is Outcome.INVALID


# ----------------------------------------------------------------------------- gifts


def test_a_gift_moves_ducats_from_one_treasury_to_another() -> None:
    result = money(at("S1455M", {FLO: 10}), {FLO: [Give(6, MIL)]})
    assert (treasury(result.position, FLO), treasury(result.position, MIL)) == (4, 6)


def test_a_power_in_debt_to_the_bank_gives_nothing() -> None:
    """So that no one borrows 25 ducats as a last gasp and hands them to an ally."""
    result = money(at("S1455M", {FLO: 10}), {FLO: [Borrow(25, 1), Give(30, MIL)]})
    assert verdict(result, FLO, Give(30, MIL)) == (
        Outcome.INVALID,
        "not enough ducats",
    )  # gifts come before loans
    loan = Loan(5, 1, Phase.parse("S1456M"))
    owing = money(at("S1455M", {FLO: 10}, loans={FLO: (loan,)}), {FLO: [Give(3, MIL)]})
    assert verdict(owing, FLO, Give(3, MIL))[0] is Outcome.INVALID
    repaid = money(at("S1455M", {FLO: 10}, loans={FLO: (loan,)}), {FLO: [PayBank(6), Give(3, MIL)]})
    assert verdict(repaid, FLO, Give(3, MIL))[0] is Outcome.SUCCEEDS


def test_a_gift_received_is_not_passed_on_in_the_same_campaign() -> None:
    result = money(at("S1455M", {FLO: 10}), {FLO: [Give(10, MIL)], MIL: [Give(10, VEN)]})
    assert verdict(result, MIL, Give(10, VEN)) == (Outcome.INVALID, "not enough ducats")
    assert treasury(result.position, MIL) == 10


# ----------------------------------------------------------------------------- expenses


def test_an_expense_is_spent_even_when_it_fails() -> None:
    order = spend(1, 3, FamineRelief("FLO"))  # no famine there
    result = money(at("S1455M", {FLO: 10}), {FLO: [order]})
    assert verdict(result, FLO, order) == (Outcome.INVALID, "no famine there")
    assert treasury(result.position, FLO) == 7


def test_expenses_are_paid_in_their_numbers_order_with_what_is_left() -> None:
    """Twelve ducats: expense 1 takes 9, expense 2 gets the 3 left, short of its 12."""
    first = spend(1, 9, Bribe(BribeKind.BUY, Target("SIE", garrison=True)))
    second = spend(2, 12, PacifyRebellion("PST"))
    rebels = Unrest(MappingProxyType({"PST": Rebellion(FLO)}))
    result = money(at("S1455M", {FLO: 12}, unrest=rebels), {FLO: [second, first]})
    assert verdict(result, FLO, first)[0] is Outcome.SUCCEEDS
    assert verdict(result, FLO, second) == (
        Outcome.INVALID,
        "pacifying a rebellion costs 12 ducats",
    )
    assert "PST" in result.position.unrest.rebellions
    assert treasury(result.position, FLO) == 0


def test_a_later_expense_of_the_same_number_replaces_the_earlier_and_none_cancels_it() -> None:
    first = spend(1, 18, Bribe(BribeKind.BUY, Target("PER")))
    instead = spend(1, 12, Bribe(BribeKind.DISBAND, Target("PER")))
    cancelled = spend(2, 3, FamineRelief("FLO"))
    result = money(
        papal_army_in_perugia({FLO: 30}), {FLO: [first, instead, cancelled, spend(2, 0, None)]}
    )
    assert [v.order for v in result.verdicts] == [instead]
    assert unit_at(result.position, "PER") is None
    assert treasury(result.position, FLO) == 18


def test_famine_relief_ends_the_famine_for_three_ducats() -> None:
    order = spend(1, 3, FamineRelief("FLO"))
    result = money(at("S1455M", {FLO: 3}, unrest=Unrest(famine=frozenset({"FLO"}))), {FLO: [order]})
    assert verdict(result, FLO, order)[0] is Outcome.SUCCEEDS
    assert result.position.unrest.famine == frozenset()


def test_pacifying_a_rebellion_for_twelve_ducats_ends_it_in_the_province_and_the_city() -> None:
    order = spend(1, 12, PacifyRebellion("ARE"))
    rebels = Unrest(MappingProxyType({"ARE": Rebellion(FLO, city=True)}))
    result = money(at("S1455M", {FLO: 12}, unrest=rebels), {FLO: [order]})
    assert verdict(result, FLO, order)[0] is Outcome.SUCCEEDS
    assert not result.position.unrest.rebellions


# ----------------------------------------------------------------------------- bribes


def papal_army_in_perugia(treasuries: Mapping[str, int]) -> MachiavelliPosition:
    """The opening (the Papacy's army in Perugia, Florence's in Arezzo and Florence next to it)."""
    position = at("S1455M", treasuries)
    assert unit_at(position, "PER") == Unit(PAP, A, "PER")
    return position


ANYWHERE = MachiavelliOptions(adjacency=False)
"""For the bribes of powers with no unit near Perugia."""


def test_a_bribe_disbands_another_powers_army_for_twelve_ducats() -> None:
    order = spend(1, 12, Bribe(BribeKind.DISBAND, Target("PER")))
    result = money(papal_army_in_perugia({FLO: 12}), {FLO: [order]})
    assert verdict(result, FLO, order)[0] is Outcome.SUCCEEDS
    assert unit_at(result.position, "PER") is None


def test_a_bribe_too_small_for_its_order_fails_though_a_cheaper_bribe_would_have_done() -> None:
    """Nine ducats would disband an autonomous garrison, not another power's army."""
    order = spend(1, 9, Bribe(BribeKind.DISBAND, Target("PER")))
    result = money(papal_army_in_perugia({FLO: 9}), {FLO: [order]})
    assert verdict(result, FLO, order) == (Outcome.FAILS, "too few ducats")
    assert unit_at(result.position, "PER") == Unit(PAP, A, "PER")


def test_a_counter_bribe_is_taken_from_the_bribe() -> None:
    """12 against a counter-bribe of 3 fails; 15 against it succeeds."""
    counter = spend(1, 3, CounterBribe(Target("PER")))
    short = spend(1, 12, Bribe(BribeKind.DISBAND, Target("PER")))
    failed = money(papal_army_in_perugia({FLO: 15, PAP: 3}), {FLO: [short], PAP: [counter]})
    assert verdict(failed, FLO, short) == (Outcome.FAILS, "countered")
    assert unit_at(failed.position, "PER") == Unit(PAP, A, "PER")
    enough = spend(1, 15, Bribe(BribeKind.DISBAND, Target("PER")))
    won = money(papal_army_in_perugia({FLO: 15, PAP: 3}), {FLO: [enough], PAP: [counter]})
    assert verdict(won, FLO, enough)[0] is Outcome.SUCCEEDS
    assert (treasury(won.position, FLO), treasury(won.position, PAP)) == (0, 0)


def test_counter_bribes_from_several_powers_add_up() -> None:
    counter = spend(1, 3, CounterBribe(Target("PER")))
    bribe = spend(1, 15, Bribe(BribeKind.DISBAND, Target("PER")))
    result = money(
        papal_army_in_perugia({FLO: 15, PAP: 3, NAP: 3}),
        {FLO: [bribe], PAP: [counter], NAP: [counter]},
        ANYWHERE,
    )
    assert verdict(result, FLO, bribe) == (Outcome.FAILS, "countered")


def test_counter_bribes_do_not_counter_rebellions_or_famine_relief() -> None:
    rebellion = spend(1, 9, CauseRebellion("PER"))
    counter = spend(1, 3, CounterBribe(Target("PER")))
    position = replace(
        papal_army_in_perugia({FLO: 9, PAP: 3}),
        control=Control(
            MappingProxyType({**opening_position(BOARD).control.provinces, "PER": MIL}),
            opening_position(BOARD).control.cities,
        ),
    )
    result = money(position, {FLO: [rebellion], PAP: [counter]})
    assert verdict(result, FLO, rebellion)[0] is Outcome.SUCCEEDS


def test_of_several_bribes_on_one_unit_only_the_largest_counts() -> None:
    larger = spend(1, 21, Bribe(BribeKind.BUY, Target("PER")))
    smaller = spend(1, 15, Bribe(BribeKind.DISBAND, Target("PER")))
    result = money(
        papal_army_in_perugia({FLO: 21, MIL: 15}), {FLO: [larger], MIL: [smaller]}, ANYWHERE
    )
    assert verdict(result, FLO, larger)[0] is Outcome.SUCCEEDS
    assert verdict(result, MIL, smaller) == (Outcome.FAILS, "outbid")
    assert unit_at(result.position, "PER") == Unit(FLO, A, "PER")
    assert treasury(result.position, MIL) == 0  # the smaller bribe is wasted


def test_the_largest_bribe_countered_takes_the_smaller_ones_down_with_it() -> None:
    """Only the largest counts: countered below its price, it fails, and so do the rest."""
    larger = spend(1, 21, Bribe(BribeKind.BUY, Target("PER")))
    smaller = spend(1, 18, Bribe(BribeKind.DISBAND, Target("PER")))
    counter = spend(1, 6, CounterBribe(Target("PER")))
    result = money(
        papal_army_in_perugia({FLO: 21, MIL: 18, PAP: 6}),
        {FLO: [larger], MIL: [smaller], PAP: [counter]},
        ANYWHERE,
    )
    assert verdict(result, FLO, larger) == (Outcome.FAILS, "countered")
    assert verdict(result, MIL, smaller) == (Outcome.FAILS, "outbid")
    assert unit_at(result.position, "PER") == Unit(PAP, A, "PER")


def test_a_tie_for_the_largest_bribe_fails_every_bribe_on_the_unit() -> None:
    one = spend(1, 18, Bribe(BribeKind.BUY, Target("PER")))
    other = spend(1, 18, Bribe(BribeKind.DISBAND, Target("PER")))
    smallest = spend(1, 12, Bribe(BribeKind.DISBAND, Target("PER")))
    result = money(
        papal_army_in_perugia({FLO: 18, MIL: 18, NAP: 12}),
        {FLO: [one], MIL: [other], NAP: [smallest]},
        ANYWHERE,
    )
    assert verdict(result, FLO, one) == (Outcome.FAILS, "tied with another bribe")
    assert verdict(result, MIL, other) == (Outcome.FAILS, "tied with another bribe")
    assert verdict(result, NAP, smallest) == (Outcome.FAILS, "outbid")
    assert unit_at(result.position, "PER") == Unit(PAP, A, "PER")


def test_a_bought_army_changes_sides_where_it_stands_with_its_province() -> None:
    order = spend(1, 18, Bribe(BribeKind.BUY, Target("PER")))
    result = money(papal_army_in_perugia({FLO: 18}), {FLO: [order]})
    assert unit_at(result.position, "PER") == Unit(FLO, A, "PER")
    assert result.position.control.provinces["PER"] == FLO


def test_a_garrison_bought_by_an_autonomous_bribe_becomes_the_buyers_with_its_city() -> None:
    """Nine ducats buy the autonomous garrison of Siena for Florence, whose army besieged it: the
    siege ends (it would be a siege of Florence's own garrison)."""
    position = adjudicate_campaign(
        BOARD, at("S1455M", {FLO: 9}), {FLO: [Move(UnitRef(A, "ARE"), "SIE")]}
    ).position
    position = adjudicate_campaign(BOARD, position, {FLO: [Besiege(UnitRef(A, "SIE"))]}).position
    assert "SIE" in position.sieges
    order = spend(1, 9, Bribe(BribeKind.BUY, Target("SIE", garrison=True)))
    result = money(position, {FLO: [order]})
    assert verdict(result, FLO, order)[0] is Outcome.SUCCEEDS
    assert result.position.garrisons["SIE"] == FLO
    assert result.position.control.cities["SIE"] == FLO
    assert "SIE" not in result.position.sieges


def test_disbanding_an_autonomous_garrison_costs_six_ducats() -> None:
    order = spend(1, 6, Bribe(BribeKind.DISBAND, Target("LUC", garrison=True)))
    result = money(at("S1455M", {FLO: 6}), {FLO: [order]})
    assert verdict(result, FLO, order)[0] is Outcome.SUCCEEDS
    assert "LUC" not in result.position.garrisons


def test_a_garrison_of_a_major_city_costs_double() -> None:
    """Genoa (3 ducats) is a major city: its autonomous garrison costs 18 to buy, not 9."""
    position = at("S1455M", {MIL: 18}, units=[*opening_position(BOARD).units, Unit(MIL, A, "FOR")])
    cheap = spend(1, 15, Bribe(BribeKind.BUY, Target("GEN", garrison=True)))
    assert verdict(money(position, {MIL: [cheap]}), MIL, cheap) == (Outcome.FAILS, "too few ducats")
    dear = spend(1, 18, Bribe(BribeKind.BUY, Target("GEN", garrison=True)))
    assert money(position, {MIL: [dear]}).position.garrisons["GEN"] == MIL


def test_another_powers_garrison_is_made_autonomous_for_nine_ducats() -> None:
    position = at("S1455M", {FLO: 9}, garrisons={**BOARD.garrisons, "PER": PAP})
    order = spend(1, 9, Bribe(BribeKind.TO_AUTONOMOUS, Target("PER", garrison=True)))
    result = money(position, {FLO: [order]})
    assert result.position.garrisons["PER"] == AUTONOMOUS
    wrong = spend(1, 9, Bribe(BribeKind.TO_AUTONOMOUS, Target("SIE", garrison=True)))
    assert verdict(money(position, {FLO: [wrong]}), FLO, wrong)[0] is Outcome.INVALID


def test_a_bribe_needs_a_unit_of_the_payer_near_its_target_under_adjacency() -> None:
    order = spend(1, 12, Bribe(BribeKind.DISBAND, Target("PER")))
    far = money(papal_army_in_perugia({FRA: 12}), {FRA: [order]})
    assert verdict(far, FRA, order) == (Outcome.INVALID, "no unit near")
    free = money(
        papal_army_in_perugia({FRA: 12}), {FRA: [order]}, MachiavelliOptions(adjacency=False)
    )
    assert verdict(free, FRA, order)[0] is Outcome.SUCCEEDS


def test_a_power_counter_bribes_its_own_unit_from_anywhere_but_never_bribes_it() -> None:
    position = at("S1455M", {FLO: 30}, units=[*opening_position(BOARD).units, Unit(FLO, F, "TYS")])
    counter = spend(1, 3, CounterBribe(Target("TYS")))
    own = spend(2, 12, Bribe(BribeKind.DISBAND, Target("ARE")))
    result = money(position, {FLO: [counter, own]})
    assert verdict(result, FLO, counter)[0] is Outcome.SUCCEEDS
    assert verdict(result, FLO, own) == (Outcome.INVALID, "a power does not bribe its own unit")


def test_a_bought_besieger_keeps_its_siege_for_its_new_owner() -> None:
    """Milan's army besieges Papal Bologna's garrison; Florence buys the army: Florence's siege."""
    besieger = Unit(MIL, A, "BOL")
    units = [*(u for u in opening_position(BOARD).units if u.province != "BOL"), besieger]
    position = replace(
        at("S1455M", {FLO: 18}, units=units, garrisons={**BOARD.garrisons, "BOL": PAP}),
        sieges=MappingProxyType({"BOL": besieger}),
    )
    result = money(position, {FLO: [spend(1, 18, Bribe(BribeKind.BUY, Target("BOL")))]})
    assert result.position.sieges["BOL"] == Unit(FLO, A, "BOL")


# ----------------------------------------------------------------------------- rebellions


def milan_holds_perugia_and_arezzo(treasuries: Mapping[str, int]) -> MachiavelliPosition:
    return at("S1455M", treasuries, provinces={"PER": MIL, "ARE": MIL}, cities={"ARE": MIL})


def test_a_rebellion_costs_nine_ducats_in_a_conquered_province() -> None:
    order = spend(1, 9, CauseRebellion("PER"))
    result = money(milan_holds_perugia_and_arezzo({FLO: 9}), {FLO: [order]})
    assert verdict(result, FLO, order)[0] is Outcome.SUCCEEDS
    assert result.position.unrest.rebellions["PER"] == Rebellion(MIL, city=True)


def test_a_rebellion_costs_fifteen_ducats_in_its_targets_home_country() -> None:
    short = spend(1, 9, CauseRebellion("PST"))
    assert verdict(
        money(at("S1455M", {MIL: 9}, units=[Unit(MIL, A, "LUC")]), {MIL: [short]}), MIL, short
    ) == (
        Outcome.INVALID,
        "this rebellion costs 15 ducats",
    )
    full = spend(1, 15, CauseRebellion("PST"))
    result = money(at("S1455M", {MIL: 15}, units=[Unit(MIL, A, "LUC")]), {MIL: [full]})
    assert result.position.unrest.rebellions["PST"] == Rebellion(FLO)


def test_a_garrisoned_city_never_rebels_only_its_province() -> None:
    position = replace(
        milan_holds_perugia_and_arezzo({FLO: 9}), garrisons={**BOARD.garrisons, "PER": MIL}
    )
    result = money(position, {FLO: [spend(1, 9, CauseRebellion("PER"))]})
    assert result.position.unrest.rebellions["PER"] == Rebellion(MIL, city=False)


def test_buying_a_unit_of_the_power_the_rebels_fight_liberates_the_province() -> None:
    rebels = Unrest(MappingProxyType({"PER": Rebellion(PAP)}))
    position = replace(papal_army_in_perugia({FLO: 18}), unrest=rebels)
    result = money(position, {FLO: [spend(1, 18, Bribe(BribeKind.BUY, Target("PER")))]})
    assert "PER" not in result.position.unrest.rebellions


def test_no_power_raises_rebels_against_itself_or_in_a_province_no_power_controls() -> None:
    own = spend(1, 15, CauseRebellion("FLO"))
    nobody = spend(2, 9, CauseRebellion("SIE"))
    result = money(at("S1455M", {FLO: 30}), {FLO: [own, nobody]})
    assert verdict(result, FLO, own) == (
        Outcome.INVALID,
        "a power does not raise rebels against itself",
    )
    assert verdict(result, FLO, nobody) == (Outcome.INVALID, "no power controls it")


# ----------------------------------------------------------------------------- the ledger


def test_every_ducat_moved_is_in_the_ledger() -> None:
    position = papal_army_in_perugia({FLO: 30, MIL: 5})
    orders: dict[str, list[MoneyOrder]] = {
        FLO: [Give(4, MIL), Borrow(10, 2), spend(1, 18, Bribe(BribeKind.BUY, Target("PER")))],
        MIL: [spend(1, 3, FamineRelief("MIL"))],
    }
    result = money(position, orders)
    for power in (FLO, MIL):
        moved = sum(entry.ducats for entry in result.ledger if entry.power == power)
        assert treasury(result.position, power) == treasury(position, power) + moved


def test_a_unit_bought_obeys_its_buyers_orders_in_the_same_campaign() -> None:
    """The rules: a power that buys a unit may order it in the campaign of the bribe."""
    bought = money(
        papal_army_in_perugia({FLO: 18}), {FLO: [spend(1, 18, Bribe(BribeKind.BUY, Target("PER")))]}
    )
    orders = {FLO: [Move(UnitRef(A, "PER"), "SPO")], PAP: [Move(UnitRef(A, "PER"), "SIE")]}
    moved = adjudicate_campaign(BOARD, bought.position, orders).position
    assert Unit(FLO, A, "SPO") in moved.units
    assert unit_at(moved, "SIE") is None


# ----------------------------------------------------------------------------- rebellions in a campaign


def test_the_power_the_rebels_fight_puts_down_the_province_by_holding_there_a_campaign() -> None:
    """Florence's army holds in Arezzo: the province's rebels are put down, the city's stay (a
    rebelling city is besieged), and the city still yields nothing while the province does."""
    rebels = Unrest(MappingProxyType({"ARE": Rebellion(FLO, city=True), "PST": Rebellion(FLO)}))
    position = at("S1455M", unrest=rebels)
    after = adjudicate_campaign(BOARD, position, {FLO: [Hold(UnitRef(A, "ARE"))]}).position
    assert after.unrest.rebellions["ARE"] == Rebellion(FLO, city=True, province=False)
    assert after.unrest.rebellions["PST"] == Rebellion(FLO)  # no Florentine army in Pistoia
    winter = replace(after, phase=Phase.parse("W1455A"))
    (report,) = [
        r for r in collect_income(BOARD, winter, seed=1, options=NO_DICE).reports if r.power == FLO
    ]
    assert (report.provinces, report.cities) == (3, 4)


def test_a_unit_that_moves_does_not_put_down_the_rebels_it_leaves() -> None:
    rebels = Unrest(MappingProxyType({"ARE": Rebellion(FLO)}))
    after = adjudicate_campaign(
        BOARD, at("S1455M", unrest=rebels), {FLO: [Move(UnitRef(A, "ARE"), "SIE")]}
    ).position
    assert "ARE" in after.unrest.rebellions


def test_another_power_entering_a_rebelling_province_liberates_it_and_its_city() -> None:
    units = [u for u in opening_position(BOARD).units if u.province != "PER"]
    rebels = Unrest(MappingProxyType({"PER": Rebellion(PAP, city=True)}))
    after = adjudicate_campaign(
        BOARD, at("S1455M", units=units, unrest=rebels), {FLO: [Move(UnitRef(A, "ARE"), "PER")]}
    ).position
    assert Unit(FLO, A, "PER") in after.units
    assert "PER" not in after.unrest.rebellions


def test_a_power_does_not_convert_into_a_city_that_rebels_against_it() -> None:
    rebels = Unrest(MappingProxyType({"ARE": Rebellion(FLO, city=True)}))
    result = adjudicate_campaign(
        BOARD, at("S1455M", unrest=rebels), {FLO: [ToGarrison(UnitRef(A, "ARE"))]}
    )
    (found,) = result.verdicts
    assert (found.outcome, found.reason) == (Outcome.INVALID, "the city rebels")
    assert "ARE" not in result.position.garrisons


def test_a_unit_does_not_retreat_into_a_city_that_rebels_against_its_power() -> None:
    """Florence's army in Arezzo is dislodged with nowhere to go but the city: it retreats there,
    unless the city rebels against Florence (its gates shut), and then it is destroyed."""
    units = [*opening_position(BOARD).units, Unit(PAP, A, "URB"), Unit(MIL, A, "SIE")]
    attack = {
        PAP: [
            Move(UnitRef(A, "PER"), "ARE"),
            SupportMove(UnitRef(A, "URB"), UnitRef(A, "PER"), "ARE"),
        ]
    }
    calm = adjudicate_campaign(BOARD, at("S1455M", units=units), attack).position
    assert calm.retreats[Unit(FLO, A, "ARE")] == ("ARE#",)
    rebels = Unrest(MappingProxyType({"ARE": Rebellion(FLO, city=True)}))
    shut = adjudicate_campaign(BOARD, at("S1455M", units=units, unrest=rebels), attack).position
    assert not shut.dislodged and Unit(FLO, A, "ARE") not in shut.units


def test_no_money_order_is_played_under_set_no_money() -> None:
    position = at("S1455M", {FLO: 30})
    result = money(
        position,
        {FLO: [Give(5, MIL), spend(1, 12, Bribe(BribeKind.DISBAND, Target("PER")))]},
        MachiavelliOptions(money=False),
    )
    assert {v.outcome for v in result.verdicts} == {Outcome.INVALID}
    assert result.position == position and not result.ledger


def test_the_power_the_rebels_fight_puts_down_a_rebelling_city_by_a_siege_of_two_campaigns() -> (
    None
):
    """Florence's army besieges the rebels of Arezzo's city twice: both rebellions end (the
    province's too); the first besiege alone leaves them, the siege kept in the JSON."""
    rebels = Unrest(MappingProxyType({"ARE": Rebellion(FLO, city=True)}))
    besiege = {FLO: [Besiege(UnitRef(A, "ARE"))]}
    first = adjudicate_campaign(BOARD, at("S1455M", unrest=rebels), besiege).position
    assert first.sieges["ARE"] == Unit(FLO, A, "ARE") and "ARE" in first.unrest.rebellions
    assert position_from_json(BOARD, position_to_json(first)) == first
    second = adjudicate_campaign(BOARD, first, besiege)
    assert second.sieges_completed == ("ARE",)
    assert not second.position.unrest.rebellions and not second.position.sieges


def test_a_siege_of_rebels_lapses_when_they_are_pacified() -> None:
    rebels = Unrest(MappingProxyType({"ARE": Rebellion(FLO, city=True)}))
    first = adjudicate_campaign(
        BOARD, at("S1455M", {FLO: 12}, unrest=rebels), {FLO: [Besiege(UnitRef(A, "ARE"))]}
    )
    pacified = money(first.position, {FLO: [spend(1, 12, PacifyRebellion("ARE"))]})
    assert not pacified.position.sieges and not pacified.position.unrest.rebellions


# ----------------------------------------------------------------------------- the defaulter's fate


DUE = Phase.parse("S1456M")
FLORENCE_OWES = MappingProxyType({FLO: (Loan(10, 2, DUE),)})
"""Spring 1456: Florence owes 12 ducats due now, and has 5 (the tests below)."""


def test_a_defaulters_orders_all_hold_and_its_holds_put_down_no_rebellion() -> None:
    rebels = Unrest(MappingProxyType({"FLO": Rebellion(FLO)}))
    result = money(at("S1456M", {FLO: 5}, loans=FLORENCE_OWES, unrest=rebels), {})
    assert result.defaulted == (FLO,)
    orders = {
        FLO: [Move(UnitRef(A, "ARE"), "SIE"), Hold(UnitRef(A, "FLO")), Besiege(UnitRef(F, "PSA"))]
    }
    moved = adjudicate_campaign(
        BOARD, result.position, orders, assassinated=frozenset(result.defaulted)
    )
    assert Unit(FLO, A, "ARE") in moved.position.units  # it held
    assert [type(v.order) for v in moved.verdicts] == [Hold, Hold, Hold]
    assert "FLO" in moved.position.unrest.rebellions


def test_a_defaulters_garrison_under_siege_falls_unless_its_besieger_is_assassinated_too() -> None:
    """Milan's army began besieging Florence's garrison of Arezzo last campaign: it falls when
    Florence is assassinated, and stands when Milan defaults too."""
    besieger = Unit(MIL, A, "ARE")
    units = [*(u for u in opening_position(BOARD).units if u.province != "ARE"), besieger]
    laid = replace(
        at(
            "S1456M",
            {FLO: 5},
            loans=FLORENCE_OWES,
            units=units,
            garrisons={**BOARD.garrisons, "ARE": FLO},
        ),
        sieges=MappingProxyType({"ARE": besieger}),
    )
    fallen = money(laid, {})
    assert fallen.garrisons_lost == ("ARE",)
    assert "ARE" not in fallen.position.garrisons and not fallen.position.sieges
    both = replace(
        laid,
        money=replace(
            laid.money, loans=MappingProxyType({**laid.money.loans, MIL: laid.money.loans[FLO]})
        ),
    )  # type: ignore[union-attr]
    standing = money(both, {})
    assert standing.defaulted == (FLO, MIL)
    assert standing.garrisons_lost == () and standing.position.garrisons["ARE"] == FLO


def test_a_defaulters_provinces_rebel_on_one_die_each_by_the_rules_table() -> None:
    """Home province with a unit on a 1, without on 1-2; conquered with a unit 1-3, without 1-5;
    the dice seeded: the same game rolls the same."""
    units = [*opening_position(BOARD).units, Unit(FLO, A, "SPO")]
    position = at(
        "S1456M", {FLO: 5}, loans=FLORENCE_OWES, units=units, provinces={"SPO": FLO, "URB": FLO}
    )
    result = money(position, {})
    assert result.rebellion_rolls == money(position, {}).rebellion_rolls
    thresholds = {"ARE": 1, "FLO": 1, "PSA": 1, "PST": 2, "SPO": 3, "URB": 5}
    assert {roll.province for roll in result.rebellion_rolls} == set(thresholds)
    risen = set()
    for seed in range(30):
        rolled = adjudicate_money(BOARD, position, {}, seed=seed)
        for roll in rolled.rebellion_rolls:
            assert roll.rose == (roll.roll <= thresholds[roll.province])
            assert (roll.province in rolled.position.unrest.rebellions) == roll.rose
            risen |= {roll.province} if roll.rose else set()
    assert risen == set(thresholds)


# ----------------------------------------------------------------------------- the rebels' support


def perugia_rises_against_the_papacy(*extra: Unit) -> MachiavelliPosition:
    rebels = Unrest(MappingProxyType({"PER": Rebellion(PAP, city=True)}))
    return at("S1455M", units=[*opening_position(BOARD).units, *extra], unrest=rebels)


def test_the_rebels_support_a_power_they_do_not_fight_into_their_province() -> None:
    """Florence's army alone against the Papal army holding in Perugia: the rebels' strength
    carries it in (2 against 1), the Papal army is dislodged, and the rebels are liberated."""
    result = adjudicate_campaign(
        BOARD, perugia_rises_against_the_papacy(), {FLO: [Move(UnitRef(A, "ARE"), "PER")]}
    )
    assert Unit(FLO, A, "PER") in result.position.units
    assert [d.unit for d in result.position.dislodged] == [Unit(PAP, A, "PER")]
    assert "PER" not in result.position.unrest.rebellions
    assert not any(unit.location.endswith("$") for unit in result.position.units)
    calm = adjudicate_campaign(BOARD, at("S1455M"), {FLO: [Move(UnitRef(A, "ARE"), "PER")]})
    assert Unit(PAP, A, "PER") in calm.position.units  # without rebels: a bounce


def test_with_two_powers_moving_in_the_rebels_support_neither() -> None:
    position = perugia_rises_against_the_papacy(Unit(MIL, A, "SPO"))
    orders = {FLO: [Move(UnitRef(A, "ARE"), "PER")], MIL: [Move(UnitRef(A, "SPO"), "PER")]}
    result = adjudicate_campaign(BOARD, position, orders)
    assert Unit(PAP, A, "PER") in result.position.units
    assert "PER" in result.position.unrest.rebellions


def test_the_rebels_never_support_the_power_they_fight() -> None:
    """Urbino rises against the Papacy: the Papal army from Perugia and Florence's from Arezzo
    both move in; the rebels back Florence alone, which enters."""
    rebels = Unrest(MappingProxyType({"URB": Rebellion(PAP)}))
    orders = {FLO: [Move(UnitRef(A, "ARE"), "URB")], PAP: [Move(UnitRef(A, "PER"), "URB")]}
    result = adjudicate_campaign(BOARD, at("S1455M", unrest=rebels), orders)
    assert Unit(FLO, A, "URB") in result.position.units
    assert Unit(PAP, A, "PER") in result.position.units


def test_a_garrison_of_another_power_converting_out_has_the_rebels_support() -> None:
    """Milan's garrison in Arezzo's city converts into an army against Florence's army holding in
    the province, which rebels against Florence: the rebels carry the conversion."""
    rebels = Unrest(MappingProxyType({"ARE": Rebellion(FLO)}))
    position = at("S1455M", garrisons={**BOARD.garrisons, "ARE": MIL}, unrest=rebels)
    result = adjudicate_campaign(BOARD, position, {MIL: [GarrisonConvert("ARE", A)]})
    assert Unit(MIL, A, "ARE") in result.position.units
    assert [d.unit for d in result.position.dislodged] == [Unit(FLO, A, "ARE")]


def test_no_order_reaches_the_rebels_own_space() -> None:
    rebels = Unrest(MappingProxyType({"ARE": Rebellion(FLO)}))
    result = adjudicate_campaign(
        BOARD, at("S1455M", unrest=rebels), {FLO: [Move(UnitRef(A, "ARE"), "ARE$")]}
    )
    assert [(v.outcome, v.reason) for v in result.verdicts] == [(Outcome.INVALID, "no such place")]
    assert Unit(FLO, A, "ARE") in result.position.units
