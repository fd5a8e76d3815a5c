"""HISTORY: what an observer received, by date or by phase, by mail."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from judge.app.reports.history_text import HistoryDateError, past_instant
from judge.db.enums import PressKind
from judge.lang.dates import DateSpec
from tests.app.conftest import Harness, text
from tests.app.reports_helpers import (
    MASTER,
    address_of,
    finish,
    game_state,
    post,
    process,
    start_game,
)
from tests.app.test_reports_summary import FRANCE_1901, FRANCE_F1901, section

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

STRANGER = "stranger@example.org"


def titles(lines: list[str]) -> list[str]:
    """The title lines of the history's items (``===== date  XPY:demo - title``)."""
    return [line.split("  ", 1)[1] for line in lines if line.startswith("===== ")]


def mailed_results(harness: Harness, turn: int, language: str = "en") -> list[str]:
    """The results mail of a turn as processing rendered (and mailed) it."""
    with harness.db.unit_of_work(readonly=True) as uow:
        record = uow.phases.by_turn(uow.games.require("demo"), turn)
        assert record.results is not None
        return str(record.results["report"][language]).rstrip().splitlines()


def a_week_of_play(harness: Harness) -> None:
    """S1901M processed, press of every kind, F1901M processed a day later."""
    start_game(harness)
    process(harness, "demo", FRANCE_1901)  # 10:00
    post(harness, "demo", "Hello all.", kind=PressKind.BROADCAST, sender="FRANCE")
    post(harness, "demo", "Just between us.", kind=PressKind.PRESS, sender="FRANCE", recipients=["ENGLAND"])
    post(harness, "demo", "Watch this.", kind=PressKind.PRESS, sender="ENGLAND", recipients=["O", "GERMANY"],
         grey=True)  # fmt: skip
    post(harness, "demo", "Italy has resigned.", kind=PressKind.NOTICE)
    harness.clock.advance(timedelta(days=1))
    process(harness, "demo", FRANCE_F1901)  # Tue 11:00


def test_history_holds_results_broadcasts_observer_press_and_notices(harness: Harness) -> None:
    a_week_of_play(harness)
    reply = harness.exchange(STRANGER, "HISTORY demo\n")
    assert "[Error Flag]" not in reply["Subject"]
    lines = section(text(reply), "HISTORY demo")
    assert lines[0] == (
        "History of game 'demo' from Tue Nov 17 2026 11:00:00 +0000 to Tue Nov 24 2026 11:00:00 +0000:"
    )
    assert titles(lines) == [
        "XPY:demo - S1901M Results",
        "XPY:demo - Broadcast",
        "XPY:demo - Press",
        "XPY:demo - Notice",
        "XPY:demo - F1901M Results",
    ]
    body = "\n".join(lines)
    spring = lines.index("===== Mon Nov 23 2026 10:00:00 +0000  XPY:demo - S1901M Results") + 1
    assert lines[spring : spring + len(mailed_results(harness, 1))] == mailed_results(harness, 1)
    fall = lines.index("===== Tue Nov 24 2026 11:00:00 +0000  XPY:demo - F1901M Results") + 1
    assert lines[fall : fall + len(mailed_results(harness, 2))] == mailed_results(harness, 2)
    broadcast = lines.index("===== Mon Nov 23 2026 10:00:00 +0000  XPY:demo - Broadcast")
    assert lines[broadcast + 1 : broadcast + 4] == [
        "Broadcast message from france@example.net as France in 'demo':",
        "",
        "Hello all.",
    ]
    press = lines.index("===== Mon Nov 23 2026 10:00:00 +0000  XPY:demo - Press")
    assert lines[press + 1 : press + 4] == [
        "Message to Germany, the observers in 'demo':",  # grey: no sender
        "",
        "Watch this.",
    ]
    assert "Just between us." not in body  # partial press the observers did not get
    notice = lines.index("===== Mon Nov 23 2026 10:00:00 +0000  XPY:demo - Notice")
    assert lines[notice + 1] == "Italy has resigned."
    assert lines[-1] == "End of the history of game 'demo'."


def test_from_and_to_choose_the_period(harness: Harness) -> None:
    a_week_of_play(harness)
    reply = harness.exchange(STRANGER, "HISTORY demo FROM Nov 23 11:00 TO Nov 24 13:00\n")
    lines = section(text(reply), "HISTORY demo FROM Nov 23 11:00 TO Nov 24 13:00")
    assert lines[0] == (
        "History of game 'demo' from Mon Nov 23 2026 11:00:00 +0000 to Tue Nov 24 2026 13:00:00 +0000:"
    )
    assert titles(lines) == ["XPY:demo - F1901M Results"]
    earlier = section(text(harness.exchange(STRANGER, "HISTORY demo FROM Mon TO Tue\n")), "HISTORY demo FROM Mon TO Tue")
    assert titles(earlier) == [
        "XPY:demo - S1901M Results",
        "XPY:demo - Broadcast",
        "XPY:demo - Press",
        "XPY:demo - Notice",
    ]


