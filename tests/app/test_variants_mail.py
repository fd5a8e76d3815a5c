"""A game of a non-standard variant by mail: formed, started, played through a year and reported.

Tinyland (tests/data/tinyland.json, three powers, one of them "Frozen
Antarctica" with the letter F) is registered as a variant for these tests
with the ``build_any_owned_centre`` rule. Everything goes through mail as
players and a master send it, in English and in French.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from judge.core.variants import register_map, unregister_map
from tests.app.conftest import Harness
from tests.app.games_helpers import player, register
from tests.app.masters_helpers import MASTER, MASTER_PASSWORD, phase_rows, read, state_of
from tests.core.tiny_variant import tiny_map

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

LETTER = {"NORTH": "N", "SOUTH": "S", "FROZEN-ANTARCTICA": "F"}


@pytest.fixture(autouse=True)
def tinyland() -> Iterator[None]:
    register_map(tiny_map(special_rules=["build_any_owned_centre"]))
    yield
    unregister_map("tinyland")


def form(harness: Harness, name: str, language: str = "en") -> list[str]:
    register(harness, MASTER, language=language)
    reply = harness.exchange(MASTER, f"CREATE ?{name} {MASTER_PASSWORD} tinyland\nBECOME MASTER\nSET MANUAL PROCESS\n")
    assert "[Error Flag]" not in reply["Subject"], read(reply)
    addresses = [player(n) for n in range(3)]
    for address in addresses:
        register(harness, address, language=language)
    # The Judge's rule: a non-standard game is joined only by naming its variant.
    refused = harness.exchange(addresses[0], f"SIGNON ?{name} pw0\n")
    assert "[Error Flag]" in refused["Subject"], read(refused)
    for n, address in enumerate(addresses):
        reply = harness.exchange(address, f"SIGNON ?{name} pw{n} tinyland\n")
        assert "[Error Flag]" not in reply["Subject"], read(reply)
    return addresses


def as_power(harness: Harness, name: str, power: str, body: str) -> str:
    for address, seat_power, _status in state_of(harness, name).seats:
        if seat_power == power and address is not None:
            password = "pw" + address.split("@")[0].removeprefix("p")
            reply = harness.exchange(address, f"SIGNON {LETTER[power]}{name} {password}\n{body}")
            assert "[Error Flag]" not in reply["Subject"], read(reply)
            return read(reply)
    raise AssertionError(power)


def process(harness: Harness, name: str) -> list[str]:
    reply = harness.exchange(MASTER, f"SIGNON M{name} {MASTER_PASSWORD}\nPROCESS\n")
    assert "[Error Flag]" not in reply["Subject"], read(reply)
    return [read(m) for m in harness.others]


TEXTS = {
    "en": {
        "remove": "REMOVE F WWW", "build_s": "BUILD A FFF", "build_x": "BUILD A GGG",
        "starting": ["You are playing {power}.", "   Frozen Antarctica: p", "Starting position for Spring of 1901:",
                     "   North: Army Alpha.", "   Frozen Antarctica: Army Golf."],
        "spring": ["Movement results for Spring of 1901.  (tiny.001)", "North:             Army Alpha -> Bravo.",
                   "Frozen Antarctica: Army Golf -> Delta."],
        "fall": ["South:             Army Echo -> Hotel.", "Frozen Antarctica: Delta, Golf.",
                 "North:              1 Supply centers,  2 Units:  Removes  1 unit(s).",
                 "The next phase of 'tiny' will be Adjustment for Winter of 1901."],
        "winter": ["Adjustment results for Winter of 1901.  (tiny.003)",
                   "North:             Removes the fleet in Whiskey Sea.",
                   "Frozen Antarctica: Builds an army in Golf.",
                   "The next phase of 'tiny' will be Movement for Spring of 1902."],
        "ack": "Signed on as Frozen Antarctica in game 'tiny'.",
    },
    "fr": {
        "remove": "RETIRER F WWW", "build_s": "CONSTRUIRE A FFF", "build_x": "CONSTRUIRE A GGG",
        "starting": ["   Nord: ", "   Antarctique gelée: "],
        "spring": ["Antarctique gelée: Armée Golf -> Delta."],
        "fall": ["Sud:               Armée Écho -> Hôtel.", "Antarctique gelée: Delta, Golf.",
                 "Nord:               1 centres,  2 unités :  supprime  1 unité(s).",
                 "La prochaine phase de 'tiny' sera : ajustements de l'hiver 1901."],
        "winter": ["Nord:              Supprime la flotte de mer Whisky.",
                   "Antarctique gelée: Construit une armée à Golf.",
                   "La prochaine phase de 'tiny' sera : mouvements du printemps 1902."],
        "ack": "Identifié comme Antarctique gelée dans la partie 'tiny'.",
    },
}


def contains_all(mails: list[str], lines: list[str]) -> None:
    for line in lines:
        assert any(line in mail for mail in mails), f"{line!r} in none of:\n" + "\n---\n".join(mails)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_tinyland_game_by_mail_through_a_year(harness: Harness, language: str) -> None:
    texts = TEXTS[language]
    form(harness, "tiny", language)
    starting = [read(m) for m in harness.others if "Game Starting" in str(m["Subject"])]
    assert len(starting) == 4  # three players and the master
    contains_all(starting, texts["starting"] if language == "fr" else [
        line.format(power="North") if "{power}" in line else line for line in texts["starting"]
    ])
    state = state_of(harness, "tiny")
    assert state.columns["variant"] == "tinyland" and state.columns["current_phase"] == "S1901M"
    assert sorted(p for _a, p, _s in state.seats if p) == ["FROZEN-ANTARCTICA", "NORTH", "SOUTH"]

    assert texts["ack"] in as_power(harness, "tiny", "FROZEN-ANTARCTICA", "A GGG-DDD\n")
    as_power(harness, "tiny", "NORTH", "A AAA-BBB\nF KKK-WWW\n")
    as_power(harness, "tiny", "SOUTH", "A FFF-EEE\n")
    spring = process(harness, "tiny")
    contains_all(spring, texts["spring"])

    as_power(harness, "tiny", "NORTH", "A BBB-CCC\n")
    as_power(harness, "tiny", "SOUTH", "A EEE-HHH\n")
    contains_all(process(harness, "tiny"), texts["fall"])

    as_power(harness, "tiny", "NORTH", texts["remove"] + "\n")
    as_power(harness, "tiny", "SOUTH", texts["build_s"] + "\n")
    as_power(harness, "tiny", "FROZEN-ANTARCTICA", texts["build_x"] + "\n")
    contains_all(process(harness, "tiny"), texts["winter"])

    rows = phase_rows(harness, "tiny")
    assert [r["name"] for r in rows] == ["S1901M", "F1901M", "W1901A", "S1902M"]
    after = rows[2]["after"]
    assert after["variant"] == "tinyland"
    assert sorted((u["power"], u["loc"]) for u in after["units"]) == [
        ("FROZEN-ANTARCTICA", "DDD"), ("FROZEN-ANTARCTICA", "GGG"), ("NORTH", "CCC"), ("SOUTH", "FFF"), ("SOUTH", "HHH")
    ]
    assert after["centers"] == {"FROZEN-ANTARCTICA": ["DDD", "GGG"], "NORTH": ["AAA"], "SOUTH": ["FFF", "HHH"]}


def test_a_colonial_game_by_mail_with_the_trans_siberian_railroad(harness: Harness) -> None:
    register(harness, MASTER)
    reply = harness.exchange(MASTER, f"CREATE ?asia {MASTER_PASSWORD} colonial\nBECOME MASTER\nSET MANUAL PROCESS\n")
    assert "Game 'asia' (Colonial) has been created" in read(reply), read(reply)
    for n in range(7):
        register(harness, player(n))
        reply = harness.exchange(player(n), f"SIGNON ?asia pw{n} Colonial\n")
        assert "[Error Flag]" not in reply["Subject"], read(reply)
    starting = [read(m) for m in harness.others if "Game Starting" in str(m["Subject"])]
    contains_all(starting, ["Starting position for Spring of 1870:", "Russia: Army Moscow."])
    seats = {power: address for address, power, _status in state_of(harness, "asia").seats if power}
    assert sorted(seats) == ["BRITAIN", "CHINA", "FRANCE", "HOLLAND", "JAPAN", "RUSSIA", "TURKEY"]
    password = "pw" + (seats["RUSSIA"] or "").split("@")[0].removeprefix("p")
    reply = harness.exchange(seats["RUSSIA"] or "", f"SIGNON Rasia {password}\nA MOS-KRA\n")
    assert "Russia: Army Moscow -> Krasnoyarsk." in read(reply), read(reply)
    process(harness, "asia")
    after = phase_rows(harness, "asia")[0]["after"]
    russian = sorted(u["loc"] for u in after["units"] if u["power"] == "RUSSIA")
    assert "KRA" in russian and "MOS" not in russian


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", ["Colonial Diplomacy", "Powers (letter): Britain (B), China (C),", "Russia (R)",
                "Supply centres: 58; 30 to win.", "First phase: spring 1870 (S1870M).",
                "Special rules: Hong Kong is no supply centre for one power; a railway carries one power's armies"]),
        ("fr", ["Diplomatie coloniale", "Puissances (lettre) :", "Centres de ravitaillement : 58 ; 30 pour gagner.",
                "Première phase : printemps 1870 (S1870M).", "Règles spéciales : Hong Kong n'est pas un centre"]),
    ],
)
def test_get_info_of_a_variant(harness: Harness, language: str, expected: list[str]) -> None:
    register(harness, "reader@example.net", language=language)
    answer = read(harness.exchange("reader@example.net", "GET info.COLONIAL\n"))
    contains_all([answer], ["----- info.colonial -----", *expected])


def test_get_info_of_chaos_names_its_first_phase_and_34_letters(harness: Harness) -> None:
    register(harness, "reader@example.net")
    answer = read(harness.exchange("reader@example.net", "GET info.chaos\n"))
    contains_all([answer], ["First phase: winter 1900 (W1900A).", "Special rules: builds in any owned supply centre."])
    assert answer.count(" (") >= 34


@pytest.mark.parametrize(
    ("language", "expected"), [("en", "First phase: winter 1453 (W1453A)."), ("fr", "Première phase : hiver 1453 (W1453A).")]
)
def test_get_info_of_the_renaissance_game_names_the_winter_it_opens_with(
    harness: Harness, language: str, expected: str
) -> None:
    """Its game hooks open it with the adjustments of 1453 (garrisons and treasuries), not a spring."""
    register(harness, "reader@example.net", language=language)
    answer = read(harness.exchange("reader@example.net", "GET info.machiavelli\n"))
    contains_all([answer], ["----- info.machiavelli -----", expected])


def test_get_info_of_an_unknown_variant_is_an_unknown_file(harness: Harness) -> None:
    register(harness, "reader@example.net")
    answer = read(harness.exchange("reader@example.net", "GET info.nosuchmap\n"))
    assert "There is no help file called 'info.nosuchmap'" in answer


def test_list_and_whogame_show_the_variant(harness: Harness) -> None:
    register(harness, "a@example.net")
    harness.exchange("a@example.net", "CREATE ?ch pw chaos\nSET PREFERENCE 0AB[12]\n")
    listing = read(harness.exchange("a@example.net", "LIST ch\n"))
    contains_all([listing], ["Game 'ch' (Chaos) is forming: 1 joined, 33 more needed.", "Variant and options: Chaos.",
                             "Centres to win: 18. Players: 34."])
    who = read(harness.exchange("a@example.net", "WHOGAME ch\n"))
    contains_all([who], ["People in game 'ch':\nVariant and options: Chaos."])
    # Preferences use the variant's letters, digits included (Chaos has 34 powers).
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.games.require("ch").seats[0].preferences == "0AB[12]"


@pytest.mark.parametrize(("variant", "centres"), [("colonial", 30), ("modern", 33), ("youngstown", 37), ("standard", 18)])
def test_a_game_created_on_a_variant_takes_its_victory_threshold(
    harness: Harness, variant: str, centres: int
) -> None:
    register(harness, "a@example.net")
    reply = harness.exchange("a@example.net", f"CREATE ?v pw {variant}\n")
    assert "[Error Flag]" not in reply["Subject"], read(reply)
    assert state_of(harness, "v").columns["winning_centers"] == centres
    assert f"Centres to win: {centres}." in read(harness.exchange("a@example.net", "LIST v\n"))


def test_press_goes_to_the_powers_the_variants_letters_name(harness: Harness) -> None:
    form(harness, "tiny")
    seats = {power: address for address, power, _status in state_of(harness, "tiny").seats if power and address}
    harness.new_mail()
    as_power(harness, "tiny", "NORTH", "PRESS TO F\nCold up there?\nENDPRESS\n")
    received = {str(m["To"]) for m in harness.others if "Cold up there?" in read(m)}
    assert any(seats["FROZEN-ANTARCTICA"] in to for to in received)
    assert not any(seats["SOUTH"] in to for to in received)
    # Draws among the variant's powers: every survivor votes, then the draw is declared.
    for power in ("NORTH", "SOUTH", "FROZEN-ANTARCTICA"):
        as_power(harness, "tiny", power, "SET DRAW\n")
    summaries = [read(m) for m in harness.others if m["Subject"] == "XPY:tiny - S1901M Draw Declared: NSF"]
    assert summaries, [m["Subject"] for m in harness.others]
    contains_all(summaries, ["a draw between North, South and Frozen Antarctica.", "  Year    Nor  Sou  Fro",
                             "  Frozen Antarctica         1    33.33"])


def test_civil_disorder_removal_in_a_variant(harness: Harness) -> None:
    form(harness, "tiny")
    as_power(harness, "tiny", "NORTH", "A AAA-BBB\nF KKK-WWW\n")
    as_power(harness, "tiny", "SOUTH", "A FFF-EEE\n")
    as_power(harness, "tiny", "FROZEN-ANTARCTICA", "A GGG-DDD\n")
    process(harness, "tiny")
    as_power(harness, "tiny", "NORTH", "A BBB-CCC\n")
    as_power(harness, "tiny", "SOUTH", "A EEE-HHH\n")
    process(harness, "tiny")
    # North owes a removal and sends nothing: the game removes the unit farthest from its centres.
    winter = process(harness, "tiny")
    contains_all(winter, ["North: Removes the fleet in Whiskey Sea.  (*civil disorder*)"])
    after = phase_rows(harness, "tiny")[2]["after"]
    assert sorted(u["loc"] for u in after["units"] if u["power"] == "NORTH") == ["CCC"]
