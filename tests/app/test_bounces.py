"""Bounces (issue 30): a bounce to a mail's VERP address is tied to that outbox mail and reader,
recorded, scored per address as the settings say, told once to the owner and the masters, and
never answered; a forged, unknown, tokenless or unreadable one changes nothing but its own record."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta

import pytest
from sqlalchemy import select

from judge.app.games.endgame import readers as end_readers
from judge.app.mail_out.bounces import next_score
from judge.app.mail_out.sender import TransactionalOutbox
from judge.db.enums import InboundState
from judge.db.models import AddressBounces, GameObserver, InboundMail, OutboundMail
from judge.mail.bounces import MAX_BOUNCE_BYTES, BounceKind
from judge.mail.outbound import drain_once
from tests.app.conftest import Harness, text
from tests.app.orders_helpers import MASTER, OBSERVER, address, start_game
from tests.mail.bounce_samples import autoreply, dsn, qmail_bounce

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

FRANCE = address("FRANCE")


class Relay:
    """Records each delivery's envelope sender and recipients."""

    def __init__(self) -> None:
        self.sent: list[tuple[str | None, tuple[str, ...]]] = []

    def deliver(
        self, message: bytes, recipients: Sequence[str], envelope_sender: str | None = None
    ) -> Mapping[str, str]:
        self.sent.append((envelope_sender, tuple(recipients)))
        return {}


def deliver_all(harness: Harness) -> Relay:
    relay = Relay()
    drain_once(TransactionalOutbox(harness.services), relay, harness.clock.now(), limit=1000)
    return relay


def last_mail_to(harness: Harness, reader: str) -> OutboundMail:
    with harness.db.unit_of_work(readonly=True) as uow:
        row = uow.session.scalars(
            select(OutboundMail).order_by(OutboundMail.id.desc())
        ).first()
        rows = [r for r in uow.session.scalars(select(OutboundMail).order_by(OutboundMail.id.desc())) if r.recipients == [reader]]
        assert row is not None and rows, f"no mail to {reader}"
        uow.session.expunge(rows[0])
        return rows[0]


def bounce(harness: Harness, raw: bytes, to: str) -> InboundMail:
    """Store ``raw`` as the door would for envelope recipient ``to`` (null sender), process it."""
    mail_id = harness.db.store_inbound_mail(raw, "", [to], harness.clock.now())
    harness.drain()
    with harness.db.unit_of_work(readonly=True) as uow:
        mail = uow.mail_in.get(mail_id)
        uow.session.expunge(mail)
        return mail


def record(harness: Harness, reader: str) -> AddressBounces | None:
    with harness.db.unit_of_work(readonly=True) as uow:
        row = uow.session.get(AddressBounces, reader)
        if row is not None:
            uow.session.expunge(row)
        return row


def verp_of(harness: Harness, mail: OutboundMail) -> str:
    return harness.services.verp.envelope_sender(mail.id, mail.recipients[0])


@pytest.mark.engine_sql
def test_each_mail_goes_out_from_its_own_verp_address(harness: Harness) -> None:
    harness.send("a@example.net", "VERSION\n")
    harness.send("b@example.net", "VERSION\n")
    harness.drain()
    relay = deliver_all(harness)
    assert len(relay.sent) == 2
    senders = [sender for sender, _readers in relay.sent]
    assert len(set(senders)) == 2
    for sender, (reader,) in relay.sent:
        assert sender is not None and sender.startswith("judge-bounces+") and sender.endswith("@example.org")
        token = harness.services.verp.token_of(sender)
        assert token is not None
        with harness.db.unit_of_work(readonly=True) as uow:
            row = uow.session.get(OutboundMail, token[0])
            assert row is not None and row.recipients == [reader]


