"""Processing a phase end to end: the ruling stored, the next phase opened, the results mailed."""

from __future__ import annotations

import logging
from datetime import timedelta
from email.message import EmailMessage

import pytest

from judge.app.game_state.boards import opening_position
from judge.app.phases.guarded_scheduler import process_due
from judge.app.phases.processing import process_phase
from judge.core.order_json import ORDER_VALUE, order_from_json
from judge.core.phase import Phase
from judge.core.position import Position
from judge.core.units import Unit, UnitType
from judge.core.variants import load_map
from judge.db.enums import GameState, OrderBlockKind, PhaseState, SeatStatus
from judge.ruling import rule_on
from tests.app.conftest import Harness
from tests.app.orders_helpers import (
    MASTER,
    OBSERVER,
    POWERS,
    StartedGame,
    address,
    plain,
    start_game,
)

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

MAP = load_map("standard")
OPENINGS = {
    "AUSTRIA": "A VIE - GAL\nA BUD - SER\nF TRI - ALB\n",
    "ENGLAND": "F LON - NTH\nF EDI - NWG\nA LVP - YOR\n",
    "FRANCE": "A PAR - BUR\nA MAR S A PAR - BUR\nF BRE - MAO\n",
    "GERMANY": "A BER - KIE\nA MUN - BUR\nF KIE - DEN\n",
    "ITALY": "A ROM - APU\nA VEN H\nF NAP - ION\n",
    "RUSSIA": "A WAR - GAL\nA MOS - UKR\nF SEV - BLA\nF STP/SC - BOT\n",
    "TURKEY": "F ANK - BLA\nA CON - BUL\nA SMY - ARM\n",
}


def results_mail(harness: Harness, phase: str) -> dict[str, EmailMessage]:
    """The results mails of ``phase``, by recipient."""
    subject = f"XPY:demo - {phase} Results"
    return {str(m["To"]): m for m in harness.outbox() if m["Subject"] == subject}


def send_all(game: StartedGame, orders: dict[str, str]) -> None:
    for power, body in orders.items():
        game.orders(power, body)


def test_spring_is_processed_delay_after_the_last_orders_and_everyone_gets_the_results(harness: Harness) -> None:
    game = start_game(harness)
    harness.clock.advance(hours=13)  # past the phase's start (min 12 hours)
    send_all(game, OPENINGS)
    assert game.state()["next_due_at"] == harness.clock.now() + timedelta(minutes=30)
    harness.clock.advance(minutes=29)
    assert process_due(harness.services) == 0
    harness.clock.advance(minutes=1)
    assert process_due(harness.services) == 1
    state = game.state()
    assert state["phases"] == [("S1901M", "processed"), ("F1901M", "open")]
    mails = results_mail(harness, "S1901M")
    assert set(mails) == {*(address(p) for p in POWERS), MASTER, OBSERVER}
    mail = mails[address("FRANCE")]
    assert mail["Subject"] == "XPY:demo - S1901M Results"
    body = plain(mail)
    assert body.startswith("Movement results for Spring of 1901.  (demo.001)\n\n")
    for line in (
        "Austria: Army Vienna -> Galicia.  (*bounce*)",
        "Austria: Army Budapest -> Serbia.",
        "France:  Army Paris -> Burgundy.",
        "France:  Army Marseilles SUPPORT Army Paris -> Burgundy.",
        "Germany: Army Munich -> Burgundy.  (*bounce*)",
        "Italy:   Army Venice HOLD.",
        "Russia:  Fleet St Petersburg (south coast) -> Gulf of Bothnia.",
        "Turkey:  Fleet Ankara -> Black Sea.  (*bounce*)",
        "The next phase of 'demo' will be Movement for Fall of 1901.",
    ):
        assert line + "\n" in body, line
    assert "Ownership of supply centers" not in body  # only after Fall
    assert "The deadline for orders is " in body
    assert process_due(harness.services) == 0  # processed exactly once


def test_the_phase_record_keeps_the_ruling_so_it_can_be_checked_by_hand(harness: Harness) -> None:
    game = start_game(harness)
    send_all(game, OPENINGS)
    harness.clock.advance(hours=13)
    process_due(harness.services)
    mails = results_mail(harness, "S1901M")
    with harness.db.unit_of_work(readonly=True) as uow:
        record = uow.phases.history(game.game(uow))[0]
        assert record.state is PhaseState.PROCESSED
        assert record.results is not None and record.orders_adjudicated is not None
        assert record.results["report"]["en"] == plain(mails[address("FRANCE")])
        assert record.orders_received is not None
        assert record.orders_received["FRANCE"]["items"] == ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"]
        again = rule_on(record.orders_adjudicated)
        # The stored entries are the contract's, each with its order as a value beside its text.
        stored = record.results["results"]
        assert again["results"] == [{k: v for k, v in e.items() if k != ORDER_VALUE} for e in stored]
        assert [e["order"] for e in stored] == [
            None if e[ORDER_VALUE] is None else str(order_from_json(e[ORDER_VALUE])) for e in stored
        ]
        assert record.position_after is not None
        assert again["units"] == record.position_after["units"]


