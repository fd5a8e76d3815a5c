"""The first look the worker takes at a stored mail: who sent it, may we answer, must we?

Joins decoding, the loop guard and the rate limiter in the order that keeps
the judge safe: a loop is never answered and never counted against a person;
a mail with no usable sender cannot be answered; only then does the flood
limit decide. The worker stores the verdict with the mail either way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from email.message import Message
from enum import StrEnum

from judge.mail.decode import DecodedMail, decode_message, parse_message
from judge.mail.loopguard import LoopReason, classify
from judge.mail.ratelimit import RateDecision, RateLimiter


class Verdict(StrEnum):
    ANSWER = "answer"  # process the commands and reply
    WARN_FLOOD = "warn-flood"  # reply once that further mail is ignored for a while; do not process
    IGNORE = "ignore"  # store only: a loop, a flood already warned, or nobody to answer


@dataclass(frozen=True)
class Triage:
    verdict: Verdict
    mail: DecodedMail
    reason: str | None = None  # why the mail is not answered (for the mail's record)
    loop: LoopReason | None = None


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
    if limiter is not None:
        # Counted under the envelope sender too: rotating the From line alone buys nothing.
        decision = limiter.decide(mail.sender, now, also=[envelope_sender or ""])
        if decision is RateDecision.WARN_ONCE:
            return Triage(
                Verdict.WARN_FLOOD,
                mail,
                f"rate limit: more than {limiter.limit} mails in {limiter.window}",
            )
        if decision is RateDecision.DROP:
            return Triage(Verdict.IGNORE, mail, "rate limit: flood already warned about")
    return Triage(Verdict.ANSWER, mail)
