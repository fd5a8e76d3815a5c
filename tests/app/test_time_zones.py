"""Time zones (issue 24): a registration's Timezone is an IANA name, and every deadline a person
is told is in their zone, named, and in UTC, with their language's day and month names.

The judge's own zone stays UTC in these games; the ``:: Deadline:`` line of a reply keeps the
Judge's form in it (the players' tools read it), and a ``:: Local deadline:`` line follows for a
reader in another zone.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from tests.app.conftest import Harness
from tests.app.deadlines_helpers import advance_to, body, mail, run_scheduler, send_orders, times
from tests.app.identity_helpers import form, person
from tests.app.orders_helpers import OBSERVER, StartedGame, address, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

JEANNE = "jeanne@example.org"


def _live_in(harness: Harness, who: str, zone: str, language: str | None = None) -> None:
    with harness.db.unit_of_work() as uow:
        found = uow.people.by_address(who)
        assert found is not None
        found.time_zone = zone
        if language is not None:
            found.language = language


def test_a_time_zone_that_is_no_iana_name_is_refused_plainly_and_left_out(harness: Harness) -> None:
    reply = body(harness.exchange(JEANNE, form("Name: Jeanne", "Country: France", "Timezone: Mars/Olympus_Mons")))
    assert (
        "'Mars/Olympus_Mons' is not a time zone: give its IANA name, e.g. Europe/Paris or America/New_York "
        "(UTC for none); this field was left out."
    ) in reply
    stored = person(harness, JEANNE)
    assert stored is not None and stored.time_zone == ""


def test_the_refusal_is_in_french_for_a_french_form(harness: Harness) -> None:
    reply = body(harness.exchange(JEANNE, form("Nom: Jeanne", "Pays: France", "Langue: fr", "Fuseau: Paris")))
    assert "« Paris » n'est pas un fuseau horaire : donnez son nom IANA" in reply


def test_a_zone_in_any_case_is_stored_under_its_iana_name(harness: Harness) -> None:
    harness.exchange(JEANNE, form("Name: Jeanne", "Country: France", "Timezone: europe/PARIS"))
    stored = person(harness, JEANNE)
    assert stored is not None and stored.time_zone == "Europe/Paris"


def _deadline_across_the_change(game: StartedGame) -> datetime:
    """S1901M's deadline moved to 28 March 2027, 22:30 UTC: Paris has changed to summer time that
    night, New York two weeks before."""
    deadline = datetime(2027, 3, 28, 22, 30, tzinfo=UTC)
    game.master(f"SET DEADLINE {deadline.isoformat()}\n")
    assert times(game).deadline == deadline
    return deadline


def test_a_reply_tells_the_deadline_in_the_reader_s_zone_and_keeps_the_judge_s_line(harness: Harness) -> None:
    game = start_game(harness)
    _deadline_across_the_change(game)
    _live_in(harness, address("FRANCE"), "Europe/Paris")
    _live_in(harness, address("ENGLAND"), "America/New_York")
    paris = body(game.orders("FRANCE", ""))
    assert ":: Deadline: S1901M Sun Mar 28 2027 22:30:00 +0000\n" in paris
    assert (":: Local deadline: Monday 29 March 2027, 00:30 CEST (Europe/Paris), "
            "that is Sunday 28 March 2027, 22:30 UTC\n") in paris
    new_york = body(game.orders("ENGLAND", ""))
    assert ":: Deadline: S1901M Sun Mar 28 2027 22:30:00 +0000\n" in new_york
    assert ":: Local deadline: Sunday 28 March 2027, 18:30 EDT (America/New_York), that is 22:30 UTC\n" in new_york
    utc = body(game.orders("GERMANY", ""))
    assert ":: Local deadline:" not in utc  # the Judge's line already says it in UTC


def test_a_listing_in_winter_and_in_summer_names_the_zone_s_own_time(harness: Harness) -> None:
    game = start_game(harness)
    _live_in(harness, address("FRANCE"), "Europe/Paris")
    _live_in(harness, address("ENGLAND"), "America/New_York")
    winter = datetime(2027, 1, 15, 22, 30, tzinfo=UTC)
    game.master(f"SET DEADLINE {winter.isoformat()}\n")
    assert "Deadline of the phase: Friday 15 January 2027, 23:30 CET (Europe/Paris), that is 22:30 UTC" in body(
        harness.exchange(address("FRANCE"), "LIST demo\n"))
    assert "Deadline of the phase: Friday 15 January 2027, 17:30 EST (America/New_York), that is 22:30 UTC" in body(
        harness.exchange(address("ENGLAND"), "LIST demo\n"))
    _deadline_across_the_change(game)
    assert "Deadline of the phase: Monday 29 March 2027, 00:30 CEST (Europe/Paris)" in body(
        harness.exchange(address("FRANCE"), "LIST demo\n"))
    assert "Deadline of the phase: Sunday 28 March 2027, 18:30 EDT (America/New_York)" in body(
        harness.exchange(address("ENGLAND"), "LIST demo\n"))


def test_a_french_reader_gets_french_day_and_month_names(harness: Harness) -> None:
    game = start_game(harness)
    _live_in(harness, address("FRANCE"), "Europe/Paris", language="fr")
    _deadline_across_the_change(game)
    listing = body(harness.exchange(address("FRANCE"), "LIST demo\n"))
    assert "lundi 29 mars 2027, 00:30 CEST (Europe/Paris), soit dimanche 28 mars 2027, 22:30 UTC" in listing


def test_results_tell_each_reader_the_next_deadline_in_their_zone(harness: Harness) -> None:
    game = start_game(harness)
    _live_in(harness, address("FRANCE"), "Europe/Paris", language="fr")
    _live_in(harness, address("ENGLAND"), "America/New_York")
    t = times(game)
    advance_to(harness, t.start)
    send_orders(game)
    harness.new_mail()
    advance_to(harness, t.start + timedelta(minutes=30))
    run_scheduler(harness)
    results = mail(harness, "Results")
    deadline = times(game).deadline
    france, england, observer = (body(results[a]) for a in (address("FRANCE"), address("ENGLAND"), OBSERVER))
    paris = deadline.astimezone(ZoneInfo("Europe/Paris"))
    new_york = deadline.astimezone(ZoneInfo("America/New_York"))
    assert f"{paris:%H:%M} {paris.tzname()} (Europe/Paris), soit " in france
    assert f"{new_york:%H:%M} {new_york.tzname()} (America/New_York), that is " in england
    assert f"{deadline:%H:%M} UTC." in observer and "(Europe/Paris)" not in observer


def test_reminders_and_late_notices_are_told_in_the_late_player_s_zone(harness: Harness) -> None:
    game = start_game(harness)
    _live_in(harness, address("TURKEY"), "America/New_York")
    deadline = _deadline_across_the_change(game)
    harness.new_mail()
    advance_to(harness, deadline - timedelta(hours=7))
    run_scheduler(harness)
    reminder = body(mail(harness, "Reminder")[address("TURKEY")])
    assert "is Sunday 28 March 2027, 18:30 EDT (America/New_York), that is 22:30 UTC, in 7 hours." in reminder
    advance_to(harness, deadline)
    send_orders(game, [p for p in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA")])
    harness.new_mail()
    run_scheduler(harness)
    late = mail(harness, "Late Notice: T")
    assert "was Sunday 28 March 2027, 18:30 EDT (America/New_York)" in body(late[address("TURKEY")])
    to_france = next(m for to, m in late.items() if address("FRANCE") in to)  # one mail or one of several
    assert "(deadline Sunday 28 March 2027, 22:30 UTC)" in body(to_france)


def test_the_guides_quote_the_local_deadline_line_as_the_judge_writes_it() -> None:
    from pathlib import Path

    from judge.i18n import translation
    from judge.mail.compose import LOCAL_DEADLINE
    from judge.timekeeping.dates import tell_date

    root = Path(__file__).resolve().parents[2]
    deadline = datetime(2026, 11, 22, 23, 30, tzinfo=UTC)
    for guide, language in (("docs/player-guide.md", "en"), ("docs/fr/guide-joueur.md", "fr")):
        text = " ".join((root / guide).read_text(encoding="utf-8").split())
        line = f"{LOCAL_DEADLINE} {tell_date(deadline, ZoneInfo('Europe/Paris'), translation(language).gettext)}"
        assert f"`{line}`" in text, guide
