"""The assassination expense of the Renaissance game, one rule a test (issue 33).

The die of each attempt is thrown from the game's seed, the phase, the payer and the expense's
number: a test computes that die for the seeds it tries and picks the seed whose die the rule
needs, so the outcome asserted is the rule's, not the luck's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from judge.core.adjudicator import Outcome
from judge.core.machiavelli.board import MachiavelliBoard, load_board
from judge.core.machiavelli.campaign import MachiavelliPosition, opening_position
from judge.core.machiavelli.dice import dice_for
from judge.core.machiavelli.money import MoneyResult, adjudicate_money, chits_held
from judge.core.machiavelli.options import MachiavelliOptions
from judge.core.machiavelli.orders import (
    Assassinate,
    CounterBribe,
    Expense,
    GiveChit,
    MoneyOrder,
    Target,
)
from judge.core.machiavelli.season import SeasonOrder, play_phase
from judge.core.machiavelli.serialization import position_from_json, position_to_json
from judge.core.machiavelli.treasury import Finances
from judge.core.orders import Move
from judge.core.phase import Phase
from judge.core.units import Unit, UnitRef, UnitType

BOARD: MachiavelliBoard = load_board()
FLO, MIL, PAP, TUR, NAP = "FLORENCE", "MILAN", "PAPACY", "TURKEY", "NAPLES"
PHASE = "S1455M"


def at(treasuries: Mapping[str, int], chits: Mapping[str, tuple[str, ...]] | None = None) -> MachiavelliPosition:
    start = opening_position(BOARD)
    return replace(
        start,
        phase=Phase.parse(PHASE),
        money=Finances(
            MappingProxyType({p: treasuries.get(p, 0) for p in BOARD.game_map.powers}),
            chits=None if chits is None else MappingProxyType(dict(chits)),
        ),
    )


def seed_where(payer: str, number: int, wanted: Callable[[int], bool]) -> str:
    """The first seed whose die for ``payer``'s expense ``number`` this phase is ``wanted``."""
    for n in range(200):
        seed = f"assassination-{n}"
        if wanted(dice_for(seed, Phase.parse(PHASE), f"assassination/{payer}/{number}").randint(1, 6)):
            return seed
    raise AssertionError("no such seed in 200")


def money(
    position: MachiavelliPosition,
    orders: Mapping[str, Sequence[MoneyOrder]],
    seed: str,
    options: MachiavelliOptions | None = None,
) -> MoneyResult:
    return adjudicate_money(BOARD, position, orders, options or MachiavelliOptions(), seed=seed)


def verdict(result: MoneyResult, power: str, order: MoneyOrder) -> tuple[Outcome, str]:
    (found,) = [v for v in result.verdicts if v.power == power and v.order == order]
    return found.outcome, found.reason


def chits(result: MoneyResult, power: str) -> tuple[str, ...]:
    assert result.position.money is not None
    return chits_held(BOARD, result.position.money)[power]


def test_each_power_starts_with_one_chit_against_each_other_power() -> None:
    held = chits_held(BOARD, Finances(MappingProxyType({})))
    assert held[FLO] == tuple(p for p in BOARD.game_map.powers if p != FLO)
    assert len(held) == len(BOARD.game_map.powers)


def test_an_assassination_succeeds_when_the_die_is_within_a_sixth_per_12_ducats() -> None:
    """24 ducats: a die of 1 or 2 kills; 3 fails. The chit is spent either way."""
    attempt = Expense(1, 24, Assassinate(PAP))
    killed = money(at({FLO: 30}), {FLO: [attempt]}, seed_where(FLO, 1, lambda d: d == 2))
    assert killed.assassinated == (PAP,) and verdict(killed, FLO, attempt)[0] is Outcome.SUCCEEDS
    missed = money(at({FLO: 30}), {FLO: [attempt]}, seed_where(FLO, 1, lambda d: d == 3))
    assert missed.assassinated == () and verdict(missed, FLO, attempt) == (Outcome.FAILS, "the die was 3")
    for result in (killed, missed):
        assert PAP not in chits(result, FLO)
        assert result.position.money is not None and result.position.money.treasury(FLO) == 6
        (roll,) = result.attempts
        assert roll.rule == "assassination" and roll.subject == f"{FLO} against {PAP}"


def test_36_ducats_is_the_best_chance_more_buys_nothing() -> None:
    """48 ducats still kill only on 1 to 3 (the rest is wasted)."""
    attempt = Expense(1, 48, Assassinate(PAP))
    four = seed_where(FLO, 1, lambda d: d == 4)
    result = money(at({FLO: 50}), {FLO: [attempt]}, four)
    assert result.assassinated == () and verdict(result, FLO, attempt) == (Outcome.FAILS, "the die was 4")
    three = seed_where(FLO, 1, lambda d: d == 3)
    assert money(at({FLO: 50}), {FLO: [attempt]}, three).assassinated == (PAP,)


