"""The judge keeps time over SMTP: a deadline seconds away, no grace, a silent power put in civil disorder.

A started Standard game is laid in the database (formation by mail is the
game-flow test's subject); everything after is mail over SMTP to the whole
running judge (door, worker, scheduler, sender): six players send their
orders, the master makes the game NMR and sets the deadline a few seconds
ahead with the grace ending at the same instant. Turkey sends nothing. At
the deadline the scheduler wakes by itself: Turkey gets its late notice,
everyone else the notice naming Turkey, the phase is processed with Turkey
in civil disorder, and everyone gets the results.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

from judge.app.game_state.boards import opening_position, to_json
from judge.app.game_state.clock_store import phase_schedule
from judge.app.phases.planning import plan
from judge.core.variants import load_map
from judge.db.enums import GameState, SeatStatus
from judge.db.repositories import Registration
from judge.timekeeping.deadlines import next_phase_times
from tests.e2e.harness import CODE, E2EJudge, text, wait_until

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
LETTERS = {"AUSTRIA": "A", "ENGLAND": "E", "FRANCE": "F", "GERMANY": "G", "ITALY": "I", "RUSSIA": "R", "TURKEY": "T"}
ORDERS = {
    "AUSTRIA": "A VIE - GAL\nA BUD - SER\nF TRI - ALB\n",
    "ENGLAND": "F LON - NTH\nF EDI - NWG\nA LVP - YOR\n",
    "FRANCE": "A PAR - BUR\nA MAR S A PAR - BUR\nF BRE - MAO\n",
    "GERMANY": "A BER - KIE\nA MUN - BUR\nF KIE - DEN\n",
    "ITALY": "A ROM - APU\nA VEN H\nF NAP - ION\n",
    "RUSSIA": "A WAR - GAL\nA MOS - UKR\nF SEV - BLA\nF STP/SC - BOT\n",
}
MASTER = "gm@example.org"


def address(power: str) -> str:
    return f"{power.lower()}@example.net"


def _seed(judge: E2EJudge) -> None:
    services = judge.server.services
    now = services.clock.now()
    the_map = load_map("standard")
    with judge.db.unit_of_work() as uow:
        game = uow.games.create("clock", now)
        for power in POWERS:
            person = uow.people.register(Registration(name=power.title(), site="Home", country="France"), address(power), now)
            uow.seats.join(game, person, f"pw{power.lower()}", now, power=power, phase="S1901M")
        master = uow.people.register(Registration(name="Master", site="Home", country="France"), MASTER, now)
        uow.games.add_master(game, master, "masterpw", now)
        start = opening_position(the_map)
        times = next_phase_times(now, phase_schedule(game, start.phase.type), services.config.timezone)
        uow.phases.open(game, str(start.phase), to_json(start), now, deadline_at=times.deadline)
        game.state = GameState.ACTIVE
        game.started_at = now
        game.deadline_at, game.grace_at, game.earliest_at = times.deadline, times.grace, now
        plan(uow, services, game, now)


def _received(judge: E2EJudge, subject: str) -> set[str]:
    return {rcpt for c in judge.relay.received if c.message["Subject"] == subject for rcpt in c.rcpt_tos}


def _one(judge: E2EJudge, subject: str, to: str) -> EmailMessage:
    found = [c.message for c in judge.relay.received if c.message["Subject"] == subject and to in c.rcpt_tos]
    assert len(found) == 1, f"{to} got {len(found)} mails '{subject}'"
    return found[0]


def test_a_silent_power_goes_into_civil_disorder_at_a_deadline_seconds_away(judge: E2EJudge) -> None:
    _seed(judge)
    for power, orders in ORDERS.items():
        reply = judge.exchange(address(power), f"SIGNON {LETTERS[power]}clock pw{power.lower()}\n{orders}")
        assert "[Error Flag]" not in str(reply["Subject"]), text(reply)

    deadline = (datetime.now(UTC) + timedelta(seconds=6)).replace(microsecond=0)
    stamp = deadline.isoformat()
    reply = judge.exchange(MASTER, f"SIGNON Mclock masterpw\nSET NMR\nSET DEADLINE {stamp}\nSET GRACE {stamp}\n")
    body = text(reply)
    assert "[Error Flag]" not in str(reply["Subject"]), body
    assert f"End of the grace period: {deadline:%A} {deadline.day} {deadline:%B %Y, %H:%M} UTC" in body

    everyone = {address(p) for p in POWERS} | {MASTER}
    results = f"{CODE}:clock - S1901M Results"
    wait_until(lambda: _received(judge, results) >= everyone, what="the results mail to everyone")

    late = _one(judge, f"[You are late!] {CODE}:clock - S1901M Late Notice: T", address("TURKEY"))
    assert "the orders of Turkey are not complete" in text(late)
    notice = f"{CODE}:clock - S1901M Late Notice: T"
    assert _received(judge, notice) == everyone - {address("TURKEY")}
    assert "Game 'clock' is waiting for the orders of Turkey" in text(_one(judge, notice, address("FRANCE")))
    for reader in everyone:
        assert len([c for c in judge.relay.received if c.message["Subject"] == results and reader in c.rcpt_tos]) == 1
    report = " ".join(text(_one(judge, results, address("RUSSIA"))).split())
    assert "Turkey: Fleet Ankara, No Order Processed." in report
    assert "Russia: Fleet Sevastopol -> Black Sea." in report
    with judge.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("clock")
        assert game.current_phase == "F1901M"
        turkey = next(seat for seat in game.seats if seat.power == "TURKEY")
        assert turkey.status is SeatStatus.CIVIL_DISORDER