def test_the_default_period_is_the_last_seven_days(harness: Harness) -> None:
    a_week_of_play(harness)
    harness.clock.advance(timedelta(days=6, hours=23))  # S1901M's results are now 7 days and 1 hour old
    lines = section(text(harness.exchange(STRANGER, "HISTORY demo\n")), "HISTORY demo")
    assert titles(lines) == ["XPY:demo - F1901M Results"]
    harness.clock.advance(timedelta(days=1))
    lines = section(text(harness.exchange(STRANGER, "HISTORY demo\n")), "HISTORY demo")
    assert lines[2] == "Nothing was sent to the observers of this game in that period."


def test_lines_cuts_the_history_and_says_so(harness: Harness) -> None:
    a_week_of_play(harness)
    lines = section(text(harness.exchange(STRANGER, "HISTORY demo LINES 5\n")), "HISTORY demo LINES 5")
    assert lines[2:7] == [
        "===== Mon Nov 23 2026 10:00:00 +0000  XPY:demo - S1901M Results",
        *mailed_results(harness, 1)[:4],
    ]
    assert lines[7:] == [
        "",
        "The history was cut after 5 lines: ask again with a later FROM date or a larger LINES.",
    ]


def test_exclstart_gives_only_the_results_of_a_range_of_phases(harness: Harness) -> None:
    a_week_of_play(harness)
    only = section(text(harness.exchange(STRANGER, "HISTORY demo EXCLSTART F1901M\n")), "HISTORY demo EXCLSTART F1901M")
    assert only[0] == "History of game 'demo' from F1901M to the last phase:"
    assert titles(only) == ["XPY:demo - F1901M Results"]
    first = section(
        text(harness.exchange(STRANGER, "HISTORY demo EXCLSTART S1901M EXCLEND S1901M\n")),
        "HISTORY demo EXCLSTART S1901M EXCLEND S1901M",
    )
    assert titles(first) == ["XPY:demo - S1901M Results"]
    broad = section(
        text(harness.exchange(STRANGER, "HISTORY demo EXCLSTART S1901M EXCLEND F1901M BROAD\n")),
        "HISTORY demo EXCLSTART S1901M EXCLEND F1901M BROAD",
    )
    # The press was sent while F1901M was open: BROAD adds it to that phase's results.
    assert titles(broad) == [
        "XPY:demo - S1901M Results",
        "XPY:demo - Broadcast",
        "XPY:demo - Press",
        "XPY:demo - Notice",
        "XPY:demo - F1901M Results",
    ]


def test_history_after_sign_on_is_about_the_own_game_and_in_french(harness: Harness) -> None:
    start_game(harness, languages={"FRANCE": "fr"})
    process(harness, "demo", FRANCE_1901)
    post(harness, "demo", "Bonjour.", kind=PressKind.BROADCAST, sender="GERMANY")
    lines = section(text(harness.exchange(address_of("FRANCE"), "SIGNON Fdemo pwfrance\nHISTORY\n")), "HISTORY")
    assert lines[0] == (
        "Historique de la partie 'demo' du Mon Nov 16 2026 10:00:00 +0000 au Mon Nov 23 2026 10:00:00 +0000 :"
    )
    body = "\n".join(lines)
    french = mailed_results(harness, 1, "fr")
    assert french != mailed_results(harness, 1, "en")  # really the French mail
    assert "\n".join(french) in body
    assert "Message à tous de germany@example.net en tant que Allemagne dans 'demo' :" in body
    # The history ends there; the orders on file that end a player's reply follow it (issue 24).
    end = lines.index("Fin de l'historique de la partie 'demo'.")
    assert "Historique" not in "\n".join(lines[end + 1 :]) and "Message à tous" not in "\n".join(lines[end + 1 :])


def test_gunboat_press_and_fakes_are_shown_as_the_observers_saw_them(harness: Harness) -> None:
    start_game(harness, options=["gunboat"])
    post(harness, "demo", "From the shadows.", kind=PressKind.BROADCAST, sender="TURKEY")
    post(harness, "demo", "Seen as for all.", kind=PressKind.PRESS, sender="RUSSIA", recipients=["O", "AUSTRIA"],
         shown=["O", "AUSTRIA", "ITALY"])  # fmt: skip
    lines = section(text(harness.exchange(STRANGER, "HISTORY demo\n")), "HISTORY demo")
    assert "Broadcast message from Turkey in 'demo':" in lines
    assert "Message from Russia to Austria, Italy, the observers in 'demo':" in lines
    assert not any("@example.net" in line for line in lines)


