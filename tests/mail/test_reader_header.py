"""A results mail's ``To``: a reader whose canonical address is plain dot-atoms is written without
the address parser (issue 28), with the very header the parser's way writes; others still parse."""

from __future__ import annotations

import random
from email.utils import getaddresses

import pytest

from judge.mail.compose import _PLAIN_ADDRESS, _one_line, _reader_header, format_address

EDGES = [
    "a@b.c", "p.f+tag@bench.example", "a_b-c@sub.domain-x.example", "a@b", "x" * 70 + "@long.example",
    "a@" + "b" * 70 + ".example", "a@" + ("b" * 60 + ".") * 5 + "org", "a@-b.c", "a@b-.c", "-a@b.c",
    "xn--a@xn--zz.org", "a@xn--zzzz",
    # not plain: the parser answers
    "A@B.C", "a..b@c.d", ".a@b.c", "a@b..c", "Ann <a@b.c>", "a@b.c, d@e.f", '"x y"@b.c', "zoë@x.y", "a@b.c.",
]


def _parsed(reader: str) -> str:
    """The ``To`` value as the address parser's way writes it (the path every other reader takes)."""
    pairs = getaddresses([_one_line(reader)])
    if len(pairs) == 1 and pairs[0][1]:
        return format_address(*pairs[0])
    return format_address("", reader)


@pytest.mark.parametrize("reader", EDGES)
def test_the_to_header_is_the_parsers_for_every_reader(reader: str) -> None:
    assert _reader_header(reader) == _parsed(reader)


def test_plain_addresses_drawn_at_random_are_written_as_the_parser_writes_them() -> None:
    draw = random.Random(28)
    plain = 0
    for _ in range(20_000):
        local = "".join(draw.choice("ab09_+-.") for _ in range(draw.randint(1, 6)))
        domain = "".join(draw.choice("ab-.0") for _ in range(draw.randint(1, 6)))
        reader = f"{local}@{domain}"
        if _PLAIN_ADDRESS.fullmatch(reader):
            plain += 1
            assert _reader_header(reader) == _parsed(reader) == reader, reader
    assert plain > 5_000  # the draw does reach the shortcut
