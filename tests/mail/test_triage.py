"""Triage: loops are ignored and not counted, anonymous mail is ignored, floods warned once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.mail.ratelimit import MemoryFloodStore, RateLimiter
from judge.mail.triage import (
    QUOTING_ANSWERS_PER_DAY,
    QUOTING_KEY_PREFIX,
    Verdict,
    held_without_command,
    triage,
)

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
OWN = ("judge@example.org",)
PLAYER = b"From: Player <player@x.org>\nSubject: orders\n\nSIGNON Fgame pw\nA Par - Bur\n"


def test_an_ordinary_mail_is_answered() -> None:
    result = triage(
        PLAYER, envelope_sender="player@x.org", own_addresses=OWN, limiter=None, now=NOW
    )
    assert result.verdict is Verdict.ANSWER
    assert result.mail.sender == "player@x.org"
    assert result.mail.body == "SIGNON Fgame pw\nA Par - Bur\n"


def test_loops_are_ignored_and_do_not_use_up_the_rate_limit() -> None:
    limiter = RateLimiter(limit=1, window=timedelta(hours=1))
    loop = b"From: player@x.org\nAuto-Submitted: auto-replied\n\nI am on holiday\n"
    for _ in range(3):
        result = triage(
            loop, envelope_sender="player@x.org", own_addresses=OWN, limiter=limiter, now=NOW
        )
        assert result.verdict is Verdict.IGNORE and result.loop is not None
    assert (
        triage(PLAYER, envelope_sender="p", own_addresses=OWN, limiter=limiter, now=NOW).verdict
        is Verdict.ANSWER
    )


def test_bounces_and_anonymous_mail_are_ignored() -> None:
    bounce = triage(PLAYER, envelope_sender="", own_addresses=OWN, limiter=None, now=NOW)
    assert (
        bounce.verdict is Verdict.IGNORE and bounce.reason is not None and "bounce" in bounce.reason
    )
    anonymous = triage(
        b"Subject: x\n\nA Par H\n", envelope_sender="x@y", own_addresses=OWN, limiter=None, now=NOW
    )
    assert anonymous.verdict is Verdict.IGNORE


def test_a_flood_is_warned_once_then_ignored() -> None:
    limiter = RateLimiter(limit=2, window=timedelta(hours=1))
    verdicts = [
        triage(
            PLAYER,
            envelope_sender="player@x.org",
            own_addresses=OWN,
            limiter=limiter,
            now=NOW + timedelta(seconds=i),
        ).verdict
        for i in range(5)
    ]
    assert verdicts == [
        Verdict.ANSWER,
        Verdict.ANSWER,
        Verdict.WARN_FLOOD,
        Verdict.FLOODED,
        Verdict.FLOODED,
    ]


def test_a_flood_rotating_its_from_line_is_counted_under_its_envelope_sender() -> None:
    limiter = RateLimiter(limit=2, window=timedelta(hours=1))
    verdicts = [
        triage(
            f"From: p{n}@x.org\nSubject: orders\n\nA Par H\n".encode(),
            envelope_sender="flooder@x.org", own_addresses=OWN, limiter=limiter, now=NOW + timedelta(seconds=n),
        ).verdict
        for n in range(4)
    ]  # fmt: skip
    assert verdicts == [Verdict.ANSWER, Verdict.ANSWER, Verdict.WARN_FLOOD, Verdict.FLOODED]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_triage_never_raises(raw: bytes) -> None:
    assert (
        triage(raw, envelope_sender=None, own_addresses=OWN, limiter=None, now=NOW).verdict
        in Verdict
    )


AWAY = b"From: player@x.org\nSubject: Out of Office: Re: orders\n\nI am away until Monday.\n"
QUOTING = b"From: player@x.org\nSubject: Re: XPY orders\n\nI am away.\n\n> :: Judge: XPY\n> > VERSION\n"


def held(raw: bytes, store: MemoryFloodStore, *, has_command: bool, at: datetime = NOW) -> str | None:
    verdict = triage(raw, envelope_sender="player@x.org", own_addresses=OWN, limiter=None, now=at)
    assert verdict.verdict is Verdict.ANSWER  # a weak sign: the mail is read first
    return held_without_command(verdict, has_command=has_command, envelope_sender="player@x.org", store=store, now=at)


def test_an_autoreply_subject_holds_back_a_mail_without_a_command_only() -> None:
    store = MemoryFloodStore()
    reason = held(AWAY, store, has_command=False)
    assert reason is not None and "autoreply" in reason
    assert held(AWAY, store, has_command=True) is None
    assert held(PLAYER, store, has_command=False) is None  # no sign at all: "no commands found"


def test_a_mail_quoting_the_judge_without_a_command_is_answered_a_few_times_a_day() -> None:
    store = MemoryFloodStore()
    answered = [held(QUOTING, store, has_command=False, at=NOW + timedelta(minutes=n)) is None for n in range(10)]
    assert answered == [True] * QUOTING_ANSWERS_PER_DAY + [False] * (10 - QUOTING_ANSWERS_PER_DAY)
    assert held(QUOTING, store, has_command=True) is None  # a command is always answered
    assert held(QUOTING, store, has_command=False, at=NOW + timedelta(days=2)) is None  # after a quiet day
    assert all(key.startswith(QUOTING_KEY_PREFIX) for key in store.histories)  # apart from the floods


def test_quoting_mails_count_under_the_envelope_sender_too() -> None:
    """A robot that changes its From line on every quoting mail is still counted under its envelope
    sender: the quota runs out as for one From."""
    store = MemoryFloodStore()
    answered = []
    for n in range(QUOTING_ANSWERS_PER_DAY + 2):
        raw = QUOTING.replace(b"From: player@x.org", f"From: robot{n}@x.org".encode())
        verdict = triage(raw, envelope_sender="robot@x.org", own_addresses=OWN, limiter=None, now=NOW)
        reason = held_without_command(
            verdict, has_command=False, envelope_sender="robot@x.org", store=store, now=NOW + timedelta(minutes=n)
        )
        answered.append(reason is None)
    assert answered == [True] * QUOTING_ANSWERS_PER_DAY + [False, False]


def test_quoting_mails_count_under_the_from_line_too() -> None:
    """One From line behind ever-changing envelope senders is still counted under its From."""
    store = MemoryFloodStore()
    answered = []
    for n in range(QUOTING_ANSWERS_PER_DAY + 2):
        verdict = triage(QUOTING, envelope_sender=f"bounce{n}@x.org", own_addresses=OWN, limiter=None, now=NOW)
        reason = held_without_command(
            verdict, has_command=False, envelope_sender=f"bounce{n}@x.org", store=store,
            now=NOW + timedelta(minutes=n),
        )  # fmt: skip
        answered.append(reason is None)
    assert answered == [True] * QUOTING_ANSWERS_PER_DAY + [False, False]
