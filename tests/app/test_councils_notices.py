"""The councils' notices as each reader reads them (issue 26): to whom, in which language, in which zone.

Every notice goes through the audience (judge.app.audience.council_members):
a notice about one member to him alone, a council's to its active members
and the masters, the game's timing to everyone who reads the results; each
reader alone, in his language, and every date in his zone
(judge.app.session.readers.reader_zone: his registration's, else the
judge's) with UTC. Nothing here names a spy or another reader.
"""

from __future__ import annotations

import re
from email.message import EmailMessage

import pytest

from judge.app.session.readers import GAME_LANGUAGE, choose_language
from tests.app.conftest import Harness, text
from tests.app.councils_b_helpers import council_game
from tests.app.orders_helpers import MASTER, address, plain

pytestmark = pytest.mark.engine_blind  # mail routing and wording: SQLite only, but the tests marked engine_sql

NEW_YORK = "America/New_York"
PARIS = "Europe/Paris"


def _zones(harness: Harness) -> None:
    """France's General reads in New York's zone (English); England's in Paris's, in French."""
    with harness.db.unit_of_work() as uow:
        france = uow.people.by_address(address("FRANCE"))
        england = uow.people.by_address(address("ENGLAND"))
        assert france is not None and england is not None
        france.time_zone = NEW_YORK
        england.time_zone = PARIS
        choose_language(england, "fr")


def _to(mails: list[EmailMessage], reader: str) -> list[EmailMessage]:
    return [m for m in mails if str(m["To"]) == reader]


@pytest.mark.engine_sql
def test_game_wide_notices_tell_each_reader_the_time_in_his_zone_and_language(harness: Harness) -> None:
    """COUNCIL SHORTEN tells every player the new end of the wait: each in his own zone (with UTC) and
    language, one mail each; the election notices to a council likewise."""
    from tests.app.test_councils_rules import _open_yearly

    game = council_game(harness)
    _zones(harness)
    harness.new_mail()
    _open_yearly(harness, game)
    opened = harness.new_mail()
    (france_notice,) = _to(opened, address("FRANCE"))
    assert "elects its General-in-chief" in plain(france_notice)
    assert f"({NEW_YORK}), that is" in plain(france_notice)  # before: "... UTC" in the judge's zone alone
    (england_notice,) = _to(opened, address("ENGLAND"))
    assert "élit son Général en chef" in plain(england_notice) and f"({PARIS})" in plain(england_notice)
    assert NEW_YORK not in plain(england_notice)
    game.master("COUNCIL SHORTEN 2")
    told = [m for m in harness.others if "shortens the councils' wait" in plain(m)
            or "abrège l'attente des Conseils" in plain(m)]  # fmt: skip
    assert all("," not in str(m["To"]) for m in told)  # one reader each
    (france,) = _to(told, address("FRANCE"))
    assert "The master shortens the councils' wait" in plain(france)
    assert f"({NEW_YORK}), that is" in plain(france)
    (england,) = _to(told, address("ENGLAND"))
    assert "Le maître abrège l'attente des Conseils" in plain(england)  # before: English for everyone
    assert f"({PARIS}), that is" not in plain(england) and f"({PARIS})" in plain(england)
    (others,) = _to(told, address("GERMANY"))
    assert re.search(r"by \w+day \d+ November 2026, \d\d:\d\d UTC \(councils", plain(others))  # no zone: UTC
    assert _to(told, MASTER)


def test_a_notice_to_one_member_goes_to_him_alone_in_his_zone(harness: Harness) -> None:
    """The warning of unreleased orders goes through the audience to the General alone, dated in his zone."""
    from judge.app.phases.guarded_scheduler import process_due
    from tests.app.councils_helpers import elected_council_game, general, seated
    from tests.app.test_councils_elections_release import OPENINGS, _mail

    members = elected_council_game(harness)
    france = general(members, "FRANCE")
    with harness.db.unit_of_work() as uow:
        person = uow.people.by_address(france.address)
        assert person is not None
        person.time_zone = NEW_YORK
    for power, orders in OPENINGS.items():
        _mail(harness, general(members, power), orders if power == "FRANCE" else orders + "\nREADY")
    harness.new_mail()
    harness.clock.advance(hours=1)
    process_due(harness.services)
    warned = [m for m in harness.new_mail() if "has not been given" in plain(m)]
    assert [str(m["To"]) for m in warned] == [france.address]
    assert f"({NEW_YORK}), that is" in plain(warned[0])  # before: the judge's zone
    assert all(m.address != france.address for m in seated(harness) if m.power != "FRANCE")


def test_your_council_mail_is_in_the_language_the_audience_decides(harness: Harness) -> None:
    """The start's private 'Your council' mail goes through the audience: the game's default language
    (SET LANGUAGE fr by a master) for a member who never chose his (before: his registration's), to
    him alone."""
    from tests.app.councils_helpers import MASTER as REFEREE
    from tests.app.councils_helpers import seed_starts
    from tests.app.games_helpers import player, register

    seed_starts(harness)
    for n in range(21):
        register(harness, player(n))  # English by default, never chosen
    register(harness, REFEREE, name="Referee")
    harness.exchange(player(0), "CREATE ?demo pw0\nSET COUNCILS 3\n")
    with harness.db.unit_of_work() as uow:
        row = uow.games.require("demo")
        row.extra_settings = {**(row.extra_settings or {}), GAME_LANGUAGE: "fr"}  # the master's SET LANGUAGE fr
    for n in range(1, 21):
        harness.exchange(player(n), f"SIGNON ?demo pw{n}\n")
    notices = [m for m in harness.outbox() if "Votre Conseil" in str(m["Subject"]) or "Your council" in str(m["Subject"])]
    assert sorted(str(m["To"]) for m in notices) == sorted(player(n) for n in range(21))  # each alone
    assert all("se joue en Conseils. Vous siégez au Conseil de" in text(m) for m in notices), text(notices[0])
