"""The Renaissance game's dice by mail (issue 33): a year played with money, expenses and a famine.

Eight players, CREATE and SIGNON, the year 1454 played as the Judge plays it with the first
edition's options (famine on). The game's seed (its id and name) throws, after the fall of
1454, a famine on Arezzo, Milan, Tyrol and five provinces more (the name was chosen for it: the
test checks the throw against the core's own tables before relying on it). Everyone reads where
famine struck; in the spring of 1455 Florence relieves Arezzo (3 ducats) and keeps its army
there, while Milan's army in Milan and Austria's in Tyrol starve. Only the master's mail and the
operator's ``judge game show`` carry the dice; a player reads their public effects alone.
"""

from __future__ import annotations

import pytest

from judge.app.console.views import game_details
from judge.app.machiavelli.phase_ruling import game_seed
from judge.cli import main
from judge.core.machiavelli.board import load_board
from judge.core.machiavelli.disasters import seeded_dice, strike
from judge.core.phase import Phase
from judge.lang.powers import power_letters
from tests.app.conftest import Harness
from tests.app.games_helpers import player, register
from tests.app.masters_helpers import MASTER, MASTER_PASSWORD, read, state_of

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

BOARD = load_board()
GAME = "dice5"
PLAYERS = [player(n) for n in range(len(BOARD.game_map.powers))]
LETTER = {power: letter for letter, power in power_letters(BOARD.game_map).items()}
STARVING = "ARE, COR, LUC, MAN, MIL, PON, SPO, TYR"


def ok(harness: Harness, sender: str, body: str) -> str:
    reply = harness.exchange(sender, body)
    assert "[Error Flag]" not in reply["Subject"], read(reply)
    return read(reply)


def seats(harness: Harness) -> dict[str, str]:
    return {power: address for address, power, _ in state_of(harness, GAME).seats if power and address}


def orders(harness: Harness, power: str, lines: list[str]) -> str:
    address = seats(harness)[power]
    signon = f"SIGNON {LETTER[power]}{GAME} pw{PLAYERS.index(address)}"
    return ok(harness, address, "\n".join([signon, *lines]) + "\n")


def process(harness: Harness) -> dict[str, str]:
    harness.new_mail()
    ok(harness, MASTER, f"SIGNON M{GAME} {MASTER_PASSWORD}\nPROCESS\n")
    return {str(m["To"]): read(m) for m in harness.others}


def maintain_everything(harness: Harness) -> None:
    with harness.db.unit_of_work(readonly=True) as uow:
        record = uow.phases.current(uow.games.require(GAME))
        assert record is not None
        kept = dict(record.position_before)
    for power in BOARD.game_map.powers:
        lines = [f"MAINTAIN {u['type']} {u['loc']}" for u in kept["units"] if u["power"] == power]
        lines += [f"MAINTAIN G {city}" for city, owner in kept["garrisons"].items() if owner == power]
        orders(harness, power, lines)


def dice_only_for_the_master(mails: dict[str, str]) -> None:
    for address, mail in mails.items():
        if address == MASTER:
            assert "The dice of this phase (for the masters only):" in mail, mail
        else:
            assert "The dice of this phase" not in mail and "severity" not in mail, (address, mail)


def test_a_year_by_mail_with_money_expenses_and_a_famine(
    harness: Harness, capsys: pytest.CaptureFixture[str]
) -> None:
    register(harness, MASTER)
    ok(harness, MASTER, f"CREATE ?{GAME} {MASTER_PASSWORD} machiavelli\nBECOME MASTER\nSET MANUAL PROCESS\n")
    for address in PLAYERS:
        register(harness, address)
    for n, address in enumerate(PLAYERS):
        ok(harness, address, f"SIGNON ?{GAME} pw{n} machiavelli\n")
    with harness.db.unit_of_work(readonly=True) as uow:
        seed = game_seed(uow.games.require(GAME))
    thrown = strike(BOARD.famine_table, "famine", seeded_dice(seed, Phase.parse("W1454A"), "famine"))
    assert ", ".join(sorted(thrown.places)) == STARVING, f"the seed {seed} throws another famine"

    maintain_everything(harness)
    winter = process(harness)  # W1453: income (the master alone reads its dice) and upkeep
    dice_only_for_the_master(winter)
    assert "variable income, FLORENCE:" in winter[MASTER]

    # S1454: Florence bribes the garrison of Siena away (6 ducats), Milan gives it 2.
    orders(harness, "FLORENCE", ["EXPENSE 1: 6 DUCATS DISBAND G SIE"])
    orders(harness, "MILAN", ["GIVE 2 DUCATS TO FLORENCE"])
    spring = process(harness)
    assert all("The garrison of SIE is disbanded by a bribe." in mail for mail in spring.values())
    process(harness)  # U1454
    fall = process(harness)  # F1454: the famine is thrown as the fall ends
    assert all(f"Famine strikes {STARVING}." in mail for mail in fall.values())
    assert all("Famine in ARE." in mail and "Famine in MIL." in mail for mail in fall.values())
    dice_only_for_the_master(fall)
    assert "famine, severity: 3 3 -> column only" in fall[MASTER]
    assert f"famine, column: 5 3 -> {STARVING}" in fall[MASTER]
    assert state_of(harness, GAME).columns["current_phase"] == "W1454A"

    maintain_everything(harness)
    process(harness)  # W1454: the starving provinces yield nothing

    # S1455: Florence relieves Arezzo; Milan's and Austria's armies starve as the spring ends.
    receipt = orders(harness, "FLORENCE", ["EXPENSE 1: 3 DUCATS FAMINE RELIEF ARE"])
    assert "refused" not in receipt, receipt
    starved = process(harness)
    for mail in starved.values():
        assert "The famine in ARE is relieved." in mail
        assert "Milan: A MIL is lost to the famine." in mail
        assert "Austria: A TYR is lost to the famine." in mail
        assert "Autonomous: G LUC is lost to the famine." in mail
        assert "Famine in" not in mail  # every marker lifted
        assert "A ARE" in mail.split("Next phase:")[1].split("Florence's books")[0]
    florence = seats(harness)["FLORENCE"]
    assert "EXPENSE 1: 3 DUCATS FAMINE RELIEF ARE: succeeds (paid 3 ducats)" in starved[florence]
    assert "FAMINE RELIEF" not in starved[seats(harness)["MILAN"]]  # who paid stays Florence's

    # The operator's view: every phase's dice, the famine's among them.
    with harness.db.unit_of_work(readonly=True) as uow:
        shown = game_details(uow, uow.games.require(GAME))["dice"]
    by_phase = {entry["phase"]: entry["rolls"] for entry in shown}
    assert next(roll["for"] for roll in by_phase["F1454M"] if roll["rule"] == "famine") == "severity"
    assert {roll["rule"] for roll in by_phase["W1453A"]} == {"income"}
    assert [r["outcome"] for r in by_phase["F1454M"] if r["rule"] == "famine"] == [
        roll.outcome for roll in thrown.rolls
    ]
    capsys.readouterr()
    assert main(["game", "--url", harness.db.url, "show", GAME]) == 0
    printed = capsys.readouterr().out
    assert "\ndice thrown:\n" in printed
    assert "  F1454M  famine, severity: 3 3 -> column only" in printed
    assert f"  F1454M  famine, column: 5 3 -> {STARVING}" in printed
