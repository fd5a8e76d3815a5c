"""The door's connection caps, the log that does not flood, and the open-file limit of the units."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from judge.config import DEFAULT_SMTP_MAX_CONNECTIONS, load_config
from judge.mail.inbound import TOO_MANY_FROM_YOU, TOO_MANY_IN_ALL, ConnectionLimits
from judge.mail.lograte import RepeatFilter, install

UNITS = Path(__file__).resolve().parents[2] / "deploy" / "systemd"


def test_connection_caps_per_client_and_in_all() -> None:
    limits = ConnectionLimits(total=4, per_client=2)
    assert limits.admit("10.0.0.1") is None
    assert limits.admit("10.0.0.1") is None
    assert limits.admit("10.0.0.1") == TOO_MANY_FROM_YOU
    assert limits.admit("10.0.0.2") is None
    assert limits.admit("10.0.0.3") is None
    assert limits.admit("10.0.0.4") == TOO_MANY_IN_ALL
    limits.release("10.0.0.1")
    assert limits.from_client("10.0.0.1") == 1 and limits.open == 3
    assert limits.admit("10.0.0.4") is None
    with pytest.raises(ValueError):
        ConnectionLimits(total=0, per_client=1)


def test_the_door_settings_and_their_defaults() -> None:
    config = load_config({})
    assert config.smtp_max_connections == DEFAULT_SMTP_MAX_CONNECTIONS
    assert config.smtp_idle_timeout_seconds == 60
    tuned = load_config(
        {
            "JUDGE_SMTP_MAX_CONNECTIONS": "50",
            "JUDGE_SMTP_MAX_CONNECTIONS_PER_CLIENT": "3",
            "JUDGE_SMTP_IDLE_TIMEOUT_SECONDS": "1.5",
            "JUDGE_SMTP_SESSION_MAX_SECONDS": "30",
            "JUDGE_SMTP_MAX_RECIPIENTS": "5",
            "JUDGE_OUTBOUND_MAX_ATTEMPTS": "7",
            "JUDGE_OUTBOUND_RETRY_SECONDS": "30",
            "JUDGE_OUTBOUND_CONNECTIONS": "4",
        }
    )
    assert (tuned.smtp_max_connections, tuned.smtp_max_connections_per_client) == (50, 3)
    assert tuned.smtp_idle_timeout_seconds == 1.5
    assert (tuned.smtp_session_max_seconds, tuned.smtp_max_recipients) == (30, 5)
    assert (config.smtp_session_max_seconds, config.smtp_max_recipients) == (600, 100)
    assert (tuned.outbound_max_attempts, tuned.outbound_retry_seconds) == (7, 30)
    assert (config.outbound_connections, tuned.outbound_connections) == (1, 4)
    with pytest.raises(ValueError, match="outbound_connections"):
        load_config({"JUDGE_OUTBOUND_CONNECTIONS": "0"})
    with pytest.raises(ValueError, match="smtp_max_connections_per_client"):
        load_config({"JUDGE_SMTP_MAX_CONNECTIONS_PER_CLIENT": "2.5"})
    with pytest.raises(ValueError, match="outbound_max_attempts"):
        load_config({"JUDGE_OUTBOUND_MAX_ATTEMPTS": "0"})


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_repeated_error_is_logged_once_per_window_with_a_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    logger = logging.getLogger("tests.mail.flood")
    flood = RepeatFilter(60, clock=clock)
    logger.addFilter(flood)
    try:
        with caplog.at_level(logging.INFO, logger="tests.mail.flood"):
            for n in range(1000):
                logger.error("could not store mail from %s", f"peer{n}")
                clock.now += 0.02  # 1,000 errors in 20 s
            logger.warning("another kind of trouble")
            logger.info("information is never held back")
            logger.info("information is never held back")
            clock.now += 60
            logger.error("could not store mail from %s", "late")
        lines = [r.getMessage() for r in caplog.records]
    finally:
        logger.removeFilter(flood)
    assert lines == [
        "could not store mail from peer0",
        "another kind of trouble",
        "information is never held back",
        "information is never held back",
        "could not store mail from late (and 999 more like it in the last 60 s)",
    ]


def test_install_puts_one_shared_filter_on_the_flood_prone_loggers() -> None:
    names = ("tests.mail.a", "tests.mail.b")
    first = install(names)
    assert install(names) is first
    assert all(logging.getLogger(n).filters.count(first) == 1 for n in names)
    for name in names:
        logging.getLogger(name).removeFilter(first)


@pytest.mark.parametrize("unit", ["diplomacy-judge.service", "diplomacy-judge-role@.service"])
def test_the_units_raise_the_open_file_limit_above_the_connection_cap(unit: str) -> None:
    lines = (UNITS / unit).read_text().splitlines()
    [limit] = [line.split("=", 1)[1] for line in lines if line.startswith("LimitNOFILE=")]
    assert int(limit) >= 10 * DEFAULT_SMTP_MAX_CONNECTIONS
