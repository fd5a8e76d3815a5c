"""Stored order sheets are read back from their orders' values, not by reading their text again.

A sheet of plain orders is kept with each order as a value beside its text
(``orders.order_values``, :mod:`judge.core.order_json`); the re-planning, the
deadline and the processing read the values (:func:`judge.app.game_state.order_sheets.sheet_of`).
Sheets holding an IF block or a preference list, PHASE blocks kept for later and
versions stored before the values are read from their text, as before. The first
test holds that both roads give the same sheet on generated games of every
variant, so nothing a game does changes.
"""

from __future__ import annotations

import random

import pytest
from sqlalchemy import select

from judge.app.game_state.order_sheets import OrderSheet, StoredSheet, sheet_of
from judge.app.phases.guarded_scheduler import process_due
from judge.core.order_json import order_to_json
from judge.core.orders import Hold, Move
from judge.core.phase import Phase
from judge.core.random_orders import RandomOrders, opening_position
from judge.core.units import UnitRef, UnitType
from judge.core.variants import available_variants, load_map
from judge.db.enums import OrderBlockKind
from judge.db.models import OrderSubmission
from tests.app.conftest import Harness
from tests.app.orders_helpers import address, plain, start_game
from tests.app.test_processing_results import OPENINGS, results_mail, send_all

A = UnitType.ARMY


def _stored(sheet: OrderSheet, phase: Phase) -> StoredSheet:
    values = sheet.order_values()
    return StoredSheet(1, str(phase), OrderBlockKind.CURRENT, tuple(sheet.lines()), None if values is None else tuple(values))


@pytest.mark.parametrize("variant", available_variants())
def test_a_sheet_read_from_its_values_is_the_sheet_its_text_reads_as(variant: str) -> None:
    from judge.core.adjudicator import DEFAULT_RULES, adjudicate

    game_map = load_map(variant)
    maker = RandomOrders(game_map, random.Random(27))
    position, retreats = opening_position(game_map), {}
    compared = 0
    for _ in range(12):
        orders = maker.orders(position, retreats)
        for these in orders.values():
            sheet = OrderSheet()
            for order in these:
                sheet = sheet.with_order(order)
            stored = _stored(sheet, position.phase)
            assert stored.order_values is not None
            from_text = OrderSheet.read(stored.canonical, game_map, position.phase.type)
            assert sheet_of(stored, game_map, position.phase) == from_text
            compared += len(these)
        result = adjudicate(position, orders, DEFAULT_RULES, game_map)
        position, retreats = result.position, result.retreats
    assert compared > 0


def test_a_version_with_values_is_not_read_from_its_text_and_one_without_is() -> None:
    standard = load_map("standard")
    spring = Phase.parse("S1901M")
    hold = Hold(UnitRef(A, "PAR"))
    garbled = StoredSheet(1, "S1901M", OrderBlockKind.CURRENT, ("A PAR - BUR",), (order_to_json(hold),))
    assert sheet_of(garbled, standard, spring).items == (hold,)
    before = StoredSheet(1, "S1901M", OrderBlockKind.CURRENT, ("A PAR - BUR",), None)
    assert sheet_of(before, standard, spring).items == (Move(UnitRef(A, "PAR"), "BUR"),)


def test_a_sheet_with_an_if_block_or_a_preference_list_keeps_no_values() -> None:
    standard = load_map("standard")
    block = OrderSheet.read(["IF german army mun\n A par - pic\nENDIF"], standard, Phase.parse("S1901M").type)
    assert block.blocks and block.order_values() is None
    listed = OrderSheet.read(["BUILD A PAR, A MAR"], standard, Phase.parse("W1901A").type)
    assert listed.preferences and listed.order_values() is None


def test_the_processing_rules_on_the_stored_values_and_reads_an_older_versions_text(harness: Harness) -> None:
    """France's stored text is changed behind the judge's back to three holds: its values still
    say what France ordered, and the ruling follows them. Germany's version is made one stored
    before the values (none): its text is read, so its changed text counts."""
    game = start_game(harness)
    harness.clock.advance(hours=13)
    send_all(game, OPENINGS)
    with harness.db.unit_of_work() as uow:
        rows = {
            row.power: row
            for row in uow.session.scalars(select(OrderSubmission).where(OrderSubmission.superseded_at.is_(None)))
        }
        assert rows["FRANCE"].order_values is not None
        assert len(rows["FRANCE"].order_values) == len(rows["FRANCE"].canonical) == 3
        rows["FRANCE"].canonical = ["A PAR H", "A MAR H", "F BRE H"]
        rows["GERMANY"].canonical = ["A BER H", "A MUN H", "F KIE H"]
        rows["GERMANY"].order_values = None
    harness.clock.advance(hours=1)
    assert process_due(harness.services) == 1
    body = plain(results_mail(harness, "S1901M")[address("FRANCE")])
    assert "France:  Army Paris -> Burgundy." in body
    assert "France:  Army Marseilles SUPPORT Army Paris -> Burgundy." in body
    assert "Germany: Army Munich HOLD." in body
    assert "Germany: Army Berlin HOLD." in body
