"""The two-player Classic variants by mail (issue 32): formed with CREATE, LIST and SIGNON, started,
played, and ended by their victory rule (18 centres, as webDiplomacy and vDiplomacy play them).

Each game is formed and played by mail as a master and two players send it. To reach the end in
a short test, the board of the second movement phase is replaced (as other tests put a board in
place) by one where a power holds 17 centres and moves to its 18th: the victory then comes from
the variant's threshold, by mail, with the Victory notice.
"""

from __future__ import annotations

import dataclasses

import pytest

from judge.app.game_state.boards import from_json, to_json
from judge.core.units import Unit, UnitType
from judge.core.variants import load_map
from tests.app.conftest import Harness
from tests.app.games_helpers import player, register
from tests.app.masters_helpers import MASTER, MASTER_PASSWORD, read, state_of

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


@dataclasses.dataclass(frozen=True)
class Case:
    variant: str
    title: str
    opening: tuple[str, ...]  # lines of the starting position mail
    spring: dict[str, str]  # orders by power
    spring_results: tuple[str, ...]
    winner: str
    winner_units: tuple[str, ...]  # "A BUR": the winner's units on the replaced fall board
    loser_units: tuple[str, ...]
    move: str  # the winner's move onto its 18th centre
    target: str


CASES = {
    "france_austria": Case(
        "france_austria", "Classic: France vs Austria",
        ("   France: Fleet Brest.", "   France: Army Paris.", "   France: Army Marseilles.",
         "   Austria: Army Vienna.", "   Austria: Army Budapest.", "   Austria: Fleet Trieste."),
        {"FRANCE": "A PAR-BUR\n", "AUSTRIA": "A VIE-TYR\n"},
        ("France:  Army Paris -> Burgundy.", "Austria: Army Vienna -> Tyrolia."),
        "FRANCE", ("A BUR",), ("A TYR",), "A BUR-BEL\n", "BEL",
    ),
    "germany_italy": Case(
        "germany_italy", "Classic: Germany vs Italy",
        ("   Germany: Fleet Kiel.", "   Germany: Army Berlin.", "   Germany: Army Munich.",
         "   Italy: Fleet Naples.", "   Italy: Army Rome.", "   Italy: Army Venice."),
        {"GERMANY": "A MUN-TYR\n", "ITALY": "A VEN-TYR\n"},
        ("Germany: Army Munich -> Tyrolia.", "Italy:   Army Venice -> Tyrolia."),
        "ITALY", ("A PIE",), ("A MUN",), "A PIE-MAR\n", "MAR",
    ),
    "england_turkey": Case(
        "england_turkey", "Classic: England vs Turkey",
        ("   England: Fleet North Sea.", "   England: Army London.", "   England: Fleet English Channel.",
         "   Turkey: Fleet Ankara.", "   Turkey: Army Constantinople.", "   Turkey: Army Smyrna."),
        {"ENGLAND": "F NTH-NWY\n", "TURKEY": "A CON-BUL\n"},
        ("England: Fleet North Sea -> Norway.", "Turkey:  Army Constantinople -> Bulgaria."),
        "ENGLAND", ("F NWY",), ("A CON",), "F NWY-SWE\n", "SWE",
    ),
}  # fmt: skip

PLAYERS = [player(n) for n in range(2)]


def exchange_ok(harness: Harness, sender: str, body: str) -> str:
    reply = harness.exchange(sender, body)
    assert "[Error Flag]" not in reply["Subject"], read(reply)
    return read(reply)


def seats(harness: Harness, name: str) -> dict[str, str]:
    return {power: address for address, power, _status in state_of(harness, name).seats if power and address}


def letter(variant: str, power: str) -> str:
    return load_map(variant).letters[power]


def form(harness: Harness, case: Case) -> None:
    register(harness, MASTER)
    exchange_ok(harness, MASTER, f"CREATE ?duel {MASTER_PASSWORD} {case.variant}\nBECOME MASTER\nSET MANUAL PROCESS\n")
    for address in PLAYERS:
        register(harness, address)
    listed = exchange_ok(harness, PLAYERS[0], "LIST duel\n")
    assert f"Game 'duel' ({case.title}) is forming: 0 joined, 2 more needed." in listed, listed
    assert f"Variant and options: {case.title}." in listed, listed
    assert "Centres to win: 18. Players: 2." in listed, listed
    # A non-standard game is joined only by naming its variant.
    refused = harness.exchange(PLAYERS[0], "SIGNON ?duel pw0\n")
    assert "[Error Flag]" in refused["Subject"], read(refused)
    for n, address in enumerate(PLAYERS):
        exchange_ok(harness, address, f"SIGNON ?duel pw{n} {case.variant}\n")


