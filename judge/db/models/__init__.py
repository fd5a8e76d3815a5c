"""The judge's tables. Importing this package registers every model on ``Base.metadata``."""

from __future__ import annotations

from judge.db.models.audit import AuditEvent
from judge.db.models.base import Base
from judge.db.models.councils import (
    CouncilAccusation,
    CouncilElection,
    CouncilMember,
    CouncilVote,
)
from judge.db.models.games import DeadlineSchedule, Game, GameMaster, GameObserver, Seat, SeatTenure
from judge.db.models.identity import (
    AddressClaim,
    SignonFailure,
    SignonLockout,
    SignonUnlock,
    TakeoverRequest,
    WhoisLookup,
)
from judge.db.models.mail import AddressBounces, InboundMail, OutboundMail
from judge.db.models.people import Absence, Person, PersonAddress
from judge.db.models.play import DiaryEntry, DrawVote, OrderSubmission, PhaseRecord, PressMessage

__all__ = [
    "Absence",
    "AddressBounces",
    "AddressClaim",
    "AuditEvent",
    "Base",
    "CouncilAccusation",
    "CouncilElection",
    "CouncilMember",
    "CouncilVote",
    "DeadlineSchedule",
    "DiaryEntry",
    "DrawVote",
    "Game",
    "GameMaster",
    "GameObserver",
    "InboundMail",
    "OrderSubmission",
    "OutboundMail",
    "Person",
    "PersonAddress",
    "PhaseRecord",
    "PressMessage",
    "Seat",
    "SeatTenure",
    "SignonFailure",
    "SignonLockout",
    "SignonUnlock",
    "TakeoverRequest",
    "WhoisLookup",
]
