"""VERP (issue 30): each outgoing mail's envelope sender names the mail and its reader with a
token nobody can forge without the key; the door accepts those addresses and nothing more."""

from __future__ import annotations

import asyncio
import smtplib
import stat
from pathlib import Path

import pytest

from judge.config import ConfigError, load_config
from judge.mail.inbound import JudgeInboundHandler, start_inbound_server
from judge.mail.verp import Verp, stored_secret, verp_from_config
from tests.mail.test_inbound import MAIL, RECEIVED_AT, RecordingStore

VERP = Verp("judge-bounces", "+", "example.org", b"k" * 32)


def test_the_envelope_sender_names_the_mail_and_verifies_for_its_reader_only() -> None:
    sender = VERP.envelope_sender(812, "Player@Example.net")
    local, _, domain = sender.partition("@")
    assert domain == "example.org" and local.startswith("judge-bounces+812-")
    assert local == local.lower() and len(local) <= 64
    token = VERP.token_of(sender.upper())  # a server that changes the case changes nothing
    assert token is not None and token[0] == 812
    assert VERP.verifies(812, "player@example.net", token[1])
    assert not VERP.verifies(812, "other@example.net", token[1])  # moved onto another address
    assert not VERP.verifies(813, "player@example.net", token[1])  # moved onto another mail
    other_key = Verp("judge-bounces", "+", "example.org", b"x" * 32)
    assert not other_key.verifies(812, "player@example.net", token[1])  # made without the key


@pytest.mark.parametrize(
    ("address", "bounce", "token"),
    [
        ("judge-bounces@example.org", True, False),
        ("<Judge-Bounces+5-abcdefghijklmnop@EXAMPLE.org>", True, True),
        ("judge-bounces+anything@example.org", True, False),
        ("judge-bounces+5-abcdefghijklmno1@example.org", True, False),  # 1 is no base32 letter
        ("judge-bounces+05-abcdefghijklmnop@example.org", True, False),  # no leading zero
        ("judge-bounces+99999999999999999999-abcdefghijklmnop@example.org", True, False),
        ("judge-bounces+5-abcdefghijklmnop@elsewhere.example", False, False),
        ("judge-bouncesx@example.org", False, False),
        ("judge@example.org", False, False),
        ("", False, False),
        ("@example.org", False, False),
        ("x" * 300 + "@example.org", False, False),
    ],
)
def test_only_the_bounce_address_and_well_formed_tokens_are_read(address: str, bounce: bool, token: bool) -> None:
    assert VERP.is_bounce_address(address) is bounce
    assert (VERP.token_of(address) is not None) is token


def test_local_part_and_separator_are_settings(tmp_path: Path) -> None:
    config = load_config({
        "JUDGE_ADDRESS": "dip@Example.org", "JUDGE_DATA_DIR": str(tmp_path),
        "JUDGE_BOUNCE_LOCAL_PART": "dip-return", "JUDGE_VERP_SEPARATOR": "=",
        "JUDGE_BOUNCE_SECRET": "s" * 20,
    })  # fmt: skip
    verp = verp_from_config(config)
    sender = verp.envelope_sender(3, "a@b.example")
    assert sender.startswith("dip-return=3-") and sender.endswith("@example.org")
    assert verp.token_of(sender) is not None
    default = verp_from_config(load_config({"JUDGE_ADDRESS": "dip@example.org", "JUDGE_BOUNCE_SECRET": "s" * 20}))
    assert default.address == "dip-bounces@example.org"
    assert default.envelope_sender(3, "a@b.example") != sender


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("JUDGE_VERP_SEPARATOR", "@"),
        ("JUDGE_VERP_SEPARATOR", "++"),
        ("JUDGE_BOUNCE_LOCAL_PART", "bad local"),
        ("JUDGE_BOUNCE_LOCAL_PART", "x" * 41),
        ("JUDGE_BOUNCE_SECRET", "short"),
        ("JUDGE_BOUNCE_THRESHOLD", "0"),
        ("JUDGE_BOUNCE_STALE_DAYS", "1.5"),
    ],
)
def test_unusable_bounce_settings_are_refused(variable: str, value: str) -> None:
    with pytest.raises(ConfigError):
        load_config({variable: value})


def test_without_a_secret_setting_the_key_is_made_once_and_kept_private(tmp_path: Path) -> None:
    first = stored_secret(tmp_path / "data")
    assert first == stored_secret(tmp_path / "data") and len(first) == 64
    path = tmp_path / "data" / "bounce-secret"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stored_secret(tmp_path / "other") != first
    path.write_text("short\n")
    with pytest.raises(ValueError, match="no usable key"):
        stored_secret(tmp_path / "data")


@pytest.mark.asyncio
async def test_the_door_accepts_bounce_addresses_and_still_refuses_strangers() -> None:
    store = RecordingStore()
    handler = JudgeInboundHandler(
        store, ["judge@example.org"], 100_000, clock=lambda: RECEIVED_AT, also_accepts=VERP.is_bounce_address
    )
    server = await start_inbound_server(handler, "127.0.0.1", 0)
    bounce_to = VERP.envelope_sender(7, "p@example.net")

    def send(recipients: list[str]) -> dict[str, tuple[int, bytes]]:
        with smtplib.SMTP("127.0.0.1", server.port, timeout=10) as client:
            return client.sendmail("", recipients, MAIL)

    try:
        assert await asyncio.to_thread(send, [bounce_to]) == {}
        refused = await asyncio.to_thread(send, [bounce_to, "judge-bounces+7-x@elsewhere.example"])
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            await asyncio.to_thread(send, ["someone-else@example.org"])
    finally:
        await server.close()
    assert refused["judge-bounces+7-x@elsewhere.example"][0] == 550
    assert [mail[2] for mail in store.committed] == [[bounce_to], [bounce_to]]


def test_the_maildir_relay_writes_the_envelope_sender_as_return_path(tmp_path: Path) -> None:
    from judge.mail.outbound import MaildirRelay

    relay = MaildirRelay(tmp_path / "box")
    sender = VERP.envelope_sender(9, "p@example.net")
    assert relay.deliver(b"Subject: x\r\n\r\nhi\r\n", ["p@example.net"], sender) == {}
    [written] = list((tmp_path / "box" / "new").iterdir())
    assert written.read_bytes().startswith(f"Return-Path: <{sender}>\nX-Envelope-To: p@example.net\n".encode())
