"""Decoding real-looking mail: charsets, MIME shapes, quotes, signatures, garbage."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.mail.addresses import canonical_address
from judge.mail.decode import MAX_REFERENCES, DecodedMail, decode_bytes, decode_mail
from judge.mail.html_text import html_to_text

RAW = Path(__file__).resolve().parent.parent / "data" / "raw"


def decode_file(name: str) -> DecodedMail:
    return decode_mail((RAW / name).read_bytes())


def test_french_quoted_printable_latin1() -> None:
    mail = decode_file("latin1_qp_french.eml")
    assert mail.sender == "jean.dupont@exemple.fr"
    assert mail.subject == "Ordres de la France à l'automne"
    assert mail.message_id == "<20261122100000.1234@exemple.fr>"
    assert mail.body.splitlines()[:4] == [
        "SIGNON Fpar0 secret",
        "Armée Paris - Bourgogne",
        "Flotte Brest - Manche",
        "Armée Marseille - Espagne",
    ]
    # SIGNOFF is the grammar's business: the lines after it are still there.
    assert "SIGNOFF" in mail.body and "Merci, à bientôt" in mail.body
    assert mail.problems == ()


def test_windows_1252_with_curly_quotes_dashes_and_euro() -> None:
    mail = decode_file("cp1252_outlook.eml")
    assert mail.sender == "jsmith@corp.example.com"
    lines = mail.body.splitlines()
    assert lines[1:3] == ["F Lon - Nth", "A Lvp - Yor"]  # en dashes became hyphens
    assert lines[-1] == "“Press” costs 5 €, déjà vu"
    assert "\r" not in mail.body


def test_base64_utf8_from_a_phone() -> None:
    mail = decode_file("utf8_base64.eml")
    assert mail.subject == "Befehle 🙂"
    assert mail.body == "SIGNON Ggame1 geheim\nA Mün - Ruhr\nF Kie - Dän 🙂\nA Ber - Kie\n"


def test_html_only_mail_keeps_its_lines_and_loses_the_quoted_reply() -> None:
    mail = decode_file("html_only.eml")
    assert mail.body == (
        "SIGNON Igame1 pizza\nA Ven H\nA Rom - Apu\nF Nap - Ion\n\nCordialement, Amélie\n"
    )
    assert "converted text/html to plain text" in mail.notes
    assert mail.references == ("<judge-0@example.org>", "<judge-1@example.org>")


def test_multipart_alternative_prefers_plain_text() -> None:
    mail = decode_file("multipart_alternative.eml")
    assert mail.body == "SIGNON Rgame1 vodka\nA Mos - Ukr\nF Sev - Bla\n"


def test_multipart_mixed_reads_the_inline_text_not_the_attachments() -> None:
    mail = decode_file("multipart_mixed_attachment.eml")
    assert mail.body == "SIGNON Tgame1 kebab\nF Ank - Bla\nCoût: 5 €\n"  # ISO-8859-15 euro


def test_signature_and_everything_after_it_is_dropped() -> None:
    mail = decode_file("signature.eml")
    assert mail.body == "SIGNON Agame1 wien\nA Vie - Gal\nA Bud - Ser\nF Tri - Alb\n"
    assert any("signature" in note for note in mail.notes)


def test_quoted_lines_and_their_attribution_are_dropped_and_reply_to_wins() -> None:
    mail = decode_file("quoted_reply.eml")
    assert mail.sender == "emma.orders@laposte.example"
    assert mail.body == "SIGNON Egame1 tea\nF Edi - Nwg\nA Lvp - Edi\n"


def test_outlook_original_message_block_is_dropped() -> None:
    mail = decode_file("outlook_original_message.eml")
    assert mail.body == "SIGNON Agame1 wien\nA Gal - War\n"


def test_last_reply_to_header_wins() -> None:
    assert decode_file("two_reply_to.eml").sender == "second@example.org"


@pytest.mark.parametrize("name", ["crlf.eml", "cr_only.eml"])
def test_line_endings_are_normalised(name: str) -> None:
    mail = decode_file(name)
    assert "\r" not in mail.body
    assert "A Par - Bur" in mail.body.splitlines()


def test_crlf_keeps_blank_lines_between_orders() -> None:
    assert decode_file("crlf.eml").body == "SIGNON Fgame1 x\nA Par - Bur\n\nF Bre - Mao\n"


@pytest.mark.parametrize(
    ("name", "problem_word"),
    [("lying_utf8.eml", "not valid utf-8"), ("unknown_charset.eml", "unknown charset")],
)
def test_wrong_or_unknown_charsets_are_read_leniently_and_reported(
    name: str, problem_word: str
) -> None:
    mail = decode_file(name)
    assert any(problem_word in problem for problem in mail.problems)
    assert "Armée" in mail.body or "déjà" in mail.body


def test_undeclared_eight_bit_text_is_guessed() -> None:
    assert decode_file("undeclared_8bit.eml").body == "Armée Paris - Picardie\n"


def test_broken_base64_still_gives_an_answerable_mail() -> None:
    mail = decode_file("bad_base64.eml")
    assert mail.sender == "kim@example.org"
    assert mail.body.startswith("A Par - Bur")


@pytest.mark.parametrize("name", ["garbage.eml", "empty.eml", "no_sender.eml"])
def test_garbage_empty_and_anonymous_mail_decode_with_problems(name: str) -> None:
    mail = decode_file(name)
    assert mail.sender is None
    assert "no usable sender address in Reply-To or From" in mail.problems
    assert "\x00" not in mail.body


def test_huge_mail_is_decoded_whole() -> None:
    orders = "A Par - Bur\n" * 200_000
    raw = b"From: big@example.org\nSubject: huge\n\n" + orders.encode()
    mail = decode_mail(raw)
    assert mail.body.count("\n") == 200_000


def test_charset_fallbacks() -> None:
    assert decode_bytes("déjà".encode(), None) == (
        "déjà",
        "read undeclared 8-bit text as utf-8",
    )
    assert decode_bytes(b"\xe9", "iso-8859-1") == ("é", None)
    assert decode_bytes(b"\x93x\x94", "iso-8859-1") == (
        "“x”",
        None,
    )  # labelled Latin-1, really cp1252
    assert decode_bytes(b"\xa4", "iso-8859-15") == ("€", None)
    text, note = decode_bytes(b"abc", "base64")  # a codec, but not a text encoding
    assert text == "abc" and note is not None and "unknown charset" in note


def test_html_to_text_structure() -> None:
    html = "<p>SIGNON Fg pw</p><p>A Par<br/>- Bur</p><script>alert(1)</script><pre>x\n  y</pre>"
    assert html_to_text(html) == "SIGNON Fg pw\nA Par\n- Bur\nx\n  y"


def test_encoded_words_in_from_and_subject() -> None:
    raw = (
        b"From: =?utf-8?q?Fran=C3=A7ois?= <francois@example.fr>\n"
        b"Subject: =?iso-8859-1?q?Ordres_pour_l'=E9t=E9?= =?utf-8?b?w6A=?=\n\nA Par H\n"
    )
    mail = decode_mail(raw)
    assert mail.sender == "francois@example.fr"
    assert mail.subject == "Ordres pour l'étéà"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=3000))
def test_decode_never_raises_on_arbitrary_bytes(raw: bytes) -> None:
    mail = decode_mail(raw)
    assert isinstance(mail.body, str)
    assert "\r" not in mail.body


_HEADERISH = st.lists(
    st.sampled_from(
        [
            b"From: ", b"Reply-To: ", b"Subject: =?", b"?q?", b"?b?", b"=?utf-8", b"Content-Type: ",
            b"multipart/alternative; boundary=x", b"text/html", b"charset=", b"x-unknown", b"\n",
            b"\r\n", b"--x\n", b"--x--\n", b"Content-Transfer-Encoding: ", b"base64", b"quoted-printable",
            b"<div>", b"<blockquote>", b"=E9", b"\xe9", b"> ", b"-- \n", b"@", b"<a@b>", b"\n\n",
        ]
    ),
    max_size=60,
).map(b"".join)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(_HEADERISH)
def test_decode_never_raises_on_mail_shaped_garbage(raw: bytes) -> None:
    """Whatever the bytes, the decoded mail keeps its promises: a sender is a canonical address or
    is missing with the problem said; the thread's references stay bounded; the body is text."""
    mail = decode_mail(raw)
    missing = "no usable sender address in Reply-To or From" in mail.problems
    assert (mail.sender is None) == missing
    if mail.sender is not None:
        assert canonical_address(mail.sender) == mail.sender
    assert len(mail.references) <= MAX_REFERENCES
    assert isinstance(mail.body, str)
