"""A capture SMTP server for tests: records what it is sent and answers what it is told to."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiosmtpd.smtp import SMTP, Envelope, Session


@dataclass
class Captured:
    mail_from: str
    rcpt_tos: list[str]
    data: bytes


@dataclass
class CaptureHandler:
    """RCPT answers come from ``rcpt_replies`` (by address), DATA from ``data_reply``."""

    rcpt_replies: dict[str, str] = field(default_factory=dict)
    data_reply: str = "250 OK"
    received: list[Captured] = field(default_factory=list)
    connections: int = 0
    """SMTP connections the server accepted (counted by :func:`capture_server`)."""

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        reply = self.rcpt_replies.get(address, "250 OK")
        if reply.startswith("250"):
            envelope.rcpt_tos.append(address)
        return reply

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        if self.data_reply.startswith("250"):
            self.received.append(
                Captured(
                    envelope.mail_from or "",
                    list(envelope.rcpt_tos),
                    bytes(envelope.original_content or b""),
                )
            )
        return self.data_reply


@asynccontextmanager
async def capture_server(handler: Any, **smtp_options: Any) -> AsyncIterator[int]:
    """Run an aiosmtpd server for ``handler`` on a free loopback port; yields the port."""
    loop = asyncio.get_running_loop()

    def session() -> SMTP:
        if isinstance(handler, CaptureHandler):
            handler.connections += 1
        return SMTP(handler, hostname="capture.test", loop=loop, **smtp_options)

    server = await loop.create_server(session, "127.0.0.1", 0)
    try:
        yield int(server.sockets[0].getsockname()[1])
    finally:
        server.close()
        await server.wait_closed()
