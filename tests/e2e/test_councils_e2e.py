"""A council game of Standard by mail over SMTP (issue 17, seed 003), against the whole judge.

21 players form the game by mail (CREATE, SET COUNCILS, twenty SIGNON ?demo);
every council holds its first election by VOTE; Ambassadors negotiate;
France's General saves orders without releasing them, so at the deadline a
grace opens with an early election that names a substitute, who orders and
releases; the fall is played, the yearly election held, and the Generals
concede to Russia: the final summary names the winners.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from email.message import EmailMessage

from judge.db.repositories.people import Registration
from tests.app.councils_helpers import HOLDS, LETTER, MASTER, POWERS
from tests.e2e.harness import CODE, E2EJudge, text, wait_until


def player(n: int) -> str:
    return f"p{n}@example.net"


def _members(judge: E2EJudge) -> list[tuple[str, str, str, int, int]]:
    """(address, password, power, member id, rank) of every seated member; rank 0 is the General."""
    with judge.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        out = []
        for member in uow.councils.seated(game):
            person = uow.councils.person_of(member)
            assert person is not None and person.primary_address
            address = person.primary_address
            out.append((address, f"pw{int(address[1:].split('@')[0])}", member.power, member.id, member.rank))
        return out


def _general(judge: E2EJudge, power: str) -> tuple[str, str, int]:
    for address, password, p, member_id, rank in _members(judge):
        if p == power and rank == 0:
            return address, password, member_id
    raise AssertionError(f"{power} has no General")


def _say(judge: E2EJudge, address: str, password: str, power: str, body: str) -> str:
    reply = judge.exchange(address, f"SIGNON {LETTER[power]}demo {password}\n{body}\n")
    return text(reply)


def _game(judge: E2EJudge):  # type: ignore[no-untyped-def]
    with judge.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        uow.session.expunge(game)
        return game


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _move_clock_to(judge: E2EJudge, moment: datetime) -> None:
    late_by = _aware(moment) - datetime.now(UTC) - judge.clock.offset
    if late_by.total_seconds() > 0:
        judge.clock.advance(seconds=late_by.total_seconds() + 1)


def _elect(judge: E2EJudge, power: str, winner_rank: int) -> None:
    members = [m for m in _members(judge) if m[2] == power]
    winner = next(m for m in members if m[4] == winner_rank)
    for address, password, p, _id, _rank in members:
        assert "Recorded" in _say(judge, address, password, p, f"VOTE {winner[3]}")


def _mails(judge: E2EJudge, address: str, needle: str) -> list[EmailMessage]:
    return [m for m in judge.messages_to(address) if needle in text(m)]


def test_a_council_game_by_mail(judge: E2EJudge) -> None:
    with judge.db.unit_of_work() as uow:
        for n in range(21):
            uow.people.register(Registration(name=f"Player{n}"), player(n), judge.clock.now())
        uow.people.register(Registration(name="Referee"), MASTER, judge.clock.now())
    # --- formation by mail: CREATE, SET COUNCILS, twenty sign-ons --------------------------
    reply = text(judge.exchange(player(0), "CREATE ?demo pw0\nSET COUNCILS 3\n"))
    assert ": 21 " in reply, reply
    with judge.db.unit_of_work() as uow:
        game = uow.games.require("demo")
        master = uow.people.by_address(MASTER)
        assert master is not None
        uow.games.add_master(game, master, "masterpw", judge.clock.now())
    for n in range(1, 21):
        judge.exchange(player(n), f"SIGNON ?demo pw{n}\n")
    wait_until(lambda: _game(judge).current_phase == "S1901M", what="the start")
    assert len(_members(judge)) == 21

    # --- the first election, held by mail ---------------------------------------------------
    wait_until(lambda: _mails(judge, MASTER, "elects its General-in-chief (first election"), what="notices")
    for power in POWERS:
        _elect(judge, power, 0)  # every council keeps its provisional General
    results = wait_until(lambda: _mails(judge, MASTER, "Result of") if len(
        _mails(judge, MASTER, "Result of")) >= 7 else [], what="seven results")  # fmt: skip
    assert all("is elected General-in-chief" in text(m) for m in results)

    # --- Ambassadors negotiate --------------------------------------------------------------
    france_ambassador = next(m for m in _members(judge) if m[2] == "FRANCE" and m[4] == 1)
    england_ambassadors = [m[0] for m in _members(judge) if m[2] == "ENGLAND" and m[4] > 0]
    _say(judge, france_ambassador[0], france_ambassador[1], "FRANCE", "PRESS TO E\nThe Channel stays empty?\nENDPRESS")
    for address in england_ambassadors:
        wait_until(lambda a=address: _mails(judge, a, "The Channel stays empty?"), what="press to England")
    assert not _mails(judge, _general(judge, "ENGLAND")[0], "The Channel stays empty?")

    # --- spring: every General but France's releases; France's saves drafts -------------------
    for power in POWERS:
        address, password, _ = _general(judge, power)
        if power == "FRANCE":
            _say(judge, address, password, power, HOLDS[power])
        else:
            assert "released" in _say(judge, address, password, power, HOLDS[power] + "\nREADY HOLD")
    old_general = _general(judge, "FRANCE")
    _move_clock_to(judge, _game(judge).deadline_at)
    wait_until(lambda: _mails(judge, MASTER, "did not release his orders"), what="the grace")
    assert _game(judge).current_phase == "S1901M"

    # --- the early election names a substitute, who orders and releases ----------------------
    _elect(judge, "FRANCE", 1)
    wait_until(lambda: _general(judge, "FRANCE")[0] != old_general[0], what="the substitute")
    substitute = _general(judge, "FRANCE")
    assert "released" in _say(judge, substitute[0], substitute[1], "FRANCE",
                              "A PAR - BUR\nA MAR H\nF BRE - MAO\nREADY")  # fmt: skip
    # the substitute's orders are resolved at the end of the grace, the incumbent's 24 hours (rule 4)
    _move_clock_to(judge, _game(judge).deadline_at)
    wait_until(lambda: _game(judge).current_phase == "F1901M", what="spring processed")
    onr = text(judge.exchange(MASTER, "SIGNON Mdemo masterpw\nCOUNCIL ONR\n"))
    assert "France" in onr and "1 ONR" in onr

    # --- fall: everyone releases; leaving the fall opens the yearly election ------------------
    fall = {**HOLDS, "FRANCE": "A BUR H\nA MAR H\nF MAO H"}
    for power in POWERS:
        address, password, _ = _general(judge, power)
        assert "released" in _say(judge, address, password, power, fall[power] + "\nREADY HOLD")
    _move_clock_to(judge, _game(judge).next_due_at)
    wait_until(lambda: _game(judge).current_phase not in ("F1901M", None), what="fall processed")
    wait_until(lambda: _mails(judge, MASTER, "yearly election"), what="the yearly election")
    for power in POWERS:
        _elect(judge, power, 0)

    # --- the Generals concede to Russia: the game ends, the winners are named ----------------
    for power in POWERS:
        if power != "RUSSIA":
            address, password, _ = _general(judge, power)
            _say(judge, address, password, power, "SET CONCEDE R")
    summary = wait_until(lambda: _mails(judge, MASTER, "Winners (the loyal members of Russia"),
                         what="the final summary")  # fmt: skip
    assert "spy working for" in text(summary[-1])
    assert _game(judge).state.value == "finished"
    # no mail before the final summary revealed a spy to anyone but that spy and the master
    with judge.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        spies = {uow.councils.person_of(m).primary_address for m in uow.councils.spies(game)}  # type: ignore[union-attr]
    secret_mails = 0
    for captured in judge.relay.received:
        body = text(captured.message)
        if re.search(r"\bspy\b|\bspies\b|\bespion", body, re.IGNORECASE) is None or "Winners (" in body:
            continue
        secret_mails += 1
        assert set(captured.rcpt_tos) <= {MASTER, *spies}, (captured.rcpt_tos, str(captured.message["Subject"]))
    assert secret_mails >= len(spies)  # each spy was told, and only he (and the master)
    assert CODE
