"""The Renaissance game in the judge's flow (issue 33): reached through its game hooks only.

The variant is not offered yet (CREATE and SIGNON refuse it), so these tests give a formed game
the scenario's name before its start, as a master's tool would, and check what the flow does
with it through :class:`judge.app.machiavelli.machiavelli_hooks.MachiavelliHooks`.
"""

from __future__ import annotations

import random
from zoneinfo import ZoneInfo

from judge.app.game_state.boards import from_json
from judge.app.games.lifecycle import start_game
from judge.app.hooks.game_hooks import MACHIAVELLI, hooks_for
from judge.app.machiavelli.stored_phase import opening_json
from judge.core.machiavelli.board import load_board
from judge.core.variants import load_map
from judge.lang.powers import power_letters
from tests.app.conftest import Harness
from tests.app.games_helpers import form_game, powers_of, read


def renaissance_game(harness: Harness) -> dict[str, tuple[str, str]]:
    """A started Renaissance game "demo" of two players: ``{power: (address, its sign-on)}``."""
    addresses = form_game(harness, players=2)
    with harness.db.unit_of_work() as uow:
        game = uow.games.require("demo")
        game.variant = "machiavelli"
        start_game(uow, game, harness.clock.now(), random.Random(7), zone=ZoneInfo("UTC"))
    letters = {power: letter for letter, power in power_letters(load_board().game_map).items()}
    return {
        power: (address, f"SIGNON {letters[power]}demo pw{addresses.index(address)}")
        for address, power in powers_of(harness, "demo").items()
    }


def kept_sheets(harness: Harness) -> dict[str, list[str]]:
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        assert game.current_phase is not None
        return {
            power: list(s.canonical)
            for power, s in uow.orders.current(game, game.current_phase).items()
        }


def test_the_start_opens_the_scenarios_first_phase_with_its_garrisons_and_treasuries(
    harness: Harness,
) -> None:
    board = load_board()
    form_game(harness, players=2)
    with harness.db.unit_of_work() as uow:
        game = uow.games.require("demo")
        game.variant = "machiavelli"
        assert hooks_for(game) is MACHIAVELLI
        started = start_game(uow, game, harness.clock.now(), random.Random(7), zone=ZoneInfo("UTC"))
        assert len(started.powers) == 2 and set(started.powers.values()) <= set(
            board.game_map.powers
        )
        assert len(started.dummies) == len(board.game_map.powers) - 2
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        record = uow.phases.current(game)
        assert record is not None
        kept = dict(record.position_before)
        assert record.name == str(board.first_phase) == "W1453A"
        assert game.deadline_at is not None
    expected = opening_json(board)
    assert kept == expected  # the garrisons and every power's treasury, as the core keeps them
    assert kept["garrisons"] and set(kept["treasuries"]) == set(board.game_map.powers)
    assert from_json(kept).phase == board.first_phase


def test_an_ordinary_game_still_opens_with_its_maps_board(harness: Harness) -> None:
    form_game(harness, players=2)
    with harness.db.unit_of_work() as uow:
        game = uow.games.require("demo")
        start_game(uow, game, harness.clock.now(), random.Random(7), zone=ZoneInfo("UTC"))
    with harness.db.unit_of_work(readonly=True) as uow:
        record = uow.phases.current(uow.games.require("demo"))
        assert record is not None and record.name == "S1901M"
        assert (
            "garrisons" not in record.position_before and len(record.position_before["units"]) == 22
        )


