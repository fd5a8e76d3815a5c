"""Seed 003, rules 2, 9 and 10: spies never revealed before the end; the game ends by the
Generals' unanimous concession; the final summary reveals every spy and names the winners."""

from __future__ import annotations

import re
from email.message import EmailMessage

import pytest

from tests.app.conftest import Harness, text
from tests.app.councils_helpers import (
    LETTER,
    MASTER,
    POWERS,
    Seated,
    ambassador,
    elected_council_game,
    form_council_game,
    general,
    seated,
)
from tests.app.reports_helpers import process

pytestmark = pytest.mark.engine_blind  # mail routing and wording: SQLite only, but the tests marked engine_sql

SECRET_WORDS = re.compile(r"\bspy\b|\bspies\b|\bespion", re.IGNORECASE)


def _recipients(message: EmailMessage) -> set[str]:
    return {a.strip() for a in str(message["To"]).split(",")}


def _concede_to_russia(harness: Harness, members: list[Seated]) -> None:
    for power in POWERS:
        if power != "RUSSIA":
            gen = general(members, power)
            harness.exchange(gen.address, f"{gen.signon}\nSET CONCEDE R\n")


def _play_a_while(harness: Harness, members: list[Seated]) -> None:
    """Ambassadors negotiate, Generals order and talk to their councils, players ask for listings."""
    for power in POWERS:
        amb = ambassador(members, power)
        other = POWERS[(POWERS.index(power) + 1) % 7]
        harness.exchange(
            amb.address,
            f"{amb.signon}\nPRESS TO {LETTER[other]}\nLet us talk, {other}.\nENDPRESS\n",
        )
        gen = general(members, power)
        harness.exchange(
            gen.address, f"{gen.signon}\nPRESS TO {LETTER[power]}\nOrders are coming.\nENDPRESS\n"
        )
    spy = next(m for m in members if m.true_power is not None)
    harness.exchange(
        spy.address,
        f"{spy.signon}\nBROADCAST\nI am a loyal servant.\nENDPRESS\nLIST demo\nWHOGAME demo\n",
    )
    france = general(members, "FRANCE")
    harness.exchange(
        france.address, f"{france.signon}\nA Par-Bur\nA Mar-Spa\nF Bre-Mao\nSUMMARY demo\n"
    )
    process(harness, "demo")


