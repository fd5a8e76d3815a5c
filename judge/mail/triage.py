"""The first look the worker takes at a stored mail: who sent it, may we answer, must we?

Joins decoding, the loop guard and the rate limiter in the order that keeps
the judge safe: a loop is never answered and never counted against a person;
a mail with no usable sender cannot be answered; only then does the flood
limit decide. The worker stores the verdict with the mail either way.

A mail that only looks like a robot's (:func:`judge.mail.loopguard.robot_content`:
an autoreply's subject, a body quoting a judge mail) is read first: with a
command in it, it is a person's and is answered; without one, an autoreply is
stored unanswered, and a mail quoting the judge is answered only while its
sender sent fewer than :data:`QUOTING_ANSWERS_PER_DAY` such mails in the
last day, answered or not (a vacation program
that quotes each judge mail is then stopped after a few rounds, not by the
flood limit). :func:`held_without_command` decides it once the mail is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import Message
from enum import StrEnum

from judge.mail.decode import DecodedMail, decode_message, parse_message
from judge.mail.loopguard import LoopKind, LoopReason, classify, robot_content
from judge.mail.ratelimit import FloodStore, RateDecision, RateLimiter

QUOTING_ANSWERS_PER_DAY = 3
"""Answers a day to one sender's mails that quote a judge mail and carry no command."""
QUOTING_WINDOW = timedelta(days=1)
QUOTING_KEY_PREFIX = "quoting:"
"""Where the count of those answers is kept: the flood limiter's table, under its own keys."""


class Verdict(StrEnum):
    ANSWER = "answer"  # process the commands and reply
    WARN_FLOOD = "warn-flood"  # the flood starts: warn once (the worker may still read a player's own mail)
    FLOODED = "flooded"  # in a flood already warned about: store (the worker may still read a player's own mail)
    IGNORE = "ignore"  # store only: a loop, or nobody to answer


@dataclass(frozen=True)
class Triage:
    verdict: Verdict
    mail: DecodedMail
    reason: str | None = None  # why the mail is not answered (for the mail's record)
    loop: LoopReason | None = None
    robot_like: LoopReason | None = None  # a weaker sign: see held_without_command
    flood_until: datetime | None = None
    """In a flood: when the sender's mail is read again, if they send nothing before."""


def triage(
    raw: bytes,
    *,
    envelope_sender: str | None,
    own_addresses: Iterable[str],
    limiter: RateLimiter | None,
    now: datetime,
) -> Triage:
    """Decode ``raw`` once and decide what to do with it. Never raises on bad mail."""
    own = tuple(own_addresses)
    try:
        message = parse_message(raw)
    except Exception:  # the parser is lenient; an empty mail is the last resort
        message = Message()
    mail = decode_message(message)
    loop = classify(message, own_addresses=own, envelope_sender=envelope_sender)
    if loop is not None:
        return Triage(Verdict.IGNORE, mail, f"mail loop guard: {loop}", loop)
    if mail.sender is None:
        return Triage(Verdict.IGNORE, mail, "no usable sender address")
    robot_like = robot_content(message, mail.subject)
    if limiter is not None:
        # Counted under the envelope sender too: rotating the From line alone buys nothing.
        check = limiter.check(mail.sender, now, also=[envelope_sender or ""])
        if check.decision is RateDecision.WARN_ONCE:
            return Triage(
                Verdict.WARN_FLOOD,
                mail,
                f"rate limit: more than {limiter.limit} mails in {limiter.window}",
                robot_like=robot_like,
                flood_until=check.until,
            )
        if check.decision is RateDecision.DROP:
            return Triage(
                Verdict.FLOODED, mail, "rate limit: flood already warned about",
                robot_like=robot_like, flood_until=check.until,
            )
    return Triage(Verdict.ANSWER, mail, robot_like=robot_like)


@dataclass(frozen=True)
class _Prefixed:
    """A :class:`FloodStore` seen under keys of its own (the quoting count beside the floods)."""

    store: FloodStore
    prefix: str

    def load(self, key: str) -> tuple[Sequence[datetime], bool]:
        return self.store.load(self.prefix + key)

    def save(self, key: str, arrivals: Sequence[datetime], warned: bool, now: datetime) -> None:
        self.store.save(self.prefix + key, arrivals, warned, now)


def held_without_command(
    verdict: Triage, *, has_command: bool, envelope_sender: str | None, store: FloodStore, now: datetime
) -> str | None:
    """Why a read mail that looks like a robot's is stored unanswered, or None to answer it.

    A mail with a command is always answered (a person wrote it, whatever
    its subject). Without one: an autoreply's subject is never answered;
    a body quoting a judge mail is answered while its sender sent fewer than
    :data:`QUOTING_ANSWERS_PER_DAY` such mails in the last :data:`QUOTING_WINDOW`
    (per From and per envelope sender, as the flood limit counts; the flood
    limiter's rule, on its own keys), counted in ``store`` so a restart
    forgets nothing.
    """
    sign = verdict.robot_like
    if sign is None or has_command:
        return None
    if sign.kind is not LoopKind.QUOTES_JUDGE:
        return f"looks like an autoreply and carries no command: {sign}"
    quota = RateLimiter(QUOTING_ANSWERS_PER_DAY, QUOTING_WINDOW, store=_Prefixed(store, QUOTING_KEY_PREFIX))
    sender = verdict.mail.sender or ""
    if quota.decide(sender, now, also=[envelope_sender or ""]) is RateDecision.ALLOW:
        return None
    return (
        f"quotes a judge mail and carries no command ({sign}): this sender sent "
        f"{QUOTING_ANSWERS_PER_DAY} or more such mails in the last day"
    )
