"""The Renaissance game by mail (issue 33): formed with CREATE and SIGNON by eight players, and
played through a year (the adjustments of 1453, the three campaigns of 1454 and its adjustments)
in which Florence pays a bribe of 6 ducats to disband the autonomous garrison of Siena and Milan
gives Florence 2 ducats. Each power's books (its treasury, its money orders) reach that power
alone, and the masters; never another player.
"""

from __future__ import annotations

import re

import pytest

from judge.core.machiavelli.board import load_board
from tests.app.conftest import Harness
from tests.app.games_helpers import player, register
from tests.app.masters_helpers import MASTER, MASTER_PASSWORD, read, state_of

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

BOARD = load_board()
PLAYERS = [player(n) for n in range(len(BOARD.game_map.powers))]
NAME = {power: BOARD.game_map.power_display_name(power, "en") for power in BOARD.game_map.powers}


def exchange_ok(harness: Harness, sender: str, body: str) -> str:
    reply = harness.exchange(sender, body)
    assert "[Error Flag]" not in reply["Subject"], read(reply)
    return read(reply)


def seats(harness: Harness) -> dict[str, str]:
    return {
        power: address
        for address, power, _status in state_of(harness, "mach").seats
        if power and address
    }


def as_power(harness: Harness, power: str, lines: list[str]) -> str:
    address = seats(harness)[power]
    letter = {p: x for x, p in _letters().items()}[power]
    return exchange_ok(
        harness,
        address,
        "\n".join([f"SIGNON {letter}mach pw{PLAYERS.index(address)}", *lines]) + "\n",
    )


def _letters() -> dict[str, str]:
    from judge.lang.powers import power_letters

    return dict(power_letters(BOARD.game_map))


def process(harness: Harness) -> dict[str, str]:
    """The master's PROCESS; ``{address: the results mail}``."""
    harness.new_mail()
    exchange_ok(harness, MASTER, f"SIGNON Mmach {MASTER_PASSWORD}\nPROCESS\n")
    return {str(m["To"]): read(m) for m in harness.others}


def maintain_all(harness: Harness, power: str) -> str:
    """Every unit and garrison of ``power`` maintained, as the open phase's board has them."""
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("mach")
        record = uow.phases.current(game)
        assert record is not None
        kept = dict(record.position_before)
    units = [f"MAINTAIN {u['type']} {u['loc']}" for u in kept["units"] if u["power"] == power]
    garrisons = [
        f"MAINTAIN G {city}" for city, owner in kept["garrisons"].items() if owner == power
    ]
    return as_power(harness, power, units + garrisons)


def treasury(mail: str, power: str) -> tuple[int, int]:
    found = re.search(
        rf"{NAME[power]}'s books \(private\):.*?Treasury: (\d+) ducats before, (\d+) after",
        mail,
        re.S,
    )
    assert found, mail
    return int(found.group(1)), int(found.group(2))


def private_parts_stay_private(mails: dict[str, str]) -> None:
    """Each player's mail has his own books and no other power's; the master's has them all."""
    assert set(mails) == {MASTER, *seats_of_mails}  # one results mail each
    for address, mail in mails.items():
        power = seats_of_mails.get(address)
        if address == MASTER:
            assert mail.count("Treasury:") == len(BOARD.game_map.powers)
            continue
        assert power is not None and f"{NAME[power]}'s books (private):" in mail
        assert mail.count("Treasury:") == 1  # his own, and no other's
        for other in BOARD.game_map.powers:
            if other != power:
                assert f"{NAME[other]}'s books" not in mail, (address, other, mail)


seats_of_mails: dict[str, str] = {}


def spring_picture(harness: Harness) -> str:
    """The results map of the game's S1454M, as the results mails draw it."""
    from judge.app.mail_out.results_maps import phase_svg
    from judge.db.models import Game, PhaseRecord

    with harness.db.unit_of_work(readonly=True) as uow:
        record = uow.session.query(PhaseRecord).filter_by(name="S1454M").one()
        game = uow.session.get(Game, record.game_id)
        assert game is not None
        return phase_svg(game, record)