def test_a_bounce_is_tied_to_its_mail_recorded_and_never_answered(harness: Harness) -> None:
    start_game(harness)
    harness.exchange(FRANCE, "VERSION\n")
    sent = last_mail_to(harness, FRANCE)
    harness.new_mail()
    mail = bounce(harness, dsn(verp_of(harness, sent), FRANCE), verp_of(harness, sent))
    assert harness.new_mail() == []  # no reply, no notice yet (one hard bounce is 1 of 5)
    assert mail.state is InboundState.IGNORED
    assert mail.error is not None and f"mail {sent.id} to {FRANCE}" in mail.error and "5.1.1" in mail.error
    with harness.db.unit_of_work(readonly=True) as uow:
        row = uow.session.get(OutboundMail, sent.id)
        assert row is not None and row.bounced_at == harness.clock.now()
        assert row.bounce is not None and row.bounce.startswith("hard: 5.1.1")
    score = record(harness, FRANCE)
    assert score is not None and score.score == 1.0 and score.bounces == 1 and score.bouncing_since is None


@pytest.mark.engine_sql
def test_a_bounce_carrying_commands_is_not_read_for_them(harness: Harness) -> None:
    start_game(harness)
    harness.exchange(FRANCE, "VERSION\n")
    sent = last_mail_to(harness, FRANCE)
    harness.new_mail()
    mail = bounce(harness, autoreply(verp_of(harness, sent)), verp_of(harness, sent))
    assert harness.new_mail() == []
    assert mail.state is InboundState.IGNORED and mail.error is not None and "no failure" in mail.error
    assert record(harness, FRANCE) is None  # an autoreply to the envelope sender is no bounce


@pytest.mark.parametrize(
    ("make_to", "why"),
    [
        (lambda h, sent: "judge-bounces@example.org", "without a token"),
        (lambda h, sent: "judge-bounces+whatever@example.org", "without a token"),
        (lambda h, sent: h.services.verp.envelope_sender(sent.id + 1000, sent.recipients[0]), "never sent"),
        # A real token for the mail, moved onto another reader's address: the hash says no.
        (lambda h, sent: h.services.verp.envelope_sender(sent.id, "england@example.net"), "forged token"),
        (lambda h, sent: f"judge-bounces+{sent.id}-aaaaaaaaaaaaaaaa@example.org", "forged token"),
    ],
)
def test_a_forged_or_unknown_token_changes_nothing(harness: Harness, make_to, why: str) -> None:  # type: ignore[no-untyped-def]
    start_game(harness)
    harness.exchange(FRANCE, "VERSION\n")
    sent = last_mail_to(harness, FRANCE)
    harness.new_mail()
    to = make_to(harness, sent)
    mail = bounce(harness, dsn(to, FRANCE), to)
    assert mail.state is InboundState.IGNORED and mail.error is not None and why in mail.error
    assert harness.new_mail() == []
    assert record(harness, FRANCE) is None and record(harness, "england@example.net") is None
    with harness.db.unit_of_work(readonly=True) as uow:
        row = uow.session.get(OutboundMail, sent.id)
        assert row is not None and row.bounced_at is None and row.bounce is None


def test_a_huge_or_broken_bounce_is_kept_and_scores_nothing(harness: Harness) -> None:
    start_game(harness)
    harness.exchange(FRANCE, "VERSION\n")
    sent = last_mail_to(harness, FRANCE)
    to = verp_of(harness, sent)
    huge = dsn(to, FRANCE) + b"x" * (MAX_BOUNCE_BYTES + 1)
    mail = bounce(harness, huge, to)
    assert mail.state is InboundState.IGNORED and mail.error is not None and "too large" in mail.error
    broken = bounce(harness, b"Content-Type: multipart/report; boundary=\"\r\n\r\n--\r\n\x00\xff\r\n", to)
    assert broken.state is InboundState.IGNORED
    assert record(harness, FRANCE) is None


