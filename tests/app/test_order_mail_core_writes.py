"""The order mail's Core writes (issue 14) under a savepoint rolled back: PREDICT stores the mail's
orders so far inside a savepoint it rolls back, and the mail stores them again at its end. The
version in force before the mail must end superseded, and exactly one version stay in force."""

from __future__ import annotations

from sqlalchemy import select

from judge.db.models import OrderSubmission
from tests.app.conftest import Harness
from tests.app.masters_helpers import as_master, as_power, moderated_game, read


def _france_versions(harness: Harness) -> list[tuple[int, list[str], bool]]:
    with harness.db.unit_of_work(readonly=True) as uow:
        rows = uow.session.scalars(
            select(OrderSubmission)
            .where(OrderSubmission.power == "FRANCE", OrderSubmission.phase == "S1901M")
            .order_by(OrderSubmission.version)
        )
        return [(row.version, list(row.canonical), row.superseded_at is None) for row in rows]


def test_orders_stored_again_after_predict_supersede_the_version_in_force(harness: Harness) -> None:
    moderated_game(harness)
    as_power(harness, "FRANCE", "A PAR-BUR\nA MAR-SPA\nF BRE-MAO\n")
    assert [(v, in_force) for v, _orders, in_force in _france_versions(harness)] == [(1, True)]
    reply = as_master(harness, "BECOME FRANCE\nA PAR-PIC\nPREDICT\nA MAR H\n")
    body = read(reply)
    assert "France:  Army Paris -> Picardy." in body, body  # the prediction saw the mail's order
    versions = _france_versions(harness)
    assert [(v, in_force) for v, _orders, in_force in versions] == [(1, False), (2, True)], versions
    assert sorted(versions[1][1]) == ["A MAR H", "A PAR - PIC", "F BRE - MAO"]