def test_no_mail_reveals_a_spy_to_anyone_but_that_spy_and_the_master(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    _play_a_while(harness, members)
    spies = {m.address: m for m in members if m.true_power is not None}
    mails = harness.outbox()
    assert len(mails) > 60
    for message in mails:
        body = text(message)
        for reader in _recipients(message):
            if reader == MASTER:
                continue
            if reader in spies:
                if SECRET_WORDS.search(body):
                    assert "Your council" in str(message["Subject"]), body
                    assert reader in _recipients(message) and len(_recipients(message)) == 1
                continue
            assert not SECRET_WORDS.search(body), (reader, message["Subject"], body)
    # the check can fail: the spies' own notices do speak of spies
    assert any(SECRET_WORDS.search(text(m)) for m in mails if _recipients(m) <= set(spies))


def test_an_ambassadors_concession_is_refused_and_the_generals_end_the_game(
    harness: Harness,
) -> None:
    form_council_game(harness, years=7)
    members = seated(harness)
    amb = ambassador(members, "FRANCE")
    reply = text(harness.exchange(amb.address, f"{amb.signon}\nSET CONCEDE R\n"))
    assert "may concede for France" in reply
    _concede_to_russia(harness, members)
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        assert game.state.value == "finished"
        assert game.extra_settings["outcome"]["kind"] == "concession"
        assert game.extra_settings["outcome"]["scoring"] == "c-diplo"


def test_the_final_summary_reveals_every_spy_and_names_the_winners(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    _concede_to_russia(harness, members)
    summaries = [text(m) for m in harness.outbox() if "The councils, spies revealed:" in text(m)]
    assert summaries
    summary = summaries[-1]
    assert summary.count("spy working for") == 7
    winners_block = summary.split(
        "Winners (the loyal members of Russia and the spies working for it):"
    )[1]
    named = set(re.findall(r"p\d+@example\.net", winners_block))
    loyal_russians = {m.address for m in members if m.power == "RUSSIA" and m.true_power is None}
    working_for_russia = {m.address for m in members if m.true_power == "RUSSIA"}
    assert named == loyal_russians | working_for_russia
    assert len(named) == 3  # two loyal Russians and the spy working for Russia from another council
    russian_spy = next(m for m in members if m.power == "RUSSIA" and m.true_power is not None)
    assert russian_spy.address not in named


def _member_id(harness: Harness, address: str) -> int:
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        member = uow.councils.member_of_person(game, uow.people.by_address(address))
        assert member is not None
        return member.id


def _council_block(summary: str, power: str) -> str:
    """One council's part of the story: from its name to the next council's (or the winners)."""
    after = summary.split(f"\n   {power}\n", 1)[1]
    return re.split(r"\n   [A-Z][a-z]+\n|\nWinners", after, maxsplit=1)[0]


@pytest.mark.engine_sql
def test_the_final_summary_tells_the_story_of_the_councils_to_everyone_at_the_end(harness: Harness) -> None:
    """Issue 26: the final summary reads as the councils' story (members, elections, treason, departures),
    told only once the game is over, to every member who ever sat (one who resigned too), each alone;
    the secrets the seed keeps for ever (a first accusation never acted on) stay out of it."""
    members = elected_council_game(harness)  # the first elections: each council keeps its provisional General
    france_general, france_1, france_2 = (
        general(members, "FRANCE"), ambassador(members, "FRANCE", 1), ambassador(members, "FRANCE", 2))
    for accuser in (france_general, france_1):
        harness.exchange(accuser.address, f"{accuser.signon}\nACCUSE {_member_id(harness, france_2.address)}\n")
    harness.exchange(france_1.address, f"{france_1.signon}\nACCUSE WITHDRAW {_member_id(harness, france_2.address)}\n")
    germany_general, germany_1, germany_2 = (
        general(members, "GERMANY"), ambassador(members, "GERMANY", 1), ambassador(members, "GERMANY", 2))
    for accuser in (germany_general, germany_1):
        harness.exchange(accuser.address, f"{accuser.signon}\nACCUSE {_member_id(harness, germany_2.address)}\n")
    italy_1, italy_2 = ambassador(members, "ITALY", 1), ambassador(members, "ITALY", 2)
    harness.exchange(italy_1.address, f"{italy_1.signon}\nACCUSE {_member_id(harness, italy_2.address)}\n")
    leaver = ambassador(members, "ENGLAND", 2)
    assert "You have resigned" in text(harness.exchange(leaver.address, f"{leaver.signon}\nRESIGN\n"))
    before = harness.outbox()
    assert not any("The councils, spies revealed:" in text(m) for m in before)  # nothing told before the end
    _concede_to_russia(harness, members)
    ends = [m for m in harness.outbox()[len(before):] if "The councils, spies revealed:" in text(m)]
    readers = [str(m["To"]) for m in ends]
    assert all("," not in reader for reader in readers) and len(readers) == len(set(readers))  # each alone
    assert set(readers) == {m.address for m in members} | {MASTER}  # the resigned member too
    summary = "\n".join(text(next(m for m in ends if str(m["To"]) == MASTER)).splitlines())
    assert all(text(m) == text(ends[0]) for m in ends)  # the same story for everyone (all read English)
    france = _council_block(summary, "France")
    name = f"P{france_general.address[1:].split('@')[0]} ({france_general.address})"
    assert f"1901, first election: {name} elected" in france
    assert "Accusations of treason:" in france and "rehabilitated" in france
    accusers = f"accused by {name}, P{france_1.address[1:].split('@')[0]} ({france_1.address}): rehabilitated"
    assert accusers in france  # both accusers named (the one who withdrew too), now that the game is over
    assert "still under arrest at the end" in _council_block(summary, "Germany")
    assert "Accusations of treason" not in _council_block(summary, "Italy")  # one accuser only: never acted on
    england = _council_block(summary, "England")
    assert f"member: P{leaver.address[1:].split('@')[0]} ({leaver.address})" in england
    assert "resigned (Movement for Spring of 1901)" in england
    for member in members:
        line = next(line for line in summary.splitlines() if f"({member.address})" in line)
        assert ("spy working for" in line) == (member.true_power is not None), line
