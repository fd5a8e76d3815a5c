"""Telling the judgekeeper that something failed, at most once an hour per kind of trouble.

A burst of failures (a bug that every mail of a certain kind hits, a broken
game that fails at every try) must reach the keeper, but as one mail, not a
thousand. The last alarm of each kind is kept in the database (table
``throttles``), so a restart, or a second judge process, does not start the
hour again; alarms held back are counted and the next one says how many.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from judge.app.mail_out import outbox
from judge.app.session.services import Services
from judge.db.database import UnitOfWork
from judge.db.repositories.mail import ThrottleRepository

log = logging.getLogger(__name__)

ALARM_INTERVAL = timedelta(hours=1)
MAIL_FAILED = "alarm:mail"
GAME_FAILED = "alarm:game"


def alarm_keeper(
    uow: UnitOfWork,
    services: Services,
    kind: str,
    subject: str,
    body: str,
    now: datetime,
    *,
    interval: timedelta = ALARM_INTERVAL,
) -> bool:
    """Queue an alarm to the judgekeeper unless one of ``kind`` went out within ``interval``.

    Returns whether the alarm was queued. Held back or not, the caller has
    logged the trouble; the alarm only makes sure a person hears of it.
    """
    held_back = ThrottleRepository(uow.session).claim(kind, now, interval)
    if held_back is None:
        log.warning("alarm %s held back (one an hour): %s", kind, subject)
        return False
    if held_back:
        body += (
            f"\n{held_back} more alarm(s) of this kind were held back since the last one "
            f"(at most one mail every {_hours(interval)}); the judge's log has each of them.\n"
        )
    code = services.config.code
    outbox.queue(uow, services, [services.config.admin], f"{code}: judge alarm: {subject}", body, now)
    return True


def _hours(interval: timedelta) -> str:
    hours = interval.total_seconds() / 3600
    return "hour" if hours == 1 else f"{hours:g} hours"
