"""Structured logging for journald: one line per event, no secrets, no mail bodies.

A judge runs unattended under systemd; its operator reads ``journalctl -u
diplomacy-judge`` and greps it. So every record is ONE line (a traceback is
folded into an ``exc=`` field), in ``key=value`` logfmt (the default, easy to
read and grep) or JSON (``JUDGE_LOG_FORMAT=json``, for log shippers).

Players trust the judge with passwords and private press, so what reaches the
journal is filtered here, in one place, rather than by every caller:

- fields named like secrets (``password``, ``token``, ...) are always replaced
  by ``[redacted]``, at every level;
- fields holding mail content (``body``, ``raw``, ``text``, ...) are shown
  only in DEBUG records; at INFO and above they are replaced too;
- free text (messages, other field values, tracebacks) has inline secrets
  scrubbed: ``password=...``, the password in ``scheme://user:pw@host`` URLs,
  and the password word of Judge commands (``SIGNON Fgame pw``,
  ``SET PASSWORD pw``, ...).

Under systemd (``$JOURNAL_STREAM`` names our stream) the line carries no
timestamp (journald stamps it) and starts with a ``<N>`` syslog priority so
``journalctl -p warning`` filters by level.

Call :func:`configure_logging` once at start-up and :func:`log_event` to
record an event: ``log_event(log, "mail.stored", mail_id=12, sender=addr)``.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, TextIO

from judge.config import Config, ConfigError

LOG_LEVEL_VARIABLE = "JUDGE_LOG_LEVEL"
LOG_FORMAT_VARIABLE = "JUDGE_LOG_FORMAT"
DEFAULT_LOG_LEVEL = "INFO"
REDACTED = "[redacted]"

# Libraries that are chatty at INFO (aiosmtpd logs every connection, SQLAlchemy
# logs SQL *with parameters*, i.e. password hashes and raw mail; flufl.bounce
# logs each of its detectors for every mail it reads): kept at
# WARNING unless the operator asks for DEBUG.
QUIET_LOGGERS = ("mail.log", "sqlalchemy", "apscheduler", "alembic", "asyncio", "flufl.bounce")
# Libraries whose DEBUG writes the data itself (SQLAlchemy: every row read, raw mail and
# replies included): held at INFO even when the operator asks for DEBUG. Their statements'
# parameters are never logged either (the engines hide them: judge.db.engine).
DATA_AT_DEBUG = {"sqlalchemy": logging.INFO}

# Marks the handler this module installs, so a second configure replaces it
# instead of doubling every line.
_HANDLER_MARK = "_judge_structured_handler"


class LogFormat(StrEnum):
    """How a record is written: logfmt ``key=value`` pairs or one JSON object."""

    LOGFMT = "logfmt"
    JSON = "json"


@dataclass(frozen=True)
class LogSettings:
    """What :func:`configure_logging` applied (returned so a caller can log it)."""

    level: int
    format: LogFormat
    journald: bool


# ---------------------------------------------------------------------------
# Redaction
# ---------------------------------------------------------------------------

# Field names are split into words (on _ . - and camelCase) and matched word by word,
# so "context" is not taken for "text" nor "author" for "auth".
_SECRET_WORDS = frozenset(
    {
        "password",
        "passwd",
        "pwd",
        "pw",
        "secret",
        "token",
        "credential",
        "credentials",
        "apikey",
        "auth",
        "cookie",
    }
)
_CONTENT_WORDS = frozenset({"body", "raw", "content", "text", "press", "payload"})
_KEY_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")

_INLINE_SECRET = re.compile(
    r"(?P<head>\b(?:password|passwd|pwd|secret|token)\b\s*[=:]\s*)(?P<value>\"[^\"]*\"|'[^']*'|\S+)",
    re.I,
)
_URL_PASSWORD = re.compile(
    r"(?P<head>\b[a-z][a-z0-9+.\-]*://[^\s:/@]+:)(?P<value>[^\s@/]+)(?=@)", re.I
)
# The password word of Judge commands. SIGNON is distinctive enough to be found
# anywhere (an error message quoting the line); the others only where a command
# starts: a line, a quotation, an HTML tag's end, or a line end as a library writes
# it escaped (``b'...\\r\\nLOGON Fgame pw'``, the ``\\r\\n`` being two characters each), so
# ordinary prose ("could not join game x") is left alone.
_COMMAND_START = r"(?:^|[\"'`>]|(?<=\\[rn]))[ \t]*"
_COMMAND_PASSWORD = re.compile(
    r"(?P<head>(?:\b|(?<=\\[rn]))sign\s*on\s+\S+\s+"
    r"|" + _COMMAND_START + r"(?:log[io]n|hello|create|observe|watch|monitor|join)[ \t]+\S+[ \t]+"
    r"|\bset[ \t]+(?:password|pw|p)[ \t]+"
    r"|" + _COMMAND_START + r"(?:password|pw)[ \t]+)"
    r"(?P<value>[^\s\"'`]+)",
    re.I | re.M,
)

# What the SMTP library logs of a mail's content (aiosmtpd, at DEBUG: each DATA line as it
# arrives, before any decoding): never written. Passwords hide there in every shape a mail
# takes (quoted-printable, base64, HTML), beyond what a pattern could find.
_MAIL_CONTENT_RECORDS = frozenset({("mail.log", "DATA readline: %s")})


def _not_mail_content(record: logging.LogRecord) -> bool:
    """The handler's filter: False for a record that would write a mail's content."""
    return (record.name, record.msg) not in _MAIL_CONTENT_RECORDS


def _key_words(key: str) -> set[str]:
    return {word.lower() for word in _KEY_WORD.findall(key)}


_SECRET_INFIXES = ("password", "passwd", "apikey", "secret")


def is_secret_key(key: str) -> bool:
    """True for a field name that holds a password or other credential."""
    squashed = re.sub(r"[^a-z0-9]", "", key.lower())
    return not _key_words(key).isdisjoint(_SECRET_WORDS) or any(
        infix in squashed for infix in _SECRET_INFIXES
    )


def is_content_key(key: str) -> bool:
    """True for a field name that holds mail or press content (shown in DEBUG only)."""
    return not _key_words(key).isdisjoint(_CONTENT_WORDS)


def redact_text(text: str) -> str:
    """``text`` with inline passwords replaced by ``[redacted]``.

    A best effort for free text (messages, errors, tracebacks); structured
    fields are the reliable way, see :func:`redact_fields`.
    """
    for pattern in (_INLINE_SECRET, _URL_PASSWORD, _COMMAND_PASSWORD):
        text = pattern.sub(lambda m: m.group("head") + REDACTED, text)
    return text


def redact_fields(
    fields: Mapping[str, object], *, reveal_content: bool = False
) -> dict[str, object]:
    """A copy of ``fields`` safe to log.

    Secret-named fields are always redacted; content-named fields unless
    ``reveal_content`` (the formatter passes True for DEBUG records only);
    text values that remain go through :func:`redact_text`, so even a DEBUG
    body shows no SIGNON password. Bytes are decoded only when content is
    revealed, and otherwise logged as their length.
    """
    safe: dict[str, object] = {}
    for key, value in fields.items():
        if is_secret_key(key) or (is_content_key(key) and not reveal_content):
            safe[key] = REDACTED
        elif isinstance(value, str):
            safe[key] = redact_text(value)
        elif isinstance(value, bytes | bytearray):
            safe[key] = (
                redact_text(bytes(value).decode("utf-8", "replace"))
                if reveal_content
                else f"<{len(value)} bytes>"
            )
        else:
            safe[key] = value
    return safe


# ---------------------------------------------------------------------------
# Recording events
# ---------------------------------------------------------------------------

_EVENT_ATTR = "judge_event"
_FIELDS_ATTR = "judge_fields"


def log_event(
    logger: logging.Logger, event: str, *, level: int = logging.INFO, **fields: object
) -> None:
    """Record ``event`` (a short dotted name, e.g. ``mail.stored``) with ``fields``.

    The event name is the message, so a grep for ``event=mail.stored`` finds
    every occurrence whatever its fields. Nothing is computed when the level
    is disabled. Field names ``level``, ``logger``, ``event``, ``msg``, ``ts``
    and ``exc`` are taken by the formatter; pick others.
    """
    if logger.isEnabledFor(level):
        logger.log(
            level,
            event,
            extra={_EVENT_ATTR: event, _FIELDS_ATTR: dict(fields)},
            stacklevel=2,
        )


# ---------------------------------------------------------------------------
# Formatting
# ---------------------------------------------------------------------------

# syslog priorities, for journald's "<N>" prefix.
_SYSLOG_PRIORITY = {
    logging.CRITICAL: 2,
    logging.ERROR: 3,
    logging.WARNING: 4,
    logging.INFO: 6,
    logging.DEBUG: 7,
}
_BARE_VALUE = re.compile(r"^[^\s=\"\\]+$")
_KEY_CHARS = re.compile(r"[^A-Za-z0-9_.\-]")


def _syslog_priority(levelno: int) -> int:
    for threshold in (logging.CRITICAL, logging.ERROR, logging.WARNING, logging.INFO):
        if levelno >= threshold:
            return _SYSLOG_PRIORITY[threshold]
    return _SYSLOG_PRIORITY[logging.DEBUG]


def _logfmt_value(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    text = value if isinstance(value, str) else str(value)
    if _BARE_VALUE.match(text):
        return text
    escaped = (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\n", "\\n")
        .replace("\r", "\\r")
        .replace("\t", "\\t")
    )
    return f'"{escaped}"'


def _json_value(value: object) -> object:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_json_value(v) for v in value]
    return str(value)


class StructuredFormatter(logging.Formatter):
    """Formats a record as one logfmt or JSON line, redacted.

    Records made by :func:`log_event` carry an ``event`` and fields; plain
    ``log.info("...%s", x)`` records from other modules become ``msg="..."``.
    """

    def __init__(
        self,
        log_format: LogFormat = LogFormat.LOGFMT,
        *,
        timestamps: bool = True,
        syslog_prefix: bool = False,
    ) -> None:
        super().__init__()
        self.log_format = log_format
        self.timestamps = timestamps
        self.syslog_prefix = syslog_prefix

    def fields_of(self, record: logging.LogRecord) -> dict[str, object]:
        """The ordered, redacted fields of ``record`` (what :meth:`format` writes)."""
        out: dict[str, object] = {}
        if self.timestamps:
            instant = datetime.fromtimestamp(record.created, UTC)
            out["ts"] = instant.isoformat(timespec="milliseconds").replace("+00:00", "Z")
        out["level"] = record.levelname.lower()
        out["logger"] = record.name
        event = getattr(record, _EVENT_ATTR, None)
        reveal = record.levelno <= logging.DEBUG
        if isinstance(event, str):
            out["event"] = event
            raw_fields = getattr(record, _FIELDS_ATTR, {})
            if isinstance(raw_fields, Mapping):
                for key, value in redact_fields(raw_fields, reveal_content=reveal).items():
                    name = _KEY_CHARS.sub("_", str(key)) or "_"
                    if name in out:
                        name = f"field.{name}"
                    out[name] = value
        else:
            try:
                message = record.getMessage()
            except Exception:  # a bad %-format must not lose the record
                message = f"{record.msg!r} {record.args!r}"
            out["msg"] = redact_text(message)
        if record.exc_info and record.exc_info[0] is not None:
            out["exc"] = redact_text(self.formatException(record.exc_info))
        elif record.exc_text:
            out["exc"] = redact_text(record.exc_text)
        if record.stack_info:
            out["stack"] = redact_text(self.formatStack(record.stack_info))
        return out

    def format(self, record: logging.LogRecord) -> str:
        fields = self.fields_of(record)
        if self.log_format is LogFormat.JSON:
            line = json.dumps(
                {k: _json_value(v) for k, v in fields.items()},
                ensure_ascii=False,
                separators=(",", ":"),
            )
        else:
            line = " ".join(f"{key}={_logfmt_value(value)}" for key, value in fields.items())
        if self.syslog_prefix:
            line = f"<{_syslog_priority(record.levelno)}>{line}"
        return line


# ---------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------


def log_settings(env: Mapping[str, str] = os.environ, stream: TextIO | None = None) -> LogSettings:
    """Read ``$JUDGE_LOG_LEVEL`` (default INFO) and ``$JUDGE_LOG_FORMAT`` (default logfmt).

    Raises :class:`~judge.config.ConfigError` naming the variable for a value
    that is not a level or a format, so a typo stops the judge at start-up.
    """
    level_name = env.get(LOG_LEVEL_VARIABLE, "").strip().upper() or DEFAULT_LOG_LEVEL
    if level_name == "WARN":
        level_name = "WARNING"
    level = logging.getLevelNamesMapping().get(level_name)
    if level is None or level_name == "NOTSET":
        raise ConfigError(
            "log_level",
            f"${LOG_LEVEL_VARIABLE}",
            f"{level_name!r} is not one of DEBUG, INFO, WARNING, ERROR, CRITICAL",
        )
    format_name = env.get(LOG_FORMAT_VARIABLE, "").strip().lower() or LogFormat.LOGFMT.value
    try:
        log_format = LogFormat(format_name)
    except ValueError:
        raise ConfigError(
            "log_format", f"${LOG_FORMAT_VARIABLE}", f"{format_name!r} is not logfmt or json"
        ) from None
    return LogSettings(level=level, format=log_format, journald=_is_journald(env, stream))


def _is_journald(env: Mapping[str, str], stream: TextIO | None) -> bool:
    """True when ``stream`` is the journal stream systemd gave us (``$JOURNAL_STREAM``).

    systemd sets ``JOURNAL_STREAM=device:inode`` of the stream it connected;
    comparing with the stream's own fstat avoids being fooled by a child
    process that inherited the variable but writes to a terminal.
    """
    marker = env.get("JOURNAL_STREAM", "").strip()
    if not marker or stream is None:
        return False
    try:
        device, inode = (int(part) for part in marker.split(":", 1))
        status = os.fstat(stream.fileno())
    except (ValueError, OSError, AttributeError):
        return False
    return (status.st_dev, status.st_ino) == (device, inode)


def configure_logging(
    source: Config | Mapping[str, str] | None = None,
    *,
    stream: TextIO | None = None,
    env: Mapping[str, str] | None = None,
) -> LogSettings:
    """Install the structured handler on the root logger; returns what was applied.

    ``source`` is the judge's :class:`~judge.config.Config` or an environment
    mapping. The log settings are process-level and read from the
    environment (``env``, else the mapping given as ``source``, else
    ``os.environ``), so a Config built from a TOML file still obeys
    ``JUDGE_LOG_LEVEL`` set in the systemd EnvironmentFile. Calling it again
    replaces the handler (tests, reloads) rather than doubling lines.
    """
    if env is None:
        env = source if source is not None and not isinstance(source, Config) else os.environ
    target = stream if stream is not None else sys.stderr
    settings = log_settings(env, target)
    handler = logging.StreamHandler(target)
    handler.setFormatter(
        StructuredFormatter(
            settings.format,
            timestamps=not settings.journald,
            syslog_prefix=settings.journald,
        )
    )
    handler.addFilter(_not_mail_content)
    setattr(handler, _HANDLER_MARK, True)
    root = logging.getLogger()
    for existing in list(root.handlers):
        if getattr(existing, _HANDLER_MARK, False):
            root.removeHandler(existing)
            existing.close()
    root.addHandler(handler)
    root.setLevel(settings.level)
    quiet_level = logging.DEBUG if settings.level <= logging.DEBUG else logging.WARNING
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(max(quiet_level, settings.level, DATA_AT_DEBUG.get(name, 0)))
    logging.captureWarnings(True)
    return settings


def event_of(record: logging.LogRecord) -> tuple[str | None, Mapping[str, Any]]:
    """The event name and raw (unredacted) fields of a record made by :func:`log_event`.

    For tests using pytest's ``caplog``: assert on what was recorded without
    parsing formatted lines. ``(None, {})`` for a plain log record.
    """
    event = getattr(record, _EVENT_ATTR, None)
    fields = getattr(record, _FIELDS_ATTR, {})
    return (
        event if isinstance(event, str) else None,
        fields if isinstance(fields, Mapping) else {},
    )
