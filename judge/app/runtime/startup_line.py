"""The one readable line `judge serve` prints when it is up: where it listens, its database, where replies go.

The structured log says the same for machines (``server.started``); this
line is for the person who just typed the command and wants to know, at a
glance, whether the judge took the settings they meant. The database
password and the relay's are never shown.
"""

from __future__ import annotations

from collections.abc import Collection

from judge.config import Config, MaildirRelaySpec, TlsMode


def shown_database(url: str) -> str:
    """The database URL with its password hidden."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(unreadable database URL)"


def shown_relay(config: Config) -> str:
    """Where replies go: the relay (without its password), or the Maildir path when there is none."""
    spec = config.relay
    if isinstance(spec, MaildirRelaySpec):
        return f"written to the Maildir {spec.path} (no relay)"
    scheme = {TlsMode.NONE: "smtp", TlsMode.STARTTLS: "smtp+starttls", TlsMode.IMPLICIT: "smtps"}[spec.tls]
    login = f"{spec.username}@" if spec.username else ""
    return f"sent through the relay {scheme}://{login}{spec.host}:{spec.port}"


def startup_line(
    config: Config,
    *,
    listening: str | None,
    roles: Collection[str],
    metrics_port: int | None = None,
    web: str | None = None,
) -> str:
    """``listening``: "host:port" of the SMTP door, or None when this process does not run it;
    ``web``: "host:port" of the web pages, or None when they are not served here."""
    door = f"listening for mail on {listening}" if listening else "not listening for mail (no inbound role)"
    parts = [
        f"The judge is up: {door}",
        f"database {shown_database(config.database_url)}",
        f"replies {shown_relay(config)}",
        f"roles {', '.join(sorted(roles))}",
    ]
    if web:
        parts.append(f"pages on http://{web}/")
    if metrics_port:
        parts.append(f"metrics on http://127.0.0.1:{metrics_port}/metrics")
    return "; ".join(parts) + "."
