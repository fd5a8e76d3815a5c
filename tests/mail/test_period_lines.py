"""SMTP's transparency (RFC 5321 4.5.2): a line that starts with a period is sent with it doubled.
Whether a mail has such a line is found by looking at its periods (the fast way over a mail with
its map); it must answer what a pattern over every line start answers, for any bytes."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.mail.smtp_transaction import starts_a_line_with_a_period

LINE_START_PERIOD = re.compile(rb"(?m)^\.")


@settings(max_examples=2000)
@given(st.lists(st.sampled_from([b".", b"\n", b"\r", b"\r\n", b"a", b"..", b"\n.", b" .", b"=\r\n"]), max_size=40))
def test_a_period_at_a_line_start_is_found_wherever_it_is(pieces: list[bytes]) -> None:
    message = b"".join(pieces)
    assert starts_a_line_with_a_period(message) == (LINE_START_PERIOD.search(message) is not None)


@given(st.binary(max_size=300))
def test_any_bytes_answer_as_the_pattern_does(message: bytes) -> None:
    assert starts_a_line_with_a_period(message) == (LINE_START_PERIOD.search(message) is not None)


def test_the_first_line_and_a_line_after_a_bare_line_feed_count() -> None:
    assert starts_a_line_with_a_period(b".hidden")
    assert starts_a_line_with_a_period(b"text\n.line")
    assert starts_a_line_with_a_period(b"text\r\n.")
    assert not starts_a_line_with_a_period(b"text.\r\n a.b\r\n")
    assert not starts_a_line_with_a_period(b"")
