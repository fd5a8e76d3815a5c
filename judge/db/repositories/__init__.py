"""The repositories: one class per aggregate, all sharing the unit of work's session."""

from __future__ import annotations

from judge.db.repositories.audit import AuditRepository
from judge.db.repositories.councils import CouncilRepository
from judge.db.repositories.games import GameRepository
from judge.db.repositories.mail import InboundMailRepository, OutboxRepository
from judge.db.repositories.orders import OrderRepository
from judge.db.repositories.people import PeopleRepository, Registration
from judge.db.repositories.phases import PhaseRepository
from judge.db.repositories.press import PressRepository
from judge.db.repositories.seats import SeatRepository

__all__ = [
    "AuditRepository",
    "CouncilRepository",
    "GameRepository",
    "InboundMailRepository",
    "OrderRepository",
    "OutboxRepository",
    "PeopleRepository",
    "PhaseRepository",
    "PressRepository",
    "Registration",
    "SeatRepository",
]
