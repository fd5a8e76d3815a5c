"""The web pages' test harness: the app-layer harness (mail in, a fake clock) and a Starlette
TestClient on the web application of the same judge."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from judge.db.database import Database
from judge.web.app import create_app
from tests.app.conftest import Harness, new_harness


@pytest.fixture
def harness(database: Database, tmp_path: Path) -> Iterator[Harness]:
    yield new_harness(database, tmp_path)


@pytest.fixture
def web(harness: Harness) -> Iterator[TestClient]:
    """The pages of the harness's judge (no rate limit worth the name: tests crawl)."""
    with TestClient(create_app(harness.services, rate=10_000, burst=10_000)) as client:
        yield client
