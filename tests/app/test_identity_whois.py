"""WHOIS and INFOPLAYER by mail: finding registrations by address, privacy, dedication records."""

from __future__ import annotations

import pytest

from judge.db.repositories.people import Registration
from tests.app.conftest import Harness, one_text
from tests.app.games_helpers import form_game, powers_of
from tests.app.identity_helpers import body, confirm, register, set_record

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

JEANNE = "jeanne@example.org"


def _jeanne(harness: Harness) -> None:
    register(
        harness, JEANNE,
        "Name: Jeanne Martin", "Country: France", "Phone: 555 1234", "Site: Lyon",
        "Address: 12 rue des Lilas", "Birthdate: 25/12/1990", "Sex: F", "Timezone: Europe/Paris",
    )  # fmt: skip


def test_whois_finds_by_address_prefix_without_private_fields(harness: Harness) -> None:
    _jeanne(harness)
    reply = harness.exchange("bob@example.net", "WHOIS JEAN\n")
    assert body(reply).endswith(
        "> WHOIS JEAN\n"
        "Name:      Jeanne Martin\n"
        "Email:     jeanne@example.org\n"
        "Site:      Lyon\n"
        "Country:   France\n"
        "Timezone:  Europe/Paris\n"
        "Level:     Amateur\n"
        "Language:  en\n"
        "Dedication: 0 points.\n"
        "Turns due: 0, on time: 0, late: 0.\n"
        "Games started: 0, taken over: 0, abandoned: 0, civil disorders: 0, resigned: 0.\n"
        "On-time ratio: 1.00   CD ratio: 0.00\n"
    )


def test_whois_shows_your_own_record_whole(harness: Harness) -> None:
    _jeanne(harness)
    text = body(harness.exchange(JEANNE, "WHOIS jeanne\n"))
    for line in ("Phone:     555 1234", "Address:   12 rue des Lilas", "Birthdate: 1990-12-25", "Sex:       F"):
        assert line in text


@pytest.mark.engine_sql
def test_whois_without_a_match_says_so(harness: Harness) -> None:
    _jeanne(harness)
    reply = harness.exchange("bob@example.net", "WHOIS zed\n")
    assert "No registration has an address starting with 'zed'." in body(reply)
    assert "[Error Flag]" not in reply["Subject"]


def test_whois_shows_each_person_once_for_several_prefixes(harness: Harness) -> None:
    _jeanne(harness)
    harness.exchange("jm@other.example", f"IAMALSO {JEANNE}\n")
    code_mail = one_text([m for m in harness.others if m["To"] == JEANNE])
    code = body(code_mail).split("CONFIRM ")[1].split()[0]
    harness.exchange(JEANNE, f"CONFIRM {code}\n")
    confirm(harness, "jm@other.example")
    text = body(harness.exchange("bob@example.net", "WHOIS jeanne jm\n"))
    assert text.count("Name:      Jeanne Martin") == 1
    assert "Email:     jeanne@example.org, jm@other.example" in text


def test_whois_wildcards_are_literal(harness: Harness) -> None:
    _jeanne(harness)
    text = body(harness.exchange("bob@example.net", "WHOIS %\nWHOIS _eanne\n"))
    assert "No registration has an address starting with '%'." in text
    assert "No registration has an address starting with '_eanne'." in text


def test_whois_stops_at_five_records_a_prefix(harness: Harness) -> None:
    with harness.db.unit_of_work() as uow:
        for n in range(21):
            uow.people.register(Registration(name=f"Player {n}"), f"player{n:02d}@example.net", harness.clock.now())
    text = body(harness.exchange("bob@example.net", "WHOIS player\n"))
    assert text.count("Name:      Player") == 5
    assert "More than 5 registrations start with 'player'; give a longer prefix." in text


@pytest.mark.engine_sql
def test_infoplayer_gives_the_dedication_record(harness: Harness) -> None:
    _jeanne(harness)
    set_record(
        harness, JEANNE, dedication=12, turns_due=10, turns_on_time=8, turns_late=2,
        games_started=3, takeovers=1, abandonments=1, civil_disorders=0, resignations=1,
    )  # fmt: skip
    reply = harness.exchange("bob@example.net", f"INFOPLAYER {JEANNE}\n")
    assert body(reply).endswith(
        f"> INFOPLAYER {JEANNE}\n"
        "Player: Jeanne Martin <jeanne@example.org>\n"
        "Registered on 2026-11-23.\n"
        "Dedication: 12 points.\n"
        "Turns due: 10, on time: 8, late: 2.\n"
        "Games started: 3, taken over: 1, abandoned: 1, civil disorders: 0, resigned: 1.\n"
        "On-time ratio: 0.80   CD ratio: 0.25\n"
        "Playing in no game at present.\n"
    )


def test_infoplayer_lists_the_games_played_but_not_gunboat_ones(harness: Harness) -> None:
    addresses = form_game(harness, "demo")
    power = powers_of(harness, "demo")[addresses[2]]
    text = body(harness.exchange("bob@example.net", f"INFOPLAYER {addresses[2]}\n"))
    assert f"Playing now:\n  demo: {power.title()}\n" in text
    with harness.db.unit_of_work() as uow:
        game = uow.games.require("demo")
        game.rule_options = ["gunboat"]
    text = body(harness.exchange("bob@example.net", f"INFOPLAYER {addresses[2]}\n"))
    assert "Playing in no game at present." in text


