"""A mail delivered twice is carried out once.

A mail server that lost the judge's 250 delivers the mail again; the judge stores the second
delivery (nothing received is dropped), marks it ``duplicate`` with the id of the first, and
neither answers it nor carries out its commands: a ``PRESS TO ALL`` goes out once. Two
deliveries are the same mail when they have the same Message-ID, envelope sender and body
(judge.mail.once); without a Message-ID, only the very same bytes are. What it reveals: nothing,
to nobody (no mail at all).
"""

from __future__ import annotations

from judge.config import DEFAULT_DUPLICATE_DAYS
from judge.db.enums import InboundState
from judge.db.models import InboundMail
from judge.mail.once import once_key
from tests.app.conftest import JUDGE, Harness
from tests.app.orders_helpers import address, start_game

FRANCE = address("FRANCE")
PRESS = "SIGNON Fdemo pwfrance\r\nPRESS TO ALL\r\nHello, Europe.\r\nENDPRESS\r\n"


def _raw(body: str = PRESS, *, message_id: str | None = "<once@player.test>", received: str = "") -> bytes:
    head = f"{received}From: {FRANCE}\r\nTo: {JUDGE}\r\nSubject: press\r\n"
    if message_id is not None:
        head += f"Message-ID: {message_id}\r\n"
    return (head + "Content-Type: text/plain; charset=utf-8\r\n\r\n" + body).encode()


def _deliver(harness: Harness, raw: bytes) -> int:
    mail_id = harness.db.store_inbound_mail(raw, FRANCE, [JUDGE], harness.clock.now())
    harness.drain()
    return mail_id


def _state(harness: Harness, mail_id: int) -> tuple[InboundState, str | None]:
    with harness.db.unit_of_work(readonly=True) as uow:
        mail = uow.session.get(InboundMail, mail_id)
        assert mail is not None
        return mail.state, mail.error



def _mails_to(harness: Harness, who: str) -> int:
    return sum(1 for m in harness.outbox() if who in str(m["To"]))


def test_the_exact_raw_mail_twice_runs_its_press_once(harness: Harness) -> None:
    start_game(harness)
    first = _deliver(harness, _raw())
    sent, to_france = len(harness.outbox()), _mails_to(harness, FRANCE)
    assert sent > 0
    second = _deliver(harness, _raw())
    assert _state(harness, first) == (InboundState.PROCESSED, None)
    assert _state(harness, second) == (
        InboundState.DUPLICATE, f"a second delivery of mail {first}, carried out already",
    )  # fmt: skip
    assert len(harness.outbox()) == sent  # no press, no reply, nothing
    assert _mails_to(harness, FRANCE) == to_france


def test_a_server_s_own_headers_added_on_the_way_do_not_make_a_new_mail(harness: Harness) -> None:
    start_game(harness)
    _deliver(harness, _raw(received="Received: from a by b; Mon, 23 Nov 2026 09:00:00 +0000\r\n"))
    sent = len(harness.outbox())
    second = _deliver(harness, _raw(received="Received: from a by c; Mon, 23 Nov 2026 09:05:00 +0000\r\n"))
    assert _state(harness, second)[0] is InboundState.DUPLICATE
    assert len(harness.outbox()) == sent


def test_the_same_message_id_with_another_body_is_another_mail(harness: Harness) -> None:
    start_game(harness)
    _deliver(harness, _raw())
    sent = len(harness.outbox())
    second = _deliver(harness, _raw(PRESS.replace("Hello", "Goodbye")))
    assert _state(harness, second)[0] is InboundState.PROCESSED
    assert len(harness.outbox()) > sent


def test_without_a_message_id_only_the_same_bytes_are_the_same_mail(harness: Harness) -> None:
    start_game(harness)
    _deliver(harness, _raw(message_id=None))
    sent = len(harness.outbox())
    assert _state(harness, _deliver(harness, _raw(message_id=None)))[0] is InboundState.DUPLICATE
    assert len(harness.outbox()) == sent
    other = _raw(message_id=None, received="X-Mailer: another\r\n")
    assert _state(harness, _deliver(harness, other))[0] is InboundState.PROCESSED
    assert len(harness.outbox()) > sent


def test_a_delivery_after_the_window_is_carried_out_again(harness: Harness) -> None:
    start_game(harness)
    _deliver(harness, _raw("VERSION\r\n"))
    harness.clock.advance(days=DEFAULT_DUPLICATE_DAYS, seconds=-1)
    assert _state(harness, _deliver(harness, _raw("VERSION\r\n")))[0] is InboundState.DUPLICATE
    harness.clock.advance(seconds=1)
    assert _state(harness, _deliver(harness, _raw("VERSION\r\n")))[0] is InboundState.PROCESSED


def test_a_first_delivery_never_carried_out_does_not_make_the_second_a_duplicate(harness: Harness) -> None:
    start_game(harness)
    first = harness.db.store_inbound_mail(_raw("VERSION\r\n"), FRANCE, [JUDGE], harness.clock.now())
    with harness.db.unit_of_work() as uow:
        uow.mail_in.mark_failed(first, "boom", harness.clock.now())  # quarantined
    second = _deliver(harness, _raw("VERSION\r\n"))
    assert _state(harness, second)[0] is InboundState.PROCESSED


def test_the_key_reads_message_id_sender_and_body() -> None:
    base = once_key(_raw(), FRANCE)
    assert once_key(_raw(), FRANCE.upper()) == base  # an address's case is not the mail
    assert once_key(_raw(), "other@example.net") != base
    assert once_key(_raw(message_id="<other@player.test>"), FRANCE) != base
    assert once_key(_raw(message_id="<once@player.test>", received="X-Trace: 1\r\n"), FRANCE) == base
    folded = _raw().replace(b"Message-ID: <once@player.test>", b"Message-ID:\r\n <once@player.test>")
    assert once_key(folded, FRANCE) == base
    assert once_key(_raw(message_id=None), FRANCE) != once_key(_raw(message_id=None, received="X: 1\r\n"), FRANCE)
    assert len(base) == 64 and b"once" not in base.encode()