def test_results_reach_each_reader_in_their_language(harness: Harness) -> None:
    game = start_game(harness, languages={"GERMANY": "fr"})
    send_all(game, OPENINGS)
    harness.clock.advance(hours=13)
    process_due(harness.services)
    body = plain(results_mail(harness, "S1901M")[address("GERMANY")])
    assert body.startswith("Résultats des mouvements du printemps 1901.  (demo.001)\n")
    assert "Allemagne : " not in body
    assert "Allemagne:  Armée Munich -> Bourgogne.  (*rebond*)\n" in body
    assert "La prochaine phase de 'demo' sera : mouvements de l'automne 1901.\n" in body


def fall_position() -> Position:
    """Fall 1901: Italy attacks Trieste with support; the rest as at the start."""
    units = [u for u in opening_position(MAP).units if u.power != "ITALY"]
    units += [Unit("ITALY", UnitType.ARMY, "VEN"), Unit("ITALY", UnitType.ARMY, "TYR"),
              Unit("ITALY", UnitType.FLEET, "NAP")]
    start = opening_position(MAP)
    return Position("standard", Phase.parse("F1901M"), tuple(units), start.centers)


def test_a_fall_turn_with_a_retreat_and_adjustments(harness: Harness) -> None:
    game = start_game(harness, position=fall_position())
    game.orders("ITALY", "A VEN - TRI\nA TYR S A VEN - TRI\nF NAP H\n")
    game.orders("AUSTRIA", "F TRI H\nA VIE H\nA BUD H\n")
    reply = game.master("PROCESS\n")
    assert "Movement for Fall of 1901 processed. The results have been mailed to everyone." in plain(reply)
    body = plain(results_mail(harness, "F1901M")[address("AUSTRIA")])
    assert "Austria: Fleet Trieste HOLD.  (*dislodged*)\n" in body
    assert "England: Fleet London, No Order Processed.\n" in body
    assert "The Austrian Fleet in Trieste can retreat to Adriatic Sea or Albania.\n" in body
    assert "The next phase of 'demo' will be Retreat for Fall of 1901.\n" in body
    assert "Ownership" not in body  # centres change after the retreats

    ack = game.orders_text("AUSTRIA", "F TRI - ALB\n")
    assert "Retreat orders for Fall of 1901.  (demo.002)\n\nAustria: Fleet Trieste -> Albania.\n" in ack
    assert "Your orders are complete." in ack
    harness.clock.advance(minutes=30)
    assert process_due(harness.services) == 1
    body = plain(results_mail(harness, "F1901R")[address("ITALY")])
    assert body.startswith("Retreat results for Fall of 1901.  (demo.002)\n\nAustria: Fleet Trieste -> Albania.\n")
    assert "Ownership of supply centers:\n\n" in body
    assert "Italy:   Naples, Rome, Trieste, Venice.\n" in body
    assert "Austria:  2 Supply centers,  3 Units:  Removes  1 unit(s).\n" in body
    assert "Italy:    4 Supply centers,  3 Units:  Builds   1 unit(s).\n" in body
    assert "The next phase of 'demo' will be Adjustment for Winter of 1901.\n" in body

    assert "Your orders are complete." in game.orders_text("ITALY", "BUILD A ROM\n")
    assert "Austria: Removes the fleet in Albania." in game.orders_text("AUSTRIA", "DISBAND F ALB\n")
    harness.clock.advance(minutes=30)
    assert process_due(harness.services) == 1
    body = plain(results_mail(harness, "W1901A")[OBSERVER])
    assert body.startswith("Adjustment results for Winter of 1901.  (demo.003)\n\n")
    assert "Austria: Removes the fleet in Albania.\n" in body
    assert "Italy:   Builds an army in Rome.\n" in body
    assert "The next phase of 'demo' will be Movement for Spring of 1902.\n" in body
    assert game.state()["phase"] == "S1902M"


