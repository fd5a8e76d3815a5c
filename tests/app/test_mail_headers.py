"""The headers robots and mailbox providers expect (issue 30), checked on each kind of mail as the
sender hands it to the relay: replies, a game's replies, generated mail, a game's broadcast to its
players and to an observer (List-Unsubscribe by mail, and RFC 8058's one click when the web role is
on over HTTPS), with the observer's unsubscribe carried out and a forged one refused."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient

from judge.app.mail_out.sender import TransactionalOutbox
from judge.app.session.services import Services
from judge.db.enums import InboundState
from judge.db.models import GameObserver, OutboundMail
from judge.mail.outbound import drain_once
from judge.web.app import create_app
from tests.app.conftest import Harness
from tests.app.orders_helpers import MASTER, OBSERVER, address, start_game
from tests.mail.bounce_samples import dsn

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

STRANGER = "stranger@example.net"


class Relay:
    def __init__(self) -> None:
        self.sent: list[EmailMessage] = []

    def deliver(
        self, message: bytes, recipients: Sequence[str], envelope_sender: str | None = None
    ) -> Mapping[str, str]:
        parsed = message_from_bytes(message, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        self.sent.append(parsed)
        return {}


def delivered(services: Services, harness: Harness) -> list[EmailMessage]:
    relay = Relay()
    drain_once(TransactionalOutbox(services), relay, harness.clock.now(), limit=1000)
    return relay.sent


def to(messages: list[EmailMessage], reader: str) -> EmailMessage:
    [message] = [m for m in messages if str(m["To"]) == reader]
    return message


def common(message: EmailMessage) -> None:
    """What every mail of the judge carries."""
    assert str(message["Message-ID"]).endswith("@example.org>")
    assert str(message["From"]) == "Diplomacy Judge <judge@example.org>"
    assert len(message["To"].addresses) == 1
    assert str(message["X-Judge"]) == "XPY judge@example.org"
    assert message["X-Auto-Response-Suppress"] == "All" and message["Date"]


def test_a_reply_to_a_person(harness: Harness) -> None:
    harness.send(STRANGER, "VERSION\n")
    harness.drain()
    [reply] = delivered(harness.services, harness)
    common(reply)
    assert reply["Auto-Submitted"] == "auto-replied"
    assert reply["In-Reply-To"] == "<m1@test>" and "<m1@test>" in str(reply["References"])
    for absent in ("Precedence", "List-Id", "List-Unsubscribe", "List-Unsubscribe-Post"):
        assert reply[absent] is None, absent


def test_a_games_reply_and_broadcast_to_players_master_and_observer(harness: Harness) -> None:
    game = start_game(harness)
    harness.exchange(OBSERVER, "OBSERVE demo watchpw\nVERSION\n")
    delivered(harness.services, harness)
    game.master("BROADCAST\nhello all\nENDBROADCAST\n")
    sent = delivered(harness.services, harness)
    reply = to(sent, MASTER)
    common(reply)
    assert reply["Auto-Submitted"] == "auto-replied" and reply["Precedence"] is None
    assert reply["List-Id"] == "XPY game demo <demo.xpy.example.org>"
    player = next(m for m in sent if str(m["To"]) == address("FRANCE"))
    common(player)
    assert player["Auto-Submitted"] == "auto-generated" and player["Precedence"] == "bulk"
    assert player["List-Id"] == "XPY game demo <demo.xpy.example.org>"
    assert player["List-Unsubscribe"] is None  # a player leaves with RESIGN, not a click
    watcher = to(sent, OBSERVER)
    common(watcher)
    assert watcher["List-Id"] == "XPY game demo <demo.xpy.example.org>"
    unsubscribe = str(watcher["List-Unsubscribe"])
    assert unsubscribe.startswith("<mailto:judge-bounces+u") and unsubscribe.endswith("@example.org?subject=unsubscribe>")
    assert watcher["List-Unsubscribe-Post"] is None  # no HTTPS web address configured
    assert OBSERVER not in unsubscribe and "watchpw" not in watcher.as_string()


def test_generated_mail_about_no_game(harness: Harness) -> None:
    from judge.app.mail_out import outbox

    with harness.db.unit_of_work() as uow:
        outbox.queue(uow, harness.services, [STRANGER], "XPY: notice", "text\n", harness.clock.now())
    [notice] = delivered(harness.services, harness)
    common(notice)
    assert notice["Auto-Submitted"] == "auto-generated" and notice["Precedence"] == "bulk"
    assert notice["List-Id"] is None and notice["List-Unsubscribe"] is None and notice["In-Reply-To"] is None


def _observer_ids(harness: Harness) -> list[int]:
    with harness.db.unit_of_work(readonly=True) as uow:
        return list(uow.session.scalars(select(GameObserver.id)))


def _unsubscribe_address(message: EmailMessage) -> str:
    value = str(message["List-Unsubscribe"])
    return value[value.index("<mailto:") + len("<mailto:") : value.index("?subject")]


def test_the_mailto_unsubscribe_stops_the_observer_and_a_forged_one_does_not(harness: Harness) -> None:
    game = start_game(harness)
    game.master("BROADCAST\nhello all\nENDBROADCAST\n")
    watcher = to(delivered(harness.services, harness), OBSERVER)
    mailto = _unsubscribe_address(watcher)
    forged = mailto.replace(mailto.split("-")[-1].split("@")[0], "a" * 16)
    for target in (forged, mailto.replace("+u", "+u9")):
        harness.db.store_inbound_mail(b"Subject: unsubscribe\r\n\r\n", OBSERVER, [target], harness.clock.now())
        harness.drain()
    assert len(_observer_ids(harness)) == 1
    mail_id = harness.db.store_inbound_mail(
        b"From: watcher@example.net\r\nSubject: unsubscribe\r\n\r\nSIGNON Mdemo masterpw\r\n",
        OBSERVER, [mailto], harness.clock.now(),
    )  # fmt: skip
    harness.drain()
    assert _observer_ids(harness) == []
    with harness.db.unit_of_work(readonly=True) as uow:
        mail = uow.mail_in.get(mail_id)
        assert mail.state is InboundState.IGNORED and mail.error is not None and "stopped observing" in mail.error
    assert delivered(harness.services, harness) == []  # never answered, never read for commands
    game.master("BROADCAST\nagain\nENDBROADCAST\n")
    assert OBSERVER not in [str(m["To"]) for m in delivered(harness.services, harness)]


@pytest.mark.engine_sql
def test_the_one_click_unsubscribe_of_the_web_role(harness: Harness) -> None:
    web = Services(
        db=harness.db, config=replace(harness.services.config, web_base_url="https://judge.example.org/dip"),
        clock=harness.clock,
    )  # fmt: skip
    game = start_game(harness)
    game.master("BROADCAST\nhello all\nENDBROADCAST\n")
    watcher = to(delivered(web, harness), OBSERVER)
    value = str(watcher["List-Unsubscribe"])
    assert value.startswith("<https://judge.example.org/dip/unsubscribe/u") and ", <mailto:judge-bounces+u" in value
    assert watcher["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    path = value[1 : value.index(">")].removeprefix("https://judge.example.org/dip")
    one_click = {"content": b"List-Unsubscribe=One-Click", "headers": {"Content-Type": "application/x-www-form-urlencoded"}}
    with TestClient(create_app(web, rate=10_000, burst=10_000)) as client:
        assert client.get(path).status_code == 405  # a link checker's GET changes nothing
        assert client.post(path, content=b"").status_code == 400
        assert client.post(path[:-3] + "aaa", **one_click).status_code == 404  # type: ignore[arg-type]
        assert client.post("/unsubscribe/u1-notatoken", **one_click).status_code == 400  # type: ignore[arg-type]
        assert len(_observer_ids(harness)) == 1
        answer = client.post(path, **one_click)  # type: ignore[arg-type]
        assert answer.status_code == 200 and "unsubscribed" in answer.text
        assert client.post(path, **one_click).status_code == 404  # type: ignore[arg-type]
    assert _observer_ids(harness) == []


@pytest.mark.parametrize("name", ["List-Id", "List-Unsubscribe"])
def test_no_list_header_is_written_into_the_outbox_row(harness: Harness, name: str) -> None:
    """The headers depend on the reader's place in the game when the mail goes out: the row
    keeps the mail as rendered, and the sender adds them."""
    game = start_game(harness)
    game.master("BROADCAST\nhello all\nENDBROADCAST\n")
    assert all(message[name] is None for message in harness.outbox())


def test_a_phases_results_to_players_master_and_observer(harness: Harness) -> None:
    """The mail most often sent in bulk: each reader's results (with the map attached as the
    sender delivers them) carries the generated mail's headers and the game's List-Id; the
    observer's copy alone carries List-Unsubscribe."""
    game = start_game(harness)
    delivered(harness.services, harness)
    game.master("PROCESS\n")
    sent = [m for m in delivered(harness.services, harness) if "Results" in str(m["Subject"])]
    readers = {str(m["To"]) for m in sent}
    assert {address("FRANCE"), MASTER, OBSERVER} <= readers and len(readers) == len(sent)
    for message in sent:
        common(message)
        assert message["Auto-Submitted"] == "auto-generated" and message["Precedence"] == "bulk"
        assert message["In-Reply-To"] is None and message["References"] is None
        assert message["List-Id"] == "XPY game demo <demo.xpy.example.org>"
        assert message.get_content_type() == "multipart/mixed"  # the map, attached at delivery
        observer = str(message["To"]) == OBSERVER
        assert (message["List-Unsubscribe"] is not None) is observer, message["To"]
        assert message["List-Unsubscribe-Post"] is None