def as_power(harness: Harness, case: Case, power: str, body: str) -> str:
    address = seats(harness, "duel")[power]
    password = "pw" + str(PLAYERS.index(address))
    return exchange_ok(harness, address, f"SIGNON {letter(case.variant, power)}duel {password}\n{body}")


def process(harness: Harness) -> list[str]:
    harness.new_mail()
    exchange_ok(harness, MASTER, f"SIGNON Mduel {MASTER_PASSWORD}\nPROCESS\n")
    return [read(m) for m in harness.others]


def contains_all(mails: list[str], lines: tuple[str, ...]) -> None:
    for line in lines:
        assert any(line in mail for mail in mails), f"{line!r} in none of:\n" + "\n---\n".join(mails)


@pytest.mark.parametrize("variant", sorted(CASES))
def test_a_two_player_classic_game_by_mail_to_its_victory(harness: Harness, variant: str) -> None:
    case = CASES[variant]
    game_map = load_map(variant)
    form(harness, case)
    state = state_of(harness, "duel")
    assert state.columns["variant"] == variant and state.columns["current_phase"] == "S1901M"
    assert state.columns["winning_centers"] == 18
    assert sorted(seats(harness, "duel")) == sorted(game_map.powers)
    starting = [read(m) for m in harness.others if "Game Starting" in str(m["Subject"])]
    assert len(starting) == 3  # the two players and the master
    contains_all(starting, case.opening)
    # The powers not played are nowhere in the game.
    assert not any("Russia" in mail for mail in starting)

    for power, orders in case.spring.items():
        as_power(harness, case, power, orders)
    contains_all(process(harness), ("Movement results for Spring of 1901.", *case.spring_results))

    # The fall board: the winner holds 17 centres (its homes and 14 neutral ones, none of them the
    # target) and moves onto its 18th; the loser's unit stands on none of the winner's centres.
    loser = next(p for p in game_map.powers if p != case.winner)
    neutral = sorted(c for c in game_map.supply_centers if not any(c in h for h in game_map.home_centers.values()))
    taken = [c for c in neutral if c != case.target][:14]
    centres = {case.winner: frozenset(game_map.home_centers[case.winner]) | frozenset(taken),
               loser: frozenset(game_map.home_centers[loser])}  # fmt: skip
    assert len(centres[case.winner]) == 17 and case.target not in centres[case.winner]
    units = tuple(Unit(case.winner, UnitType(u.split()[0]), u.split()[1]) for u in case.winner_units) + tuple(
        Unit(loser, UnitType(u.split()[0]), u.split()[1]) for u in case.loser_units
    )
    with harness.db.unit_of_work() as uow:
        record = uow.phases.current(uow.games.require("duel"))
        assert record is not None and record.name == "F1901M"
        board = from_json(record.position_before)
        record.position_before = to_json(dataclasses.replace(board, units=units, centers=centres))

    as_power(harness, case, case.winner, case.move)
    harness.new_mail()
    exchange_ok(harness, MASTER, f"SIGNON Mduel {MASTER_PASSWORD}\nPROCESS\n")
    subjects = [str(m["Subject"]) for m in harness.others]
    notice = f"XPY:duel - F1901M Victory: {letter(variant, case.winner)}"
    assert notice in subjects, "\n".join(read(m) for m in harness.others[:1]).replace("\n", " | ")
    victory = [read(m) for m in harness.others if m["Subject"] == notice]
    winner_name = game_map.power_names[case.winner].name
    assert any(f"Game 'duel' is over: {winner_name} has won with 18 supply centres." in mail for mail in victory)
    assert state_of(harness, "duel").columns["state"] == "finished"


@pytest.mark.parametrize(
    ("variant", "language", "expected"),
    [
        ("france_austria", "en", ["----- info.france_austria -----",
                                  "their variant \"Classic - France vs Austria\", webDiplomacy's variants/ClassicFvA",
                                  "18 win"]),
        ("france_austria", "fr", ["« Classic - France vs Austria », variants/ClassicFvA de", "18 pour gagner"]),
        ("germany_italy", "en", ["\"Classic - Germany vs Italy\", webDiplomacy's variants/ClassicGvI"]),
        ("germany_italy", "fr", ["« Classic - Germany vs Italy », variants/ClassicGvI de"]),
        ("england_turkey", "en", ["\"Classic - England* Vs Turkey\", variants/ClassicEvT",
                                  "England F North Sea, A London, F English Channel"]),
        ("england_turkey", "fr", ["« Classic - England* Vs Turkey », variants/ClassicEvT",
                                  "Angleterre F mer du Nord, A Londres, F Manche"]),
    ],
)  # fmt: skip
def test_get_info_cites_the_source_in_both_languages(
    harness: Harness, variant: str, language: str, expected: list[str]
) -> None:
    register(harness, "reader@example.net", language=language)
    answer = " ".join(read(harness.exchange("reader@example.net", f"GET info.{variant}\n")).split())
    for line in expected:
        assert line in answer, answer
