"""A real Postfix in front of `judge serve` (issue 30), configured as deploy/postfix says: a
player's mail goes through Postfix to the judge's door, the judge's reply through Postfix into the
player's Maildir, from the reply's own VERP envelope sender; a reply to an address Postfix has no
mailbox for makes Postfix send a real bounce to that VERP address, which the judge reads, ties to
the mail and reader, scores, and (past the threshold, here 1) tells the player's other address and
the game's master, through Postfix again. Never skipped in CI: .ci/run installs Postfix."""

from __future__ import annotations

import os
import smtplib
from collections.abc import Iterator
from email.message import EmailMessage

import pytest

from judge.db.enums import InboundState
from judge.db.models import AddressBounces, InboundMail, OutboundMail
from judge.db.repositories.people import Registration
from tests.e2e.conftest import JudgeFactory
from tests.e2e.harness import JUDGE, E2EJudge, build_mail, free_port, text, wait_until, wire
from tests.e2e.postfix import PLAYERS_DOMAIN, PrivatePostfix, unavailable

PLAYER = f"francois@{PLAYERS_DOMAIN}"
GHOST = f"ghost@{PLAYERS_DOMAIN}"  # registered, but Postfix has no mailbox for it
OTHER = f"francois.home@{PLAYERS_DOMAIN}"  # the ghost's other registered address
MASTER = f"master@{PLAYERS_DOMAIN}"


@pytest.fixture
def setup(judge_factory: JudgeFactory) -> Iterator[tuple[E2EJudge, PrivatePostfix]]:
    why = unavailable()
    if why is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the Postfix test: {why}")
        pytest.skip(why)
    port = free_port()
    judge = judge_factory(JUDGE_RELAY=f"smtp://127.0.0.1:{port}", JUDGE_BOUNCE_THRESHOLD="1")
    postfix = PrivatePostfix(port, judge.port, ("francois", "francois.home", "master"))
    try:
        postfix.start()
        yield judge, postfix
    finally:
        postfix.stop()


def through_postfix(postfix: PrivatePostfix, message: EmailMessage, sender: str) -> None:
    with smtplib.SMTP("127.0.0.1", postfix.port, timeout=30) as client:
        client.sendmail(sender, [JUDGE], wire(message))


def arrived(postfix: PrivatePostfix, box: str, count: int = 1) -> list[EmailMessage]:
    return wait_until(
        lambda: (lambda found: found if len(found) >= count else [])(postfix.maildir(box)),
        what=f"{count} mail(s) in {box}'s Maildir\n{postfix.log()[-3000:]}",
    )


def test_mail_in_and_out_through_postfix_and_a_real_bounce_scored_and_told(
    setup: tuple[E2EJudge, PrivatePostfix],
) -> None:
    judge, postfix = setup
    with judge.db.unit_of_work() as uow:  # a game whose France is the ghost, with a master
        now = judge.clock.now()
        game = uow.games.create("demo", now)
        ghost = uow.people.register(Registration(name="Francois"), GHOST, now)
        uow.people.add_address(ghost, OTHER, now)
        uow.seats.join(game, ghost, "pwf", now, power="FRANCE")
        master = uow.people.register(Registration(name="Master"), MASTER, now)
        uow.games.add_master(game, master, "masterpw", now)

    # In and out: the player's mail through Postfix to the door, the reply through Postfix.
    through_postfix(postfix, build_mail(PLAYER, "VERSION\n", subject="hello"), PLAYER)
    [reply] = arrived(postfix, "francois")
    assert reply["Auto-Submitted"] == "auto-replied" and "VERSION" in text(reply).upper()
    return_path = str(reply["Return-Path"])
    assert return_path.startswith("<judge-bounces+") and return_path.endswith("@example.org>")

    # A reply to the ghost: Postfix accepts it, finds no mailbox and bounces it to the VERP address.
    through_postfix(postfix, build_mail(GHOST, "SIGNON Fdemo pwf\n", subject="orders"), GHOST)

    def bounced() -> OutboundMail | None:
        with judge.db.unit_of_work(readonly=True) as uow:
            rows = [r for r in uow.session.query(OutboundMail) if r.recipients == [GHOST] and r.bounce]
            return rows[0] if rows else None

    row = wait_until(bounced, what=f"the ghost's bounce recorded\n{postfix.log()[-3000:]}")
    assert row.bounce is not None and row.bounce.startswith("hard: 5.1.1")
    with judge.db.unit_of_work(readonly=True) as uow:
        bounce = [m for m in uow.session.query(InboundMail) if m.error and m.error.startswith("bounce (hard)")]
        assert len(bounce) == 1 and bounce[0].state is InboundState.IGNORED and bounce[0].mail_from in ("", "<>")
        assert f"for mail {row.id} to {GHOST}" in (bounce[0].error or "")
        score = uow.session.get(AddressBounces, GHOST)
        assert score is not None and score.score == 1.0 and score.bouncing_since is not None

    # Past the threshold (1 here): the ghost's other address and the master are told, by Postfix.
    [owner] = arrived(postfix, "francois.home")
    assert GHOST in text(owner) and "5.1.1" in text(owner)
    [told] = [m for m in arrived(postfix, "master") if "bounces" in str(m["Subject"])]
    assert "FRANCE" in text(told) and "demo" in text(told) and GHOST not in told.as_string()
    print("--- the bounce as the judge recorded it:", row.id, row.bounce)
    print("--- the mail the master got:\n" + told.as_string())
