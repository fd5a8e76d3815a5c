"""Configuration: defaults, TOML, environment precedence, relay URLs, precise errors."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from judge.config import (
    Config,
    ConfigError,
    MaildirRelaySpec,
    SmtpRelaySpec,
    TlsMode,
    load_config,
    parse_relay,
)


def test_defaults_give_a_judge_that_runs_on_a_fresh_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = load_config(env={})
    assert config.smtp_host == "127.0.0.1" and config.smtp_port == 2525
    assert config.address == "judge@localhost"
    assert config.code == "XXXX"
    assert config.data_dir == tmp_path / "data"
    assert config.database_url == f"sqlite:///{tmp_path / 'data' / 'judge.sqlite3'}"
    assert config.relay == MaildirRelaySpec(tmp_path / "data" / "maildir")
    assert config.timezone.key == "UTC"
    assert config.admin == "judgekeeper@localhost"
    assert config.rate_limit_window == timedelta(hours=1)


def test_environment_variables_are_read(tmp_path: Path) -> None:
    env = {
        "JUDGE_DATABASE_URL": "postgresql+psycopg://judge@db/judge",
        "JUDGE_SMTP_HOST": "0.0.0.0",
        "JUDGE_SMTP_PORT": "25",
        "JUDGE_ADDRESS": "judge@example.org",
        "JUDGE_ALIASES": "dip@example.org, judge@mail.example.org",
        "JUDGE_ADMIN": "keeper@example.org",
        "JUDGE_CODE": "xpy",
        "JUDGE_RELAY": "smtp://relay.example.org:2525",
        "JUDGE_DATA_DIR": str(tmp_path / "state"),
        "JUDGE_TIMEZONE": "Europe/Paris",
        "JUDGE_MAX_MESSAGE_SIZE": "2048",
        "JUDGE_RATE_LIMIT_MESSAGES": "5",
        "JUDGE_RATE_LIMIT_WINDOW_SECONDS": "60",
    }
    config = load_config(env=env)
    assert config.database_url == "postgresql+psycopg://judge@db/judge"
    assert (config.smtp_host, config.smtp_port) == ("0.0.0.0", 25)
    assert config.own_addresses == {
        "judge@example.org",
        "dip@example.org",
        "judge@mail.example.org",
    }
    assert config.admin == "keeper@example.org"
    assert config.code == "XPY"
    assert config.relay == SmtpRelaySpec("relay.example.org", 2525)
    assert config.data_dir == tmp_path / "state"
    assert config.timezone.key == "Europe/Paris"
    assert config.max_message_size == 2048
    assert config.rate_limit_messages == 5
    assert config.rate_limit_window == timedelta(seconds=60)
    assert config.domain == "example.org"


def test_environment_wins_over_the_file_and_file_paths_are_relative_to_it(tmp_path: Path) -> None:
    config_file = tmp_path / "etc" / "judge.toml"
    config_file.parent.mkdir()
    config_file.write_text(
        'address = "judge@file.example"\n'
        'code = "FIL"\n'
        'data_dir = "var"\n'
        'relay = "maildir:out"\n'
        "smtp_port = 2600\n"
        'aliases = ["other@file.example"]\n'
    )
    config = load_config(env={"JUDGE_CODE": "ENV"}, config_file=config_file)
    assert config.code == "ENV"
    assert config.address == "judge@file.example"
    assert config.smtp_port == 2600
    assert config.data_dir == tmp_path / "etc" / "var"
    assert config.relay == MaildirRelaySpec(tmp_path / "etc" / "out")
    assert config.database_url.endswith(str(tmp_path / "etc" / "var" / "judge.sqlite3"))
    assert config.aliases == ("other@file.example",)


def test_config_file_can_be_named_by_the_environment(tmp_path: Path) -> None:
    config_file = tmp_path / "judge.toml"
    config_file.write_text('code = "ABC"\n')
    assert load_config(env={"JUDGE_CONFIG": str(config_file)}).code == "ABC"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("smtp://mx.example.org", SmtpRelaySpec("mx.example.org", 25)),
        ("smtp://mx:2525?starttls=yes", SmtpRelaySpec("mx", 2525, TlsMode.STARTTLS)),
        (
            "smtp+starttls://u%40x:p%3Aw@mx",
            SmtpRelaySpec("mx", 587, TlsMode.STARTTLS, "u@x", "p:w"),
        ),
        (
            "smtps://user:secret@mx.example.org",
            SmtpRelaySpec("mx.example.org", 465, TlsMode.IMPLICIT, "user", "secret"),
        ),
        ("maildir:/var/mail/judge", MaildirRelaySpec(Path("/var/mail/judge"))),
    ],
)
def test_relay_urls(text: str, expected: object) -> None:
    assert parse_relay(text) == expected


def test_relay_password_is_not_in_the_repr() -> None:
    config = load_config(env={"JUDGE_RELAY": "smtp://user:hunter2@mx"})
    assert "hunter2" not in repr(config)
    assert isinstance(config, Config)


@pytest.mark.parametrize(
    ("env", "setting"),
    [
        ({"JUDGE_SMTP_PORT": "seventy"}, "smtp_port"),
        ({"JUDGE_SMTP_PORT": "70000"}, "smtp_port"),
        ({"JUDGE_ADDRESS": "no-at-sign"}, "address"),
        ({"JUDGE_CODE": "TOO-LONG-CODE"}, "code"),
        ({"JUDGE_TIMEZONE": "Mars/Olympus"}, "timezone"),
        ({"JUDGE_RELAY": "ftp://x"}, "relay"),
        ({"JUDGE_RELAY": "maildir:"}, "relay"),
        ({"JUDGE_RELAY": "smtp://:25"}, "relay"),
        ({"JUDGE_MAX_MESSAGE_SIZE": "10"}, "max_message_size"),
    ],
)
def test_bad_settings_name_the_setting_and_the_variable(env: dict[str, str], setting: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(env=env)
    assert caught.value.setting == setting
    assert caught.value.source.startswith("$JUDGE_")
    assert setting in str(caught.value)


def test_unknown_keys_and_broken_toml_are_refused(tmp_path: Path) -> None:
    typo = tmp_path / "typo.toml"
    typo.write_text('adress = "judge@x.org"\n')
    with pytest.raises(ConfigError, match="adress"):
        load_config(env={}, config_file=typo)
    broken = tmp_path / "broken.toml"
    broken.write_text("address = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(env={}, config_file=broken)
    with pytest.raises(ConfigError, match="cannot be read"):
        load_config(env={}, config_file=tmp_path / "missing.toml")
