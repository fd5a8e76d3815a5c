"""Pictures of stored results (issue 27): drawn from the orders' values, old results from their text.

A result the judge stores since issue 27 keeps each entry's order as a value (``order_value``)
beside its text: the picture is drawn from the value and no order text is read. A result without
values (``judge adjudicate``'s output given to ``judge map``, a phase processed before) is read
from its text, and draws the same picture.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import judge.lang.orders
from judge.core.adjudicator.rules import DEFAULT_RULES, Rules
from judge.core.order_json import ORDER_VALUE
from judge.core.serialization import position_from_json
from judge.maps.contract import orders_from_result
from judge.maps.render import render_svg
from judge.ruling import rule

HERE = Path(__file__).parent
POSITION = json.loads((HERE / "standard_f1902_position.json").read_text())
OLD_RESULT = json.loads((HERE / "standard_f1902_result.json").read_text())


def _stored_now() -> dict[str, Any]:
    """The fixture's phase as processing stores it today: the same ruling, with the values."""
    given = position_from_json(POSITION)
    rules = Rules.from_mapping(given.rules) if given.rules else DEFAULT_RULES
    return rule(given.position, given.orders, rules, given.game_map).to_stored_json()


def _no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> object:
        raise AssertionError("an order's text was read")

    monkeypatch.setattr(judge.lang.orders, "read_order_line", refuse)


def test_a_result_with_values_draws_as_the_same_result_stored_the_old_way(monkeypatch: pytest.MonkeyPatch) -> None:
    given = position_from_json(POSITION)
    stored = _stored_now()
    assert all(ORDER_VALUE in entry for entry in stored["results"])
    assert [{k: v for k, v in e.items() if k != ORDER_VALUE} for e in stored["results"]] == OLD_RESULT["results"]
    from_text = orders_from_result(OLD_RESULT, given.position, given.game_map)
    assert sum(r.order is not None for r in from_text.results) > 20
    _no_reading(monkeypatch)
    from_values = orders_from_result(stored, given.position, given.game_map)
    assert from_values == from_text
    assert render_svg(given.game_map, given.position, from_values) == render_svg(
        given.game_map, given.position, from_text
    )


def test_the_old_way_is_read_from_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    given = position_from_json(POSITION)
    _no_reading(monkeypatch)
    with pytest.raises(AssertionError, match="text was read"):
        orders_from_result(OLD_RESULT, given.position, given.game_map)


def test_a_value_that_does_not_read_leaves_its_order_off_the_picture() -> None:
    given = position_from_json(POSITION)
    stored = _stored_now()
    stored["results"][0][ORDER_VALUE] = {"kind": "teleport"}
    stored["results"][1][ORDER_VALUE] = None
    drawn = orders_from_result(stored, given.position, given.game_map)
    assert drawn.results[0].order is None and drawn.results[1].order is None
    assert all(r.order is not None for r in drawn.results[2:] if r.outcome.value != "invalid")
