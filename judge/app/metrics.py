"""The judge's counters for monitoring, in Prometheus' text format (``prometheus_client``).

Read from the database at each scrape (:func:`judge.app.health.queue_figures`),
not counted in memory: the figures are the same whichever process serves
them, survive a restart, and cover every role when the roles run in
separate processes on one database. The endpoint listens on 127.0.0.1 only
(``metrics_port``; 0, the default, leaves it off): the figures are for the
operator's own Prometheus, never for the world.

Families (all gauges, as the database holds them; mail counts fall when
`judge db purge` deletes old mail):

* ``judge_mail_in{state}`` / ``judge_mail_out{state}``: mail received / queued, by state;
* ``judge_inbound_waiting``, ``judge_inbound_oldest_waiting_seconds``;
* ``judge_outbox_pending``, ``judge_outbox_oldest_pending_seconds``, ``judge_outbox_failed_recent``;
* ``judge_phases_processed``, ``judge_phase_processing_seconds_total``;
* ``judge_mail_answered_last_hour``, ``judge_mail_answer_seconds_max_last_hour``;
* ``judge_game_overdue_seconds``; ``judge_up`` (1 when the database answered the scrape).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, start_http_server
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from judge.app.health import QueueFigures, queue_figures
from judge.db.database import Database
from judge.db.enums import InboundState, OutboundState

log = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"


class JudgeCollector(Collector):
    """Collects the judge's figures from the database at each scrape."""

    def __init__(self, db: Database, now: Callable[[], datetime]) -> None:
        self.db = db
        self.now = now

    def collect(self) -> Iterator[Any]:
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
        ):
            yield GaugeMetricFamily(name, text, value=value)


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


def start_metrics(db: Database, now: Callable[[], datetime], port: int) -> MetricsEndpoint:
    """Serve ``/metrics`` on 127.0.0.1:``port`` in a thread of its own (0: any free port)."""
    server, _thread = start_http_server(port, addr=LOOPBACK, registry=registry_for(db, now))
    return MetricsEndpoint(port=server.server_port, server=server)
