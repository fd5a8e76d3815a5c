"""The judge's own DKIM signature (issue 30): a mail the sender hands to the relay is signed with the
configured key, and dkimpy's verify, given the public key as DNS would give it, accepts it; a
changed byte, a key that cannot sign, or half the settings are refused."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

import dkim
import pytest

from judge.app.mail_out import outbox
from judge.app.mail_out.sender import TransactionalOutbox
from judge.app.session.services import Services
from judge.config import ConfigError, load_config
from judge.db.database import Database
from judge.mail.dkim_signing import DkimKeyError, signer_from_config
from judge.mail.outbound import drain_once
from judge.timekeeping.clock import FakeClock
from tests.data_dir import DATA

pytestmark = pytest.mark.engine_blind  # the engine cannot change what these check: SQLite only

KEY = DATA / "dkim" / "test-key.pem"
PUBLIC = (DATA / "dkim" / "test-key.pub.b64").read_bytes().strip()
MAIL = (
    b"From: Diplomacy Judge <judge@example.org>\r\nTo: p@example.net\r\nSubject: XPY:demo - S1901M Results\r\n"
    b"Date: Mon, 23 Nov 2026 09:00:00 +0000\r\nMessage-ID: <r1@example.org>\r\nAuto-Submitted: auto-generated\r\n"
    b"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nAustria: A Vienna -> Galicia.\r\n"
)


def dns(name: bytes, timeout: int = 5) -> bytes:
    """The judge's DKIM record, as the signing domain's DNS would answer."""
    assert name == b"judge2026._domainkey.example.org."
    return b"v=DKIM1; k=rsa; p=" + PUBLIC


def config(tmp_path: Path, **more: str) -> dict[str, str]:
    return {"JUDGE_ADDRESS": "judge@example.org", "JUDGE_DATA_DIR": str(tmp_path), "JUDGE_DKIM_KEY_FILE": str(KEY),
            "JUDGE_DKIM_SELECTOR": "judge2026", **more}  # fmt: skip


def test_a_signed_mail_verifies_with_the_public_key_and_a_changed_one_does_not(tmp_path: Path) -> None:
    signer = signer_from_config(load_config(config(tmp_path)))
    assert signer is not None and signer.domain == "example.org"
    signed = signer.sign(MAIL)
    assert signed.startswith(b"DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=example.org;")
    assert signed.endswith(MAIL)
    assert dkim.verify(signed, dnsfunc=dns)
    assert not dkim.verify(signed.replace(b"Galicia", b"Bohemia"), dnsfunc=dns)
    assert not dkim.verify(signed.replace(b"S1901M Results", b"S1901M Resultz"), dnsfunc=dns)
    # An added Subject (a second one, above) is caught: each signed header is signed once more.
    assert not dkim.verify(signed.replace(b"To: p@", b"Subject: forged\r\nTo: p@"), dnsfunc=dns)


def test_without_a_key_nothing_is_signed_and_half_the_settings_are_refused(tmp_path: Path) -> None:
    assert signer_from_config(load_config({"JUDGE_DATA_DIR": str(tmp_path)})) is None
    with pytest.raises(ConfigError, match="both"):
        load_config({"JUDGE_DKIM_KEY_FILE": str(KEY)})
    with pytest.raises(ConfigError, match="DNS label"):
        load_config(config(tmp_path, JUDGE_DKIM_SELECTOR="bad selector"))


@pytest.mark.parametrize("content", [None, b"not a key\n", b"-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n"])
def test_a_key_that_cannot_sign_stops_the_start(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "key.pem"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(DkimKeyError):
        signer_from_config(load_config(config(tmp_path, JUDGE_DKIM_KEY_FILE=str(path))))


def test_the_sender_signs_what_it_hands_to_the_relay(tmp_path: Path, database: Database) -> None:
    class Relay:
        def __init__(self) -> None:
            self.sent: list[bytes] = []

        def deliver(
            self, message: bytes, recipients: Sequence[str], envelope_sender: str | None = None
        ) -> Mapping[str, str]:
            self.sent.append(message)
            return {}

    settings = config(tmp_path, JUDGE_DATABASE_URL=database.url)
    clock = FakeClock(datetime(2026, 11, 23, tzinfo=UTC))
    services = Services(db=database, config=load_config(settings), clock=clock)
    with database.unit_of_work() as uow:
        outbox.queue(uow, services, ["p@example.net"], "hello", "A Vienna -> Galicia.\n", clock.now())
    relay = Relay()
    drain_once(TransactionalOutbox(services), relay, clock.now())
    [sent] = relay.sent
    assert sent.startswith(b"DKIM-Signature:") and dkim.verify(sent, dnsfunc=dns)
