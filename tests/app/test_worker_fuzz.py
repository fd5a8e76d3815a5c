"""Random bytes and mangled real mails through the whole worker: it never raises, every mail ends.

Hypothesis feeds the worker what a hostile or broken sender could send; the
guard must turn every one into a processed, ignored, failed or quarantined
mail, each with at most one answer, and the judge must answer a normal mail
afterwards.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.app.mail_in import worker
from judge.db.enums import InboundState
from tests.app.conftest import JUDGE, Harness, text

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

REAL = (
    "From: Ann <ann@example.net>\r\nTo: judge@example.org\r\nSubject: orders\r\n"
    "Message-ID: <real@test>\r\nMIME-Version: 1.0\r\n"
    'Content-Type: multipart/alternative; boundary="b"\r\n\r\n'
    "--b\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
    "SIGNON Fdemo secret\r\nA PAR - BUR\r\nHELP\r\nLIST\r\nPRESS TO E\r\nhello=E9\r\nENDPRESS\r\n"
    "--b\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
    "PGI+VkVSU0lPTjwvYj4=\r\n--b--\r\n"
).encode("latin-1")

DONE = {
    InboundState.PROCESSED, InboundState.IGNORED, InboundState.FAILED, InboundState.QUARANTINED,
    InboundState.DUPLICATE,  # the same mail delivered again: stored, carried out once
}


@st.composite
def mangled(draw: st.DrawFn) -> bytes:
    data = bytearray(REAL)
    for _ in range(draw(st.integers(1, 6))):
        where = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["insert", "delete", "truncate", "flip"]))
        noise = draw(st.binary(min_size=1, max_size=40))
        if action == "insert":
            data[where:where] = noise
        elif action == "delete":
            del data[where : where + len(noise)]
        elif action == "truncate":
            del data[where:]
        elif data:
            data[where % len(data)] ^= noise[0]
    return bytes(data)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.one_of(st.binary(max_size=2000), mangled()))
def test_the_worker_never_raises_and_every_mail_ends(harness: Harness, raw: bytes) -> None:
    harness.new_mail()
    mail_id = harness.db.store_inbound_mail(raw, "fuzz@example.net", [JUDGE], harness.clock.now())
    while worker.process_next_mail(harness.services):
        pass
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.mail_in.get(mail_id).state in DONE
    assert len([m for m in harness.new_mail() if "keeper@" not in str(m["To"])]) <= 1


def test_after_the_fuzz_the_judge_still_answers(harness: Harness) -> None:
    harness.db.store_inbound_mail(b"\x00\xff" * 500, "fuzz@example.net", [JUDGE], harness.clock.now())
    harness.drain()
    assert "Diplomacy email judge" in text(harness.exchange("ann@example.net", "VERSION\n"))