def test_a_powers_order_lines_are_read_by_the_games_reader_kept_as_sent_and_read_back(
    harness: Harness,
) -> None:
    seats = renaissance_game(harness)
    power = sorted(seats)[0]
    address, signon = seats[power]
    board = load_board()
    units = [u for u in board.game_map.starting_units if u.power == power]
    maintain = [f"MAINTAIN {u.type.value} {u.province}" for u in units]
    body = (
        "\n".join([signon, "MAINTAIN A NOWHERE", *maintain, "Best regards, and good luck to all"])
        + "\n"
    )
    message = harness.exchange(address, body)
    reply = read(message)
    assert (
        "[Error Flag]" in message["Subject"]
    )  # a line meant as an order, not read: the Judge's flag
    name = board.game_map.power_display_name(power, "en")
    assert f"Orders kept for {name}:" in reply, reply
    for line in maintain:
        assert line.replace("MAINTAIN", "").strip().split()[-1] in reply
    assert "> MAINTAIN A NOWHERE\nUnrecognized province -> nowhere" in reply, reply
    assert "Best regards" not in reply.split(f"Orders kept for {name}:")[1]  # prose is no order
    assert "You have no orders to give" not in reply  # the judge's own acknowledgement is not given
    assert kept_sheets(harness) == {power: maintain}
    # The next mail's sheet replaces the whole sheet.
    reply = read(harness.exchange(address, f"{signon}\n{maintain[0]}\n"))
    assert "refused" not in reply.split(f"Orders kept for {name}:")[1], reply
    assert kept_sheets(harness) == {power: [maintain[0]]}


def test_an_ordinary_game_reads_its_orders_with_the_judges_reader(harness: Harness) -> None:
    """No variant reader: the plain game's order lines are the judge's orders, as before."""
    addresses = form_game(harness, players=7)
    powers = powers_of(harness, "demo")
    address = addresses[0]
    letter = {p: x for x, p in power_letters(load_map("standard")).items()}[powers[address]]
    reply = read(harness.exchange(address, f"SIGNON {letter}demo pw0\nMAINTAIN A PAR\n"))
    assert "Orders kept for" not in reply


def process(harness: Harness) -> dict[str, str]:
    """Process the open phase as the scheduler would at the deadline; ``{address: results mail}``."""
    from judge.app.phases.processing import process_phase

    harness.new_mail()
    with harness.db.unit_of_work() as uow:
        process_phase(uow, harness.services, uow.games.require("demo"), harness.clock.now())
    harness.drain()
    return {str(m["To"]): read(m) for m in harness.new_mail()}


def test_the_phase_is_played_by_the_games_hooks_and_each_player_reads_only_his_own_books(
    harness: Harness,
) -> None:
    seats = renaissance_game(harness)
    board = load_board()
    (first, (first_address, first_signon)), (second, (second_address, second_signon)) = sorted(
        seats.items()
    )
    for power, address, signon in (
        (first, first_address, first_signon),
        (second, second_address, second_signon),
    ):
        units = [
            f"MAINTAIN {u.type.value} {u.province}"
            for u in board.game_map.starting_units
            if u.power == power
        ]
        garrisons = [
            f"MAINTAIN G {city}" for city, owner in board.garrisons.items() if owner == power
        ]
        harness.exchange(address, "\n".join([signon, *units, *garrisons]) + "\n")
    mails = process(harness)
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        phases = [(p.name, p.state.value) for p in uow.phases.history(game)]
        record = uow.phases.current(game)
        assert record is not None
        kept = dict(record.position_before)
    assert phases == [("W1453A", "processed"), ("S1454M", "open")]
    assert kept["phase"] == "S1454M"
    # The abandoned powers gave no orders: each keeps, nearest home first, what its ducats pay for
    # (judge.core.machiavelli.disorder), and pays for nothing more.
    assert {u["power"] for u in kept["units"]} == set(board.game_map.powers)
    for power in set(board.game_map.powers) - {first, second}:
        had = sum(u.power == power for u in board.game_map.starting_units)
        had += sum(owner == power for owner in board.garrisons.values())
        has = sum(u["power"] == power for u in kept["units"])
        has += sum(owner == power for owner in kept["garrisons"].values())
        assert has == had or kept["treasuries"][power] < 3, power  # all kept, or no ducats left
    name = {power: board.game_map.power_display_name(power, "en") for power in (first, second)}
    assert len(mails) == 2  # one results mail to each player (no master, no observer)
    for power, other in ((first, second), (second, first)):
        mail = mails[seats[power][0]]
        assert f"{name[power]}'s books (private):" in mail
        treasury = kept["treasuries"][power]
        assert f"Treasury: 0 ducats before, {treasury} after (income +" in mail, mail
        assert f"{name[other]}'s books" not in mail
        assert f"{name[power]}: REMOVE" not in mail  # its MAINTAIN lines were read at the deadline
    assert all("Adjustment results for the winter of 1453." in m for m in mails.values())
