"""A practice game's pages (issue 31): each bot's seat is shown as the bot's, in English and French,
and the JSON answer says which powers bots play; the player's own row names him."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from judge.db.enums import SeatStatus
from tests.app.conftest import Harness, text
from tests.app.games_helpers import player, register

pytestmark = pytest.mark.engine_blind  # the engine cannot change what these check: SQLite only


def test_a_practice_games_page_shows_the_bots_seats(harness: Harness, web: TestClient) -> None:
    register(harness, player(0), name="Solo Player")
    reply = text(harness.exchange(player(0), "CREATE ?demo pw0\nSET PREFERENCE F\nSET BOTS\n"))
    assert "has started" in reply
    with harness.db.unit_of_work(readonly=True) as uow:
        bots = sorted(s.power or "" for s in uow.games.require("demo").seats if s.status is SeatStatus.BOT)
    assert len(bots) == 6 and "FRANCE" not in bots
    page = web.get("/games/demo").text
    for power in bots:
        assert f"<td>{power.title()} (the normal bot)</td>" in page
    assert "<td>France</td>" in page and "Solo Player" in page
    assert "<td>Angleterre (le robot de niveau normal)</td>" in web.get("/games/demo?lang=fr").text
    rows = {row["power"]: row for row in web.get("/api/games/demo").json()["powers"]}
    assert {power for power, row in rows.items() if row.get("bot") == "normal"} == set(bots)