def test_a_year_of_the_renaissance_game_by_mail_with_a_bribe_and_a_gift(harness: Harness) -> None:
    register(harness, MASTER)
    exchange_ok(
        harness,
        MASTER,
        f"CREATE ?mach {MASTER_PASSWORD} machiavelli\nBECOME MASTER\nSET MANUAL PROCESS\n",
    )
    for address in PLAYERS:
        register(harness, address)
    for n, address in enumerate(PLAYERS):
        exchange_ok(harness, address, f"SIGNON ?mach pw{n} machiavelli\n")
    # The last SIGNON starts the game: each Game Starting mail carries the opening board (W1453A).
    starting = [m for m in harness.others if m.get_content_type() == "multipart/mixed"]
    assert {str(m["To"]) for m in starting} >= set(PLAYERS[:-1])
    assert all(
        [p.get_filename() for p in m.iter_attachments()] == ["mach-W1453A.png"]  # type: ignore[attr-defined]
        for m in starting
    )
    state = state_of(harness, "mach")
    assert state.columns["variant"] == "machiavelli" and state.columns["current_phase"] == "W1453A"
    assert sorted(seats(harness)) == sorted(BOARD.game_map.powers)
    seats_of_mails.clear()
    seats_of_mails.update({address: power for power, address in seats(harness).items()})

    # W1453: everyone keeps everything; income and upkeep.
    for power in BOARD.game_map.powers:
        maintain_all(harness, power)
    assert "MAP OFF" in as_power(harness, "TURKEY", ["SET MAP OFF"])
    winter = process(harness)
    private_parts_stay_private(winter)
    # Every results mail carries the board the winter leaves, drawn the Renaissance game's way,
    # but Turkey's, whose player said SET MAP OFF.
    assert len(harness.others) == len(winter)
    for message in harness.others:
        pictures = list(message.iter_attachments())  # type: ignore[attr-defined]
        if str(message["To"]) == seats(harness)["TURKEY"]:
            assert pictures == []
            continue
        (picture,) = pictures
        assert picture.get_content_type() == "image/png" and picture.get_filename() == "mach-W1453A.png"
        assert picture.get_content()[:8] == b"\x89PNG\r\n\x1a\n"
    florence = seats(harness)["FLORENCE"]
    milan = seats(harness)["MILAN"]
    assert treasury(winter[florence], "FLORENCE") == (0, 8)
    assert treasury(winter[MASTER], "FLORENCE") == (0, 8)  # the master reads every book
    assert "Treasury" not in winter[milan].split(f"{NAME['MILAN']}'s books (private):")[0]
    assert state_of(harness, "mach").columns["current_phase"] == "S1454M"

    # S1454: Florence bribes Siena's autonomous garrison away and marches in; Milan gives 2 ducats.
    receipt = as_power(
        harness, "FLORENCE", ["EXPENSE 1: 6 DUCATS DISBAND G SIE", "A ARE - SIE", "A FLO H"]
    )
    assert "Orders kept for Florence:" in receipt and "refused" not in receipt, receipt
    as_power(harness, "MILAN", ["A MIL - PIA", "GIVE 2 DUCATS TO FLORENCE"])
    spring = process(harness)
    private_parts_stay_private(spring)
    assert all("The garrison of SIE is disbanded by a bribe." in mail for mail in spring.values())
    assert treasury(spring[florence], "FLORENCE") == (8, 4)  # +2 from Milan, -6 for the bribe
    assert "6 ducats" in spring[florence] or "6 DUCATS" in spring[florence]
    for address, mail in spring.items():
        if address not in (florence, MASTER):
            assert (
                "DISBAND" not in mail and "Florence's books" not in mail
            )  # who paid is never told
    assert state_of(harness, "mach").columns["current_phase"] == "U1454M"
    # The spring's results map draws its orders as the plain variants' do: Florence's march on Siena.
    drawn = spring_picture(harness)
    assert 'class="order move succeeds" data-from="ARE" data-to="SIE"' in drawn
    assert re.search(r'class="order hold succeeds" data-loc="FLO"', drawn)
    assert re.search(r'class="order unordered [a-z]+" data-loc="PAV"', drawn)  # Milan's unit left without orders

    # Summer and fall: Florence marches on; nobody else orders (their units hold).
    as_power(harness, "FLORENCE", ["A SIE - PIO"])
    process(harness)
    as_power(harness, "FLORENCE", ["A PIO BESIEGE"])
    fall = process(harness)
    private_parts_stay_private(fall)
    assert state_of(harness, "mach").columns["current_phase"] == "W1454A"

    # W1454: Florence keeps everything; its income and upkeep again, in its books alone.
    maintain_all(harness, "FLORENCE")
    last = process(harness)
    private_parts_stay_private(last)
    before, after = treasury(last[florence], "FLORENCE")
    assert before == 4 and after > before
    assert state_of(harness, "mach").columns["current_phase"] == "S1455M"
