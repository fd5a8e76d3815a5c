"""Retention: mail the judge is done with does not pile up for ever.

Processed, ignored and skipped inbound mail and delivered outbound mail
older than ``retention_days`` are deleted (failed and quarantined inbound
mail, and outbound mail not yet delivered, stay until handled), and the flood
limiter forgets senders quiet for a whole window (its window, or the day over
which answers to mail quoting the judge are counted, whichever is longer). ``judge db purge`` does it
on demand; ``judge serve`` once a day, the day's run recorded in the database
(table ``throttles``) so a restart or a second process does not run it again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from judge.app.session.services import Services
from judge.db.database import UnitOfWork
from judge.db.repositories.mail import SenderFloodRepository, ThrottleRepository
from judge.mail.triage import QUOTING_WINDOW

log = logging.getLogger(__name__)

PURGE = "purge"
PURGE_INTERVAL = timedelta(days=1)


@dataclass(frozen=True)
class PurgeReport:
    inbound: int = 0
    outbound: int = 0
    senders: int = 0

    def __str__(self) -> str:
        return (
            f"{self.inbound} inbound and {self.outbound} outbound mails deleted, "
            f"{self.senders} quiet senders forgotten by the flood limiter"
        )


def purge_mail(uow: UnitOfWork, before: datetime, *, quiet_since: datetime | None = None) -> PurgeReport:
    """Delete the mail done with that is older than ``before``; forget senders quiet since ``quiet_since``."""
    inbound = uow.mail_in.purge(before)
    outbound = uow.outbox.purge(before)
    senders = SenderFloodRepository(uow.session).forget_idle(quiet_since) if quiet_since else 0
    return PurgeReport(inbound, outbound, senders)


def purge_if_due(services: Services) -> PurgeReport | None:
    """The daily purge of ``judge serve``: None when retention is off or it ran within the day."""
    days = services.config.retention_days
    if days <= 0:
        return None
    now = services.clock.now()
    with services.db.unit_of_work() as uow:
        if ThrottleRepository(uow.session).claim(PURGE, now, PURGE_INTERVAL) is None:
            return None
        report = purge_mail(
            uow, now - timedelta(days=days),
            quiet_since=now - max(services.config.rate_limit_window, QUOTING_WINDOW),
        )
    log.info("daily purge (mail older than %s days): %s", days, report)
    return report


class DailyPurge:
    """The worker's idle task: look at most once an hour whether the day's purge is due."""

    def __init__(self, services: Services, *, look_every: timedelta = timedelta(hours=1)) -> None:
        self.services = services
        self.look_every = look_every
        self._next_look: datetime | None = None

    def __call__(self) -> None:
        now = self.services.clock.now()
        if self._next_look is not None and now < self._next_look:
            return
        self._next_look = now + self.look_every
        try:
            purge_if_due(self.services)
        except Exception:
            log.exception("the daily purge failed; it is tried again in an hour")
