"""Runs deploy/smoke.sh: install the checkout in a fresh venv, PostgreSQL, serve, mail in, reply out.

The script is the repeatable part of the operator's guide, so this test is
what keeps the guide honest. It needs `judge serve` (skipped, with the reason,
until that command exists), a PostgreSQL server on 127.0.0.1:5432 that the
`postgres` user reaches with createdb, and pip access to the dependencies.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SMOKE = Path(__file__).resolve().parents[2] / "deploy" / "smoke.sh"


def _postgres_reachable() -> bool:
    if shutil.which("pg_isready") is None or shutil.which("createdb") is None:
        return False
    result = subprocess.run(
        ["pg_isready", "-q", "-h", "127.0.0.1", "-p", "5432"], check=False, timeout=30
    )
    return result.returncode == 0


@pytest.mark.slow
def test_install_and_smoke() -> None:
    if not _postgres_reachable():
        pytest.skip("PostgreSQL with createdb is not reachable on 127.0.0.1:5432")
    result = subprocess.run([str(SMOKE)], capture_output=True, text=True, check=False, timeout=900)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    assert "smoke: OK" in result.stdout
    assert "X-Envelope-To:" in result.stdout
