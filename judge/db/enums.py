"""The closed sets of values the database stores as short strings.

Kept as :class:`~enum.StrEnum` so a row read back compares equal to the text
an operator sees with ``psql`` or ``sqlite3``; the columns are plain VARCHARs
(no native enum types) so adding a value never needs an ``ALTER TYPE``.
"""

from __future__ import annotations

from enum import StrEnum


class GameState(StrEnum):
    FORMING = "forming"
    ACTIVE = "active"
    PAUSED = "paused"
    FINISHED = "finished"
    TERMINATED = "terminated"


class SeatStatus(StrEnum):
    """Who holds a power now. ``waiting``: joined a forming game, no power yet. ``bot``: the judge's
    bot, no player (a practice game's seat filled by SET BOTS, issue 31), open for takeover."""

    WAITING = "waiting"
    PLAYING = "playing"
    ABANDONED = "abandoned"
    CIVIL_DISORDER = "civil_disorder"
    RESIGNED = "resigned"
    ELIMINATED = "eliminated"
    BOT = "bot"


class PhaseState(StrEnum):
    OPEN = "open"  # orders are being collected
    PROCESSED = "processed"
    ROLLED_BACK = "rolled_back"


class OrderBlockKind(StrEnum):
    """What a stored block of orders is: for the current phase, for a later phase (PHASE), or IF/ELSE."""

    CURRENT = "current"
    FUTURE = "future"
    CONDITIONAL = "conditional"


class PressKind(StrEnum):
    PRESS = "press"  # to some powers
    BROADCAST = "broadcast"  # to everybody
    POSTAL = "postal"  # broadcast sent out with the results
    NOTICE = "notice"  # from the judge itself (announcements)


class DrawVoteKind(StrEnum):
    DRAW = "draw"
    NO_DRAW = "no_draw"
    CONCEDE = "concede"


class InboundState(StrEnum):
    RECEIVED = "received"
    PROCESSED = "processed"
    FAILED = "failed"
    IGNORED = "ignored"  # loops, floods: kept, never answered
    QUARANTINED = "quarantined"  # failed too many times: kept for the operator, never retried by itself
    SKIPPED = "skipped"  # set aside by the operator (`judge mail skip`): handled, never processed
    DUPLICATE = "duplicate"  # a second delivery of a mail already carried out (judge.mail.once): kept, not again


class OutboundState(StrEnum):
    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"  # gave up after the last attempt


class AuditKind(StrEnum):
    SETTING = "setting"  # a SET changed a game's setting
    NEW_ADDRESS = "new_address"  # a sign-on or command from an address not seen before
    REGISTRATION = "registration"
    TAKEOVER = "takeover"
    ROLLBACK = "rollback"
    ADMIN = "admin"
    MAIL = "mail"  # an operator's `judge mail retry|skip`
    FAILURE = "failure"  # the judge failed on something (a game's phase) and backed off