def test_a_flood_of_bounces_counts_once_a_day(harness: Harness) -> None:
    start_game(harness)
    harness.exchange(FRANCE, "VERSION\n")
    sent = last_mail_to(harness, FRANCE)
    to = verp_of(harness, sent)
    for n in range(30):
        bounce(harness, dsn(to, FRANCE, tag=f"flood{n}"), to)
    score = record(harness, FRANCE)
    assert score is not None and score.score == 1.0 and score.bounces == 30
    harness.clock.advance(timedelta(days=1))
    bounce(harness, qmail_bounce(to, FRANCE), to)  # a server's own format, read by flufl.bounce
    score = record(harness, FRANCE)
    assert score is not None and score.score == 2.0


def test_the_score_follows_the_settings_rules() -> None:
    from datetime import UTC, datetime

    now = datetime(2026, 11, 23, tzinfo=UTC)
    rules = {"hard": 1.0, "soft": 0.5, "stale_days": 7}
    assert next_score(0.0, None, now, BounceKind.HARD, **rules) == (1.0, True)  # type: ignore[arg-type]
    assert next_score(1.0, now - timedelta(hours=23), now, BounceKind.HARD, **rules) == (1.0, False)  # type: ignore[arg-type]
    assert next_score(1.0, now - timedelta(days=1), now, BounceKind.SOFT, **rules) == (1.5, True)  # type: ignore[arg-type]
    assert next_score(4.0, now - timedelta(days=7), now, BounceKind.SOFT, **rules) == (0.5, True)  # type: ignore[arg-type]
    assert next_score(4.0, now - timedelta(days=2), now, BounceKind.NONE, **rules) == (4.0, False)  # type: ignore[arg-type]


def _bounce_daily(harness: Harness, reader: str, days: int) -> None:
    for day in range(days):
        sent = last_mail_to(harness, reader)
        to = verp_of(harness, sent)
        bounce(harness, dsn(to, reader, tag=f"day{day}"), to)
        harness.clock.advance(timedelta(days=1, minutes=1))


def test_past_the_threshold_the_player_and_master_are_told_once(harness: Harness) -> None:
    start_game(harness)
    with harness.db.unit_of_work() as uow:  # France has a second address to be told at
        person = uow.people.by_address(FRANCE)
        assert person is not None
        uow.people.add_address(person, "france.home@example.net", harness.clock.now())
    harness.exchange(FRANCE, "VERSION\n")
    harness.new_mail()
    _bounce_daily(harness, FRANCE, 4)
    assert harness.new_mail() == []  # 4 of 5
    _bounce_daily(harness, FRANCE, 1)
    told = harness.new_mail()
    assert sorted(str(m["To"]) for m in told) == sorted([MASTER, "france.home@example.net"])
    owner = next(m for m in told if str(m["To"]) == "france.home@example.net")
    assert FRANCE in text(owner) and "Bounces counted: 5," in text(owner) and "5.1.1" in text(owner)
    master = next(m for m in told if str(m["To"]) == MASTER)
    assert "FRANCE" in text(master) and "demo" in text(master)
    assert FRANCE not in master.as_string()  # the master learns the power, never the address
    score = record(harness, FRANCE)
    assert score is not None and score.bouncing_since is not None
    _bounce_daily(harness, FRANCE, 3)
    assert harness.new_mail() == []  # told once


@pytest.mark.engine_sql
def test_a_bouncing_observer_gets_no_more_mail_until_it_writes(harness: Harness) -> None:
    game = start_game(harness)
    harness.exchange(OBSERVER, "OBSERVE demo watchpw\nVERSION\n")
    _bounce_daily(harness, OBSERVER, 5)
    with harness.db.unit_of_work(readonly=True) as uow:
        [observer] = uow.session.scalars(select(GameObserver)).all()
        assert observer.held_for_bounces
    harness.new_mail()
    game.master("BROADCAST\nhello all\nENDBROADCAST\n")
    assert OBSERVER not in [str(m["To"]) for m in harness.others]
    harness.exchange(OBSERVER, "OBSERVE demo watchpw\n")  # the address works again
    assert record(harness, OBSERVER) is None
    with harness.db.unit_of_work(readonly=True) as uow:
        [observer] = uow.session.scalars(select(GameObserver)).all()
        assert not observer.held_for_bounces
    game.master("BROADCAST\nhello again\nENDBROADCAST\n")
    assert OBSERVER in [str(m["To"]) for m in harness.others]


