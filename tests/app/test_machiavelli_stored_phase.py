"""A year of the Renaissance game played from what the judge keeps (the position's JSON and each
power's sheet as text), and its results mails: what everyone reads, and a power's books (treasury,
ducats in and out, money orders, loans) read only by that power and the masters (issue 33)."""

from __future__ import annotations

import re
from typing import Any

from judge.app.audience.machiavelli_books import books_readable
from judge.app.machiavelli.order_receipt import receipt
from judge.app.machiavelli.stored_phase import (
    PlayedPhase,
    Reader,
    StoredSheet,
    opening_json,
    play_stored_phase,
    results_for,
)
from judge.core.machiavelli.board import load_board
from judge.core.machiavelli.options import MachiavelliOptions
from judge.core.phase import PhaseType
from judge.lang.machiavelli_sheet import read_sheet

BOARD = load_board()
POWERS = BOARD.game_map.powers
SEED = "machiavelli-game-1"
READERS = {
    "florence@example.org": Reader(power="FLORENCE"),
    "milan@example.org": Reader(power="MILAN", language="fr"),
    "master@example.org": Reader(master=True),
    "observer@example.org": Reader(),
}


def keep_all(position: dict[str, Any], power: str, *, french: bool = False) -> StoredSheet:
    verb = "ENTRETIENT" if french else "MAINTAIN"
    units = [f"{verb} {u['type']} {u['loc']}" for u in position["units"] if u["power"] == power]
    return StoredSheet(
        tuple(units + [f"{verb} G {c}" for c, o in position["garrisons"].items() if o == power]),
        french,
    )


def year() -> list[PlayedPhase]:
    position = opening_json(BOARD)
    played = []
    sheets = {power: keep_all(position, power, french=power == "MILAN") for power in POWERS}
    played.append(play_stored_phase(BOARD, position, sheets, seed=SEED))
    spring = {
        "FLORENCE": StoredSheet(
            ("EXPENSE 1: 6 DUCATS DISBAND G SIE", "A ARE - SIE", "A FLO H", "GIBBERISH HERE")
        ),
        "MILAN": StoredSheet(("A MIL - PIA", "DONNE 2 DUCATS À FLORENCE"), french=True),
    }
    for sheets in (
        spring,
        {"FLORENCE": StoredSheet(("A SIE - PIO",))},
        {"FLORENCE": StoredSheet(("A PIO BESIEGE",))},
    ):
        played.append(play_stored_phase(BOARD, played[-1].position, sheets, seed=SEED))
    fall = played[-1].position
    played.append(play_stored_phase(BOARD, fall, {p: keep_all(fall, p) for p in POWERS}, seed=SEED))
    return played


def test_a_year_is_played_from_the_kept_position_and_sheets() -> None:
    played = year()
    assert [p.position["phase"] for p in played] == [
        "S1454M",
        "U1454M",
        "F1454M",
        "W1454A",
        "S1455M",
    ]
    spring = played[1]
    assert "SIE" not in spring.position["garrisons"]
    assert (
        spring.position["treasuries"]["FLORENCE"]
        == played[0].position["treasuries"]["FLORENCE"] - 6 + 2
    )
    texts = results_for(spring, BOARD, READERS)
    everyone = texts["observer@example.org"]
    assert "The garrison of SIE is disbanded by a bribe." in everyone
    assert "Florence: A ARE - SIE: succeeds" in everyone
    assert "Milan: A MIL - PIA: succeeds" in everyone
    fall = results_for(played[3], BOARD, READERS)["observer@example.org"]
    assert "Florence: A PIO BESIEGE: succeeds" in fall and played[3].position["sieges"]
    winter = results_for(played[-1], BOARD, READERS)["florence@example.org"]
    assert "Income:" in winter and "upkeep -3" in winter


def test_a_powers_books_reach_only_that_power_and_the_masters() -> None:
    for played in year():
        texts = results_for(played, BOARD, READERS)
        florence, milan = texts["florence@example.org"], texts["milan@example.org"]
        master, observer = texts["master@example.org"], texts["observer@example.org"]
        assert (
            "Florence's books" in florence and "Milan" not in florence.split("Florence's books")[1]
        )
        assert "Comptes de Milan (privés)" in milan and "Comptes de Florence" not in milan
        assert "Florence's books" not in milan and "Trésor" in milan
        assert "Florence's books" in master and "Milan's books" in master
        assert (
            "books" not in observer
            and "Treasury" not in observer
            and "ducats" not in observer.replace("(disband)", "")
        )
        for power in POWERS:
            treasury = played.position["treasuries"][power]
            line = f"{treasury} after"
            assert (line in master) or treasury == 0 or power not in played.texts(BOARD, "en").books
        assert not re.search(r"GIVE|DONNE|EXPENSE|PAY", observer)


