"""The councils' notices as each reader reads them (issue 26): to whom, in which language, in which zone.

Every notice goes through the audience (judge.app.audience.council_members):
a notice about one member to him alone, a council's to its active members
and the masters, the game's timing to everyone who reads the results; each
reader alone, in his language, and every date in his zone
(judge.app.session.readers.reader_zone: his registration's, else the
judge's) with UTC. Nothing here names a spy or another reader.
"""

from __future__ import annotations

from email.message import EmailMessage

from judge.app.session.readers import GAME_LANGUAGE, choose_language
from tests.app.conftest import Harness, text
from tests.app.orders_helpers import address

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
