"""`judge serve`'s start-up line and the Prometheus endpoint.

The real process is started (on each engine) with the metrics on a free
loopback port: its output holds one readable line (where it listens, the
database, where replies go), and a scrape before and after a mail shows the
mail counted. The endpoint and the line are also checked in-process: loopback
only, passwords never shown.
"""

from __future__ import annotations

import re
import signal
import smtplib
import socket
import threading
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

import pytest

from judge.app.console.metrics import start_metrics
from judge.app.runtime.startup_line import startup_line
from judge.config import load_config
from judge.db import Database
from tests.e2e.harness import JUDGE, WAIT_SECONDS, build_mail, free_port, wait_until, wire
from tests.e2e.test_process import ServeProcess


def _scrape(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        return str(response.read().decode())


def _value(text: str, name: str) -> float:
    match = re.search(rf"^{re.escape(name)} ([0-9.e+-]+)$", text, re.MULTILINE)
    assert match, f"{name} not in the scrape"
    return float(match.group(1))


@pytest.mark.slow
def test_serve_says_where_it_is_and_publishes_its_counters(database_url: str, tmp_path: Path) -> None:
    process = ServeProcess(database_url, tmp_path / "data")
    metrics_port = free_port()
    process.env["JUDGE_METRICS_PORT"] = str(metrics_port)
    try:
        process.start()
        line = wait_until(
            lambda: next((x for x in process.log_path.read_text().splitlines() if x.startswith("The judge is up:")), None),
            what="the start-up line",
        )
        assert f"listening for mail on 127.0.0.1:{process.port}" in line
        assert f"database {database_url}" in line  # the test URLs hold no password
        assert f"replies written to the Maildir {tmp_path / 'data' / 'maildir'} (no relay)" in line
        assert f"metrics on http://127.0.0.1:{metrics_port}/metrics" in line

        before = _scrape(metrics_port)
        assert _value(before, "judge_up") == 1
        assert _value(before, 'judge_mail_in{state="processed"}') == 0
        message = build_mail("counted@example.net", "VERSION\n")
        with smtplib.SMTP("127.0.0.1", process.port, timeout=WAIT_SECONDS) as client:
            client.sendmail(str(message["From"]), [JUDGE], wire(message))

        def sent() -> str | None:
            text = _scrape(metrics_port)
            return text if _value(text, 'judge_mail_out{state="sent"}') >= 1 else None

        after = wait_until(sent, what="the reply counted as sent")
        assert _value(after, 'judge_mail_in{state="processed"}') == 1
        assert _value(after, "judge_inbound_waiting") == 0
        assert _value(after, "judge_mail_answered_last_hour") == 1
        assert "# TYPE judge_phases_processed gauge" in after
        assert process.signal(signal.SIGTERM) == 0
    finally:
        process.stop()


def test_the_endpoint_listens_on_loopback_only(sqlite_database_url: str) -> None:
    with Database(sqlite_database_url) as db:
        endpoint = start_metrics(db, lambda: datetime.now(UTC), 0)
        try:
            assert endpoint.server.server_address[0] == "127.0.0.1" and endpoint.port > 0
            text = _scrape(endpoint.port)
            assert _value(text, "judge_up") == 1 and _value(text, "judge_outbox_pending") == 0
        finally:
            endpoint.close()


def test_unfinished_requests_hold_a_bounded_number_of_threads_and_are_cut(sqlite_database_url: str) -> None:
    """Issue 25: 400 unfinished requests held 400 threads for good. Now at most ``max_requests``
    are answered at once (one more connection is closed unanswered) and a silent client is cut;
    then a scrape is answered again."""
    with Database(sqlite_database_url) as db:
        endpoint = start_metrics(db, lambda: datetime.now(UTC), 0, max_requests=2, request_timeout=0.5)
        clients = []
        before = threading.active_count()
        try:
            for _ in range(20):
                client = socket.create_connection(("127.0.0.1", endpoint.port), timeout=WAIT_SECONDS)
                client.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")  # never finished
                clients.append(client)
            assert threading.active_count() - before <= 2
            # Every connection ends closed by the server (recv gives b""), none answered: the ones
            # past the cap at once, the two being read when they stay silent too long.
            for client in clients:
                assert client.recv(1024) == b""
            text = _scrape(endpoint.port)
            assert _value(text, "judge_up") == 1
        finally:
            for client in clients:
                client.close()
            endpoint.close()


def test_the_line_hides_passwords(tmp_path: Path) -> None:
    config = load_config({
        "JUDGE_DATA_DIR": str(tmp_path),
        "JUDGE_DATABASE_URL": "postgresql+psycopg://judge:s3cret@db.example.org/judge",
        "JUDGE_RELAY": "smtp+starttls://mailer:hunter2@relay.example.org:587",
    })
    line = startup_line(config, listening="0.0.0.0:25", roles=["inbound", "worker"])
    assert "s3cret" not in line and "hunter2" not in line
    assert "database postgresql+psycopg://judge:***@db.example.org/judge" in line
    assert "replies sent through the relay smtp+starttls://mailer@relay.example.org:587" in line
    assert line.startswith("The judge is up: listening for mail on 0.0.0.0:25;")
    assert "not listening for mail" in startup_line(config, listening=None, roles=["worker"])