def test_the_console_and_the_person_themself_see_the_score_and_nobody_else(harness: Harness) -> None:
    from judge.app.console.views import person_details

    start_game(harness)
    with harness.db.unit_of_work() as uow:
        person = uow.people.by_address(FRANCE)
        assert person is not None
        uow.people.add_address(person, "france.home@example.net", harness.clock.now())
    harness.exchange(FRANCE, "VERSION\n")
    _bounce_daily(harness, FRANCE, 5)
    with harness.db.unit_of_work(readonly=True) as uow:
        person = uow.people.by_address(FRANCE)
        assert person is not None
        [shown] = person_details(uow, person)["bounces"]
    assert shown["address"] == FRANCE and shown["score"] == 5.0 and shown["bounces"] == 5
    assert shown["bouncing_since"] is not None and "5.1.1" in shown["last_reason"]
    own = text(harness.exchange("france.home@example.net", "WHOIS france\n"))
    assert f"Mail to {FRANCE} bounces: 5 bounce(s)" in own and "marked bouncing since" in own
    other = text(harness.exchange(address("ENGLAND"), "WHOIS france\n"))
    assert "France" in other and "bounce" not in other.lower()


def test_judge_person_show_prints_the_bounce_score(harness: Harness, capsys: pytest.CaptureFixture[str]) -> None:
    from judge.cli import main

    start_game(harness)
    harness.exchange(FRANCE, "VERSION\n")
    _bounce_daily(harness, FRANCE, 2)
    capsys.readouterr()
    assert main(["person", "--url", harness.db.url, "show", FRANCE]) == 0
    out = capsys.readouterr().out
    assert f"bounces: {FRANCE} score 2 (2 bounce(s)" in out and "5.1.1" in out and "not bouncing yet" in out


def test_a_masters_notice_never_shows_the_players_address_even_in_the_servers_words(harness: Harness) -> None:
    from judge.app.mail_out.bounces import without_addresses

    assert without_addresses('550 5.1.1 <France@Example.net>: unknown user: "france@example.net"') == (
        '550 5.1.1 <<address>>: unknown user: "<address>"'
    )
    start_game(harness)
    harness.exchange(FRANCE, "VERSION\n")
    harness.new_mail()
    for day in range(5):
        sent = last_mail_to(harness, FRANCE)
        to = verp_of(harness, sent)
        bounce(harness, dsn(to, FRANCE, tag=f"d{day}", diagnostic=f"550 5.1.1 <{FRANCE}>: user unknown"), to)
        harness.clock.advance(timedelta(days=1, minutes=1))
    [told] = [m for m in harness.new_mail() if str(m["To"]) == MASTER]
    assert "5.1.1" in text(told) and FRANCE not in told.as_string()


