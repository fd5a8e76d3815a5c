"""Known World 901 by mail (issue 32): formed with CREATE, LIST and SIGNON by fifteen players,
started with the neutral armies on the board, and played through a year in which France destroys
the neutral army of Brittany in the spring and leaves Brittany empty and unowned in the fall: the
winter is held for the neutral army alone, as webDiplomacy holds a build phase for it, and raises
it again. GET info cites the source in English and in French.
"""

from __future__ import annotations

import pytest

from judge.core.variants import load_map
from tests.app.conftest import Harness
from tests.app.games_helpers import player, register
from tests.app.masters_helpers import MASTER, MASTER_PASSWORD, read, state_of

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

VARIANT = "known_world_901"
PLAYERS = [player(n) for n in range(15)]


def exchange_ok(harness: Harness, sender: str, body: str) -> str:
    reply = harness.exchange(sender, body)
    assert "[Error Flag]" not in reply["Subject"], read(reply)
    return read(reply)


def seats(harness: Harness) -> dict[str, str]:
    return {power: address for address, power, _status in state_of(harness, "kw").seats if power and address}


def as_power(harness: Harness, power: str, body: str) -> str:
    address = seats(harness)[power]
    letter = load_map(VARIANT).letters[power]
    return exchange_ok(harness, address, f"SIGNON {letter}kw pw{PLAYERS.index(address)}\n{body}")


def process(harness: Harness) -> list[str]:
    harness.new_mail()
    exchange_ok(harness, MASTER, f"SIGNON Mkw {MASTER_PASSWORD}\nPROCESS\n")
    return [read(m) for m in harness.others]


def contains_all(mails: list[str], lines: tuple[str, ...]) -> None:
    for line in lines:
        assert any(line in mail for mail in mails), f"{line!r} in none of:\n" + "\n---\n".join(mails[:2])


def test_known_world_901_by_mail_with_a_neutral_army_raised_again(harness: Harness) -> None:
    register(harness, MASTER)
    exchange_ok(harness, MASTER, f"CREATE ?kw {MASTER_PASSWORD} {VARIANT}\nBECOME MASTER\nSET MANUAL PROCESS\n")
    for address in PLAYERS:
        register(harness, address)
    listed = exchange_ok(harness, PLAYERS[0], "LIST kw\n")
    assert "Game 'kw' (Known World 901) is forming: 0 joined, 15 more needed." in listed, listed
    assert "Centres to win: 55. Players: 15." in listed, listed
    refused = harness.exchange(PLAYERS[0], "SIGNON ?kw pw0\n")  # a variant is joined by its name
    assert "[Error Flag]" in refused["Subject"], read(refused)
    for n, address in enumerate(PLAYERS):
        exchange_ok(harness, address, f"SIGNON ?kw pw{n} {VARIANT}\n")
    state = state_of(harness, "kw")
    assert state.columns["variant"] == VARIANT and state.columns["current_phase"] == "S901M"
    assert state.columns["winning_centers"] == 55
    assert sorted(seats(harness)) == sorted(load_map(VARIANT).powers)
    starting = [read(m) for m in harness.others if "Game Starting" in str(m["Subject"])]
    contains_all(starting, ("France: Fleet Paris.", "Wagadu: Fleet Awlil.", "Army Brittany"))

    as_power(harness, "FRANCE", "A AQT-BRI\nF PAR S A AQT-BRI\n")
    spring = process(harness)
    contains_all(spring, ("Movement results for Spring of 901.", "France:    Army Aquitaine -> Brittany.", "The Neutral Army in Brittany with no valid retreats was destroyed."))
    as_power(harness, "FRANCE", "A BRI-AQT\n")
    fall = process(harness)
    contains_all(fall, ("Movement results for Fall of 901.",))
    assert state_of(harness, "kw").columns["current_phase"] == "W901A"  # held for the neutral army alone
    winter = process(harness)
    contains_all(winter, ("Raises the neutral army in Brittany again.",))
    assert state_of(harness, "kw").columns["current_phase"] == "S902M"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", ["----- info.known_world_901 -----", "webDiplomacy's variants/KnownWorld_901, code 1.1.2",
                "55 centres win", "raised again"]),
        ("fr", ["variants/KnownWorld_901 de webDiplomacy, code 1.1.2", "55 centres pour gagner",
                "levée de nouveau"]),
    ],
)  # fmt: skip
def test_get_info_cites_the_source_in_both_languages(harness: Harness, language: str, expected: list[str]) -> None:
    register(harness, "reader@example.net", language=language)
    answer = " ".join(read(harness.exchange("reader@example.net", f"GET info.{VARIANT}\n")).split())
    for line in expected:
        assert line in answer, answer
