"""The order reader's fast path reads exactly as the grammar does, on every variant (issue 27).

``judge.lang.order_fast_path.read_canonical`` reads plainly written orders without the grammar;
wherever it answers, its answer must be the general reader's (``order_meaning.read_general``:
the tokens, the LALR grammar, the builder) to the last field (order, text, name readings,
column), and where the general reader refuses, it must give up. Checked here on a large
generated set: the orders of seeded random games of every shipped variant (the one generator,
judge.core.random_orders, illegal orders included), each written several ways a player writes
it (the judge's notation, lower case, names for codes, keywords spelt out, spaces doubled),
read for its own phase and with no phase, in English and in French.
tests/lang/test_orders.py adds word soup and every DATC order on the standard map.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from judge.core.adjudicator import DEFAULT_RULES, adjudicate
from judge.core.geography import GameMap
from judge.core.orders import Order
from judge.core.phase import PhaseType
from judge.core.random_orders import RandomOrders, opening_position
from judge.core.units import UnitRef, UnitType
from judge.core.variants import available_variants, load_map
from judge.lang.errors import Message
from judge.lang.order_fast_path import read_canonical
from judge.lang.order_meaning import read_general
from judge.lang.order_values import OrderSyntaxError, ReadOrder

KEYWORDS = {"H": "HOLD", "S": "SUPPORTS", "C": "CONVOYS", "D": "DISBAND", "R": "RETREAT", "-": "MOVE TO"}


def generated_orders(game_map: GameMap, seed: int, phases: int) -> Iterator[tuple[Order, PhaseType]]:
    maker = RandomOrders(game_map, random.Random(seed), mischief=0.3)
    position, retreats = opening_position(game_map), {}
    for _ in range(phases):
        orders = maker.orders(position, retreats)
        for these in orders.values():
            for order in these:
                yield order, position.phase.type
        result = adjudicate(position, orders, DEFAULT_RULES, game_map)
        position, retreats = result.position, result.retreats


def writings(text: str, game_map: GameMap) -> list[str]:
    """``text`` as the judge writes it, and as players do."""
    words = text.split()
    named = [
        game_map.provinces[w].name if w in game_map.provinces and " " not in game_map.provinces[w].name else w
        for w in words
    ]
    return [
        text,
        text.lower(),
        "  ".join(w.title() for w in named) + " ",
        " ".join(KEYWORDS.get(w, w) for w in words),
    ]


def general(text: str, game_map: GameMap, phase_type: PhaseType | None, french: bool) -> ReadOrder | str:
    try:
        return read_general(text, game_map, phase_type, french)
    except OrderSyntaxError as error:
        return f"error at {error.column}: {error.message}"


@pytest.mark.parametrize("variant", available_variants())
def test_the_fast_path_reads_as_the_grammar_on_generated_orders_of_every_variant(variant: str) -> None:
    game_map = load_map(variant)
    read = answered = canonical = canonical_answered = 0
    # 16 phases give enough orders on a board of seven powers; the games for two (france_austria...)
    # play longer for as many orders.
    phases = 16 if len(game_map.powers) > 2 else 32
    for order, own_phase in generated_orders(game_map, len(variant), phases):
        for k, text in enumerate(writings(str(order), game_map)):
            for phase_type in (own_phase, None):
                for french in (False, True):
                    fast = read_canonical(text, game_map, phase_type, french)
                    read += 1
                    if fast is not None:
                        answered += 1
                        assert fast == general(text, game_map, phase_type, french), (text, phase_type, french)
                    if k == 0 and phase_type is own_phase and not french:
                        canonical += 1
                        canonical_answered += fast is not None
    assert read > 1500
    assert answered > read // 3  # the fast path was exercised, not merely allowed to give up
    assert canonical_answered >= canonical * 0.9  # the judge's own notation is what it is for


def test_a_shifted_error_keeps_its_translatable_message_and_its_unit() -> None:
    """An order's error inside a longer line is shifted to the line's column; the reply translates
    it (a French player reads it in French), so the message must stay translatable."""
    unit = UnitRef(UnitType.ARMY, "PAR")
    error = OrderSyntaxError(Message("No order given for {unit}", unit="Paris"), 3, "Par", unit=unit)
    moved = error.shifted(10)
    assert moved.translatable == error.translatable and moved.translatable is not None
    assert (moved.message, moved.column, moved.text, moved.unit) == ("No order given for Paris", 13, "Par", unit)
    plain = OrderSyntaxError("Unrecognized order", 1, "Xyz").shifted(4)
    assert (plain.translatable, plain.message, plain.column) == (None, "Unrecognized order", 5)
