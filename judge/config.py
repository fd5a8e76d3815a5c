"""The judge's settings: where it keeps its state, and the whole :class:`Config`.

Read from the environment (passed in, so tests need no monkey-patching) and an
optional TOML file. ``data_dir`` and ``database_url`` only say *where*; the
:class:`Config` value gathers every setting of a running judge.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from enum import StrEnum
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DATA_DIR_VARIABLE = "JUDGE_DATA_DIR"
DATABASE_URL_VARIABLE = "JUDGE_DATABASE_URL"
DEFAULT_DATABASE_FILE = "judge.sqlite3"


def data_dir(env: Mapping[str, str] = os.environ) -> Path:
    """The judge's data directory: ``$JUDGE_DATA_DIR``, else ``./data``.

    Made absolute against the current directory at call time, so a later
    ``chdir`` cannot move the database under a running judge. Not created here:
    whoever writes into it creates it.
    """
    raw = env.get(DATA_DIR_VARIABLE, "").strip()
    return Path(raw or "data").expanduser().absolute()


def database_url(env: Mapping[str, str] = os.environ) -> str:
    """The SQLAlchemy URL of the judge's database.

    ``$JUDGE_DATABASE_URL`` when set (e.g. ``postgresql+psycopg://judge@db/judge``);
    otherwise an SQLite file in :func:`data_dir`, the embedded default that
    needs no server.
    """
    raw = env.get(DATABASE_URL_VARIABLE, "").strip()
    if raw:
        return raw
    return f"sqlite:///{data_dir(env) / DEFAULT_DATABASE_FILE}"


# ---------------------------------------------------------------------------
# The whole configuration: one frozen value, built once at start-up and passed
# explicitly to whoever needs it (no global singleton, so tests build their own).
# ---------------------------------------------------------------------------

CONFIG_FILE_VARIABLE = "JUDGE_CONFIG"
DEFAULT_SMTP_HOST = "127.0.0.1"
DEFAULT_SMTP_PORT = 2525
DEFAULT_ADDRESS = "judge@localhost"
DEFAULT_CODE = "XXXX"
DEFAULT_DISPLAY_NAME = "Diplomacy Judge"
DEFAULT_TIMEZONE = "UTC"
DEFAULT_MAX_MESSAGE_SIZE = 10 * 1024 * 1024
DEFAULT_RATE_LIMIT_MESSAGES = 30
DEFAULT_RATE_LIMIT_WINDOW = timedelta(hours=1)
DEFAULT_MAILDIR_NAME = "maildir"
DEFAULT_MAIL_MAX_ATTEMPTS = 3
DEFAULT_MAIL_MAX_COMMAND_LINES = 2_000
DEFAULT_REPLY_MAX_BYTES = 256 * 1024
DEFAULT_RETENTION_DAYS = 90
DEFAULT_SMTP_MAX_CONNECTIONS = 200
DEFAULT_SMTP_MAX_CONNECTIONS_PER_CLIENT = 25
DEFAULT_SMTP_IDLE_TIMEOUT_SECONDS = 60.0
DEFAULT_SMTP_SESSION_MAX_SECONDS = 600.0
DEFAULT_SMTP_MAX_RECIPIENTS = 100  # RFC 5321 §4.5.3.1.8: at least 100 must be accepted
DEFAULT_OUTBOUND_MAX_ATTEMPTS = 100
DEFAULT_OUTBOUND_RETRY_SECONDS = 60.0
DEFAULT_OUTBOUND_CONNECTIONS = 1
DEFAULT_SIGNON_POWER_FAILURES = 5
DEFAULT_SIGNON_POWER_FAILURES_PER_DAY = 10
DEFAULT_SIGNON_SENDER_FAILURES = 10
DEFAULT_SIGNON_FIRST_LOCKOUT_MINUTES = 60
DEFAULT_SIGNON_LONGEST_LOCKOUT_HOURS = 48
DEFAULT_PASSWORD_MIN_LENGTH = 8
DEFAULT_PASSWORD_COMMON_REFUSED = 10_000
DEFAULT_CONFIRMATIONS_PER_SENDER_PER_DAY = 5
DEFAULT_CONFIRMATIONS_PER_DOMAIN_PER_DAY = 20
DEFAULT_CONFIRMATIONS_PER_HOUR = 30
DEFAULT_WHOIS_PER_DAY = 20
DEFAULT_DUPLICATE_DAYS = 7
DEFAULT_WEB_HOST = "127.0.0.1"
DEFAULT_WEB_PORT = 8080
DEFAULT_VERP_SEPARATOR = "+"
VERP_SEPARATORS = "+-="
"""Characters that may join the bounce address's local part and a mail's token (RFC 5321 atoms that
mail servers' recipient-delimiter settings use)."""
DEFAULT_BOUNCE_HARD_SCORE = 1.0
DEFAULT_BOUNCE_SOFT_SCORE = 0.5
DEFAULT_BOUNCE_THRESHOLD = 5.0
DEFAULT_BOUNCE_STALE_DAYS = 7
BOUNCE_SECRET_FILE = "bounce-secret"

_CODE_PATTERN = re.compile(r"^[A-Za-z0-9]{1,8}$")


class ConfigError(ValueError):
    """A setting that cannot be used; the message names the setting and its source."""

    def __init__(self, setting: str, source: str, problem: str) -> None:
        self.setting = setting
        self.source = source
        self.problem = problem
        super().__init__(f"{setting} (from {source}): {problem}")


class TlsMode(StrEnum):
    """How the SMTP relay connection is protected."""

    NONE = "none"
    STARTTLS = "starttls"  # plain connection upgraded with STARTTLS (submission, 587)
    IMPLICIT = "implicit"  # TLS from the first byte (smtps, 465)


@dataclass(frozen=True)
class SmtpRelaySpec:
    """Deliver outgoing mail to an SMTP server (``smtp://``, ``smtp+starttls://``, ``smtps://``)."""

    host: str
    port: int
    tls: TlsMode = TlsMode.NONE
    username: str | None = None
    # Kept out of repr so a logged Config never shows the relay password.
    password: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class MaildirRelaySpec:
    """Deliver outgoing mail into a local Maildir: the default, readable on a fresh machine."""

    path: Path


RelaySpec = SmtpRelaySpec | MaildirRelaySpec


@dataclass(frozen=True)
class Config:
    """Every setting of a running judge. Build it with :func:`load_config`."""

    data_dir: Path
    database_url: str
    relay: RelaySpec
    smtp_host: str = DEFAULT_SMTP_HOST
    smtp_port: int = DEFAULT_SMTP_PORT
    address: str = DEFAULT_ADDRESS
    aliases: tuple[str, ...] = ()
    admin: str = ""
    code: str = DEFAULT_CODE
    display_name: str = DEFAULT_DISPLAY_NAME
    timezone: ZoneInfo = field(default_factory=lambda: ZoneInfo(DEFAULT_TIMEZONE))
    max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE
    rate_limit_messages: int = DEFAULT_RATE_LIMIT_MESSAGES
    rate_limit_window: timedelta = DEFAULT_RATE_LIMIT_WINDOW
    mail_max_attempts: int = DEFAULT_MAIL_MAX_ATTEMPTS
    """Tries of one inbound mail before it is quarantined (never retried by itself)."""
    mail_max_command_lines: int = DEFAULT_MAIL_MAX_COMMAND_LINES
    """Command lines read in one mail; the rest are refused in one line of the reply."""
    reply_max_bytes: int = DEFAULT_REPLY_MAX_BYTES
    """Size of one reply's body; what is over is cut, and a last line says so."""
    retention_days: int = DEFAULT_RETENTION_DAYS
    """`judge serve` purges mail done with that is older than this, daily; 0: never."""
    public_whois: bool = False
    """WHOIS shows everyone's whole registration (phone, postal address, birth date, sex), as the
    classic Judge did; by default only the person and the judge keeper see those fields."""
    smtp_max_connections: int = DEFAULT_SMTP_MAX_CONNECTIONS
    """Open SMTP connections the door holds at once; more are refused with 421."""
    smtp_max_connections_per_client: int = DEFAULT_SMTP_MAX_CONNECTIONS_PER_CLIENT
    """Open SMTP connections from one client address; more are refused with 421."""
    smtp_idle_timeout_seconds: float = DEFAULT_SMTP_IDLE_TIMEOUT_SECONDS
    """An SMTP client silent this long between commands is disconnected (421)."""
    smtp_session_max_seconds: float = DEFAULT_SMTP_SESSION_MAX_SECONDS
    """An SMTP connection open this long is closed (421), however active: a client dripping a
    byte at a time is cut too."""
    smtp_max_recipients: int = DEFAULT_SMTP_MAX_RECIPIENTS
    """RCPT commands in one mail transaction; more are refused with 452."""
    outbound_max_attempts: int = DEFAULT_OUTBOUND_MAX_ATTEMPTS
    """Delivery attempts of one outgoing mail before it is marked failed and the keeper told."""
    outbound_retry_seconds: float = DEFAULT_OUTBOUND_RETRY_SECONDS
    """Wait before the first retry of an outgoing mail; doubled at each retry, up to an hour."""
    outbound_connections: int = DEFAULT_OUTBOUND_CONNECTIONS
    """Senders the outbound role runs side by side, each with its own SMTP session to the relay
    and its own mails (claimed under row locks): a deadline's results go out several at a time."""
    signon_power_failures: int = DEFAULT_SIGNON_POWER_FAILURES
    """Failed sign-ons to one power (or to a game's masters) within an hour, from any address, the
    player's own included, that lock its sign-ons (judge.app.people.throttle)."""
    signon_power_failures_per_day: int = DEFAULT_SIGNON_POWER_FAILURES_PER_DAY
    """Failed sign-ons to one power within a day that lock it too (a guesser pacing himself under
    the hourly limit); each lockout doubles the one before, so a day allows few more."""
    signon_sender_failures: int = DEFAULT_SIGNON_SENDER_FAILURES
    """Failed sign-ons from one address within an hour, in all games, that shut it out of sign-ons."""
    signon_first_lockout_minutes: int = DEFAULT_SIGNON_FIRST_LOCKOUT_MINUTES
    """A power's first lockout; each later one lasts twice the one before."""
    signon_longest_lockout_hours: int = DEFAULT_SIGNON_LONGEST_LOCKOUT_HOURS
    """The longest lockout of a power."""
    password_min_length: int = DEFAULT_PASSWORD_MIN_LENGTH
    """Characters a new password needs at least (existing passwords are kept as they are)."""
    password_common_refused: int = DEFAULT_PASSWORD_COMMON_REFUSED
    """A new password among this many most common ones (zxcvbn's ranked list) is refused; 0: none."""
    confirmations_per_sender_per_day: int = DEFAULT_CONFIRMATIONS_PER_SENDER_PER_DAY
    """Confirmation codes mailed in 24 hours because of one requesting address (judge.app.people.claims)."""
    confirmations_per_domain_per_day: int = DEFAULT_CONFIRMATIONS_PER_DOMAIN_PER_DAY
    """Confirmation codes mailed in 24 hours to the addresses of one domain."""
    confirmations_per_hour: int = DEFAULT_CONFIRMATIONS_PER_HOUR
    """Confirmation codes the whole judge mails in one hour, whoever asks."""
    whois_per_day: int = DEFAULT_WHOIS_PER_DAY
    """Registrations WHOIS shows one sender in 24 hours (a harvest of the player base is bounded)."""
    duplicate_days: int = DEFAULT_DUPLICATE_DAYS
    """A mail delivered again (same Message-ID, envelope sender and body) within this many days of
    the first delivery's processing is kept as a duplicate and not carried out again; 0: never."""
    metrics_port: int = 0
    """The loopback port (127.0.0.1) where `judge serve` publishes its counters for Prometheus; 0: off."""
    web_host: str = DEFAULT_WEB_HOST
    """Where the web role (the read-only pages of the games, judge.web) listens; loopback by
    default, behind a reverse proxy that adds HTTPS."""
    web_port: int = DEFAULT_WEB_PORT
    """The web role's port; 0 turns the web role off."""
    web_base_url: str = ""
    """The address readers reach the pages at (``https://judge.example.org/diplomacy``), written in
    feeds and calendars; empty: ``http://web_host:web_port``."""
    bounce_local_part: str = ""
    """The local part of the judge's bounce address (VERP, judge.mail.verp); empty: the judge's own
    local part followed by ``-bounces`` (``judge-bounces@`` for ``judge@``)."""
    verp_separator: str = DEFAULT_VERP_SEPARATOR
    """What joins the bounce address's local part and a mail's token: ``judge-bounces+TOKEN@``.
    Postfix's ``recipient_delimiter`` must be the same character."""
    bounce_secret: str = field(default="", repr=False)
    """The key of the tokens in envelope senders (HMAC); empty: a random key kept in the data
    directory's ``bounce-secret`` file, made on first use. Several judge hosts sharing one
    database need the same key."""
    bounce_hard_score: float = DEFAULT_BOUNCE_HARD_SCORE
    """What a permanent failure (5.x.x) adds to an address's bounce score (at most once a day)."""
    bounce_soft_score: float = DEFAULT_BOUNCE_SOFT_SCORE
    """What a temporary failure (4.x.x) adds to an address's bounce score (at most once a day)."""
    bounce_threshold: float = DEFAULT_BOUNCE_THRESHOLD
    """The score at which an address is marked bouncing (its owner and masters told, an observer's
    mail held)."""
    bounce_stale_days: int = DEFAULT_BOUNCE_STALE_DAYS
    """An address that has not bounced for this many days starts again from a score of 0."""
    dkim_key_file: Path | None = None
    """A PEM private key (RSA or Ed25519) with which the judge signs its own mail (DKIM); none: no
    signature (the operator's MTA signs, as deploy/postfix shows with OpenDKIM)."""
    dkim_selector: str = ""
    """The DKIM selector of the key (its public half is published at SELECTOR._domainkey.DOMAIN)."""
    dkim_domain: str = ""
    """The signing domain (d=); empty: the judge's own domain."""
    authserv_id: str = ""
    """The authserv-id the operator's own MTA writes in its ``Authentication-Results`` header
    (judge.mail.authresults): that header alone is read; empty: none is read."""
    ignore_dmarc_fail: bool = False
    """Keep unanswered a mail whose From domain fails DMARC by the MTA's header (off: the password
    proves a player)."""

    @property
    def own_addresses(self) -> frozenset[str]:
        """The addresses the judge answers to, lower-cased for comparison."""
        return frozenset(a.lower() for a in (self.address, *self.aliases))

    @property
    def domain(self) -> str:
        """The judge's mail domain, used for Message-IDs."""
        return self.address.rpartition("@")[2] or "localhost"

    @property
    def bounce_local(self) -> str:
        """The bounce address's local part (``bounce_local_part``, or the judge's own + ``-bounces``)."""
        return self.bounce_local_part or f"{self.address.rpartition('@')[0] or 'judge'}-bounces"


# (setting name, environment variable); the TOML key is the setting name.
_ENV_NAMES: dict[str, str] = {
    "data_dir": DATA_DIR_VARIABLE,
    "database_url": DATABASE_URL_VARIABLE,
    "relay": "JUDGE_RELAY",
    "smtp_host": "JUDGE_SMTP_HOST",
    "smtp_port": "JUDGE_SMTP_PORT",
    "address": "JUDGE_ADDRESS",
    "aliases": "JUDGE_ALIASES",
    "admin": "JUDGE_ADMIN",
    "code": "JUDGE_CODE",
    "display_name": "JUDGE_NAME",
    "timezone": "JUDGE_TIMEZONE",
    "max_message_size": "JUDGE_MAX_MESSAGE_SIZE",
    "rate_limit_messages": "JUDGE_RATE_LIMIT_MESSAGES",
    "rate_limit_window_seconds": "JUDGE_RATE_LIMIT_WINDOW_SECONDS",
    "mail_max_attempts": "JUDGE_MAIL_MAX_ATTEMPTS",
    "mail_max_command_lines": "JUDGE_MAIL_MAX_COMMAND_LINES",
    "reply_max_bytes": "JUDGE_REPLY_MAX_BYTES",
    "retention_days": "JUDGE_RETENTION_DAYS",
    "public_whois": "JUDGE_PUBLIC_WHOIS",
    "smtp_max_connections": "JUDGE_SMTP_MAX_CONNECTIONS",
    "smtp_max_connections_per_client": "JUDGE_SMTP_MAX_CONNECTIONS_PER_CLIENT",
    "smtp_idle_timeout_seconds": "JUDGE_SMTP_IDLE_TIMEOUT_SECONDS",
    "smtp_session_max_seconds": "JUDGE_SMTP_SESSION_MAX_SECONDS",
    "smtp_max_recipients": "JUDGE_SMTP_MAX_RECIPIENTS",
    "outbound_max_attempts": "JUDGE_OUTBOUND_MAX_ATTEMPTS",
    "outbound_retry_seconds": "JUDGE_OUTBOUND_RETRY_SECONDS",
    "outbound_connections": "JUDGE_OUTBOUND_CONNECTIONS",
    "metrics_port": "JUDGE_METRICS_PORT",
    "web_host": "JUDGE_WEB_HOST",
    "web_port": "JUDGE_WEB_PORT",
    "web_base_url": "JUDGE_WEB_BASE_URL",
    "signon_power_failures": "JUDGE_SIGNON_POWER_FAILURES",
    "signon_power_failures_per_day": "JUDGE_SIGNON_POWER_FAILURES_PER_DAY",
    "signon_sender_failures": "JUDGE_SIGNON_SENDER_FAILURES",
    "signon_first_lockout_minutes": "JUDGE_SIGNON_FIRST_LOCKOUT_MINUTES",
    "signon_longest_lockout_hours": "JUDGE_SIGNON_LONGEST_LOCKOUT_HOURS",
    "password_min_length": "JUDGE_PASSWORD_MIN_LENGTH",
    "password_common_refused": "JUDGE_PASSWORD_COMMON_REFUSED",
    "confirmations_per_sender_per_day": "JUDGE_CONFIRMATIONS_PER_SENDER_PER_DAY",
    "confirmations_per_domain_per_day": "JUDGE_CONFIRMATIONS_PER_DOMAIN_PER_DAY",
    "confirmations_per_hour": "JUDGE_CONFIRMATIONS_PER_HOUR",
    "whois_per_day": "JUDGE_WHOIS_PER_DAY",
    "duplicate_days": "JUDGE_DUPLICATE_DAYS",
    "bounce_local_part": "JUDGE_BOUNCE_LOCAL_PART",
    "verp_separator": "JUDGE_VERP_SEPARATOR",
    "bounce_secret": "JUDGE_BOUNCE_SECRET",
    "bounce_hard_score": "JUDGE_BOUNCE_HARD_SCORE",
    "bounce_soft_score": "JUDGE_BOUNCE_SOFT_SCORE",
    "bounce_threshold": "JUDGE_BOUNCE_THRESHOLD",
    "bounce_stale_days": "JUDGE_BOUNCE_STALE_DAYS",
    "dkim_key_file": "JUDGE_DKIM_KEY_FILE",
    "dkim_selector": "JUDGE_DKIM_SELECTOR",
    "dkim_domain": "JUDGE_DKIM_DOMAIN",
    "authserv_id": "JUDGE_AUTHSERV_ID",
    "ignore_dmarc_fail": "JUDGE_IGNORE_DMARC_FAIL",
}


@dataclass(frozen=True)
class _Raw:
    """One setting as found, with where it came from (for error messages) and the
    directory relative paths in it are resolved against."""

    value: object
    source: str
    base: Path


def load_config(env: Mapping[str, str] = os.environ, config_file: Path | None = None) -> Config:
    """Build the configuration: environment variables over the TOML file over defaults.

    The environment wins so an operator can override one setting of a shared
    file without editing it. ``config_file`` defaults to ``$JUDGE_CONFIG`` when
    set. Relative paths in the file are read against the file's directory,
    relative paths in the environment against the current directory.
    """
    if config_file is None and env.get(CONFIG_FILE_VARIABLE, "").strip():
        config_file = Path(env[CONFIG_FILE_VARIABLE].strip()).expanduser()
    raw = _read_toml(config_file) if config_file is not None else {}
    cwd = Path.cwd()
    for setting, variable in _ENV_NAMES.items():
        value = env.get(variable, "").strip()
        if value:
            raw[setting] = _Raw(value, f"${variable}", cwd)
    return _build(raw)


def _read_toml(path: Path) -> dict[str, _Raw]:
    """The file's settings; unknown keys are refused so a typo never passes silently."""
    source = str(path)
    try:
        with path.open("rb") as handle:
            document = tomllib.load(handle)
    except OSError as error:
        raise ConfigError("config file", source, f"cannot be read ({error.strerror})") from error
    except tomllib.TOMLDecodeError as error:
        raise ConfigError("config file", source, f"is not valid TOML ({error})") from error
    found: dict[str, _Raw] = {}
    base = path.expanduser().absolute().parent
    for key, value in document.items():
        if key not in _ENV_NAMES:
            known = ", ".join(sorted(_ENV_NAMES))
            raise ConfigError(key, source, f"unknown setting (known: {known})")
        found[key] = _Raw(value, source, base)
    return found


def _build(raw: Mapping[str, _Raw]) -> Config:
    if "data_dir" in raw:
        item = raw["data_dir"]
        directory = _path(item, "data_dir")
    else:
        directory = Path("data").absolute()
    database = (
        _text(raw["database_url"], "database_url")
        if "database_url" in raw
        else f"sqlite:///{directory / DEFAULT_DATABASE_FILE}"
    )
    relay: RelaySpec = (
        parse_relay(_text(raw["relay"], "relay"), raw["relay"].source, raw["relay"].base)
        if "relay" in raw
        else MaildirRelaySpec(directory / DEFAULT_MAILDIR_NAME)
    )
    address = _address(raw["address"], "address") if "address" in raw else DEFAULT_ADDRESS
    aliases = _aliases(raw["aliases"]) if "aliases" in raw else ()
    admin = (
        _address(raw["admin"], "admin")
        if "admin" in raw
        else f"judgekeeper@{address.rpartition('@')[2]}"
    )
    code = _code(raw["code"]) if "code" in raw else DEFAULT_CODE
    window = (
        timedelta(seconds=_number(raw["rate_limit_window_seconds"], "rate_limit_window_seconds", 1))
        if "rate_limit_window_seconds" in raw
        else DEFAULT_RATE_LIMIT_WINDOW
    )
    return Config(
        data_dir=directory,
        database_url=database,
        relay=relay,
        smtp_host=_text(raw["smtp_host"], "smtp_host") if "smtp_host" in raw else DEFAULT_SMTP_HOST,
        smtp_port=_port(raw["smtp_port"], "smtp_port") if "smtp_port" in raw else DEFAULT_SMTP_PORT,
        address=address,
        aliases=aliases,
        admin=admin,
        code=code,
        display_name=(
            _text(raw["display_name"], "display_name")
            if "display_name" in raw
            else DEFAULT_DISPLAY_NAME
        ),
        timezone=_timezone(raw["timezone"]) if "timezone" in raw else ZoneInfo(DEFAULT_TIMEZONE),
        max_message_size=(
            int(_number(raw["max_message_size"], "max_message_size", 1024))
            if "max_message_size" in raw
            else DEFAULT_MAX_MESSAGE_SIZE
        ),
        rate_limit_messages=(
            int(_number(raw["rate_limit_messages"], "rate_limit_messages", 0))
            if "rate_limit_messages" in raw
            else DEFAULT_RATE_LIMIT_MESSAGES
        ),
        rate_limit_window=window,
        public_whois=_flag(raw["public_whois"], "public_whois") if "public_whois" in raw else False,
        **_rest(raw),
        web_host=_text(raw["web_host"], "web_host") if "web_host" in raw else DEFAULT_WEB_HOST,
        web_port=_port(raw["web_port"], "web_port") if "web_port" in raw else DEFAULT_WEB_PORT,
        web_base_url=_base_url(raw["web_base_url"]) if "web_base_url" in raw else "",
    )


def _base_url(item: _Raw) -> str:
    """``web_base_url``: an http(s) address without query, its trailing ``/`` dropped."""
    url = _text(item, "web_base_url").rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ConfigError(
            "web_base_url", item.source, f"{url!r} is not an http(s) address like https://judge.example.org"
        )
    return url


def _rest(raw: Mapping[str, _Raw]) -> dict[str, Any]:
    """The settings read by groups, those that were given."""
    found: dict[str, Any] = {
        **_mail_edge_settings(raw), **_guard_settings(raw), **_signon_settings(raw), **_proof_settings(raw),
        **_bounce_settings(raw), **_dkim_settings(raw),
    }  # fmt: skip
    if "metrics_port" in raw:
        found["metrics_port"] = _port(raw["metrics_port"], "metrics_port")
    return found


_LOCAL_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$")


def _given(raw: Mapping[str, _Raw], names: tuple[str, ...]) -> dict[str, _Raw]:
    """Those of the settings ``names`` given a value: an empty string (the TOML example's way of
    showing a setting left to its default) is none."""
    return {name: raw[name] for name in names if name in raw and raw[name].value != ""}


def _bounce_settings(given: Mapping[str, _Raw]) -> dict[str, Any]:
    """The VERP address and the bounce score's settings that were given."""
    blank = {"bounce_local_part", "bounce_secret"} - set(_given(given, ("bounce_local_part", "bounce_secret")))
    raw = {name: item for name, item in given.items() if name not in blank}
    found: dict[str, Any] = {}
    if "bounce_local_part" in raw:
        local = _text(raw["bounce_local_part"], "bounce_local_part")
        if not _LOCAL_PART.match(local):
            raise ConfigError("bounce_local_part", raw["bounce_local_part"].source,
                              f"{local!r} must be 1 to 40 letters, digits, dots, dashes or underscores")
        found["bounce_local_part"] = local
    if "verp_separator" in raw:
        separator = _text(raw["verp_separator"], "verp_separator")
        if len(separator) != 1 or separator not in VERP_SEPARATORS:
            raise ConfigError("verp_separator", raw["verp_separator"].source,
                              f"{separator!r} must be one of {' '.join(VERP_SEPARATORS)}")
        found["verp_separator"] = separator
    if "bounce_secret" in raw:
        secret = _text(raw["bounce_secret"], "bounce_secret")
        if len(secret) < 16:
            raise ConfigError("bounce_secret", raw["bounce_secret"].source, "must be at least 16 characters")
        found["bounce_secret"] = secret
    for setting, minimum in (("bounce_hard_score", 0.0), ("bounce_soft_score", 0.0), ("bounce_threshold", 0.1)):
        if setting in raw:
            found[setting] = _number(raw[setting], setting, minimum)
    found |= _whole_numbers(raw, (("bounce_stale_days", 1),))
    return found


def _dkim_settings(given: Mapping[str, _Raw]) -> dict[str, Any]:
    """The judge's own DKIM signing: the key file, its selector and the signing domain, all or none."""
    raw = _given(given, ("dkim_key_file", "dkim_selector", "dkim_domain"))
    found: dict[str, Any] = {}
    if "dkim_key_file" in raw:
        found["dkim_key_file"] = _path(raw["dkim_key_file"], "dkim_key_file")
    if "dkim_selector" in raw:
        selector = _text(raw["dkim_selector"], "dkim_selector")
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,62}", selector):
            raise ConfigError("dkim_selector", raw["dkim_selector"].source, f"{selector!r} is not a DNS label")
        found["dkim_selector"] = selector
    if "dkim_domain" in raw:
        found["dkim_domain"] = _text(raw["dkim_domain"], "dkim_domain")
    if "authserv_id" in given and given["authserv_id"].value != "":
        found["authserv_id"] = _text(given["authserv_id"], "authserv_id")
    if "ignore_dmarc_fail" in given:
        found["ignore_dmarc_fail"] = _flag(given["ignore_dmarc_fail"], "ignore_dmarc_fail")
    if ("dkim_key_file" in found) != ("dkim_selector" in found):
        item = raw.get("dkim_key_file") or raw["dkim_selector"]
        raise ConfigError("dkim_key_file", item.source, "DKIM signing needs both dkim_key_file and dkim_selector")
    return found


def _guard_settings(raw: Mapping[str, _Raw]) -> dict[str, int]:
    """The per-mail guard's whole-number settings that were given, each with its least sensible value."""
    return _whole_numbers(
        raw,
        (
            ("mail_max_attempts", 1), ("mail_max_command_lines", 1), ("reply_max_bytes", 1024),
            ("retention_days", 0), ("duplicate_days", 0),
        ),
    )


def _signon_settings(raw: Mapping[str, _Raw]) -> dict[str, int]:
    """The sign-on throttle's and the password rules' settings that were given."""
    return _whole_numbers(
        raw,
        (
            ("signon_power_failures", 1), ("signon_power_failures_per_day", 1), ("signon_sender_failures", 1),
            ("signon_first_lockout_minutes", 1), ("signon_longest_lockout_hours", 1),
            ("password_min_length", 1), ("password_common_refused", 0),
        ),
    )  # fmt: skip


def _proof_settings(raw: Mapping[str, _Raw]) -> dict[str, int]:
    """The bounds on confirmation codes and on WHOIS answers that were given."""
    return _whole_numbers(
        raw,
        (
            ("confirmations_per_sender_per_day", 1), ("confirmations_per_domain_per_day", 1),
            ("confirmations_per_hour", 1), ("whois_per_day", 1),
        ),
    )  # fmt: skip


def _whole_numbers(raw: Mapping[str, _Raw], settings: tuple[tuple[str, int], ...]) -> dict[str, int]:
    """Those of ``settings`` (name, least sensible value) that were given, as whole numbers."""
    found: dict[str, int] = {}
    for setting, minimum in settings:
        if setting in raw:
            value = _number(raw[setting], setting, minimum)
            if value != int(value):
                raise ConfigError(setting, raw[setting].source, "must be a whole number")
            found[setting] = int(value)
    return found


def _mail_edge_settings(raw: Mapping[str, _Raw]) -> dict[str, Any]:
    """The SMTP door's limits and the outbound sender's retries, those that were given."""
    found: dict[str, Any] = {}
    for setting, minimum, whole in (
        ("smtp_max_connections", 1, True),
        ("smtp_max_connections_per_client", 1, True),
        ("smtp_idle_timeout_seconds", 0.1, False),
        ("smtp_session_max_seconds", 0.1, False),
        ("smtp_max_recipients", 1, True),
        ("outbound_max_attempts", 1, True),
        ("outbound_retry_seconds", 0.01, False),
        ("outbound_connections", 1, True),
    ):
        if setting in raw:
            value = _number(raw[setting], setting, minimum)
            if whole and value != int(value):
                raise ConfigError(setting, raw[setting].source, "must be a whole number")
            found[setting] = int(value) if whole else value
    return found


def _flag(item: _Raw, setting: str) -> bool:
    """A yes/no setting: a TOML boolean, or true/false, yes/no, on/off, 1/0 in the environment."""
    if isinstance(item.value, bool):
        return item.value
    word = str(item.value).strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off"):
        return False
    raise ConfigError(setting, item.source, "must be true or false")


def _text(item: _Raw, setting: str) -> str:
    if not isinstance(item.value, str) or not item.value.strip():
        raise ConfigError(setting, item.source, "must be a non-empty string")
    return item.value.strip()


def _path(item: _Raw, setting: str) -> Path:
    path = Path(_text(item, setting)).expanduser()
    return path if path.is_absolute() else (item.base / path).absolute()


def _number(item: _Raw, setting: str, minimum: float) -> float:
    value = item.value
    if isinstance(value, str):
        try:
            value = float(value) if "." in value else int(value)
        except ValueError:
            raise ConfigError(setting, item.source, f"{value!r} is not a number") from None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(setting, item.source, "must be a number")
    if value < minimum:
        raise ConfigError(setting, item.source, f"must be at least {minimum:g}")
    return float(value)


def _port(item: _Raw, setting: str) -> int:
    value = _number(item, setting, 0)
    if value != int(value) or value > 65535:
        raise ConfigError(setting, item.source, "must be a whole number from 0 to 65535")
    return int(value)


def _address(item: _Raw, setting: str) -> str:
    return _check_address(_text(item, setting), setting, item.source)


def _check_address(text: str, setting: str, source: str) -> str:
    local, at, domain = text.partition("@")
    if not at or not local or not domain or any(c.isspace() or c in "<>,;" for c in text):
        raise ConfigError(
            setting, source, f"{text!r} is not a plain address like judge@example.org"
        )
    return text


def _aliases(item: _Raw) -> tuple[str, ...]:
    value = item.value
    parts: list[object]
    if isinstance(value, str):
        parts = list(value.split(","))
    elif isinstance(value, list):
        parts = list(value)
    else:
        parts = [value]
    aliases = []
    for part in parts:
        if not isinstance(part, str):
            raise ConfigError("aliases", item.source, "must be a list of addresses")
        if part.strip():
            aliases.append(_check_address(part.strip(), "aliases", item.source))
    return tuple(aliases)


def _code(item: _Raw) -> str:
    code = _text(item, "code")
    if not _CODE_PATTERN.match(code):
        raise ConfigError(
            "code", item.source, f"{code!r} must be 1 to 8 letters or digits, like XPY"
        )
    return code.upper()


def _timezone(item: _Raw) -> ZoneInfo:
    name = _text(item, "timezone")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError("timezone", item.source, f"unknown time zone {name!r}") from None


def parse_relay(text: str, source: str = "relay", base: Path | None = None) -> RelaySpec:
    """Read ``maildir:PATH`` or ``smtp[+starttls|s]://[user[:password]@]host[:port][?starttls=yes]``.

    User and password are percent-decoded (``%40`` for ``@``). Default ports:
    25 plain, 587 STARTTLS, 465 implicit TLS.
    """
    if text.lower().startswith("maildir:"):
        location = text[len("maildir:") :]
        if location.startswith("//"):
            location = location[2:]
        if not location:
            raise ConfigError(
                "relay", source, "maildir: needs a path, like maildir:/var/mail/judge"
            )
        path = Path(location).expanduser()
        if not path.is_absolute():
            path = ((base or Path.cwd()) / path).absolute()
        return MaildirRelaySpec(path)
    parts = urlsplit(text)
    schemes = {
        "smtp": (TlsMode.NONE, 25),
        "smtp+starttls": (TlsMode.STARTTLS, 587),
        "smtps": (TlsMode.IMPLICIT, 465),
    }
    scheme = parts.scheme.lower()
    if scheme not in schemes:
        raise ConfigError(
            "relay", source, f"{text!r}: expected smtp://host:port, smtps://… or maildir:PATH"
        )
    tls, default_port = schemes[scheme]
    options = parse_qs(parts.query)
    starttls = options.get("starttls", [""])[-1].lower()
    if starttls in {"1", "yes", "true", "on"}:
        if tls is TlsMode.IMPLICIT:
            raise ConfigError("relay", source, "smtps:// already uses TLS; starttls makes no sense")
        tls, default_port = TlsMode.STARTTLS, 587
    if not parts.hostname:
        raise ConfigError("relay", source, f"{text!r} names no host")
    try:
        port = parts.port or default_port
    except ValueError:
        raise ConfigError("relay", source, f"{text!r} has an invalid port") from None
    return SmtpRelaySpec(
        host=parts.hostname,
        port=port,
        tls=tls,
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password is not None else None,
    )
