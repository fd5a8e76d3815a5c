"""The README's settings table names real settings with their real defaults."""

from __future__ import annotations

import re
from pathlib import Path

from judge.config import (
    DATA_DIR_VARIABLE,
    DATABASE_URL_VARIABLE,
    DEFAULT_ADDRESS,
    DEFAULT_CODE,
    DEFAULT_DISPLAY_NAME,
    DEFAULT_SMTP_HOST,
    DEFAULT_SMTP_PORT,
    DEFAULT_TIMEZONE,
    DEFAULT_WEB_HOST,
    DEFAULT_WEB_PORT,
    load_config,
)

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def test_every_setting_the_readme_names_is_read_by_the_judge() -> None:
    named = set(re.findall(r"`(JUDGE_[A-Z_]+)`", README.split("## Settings a newcomer changes first")[1].split("\n## ")[0]))
    assert named, "the settings table is missing"
    for variable in named - {DATA_DIR_VARIABLE, DATABASE_URL_VARIABLE}:
        assert load_config({}) != load_config({variable: _a_value(variable)}), variable


def _a_value(variable: str) -> str:
    return {
        "JUDGE_SMTP_PORT": "2626", "JUDGE_METRICS_PORT": "9109", "JUDGE_TIMEZONE": "Europe/Paris",
        "JUDGE_RELAY": "smtp://relay.example.org:25", "JUDGE_CODE": "ABCD",
    }.get(variable, "someone@example.org" if "ADDRESS" in variable or "ADMIN" in variable else "x")


def test_the_readme_gives_the_real_defaults() -> None:
    row = f"| `{DEFAULT_SMTP_HOST}`, `{DEFAULT_SMTP_PORT}` |"
    assert row in README
    for default in (DEFAULT_ADDRESS, DEFAULT_CODE, DEFAULT_DISPLAY_NAME, DEFAULT_TIMEZONE):
        assert f"`{default}`" in README, default
    assert f"SMTP on {DEFAULT_SMTP_HOST}:{DEFAULT_SMTP_PORT}" in README
    assert f"http://{DEFAULT_WEB_HOST}:{DEFAULT_WEB_PORT}/" in README
