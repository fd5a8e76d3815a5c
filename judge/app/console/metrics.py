"""The judge's counters for monitoring, in Prometheus' text format (``prometheus_client``).

Read from the database at each scrape (:func:`judge.app.console.health.queue_figures`),
not counted in memory: the figures are the same whichever process serves
them, survive a restart, and cover every role when the roles run in
separate processes on one database. The endpoint listens on 127.0.0.1 only
(``metrics_port``; 0, the default, leaves it off): the figures are for the
operator's own Prometheus, never for the world.

Even on loopback a client may open a request and never finish it. The
endpoint answers at most :data:`MAX_REQUESTS` requests at once, each in a
thread of its own (one more connection is closed at once), and cuts a client
silent for :data:`REQUEST_TIMEOUT_SECONDS`: unfinished requests hold a few
threads for a few seconds, never hundreds for good.

Families (all gauges, as the database holds them; mail counts fall when
`judge db purge` deletes old mail):

* ``judge_mail_in{state}`` / ``judge_mail_out{state}``: mail received / queued, by state;
* ``judge_inbound_waiting``, ``judge_inbound_oldest_waiting_seconds``;
* ``judge_outbox_pending``, ``judge_outbox_oldest_pending_seconds``, ``judge_outbox_failed_recent``;
* ``judge_phases_processed``, ``judge_phase_processing_seconds_total``;
* ``judge_mail_answered_last_hour``, ``judge_mail_answer_seconds_max_last_hour``;
* ``judge_game_overdue_seconds``, ``judge_games_failing`` (failed twice in a row or more);
* ``judge_up`` (1 when the database answered the scrape);
* ``judge_web_pages_served_total{status}``: answers of the web role (:mod:`judge.web`) in this
  process since it started, the one figure counted in memory (pages leave nothing in the database).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

from prometheus_client import CollectorRegistry, make_wsgi_app
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from judge.app.console import pages_served
from judge.app.console.health import QueueFigures, queue_figures
from judge.db.database import Database
from judge.db.enums import InboundState, OutboundState
from judge.mail import lograte

log = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"
MAX_REQUESTS = 4
"""Requests the endpoint answers at once (a scrape takes one; Prometheus sends one at a time)."""
REQUEST_TIMEOUT_SECONDS = 10.0
"""A client silent this long within a request is cut."""


class JudgeCollector(Collector):
    """Collects the judge's figures from the database at each scrape."""

    def __init__(self, db: Database, now: Callable[[], datetime]) -> None:
        self.db = db
        self.now = now

    def collect(self) -> Iterator[Any]:
        served = CounterMetricFamily(
            "judge_web_pages_served", "Answers of the web role in this process, by HTTP status", labels=["status"]
        )
        for status, answers in sorted({200: 0, **pages_served.counts()}.items()):  # 200 always: a steady series
            served.add_metric([str(status)], answers)
        yield served
        try:
            figures: QueueFigures | None = queue_figures(self.db, self.now())
        except Exception:
            log.exception("the metrics could not be read from the database")
            figures = None
        yield GaugeMetricFamily("judge_up", "1 when the judge's database answered this scrape",
                                value=0 if figures is None else 1)
        if figures is None:
            return
        mail_in = GaugeMetricFamily("judge_mail_in", "Inbound mails stored, by state", labels=["state"])
        for state in InboundState:
            mail_in.add_metric([state.value], figures.inbound_by_state.get(state.value, 0))
        yield mail_in
        mail_out = GaugeMetricFamily("judge_mail_out", "Outgoing mails stored, by state", labels=["state"])
        for out_state in OutboundState:
            mail_out.add_metric([out_state.value], figures.outbox_by_state.get(out_state.value, 0))
        yield mail_out
        for name, text, value in (
            ("judge_inbound_waiting", "Inbound mails waiting to be processed (received or failed)",
             figures.inbound_waiting),
            ("judge_inbound_oldest_waiting_seconds", "Age of the oldest waiting inbound mail (0: none)",
             figures.inbound_oldest_age or 0),
            ("judge_outbox_pending", "Outgoing mails not yet delivered", figures.outbox_pending),
            ("judge_outbox_oldest_pending_seconds", "Age of the oldest undelivered outgoing mail (0: none)",
             figures.outbox_oldest_age or 0),
            ("judge_outbox_failed_recent", "Outgoing mails given up on, created in the last day",
             figures.outbox_failed_recent),
            ("judge_phases_processed", "Phases processed (rolled back ones included)", figures.phases_processed),
            ("judge_phase_processing_seconds_total", "Time spent adjudicating those phases",
             figures.processing_ms_total / 1000),
            ("judge_mail_answered_last_hour", "Inbound mails answered in the last hour", figures.answered_last_hour),
            ("judge_mail_answer_seconds_max_last_hour",
             "Longest time from arrival to answer in the last hour (0: none answered)",
             figures.answer_seconds_max_last_hour or 0),
            ("judge_game_overdue_seconds", "How late the most overdue game is for the scheduler (0: none)",
             figures.overdue_seconds or 0),
            ("judge_games_failing", "Games whose turn failed twice in a row or more", len(figures.failing_games)),
        ):
            yield GaugeMetricFamily(name, text, value=value)