@pytest.mark.engine_sql
def test_the_bounce_notices_to_the_owner_and_the_master(harness: Harness) -> None:
    """The notices of a bouncing address: generated mail; the master's is about the game (List-Id),
    the owner's about no game."""
    start_game(harness)
    france = address("FRANCE")
    with harness.db.unit_of_work() as uow:
        person = uow.people.by_address(france)
        assert person is not None
        uow.people.add_address(person, "france.home@example.net", harness.clock.now())
    harness.exchange(france, "VERSION\n")
    delivered(harness.services, harness)
    for day in range(5):  # one hard bounce a day to France's last mail: the threshold (5) on day 5
        with harness.db.unit_of_work(readonly=True) as uow:
            rows = [r.id for r in uow.session.scalars(select(OutboundMail)) if r.recipients == [france]]
        verp = harness.services.verp.envelope_sender(max(rows), france)
        harness.db.store_inbound_mail(dsn(verp, france, tag=f"n{day}"), "", [verp], harness.clock.now())
        harness.drain()
        harness.clock.advance(timedelta(days=1, minutes=1))
    sent = delivered(harness.services, harness)
    owner, master = to(sent, "france.home@example.net"), to(sent, MASTER)
    for message in (owner, master):
        common(message)
        assert message["Auto-Submitted"] == "auto-generated" and message["Precedence"] == "bulk"
        assert message["In-Reply-To"] is None and message["List-Unsubscribe"] is None
    assert owner["List-Id"] is None
    assert master["List-Id"] == "XPY game demo <demo.xpy.example.org>"
