"""Deep or broken MIME: decoding is bounded and never raises, and the reply says what could not
be read (before, a 1,000-deep multipart was dropped without a word)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.db.enums import InboundState
from judge.mail.decode import MAX_LINE_LENGTH, Unreadable, decode_mail
from tests.mail.hostile import MailHarness, body_text

pytestmark = pytest.mark.engine_blind  # the engine cannot change what these check: SQLite only

HEAD = (
    b"From: deep@example.net\r\nTo: judge@example.org\r\nSubject: orders\r\nMessage-ID: <d@t>\r\n"
)
TEXT = b"Content-Type: text/plain; charset=utf-8\r\n\r\nVERSION\r\n"


def nested_multipart(depth: int) -> bytes:
    inner = TEXT
    for level in range(depth):
        boundary = f"level{level}".encode()
        inner = (
            b'Content-Type: multipart/mixed; boundary="' + boundary + b'"\r\n\r\n--'
            + boundary + b"\r\n" + inner + b"\r\n--" + boundary + b"--\r\n"
        )  # fmt: skip
    return HEAD + b"MIME-Version: 1.0\r\n" + inner


def nested_messages(depth: int) -> bytes:
    inner = TEXT
    for _ in range(depth):
        inner = b"Content-Type: message/rfc822\r\n\r\n" + inner
    return HEAD + inner


def single_part(encoding: str, payload: bytes) -> bytes:
    return (
        HEAD + b"Content-Type: text/plain; charset=utf-8\r\n"
        b"Content-Transfer-Encoding: " + encoding.encode() + b"\r\n\r\n" + payload
    )


CASES = {
    "1000-deep multipart": (nested_multipart(1000), Unreadable.TOO_DEEP),
    "40-deep multipart": (nested_multipart(40), Unreadable.TOO_DEEP),
    "1000 nested attached mails": (nested_messages(1000), Unreadable.TOO_DEEP),
    "broken base64": (
        single_part("base64", b"VkVSU0lPTgo=\x00!!*&%\r\nnot base64 at all ===\r\n"),
        Unreadable.DAMAGED_ENCODING,
    ),
    "broken quoted-printable": (
        single_part("quoted-printable", b"VERSION\r\n=ZZ=Q1 broken=\r\n"),
        Unreadable.DAMAGED_ENCODING,
    ),
    "huge line": (
        single_part("8bit", b"VERSION\r\n" + b"A" * 3_000_000 + b"\r\n"),
        Unreadable.LONG_LINES,
    ),
    "attachment only": (
        HEAD + b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\n'
        b"Content-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n--b--\r\n",
        Unreadable.NO_TEXT,
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_decoding_is_bounded_and_says_what_could_not_be_read(name: str) -> None:
    raw, kind = CASES[name]
    mail = decode_mail(raw)
    assert mail.sender == "deep@example.net"  # the headers are always read
    assert kind in mail.unreadable
    assert all(len(line) <= MAX_LINE_LENGTH for line in mail.body.splitlines())


def test_nul_bytes_and_control_characters_never_reach_the_commands() -> None:
    mail = decode_mail(single_part("8bit", b"VER\x00SION\x07\r\nSIGN\x1bON\r\n"))
    assert mail.body == "VERSION\nSIGNON\n"


def test_a_shallow_multipart_is_read_in_full() -> None:
    mail = decode_mail(nested_multipart(10))
    assert mail.body == "VERSION\n" and mail.unreadable == ()


@pytest.mark.parametrize("name", list(CASES))
def test_the_worker_answers_and_says_what_could_not_be_read(
    mail_harness: MailHarness, name: str
) -> None:
    raw, kind = CASES[name]
    mail_harness.store(raw, "deep@example.net")
    assert mail_harness.drain() == 1
    assert mail_harness.states() == [InboundState.PROCESSED]
    [reply] = mail_harness.replies()
    assert [a.addr_spec for a in reply["To"].addresses] == ["deep@example.net"]
    text = body_text(reply)
    expected = {
        Unreadable.TOO_DEEP: "could not read the text of your mail: its parts are nested",
        Unreadable.DAMAGED_ENCODING: "Part of your mail was damaged",
        Unreadable.LONG_LINES: "were cut to that length",
        Unreadable.NO_TEXT: "no text the judge can read",
    }[kind]
    assert expected in text
    if kind is not Unreadable.TOO_DEEP and kind is not Unreadable.NO_TEXT:
        assert "> VERSION" in text  # what could be read was carried out


def test_the_sentences_exist_in_french() -> None:
    from judge.app.mail_in.unreadable import unreadable_sentences
    from judge.i18n import translation

    french = unreadable_sentences(list(Unreadable), translation("fr").gettext)
    english = unreadable_sentences(list(Unreadable), translation("en").gettext)
    assert len(french) == len(english) == len(Unreadable)
    assert all(f != e for f, e in zip(french, english, strict=True))
    assert "32 niveaux" in french[1]


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.sampled_from(["multipart/mixed", "message/rfc822", "multipart/alternative"]),
        max_size=200,
    )
)
def test_any_nesting_of_containers_decodes_without_raising(kinds: list[str]) -> None:
    inner = TEXT
    for level, kind in enumerate(kinds):
        if kind == "message/rfc822":
            inner = b"Content-Type: message/rfc822\r\n\r\n" + inner
        else:
            boundary = f"b{level}".encode()
            inner = (
                b"Content-Type: " + kind.encode() + b'; boundary="' + boundary + b'"\r\n\r\n--'
                + boundary + b"\r\n" + inner + b"\r\n--" + boundary + b"--\r\n"
            )  # fmt: skip
    mail = decode_mail(HEAD + inner)
    assert mail.sender == "deep@example.net"
    assert mail.body in ("VERSION\n", "")
    assert (mail.body == "") == (Unreadable.TOO_DEEP in mail.unreadable)


@pytest.mark.parametrize("markup", ["<!--", "<!x", "<?x", "<![CDATA[", "<"])
def test_unterminated_html_markup_costs_linear_work(
    markup: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stdlib parser searched the rest of the mail for the end of EACH unterminated `<!--`:
    a 400 KB mail of them held the worker for minutes. Counted, not timed."""
    from html.parser import HTMLParser

    from judge.mail.html_text import html_to_text

    searches = 0
    for name in ("parse_comment", "parse_html_declaration", "parse_pi", "parse_bogus_comment"):
        original = getattr(HTMLParser, name)

        def counting(self: HTMLParser, i: int, *args: object, _original: object = original) -> int:
            nonlocal searches
            searches += 1
            return _original(self, i, *args)  # type: ignore[operator,no-any-return]

        monkeypatch.setattr(HTMLParser, name, counting)
    text = html_to_text("<p>VERSION</p>" + markup * 5000)
    assert text.startswith("VERSION")
    assert searches <= 2
