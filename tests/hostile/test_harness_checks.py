"""The checks the attack tests rely on catch what they are meant to catch (a check that cannot fail proves nothing)."""

from __future__ import annotations

from tests.hostile.corpus import CORPUS, IGNORED, PROCESSED
from tests.hostile.harness import header_problems

CLEAN = b"From: judge@example.org\r\nSubject: Re: hello\r\n folded on\r\n\r\nbody\r\n"


def test_a_clean_header_passes() -> None:
    assert header_problems(CLEAN) == []


def test_raw_control_characters_in_a_header_are_caught() -> None:
    assert header_problems(b"Subject: a\x00b\r\n\r\nbody")
    assert header_problems(b"Subject: a\x1b[2J\r\n\r\nbody")
    assert header_problems(b"Subject: one\rBcc: victim@evil.example\r\n\r\nbody")


def test_control_characters_inside_encoded_words_are_caught() -> None:
    assert header_problems(b"Subject: =?utf-8?q?hi=0D=0ABcc=3A_x=40y?=\r\n\r\nbody")
    assert header_problems(b"Subject: =?utf-8?b?YcKFYg==?=\r\n\r\nbody")  # U+0085 (NEL)


def test_overlong_header_lines_and_a_missing_body_separator_are_caught() -> None:
    assert header_problems(b"Subject: " + b"x" * 1000 + b"\r\n\r\nbody")
    assert header_problems(b"Subject: no body at all")


def test_the_corpus_covers_every_group_the_issue_names() -> None:
    names = {case.name for case in CORPUS}
    for expected in (
        "display_name_encoded_crlf_bcc", "several_from_headers", "reply_to_elsewhere",
        "reply_to_idn_domain", "from_cjk_domain", "from_utf8_local_part",
        "unknown_charset", "base64_broken_padding", "quoted_printable_broken_escapes",
        "nul_in_subject", "nul_in_body", "huge_body_line", "huge_header_count",
        "deep_multipart_1000", "empty_mail", "headers_only_no_body", "binary_garbage", "html_only",
        "cyrillic_lookalike_province", "precedence_auto_reply", "x_autoreply", "x_autorespond",
        "x_auto_response_suppress", "list_id", "list_unsubscribe", "x_loop_names_the_judge",
        "empty_return_path", "from_mailer_daemon", "from_postmaster", "human_smtpfan",
        "human_mailerman", "human_postman", "human_uucpfan", "human_mmdfan", "help_600_kb",
        "orders_10000_in_one_mail", "wrong_password", "orders_for_someone_elses_units",
        "signon_to_another_power",
    ):  # fmt: skip
        assert expected in names
    robots = [c for c in CORPUS if c.expect.state is IGNORED]
    humans = [c for c in CORPUS if c.expect.state is PROCESSED]
    assert len(robots) >= 25 and len(humans) >= 60
