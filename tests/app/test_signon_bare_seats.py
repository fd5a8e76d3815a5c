"""A sign-on whose mail only gives orders loads the game's seats without their players (issue 14);
what then reads the players gets them all in one query, never one lazy load per seat."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.app.conftest import Harness, one_text
from tests.app.games_helpers import form_game, read, register
from tests.app.test_statement_budget import counting

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def _people_reads(statements: list[str]) -> int:
    return sum(1 for s in statements if s.lstrip().upper().startswith("SELECT") and "FROM people" in s)


def test_a_takeover_in_an_order_mail_reads_the_players_once(harness: Harness) -> None:
    started = form_game(harness, preferences={0: "F", 1: "E"})
    harness.exchange(started[0], "SIGNON Fdemo pw0\nRESIGN\n")
    register(harness, "new@example.net")
    harness.clock.advance(timedelta(days=5))
    harness.new_mail()
    harness.send("new@example.net", "SIGNON Fdemo fresh\nA PAR H\n")
    with counting(harness) as counter:
        harness.drain()
    fresh = harness.new_mail()
    replies = [m for m in fresh if "new@example.net" in str(m["To"])]
    assert "You have taken over France in game 'demo'." in read(replies[0])
    notices = [one_text([m for m in fresh if m["Subject"] == "XPY:demo - S1901M New Player Signon: F"])]
    assert len(str(notices[0]["To"]).split(", ")) == 6  # every other player told: their addresses were read
    # The sender, then the players (the previous one too) in one query; at most one more read of
    # a person elsewhere, never one per seat.
    assert _people_reads(counter.statements) <= 3, "\n".join(counter.statements)


def test_an_impersonating_sign_on_still_copies_the_holder(harness: Harness) -> None:
    started = form_game(harness, preferences={0: "F", 1: "E"})
    harness.new_mail()
    reply = harness.exchange("someone@else.example", "SIGNON Fdemo pw0\nA PAR H\n")
    assert "This address is not the one registered for this player" in read(reply)
    assert [str(m["To"]) for m in harness.copies] == [started[0]]  # the holder's copy, a mail of its own