def test_the_optional_dmarc_rule_and_judge_mail_show(
    harness: Harness, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from dataclasses import replace

    from judge.app.session.services import Services
    from judge.cli import main

    failed = "Authentication-Results: mx.example.org; spf=fail; dkim=none; dmarc=fail header.from=example.net\r\n"
    forged_below = "Authentication-Results: mx.example.org; spf=pass; dkim=none; dmarc=fail\r\n"
    passed = "Authentication-Results: mx.example.org; spf=pass; dkim=pass; dmarc=pass\r\n"
    strict = Services(
        db=harness.db, clock=harness.clock,
        config=replace(harness.services.config, authserv_id="mx.example.org", ignore_dmarc_fail=True),
    )  # fmt: skip
    harness.services = strict
    refused = harness.send("p@example.net", "VERSION\n", headers=failed)
    harness.drain()
    assert harness.new_mail() == []
    with harness.db.unit_of_work(readonly=True) as uow:
        mail = uow.mail_in.get(refused)
        assert mail.state is InboundState.IGNORED and mail.error is not None and mail.error.startswith("DMARC fail")
    harness.exchange("p@example.net", "VERSION\n", headers=passed + forged_below)  # the sender's own is never read
    monkeypatch.setenv("JUDGE_AUTHSERV_ID", "mx.example.org")
    capsys.readouterr()
    assert main(["mail", "--url", harness.db.url, "show", str(refused)]) == 0
    assert "authentication: spf=fail dkim=none dmarc=fail (by mx.example.org)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("raw_of", "kind", "score"),
    [
        (lambda to: dsn(to, FRANCE, original=False), "hard", 1.0),  # no returned mail: the token says which
        (lambda to: dsn(to, FRANCE, status="4.2.2", diagnostic="452 4.2.2 Mailbox full"), "soft", 0.5),
        (lambda to: dsn(to, FRANCE, status="4.4.1", action="delayed"), "none", None),  # a warning only
    ],
)
def test_a_bounce_is_scored_by_its_kind_even_without_the_returned_mail(
    harness: Harness, raw_of, kind: str, score: float | None  # type: ignore[no-untyped-def]
) -> None:
    start_game(harness)
    harness.exchange(FRANCE, "VERSION\n")
    sent = last_mail_to(harness, FRANCE)
    harness.new_mail()
    to = verp_of(harness, sent)
    mail = bounce(harness, raw_of(to), to)
    assert harness.new_mail() == []
    assert mail.state is InboundState.IGNORED and mail.error is not None
    with harness.db.unit_of_work(readonly=True) as uow:
        row = uow.session.get(OutboundMail, sent.id)
        assert row is not None and row.bounce is not None and row.bounce.startswith(f"{kind}: ")
    found = record(harness, FRANCE)
    if score is None:
        assert found is None and "no failure" in mail.error
    else:
        assert found is not None and found.score == score and f"bounce ({kind})" in mail.error


def test_a_flood_of_broken_and_forged_bounces_never_stops_the_judge(harness: Harness) -> None:
    """Garbage, forged tokens, unknown tokens and malformed DSNs to the bounce addresses: each kept,
    marked ignored, never answered; the player's next mail is answered as usual."""
    start_game(harness)
    harness.exchange(FRANCE, "VERSION\n")
    sent = last_mail_to(harness, FRANCE)
    harness.new_mail()
    real = verp_of(harness, sent)
    targets = [
        real, "judge-bounces@example.org", "judge-bounces+@example.org", "judge-bounces+1-x@example.org",
        f"judge-bounces+{sent.id}-{'z' * 16}@example.org", "judge-bounces+99999999-abcdefghijklmnop@example.org",
        "JUDGE-BOUNCES+" + real.split("+", 1)[1].upper(),
    ]  # fmt: skip
    bodies = [
        b"", b"\x00\xff" * 500, b"Content-Type: multipart/report; boundary=\"\"\r\n\r\n--\r\n",
        dsn(real, FRANCE).replace(b"Status: 5.1.1", b"Status: \x00"), dsn(real, FRANCE).replace(b"--B0UND", b"--"),
    ]  # fmt: skip
    ids = [
        harness.db.store_inbound_mail(body, "", [to], harness.clock.now())
        for to in targets for body in bodies
    ]  # fmt: skip
    harness.drain()
    with harness.db.unit_of_work(readonly=True) as uow:
        states = {uow.mail_in.get(mail_id).state for mail_id in ids}
    assert states == {InboundState.IGNORED}
    assert harness.new_mail() == []
    found = record(harness, FRANCE)
    # Only the real token (also in capitals: some servers change a local part's case) with a DSN
    # that says "failed" under a garbled status counts, as a soft failure, and once that day.
    assert found is not None and (found.score, found.bounces) == (0.5, 2)
    reply = harness.exchange(FRANCE, "VERSION\n")
    assert "VERSION" in text(reply).upper()


