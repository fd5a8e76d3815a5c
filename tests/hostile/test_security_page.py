"""docs/security.md names real things: every test file it cites exists, every corpus case it
names is in the corpus, every setting is one the judge reads, with the default the page gives;
and every sentence of what a forged From line can and cannot do names tests that exist."""

from __future__ import annotations

import re
from pathlib import Path

from judge import config as judge_config
from tests.hostile.corpus import CORPUS

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
CASES = {case.name for case in CORPUS}


def test_every_test_file_cited_exists() -> None:
    cited = set(re.findall(r"`((?:[a-z_]+/)?test_[a-z0-9_]+\.py)`", PAGE))
    assert len(cited) >= 20
    for name in cited:
        matches = list((ROOT / "tests").glob(name if "/" in name else f"hostile/{name}"))
        assert matches, f"docs/security.md cites {name}, which is not under tests/"


def test_every_corpus_case_named_exists() -> None:
    sections = re.findall(r"corpus(?: cases?)? ([^|]+)\|", PAGE)
    named = {n for section in sections for n in re.findall(r"`([a-z0-9_*]+)`", section)}
    assert len(named) >= 15
    for name in named:
        if name.endswith("*"):
            assert any(case.startswith(name[:-1]) for case in CASES), name
        else:
            assert name in CASES, f"docs/security.md names corpus case {name}, which does not exist"


def test_every_setting_named_is_read_with_the_default_given() -> None:
    known = set(judge_config._ENV_NAMES.values())
    for variable in set(re.findall(r"`(JUDGE_[A-Z_]+)`", PAGE)):
        assert variable in known, f"{variable} is not a setting of the judge"
    defaults = {
        "JUDGE_SMTP_MAX_CONNECTIONS_PER_CLIENT": judge_config.DEFAULT_SMTP_MAX_CONNECTIONS_PER_CLIENT,
        "JUDGE_SMTP_MAX_CONNECTIONS": judge_config.DEFAULT_SMTP_MAX_CONNECTIONS,
        "JUDGE_SMTP_IDLE_TIMEOUT_SECONDS": int(judge_config.DEFAULT_SMTP_IDLE_TIMEOUT_SECONDS),
        "JUDGE_SMTP_SESSION_MAX_SECONDS": int(judge_config.DEFAULT_SMTP_SESSION_MAX_SECONDS),
        "JUDGE_SMTP_MAX_RECIPIENTS": judge_config.DEFAULT_SMTP_MAX_RECIPIENTS,
        "JUDGE_MAIL_MAX_ATTEMPTS": judge_config.DEFAULT_MAIL_MAX_ATTEMPTS,
        "JUDGE_MAIL_MAX_COMMAND_LINES": judge_config.DEFAULT_MAIL_MAX_COMMAND_LINES,
        "JUDGE_REPLY_MAX_BYTES": judge_config.DEFAULT_REPLY_MAX_BYTES // 1024,
        "JUDGE_RATE_LIMIT_MESSAGES": judge_config.DEFAULT_RATE_LIMIT_MESSAGES,
        "JUDGE_CONFIRMATIONS_PER_SENDER_PER_DAY": judge_config.DEFAULT_CONFIRMATIONS_PER_SENDER_PER_DAY,
        "JUDGE_CONFIRMATIONS_PER_DOMAIN_PER_DAY": judge_config.DEFAULT_CONFIRMATIONS_PER_DOMAIN_PER_DAY,
        "JUDGE_CONFIRMATIONS_PER_HOUR": judge_config.DEFAULT_CONFIRMATIONS_PER_HOUR,
        "JUDGE_WHOIS_PER_DAY": judge_config.DEFAULT_WHOIS_PER_DAY,
    }
    for variable, default in defaults.items():
        given = re.findall(rf"`{variable}`(?:, | \()(\d[\d,]*)", PAGE)
        assert given, f"docs/security.md does not give the default of {variable}"
        assert {int(g.replace(",", "")) for g in given} == {default}, variable


FORGED_FROM = "## What a forged From line can and cannot do"


def test_every_sentence_on_a_forged_from_names_a_test_that_exists() -> None:
    section = PAGE.split(FORGED_FROM, 1)[1].split("\n## ", 1)[0].split("**What remains", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| A forged")]
    assert len(rows) >= 10
    for row in rows:
        sentence, guards = row.strip("| ").rsplit(" | ", 1)
        tests = re.findall(r"`((?:[a-z_]+/)?test_[a-z0-9_]+\.py)::(test_[a-z0-9_]+)`", guards)
        cases = re.findall(r"corpus `([a-z0-9_]+)`", guards)
        assert tests or cases, f"no test for: {sentence}"
        for path, name in tests:
            source = (ROOT / "tests" / path).read_text(encoding="utf-8")
            assert f"def {name}(" in source, f"{path}::{name} (for: {sentence}) does not exist"
        for case in cases:
            assert case in CASES, f"corpus case {case} (for: {sentence}) does not exist"
