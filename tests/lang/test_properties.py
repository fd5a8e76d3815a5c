"""Property-based tests: nothing a mail contains makes the reader raise or misreport positions."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.lang.mail import INTERNAL_ERROR_MESSAGE, ParseResult, parse_mail
from judge.lang.serialize import result_to_json

FRAGMENTS = [
    "signon", "SIGNON Fdt pw", "signon ?", "create ?g pw standard", "observe", "watch dt pw",
    "set", "set wait", "set nowait", "set draw", "set draw AEF", "set deadline", "set deadline Mon 23:30",
    "set absence 5 Jan to", "set preference f[er", "set preference (", "set moves next", "set moves next 48",
    "set grace", "set grace press", "set no", "set no absence", ",", ",,", "set ,", "set address a,b",
    "press", "press to", "press to all but", "press fake", "press +", "press -", "broadcast", "endpress",
    "postal press", "diary", "diary read", "enddiary", "phase", "phase fall", "phase fall 1901 m",
    "if", "if (", "if ((nth", "if not", "if not not nth", "if nth and", "if nth or (eng", "then",
    "else", "else if", "elseif eng then", "endif", "end if", "end", "fi",
    "A Par - Bur", "F Bre - Mao", "A Par H", "F StP/NC - Bar", "A Lon-Nth-Nwy", "F Nth C A Lon - Nwy",
    "build A Par", "waive", "remove F Bre", "A Par S A Mar - Bur", "F Spa (sc) - Wes", "xxx", "T",
    "register", "Name: x", "END", "iamalso", "i am also x@y", "reply-to:", "from: a@b",
    "history", "history from", "history exclstart", "history exclstart S1901M exclend", "lines",
    "list", "list full", "whois", "who is", "whogame full", "get", "send me", "help", "version",
    "become", "become master", "eject", "promote", "process fall 1901", "rollback 0", "force",
    "force begin", "pause", "resume", "terminate", "predict", "unstart", "clear", "resign", "map",
    "signoff", "sign off", "--", "-- ", "(", ")", "[", "]", "*", "+", "-", ":", ";", "?", "\t",
]  # fmt: skip


def check(result: ParseResult, body: str) -> None:
    lines = max(1, len(body.replace("\r\n", "\n").replace("\r", "\n").split("\n")))
    for error in result.errors:
        assert error.message != INTERNAL_ERROR_MESSAGE, error
        assert 1 <= error.line <= lines
        assert error.column >= 1
        assert error.message
    previous = 0
    for command in result.commands:
        assert command.line >= previous
        previous = command.line
    json.dumps(result_to_json(result), ensure_ascii=False)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400))
def test_any_text_is_read_without_raising(body: str) -> None:
    check(parse_mail(body), body)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.sampled_from(FRAGMENTS), max_size=5).map(" ".join), max_size=40).map("\n".join))
def test_command_shaped_junk_is_read_without_raising(body: str) -> None:
    check(parse_mail(body), body)
    check(parse_mail(body, french=True), body)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=600))
def test_binary_junk_decoded_any_way_is_read_without_raising(data: bytes) -> None:
    for encoding in ("utf-8", "latin-1"):
        body = data.decode(encoding, errors="replace")
        check(parse_mail(body), body)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=60), st.sampled_from(["if nth", "(", "not "]))
def test_deep_nesting_is_limited_not_fatal(depth: int, opener: str) -> None:
    if opener == "if nth":
        body = "signon Edt pw\n" + "if nth\n" * depth + "F Nth H\n" + "endif\n" * depth
    else:
        body = "signon Edt pw\nif " + opener * depth + "nth\nF Nth H\nendif\n"
    check(parse_mail(body), body)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS[:60]), min_size=1, max_size=30))
def test_blank_lines_and_trailing_blanks_change_only_line_numbers(lines: list[str]) -> None:
    plain = "\n".join(lines)
    padded = "\n\n".join(f"{line}   " for line in lines)
    left = [(cmd.KIND, cmd.line) for cmd in parse_mail(plain).commands]
    right = [(cmd.KIND, (cmd.line + 1) // 2) for cmd in parse_mail(padded).commands]
    assert [kind for kind, _ in left] == [kind for kind, _ in right]