@pytest.mark.parametrize(
    ("language", "guide", "quoted"),
    [("en", "docs/master-guide.md", '"mail to FRANCE bounces"'), ("fr", "docs/fr/guide-maitre.md", "« le courrier à FRANCE revient »")],
)
def test_the_masters_guides_quote_the_notice_the_master_gets(
    harness: Harness, language: str, guide: str, quoted: str
) -> None:
    """What the master's guides (EN, FR) say the master is told: one mail whose subject they quote,
    naming the power, the count, when and the server's words, never the player's address."""
    from dataclasses import replace
    from pathlib import Path

    from judge.app.session.services import Services

    root = Path(__file__).resolve().parents[2]
    assert quoted in " ".join((root / guide).read_text(encoding="utf-8").split())
    harness.services = Services(
        db=harness.db, clock=harness.clock, config=replace(harness.services.config, bounce_threshold=1.0)
    )
    start_game(harness)
    if language != "en":
        harness.exchange(MASTER, f"SET LANGUAGE {language}\n")
    harness.exchange(FRANCE, "VERSION\n")
    harness.new_mail()
    sent = last_mail_to(harness, FRANCE)
    bounce(harness, dsn(verp_of(harness, sent), FRANCE), verp_of(harness, sent))
    [told] = [m for m in harness.new_mail() if str(m["To"]) == MASTER]
    assert str(told["Subject"]) == "XPY:demo - " + quoted.strip('"« »')
    body = text(told)
    assert "FRANCE" in body and ": 1," in body and "5.1.1" in body and FRANCE not in told.as_string()


def test_a_bouncing_observer_gets_no_results_until_it_writes(harness: Harness) -> None:
    """Not only broadcasts: the phase's results (the mail an observer mostly gets) stop too, and
    resume once a mail from the address arrives."""
    game = start_game(harness)
    harness.exchange(OBSERVER, "OBSERVE demo watchpw\nVERSION\n")
    _bounce_daily(harness, OBSERVER, 5)
    harness.new_mail()
    game.master("PROCESS\n")
    results = [m for m in harness.others if "Results" in str(m["Subject"])]
    assert results and OBSERVER not in [str(m["To"]) for m in results]
    harness.exchange(OBSERVER, "VERSION\n")  # the address works again
    game.master("PROCESS\n")
    results = [m for m in harness.others if "Results" in str(m["Subject"])]
    assert OBSERVER in [str(m["To"]) for m in results]


def test_a_bouncing_observer_gets_neither_the_game_starting_mail_nor_the_end(harness: Harness) -> None:
    """The start and the end of a game, which pick their readers on their own, leave the bouncing
    observer out as well; the players and the master get both."""
    for person in ("ann@example.net", "bob@example.net", MASTER):
        harness.exchange(person, f"REGISTER\nName: {person[:3].title()}\nCountry: France\nEND\n")
    harness.exchange(MASTER, "CREATE ?duel Mpw france_austria\nBECOME MASTER\nSET MANUAL PROCESS\n")
    harness.exchange(OBSERVER, "OBSERVE duel watchpw\n")
    _bounce_daily(harness, OBSERVER, 5)
    harness.new_mail()
    harness.exchange("ann@example.net", "SIGNON ?duel Apw france_austria\n")
    harness.exchange("bob@example.net", "SIGNON ?duel Bpw france_austria\n")
    starting = [str(m["To"]) for m in harness.others if "Game Starting" in str(m["Subject"])]
    assert {"ann@example.net", "bob@example.net", MASTER} <= set(starting) and OBSERVER not in starting
    with harness.db.unit_of_work(readonly=True) as uow:
        final = end_readers(uow.games.require("duel"))  # who gets the final summary: a draw, a solo, the end
        ended = [address for addresses in final.values() for address in addresses]
    assert {"ann@example.net", "bob@example.net", MASTER} <= set(ended) and OBSERVER not in ended
