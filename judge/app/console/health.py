"""The judge's health, as `judge check` and the monitoring counters see it.

:func:`queue_figures` reads what waits (inbound mail, the outbox, the next
due game) in one read-only transaction: `judge check` compares it with its
thresholds, :mod:`judge.app.console.metrics` publishes it for Prometheus.
:func:`check` adds what a probe must try for itself (the database answers
and is at the newest schema, the relay answers or the Maildir takes files)
and says, for each finding, whether it needs a person.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select

from judge.config import Config, MaildirRelaySpec
from judge.db.database import Database
from judge.db.enums import GameState, InboundState, OutboundState, PhaseState
from judge.db.models import Game, InboundMail, OutboundMail, PhaseRecord


@dataclass(frozen=True)
class QueueFigures:
    """What waits, and since when (ages in seconds; None when nothing waits)."""

    inbound_waiting: int
    inbound_oldest_age: float | None
    inbound_by_state: dict[str, int]
    outbox_pending: int
    outbox_oldest_age: float | None
    outbox_by_state: dict[str, int]
    outbox_failed_recent: int
    """Outgoing mail given up on, created in the last day (older failures stay counted by state)."""
    next_due_game: str | None
    next_due_at: str | None
    overdue_seconds: float | None
    """How late the most overdue game is for the scheduler (None: none is due yet)."""
    phases_processed: int
    processing_ms_total: int
    answered_last_hour: int
    answer_seconds_max_last_hour: float | None
    """The longest time from arrival to answer among mails answered in the last hour."""
    failing_games: dict[str, int] = field(default_factory=dict)
    """Games whose last turns failed, by name: how many times in a row (the scheduler backs a
    failing game off, so it is never overdue: this is how a probe sees it)."""
    failing_mails: int = 0
    """Inbound mails waiting for another try after failing at least :data:`REPEATED_FAILURE` times."""


REPEATED_FAILURE = 2
"""Failures in a row from which a game or a mail needs a person: one may be the database away
for a moment; two, and the same thing is likely to fail again."""


def _age(now: datetime, then: datetime | None) -> float | None:
    if then is None:
        return None
    if then.tzinfo is None and now.tzinfo is not None:
        now = now.replace(tzinfo=None)
    return max(0.0, (now - then).total_seconds())


def queue_figures(db: Database, now: datetime) -> QueueFigures:
    with db.unit_of_work(readonly=True) as uow:
        s = uow.session
        inbound = {state.value: n for state, n in s.execute(
            select(InboundMail.state, func.count()).group_by(InboundMail.state))}
        oldest_in = s.scalar(select(func.min(InboundMail.received_at)).where(
            InboundMail.state.in_([InboundState.RECEIVED, InboundState.FAILED])))
        outbound = {state.value: n for state, n in s.execute(
            select(OutboundMail.state, func.count()).group_by(OutboundMail.state))}
        oldest_out = s.scalar(select(func.min(OutboundMail.created_at)).where(
            OutboundMail.state == OutboundState.PENDING))
        failed_recent = s.scalar(select(func.count()).select_from(OutboundMail).where(
            OutboundMail.state == OutboundState.FAILED, OutboundMail.created_at >= now - timedelta(days=1))) or 0
        due = s.execute(
            select(Game.name, Game.next_due_at)
            .where(Game.next_due_at.is_not(None), Game.state.in_([GameState.ACTIVE, GameState.FORMING]))
            .order_by(Game.next_due_at).limit(1)
        ).first()
        phases, total_ms = s.execute(
            select(func.count(), func.coalesce(func.sum(PhaseRecord.processing_ms), 0))
            .where(PhaseRecord.processed_at.is_not(None), PhaseRecord.state != PhaseState.OPEN)
        ).one()
        failing_games = {name: attempts for name, attempts in s.execute(
            select(Game.name, Game.failed_attempts).where(Game.failed_attempts >= REPEATED_FAILURE)
            .order_by(Game.failed_attempts.desc(), Game.name))}
        failing_mails = s.scalar(select(func.count()).select_from(InboundMail).where(
            InboundMail.state == InboundState.FAILED, InboundMail.attempts >= REPEATED_FAILURE)) or 0
        recent = s.execute(
            select(InboundMail.received_at, InboundMail.processed_at).where(
                InboundMail.state == InboundState.PROCESSED, InboundMail.processed_at >= now - timedelta(hours=1))
        ).all()
    waits = [_age(done, got) for got, done in recent if done is not None]
    due_age = _age(now, due[1]) if due is not None else None
    return QueueFigures(
        inbound_waiting=inbound.get("received", 0) + inbound.get("failed", 0),
        inbound_oldest_age=_age(now, oldest_in),
        inbound_by_state=inbound,
        outbox_pending=outbound.get("pending", 0),
        outbox_oldest_age=_age(now, oldest_out),
        outbox_by_state=outbound,
        outbox_failed_recent=int(failed_recent),
        next_due_game=due[0] if due is not None else None,
        next_due_at=due[1].isoformat() if due is not None else None,
        overdue_seconds=due_age if due is not None and due[1].replace(tzinfo=None) <= now.replace(tzinfo=None)
        else None,
        phases_processed=int(phases),
        processing_ms_total=int(total_ms),
        answered_last_hour=len(waits),
        answer_seconds_max_last_hour=max((w for w in waits if w is not None), default=None),
        failing_games=failing_games,
        failing_mails=int(failing_mails),
    )


@dataclass(frozen=True)
class Thresholds:
    """Past these, `judge check` says a person is needed (exit 1)."""

    inbound_waiting: int = 100
    inbound_age_minutes: float = 15
    outbox_pending: int = 500
    outbox_age_minutes: float = 60
    overdue_minutes: float = 30


@dataclass
class Finding:
    name: str
    ok: bool
    detail: str


@dataclass
class HealthReport:
    findings: list[Finding] = field(default_factory=list)
    figures: QueueFigures | None = None

    @property
    def ok(self) -> bool:
        return all(f.ok for f in self.findings)

    def add(self, name: str, ok: bool, detail: str) -> None:
        self.findings.append(Finding(name, ok, detail))

    def as_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "findings": [asdict(f) for f in self.findings],
                "figures": asdict(self.figures) if self.figures is not None else None}


def check(config: Config, now: datetime, limits: Thresholds, *, relay_timeout: float = 10.0) -> HealthReport:
    """Every finding about the judge at ``config``; never raises."""
    from judge.db import migrate, open_database

    report = HealthReport()
    shown = _hide_password(config.database_url)
    from judge.db.errors import SchemaError

    database = None
    try:
        database = open_database(config.database_url, migrate=False)
    except SchemaError as error:  # it answers, at another revision than this judge's
        report.add("database", True, f"{shown} answers")
        report.add("schema", False, str(error))
    except Exception as error:
        report.add("database", False, f"{shown}: cannot be opened: {error}")
    if database is not None:
        try:
            current, head = migrate.current_revision(config.database_url), migrate.head_revision()
            report.add("database", True, f"{shown} answers")
            report.add("schema", current == head,
                       f"at {current or 'none'}" + ("" if current == head else f", not at head {head}: run judge db upgrade"))
            if current is not None:
                _queues(report, queue_figures(database, now), limits)
        except Exception as error:
            report.add("database", False, f"{shown}: {type(error).__name__}: {error}")
        finally:
            database.dispose()
    report.add("relay", *_relay(config, relay_timeout))
    report.add("web", *_web(config, relay_timeout))
    return report


def _web(config: Config, timeout: float) -> tuple[bool, str]:
    """Whether the web role (judge.web) answers its list of games, when it is on."""
    import urllib.request

    if config.web_port == 0:
        return True, "off (web_port 0)"
    host = "127.0.0.1" if config.web_host in ("0.0.0.0", "") else config.web_host
    host = f"[{host}]" if ":" in host and not host.startswith("[") else host
    url = f"http://{host}:{config.web_port}/"
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through a proxy
    try:
        with opener.open(url, timeout=timeout) as answer:
            status = int(answer.status)
    except Exception as error:
        return False, f"{url}: not answering ({error}): is judge serve running with its web role?"
    return status == 200, f"{url} answers {status}"


def _queues(report: HealthReport, f: QueueFigures, limits: Thresholds) -> None:
    report.figures = f
    age = f"{f.inbound_oldest_age / 60:.1f} min" if f.inbound_oldest_age is not None else "none waiting"
    report.add("inbound queue",
               f.inbound_waiting <= limits.inbound_waiting
               and (f.inbound_oldest_age or 0) <= limits.inbound_age_minutes * 60,
               f"{f.inbound_waiting} waiting (limit {limits.inbound_waiting}), oldest {age} "
               f"(limit {limits.inbound_age_minutes:g} min)")
    quarantined = f.inbound_by_state.get("quarantined", 0)
    failed = f.inbound_by_state.get("failed", 0)
    report.add("inbound failures", quarantined == 0 and f.failing_mails == 0,
               f"{quarantined} quarantined (limit 0: see judge mail list --quarantined), {failed} failed and to be "
               f"retried, {f.failing_mails} of them {REPEATED_FAILURE} times or more (limit 0: see judge mail list --failed)")
    games = ", ".join(f"{name} ({attempts} in a row)" for name, attempts in list(f.failing_games.items())[:10])
    report.add("failing games", not f.failing_games,
               f"{len(f.failing_games)} failed {REPEATED_FAILURE} times in a row or more (limit 0)"
               + (f": {games}; see judge game show NAME and the audit log" if games else ""))
    out_age = f"{f.outbox_oldest_age / 60:.1f} min" if f.outbox_oldest_age is not None else "none waiting"
    report.add("outbox",
               f.outbox_pending <= limits.outbox_pending and (f.outbox_oldest_age or 0) <= limits.outbox_age_minutes * 60,
               f"{f.outbox_pending} pending (limit {limits.outbox_pending}), oldest {out_age} "
               f"(limit {limits.outbox_age_minutes:g} min)")
    report.add("outbox failures", f.outbox_failed_recent == 0,
               f"{f.outbox_failed_recent} given up on in the last day (limit 0), "
               f"{f.outbox_by_state.get('failed', 0)} in all")
    if f.next_due_game is None:
        report.add("next due game", True, "no game is waiting for the scheduler")
    else:
        late = f.overdue_seconds or 0
        report.add("next due game", late <= limits.overdue_minutes * 60,
                   f"{f.next_due_game} at {f.next_due_at}"
                   + (f", {late / 60:.1f} min overdue (limit {limits.overdue_minutes:g} min: is the scheduler running?)"
                      if late else ""))


def _relay(config: Config, timeout: float) -> tuple[bool, str]:
    spec = config.relay
    if isinstance(spec, MaildirRelaySpec):
        return _maildir_writable(spec.path)
    from judge.mail.outbound import SmtpRelay

    relay = SmtpRelay.from_spec(spec, config.address)
    relay.timeout = timeout
    where = f"smtp {spec.host}:{spec.port}"
    try:
        client = relay.connect()  # the sender's own connection: TLS and login as configured
    except Exception as error:
        return False, f"{where}: {error}"
    try:
        code, _message = client.noop()
    except Exception as error:
        return False, f"{where}: NOOP failed: {error}"
    finally:
        try:
            client.quit()
        except Exception:
            client.close()
    return code == 250, f"{where} answers NOOP with {code}"


def _maildir_writable(path: Any) -> tuple[bool, str]:
    where = f"maildir {path}"
    try:
        tmp = path / "tmp"
        tmp.mkdir(parents=True, exist_ok=True)
        probe = tmp / f".judge-check-{uuid.uuid4().hex}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        return False, f"{where}: not writable: {error.strerror or error}"
    return os.access(path, os.W_OK), f"{where} is writable"


def _hide_password(url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(unreadable database URL)"