def test_who_paid_a_bribe_is_never_told_and_a_gift_stays_between_the_books() -> None:
    spring = year()[1]
    texts = results_for(spring, BOARD, READERS)
    assert (
        "EXPENSE 1: 6 DUCATS DISBAND G SIE: succeeds (paid 6 ducats)"
        in texts["florence@example.org"]
    )
    assert "EXPENSE" not in texts["milan@example.org"]
    assert "GIVE 2 DUCATS TO FLORENCE: réussit" in texts["milan@example.org"]
    assert "Résultats de la campagne de printemps 1454." in texts["milan@example.org"]
    assert "La garnison de SIE est dispersée par un pot-de-vin." in texts["milan@example.org"]
    assert "GIVE 2" not in texts["florence@example.org"]
    assert "gift +2" in texts["florence@example.org"]
    assert "GIBBERISH HERE: not read, ignored." in texts["florence@example.org"]
    assert "GIBBERISH" not in texts["milan@example.org"] + texts["observer@example.org"]


def test_the_masters_read_every_book_a_player_his_own_an_observer_none() -> None:
    assert books_readable(POWERS, power=None, master=True) == frozenset(POWERS)
    assert books_readable(POWERS, power="VENICE", master=False) == {"VENICE"}
    assert books_readable(POWERS, power=None, master=False) == frozenset()
    assert books_readable(POWERS, power="ENGLAND", master=False) == frozenset()


def test_the_basic_game_plays_without_books() -> None:
    basic = MachiavelliOptions(money=False)
    position = opening_json(BOARD, basic)
    played = play_stored_phase(BOARD, position, {}, basic, seed=SEED)
    assert played.position["phase"] == "S1454M" and "treasuries" not in played.position
    assert "books" not in results_for(played, BOARD, READERS)["master@example.org"]


def test_a_sheet_cannot_move_another_powers_unit_or_spend_its_ducats() -> None:
    spring = year()[0].position
    hostile = {
        "MILAN": StoredSheet(
            (
                "A ARE - SIE",
                "G VEN H",
                "EXPENSE 1: 6 DUCATS DISBAND G SIE",
                "GIVE 99 DUCATS TO MILAN",
            )
        ),
        "ENGLAND": StoredSheet(("A FLO - PIS",)),
    }
    played = play_stored_phase(BOARD, spring, hostile, seed=SEED)
    units = {(u["power"], u["loc"]) for u in played.position["units"]}
    assert ("FLORENCE", "ARE") in units and ("MILAN", "SIE") not in units
    assert played.position["garrisons"]["VEN"] == "VENICE"
    assert played.position["treasuries"]["FLORENCE"] == spring["treasuries"]["FLORENCE"]
    assert played.position["treasuries"]["MILAN"] <= spring["treasuries"]["MILAN"]


def test_the_receipt_reads_each_line_back_or_says_why_not_in_the_readers_language() -> None:
    sheet = read_sheet(
        ["A ARE - SIE", "EXPENSE 9: 6 DUCATS DISBAND G SIE", "DÉPENSE 1: 6 DUCATS DISPERSE G SIE"],
        BOARD.game_map,
        PhaseType.MOVEMENT,
        french=True,
    )
    english = receipt("FLORENCE", sheet, BOARD.game_map, "en")
    assert english.splitlines() == [
        "Orders kept for Florence:",
        "  A ARE - SIE",
        "  EXPENSE 9: 6 DUCATS DISBAND G SIE: refused (Expenses are numbered 1 to 4 -> EXPENSE 9: 6 DUCATS DISBAND G SIE)",
        "  EXPENSE 1: 6 DUCATS DISBAND G SIE",
    ]
    french = receipt("FLORENCE", sheet, BOARD.game_map, "fr")
    assert "Ordres retenus pour Florence :" in french
    assert "refusé (Les dépenses sont numérotées de 1 à 4" in french
    assert "Ni une retraite" in receipt(
        "TURKEY",
        read_sheet(["A ALB BESIEGE"], BOARD.game_map, PhaseType.RETREAT),
        BOARD.game_map,
        "fr",
    )


def test_the_kept_position_reads_as_a_plain_position_for_the_clock_and_the_owing_powers() -> None:
    """The flow's readers (the open phase, the clock) read a game's kept JSON with its variant's
    map: the Renaissance position reads with the scenario's units and phase, its own keys aside."""
    from judge.app.game_state.boards import from_json

    kept = opening_json(BOARD)
    plain = from_json(kept)
    assert str(plain.phase) == kept["phase"] == str(BOARD.first_phase)
    assert plain.variant == "machiavelli"
    units = {(u["power"], u["loc"]) for u in kept["units"]}
    assert {(u.power, u.province) for u in plain.units} == units
