"""The web role: uvicorn serving :func:`judge.web.app.create_app` inside the judge's event loop.

The judge owns the process's signals (:func:`judge.app.runtime.judge_server.serve`): uvicorn's own
handlers are left out, and the role stops when the server's stop event is set, letting the
requests under way finish (a few seconds at most).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Generator

import uvicorn

from judge.app.session.services import Services
from judge.web.app import create_app

GRACEFUL_SECONDS = 5


class _QuietServer(uvicorn.Server):
    """A uvicorn server that leaves the process's signals to the judge."""

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


async def serve_web(services: Services, listening: socket.socket, stop: asyncio.Event) -> None:
    """Serve the pages on ``listening`` until ``stop`` is set."""
    config = uvicorn.Config(
        create_app(services),
        log_config=None,  # the judge's logging, as configured
        access_log=False,  # the metrics count pages; the log keeps mail's events readable
        lifespan="off",
        server_header=False,
        proxy_headers=True,  # the client address a reverse proxy on this host forwards
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
    )
    server = _QuietServer(config)
    serving = asyncio.create_task(server.serve(sockets=[listening]), name="judge-web-uvicorn")
    stopping = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait([serving, stopping], return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
        server.should_exit = True
        await serving
