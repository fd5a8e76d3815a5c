"""The running judge: one asyncio process holding the SMTP door, the worker,
the scheduler, the outbound sender and the web pages, or any subset of them.

Each role is a loop around work that is already durable in the database, so
the roles only need to be *woken*, never to hand data to each other: the
door stores a mail and wakes the worker; the worker queues replies and wakes
the sender (and the scheduler, when a game's due time moved). When the roles
run in separate processes (``judge serve --only ...`` on one PostgreSQL
database) they wake each other through the database instead (LISTEN/NOTIFY,
:mod:`judge.db.wakeups`), and each still polls it; nothing else changes.

Shutdown is graceful: the door stops accepting connections first (so no mail
is half-accepted), mail being stored is committed, the worker finishes the
mail it is processing and the sender the batch it is delivering, then the
process exits. A mail the door answered 250 is never lost, whatever the
moment of a crash: it is in the database and the worker picks it up on the
next start.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import importlib
import logging
import pkgutil
import signal
import socket
import threading
from collections.abc import Awaitable, Callable, Collection, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from judge.app.session.services import Services
from judge.collector import settle_heap
from judge.config import Config
from judge.db.database import Database
from judge.db.wakeups import Channel, PostgresWakeups, wakeups_for
from judge.logs import log_event
from judge.mail.inbound import (
    GroupCommitStore,
    InboundServer,
    JudgeInboundHandler,
    Received,
    start_inbound_server,
)
from judge.mail.outbound import (
    DEFAULT_BACKOFF,
    BackoffPolicy,
    DrainReport,
    Outbox,
    Relay,
    backoff_from_config,
    drain_once,
    relay_from_config,
)
from judge.mail.ratelimit import RateLimiter
from judge.timekeeping.clock import Clock
from judge.waiting import first_of

log = logging.getLogger(__name__)

_IMPORTS = threading.Lock()
"""Held by every import the roles make in their threads after start-up (the worker, the scheduler,
the sender, the web pages). Python raises ``_DeadlockError`` when two threads import modules of one
cycle of imports in opposite orders (``judge.core.adjudicator`` and its ``results`` were seen to),
which stopped a role at start-up; one at a time, they cannot."""


_WARMED: list[bool] = []
"""Set once :func:`_import_the_judge` has run in this process."""

#: The packages a role may import lazily while it works (a function-level import in a handler,
#: the processing, the councils' rules, the maps): all of the application and the floors below it.
_RUNTIME_PACKAGES = ("judge.core", "judge.lang", "judge.db", "judge.timekeeping", "judge.mail", "judge.maps",
                     "judge.i18n", "judge.app")


def _import_the_judge() -> None:
    """Import every module of :data:`_RUNTIME_PACKAGES`, once, holding :data:`_IMPORTS`.

    The roles' start-up imports are serialised, but a role may still import a module for the
    first time later, inside a function, while another role's thread imports the other end of
    the same cycle: the ``_DeadlockError`` again, in the middle of a phase. With every module
    of the application already in ``sys.modules`` such an import is a dictionary lookup. About a
    second of start-up, paid in a thread after the door listens."""
    if _WARMED:
        return
    for package_name in _RUNTIME_PACKAGES:
        package = importlib.import_module(package_name)
        for found in pkgutil.walk_packages(package.__path__, f"{package_name}."):
            try:
                importlib.import_module(found.name)
            except ImportError as missing:  # an optional dependency this installation lacks
                log.warning("not imported at start-up: %s (%s)", found.name, missing)
    _WARMED.append(True)
    settle_heap("imports")  # what every role of this process imports lives as long as it


def _serially(load: Callable[..., Any], *args: Any) -> Any:
    """``load(*args)`` holding :data:`_IMPORTS` (an import in a role's thread), after the judge's
    modules are all imported (:func:`_import_the_judge`)."""
    with _IMPORTS:
        _import_the_judge()
        return load(*args)

class Role(StrEnum):
    """One job of the running judge; ``judge serve --only ROLE`` runs just that one."""

    INBOUND = "inbound"
    WORKER = "worker"
    OUTBOUND = "outbound"
    SCHEDULER = "scheduler"
    WEB = "web"
    """The read-only pages of the games (:mod:`judge.web`), on ``web_host:web_port`` (0: off)."""


ALL_ROLES: frozenset[Role] = frozenset(Role)
MAIL_ROLES: frozenset[Role] = ALL_ROLES - {Role.WEB}
"""The roles that handle mail and wake one another; the web role only reads the database."""


@dataclass(frozen=True)
class ServerTuning:
    """How often idle roles look at the database and how the sender backs off.

    The defaults suit production. Tests shorten the back-off so that a relay
    coming back is noticed in seconds, not minutes.
    """

    worker_poll_seconds: float = 2.0
    """An idle worker looks for mail this often (mail from another process's door)."""
    workers: int = 1
    """Workers in this process (``judge serve --workers N``), each answering one mail at a time
    in its own transaction. The claim gives each worker a different sender's oldest mail
    (PostgreSQL: ``FOR UPDATE SKIP LOCKED``; a mail taken is leased), so each sender's mail is
    still answered in order. On SQLite the write lock takes the workers in turn: keep 1."""
    outbound_poll_seconds: float = 2.0
    """An idle sender looks for due mail this often (retries, other processes' mail)."""
    scheduler_poll_seconds: float = 30.0
    outbound_batch: int = 20
    """Mails claimed in one commit (each then marked sent in a commit of its own)."""
    outbound_pass: int = 200
    """Mails a sender delivers on one SMTP session before it looks again (a pass also ends when
    the outbox has no more due, and before half the shortest lease has passed)."""
    outbound_connections: int = 1
    """Senders side by side in this process (``outbound_connections``), each draining its own
    batches on its own SMTP session; the claim gives each different mails (PostgreSQL:
    ``FOR UPDATE SKIP LOCKED``, then the lease)."""
    backoff: BackoffPolicy = DEFAULT_BACKOFF
    shutdown_grace_seconds: float = 30.0
    """How long to wait for open SMTP sessions and work under way before giving up on them."""


def tuning_from_config(config: Config) -> ServerTuning:
    """The production tuning, with the outbound retry policy the settings ask for."""
    return ServerTuning(backoff=backoff_from_config(config), outbound_connections=config.outbound_connections)


def build_services(config: Config, db: Database, clock: Clock) -> Services:
    """The services of a running judge: its settings, database and clock, and the flood
    limiter its settings ask for (``rate_limit_messages`` 0 turns it off)."""
    limiter = (
        RateLimiter.for_addresses(
            config.rate_limit_messages, config.rate_limit_window, exempt=[config.admin]
        )
        if config.rate_limit_messages > 0
        else None
    )
    return Services(db=db, config=config, clock=clock, limiter=limiter)


WebServe = Callable[[Services, socket.socket, asyncio.Event], Awaitable[None]]
"""Serves the pages on a listening socket until the event is set (``judge.web.serving.serve_web``)."""

WebLoader = Callable[[], WebServe]
"""Imports the pages and gives their server: called in a thread once the door listens, so the
start-up line does not wait for Starlette and Jinja2 to load."""


class JudgeServer:
    """The roles of a judge, started together and stopped together.

    ``async with JudgeServer(services) as server:`` starts it (``server.port``
    is then the real SMTP port, useful when 0 was asked for) and stops it
    gracefully at the end of the block. :meth:`run` waits until
    :meth:`request_stop` (a signal handler) is called.
    """

    def __init__(
        self,
        services: Services,
        *,
        roles: Collection[Role] = ALL_ROLES,
        host: str | None = None,
        port: int | None = None,
        relay: Relay | None = None,
        tuning: ServerTuning = ServerTuning(),
        web_socket: socket.socket | None = None,
        web: WebLoader | None = None,
    ) -> None:
        """``web_socket``: a listening socket the web role serves on instead of binding
        ``web_host:web_port`` itself (tests bind port 0). ``web``: loads the pages the web role
        serves; the pages sit above the application (:mod:`judge.web`, beside the command line),
        so the command that runs the judge hands them in, and without them the role stays off."""
        if not roles:
            raise ValueError("a server needs at least one role")
        self.roles = frozenset(Role(role) for role in roles)
        self.host = host if host is not None else services.config.smtp_host
        self._requested_port = port if port is not None else services.config.smtp_port
        self.relay = relay
        self.tuning = tuning
        self._base_services = services
        self.services = services
        self._stop = asyncio.Event()
        self._worker_wake = asyncio.Event()
        self._outbound_wake = asyncio.Event()
        self._outbound_lock = threading.Lock()
        self._outbound_pictures: list[Any] = []
        """The maps the senders of this process share (one ``SharedPictures``, made by the first)."""
        self._scheduler_wake = asyncio.Event()
        self._warming: asyncio.Task[None] | None = None
        """The outbound role's drawing of the boards in play (:meth:`_warm_boards`), not a role:
        its end is not a failure, and the senders do not wait for it."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._inbound: InboundServer | None = None
        self._web_socket = web_socket
        self._web = web
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._stopped = asyncio.Event()
        self._woken: dict[Channel, tuple[Role, asyncio.Event]] = {
            Channel.MAIL_IN: (Role.WORKER, self._worker_wake),
            Channel.OUTBOX: (Role.OUTBOUND, self._outbound_wake),
            Channel.SCHEDULE: (Role.SCHEDULER, self._scheduler_wake),
        }
        """Which role each wake-up is for, and the event that wakes it in this process."""
        self._wakeups: PostgresWakeups | None = None
        self._listening = threading.Event()
        """Set when the listener for other processes' wake-ups must stop."""
        self._listener: threading.Thread | None = None
        self.running_roles: frozenset[Role] = frozenset()
        self.failed = False
        """True when a role stopped by itself (a bug): the process should exit non-zero."""

    # --- life cycle ---------------------------------------------------------------

    @property
    def port(self) -> int:
        """The port the SMTP door listens on (only while the inbound role runs)."""
        if self._inbound is None:
            raise RuntimeError("the inbound role is not running")
        return self._inbound.port

    @property
    def web_port(self) -> int:
        """The port the web pages are served on (only while the web role runs)."""
        if self._web_socket is None or Role.WEB not in self.running_roles:
            raise RuntimeError("the web role is not running")
        port: int = self._web_socket.getsockname()[1]
        return port

    async def start(self) -> None:
        """Start every role; returns once the SMTP door (if any) is listening."""
        self._loop = asyncio.get_running_loop()
        if self.tuning.workers > 1 or self.tuning.outbound_connections > 1:
            # each worker holds a thread while it answers a mail, each sender while it drains a batch
            threads = self.tuning.workers + self.tuning.outbound_connections + 6
            self._loop.set_default_executor(ThreadPoolExecutor(max_workers=threads))
        mail_here = self.roles & MAIL_ROLES
        if mail_here and mail_here != MAIL_ROLES:  # the other roles run in other processes: wake them there
            self._wakeups = wakeups_for(self._base_services.db.engine)
        self.services = dataclasses.replace(
            self._base_services,
            on_outbox=self._wake_soon(Channel.OUTBOX, self._base_services.on_outbox),
            on_schedule=self._wake_soon(Channel.SCHEDULE, self._base_services.on_schedule),
        )
        running: set[Role] = set()
        if Role.INBOUND in self.roles:
            self._inbound = await self._start_inbound()
            running.add(Role.INBOUND)
        if Role.WORKER in self.roles:
            self._spawn(Role.WORKER, self._run_worker())
            for number in range(2, self.tuning.workers + 1):
                self._spawn(Role.WORKER, self._run_worker(purge=False), name=f"{Role.WORKER.value}-{number}")
            running.add(Role.WORKER)
        if Role.OUTBOUND in self.roles:
            relay = self.relay or relay_from_config(self.services.config)
            self._spawn(Role.OUTBOUND, self._run_outbound(relay))
            for number in range(2, self.tuning.outbound_connections + 1):
                self._spawn(Role.OUTBOUND, self._run_outbound(relay), name=f"{Role.OUTBOUND.value}-{number}")
            running.add(Role.OUTBOUND)
            self._warming = asyncio.create_task(asyncio.to_thread(self._warm_boards), name="judge-warm-boards")
        if Role.SCHEDULER in self.roles:
            self._spawn(Role.SCHEDULER, self._run_scheduler())
            running.add(Role.SCHEDULER)
        if Role.WEB in self.roles:
            listening = self._web_listening()
            if listening is not None:
                self._spawn(Role.WEB, self._run_web(listening))
                running.add(Role.WEB)
        self.running_roles = frozenset(running)
        self._start_listening()
        log_event(
            log,
            "server.started",
            roles=",".join(sorted(role.value for role in running)),
            smtp=f"{self.host}:{self._inbound.port}" if self._inbound else None,
            web=self._web_address() if Role.WEB in running else None,
            database=self.services.db.dialect,
        )

    def request_stop(self) -> None:
        """Ask every role to finish what it is doing and stop (safe from a signal handler)."""
        if not self._stop.is_set():
            log_event(log, "server.stopping")
        self._stop.set()

    async def run(self) -> None:
        """Wait until a stop is requested, or a role dies; then stop everything gracefully."""
        waiters: list[asyncio.Future[Any]] = [asyncio.ensure_future(self._stop.wait())]
        waiters += list(self._tasks.values())
        try:
            await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiters[0].cancel()
        if not self._stop.is_set():  # a role ended on its own: that is a failure
            self.failed = True
            ended = [task.get_name() for task in self._tasks.values() if task.done()]
            log_event(log, "server.role_ended", level=logging.ERROR, roles=",".join(ended))
        await self.stop()

    async def stop(self) -> None:
        """Stop accepting mail, let work under way finish, then release the roles."""
        if self._stopped.is_set():
            return
        self.request_stop()
        if self._inbound is not None:
            try:
                await asyncio.wait_for(
                    self._inbound.close(), timeout=self.tuning.shutdown_grace_seconds
                )
            except TimeoutError:
                log_event(log, "server.inbound_close_timeout", level=logging.WARNING)
        tasks = list(self._tasks.values()) + ([self._warming] if self._warming is not None else [])
        if tasks:
            done, pending = await asyncio.wait(tasks, timeout=self.tuning.shutdown_grace_seconds)
            for task in pending:
                task.cancel()
            for task in done:
                if not task.cancelled() and task.exception() is not None:
                    self.failed = True
                    log.error("role %s failed", task.get_name(), exc_info=task.exception())
        self._stop_listening()
        self._stopped.set()
        log_event(log, "server.stopped")

    async def __aenter__(self) -> JudgeServer:
        await self.start()
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.stop()

    # --- roles ----------------------------------------------------------------

    async def _start_inbound(self) -> InboundServer:
        config = self.services.config
        handler = JudgeInboundHandler(
            GroupCommitStore(self._store_and_wake),
            config.own_addresses,
            config.max_message_size,
            clock=self.services.clock.now,
            max_recipients=config.smtp_max_recipients,
            also_accepts=self.services.verp.is_bounce_address,  # bounces to the VERP addresses
        )
        return await start_inbound_server(
            handler,
            self.host,
            self._requested_port,
            hostname=config.domain,
            max_connections=config.smtp_max_connections,
            max_connections_per_client=config.smtp_max_connections_per_client,
            idle_timeout=config.smtp_idle_timeout_seconds,
            session_max=config.smtp_session_max_seconds,
        )

    def _web_listening(self) -> socket.socket | None:
        """The web role's socket, bound here so that a port taken fails the start like the SMTP
        door's (OSError); None when ``web_port`` is 0 (the web role off)."""
        if self._web is None:
            log_event(log, "server.role_off", role=Role.WEB.value, reason="no web pages were handed in")
            return None
        if self._web_socket is not None:
            return self._web_socket
        config = self.services.config
        if config.web_port == 0:
            log_event(log, "server.role_off", role=Role.WEB.value, reason="web_port is 0")
            return None
        self._web_socket = socket.create_server((config.web_host, config.web_port), reuse_port=False)
        return self._web_socket

    def _web_address(self) -> str:
        assert self._web_socket is not None
        host, port = self._web_socket.getsockname()[:2]
        return f"{host}:{port}"

    async def _run_web(self, listening: socket.socket) -> None:
        """Serve the pages until asked to stop. The web application (Starlette, Jinja2) is
        imported here, in a thread, once the door listens, as the worker's modules are."""
        assert self._web is not None  # _web_listening gives no socket without the pages
        serve_web = await asyncio.to_thread(_serially, self._web)
        await serve_web(self.services, listening, self._stop)

    def _store_and_wake(self, mails: list[Received]) -> list[int]:
        """Commit mails the door received together, in one transaction (the door says 250 to
        each only after this returns), then wake the worker.

        Runs in one of the door's store threads (:class:`GroupCommitStore`), hence the
        thread-safe wake.
        """
        with self.services.db.unit_of_work() as uow:
            ids = uow.mail_in.store_many(mails)
        self._wake(Channel.MAIL_IN)
        return ids

    async def _run_worker(self, *, purge: bool = True) -> None:
        # Imported here, in a thread, once the door listens (issue 14: start-up under 1.5 s):
        # the commands, their grammar and handlers are most of the judge's import time.
        worker = await asyncio.to_thread(_serially, importlib.import_module, "judge.app.mail_in.worker")
        housekeeping = await asyncio.to_thread(_serially, importlib.import_module, "judge.app.console.housekeeping")
        await worker.run_worker(
            self.services,
            self._stop,
            self._worker_wake,
            idle_seconds=self.tuning.worker_poll_seconds,
            on_idle=housekeeping.DailyPurge(self.services) if purge else None,  # the first worker purges
            # Several workers share the waiting mail out: each holds fewer at a time.
            take_ahead=max(1, worker.TAKE_AHEAD // self.tuning.workers),
        )

    async def _run_outbound(self, relay: Relay) -> None:
        """Drain the outbox, a batch at a time, until asked to stop.

        Like :func:`judge.mail.outbound.run_outbound`. Each mail's attempt is
        committed before it is sent and its delivery committed as soon as the
        relay accepted it, so a crash sends at most the mail in flight twice;
        any error (a bad mail, the database away) is logged and the loop goes on.
        Each of the ``outbound_connections`` senders runs this loop with an outbox of
        its own (its maps drawn once per phase and language for the mails it sends).
        """
        outbox: list[Outbox] = []  # made in the sender's thread at its first pass, then kept
        while not self._stop.is_set():
            self._outbound_wake.clear()
            try:
                report = await asyncio.to_thread(self._drain_batch, relay, outbox)
            except Exception:
                log.exception("outbox drain failed; trying again shortly")
                report = DrainReport()
            if report.claimed:
                log_event(
                    log,
                    "outbox.drained",
                    claimed=report.claimed,
                    sent=report.sent,
                    retried=report.retried,
                    failed=report.failed,
                )
            if report.more:
                continue
            await first_of(
                self._stop, self._outbound_wake, timeout=self.tuning.outbound_poll_seconds
            )

    def _drain_batch(self, relay: Relay, outbox: list[Outbox]) -> DrainReport:
        """A pass: up to ``outbound_pass`` mails, claimed ``outbound_batch`` at a time in one
        commit, sent on one SMTP session, each marked sent in a commit of its own."""
        if not outbox:
            sender = _serially(importlib.import_module, "judge.app.mail_out.sender")  # in the sender's thread
            with self._outbound_lock:  # the senders of this process draw each map once between them
                if not self._outbound_pictures:
                    self._outbound_pictures.append(sender.SharedPictures())
            outbox.append(sender.TransactionalOutbox(self.services, self._outbound_pictures[0]))
        return drain_once(
            outbox[0],
            relay,
            self.services.clock.now(),
            limit=self.tuning.outbound_pass,
            batch=self.tuning.outbound_batch,
            policy=self.tuning.backoff,
        )

    def _warm_boards(self) -> None:
        """Draw the boards of the variants in play once, in a thread beside the senders, so that
        the first deadline after a start does not pay for their unchanging parts
        (:func:`judge.app.reports.opening_boards.warm_boards`: seconds of CPU for World). Only
        saves time: whatever fails is logged, and the senders draw what they need anyway."""
        try:
            boards = _serially(importlib.import_module, "judge.app.reports.opening_boards")
            drawn = boards.warm_boards(self.services.db, stop=self._stop.is_set)
        except Exception:
            log.exception("could not draw the boards in play ahead of the deadlines")
            return
        settle_heap("boards")  # the boards' kept parts live as long as the process
        if drawn:
            log_event(log, "outbox.boards_drawn", boards=drawn)

    async def _run_scheduler(self) -> None:
        run_scheduler = await asyncio.to_thread(_serially, _scheduler_loop)  # imported after start-up, in a thread
        await run_scheduler(self.services, self._stop, self._scheduler_wake, max_sleep=self.tuning.scheduler_poll_seconds)

    # --- plumbing -------------------------------------------------------------

    def _spawn(self, role: Role, work: Coroutine[Any, Any, None], *, name: str | None = None) -> None:
        name = name or role.value
        self._tasks[name] = asyncio.create_task(work, name=f"judge-{name}")

    def _set_threadsafe(self, event: asyncio.Event) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop closed under us: nothing to wake
            loop.call_soon_threadsafe(event.set)

    def _wake(self, channel: Channel) -> None:
        """Wake the role ``channel`` is for (from any thread): in this process, and through the
        database when that role runs in other processes."""
        role, event = self._woken[channel]
        self._set_threadsafe(event)
        if self._wakeups is not None and role not in self.roles:
            self._wakeups.announce(channel)

    def _wake_soon(self, channel: Channel, also: Callable[[], None]) -> Callable[[], None]:
        """A callback for :class:`Services` (called from worker threads) that wakes a role."""

        def wake() -> None:
            self._wake(channel)
            also()

        return wake

    def _start_listening(self) -> None:
        """Hear the wake-ups other processes send to the roles running here (split roles on
        PostgreSQL only), in a thread of its own."""
        if self._wakeups is None:
            return
        channels = [channel for channel, (role, _) in self._woken.items() if role in self.running_roles]
        if not channels:
            return
        wakeups = self._wakeups

        def on_wake(channel: Channel) -> None:
            self._set_threadsafe(self._woken[channel][1])

        self._listener = threading.Thread(
            target=wakeups.listen,
            args=(channels, on_wake, self._listening),
            name="judge-wakeups",
            daemon=True,
        )
        self._listener.start()

    def _stop_listening(self) -> None:
        self._listening.set()
        if self._listener is not None:
            self._listener.join(timeout=5)
            self._listener = None
        if self._wakeups is not None:
            self._wakeups.close()


def _scheduler_loop() -> Callable[..., Awaitable[None]]:
    """The scheduler's loop (:mod:`judge.app.phases.guarded_scheduler`), imported once the door
    listens, as the worker is: processing, reports and maps are much of the judge's import time."""
    from judge.app.phases.guarded_scheduler import run_scheduler

    return run_scheduler


async def serve(
    services: Services,
    *,
    roles: Collection[Role] = ALL_ROLES,
    tuning: ServerTuning | None = None,
    ready: Callable[[JudgeServer], None] | None = None,
    web: WebLoader | None = None,
) -> bool:
    """Run the judge until SIGINT or SIGTERM, then shut down gracefully.

    Returns False when a role failed (the exit status should say so, and a
    supervisor such as systemd restart the judge). Without ``tuning``, the
    sender's retries follow the settings (:func:`tuning_from_config`).
    """
    if tuning is None:
        tuning = tuning_from_config(services.config)
    server = JudgeServer(services, roles=roles, tuning=tuning, web=web)
    loop = asyncio.get_running_loop()
    installed: list[signal.Signals] = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, server.request_stop)
            installed.append(signum)
    try:
        await server.start()
        if ready is not None:
            ready(server)
        await server.run()
    finally:
        await server.stop()
        for signum in installed:
            loop.remove_signal_handler(signum)
    return not server.failed