def test_orders_kept_for_a_later_phase_are_used_when_it_comes(harness: Harness) -> None:
    game = start_game(harness)
    orders = dict(OPENINGS)
    orders["FRANCE"] += "PHASE Fall 1901 Movement\nA BUR - MUN\nIF german army munich\n F MAO - POR\nELSE\n F MAO - SPA/SC\nENDIF\n"
    send_all(game, orders)
    harness.clock.advance(hours=13)
    process_due(harness.services)
    with harness.db.unit_of_work(readonly=True) as uow:
        stored = uow.orders.current(game.game(uow), "F1901M")["FRANCE"]
        assert stored.kind is OrderBlockKind.FUTURE
    game.master("PROCESS F1901M\n")
    body = plain(results_mail(harness, "F1901M")[address("FRANCE")])
    assert "France:  Army Burgundy -> Munich." in body
    assert "France:  Fleet Mid-Atlantic Ocean -> Portugal." in body  # the German army is still in Munich
    assert "France:  Army Marseilles, No Order Processed." in body


def test_only_a_master_may_process_and_only_the_current_phase(harness: Harness) -> None:
    game = start_game(harness)
    before = game.state()
    body = game.orders_text("FRANCE", "PROCESS\n")
    assert "Only a master of the game can PROCESS it." in body
    assert game.state() == before
    body = plain(game.master("PROCESS F1901M\n"))
    assert "The game is in Movement for Spring of 1901: PROCESS for another phase is ignored." in body
    assert game.state() == before
    body = plain(game.master("PROCESS S1901M\n"))
    assert "Movement for Spring of 1901 processed." in body
    assert game.state()["phase"] == "F1901M"


def test_a_power_reaching_the_winning_count_ends_the_game(harness: Harness) -> None:
    centres = {"FRANCE": frozenset(sorted(MAP.supply_centers - {"MUN", "BER", "KIE", "WAR", "MOS", "SEV",
                                                                 "STP", "ANK", "CON", "SMY", "BUD", "VIE",
                                                                 "TRI", "SER", "RUM", "BUL"})[:17])}
    assert len(centres["FRANCE"]) == 17
    units = (Unit("FRANCE", UnitType.ARMY, "BUR"), Unit("FRANCE", UnitType.ARMY, "RUH"),
             Unit("GERMANY", UnitType.ARMY, "BER"))
    position = Position("standard", Phase.parse("F1905M"), units, {**centres, "GERMANY": frozenset({"BER", "KIE"})})
    game = start_game(harness, position=position)
    game.orders("FRANCE", "A BUR - MUN\nA RUH S A BUR - MUN\n")
    game.master("PROCESS\n")
    body = plain(results_mail(harness, "F1905M")[address("FRANCE")])
    assert "France:  18 Supply centers,  2 Units:  Builds  16 unit(s).  (* VICTORY!! *)\n" in body
    assert "France has won the game with 18 supply centers.\n" in body
    assert body.endswith("The game is over. Thank you for playing.\n")
    with harness.db.unit_of_work(readonly=True) as uow:
        finished = game.game(uow)
        assert finished.state is GameState.FINISHED and finished.next_due_at is None
        assert uow.phases.current(finished) is None
        eliminated = {s.power for s in finished.seats if s.status is SeatStatus.ELIMINATED}
        assert eliminated == {"AUSTRIA", "ENGLAND", "ITALY", "RUSSIA", "TURKEY"}


def _processed_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.getMessage() == "phase.processed"]


def test_each_processed_phase_writes_one_info_line_without_orders_once_committed(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 25: processing a phase wrote no INFO event. One line now, after the commit, with what
    every player is told anyway (never an order, a password or an address); a processing rolled
    back writes none."""
    game = start_game(harness)
    harness.clock.advance(hours=13)
    send_all(game, OPENINGS)
    harness.clock.advance(hours=1)
    with caplog.at_level(logging.INFO, logger="judge.app.phases.processing"):
        with pytest.raises(RuntimeError), harness.services.db.unit_of_work() as uow:
            process_phase(uow, harness.services, game.game(uow), harness.clock.now(), reason="test")
            raise RuntimeError("the transaction fails after the processing")
        assert _processed_lines(caplog) == []
        assert process_due(harness.services) == 1
    [line] = _processed_lines(caplog)
    assert line.levelno == logging.INFO
    fields = line.__dict__["judge_fields"]
    assert (fields["game"], fields["phase"], fields["next_phase"]) == ("demo", "S1901M", "F1901M")
    text = repr(fields)
    for secret in ("BUR", "pw", "@", "NTH"):
        assert secret not in text, secret
