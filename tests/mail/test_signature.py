"""One rule for where a signature starts (``judge.mail.signature``): the decoder drops what
follows it, and the command reader stops there, at the same lines, press text included."""

from __future__ import annotations

import pytest

from judge.lang import commands as c
from judge.lang.mail import parse_mail
from judge.lang.signatures import is_sign_off
from judge.mail.decode import clean_body
from judge.mail.signature import is_signature_line

SIGNATURES = ["-- ", "--", " -- ", "--\t", "--  \r"]
NOT_SIGNATURES = ["---", "-- Bob", "- -", "--x", "—", "-", ""]


@pytest.mark.parametrize("line", SIGNATURES)
def test_two_dashes_alone_start_the_signature(line: str) -> None:
    assert is_signature_line(line)


@pytest.mark.parametrize("line", NOT_SIGNATURES)
def test_anything_else_does_not(line: str) -> None:
    assert not is_signature_line(line)


@pytest.mark.parametrize("line", SIGNATURES + NOT_SIGNATURES[:4])
def test_the_decoder_and_the_reader_cut_at_the_same_line(line: str) -> None:
    body = f"SIGNON Fdemo pw\nA PAR H\n{line}\nBob Smith\n"
    notes: list[str] = []
    cleaned = clean_body(body, notes)
    read = parse_mail(body)
    kinds = [type(command) for command in read.commands]
    if is_signature_line(line):
        assert "Bob Smith" not in cleaned
        assert any(note.startswith("dropped the signature") for note in notes)
        assert kinds == [c.Signon, c.OrderCommand, c.Signoff]
        assert read.errors == ()
    else:
        assert "Bob Smith" in cleaned
        # the reader may still end there, as at any sign-off ("-- Bob" is a dash and a name),
        # but by the sign-off rule (judge.lang.signatures), not as a signature line
        assert kinds[2:3] != [c.Signoff] or is_sign_off(line.strip())


@pytest.mark.parametrize("line", SIGNATURES)
def test_a_signature_inside_a_press_text_ends_it_in_the_reader_as_in_the_decoder(line: str) -> None:
    body = f"SIGNON Fdemo pw\nPRESS TO E\nHello.\n{line}\nBob\nENDPRESS\n"
    notes: list[str] = []
    assert clean_body(body, notes) == "SIGNON Fdemo pw\nPRESS TO E\nHello.\n"
    [_signon, press, *rest] = parse_mail(body).commands
    assert isinstance(press, c.Press) and press.body == "Hello."
    assert [type(command) for command in rest] == [c.Signoff]
