"""OrderSheet.with_order carries its items' keys from one merge to the next (issue 14): the same
sheets as merging from the items alone, whatever the mix of orders, lists, WAIVEs and IF blocks."""

from __future__ import annotations

import random

from judge.app.game_state.order_sheets import ADJUSTMENT_LIST, Item, OrderSheet, unit_key
from judge.core.orders import Build, Hold, Move, Order, Remove, Waive
from judge.core.units import UnitRef, UnitType
from judge.lang.commands import Conditional
from judge.lang.mail import parse_mail
from judge.lang.preferences import Preference

A = UnitType.ARMY
F = UnitType.FLEET


def merged_from_items(items: tuple[Item, ...], order: Order | Preference) -> tuple[Item, ...]:
    """with_order as it was written before the keys were kept: every item's key worked out again."""
    key = unit_key(order)
    adjusting = isinstance(order, Build | Remove | Waive)
    kept = tuple(
        item for item in items
        if isinstance(item, Conditional)
        or not ((key is not None and unit_key(item) == key) or (adjusting and unit_key(item) == ADJUSTMENT_LIST))
    )  # fmt: skip
    return (*kept, order)


def test_merging_with_kept_keys_gives_the_sheets_of_merging_from_the_items() -> None:
    block = parse_mail("IF german army mun\n A par - pic\nENDIF").commands[0]
    assert isinstance(block, Conditional)
    choices: list[Order | Preference] = [
        Hold(UnitRef(A, "PAR")), Move(UnitRef(A, "PAR"), "BUR"), Hold(UnitRef(F, "STP/SC")),
        Move(UnitRef(F, "STP/NC"), "BAR"), Build(A, "PAR"), Build(F, "STP/NC"),
        Remove(UnitRef(A, "MAR")), Waive(), Hold(UnitRef(A, "MAR")),
        Preference((Build(A, "PAR"), Build(A, "MAR"))),
        Preference((Move(UnitRef(A, "MAR"), "GAS"), Move(UnitRef(A, "MAR"), "SPA"))),
    ]  # fmt: skip
    rng = random.Random(14)
    for _ in range(300):
        sheet, expected = OrderSheet(), ()
        for _ in range(rng.randrange(1, 12)):
            if rng.random() < 0.15:
                # the one block orders A PAR: a new copy replaces the earlier one (issue 24)
                sheet, expected = sheet.with_block(block), (*(i for i in expected if i != block), block)
            else:
                order = rng.choice(choices)
                sheet, expected = sheet.with_order(order), merged_from_items(expected, order)
            assert sheet.items == expected
            assert sheet == OrderSheet(expected)  # the keys are not part of the value
