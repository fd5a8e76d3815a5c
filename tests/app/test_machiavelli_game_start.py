"""The Renaissance game's Game Starting mail: the opening board every reader is told (issue 33).

Who reads it: every player, the master and the observers, each in his language. What it reveals:
the scenario's field units and garrisons (Venice's own, the autonomous cities'), which all see on
the board; never a treasury, which is a power's secret.
"""

from __future__ import annotations

from tests.app.conftest import Harness
from tests.app.games_helpers import register
from tests.app.masters_helpers import read, state_of
from tests.app.test_machiavelli_mail import PLAYERS, exchange_ok
from tests.app.test_machiavelli_options import created

AUTONOMOUS = "Autonomous garrisons: Ferrara, Genoa, Lucca, Mantua, Modena, Montferrat, Piombino, Ragusa, Saluzzo, Savoy, Siena, Trent."


def started(harness: Harness, *options: str) -> dict[str, str]:
    """Game ``mach`` created with ``options`` and joined by eight players, the first French;
    each Game Starting mail's text by its address."""
    created(harness, *options)
    for n, address in enumerate(PLAYERS):
        register(harness, address, language="fr" if n == 0 else "en")
    harness.new_mail()
    for n, address in enumerate(PLAYERS):
        exchange_ok(harness, address, f"SIGNON ?mach pw{n} machiavelli\n")
    assert state_of(harness, "mach").columns["current_phase"] == "W1453A"
    return {str(m["To"]): read(m) for m in harness.others if "Game Starting" in str(m["Subject"])}


def test_the_game_starting_mail_lists_the_garrisons_and_no_treasury(harness: Harness) -> None:
    mails = started(harness)
    assert set(PLAYERS) <= set(mails)
    english = mails[PLAYERS[1]]
    assert "Venice: Garrison Venice." in english and "Venice: Fleet" in english
    assert "Papacy: Army" in english
    assert AUTONOMOUS in " ".join(english.split())
    french = " ".join(mails[PLAYERS[0]].split())
    assert "Venise : " not in french  # a power's label is the variant's French name, then a colon
    assert "Venise: Garnison Venise." in french and "Papauté: Armée" in french and "Papacy" not in french
    assert "Garnisons autonomes : " in french and "Sienne" in french.split("Garnisons autonomes : ")[1]
    for text in mails.values():
        assert "ducat" not in text.lower() and "Treasury" not in text and "Trésor" not in text


def test_without_garrisons_the_game_starting_mail_lists_none(harness: Harness) -> None:
    mails = started(harness, "SET NO GARRISONS")
    english = mails[PLAYERS[1]]
    assert "Garrison Venice" not in english and "Autonomous garrisons" not in english
    assert "Venice: Fleet" in english