def test_results_of_rolled_back_phases_are_kept_and_marked(harness: Harness) -> None:
    start_game(harness)
    process(harness, "demo", FRANCE_1901)
    with harness.db.unit_of_work() as uow:
        uow.phases.rollback(uow.games.require("demo"), 1, harness.clock.now(), actor=MASTER)
    process(harness, "demo", {"FRANCE": ["A PAR - PIC"]})
    lines = section(text(harness.exchange(STRANGER, "HISTORY demo\n")), "HISTORY demo")
    assert titles(lines) == [
        "XPY:demo - S1901M Results (later rolled back)",
        "XPY:demo - S1901M Results",
    ]


def test_diaries_are_in_the_history_once_the_game_is_over(harness: Harness) -> None:
    start_game(harness)
    harness.exchange(address_of("FRANCE"), "SIGNON Fdemo pwfrance\nDIARY\nGermany will fall.\nENDDIARY\n")
    before = section(text(harness.exchange(STRANGER, "HISTORY demo\n")), "HISTORY demo")
    assert "Germany will fall." not in before
    harness.clock.advance(timedelta(hours=1))
    finish(harness, "demo")
    after = section(text(harness.exchange(STRANGER, "HISTORY demo\n")), "HISTORY demo")
    assert titles(after) == ["XPY:demo - Diaries"]
    at = after.index("===== Mon Nov 23 2026 10:00:00 +0000  XPY:demo - Diaries")
    assert after[at + 1 : at + 3] == ["Diary of France, S1901M:", "Germany will fall."]


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("HISTORY\n", "HISTORY needs a game name before SIGNON, e.g. 'HISTORY mygame'."),
        ("HISTORY nosuch\n", "There is no game called 'nosuch' on this judge."),
        ("HISTORY demo FROM Nov 22 TO Nov 20\n", "The TO date comes before the FROM date: nothing to show."),
        ("HISTORY demo EXCLSTART F1902M EXCLEND S1901M\n",
         "EXCLEND S1901M comes before EXCLSTART F1902M: nothing to show."),
    ],
)  # fmt: skip
def test_refusals_say_why_and_change_nothing(harness: Harness, body: str, reason: str) -> None:
    start_game(harness)
    before = game_state(harness, "demo")
    reply = harness.exchange(STRANGER, body)
    assert reply["Subject"].startswith("Re: [Error Flag]")
    assert section(text(reply), body.strip()) == [reason]
    assert game_state(harness, "demo") == before


# -- dates, read looking back ------------------------------------------------------------------------

NOW = datetime(2026, 11, 25, 9, 30, tzinfo=UTC)  # a Wednesday
ZONE = ZoneInfo("UTC")


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (DateSpec("Mon", weekday=0), datetime(2026, 11, 23, tzinfo=UTC)),
        (DateSpec("Wed", weekday=2), datetime(2026, 11, 25, tzinfo=UTC)),
        (DateSpec("Thu 10:00", weekday=3, hour=10, minute=0), datetime(2026, 11, 19, 10, tzinfo=UTC)),
        (DateSpec("20", day=20), datetime(2026, 11, 20, tzinfo=UTC)),
        (DateSpec("28", day=28), datetime(2026, 10, 28, tzinfo=UTC)),
        (DateSpec("Dec 24", day=24, month=12), datetime(2025, 12, 24, tzinfo=UTC)),
        (DateSpec("Jan 1 1990", day=1, month=1, year=1990), datetime(1990, 1, 1, tzinfo=UTC)),
        (DateSpec("Mar", month=3), datetime(2026, 3, 1, tzinfo=UTC)),
        (DateSpec("29 Feb", day=29, month=2), datetime(2024, 2, 29, tzinfo=UTC)),
    ],
)
def test_dates_are_read_looking_back(spec: DateSpec, expected: datetime) -> None:
    assert past_instant(spec, NOW, ZONE) == expected


def test_a_date_is_read_in_the_judge_s_zone() -> None:
    paris = ZoneInfo("Europe/Paris")
    assert past_instant(DateSpec("Nov 20 10:30", day=20, month=11, hour=10, minute=30), NOW, paris) == (
        datetime(2026, 11, 20, 9, 30, tzinfo=UTC)
    )


def test_a_day_that_does_not_exist_is_an_error() -> None:
    with pytest.raises(HistoryDateError):
        past_instant(DateSpec("29 Feb 2025", day=29, month=2, year=2025), NOW, ZONE)
