"""A real Postfix in front of `judge serve` (issue 30), configured as deploy/postfix says: a
player's mail goes through Postfix to the judge's door, the judge's reply through Postfix into the
player's Maildir, from the reply's own VERP envelope sender; a reply to an address Postfix has no
mailbox for makes Postfix send a real bounce to that VERP address, which the judge reads, ties to
the mail and reader, scores, and (past the threshold, here 1) tells the player's other address and
the game's master, through Postfix again. A short game is formed, started and played through
Postfix too: every mail in and out of it crosses the same configuration. Never skipped in CI:
.ci/run installs Postfix and sets JUDGE_TEST_POSTFIX=required (or CI set), under which a Postfix
that cannot run fails the test."""

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

pytestmark = pytest.mark.engine_blind  # the engine cannot change what these check: SQLite only

PLAYER = f"francois@{PLAYERS_DOMAIN}"
GHOST = f"ghost@{PLAYERS_DOMAIN}"  # registered, but Postfix has no mailbox for it
OTHER = f"francois.home@{PLAYERS_DOMAIN}"  # the ghost's other registered address
MASTER = f"master@{PLAYERS_DOMAIN}"


ANNA = f"anna@{PLAYERS_DOMAIN}"
MAILBOXES = ("francois", "francois.home", "master", "anna")


@pytest.fixture
def setup(judge_factory: JudgeFactory) -> Iterator[tuple[E2EJudge, PrivatePostfix]]:
    why = unavailable()
    if why is not None:
        if os.environ.get("JUDGE_TEST_POSTFIX") == "required" or os.environ.get("CI"):
            pytest.fail(f"CI must run the Postfix test (JUDGE_TEST_POSTFIX=required): {why}")
        pytest.skip(why)
    port = free_port()
    judge = judge_factory(JUDGE_RELAY=f"smtp://127.0.0.1:{port}", JUDGE_BOUNCE_THRESHOLD="1")
    postfix = PrivatePostfix(port, judge.port, MAILBOXES)
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
        recorded = (  # shown with -s: the closing note's evidence
            f"mail_out {row.id}: bounced_at={row.bounced_at} bounce={row.bounce!r}\n"
            f"mail_in {bounce[0].id}: state={bounce[0].state.value} mail_from={bounce[0].mail_from!r} "
            f"rcpt_tos={bounce[0].rcpt_tos} error={bounce[0].error!r}\n"
            f"address_bounces {score.address}: score={score.score:g} bounces={score.bounces} "
            f"last_reason={score.last_reason!r} bouncing_since={score.bouncing_since}\n"
            "--- the bounce Postfix sent, as stored (its first 3000 bytes):\n"
            + bounce[0].raw[:3000].decode("utf-8", "replace")
        )

    # Past the threshold (1 here): the ghost's other address and the master are told, by Postfix.
    [owner] = arrived(postfix, "francois.home")
    assert GHOST in text(owner) and "5.1.1" in text(owner)
    [told] = [m for m in arrived(postfix, "master") if "bounces" in str(m["Subject"])]
    assert "FRANCE" in text(told) and "demo" in text(told) and GHOST not in told.as_string()
    print("--- the bounce as the judge recorded it:\n" + recorded)
    print("--- the mail the master got:\n" + told.as_string())


def test_a_short_game_formed_started_and_played_through_postfix(setup: tuple[E2EJudge, PrivatePostfix]) -> None:
    """A master creates a two-player game, two players join it and it starts, both order, the master
    processes: every mail in and out goes through Postfix, each reply from its own VERP sender,
    each addressed to its one reader."""
    judge, postfix = setup
    with judge.db.unit_of_work() as uow:
        now = judge.clock.now()
        for name, address in (("Master", MASTER), ("Francois", PLAYER), ("Anna", ANNA)):
            uow.people.register(Registration(name=name), address, now)
    boxes = {MASTER: "master", PLAYER: "francois", ANNA: "anna"}
    seen = dict.fromkeys(boxes, 0)

    def exchange(sender: str, body: str) -> list[EmailMessage]:
        """Send through Postfix; the mails that reach the sender's box (his reply first)."""
        through_postfix(postfix, build_mail(sender, body), sender)
        mails = arrived(postfix, boxes[sender], seen[sender] + 1)
        new = mails[seen[sender]:]
        seen[sender] = len(mails)
        assert not any("[Error Flag]" in str(m["Subject"]) for m in new), "\n---\n".join(text(m) for m in new)
        return new

    exchange(MASTER, "CREATE ?duel Mpw france_austria\nBECOME MASTER\nSET MANUAL PROCESS\n")
    exchange(PLAYER, "SIGNON ?duel Fpw france_austria\n")
    exchange(ANNA, "SIGNON ?duel Apw france_austria\n")
    starting = {
        address: [m for m in arrived(postfix, box, 2) if "Game Starting" in str(m["Subject"])]
        for address, box in boxes.items()
    }
    for address, mails in starting.items():
        assert len(mails) == 1, address
        assert str(mails[0]["To"]) == address  # one reader per mail, through Postfix too
        assert str(mails[0]["Return-Path"]).startswith("<judge-bounces+")
    with judge.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("duel")
        by_name = {seat.person.name: seat.power for seat in game.seats if seat.person is not None}
    players = ((PLAYER, by_name["Francois"], "Fpw"), (ANNA, by_name["Anna"], "Apw"))
    assert sorted(power for _, power, _ in players) == ["AUSTRIA", "FRANCE"]
    orders = {"FRANCE": "A PAR-BUR\n", "AUSTRIA": "A VIE-TYR\n"}
    for address, power, password in players:
        exchange(address, f"SIGNON {power[0]}duel {password}\n{orders[power]}")
    seen = {address: len(postfix.maildir(box)) for address, box in boxes.items()}
    exchange(MASTER, "SIGNON Mduel Mpw\nPROCESS\n")
    for address, box in boxes.items():
        results = wait_until(
            lambda box=box: [m for m in postfix.maildir(box) if "Movement results for Spring of 1901." in text(m)],
            what=f"the results in {box}'s Maildir\n{postfix.log()[-3000:]}",
        )
        assert len(results) == 1 and str(results[0]["To"]) == address
        assert "France:  Army Paris -> Burgundy." in text(results[0])
        assert "Austria: Army Vienna -> Tyrolia." in text(results[0])
