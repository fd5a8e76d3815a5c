"""Structured logging: one line per event, secrets and mail bodies kept out, both formats parse."""

from __future__ import annotations

import io
import json
import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.config import ConfigError, load_config
from judge.logs import (
    QUIET_LOGGERS,
    REDACTED,
    LogFormat,
    StructuredFormatter,
    configure_logging,
    event_of,
    is_content_key,
    is_secret_key,
    log_event,
    log_settings,
    redact_fields,
    redact_text,
)

_PAIR = re.compile(r'([^\s=]+)=("(?:[^"\\]|\\.)*"|[^\s]*)')


def parse_logfmt(line: str) -> dict[str, str]:
    """Read a logfmt line back; fails the test if anything is left unparsed."""
    fields: dict[str, str] = {}
    position = 0
    for match in _PAIR.finditer(line):
        assert line[position : match.start()].strip() == "", f"junk in {line!r}"
        key, value = match.group(1), match.group(2)
        if value.startswith('"'):
            value = json.loads(value)
        fields[key] = value
        position = match.end()
    assert line[position:].strip() == "", f"junk at the end of {line!r}"
    return fields


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """configure_logging changes the root logger: put it back after each test."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    quiet = {name: logging.getLogger(name).level for name in QUIET_LOGGERS}
    yield
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)
    for name, old in quiet.items():
        logging.getLogger(name).setLevel(old)
    logging.captureWarnings(False)


def _configured(env: dict[str, str]) -> tuple[io.StringIO, logging.Logger]:
    stream = io.StringIO()
    configure_logging(env, stream=stream)
    return stream, logging.getLogger("judge.tests.logs")


def _lines(stream: io.StringIO) -> list[str]:
    return stream.getvalue().splitlines()


@pytest.mark.usefixtures("restore_logging")
class TestConfiguredOutput:
    def test_an_event_is_one_logfmt_line_with_its_fields(self) -> None:
        stream, log = _configured({})
        log_event(log, "mail.stored", mail_id=12, sender="Player One <p1@example.org>")
        (line,) = _lines(stream)
        fields = parse_logfmt(line)
        assert fields["level"] == "info"
        assert fields["logger"] == "judge.tests.logs"
        assert fields["event"] == "mail.stored"
        assert fields["mail_id"] == "12"
        assert fields["sender"] == "Player One <p1@example.org>"
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", fields["ts"])

    def test_multi_line_messages_and_tracebacks_stay_on_one_line(self) -> None:
        stream, log = _configured({})
        log.warning("first line\nsecond line")
        try:
            raise RuntimeError("relay down\nreally")
        except RuntimeError:
            log.exception("delivery failed")
        lines = _lines(stream)
        assert len(lines) == 2
        assert parse_logfmt(lines[0])["msg"] == "first line\nsecond line"
        failure = parse_logfmt(lines[1])
        assert failure["level"] == "error"
        assert "Traceback" in failure["exc"] and "RuntimeError: relay down" in failure["exc"]

    def test_json_mode_writes_one_object_per_line(self) -> None:
        stream, log = _configured({"JUDGE_LOG_FORMAT": "json"})
        log_event(log, "outbox.sent", mail_id=3, recipients=["a@x", "b@y"], late=None)
        log.info('plain message with "quotes"\nand a newline')
        first, second = (json.loads(line) for line in _lines(stream))
        assert first["event"] == "outbox.sent"
        assert first["recipients"] == ["a@x", "b@y"]
        assert first["late"] is None
        assert second["msg"] == 'plain message with "quotes"\nand a newline'

    def test_info_hides_passwords_and_bodies(self) -> None:
        stream, log = _configured({})
        log_event(
            log,
            "mail.received",
            sender="p@example.org",
            password="hunter2",
            body="SIGNON Fgame hunter2\nA PAR-BUR",
            raw=b"From: p@example.org\r\n\r\nsecret press",
        )
        log.info("retrying with password=hunter2 on smtp://judge:hunter2@relay:587")
        output = stream.getvalue()
        assert "hunter2" not in output
        assert "A PAR-BUR" not in output and "secret press" not in output
        first, second = (parse_logfmt(line) for line in _lines(stream))
        assert first["password"] == first["body"] == first["raw"] == REDACTED
        assert first["sender"] == "p@example.org"
        assert (
            second["msg"]
            == f"retrying with password={REDACTED} on smtp://judge:{REDACTED}@relay:587"
        )

    def test_debug_shows_bodies_but_never_their_passwords(self) -> None:
        stream, log = _configured({"JUDGE_LOG_LEVEL": "debug"})
        log_event(log, "mail.decoded", level=logging.DEBUG, body="SIGNON Fgame hunter2\nA PAR-BUR")
        log_event(log, "mail.decoded", body="SIGNON Fgame hunter2\nA PAR-BUR")
        debug, info = (parse_logfmt(line) for line in _lines(stream))
        assert debug["body"] == f"SIGNON Fgame {REDACTED}\nA PAR-BUR"
        assert info["body"] == REDACTED

    def test_level_comes_from_the_environment(self) -> None:
        stream, log = _configured({"JUDGE_LOG_LEVEL": "warning"})
        log_event(log, "quiet.event")
        log_event(log, "loud.event", level=logging.WARNING)
        assert [parse_logfmt(line)["event"] for line in _lines(stream)] == ["loud.event"]

    def test_chatty_libraries_are_held_at_warning_unless_debugging(self) -> None:
        _configured({})
        assert logging.getLogger("sqlalchemy").getEffectiveLevel() == logging.WARNING
        assert logging.getLogger("mail.log").getEffectiveLevel() == logging.WARNING
        _configured({"JUDGE_LOG_LEVEL": "DEBUG"})
        assert logging.getLogger("mail.log").getEffectiveLevel() == logging.DEBUG
        # SQLAlchemy's DEBUG writes every row read (raw mail, replies): held at INFO.
        assert logging.getLogger("sqlalchemy").getEffectiveLevel() == logging.INFO

    def test_the_smtp_library_s_data_lines_are_never_written(self) -> None:
        stream, _log = _configured({"JUDGE_LOG_LEVEL": "DEBUG"})
        smtp_log = logging.getLogger("mail.log")
        smtp_log.debug("DATA readline: %s", b"SET PASSWORD =\r\n")
        smtp_log.debug("DATA readline: %s", b"cGFzc3dvcmQ=\r\n")  # base64 hides from any pattern
        smtp_log.debug("%r << %r", ("127.0.0.1", 1), b"250 OK")
        lines = _lines(stream)
        assert len(lines) == 1 and "250 OK" in lines[0]

    def test_configuring_twice_does_not_double_lines(self) -> None:
        _configured({})
        stream, log = _configured({})
        log_event(log, "once")
        assert len(_lines(stream)) == 1
        marked = [
            h
            for h in logging.getLogger().handlers
            if getattr(h, "_judge_structured_handler", False)
        ]
        assert len(marked) == 1

    def test_a_config_value_is_accepted_and_the_environment_read(self, tmp_path: Path) -> None:
        config = load_config({"JUDGE_DATA_DIR": str(tmp_path)})
        stream = io.StringIO()
        settings = configure_logging(config, stream=stream, env={"JUDGE_LOG_FORMAT": "json"})
        assert settings.format is LogFormat.JSON
        log_event(logging.getLogger("judge.x"), "started")
        assert json.loads(stream.getvalue())["event"] == "started"

    def test_under_journald_lines_carry_a_priority_and_no_timestamp(self, tmp_path: Path) -> None:
        with (tmp_path / "journal").open("w+") as journal:
            status = os.fstat(journal.fileno())
            env = {"JOURNAL_STREAM": f"{status.st_dev}:{status.st_ino}"}
            settings = configure_logging(env, stream=journal)
            assert settings.journald
            log = logging.getLogger("judge.tests.logs")
            log_event(log, "started")
            log_event(log, "relay.down", level=logging.ERROR)
            journal.flush()
            journal.seek(0)
            lines = journal.read().splitlines()
        assert lines[0].startswith("<6>") and lines[1].startswith("<3>")
        assert "ts" not in parse_logfmt(lines[0][3:])

    def test_a_journal_stream_of_another_file_is_not_journald(self) -> None:
        settings = log_settings({"JOURNAL_STREAM": "1:2"}, io.StringIO())
        assert not settings.journald


class TestSettings:
    def test_defaults(self) -> None:
        settings = log_settings({})
        assert settings.level == logging.INFO
        assert settings.format is LogFormat.LOGFMT

    @pytest.mark.parametrize(
        ("env", "setting"),
        [
            ({"JUDGE_LOG_LEVEL": "chatty"}, "log_level"),
            ({"JUDGE_LOG_LEVEL": "notset"}, "log_level"),
            ({"JUDGE_LOG_FORMAT": "xml"}, "log_format"),
        ],
    )
    def test_a_bad_value_names_the_variable(self, env: dict[str, str], setting: str) -> None:
        with pytest.raises(ConfigError) as caught:
            log_settings(env)
        assert caught.value.setting == setting
        assert caught.value.source.startswith("$JUDGE_LOG_")


class TestRedaction:
    @pytest.mark.parametrize(
        "key", ["password", "relay_password", "smtpPassword", "db_passwd", "api_key", "token", "pw"]
    )
    def test_secret_keys(self, key: str) -> None:
        assert is_secret_key(key)

    @pytest.mark.parametrize("key", ["sender_key", "author", "mail_id", "context", "game"])
    def test_ordinary_keys(self, key: str) -> None:
        assert not is_secret_key(key)
        assert not is_content_key(key)

    @pytest.mark.parametrize("key", ["body", "raw", "mail_body", "text", "press_text", "content"])
    def test_content_keys(self, key: str) -> None:
        assert is_content_key(key)

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("password=abc", f"password={REDACTED}"),
            ("Password: 'two words'", f"Password: {REDACTED}"),
            ("smtps://user:p%40ss@mail.example.org", f"smtps://user:{REDACTED}@mail.example.org"),
            ("SIGNON Fgame secret", f"SIGNON Fgame {REDACTED}"),
            ("sign on ?game secret", f"sign on ?game {REDACTED}"),
            (
                'line 2: "signon mgame secret": no such game',
                f'line 2: "signon mgame {REDACTED}": no such game',
            ),
            ("CREATE ?newgame secret standard", f"CREATE ?newgame {REDACTED} standard"),
            ("OBSERVE game secret", f"OBSERVE game {REDACTED}"),
            ("SET PASSWORD newpw", f"SET PASSWORD {REDACTED}"),
            ("x\nPASSWORD newpw", f"x\nPASSWORD {REDACTED}"),
            # As a library writes a line it read: its line ends escaped, two characters each.
            ("b'x\\r\\nSIGNON Fgame secret\\r\\n'", f"b'x\\r\\nSIGNON Fgame {REDACTED}'"),
            ("b'\\r\\nlogon fgame secret'", f"b'\\r\\nlogon fgame {REDACTED}'"),
            ("b'\\nLOGIN Fgame secret'", f"b'\\nLOGIN Fgame {REDACTED}'"),
            ("LOGON Fgame secret", f"LOGON Fgame {REDACTED}"),
            ("<p>HELLO Fgame secret</p>", f"<p>HELLO Fgame {REDACTED}"),
            ("<p>SIGNON Fgame pa=3Dss</p>", f"<p>SIGNON Fgame {REDACTED}"),
            ("SET PW newpw", f"SET PW {REDACTED}"),
            ("set p newpw", f"set p {REDACTED}"),
        ],
    )
    def test_inline_secrets_are_scrubbed(self, text: str, expected: str) -> None:
        assert redact_text(text) == expected

    @pytest.mark.parametrize(
        "text",
        [
            "invalid password or power",
            "could not join game x",
            "relay refused login for user bob",
            "https://example.org:8080/path",
        ],
    )
    def test_ordinary_prose_is_left_alone(self, text: str) -> None:
        assert redact_text(text) == text

    def test_fields_keep_order_and_describe_bytes(self) -> None:
        safe = redact_fields({"mail_id": 1, "note": "password=x", "attachment": b"1234"})
        assert list(safe) == ["mail_id", "note", "attachment"]
        assert safe == {"mail_id": 1, "note": f"password={REDACTED}", "attachment": "<4 bytes>"}


def test_event_of_exposes_raw_fields_to_tests(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        log_event(
            logging.getLogger("judge.tests.logs"), "game.processed", game="alpha", phase="S1901M"
        )
        logging.getLogger("judge.tests.logs").info("plain")
    assert event_of(caplog.records[0]) == ("game.processed", {"game": "alpha", "phase": "S1901M"})
    assert event_of(caplog.records[1]) == (None, {})


def test_formatter_survives_a_bad_format_string() -> None:
    record = logging.LogRecord("judge.x", logging.INFO, __file__, 1, "%d items", ("many",), None)
    line = StructuredFormatter().format(record)
    assert "\n" not in line and "%d items" in parse_logfmt(line)["msg"]
