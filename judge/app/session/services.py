"""What the application layer is given from outside: database, settings, clock.

One value built at start-up and passed explicitly (no global singleton), so a
test builds its own with a fake clock and a fresh database.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from judge.config import Config
from judge.db.database import Database
from judge.mail.compose import JudgeIdentity
from judge.mail.dkim_signing import DkimSigner, signer_from_config
from judge.mail.ratelimit import RateLimiter
from judge.mail.verp import Verp, verp_from_config
from judge.timekeeping.clock import Clock

log = logging.getLogger(__name__)


@dataclass
class Services:
    db: Database
    config: Config
    clock: Clock
    limiter: RateLimiter | None = None
    rng_factory: Callable[[], random.Random] = field(default=random.SystemRandom)
    on_outbox: Callable[[], None] = field(default=lambda: None)
    """Called after mail was queued, so a running server can wake its sender."""
    on_schedule: Callable[[], None] = field(default=lambda: None)
    """Called after a game's next due time changed, so the scheduler can re-plan."""

    @property
    def identity(self) -> JudgeIdentity:
        return JudgeIdentity.from_config(self.config)

    @cached_property
    def dkim(self) -> DkimSigner | None:
        """The judge's own DKIM signer, when a key is configured (read once)."""
        return signer_from_config(self.config)

    @cached_property
    def verp(self) -> Verp:
        """The bounce address and its key (read once: the key may live in a file)."""
        return verp_from_config(self.config)


def wake(callback: Callable[[], None]) -> None:
    """Ring a role's wake-up (``Services.on_outbox``, ``on_schedule``) after a commit: a wake-up is a
    hint, so one that fails is logged and never undoes the committed work (the role's own poll
    finds it anyway)."""
    try:
        callback()
    except Exception:
        log.exception("could not wake another role")