class _QuietHandler(WSGIRequestHandler):
    """Logs no request line, and cuts a client silent for the server's ``request_timeout``."""

    server: _BoundedServer

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.request_timeout)  # a read past it raises: cut

    def log_message(self, format: str, *args: Any) -> None:
        del format, args


class _BoundedServer(WSGIServer):
    """A WSGI server answering each request in a thread of its own, at most ``max_requests`` at
    once: one connection more is closed unanswered, so no client can pile up threads."""

    def __init__(self, address: tuple[str, int], *, max_requests: int, request_timeout: float) -> None:
        self.max_requests = max_requests
        self.request_timeout = request_timeout
        self._slots = threading.BoundedSemaphore(max_requests)
        super().__init__(address, _QuietHandler)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            log.warning("the metrics endpoint is answering %s requests already; one more is closed", self.max_requests)
            self.shutdown_request(request)
            return
        thread = threading.Thread(
            target=self._answer, args=(request, client_address), name="judge-metrics-request", daemon=True
        )
        try:
            thread.start()
        except BaseException:
            self._slots.release()
            self.shutdown_request(request)
            raise

    def _answer(self, request: Any, client_address: Any) -> None:
        try:
            self.finish_request(request, client_address)
        except Exception:
            self.handle_error(request, client_address)
        finally:
            self.shutdown_request(request)
            self._slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client cut for silence, or gone: nothing for the operator (socketserver prints it)."""
        log.debug("a metrics request from %s ended in an error", client_address, exc_info=True)


@dataclass
class MetricsEndpoint:
    """A running endpoint: its real port (useful when 0 was asked for) and a way to stop it."""

    port: int
    server: WSGIServer

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def registry_for(db: Database, now: Callable[[], datetime]) -> CollectorRegistry:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(JudgeCollector(db, now))
    return registry


def start_metrics(
    db: Database,
    now: Callable[[], datetime],
    port: int,
    *,
    max_requests: int = MAX_REQUESTS,
    request_timeout: float = REQUEST_TIMEOUT_SECONDS,
) -> MetricsEndpoint:
    """Serve ``/metrics`` on 127.0.0.1:``port`` in a thread of its own (0: any free port): at most
    ``max_requests`` at once, a client silent ``request_timeout`` seconds cut."""
    lograte.install((__name__,))  # a client opening hundreds of connections: one warning a minute
    server = _BoundedServer((LOOPBACK, port), max_requests=max_requests, request_timeout=request_timeout)
    server.set_app(make_wsgi_app(registry_for(db, now)))
    threading.Thread(target=server.serve_forever, name="judge-metrics", daemon=True).start()
    return MetricsEndpoint(port=server.server_port, server=server)
