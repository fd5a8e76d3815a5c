"""PAUSE / RESUME: the clock stops (a reminder every three days), then restarts with a fresh deadline."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.app.conftest import Harness
from tests.app.deadlines_helpers import (
    EVERYONE,
    advance_to,
    all_but,
    announced,
    body,
    mail,
    run_scheduler,
    send_orders,
    times,
)
from tests.app.orders_helpers import MASTER, OBSERVER, address, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def test_a_paused_game_lets_its_deadline_and_grace_pass_then_resumes_with_a_fresh_deadline(harness: Harness) -> None:
    game = start_game(harness, settings={"nmr": True})
    send_orders(game, all_but("TURKEY"))
    reply = body(game.master("PAUSE\n"))
    assert (
        "> PAUSE\nGame 'demo' is paused: nothing will be processed and no deadline will pass until RESUME.\n"
    ) in reply
    paused = announced(harness, "XPY:demo - S1901M Game Paused")
    assert {a.strip() for m in paused.values() for a in str(m["To"]).split(",")} == EVERYONE - {MASTER}
    assert body(next(iter(paused.values()))) == (
        "Game 'demo' has been paused by the master.\n"
        "Nothing will be processed and no deadline will pass until it is resumed (RESUME).\n"
    )
    t = times(game)
    assert t.paused == harness.clock.now()
    assert t.next_due == harness.clock.now() + timedelta(days=3)  # the pause reminder
    advance_to(harness, t.grace + timedelta(hours=1))  # deadline and grace both pass: nothing happens
    run_scheduler(harness)
    reminders = mail(harness, "XPY:demo - S1901M Game Paused")
    assert reminders  # the three-day reminders (caught up once)
    assert all("has been paused since Monday 23 November 2026, 09:00 UTC" in body(m) for m in reminders.values())
    assert game.state()["phase"] == "S1901M"
    assert not [m for m in harness.new_mail() if "Late Notice" in str(m["Subject"])]

    now = harness.clock.now()
    resumed = body(game.orders("FRANCE", "RESUME\n"))
    fresh = times(game)
    assert fresh.paused is None
    assert fresh.deadline == datetime(2026, 12, 10, 23, 30, tzinfo=UTC)  # now (Tue Dec 8 23:30) + 71 h, at the clock
    assert fresh.deadline >= now + timedelta(hours=71)
    assert "Game 'demo' is resumed. The new deadline is Thursday 10 December 2026, 23:30 UTC." in resumed
    told = announced(harness, "XPY:demo - S1901M Game Resumed")
    assert body(next(iter(told.values()))) == (
        "Game 'demo' has been resumed by France.\nThe new deadline is Thursday 10 December 2026, 23:30 UTC.\n"
    )
    assert {a.strip() for m in told.values() for a in str(m["To"]).split(",")} == EVERYONE - {address("FRANCE")}
    send_orders(game, ["TURKEY"])
    assert fresh.start == now + timedelta(hours=12)  # min: no processing before
    advance_to(harness, fresh.start - timedelta(minutes=1))
    run_scheduler(harness)
    assert game.state()["phase"] == "S1901M"
    advance_to(harness, fresh.start)
    run_scheduler(harness)
    assert game.state()["phase"] == "F1901M"


def test_under_no_resume_only_the_master_resumes(harness: Harness) -> None:
    game = start_game(harness)
    game.master("SET NO RESUME\nPAUSE\n")
    refused = body(game.orders("FRANCE", "RESUME\n"))
    assert "Only a master of game 'demo' may use RESUME" in refused
    assert times(game).paused is not None
    assert "Game 'demo' is resumed." in body(game.master("RESUME\n"))
    assert times(game).paused is None


@pytest.mark.parametrize(
    ("who", "lines", "settings", "refusal"),
    [
        ("player", "PAUSE", {"moderated": True}, "Game 'demo' is moderated: only the master may do that."),
        ("observer", "PAUSE", {}, "Observers cannot do that: only the players and the master."),
        ("observer", "RESUME", {}, "Observers cannot resume a game: only its players and masters."),
        ("master", "RESUME", {}, "Game 'demo' is not paused: there is nothing to resume."),
        ("master", "PAUSE\nPAUSE", {}, "Game 'demo' has been paused since Monday 23 November 2026, 09:00 UTC."),
    ],
)  # fmt: skip
def test_refusals(harness: Harness, who: str, lines: str, settings: dict[str, object], refusal: str) -> None:
    game = start_game(harness, settings=settings)
    before = times(game)
    if who == "player":
        reply = game.orders("FRANCE", lines + "\n")
    elif who == "observer":
        reply = harness.exchange(OBSERVER, f"OBSERVE demo watchpw\n{lines}\n")
    else:
        reply = game.master(lines + "\n")
    assert refusal in body(reply)
    after = times(game)
    if lines == "PAUSE\nPAUSE":
        assert after.paused == harness.clock.now()  # the first PAUSE stands
    else:
        assert after == before


def test_a_game_not_yet_started_cannot_be_paused(harness: Harness) -> None:
    from tests.app.games_helpers import form_game

    form_game(harness, "young", players=2)
    reply = body(harness.exchange("p0@example.net", "SIGNON ?young pw0\nPAUSE\n"))
    assert "Game 'young' is not being played: there is nothing to pause." in reply
