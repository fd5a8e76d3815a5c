"""Fixtures of the mail tests: the worker on a fresh database, fed raw hostile mail."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.app.session.services import Services
from judge.config import load_config
from judge.db.database import Database
from judge.timekeeping.clock import FakeClock
from tests.mail.hostile import JUDGE, KEEPER, START, MailHarness


@pytest.fixture
def mail_harness(database: Database, tmp_path: Path) -> Iterator[MailHarness]:
    clock = FakeClock(START)
    config = load_config(
        {
            "JUDGE_ADDRESS": JUDGE,
            "JUDGE_CODE": "XPY",
            "JUDGE_ADMIN": KEEPER,
            "JUDGE_DATA_DIR": str(tmp_path),
            "JUDGE_DATABASE_URL": database.url,
            "JUDGE_RATE_LIMIT_MESSAGES": "0",
        }
    )
    yield MailHarness(Services(db=database, config=config, clock=clock), clock)