def test_infoplayer_of_an_unknown_address_is_an_error(harness: Harness) -> None:
    reply = harness.exchange("bob@example.net", "INFOPLAYER ghost@example.net\n")
    assert "[Error Flag]" in reply["Subject"]
    assert "No registration has the address ghost@example.net." in body(reply)


def test_infoplayer_in_french(harness: Harness) -> None:
    _jeanne(harness)
    register(harness, "bob@example.net", "Name: Bob", "Country: France", "Language: fr")
    text = body(harness.exchange("bob@example.net", f"INFOPLAYER {JEANNE}\n"))
    assert "Dédication : 0 points." in text
    assert "Taux de ponctualité : 1.00   Taux de CD : 0.00" in text


# -- who may read the personal fields (phone, postal address, birth date, sex) ------------------

PERSONAL = ("Phone:     555 1234", "Address:   12 rue des Lilas", "Birthdate: 1990-12-25", "Sex:       F")


def test_another_registered_player_sees_only_the_public_part(harness: Harness) -> None:
    _jeanne(harness)
    register(harness, "bob@example.net", "Name: Bob", "Country: France")
    text = body(harness.exchange("bob@example.net", "WHOIS jeanne\n"))
    assert "Name:      Jeanne Martin" in text
    assert "Email:     jeanne@example.org" in text
    for line in PERSONAL:
        assert line not in text


def test_the_judge_keeper_sees_the_personal_fields(harness: Harness) -> None:
    _jeanne(harness)
    text = body(harness.exchange("keeper@example.org", "WHOIS jeanne\n"))
    for line in PERSONAL:
        assert line in text


def test_a_judge_setting_restores_the_classic_public_whois(harness: Harness) -> None:
    from dataclasses import replace

    _jeanne(harness)
    harness.services.config = replace(harness.services.config, public_whois=True)
    text = body(harness.exchange("bob@example.net", "WHOIS jeanne\n"))
    for line in PERSONAL:
        assert line in text


def test_the_public_whois_setting_is_read_from_the_environment(tmp_path: object) -> None:
    from judge.config import ConfigError, load_config

    assert load_config({"JUDGE_PUBLIC_WHOIS": "yes", "JUDGE_DATA_DIR": str(tmp_path)}).public_whois
    assert not load_config({"JUDGE_DATA_DIR": str(tmp_path)}).public_whois
    try:
        load_config({"JUDGE_PUBLIC_WHOIS": "perhaps", "JUDGE_DATA_DIR": str(tmp_path)})
    except ConfigError as error:
        assert "public_whois" in str(error)
    else:
        raise AssertionError("an unreadable JUDGE_PUBLIC_WHOIS was accepted")


@pytest.mark.engine_sql
def test_an_address_claimed_with_iamalso_reads_nothing_before_confirmation(harness: Harness) -> None:
    _jeanne(harness)
    harness.exchange("mallory@evil.example", f"IAMALSO {JEANNE}\n")
    text = body(harness.exchange("mallory@evil.example", "WHOIS jeanne\n"))
    for line in PERSONAL:
        assert line not in text


HARVEST = "".join(f"WHOIS {c}\n" for c in "abcdefghijklmnopqrstuvwxyz0123456789")
"""The harvest of issue 25: one WHOIS line per first character an address can have."""
BOUND_TOLD = (
    "WHOIS shows at most 5 registrations per mail, and 20 in a day to one address: the others "
    "were left out."
)


def _everyone(harness: Harness) -> None:
    with harness.db.unit_of_work() as uow:
        for c in "abcdefghijklmnopqrstuvwxyz0123456789":
            uow.people.register(Registration(name=f"Player {c}"), f"{c}player@example.net", harness.clock.now())


def test_thirty_six_whois_lines_show_five_registrations_and_say_why_once(harness: Harness) -> None:
    _everyone(harness)
    text = body(harness.exchange("harvester@example.com", HARVEST))
    assert text.count("Name:      Player") == 5
    assert text.count("Email:     ") == 5
    assert text.count(BOUND_TOLD) == 1


def test_one_address_is_shown_twenty_registrations_a_day(harness: Harness) -> None:
    _everyone(harness)
    shown = [
        body(harness.exchange("harvester@example.com", HARVEST)).count("Name:      Player") for _ in range(5)
    ]
    assert shown == [5, 5, 5, 5, 0]
    harness.clock.advance(hours=24, minutes=1)
    assert body(harness.exchange("harvester@example.com", HARVEST)).count("Name:      Player") == 5


def test_ones_own_registration_is_not_counted(harness: Harness) -> None:
    _everyone(harness)
    text = body(harness.exchange("aplayer@example.net", "WHOIS aplayer\n" + HARVEST))
    assert text.count("Name:      Player a\n") == 2  # one's own, asked twice (aplayer, a)...
    assert text.count("Name:      Player") == 7  # ...and five others