def test_an_attempt_under_12_ducats_fails_and_keeps_the_chit() -> None:
    attempt = Expense(1, 9, Assassinate(PAP))
    result = money(at({FLO: 30}), {FLO: [attempt]}, seed_where(FLO, 1, lambda d: d == 1))
    assert verdict(result, FLO, attempt) == (Outcome.FAILS, "an assassination costs 12 ducats or more")
    assert PAP in chits(result, FLO) and result.assassinated == () and result.attempts == ()


def test_an_attempt_without_the_chit_is_wasted() -> None:
    attempt = Expense(1, 36, Assassinate(PAP))
    none_left = at({FLO: 40}, chits={FLO: (MIL,)})
    result = money(none_left, {FLO: [attempt]}, seed_where(FLO, 1, lambda d: d == 1))
    assert verdict(result, FLO, attempt) == (Outcome.FAILS, f"no chit against {PAP}")
    assert result.assassinated == ()
    assert result.position.money is not None and result.position.money.treasury(FLO) == 4


def test_a_chit_given_to_another_power_is_his_to_spend_the_same_campaign() -> None:
    """Florence gives Naples its chit against the Papacy; Naples spends it at once."""
    gift = GiveChit(PAP, NAP)
    attempt = Expense(2, 12, Assassinate(PAP))
    result = money(at({NAP: 12}), {FLO: [gift], NAP: [attempt]}, seed_where(NAP, 2, lambda d: d == 1))
    assert verdict(result, FLO, gift)[0] is Outcome.SUCCEEDS
    assert PAP not in chits(result, FLO)
    assert result.assassinated == (PAP,)
    assert chits(result, NAP).count(PAP) == 1  # its own, the given one spent
    again = money(result.position, {FLO: [gift]}, "any")
    assert verdict(again, FLO, gift) == (Outcome.INVALID, f"no chit against {PAP}")


def test_two_successful_attempts_assassinate_the_victim_once() -> None:
    seed = next(
        f"assassination-{n}"
        for n in range(500)
        if all(
            dice_for(f"assassination-{n}", Phase.parse(PHASE), f"assassination/{p}/1").randint(1, 6) <= 3
            for p in (FLO, MIL)
        )
    )
    orders = {p: [Expense(1, 36, Assassinate(PAP))] for p in (FLO, MIL)}
    result = money(at({FLO: 36, MIL: 36}), orders, seed)
    assert result.assassinated == (PAP,) and len(result.attempts) == 2
    assert [roll.rule for roll in result.rolls].count("assassination") == 2


def test_no_power_assassinates_itself_and_no_attempt_without_the_option() -> None:
    itself = Expense(1, 12, Assassinate(FLO))
    result = money(at({FLO: 12}), {FLO: [itself]}, "any")
    assert verdict(result, FLO, itself) == (Outcome.INVALID, "a power does not assassinate itself")
    attempt = Expense(1, 12, Assassinate(PAP))
    for off in (MachiavelliOptions(assassinations=False), MachiavelliOptions(dice=False)):
        refused = money(at({FLO: 12}), {FLO: [attempt]}, seed_where(FLO, 1, lambda d: d == 1), off)
        assert verdict(refused, FLO, attempt) == (Outcome.INVALID, "no assassinations in this game")
        assert refused.assassinated == ()


def test_the_victims_orders_hold_and_his_expenses_still_go_through() -> None:
    """Unlike the bank's defaulter, a victim of another power still spends: his counter-bribe
    works; his army's move becomes a hold; some of his provinces may rebel."""
    seed = seed_where(FLO, 1, lambda d: d == 1)
    attempt = Expense(1, 12, Assassinate(MIL))
    counter = Expense(1, 3, CounterBribe(Target("MIL")))
    orders: dict[str, list[SeasonOrder]] = {
        FLO: [attempt],
        MIL: [counter, Move(UnitRef(UnitType.ARMY, "PAV"), "PIA")],
    }
    result = play_phase(BOARD, at({FLO: 12, MIL: 3}), orders, MachiavelliOptions(), seed=seed)
    assert result.money is not None and result.money.assassinated == (MIL,)
    assert result.money.defaulted == ()
    assert verdict(result.money, MIL, counter)[0] is Outcome.SUCCEEDS
    assert Unit(MIL, UnitType.ARMY, "PAV") in result.position.units
    assert any(roll.rule == "rebellion" for roll in result.rolls)
    assert any(roll.rule == "assassination" for roll in result.rolls)


def test_chits_are_kept_with_the_position() -> None:
    """Once spent or given, each power's chits are written with the position and read back."""
    result = money(at({FLO: 12}), {FLO: [GiveChit(PAP, NAP)]}, "any")
    kept = position_from_json(BOARD, position_to_json(result.position))
    assert kept.money is not None and kept.money.chits == result.position.money.chits  # type: ignore[union-attr]
    fresh = position_to_json(at({}))
    assert "chits" not in fresh
