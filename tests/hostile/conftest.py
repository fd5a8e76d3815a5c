"""Fixtures of the attack tests: a world (a judge with a game in play) on a fresh SQLite database,
and the whole judge on loopback for the corpus over SMTP."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.db.database import Database

# The whole judge on loopback (SMTP door, worker, outbound sender) with a capture relay,
# from the end-to-end tests: the corpus is sent over real SMTP too.
from tests.e2e.conftest import judge, judge_factory, loop_thread, relay  # noqa: F401
from tests.hostile.harness import World


@pytest.fixture
def sqlite_world(sqlite_database: Database, tmp_path: Path) -> World:
    """A world on SQLite: the corpus runs one case per fresh database."""
    return World(sqlite_database, tmp_path)
