"""Seed 003, rules 2, 9 and 10: spies never revealed before the end; the game ends by the
Generals' unanimous concession; the final summary reveals every spy and names the winners."""

from __future__ import annotations

import re
from email.message import EmailMessage

from tests.app.conftest import Harness, text
from tests.app.councils_helpers import (
    LETTER,
    MASTER,
    POWERS,
    Seated,
    ambassador,
    form_council_game,
    general,
    seated,
)
from tests.app.reports_helpers import process

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
