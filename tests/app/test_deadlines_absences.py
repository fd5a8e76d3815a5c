"""SET ABSENCE / SET NO ABSENCE: the next deadline moves out of an absence, never the current one."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from judge.db.models import Absence
from tests.app.conftest import Harness
from tests.app.deadlines_helpers import announced, body, process_spring_early, times
from tests.app.orders_helpers import MASTER, OBSERVER, StartedGame, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

WITHOUT_ABSENCE = datetime(2026, 11, 26, 23, 30, tzinfo=UTC)  # Monday 21:30 + 71 h, at the clock


def _absences(game: StartedGame) -> list[tuple[datetime, datetime, bool]]:
    with game.harness.db.unit_of_work(readonly=True) as uow:
        rows = uow.session.query(Absence).order_by(Absence.starts_at).all()
        return [(row.starts_at, row.ends_at, row.set_by_master) for row in rows]


def test_an_absence_moves_the_next_deadline_past_its_end_and_the_master_is_told(harness: Harness) -> None:
    game = start_game(harness)
    current = times(game).deadline
    reply = body(game.orders("FRANCE", "SET ABSENCE 26 Nov TO 28 Nov\n"))
    assert (
        "> SET ABSENCE 26 Nov TO 28 Nov\n"
        "Absence recorded from Thursday 26 November 2026, 00:00 UTC to Sunday 29 November 2026, 00:00 UTC.\n"
        "A deadline computed during it will be moved to its end; the current deadline does not change.\n"
    ) in reply
    notice = announced(harness, "XPY:demo - S1901M Absence Notice")
    assert list(notice) == [MASTER]
    assert body(notice[MASTER]) == (
        "France will be absent from Thu Nov 26 2026 00:00:00 +0000 to Sun Nov 29 2026 00:00:00 +0000 in game 'demo'.\n"
    )
    assert times(game).deadline == current
    process_spring_early(game)
    # Thursday 23:30 falls in the absence: its end is Sunday 00:00, Sunday is no day for deadlines.
    assert times(game).deadline == datetime(2026, 11, 30, 23, 30, tzinfo=UTC)


@pytest.mark.engine_sql
def test_a_cancelled_absence_no_longer_moves_anything(harness: Harness) -> None:
    game = start_game(harness)
    game.orders("FRANCE", "SET ABSENCE 26 Nov TO 28 Nov\n")
    reply = body(game.orders("FRANCE", "SET NO ABSENCE 27 Nov\n"))
    assert (
        "Absence from Thursday 26 November 2026, 00:00 UTC to Sunday 29 November 2026, 00:00 UTC cancelled.\n" in reply
    )
    assert announced(harness, "Absence Notice")
    assert _absences(game) == []
    process_spring_early(game)
    assert times(game).deadline == WITHOUT_ABSENCE


@pytest.mark.engine_sql
def test_an_oversized_absence_is_left_to_the_master_whose_ready_made_lines_grant_it(harness: Harness) -> None:
    game = start_game(harness)
    reply = body(game.orders("FRANCE", "SET ABSENCE 1 Dec TO 20 Dec\n"))
    assert (
        "That absence covers 20 days, more than this game's maximum of 15: it was not recorded.\n"
        "The master has been asked to decide.\n"
    ) in reply
    assert _absences(game) == []
    request = announced(harness, "XPY:demo - S1901M Oversized Absence Request")
    text = body(request[MASTER])
    assert text == (
        "France asks to be absent in game 'demo' from Tue Dec 01 2026 00:00:00 +0000 to "
        "Mon Dec 21 2026 00:00:00 +0000: 20 days, more than the maximum of 15.\n"
        "To grant it, send these lines to the judge:\n\n"
        "SIGNON Mdemo <password>\n"
        "BECOME F\n"
        "SET ABSENCE 2026-12-01T00:00:00+00:00 TO 2026-12-21T00:00:00+00:00\n"
        "SIGNOFF\n"
    )
    lines = text.split("\n\n", 1)[1].replace("<password>", "masterpw")
    granted = body(harness.exchange(MASTER, lines))
    assert "Absence recorded from Tuesday 1 December 2026, 00:00 UTC to Monday 21 December 2026, 00:00 UTC." in granted
    assert _absences(game) == [
        (datetime(2026, 12, 1, tzinfo=UTC), datetime(2026, 12, 21, tzinfo=UTC), True)
    ]


def test_the_master_s_own_absence_counts_too(harness: Harness) -> None:
    game = start_game(harness)
    reply = body(game.master("SET ABSENCE 2026-11-26T12:00:00Z\n"))  # a time given: 24 hours
    assert "Absence recorded from Thursday 26 November 2026, 12:00 UTC to Friday 27 November 2026, 12:00 UTC." in reply
    process_spring_early(game)
    assert times(game).deadline == datetime(2026, 11, 27, 23, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("first", "line", "refusal"),
    [
        ("SET ABSENCE 26 Nov TO 28 Nov", "SET ABSENCE 27 Nov TO 30 Nov",
         "That absence overlaps one you already have; cancel it with SET NO ABSENCE first."),
        ("SET ABSENCE 1 Dec\nSET ABSENCE 3 Dec\nSET ABSENCE 5 Dec", "SET ABSENCE 7 Dec",
         "You already have 3 absences to come; cancel one with SET NO ABSENCE first."),
        ("", "SET ABSENCE 2026-11-01T00:00:00Z TO 2026-11-02T00:00:00Z",
         "The date '2026-11-01T00:00:00Z' (Sunday 1 November 2026, 00:00 UTC) is in the past."),
        ("", "SET ABSENCE 5 Dec TO 2026-12-01T00:00:00Z",
         "An absence must end after it starts (Sat Dec 05 2026 00:00:00 +0000 to Tue Dec 01 2026 00:00:00 +0000)."),
        ("", "SET NO ABSENCE 9 Dec", "None of your absences covers Wednesday 9 December 2026, 00:00 UTC."),
    ],
)  # fmt: skip
def test_refused_absences_change_nothing(harness: Harness, first: str, line: str, refusal: str) -> None:
    game = start_game(harness)
    if first:
        game.orders("FRANCE", first + "\n")
    before = _absences(game)
    reply = body(game.orders("FRANCE", line + "\n"))
    assert refusal in reply
    assert _absences(game) == before


def test_an_observer_has_no_absence_to_declare(harness: Harness) -> None:
    game = start_game(harness)
    reply = body(harness.exchange(OBSERVER, "OBSERVE demo watchpw\nSET ABSENCE 1 Dec\n"))
    assert "Only the players and the masters of a game may declare an absence in it." in reply
    assert _absences(game) == []
