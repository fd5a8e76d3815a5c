"""The plainest address headers are read without the RFC 5322 parser (issue 14), with the
same answer the parser gives; anything else still goes through it."""

from __future__ import annotations

from email._header_value_parser import get_address_list

import pytest

from judge.mail.decode import _SIMPLE_MAILBOX, mailbox_addresses

SAMPLES = [
    "a@b.c", "<a@b.c>", "Ann Lee <a.b@x-y.example.org>", "  player.f@bench.example ", "Ann <a@b>",
    "UPPER@CASE.COM", "a+tag@b.c", "Ann Lee<a@b.c>", "o'brien@example.ie", "a_b-c=d@sub.domain.example",
    # not plain: the parser answers
    "a..b@c.d", "a@b..c", '"x y"@b.c', "Ann, Bob <a@b.c>", "a@b.c, d@e.f", "A <a@-b.c>", "a@b-.c",
    "Zoë <z@x.y>", "<a@b.c> (comment)", "a@[1.2.3.4]", ".a@b.c", "a.@b.c", "x <a@b.c> y", "", "<>",
    "Ann <a@b.c", "a@", "@b.c", "a@b.c>",
]


def _parser(value: str) -> list[str]:
    try:
        found, _rest = get_address_list(value)
    except Exception:
        return []
    return [m.addr_spec for m in found.mailboxes if m.local_part and m.domain and m.addr_spec]


@pytest.mark.parametrize("value", SAMPLES)
def test_the_fast_path_answers_as_the_parser(value: str) -> None:
    assert mailbox_addresses(value) == _parser(value)


def test_the_fast_path_is_taken_for_plain_mailboxes_only() -> None:
    assert _SIMPLE_MAILBOX.fullmatch("Ann Lee <ann@example.org>")
    assert not _SIMPLE_MAILBOX.fullmatch('"Lee, Ann" <ann@example.org>')
    assert not _SIMPLE_MAILBOX.fullmatch("ann@example.org, bob@example.org")
