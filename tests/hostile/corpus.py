"""The hostile-mail corpus: every mail a careless robot or a hostile sender may write, each named.

Each case is raw bytes as they would reach the SMTP door (built here in
Python, where the trick is clearer than in a stored .eml), the envelope
sender, and what the judge must do with it according to issue 12 (not what
it happened to do on the day the case was written):

- ``state``: processed (read and answered) or ignored (stored, never
  answered: robots, loops, nobody to answer); no case of the corpus may end
  failed, since a failure is a bug the per-mail guard caught;
- ``reply_to``: the exact recipients of the one reply, or ``None`` for no
  mail at all;
- ``also_to``: other addresses this mail may legitimately cause mail to (a
  confirmation code to the address claimed, a warning to the master);
- what the reply must say, say once, or never say; how many lines it may
  echo; which powers' orders and whether people's records may change.

Cases come in groups: forged senders, international addresses, charsets and
transfer encodings, control characters, size and structure, robots and
loops, humans who merely look like robots, amplification, and game attacks
(wrong passwords, someone else's units or power, look-alike province names,
claiming someone else's address).
"""

from __future__ import annotations

import base64
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import select

from judge.db.enums import InboundState, SeatStatus
from judge.db.models import Person, Seat
from tests.hostile.harness import (
    INTRUDER,
    JUDGE,
    KEEPER,
    STRANGER,
    VERSION_ANSWER,
    VICTIM,
    Outgoing,
    World,
)

PROCESSED = InboundState.PROCESSED
IGNORED = InboundState.IGNORED

FRANCE = "france@example.net"
GERMANY = "germany@example.net"
MASTER = "master@example.net"
NEWCOMER = "newcomer@example.com"
"""Not registered, and used by one case only: its first mail is its first contact."""
CLAIMER = "claimer@example.com"
"""Not registered either: claims someone else's address again and again."""
WAITING_CODES_PER_ADDRESS = 3
"""Confirmation codes waiting for one address at most (the judge's limit): the cap on mail a
stranger can make the judge send to a player by claiming their address."""
SIGNON_FRANCE = "SIGNON Fdemo pwfrance\n"
HELP_TITLE = "HOW TO PLAY DIPLOMACY BY MAIL WITH THIS JUDGE"
COMMAND_LINE_CAP = 2_000
"""The issue's default cap on command lines read from one mail."""
MALLORY = "mal@evil.example"
"""The forger's own mailbox (issue 25): no mail may reach it because he named it."""
CANNON_ADDRESSES = 1_824
"""Addresses in the 57 KB REGISTER mail of issue 25 (which got 1,824 code mails)."""
SECRET_PHONE = "+33 1 99 88 77 66"
SECRET_STREET = "12 rue Secrete"


@dataclass(frozen=True)
class Expect:
    """What the judge must do with one hostile mail."""

    state: InboundState
    reply_to: frozenset[str] | None
    also_to: frozenset[str] = frozenset()
    says: tuple[str, ...] = ()
    says_once: tuple[str, ...] = ()
    never_says: tuple[str, ...] = ()
    error_flag: bool | None = None
    most_echoed_lines: int | None = None
    orders_may_change: frozenset[str] = frozenset()
    people_may_change: bool = False
    most_mails_per_address: int | None = None


@dataclass(frozen=True)
class Case:
    """One named hostile mail: how to build it, who sent it (envelope), what must come of it."""

    name: str
    make: Callable[[], bytes]
    expect: Expect
    envelope: str = STRANGER
    setup: Callable[[World], None] | None = None
    check: Callable[[World, int], None] | None = None

    def raw(self) -> bytes:
        return self.make()


def answered(
    *to: str, says: tuple[str, ...] = (VERSION_ANSWER,), **rest: object
) -> Expect:
    """Processed, one reply to exactly ``to``."""
    return Expect(PROCESSED, frozenset(to), says=says, **rest)  # type: ignore[arg-type]


def silent(state: InboundState = IGNORED) -> Expect:
    """Stored, never answered, no mail at all."""
    return Expect(state, None)


# --- building raw mail ---------------------------------------------------------------


FRESH_MESSAGE_ID = "<fresh>"
"""``mail``'s default: a new Message-ID for each mail built."""
_MESSAGE_NUMBERS = itertools.count(1)


def mail(
    *headers: str | bytes,
    body: str | bytes = "VERSION\n",
    content_type: str | None = "text/plain; charset=utf-8",
    subject: str | None = "orders",
    message_id: str | None = FRESH_MESSAGE_ID,
) -> bytes:
    """A mail with the given header lines (no CRLF; str is written as UTF-8), To, and a body.

    ``body`` given as text gets CRLF line ends and UTF-8; given as bytes it is
    written as is. A header is left out when its argument is ``None``. By default each mail
    built gets a Message-ID of its own: two cases are two mails, never one delivered twice
    (which the judge carries out once, issue 25).
    """
    if message_id == FRESH_MESSAGE_ID:
        message_id = f"<hostile-{next(_MESSAGE_NUMBERS)}@example.com>"
    lines: list[bytes] = [h.encode("utf-8", "surrogateescape") if isinstance(h, str) else h for h in headers]
    lines.append(f"To: {JUDGE}".encode())
    if subject is not None:
        lines.append(b"Subject: " + subject.encode("utf-8"))
    if message_id is not None:
        lines.append(b"Message-ID: " + message_id.encode("ascii"))
    if content_type is not None:
        lines.append(b"Content-Type: " + content_type.encode("ascii"))
    data = body.replace("\n", "\r\n").encode("utf-8") if isinstance(body, str) else body
    return b"\r\n".join(lines) + b"\r\n\r\n" + data


def from_stranger(*headers: str | bytes, **rest: object) -> bytes:
    return mail(f"From: Sam Stranger <{STRANGER}>", *headers, **rest)  # type: ignore[arg-type]


def deep_multipart(depth: int) -> bytes:
    """``depth`` nested multipart/mixed parts, VERSION in the innermost text part."""
    opening = [f"--b{level}\r\nContent-Type: multipart/mixed; boundary=\"b{level + 1}\"\r\n\r\n" for level in range(depth)]
    closing = [f"\r\n--b{level}--\r\n" for level in reversed(range(depth + 1))]
    inner = f"--b{depth}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nVERSION\r\n"
    body = "".join(opening) + inner + "".join(closing)
    return from_stranger("MIME-Version: 1.0", body=body.encode(), content_type='multipart/mixed; boundary="b0"')


def deep_attached_mails(depth: int) -> bytes:
    """A mail carrying a mail carrying a mail ... ``depth`` times (message/rfc822), VERSION on top."""
    inner = b"From: inner@example.net\r\nContent-Type: text/plain\r\n\r\nVERSION\r\n"
    for level in range(depth):
        inner = (
            f"From: level{level}@example.net\r\nMIME-Version: 1.0\r\n"
            f'Content-Type: multipart/mixed; boundary="m{level}"\r\n\r\n'
            f"--m{level}\r\nContent-Type: message/rfc822\r\n\r\n"
        ).encode() + inner + f"\r\n--m{level}--\r\n".encode()
    body = b"--top\r\nContent-Type: text/plain\r\n\r\nVERSION\r\n--top\r\nContent-Type: message/rfc822\r\n\r\n" + inner + b"\r\n--top--\r\n"
    return from_stranger(body=body, content_type='multipart/mixed; boundary="top"')


def wide_multipart(parts: int) -> bytes:
    chunk = "--w\r\nContent-Type: text/plain\r\n\r\nVERSION\r\n"
    return from_stranger(body=(chunk * parts + "--w--\r\n").encode(), content_type='multipart/mixed; boundary="w"')


def garbage(size: int, seed: int) -> bytes:
    return random.Random(seed).randbytes(size)


def orders_flood(count: int) -> bytes:
    lines = ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO", "A PAR H"]
    body = SIGNON_FRANCE + "".join(lines[n % len(lines)] + "\n" for n in range(count))
    return mail(f"From: {FRANCE}", body=body)


HELP_FILES = ("info", "register", "syntax", "press", "draw", "master", "deadlines", "index")


def help_files_order(n: int) -> list[str]:
    """The n-th of many different orderings of the help files: each GET line asks a new question."""
    files = list(HELP_FILES)
    random.Random(n).shuffle(files)
    return files


def signed(sender: str, body: str) -> bytes:
    return mail(f"From: {sender}", body=body)


def report_bounce() -> bytes:
    body = (
        "--dsn\r\nContent-Type: text/plain\r\n\r\nVERSION\r\n"
        "--dsn\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.net\r\n\r\n"
        "Final-Recipient: rfc822; someone@example.net\r\nAction: failed\r\nStatus: 5.1.1\r\n"
        "--dsn--\r\n"
    )
    return mail(
        "From: Mail Delivery System <bounces+x@mx.example.net>",
        body=body.encode(),
        content_type='multipart/report; report-type=delivery-status; boundary="dsn"',
    )


JUDGE_REPLY = (
    f"From: Diplomacy Judge <{JUDGE}>\r\nTo: {STRANGER}\r\nSubject: Re: XPY orders\r\n"
    "Message-ID: <reply1@example.org>\r\nX-Judge: XPY judge@example.org\r\n"
    "Auto-Submitted: auto-replied\r\nContent-Type: text/plain\r\n\r\n:: Judge: XPY\r\n\r\n> VERSION\r\n"
)
"""A reply of the judge as it travels, to be returned, attached or quoted by a robot."""
AWAY = "I am away from my desk until Monday 3 December.\nFor anything urgent, call Anne.\n"
"""An autoreply's text: no command in it."""


def multipart_bounce(*parts: str, sender: str = "Mail Delivery System <system@mx.example.net>") -> bytes:
    """A bounce sent as multipart/mixed from a non-null, human-looking sender, with ``parts``."""
    body = "".join(f"--b\r\n{part}\r\n" for part in parts) + "--b--\r\n"
    return mail(f"From: {sender}", body=body.encode(), content_type='multipart/mixed; boundary="b"', subject="Undelivered Mail")


def exim_style_bounce() -> bytes:
    """A mail server's bounce as multipart/mixed: its text and the returned mail, no delivery-status
    part and no robot header; flufl.bounce's detectors know the text."""
    return multipart_bounce(
        "Content-Type: text/plain\r\n\r\nThis message was created automatically by mail delivery software.\r\n\r\n"
        "A message that you sent could not be delivered to one or more of its\r\n"
        "recipients. This is a permanent error. The following address(es) failed:\r\n\r\n"
        "  <someone@example.net>\r\n    host mx.example.net said: 550 no such user\r\n\r\n"
        "------ This is a copy of the message, including all the headers. ------\r\n",
        "Content-Type: message/rfc822\r\n\r\nFrom: someone@example.com\r\nTo: someone@example.net\r\n"
        "Subject: hello\r\n\r\nVERSION\r\n",
    )


def returned_judge_mail() -> bytes:
    """The judge's own reply returned inside message/rfc822, with a command-looking text beside it."""
    return multipart_bounce(
        "Content-Type: text/plain\r\n\r\nVERSION\r\n",
        f"Content-Type: message/rfc822\r\n\r\n{JUDGE_REPLY}",
        sender=f"Sam Stranger <{STRANGER}>",
    )


def returned_judge_headers() -> bytes:
    """Only the headers of the judge's reply returned, in text/rfc822-headers."""
    headers = JUDGE_REPLY.partition("\r\n\r\n")[0]
    return multipart_bounce(
        "Content-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n",
        f"Content-Type: text/rfc822-headers\r\n\r\n{headers}\r\n",
    )


def dsn_in_mixed() -> bytes:
    return multipart_bounce(
        "Content-Type: text/plain\r\n\r\nVERSION\r\n",
        "Content-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.net\r\n\r\n"
        "Final-Recipient: rfc822; someone@example.net\r\nAction: failed\r\nStatus: 5.1.1\r\n",
    )


def read_receipt() -> bytes:
    return mail(
        f"From: {STRANGER}",
        body=(
            b"--r\r\nContent-Type: text/plain\r\n\r\nYour message was displayed.\r\n"
            b"--r\r\nContent-Type: message/disposition-notification\r\n\r\n"
            b"Final-Recipient: rfc822; hostile@example.com\r\nDisposition: manual-action/MDN-sent-manually; displayed\r\n"
            b"--r--\r\n"
        ),
        content_type='multipart/mixed; boundary="r"',
    )


# --- setups and checks that reach into the database ----------------------------------


def germany_in_civil_disorder(world: World) -> None:
    """Germany missed one deadline of an NMR game and was put in civil disorder: NOT open."""
    with world.db.unit_of_work() as uow:
        game = world.game.game(uow)
        seat = next(s for s in game.seats if s.power == "GERMANY")
        seat.status = SeatStatus.CIVIL_DISORDER


def france_has_private_details(world: World) -> None:
    with world.db.unit_of_work() as uow:
        person = uow.people.by_address(FRANCE)
        assert person is not None
        person.phone = SECRET_PHONE
        person.postal_address = SECRET_STREET


def intruder_owns_nothing_more(world: World, _mail_id: int) -> None:
    with world.db.unit_of_work(readonly=True) as uow:
        intruder = uow.people.by_address(INTRUDER)
        france = uow.people.by_address(FRANCE)
        assert intruder is not None and france is not None
        assert intruder.id != france.id
        assert {a.address for a in intruder.addresses} == {INTRUDER}


def france_record_unchanged(world: World, mail_id: int) -> None:
    """Nobody else became France's player's address, and their record is theirs still."""
    intruder_owns_nothing_more(world, mail_id)
    with world.db.unit_of_work(readonly=True) as uow:
        france = uow.people.by_address(FRANCE)
        assert france is not None
        assert france.name == "France"
        assert {a.address for a in france.addresses} == {FRANCE}
        assert uow.people.by_address(NEWCOMER) is None and uow.people.by_address(CLAIMER) is None


def cannon_of_register_blocks() -> bytes:
    """57 KB of REGISTER blocks, a spam URL as Name, 32 addresses each: 1,824 in all."""
    blocks = []
    for block in range(57):
        emails = "".join(
            "Email: " + ", ".join(f"victim{block:02d}{line}{n}@target{n}.example" for n in range(4)) + "\n"
            for line in range(8)
        )
        blocks.append(f"REGISTER\nName: Visit http://pills.spam.example now\nCountry: Nowhere\n{emails}END\n")
    return from_stranger(body="".join(blocks))


_OUTGOING_BEFORE: dict[int, int] = {}
"""World (by id) -> its last outgoing mail before the case that recorded it: what a case caused."""


def remember_the_outbox(world: World) -> None:
    _OUTGOING_BEFORE[id(world)] = world.last_outgoing_id()


def _caused(world: World) -> list[Outgoing]:
    return world.outgoing_since(_OUTGOING_BEFORE[id(world)])


def at_most_one_code_mail(world: World, _mail_id: int) -> None:
    """The cannon fires one code, to the sender's own new registration, and quotes nothing."""
    codes = [m for m in _caused(world) if "Confirmation needed" in str(m.message()["Subject"])]
    assert len(codes) <= 1, f"{len(codes)} confirmation mails for one mail"
    assert all("spam.example" not in m.body() for m in codes)


def whois_shows_at_most_five(world: World, mail_id: int) -> None:
    [reply] = [m for m in world.outgoing_since(0) if m.in_reply_to == mail_id]
    others = reply.body().count("Name:      ") - reply.body().count("Name:      Ivan Intruder")  # own: free
    assert others <= 5, reply.body()


def france_reports_to_no_stranger(world: World, _mail_id: int) -> None:
    with world.db.unit_of_work(readonly=True) as uow:
        seats = uow.session.scalars(select(Seat).where(Seat.report_address.is_not(None))).all()
        assert all(MALLORY not in (seat.report_address or "") for seat in seats)


def france_ordered_only_what_the_text_shows(world: World, _mail_id: int) -> None:
    """A look-alike letter never makes the judge order something other than what a reader sees."""
    orders = world.snapshot().orders.get("FRANCE")
    if orders is not None:
        _version, canonical = orders  # type: ignore[misc]
        assert not [order for order in canonical if "MAR -" in order], canonical  # the Cyrillic line


def germany_still_held_by_its_player(world: World, _mail_id: int) -> None:
    with world.db.unit_of_work(readonly=True) as uow:
        game = world.game.game(uow)
        seat = next(s for s in game.seats if s.power == "GERMANY")
        holder = uow.session.get(Person, seat.person_id) if seat.person_id else None
        assert holder is not None and GERMANY in {a.address for a in holder.addresses}


# --- the corpus ----------------------------------------------------------------------


def _forged_senders() -> list[Case]:
    bad = "bad@example.org"
    return [
        Case("control_plain_version", lambda: from_stranger(), answered(STRANGER)),
        Case(
            "display_name_encoded_crlf_bcc",
            lambda: mail(f"From: =?utf-8?q?Evil=0D=0ABcc=3A_{VICTIM.replace('@', '=40')}?= <{bad}>"),
            answered(bad),
            envelope=bad,
        ),
        Case(
            "display_name_encoded_address",
            lambda: mail(f"From: =?utf-8?q?{VICTIM.replace('@', '=40')}?= <{bad}>"),
            answered(bad),
            envelope=bad,
        ),
        Case(
            "display_name_encoded_angle_address",
            lambda: mail(f"From: =?utf-8?q?=3C{VICTIM.replace('@', '=40')}=3E?= <{bad}>"),
            answered(bad),
            envelope=bad,
        ),
        Case(
            "display_name_base64_address",
            lambda: mail(f"From: =?utf-8?b?{base64.b64encode(f'<{VICTIM}>'.encode()).decode()}?= <{bad}>"),
            answered(bad),
            envelope=bad,
        ),
        Case("display_name_quoted_address", lambda: mail(f'From: "{VICTIM}" <{bad}>'), answered(bad), envelope=bad),
        Case("display_name_bare_address", lambda: mail(f"From: {VICTIM} <{bad}>"), silent(), envelope=bad),
        Case(
            "from_only_an_encoded_word",
            lambda: mail(f"From: =?utf-8?b?{base64.b64encode(VICTIM.encode()).decode()}?="),
            silent(),
        ),
        Case(
            "several_from_headers",
            lambda: mail("From: first@example.com", f"From: {VICTIM}", "From: last@example.com"),
            answered("last@example.com"),
        ),
        Case("from_lists_two_mailboxes", lambda: mail(f"From: {STRANGER}, {VICTIM}"), answered(STRANGER)),
        Case("reply_to_elsewhere", lambda: from_stranger("Reply-To: other@example.com"), answered("other@example.com")),
        Case(
            "reply_to_encoded_display_name",
            lambda: from_stranger(f"Reply-To: =?utf-8?q?{VICTIM.replace('@', '=40')}?= <other@example.com>"),
            answered("other@example.com"),
        ),
        Case(
            "reply_to_folded_bcc_injection",
            lambda: from_stranger(f"Reply-To: other@example.com\r\n\tBcc: {VICTIM}"),
            answered(STRANGER),
        ),
        Case(
            "two_reply_to_headers",
            lambda: from_stranger(f"Reply-To: {VICTIM}", "Reply-To: other@example.com"),
            answered("other@example.com"),
        ),
        Case(
            "reply_to_lists_two_mailboxes",
            lambda: from_stranger(f"Reply-To: other@example.com, {VICTIM}"),
            answered("other@example.com"),
        ),
        Case("address_beside_a_comment_naming_victim", lambda: mail(f"From: {bad} ({VICTIM})"), answered(bad), envelope=bad),
        Case(
            "victim_in_a_group_of_from",
            lambda: mail(f"From: {bad}", f"Cc: friends: {VICTIM};"),
            answered(bad),
            envelope=bad,
        ),
        Case("sender_header_names_victim", lambda: from_stranger(f"Sender: {VICTIM}"), answered(STRANGER)),
        Case("envelope_names_victim", lambda: from_stranger(), answered(STRANGER), envelope=VICTIM),
        Case(
            "cc_and_bcc_name_victim",
            lambda: from_stranger(f"Cc: {VICTIM}", f"Bcc: {VICTIM}", f"Resent-To: {VICTIM}"),
            answered(STRANGER),
        ),
        Case("from_group_syntax", lambda: mail("From: undisclosed-recipients:;"), silent()),
        Case("from_quoted_local_part", lambda: mail('From: "john doe"@example.org'), silent()),
        Case("from_ip_literal", lambda: mail("From: root@[127.0.0.1]"), silent()),
        Case("from_overlong_local_part", lambda: mail(f"From: {'a' * 300}@example.com"), silent()),
        Case("from_nul_in_address", lambda: mail(b"From: ali\x00ce@example.com"), silent()),
        Case("from_missing", lambda: mail(), silent()),
    ]


def _international() -> list[Case]:
    return [
        Case("reply_to_idn_domain", lambda: from_stranger("Reply-To: b@bücher.example"), answered("b@xn--bcher-kva.example")),
        Case("from_cjk_domain", lambda: mail("From: x@例子.example"), answered("x@xn--fsqu00a.example")),
        Case("from_utf8_local_part", lambda: mail("From: 用户@example.org"), answered("用户@example.org")),
        Case(
            "from_encoded_name_idn_address",
            lambda: mail("From: =?utf-8?q?B=C3=BCcherwurm?= <wurm@bücher.example>"),
            answered("wurm@xn--bcher-kva.example"),
        ),
        Case("from_broken_idn_domain", lambda: mail("From: x@bücher..example"), silent()),
        Case("from_latin1_display_name", lambda: mail(b"From: Fran\xe7ois <francois@example.com>"), answered("francois@example.com")),
        Case("from_latin1_local_part", lambda: mail(b"From: fran\xe7ois@example.com"), silent()),
        Case(
            "register_email_not_ascii",
            lambda: from_stranger(body="REGISTER\nName: Bob Buch\nEmail: b@bücher..example\nCountry: Germany\nEND\n"),
            answered(STRANGER, says=("not a mail address",), people_may_change=True),
        ),
        Case(
            "set_address_unusable",
            lambda: signed(FRANCE, SIGNON_FRANCE + "SET ADDRESS 用户@例子..example\n"),
            answered(FRANCE, says=("not a mail address",), error_flag=True),
            envelope=FRANCE,
        ),
    ]


def _charsets_and_encodings() -> list[Case]:
    b64 = base64.b64encode(b"VERSION\r\n").decode()
    return [
        Case("unknown_charset", lambda: from_stranger(content_type="text/plain; charset=x-klingon-42"), answered(STRANGER)),
        Case("charset_names_a_bytes_codec", lambda: from_stranger(content_type="text/plain; charset=base64"), answered(STRANGER)),
        Case("charset_rot13", lambda: from_stranger(content_type="text/plain; charset=rot13"), answered(STRANGER)),
        Case("charset_utf7", lambda: from_stranger(body=b"VERSION +AGQ-\r\n", content_type="text/plain; charset=utf-7"), answered(STRANGER)),
        Case("charset_utf16_over_ascii_bytes", lambda: from_stranger(body=b"VERSION\r\n", content_type="text/plain; charset=utf-16"), answered(STRANGER, says=())),
        Case("charset_huge_label", lambda: from_stranger(content_type="text/plain; charset=" + "x" * 20_000), answered(STRANGER)),
        Case("charset_rfc2231_garbage", lambda: from_stranger(content_type="text/plain; charset*=utf-8''%FF%FE%00"), answered(STRANGER)),
        Case("latin1_labelled_utf8", lambda: from_stranger(body="VERSION\nA Par – Bür\n".encode("latin-1", "replace"), content_type="text/plain; charset=utf-8"), answered(STRANGER)),
        Case("utf8_labelled_ascii", lambda: from_stranger(body="VERSION\nDéjà vu\n".encode(), content_type="text/plain; charset=us-ascii"), answered(STRANGER)),
        Case("undeclared_8bit", lambda: from_stranger(body=b"VERSION\r\nd\xe9j\xe0\r\n", content_type="text/plain"), answered(STRANGER)),
        Case("base64_broken_padding", lambda: from_stranger("Content-Transfer-Encoding: base64", body=(b64.rstrip("=") + "!!*").encode()), answered(STRANGER, says=())),
        Case("base64_not_base64_at_all", lambda: from_stranger("Content-Transfer-Encoding: base64", body=b"VERSION\r\n%%%% not base64 %%%%\r\n"), answered(STRANGER, says=())),
        Case("base64_decodes_to_binary", lambda: from_stranger("Content-Transfer-Encoding: base64", body=base64.encodebytes(garbage(4096, 1))), answered(STRANGER, says=())),
        Case("base64_valid", lambda: from_stranger("Content-Transfer-Encoding: base64", body=b64.encode()), answered(STRANGER)),
        Case("quoted_printable_broken_escapes", lambda: from_stranger("Content-Transfer-Encoding: quoted-printable", body=b"VERSION\r\n=ZZ=4=\r\n=\r\n="), answered(STRANGER)),
        Case("quoted_printable_encoded_nul", lambda: from_stranger("Content-Transfer-Encoding: quoted-printable", body=b"VERSION\r\nA PAR=00 - BUR=0D=0A=00\r\n"), answered(STRANGER)),
        Case("transfer_encoding_unknown", lambda: from_stranger("Content-Transfer-Encoding: x-gzip64"), answered(STRANGER, says=())),
        Case("transfer_encoding_on_multipart", lambda: from_stranger("Content-Transfer-Encoding: base64", body=b"--z\r\nContent-Type: text/plain\r\n\r\nVERSION\r\n--z--\r\n", content_type='multipart/mixed; boundary="z"'), answered(STRANGER, says=())),
    ]


def _control_characters() -> list[Case]:
    return [
        Case("nul_in_subject", lambda: from_stranger(subject="hi\x00there\x07"), answered(STRANGER)),
        Case("nul_in_body", lambda: from_stranger(body="VER\x00SION\nVERSION\x00\n\x00\x00\n"), answered(STRANGER, says=())),
        Case("nul_in_header_name", lambda: from_stranger(b"X-\x00Evil\x01: \x02\x03"), answered(STRANGER)),
        Case("encoded_subject_with_crlf_bcc", lambda: from_stranger(subject=f"=?utf-8?q?hi=0D=0ABcc=3A_{VICTIM.replace('@', '=40')}=0D=0A=0D=0Abody?="), answered(STRANGER)),
        Case("encoded_subject_with_c1_and_bidi", lambda: from_stranger(subject="=?utf-8?b?" + base64.b64encode("a\u0085b\u2028c\u202ed\x1b[2J".encode()).decode() + "?="), answered(STRANGER)),
        Case("subject_bare_cr", lambda: from_stranger(subject="one\rBcc: " + VICTIM), answered(STRANGER)),
        Case("subject_huge", lambda: from_stranger(subject="S" * 200_000), answered(STRANGER)),
        Case("message_id_with_controls", lambda: from_stranger(message_id="<a\x01b\x7f@example.com>"), answered(STRANGER)),
        Case("references_flood", lambda: from_stranger("References: " + " ".join(f"<r{n}@example.com>" for n in range(5_000))), answered(STRANGER)),
        Case("in_reply_to_garbage", lambda: from_stranger("In-Reply-To: <\x00>\x7f\r\n ==?=?x?q?\x01?="), answered(STRANGER)),
        Case("body_terminal_escapes", lambda: from_stranger(body="VERSION\n\x1b]0;pwned\x07\x1b[2J\u202e\n"), answered(STRANGER)),
    ]


def _size_and_structure() -> list[Case]:
    return [
        Case("empty_mail", lambda: b"", silent()),
        Case("headers_only_no_body", lambda: f"From: {STRANGER}\r\nTo: {JUDGE}\r\nSubject: nothing".encode(), answered(STRANGER, says=("HELP",))),
        Case("body_only_no_headers", lambda: b"VERSION\r\n", silent()),
        Case("binary_garbage", lambda: garbage(64 * 1024, 2), silent()),
        Case("binary_garbage_after_headers", lambda: from_stranger(body=garbage(64 * 1024, 3), content_type=None), answered(STRANGER, says=())),
        Case("huge_body_line", lambda: from_stranger(body="VERSION\n" + "A" * 2_000_000 + "\n"), answered(STRANGER)),
        Case("huge_header_line", lambda: from_stranger("X-Junk: " + "j" * 1_000_000), answered(STRANGER)),
        Case("huge_header_count", lambda: from_stranger(*[f"X-Junk-{n}: {n}" for n in range(20_000)]), answered(STRANGER)),
        Case("bare_cr_line_ends", lambda: from_stranger(body=b"VERSION\rVERSION\r"), answered(STRANGER, says=())),
        Case("deep_multipart_1000", lambda: deep_multipart(1000), answered(STRANGER, says=())),
        Case("deep_attached_mails_200", lambda: deep_attached_mails(200), answered(STRANGER, says=())),
        Case("wide_multipart_5000_parts", lambda: wide_multipart(5_000), answered(STRANGER, most_echoed_lines=COMMAND_LINE_CAP + 5)),
        Case("multipart_without_boundary", lambda: from_stranger(content_type="multipart/mixed"), answered(STRANGER, says=())),
        Case("multipart_never_closed", lambda: from_stranger(body=b"--open\r\nContent-Type: text/plain\r\n\r\nVERSION\r\n", content_type='multipart/mixed; boundary="open"'), answered(STRANGER)),
        Case("html_only", lambda: from_stranger(body="<html><body><p>VERSION</p></body></html>\n", content_type="text/html; charset=utf-8"), answered(STRANGER)),
        Case("html_nested_10000_deep", lambda: from_stranger(body="<div>" * 10_000 + "VERSION" + "</div>" * 10_000, content_type="text/html"), answered(STRANGER, says=())),
        Case("html_unterminated_tags", lambda: from_stranger(body="<p>VERSION</p>\n" + "<a" * 150_000, content_type="text/html"), answered(STRANGER, says=())),
        Case("html_entity_flood", lambda: from_stranger(body="<p>VERSION</p>" + "&amp;&#x0;&#xD;&#10;" * 50_000, content_type="text/html"), answered(STRANGER)),
        Case("attachment_only", lambda: from_stranger(body=b"--a\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment\r\nContent-Transfer-Encoding: base64\r\n\r\nAAAA\r\n--a--\r\n", content_type='multipart/mixed; boundary="a"'), answered(STRANGER, says=("HELP",))),
        Case("content_type_garbage", lambda: from_stranger(content_type=';;;===; charset="'), answered(STRANGER)),
    ]


def _robots() -> list[Case]:
    def robot(name: str, *headers: str, envelope: str = STRANGER) -> Case:
        return Case(name, lambda: from_stranger(*headers), silent(), envelope=envelope)

    def robot_from(name: str, sender: str) -> Case:
        return Case(name, lambda: mail(f"From: {sender}"), silent(), envelope=sender)

    return [
        robot("auto_submitted_auto_replied", "Auto-Submitted: auto-replied"),
        robot("auto_submitted_auto_generated", "Auto-Submitted: auto-generated"),
        robot("auto_submitted_unknown_keyword", "Auto-Submitted: auto-notified; owner-email=x@example.com"),
        robot("precedence_bulk", "Precedence: bulk"),
        robot("precedence_junk", "Precedence: junk"),
        robot("precedence_list", "Precedence: list"),
        robot("precedence_auto_reply", "Precedence: auto_reply"),
        robot("x_autoreply", "X-Autoreply: yes"),
        robot("x_autorespond", "X-Autorespond: Vacation"),
        robot("x_auto_response_suppress", "X-Auto-Response-Suppress: All"),
        robot("list_id", "List-Id: Diplomacy fans <dip.lists.example.com>"),
        robot("list_unsubscribe", "List-Unsubscribe: <mailto:leave@lists.example.com>"),
        robot("x_loop_names_the_judge", f"X-Loop: {JUDGE}"),
        robot("x_judge_header_comes_back", f"X-Judge: XPY {JUDGE}"),
        robot("empty_return_path", "Return-Path: <>"),
        robot("null_envelope_sender", envelope=""),
        robot("envelope_mailer_daemon", envelope="MAILER-DAEMON@mx.example.net"),
        robot_from("from_mailer_daemon", "MAILER-DAEMON@mx.example.net"),
        robot_from("from_postmaster", "postmaster@example.net"),
        robot_from("from_the_judge_itself", JUDGE),
        Case("daemon_with_human_reply_to", lambda: mail("From: mailer-daemon@mx.example.net", f"Reply-To: {STRANGER}"), silent(), envelope="mailer-daemon@mx.example.net"),
        Case("delivery_status_report", report_bounce, silent(), envelope="bounces+x@mx.example.net"),
        # Issue 25: robots that the first round still answered.
        robot("list_post_only", "List-Post: <mailto:dip@lists.example.com>"),
        robot("ezmlm_mailing_list", "Mailing-List: contact dip-help@lists.example.com; run by ezmlm"),
        robot("exim_failed_recipients", "X-Failed-Recipients: someone@example.net"),
        robot_from("from_no_dot_reply", "no.reply@example.com"),
        robot_from("from_noreply_with_suffix", "noreply-alerts@example.com"),
        robot_from("from_do_not_reply", "Do_Not_Reply@example.com"),
        robot_from("from_notifications", "notifications@example.com"),
        Case("bounce_multipart_mixed_delivery_status", dsn_in_mixed, silent(), envelope="system@mx.example.net"),
        Case("bounce_multipart_mixed_mail_server_text", exim_style_bounce, silent(), envelope="system@mx.example.net"),
        Case("read_receipt", read_receipt, silent()),
        Case("judge_mail_returned_as_rfc822", returned_judge_mail, silent()),
        Case("judge_headers_returned_as_rfc822_headers", returned_judge_headers, silent(), envelope="system@mx.example.net"),
        *[
            Case(f"autoreply_subject_{n}", lambda subject=subject: from_stranger(subject=subject, body=AWAY), silent())
            for n, subject in enumerate(AUTOREPLY_SUBJECTS)
        ],
        Case(
            "autoreply_subject_encoded_french",
            lambda: from_stranger(subject="=?utf-8?q?R=C3=A9ponse_automatique_=3A_Re=3A_ordres?=", body=AWAY),
            silent(),
        ),
        # Not robots: RFC 3834's "no", and an X-Loop naming someone else, are answered.
        Case("auto_submitted_no", lambda: from_stranger("Auto-Submitted: no"), answered(STRANGER)),
        Case("x_loop_names_someone_else", lambda: from_stranger("X-Loop: lists@example.com"), answered(STRANGER)),
        # A person whose subject looks like an autoreply's, or who attaches a mail that is no
        # judge's, or quotes a judge mail under a command: answered.
        *[
            Case(f"human_autoreply_subject_with_a_command_{n}", lambda subject=subject: from_stranger(subject=subject), answered(STRANGER))
            for n, subject in enumerate(AUTOREPLY_SUBJECTS)
        ],
        Case("human_subject_absence_of_a_player", lambda: from_stranger(subject="Re: absence of England"), answered(STRANGER)),
        Case(
            "human_forwards_a_mail_as_attachment",
            lambda: multipart_bounce(
                "Content-Type: text/plain\r\n\r\nVERSION\r\n",
                "Content-Type: message/rfc822\r\n\r\nFrom: friend@example.net\r\nSubject: game?\r\n\r\nShall we play?\r\n",
                sender=f"Sam Stranger <{STRANGER}>",
            ),
            answered(STRANGER),
        ),
        Case(
            "human_quotes_a_judge_reply_under_a_command",
            lambda: from_stranger(body="VERSION\n\nOn Monday the judge wrote:\n> :: Judge: XPY\n> \n> > HELP\n"),
            answered(STRANGER),
        ),
        Case(
            "quoting_responder_first_time",
            lambda: from_stranger(subject="Re: XPY orders", body=AWAY + "\n> :: Judge: XPY\n>\n> > VERSION\n"),
            Expect(PROCESSED, frozenset({STRANGER})),
        ),
    ]


AUTOREPLY_SUBJECTS = (
    "Out of Office: Re: XPY orders",
    "Automatic reply: Re: XPY orders",
    "Réponse automatique : Re: XPY orders",
    "Absence",
    "Abwesenheitsnotiz: Re: XPY orders",
    "Automatische Antwort: orders",
    "Re: orders [Out of the office]",
    "Auto-Reply: orders",
)
"""Autoreplies' subjects, EN, FR, DE: silent over a text with no command, answered over a command."""


def _humans_with_robot_prefixes() -> list[Case]:
    def human(local: str) -> Case:
        sender = f"{local}@example.com"
        return Case(f"human_{local.replace('.', '_')}", lambda: mail(f"From: {sender}"), answered(sender), envelope=sender)

    return [
        human(local)
        for local in (
            "smtpfan", "mailerman", "postman", "uucpfan", "mmdfan", "postmaster.jones",
            "noah.reply", "reply.no", "notification.fan", "nobodyknows",
        )
    ]  # fmt: skip


def _amplification() -> list[Case]:
    return [
        Case(
            "help_600_kb",
            lambda: from_stranger(body="HELP\n" * 120_000),
            answered(STRANGER, says=(), says_once=(HELP_TITLE,), most_echoed_lines=COMMAND_LINE_CAP + 5),
        ),
        Case(
            "get_info_3000_times",
            lambda: from_stranger(body="GET info\n" * 3_000),
            answered(STRANGER, says=(), says_once=(HELP_TITLE,), most_echoed_lines=COMMAND_LINE_CAP + 5),
        ),
        Case(
            "get_files_in_3000_different_orders",
            lambda: from_stranger(body="".join(f"GET {' '.join(help_files_order(n))}\n" for n in range(3_000))),
            answered(STRANGER, says=(), most_echoed_lines=COMMAND_LINE_CAP + 5),
        ),
        Case(
            "whois_3000_different_prefixes",
            lambda: signed(INTRUDER, "".join(f"WHOIS {chr(97 + n % 26)}{n}\n" for n in range(3_000)) + "WHOIS f\n"),
            answered(INTRUDER, says=(), most_echoed_lines=COMMAND_LINE_CAP + 5),
            envelope=INTRUDER,
        ),
        Case(
            "list_3000_times",
            lambda: from_stranger(body="LIST\n" * 3_000),
            answered(STRANGER, says=(), most_echoed_lines=COMMAND_LINE_CAP + 5),
        ),
        Case(
            "orders_10000_in_one_mail",
            lambda: orders_flood(10_000),
            answered(FRANCE, says=(), most_echoed_lines=COMMAND_LINE_CAP + 5, orders_may_change=frozenset({"FRANCE"})),
            envelope=FRANCE,
        ),
        Case(
            "comment_lines_100000",
            lambda: from_stranger(body="VERSION\n" + "# nothing\n" * 100_000),
            answered(STRANGER),
        ),
    ]


def _game_attacks() -> list[Case]:
    return [
        Case(
            "wrong_password",
            lambda: signed(FRANCE, "SIGNON Fdemo guess\nA PAR - BUR\n"),
            answered(FRANCE, says=(), error_flag=True),
            envelope=FRANCE,
        ),
        Case(
            "signon_to_another_power",
            lambda: signed(FRANCE, "SIGNON Gdemo pwfrance\nA BER - SIL\n"),
            answered(FRANCE, says=(), error_flag=True, also_to=frozenset({KEEPER, MASTER, GERMANY})),
            envelope=FRANCE,
        ),
        Case(
            "stranger_guesses_many_passwords_in_one_mail",
            lambda: signed(INTRUDER, "".join(f"SIGNON Gdemo guess{n}\n" for n in range(30)) + "A BER - SIL\n"),
            answered(INTRUDER, says=(), error_flag=True, also_to=frozenset({KEEPER, MASTER, GERMANY})),
            envelope=INTRUDER,
            check=germany_still_held_by_its_player,
        ),
        Case(
            "orders_for_someone_elses_units",
            lambda: signed(FRANCE, SIGNON_FRANCE + "A BER - SIL\nF KIE - DEN\nA MUN - BUR\n"),
            answered(FRANCE, says=(), error_flag=True),
            envelope=FRANCE,
        ),
        Case(
            "orders_without_signon",
            lambda: signed(FRANCE, "A PAR - BUR\nF BRE - MAO\n"),
            answered(FRANCE, says=(), error_flag=True),
            envelope=FRANCE,
        ),
        Case(
            "cyrillic_lookalike_province",
            lambda: signed(FRANCE, SIGNON_FRANCE + "A \u0420\u0430r - Bur\n"),  # "Раr": Cyrillic Er and a
            answered(FRANCE, says=(), error_flag=True),
            envelope=FRANCE,
        ),
        Case(
            "cyrillic_lookalike_signon",
            lambda: signed(FRANCE, "S\u0406GNON Fdemo pwfrance\nA PAR - BUR\n"),  # Cyrillic I
            answered(FRANCE, says=(), error_flag=True),
            envelope=FRANCE,
        ),
        Case(
            "greek_lookalike_unit_type",
            lambda: signed(FRANCE, SIGNON_FRANCE + "\u0391 PAR - BUR\nA MAR - \u0412UR\n"),  # Greek Alpha, Cyrillic Ve
            answered(FRANCE, says=(), error_flag=True, orders_may_change=frozenset({"FRANCE"})),
            envelope=FRANCE,
            check=france_ordered_only_what_the_text_shows,
        ),
        Case(
            "master_password_guess",
            lambda: signed(INTRUDER, "SIGNON Mdemo guess\nPROCESS\n"),
            answered(INTRUDER, says=(), error_flag=True),
            envelope=INTRUDER,
        ),
        Case(
            "takeover_of_power_in_civil_disorder",
            lambda: signed(INTRUDER, "SIGNON Gdemo anything\nA BER - SIL\n"),
            answered(INTRUDER, says=(), error_flag=True, also_to=frozenset({KEEPER, MASTER, GERMANY})),
            envelope=INTRUDER,
            setup=germany_in_civil_disorder,
            check=germany_still_held_by_its_player,
        ),
        Case(
            "iamalso_someone_else",
            lambda: signed(INTRUDER, f"IAMALSO {FRANCE}\n"),
            answered(INTRUDER, says=(), also_to=frozenset({FRANCE})),
            envelope=INTRUDER,
            check=intruder_owns_nothing_more,
        ),
        Case(
            "register_over_someone_elses_record",
            lambda: signed(NEWCOMER, f"REGISTER\nName: Evil Twin\nEmail: {FRANCE}\nPhone: 0\nEND\n"),
            answered(NEWCOMER, says=(), also_to=frozenset({FRANCE})),
            envelope=NEWCOMER,
            check=france_record_unchanged,
        ),
        Case(
            "registered_intruder_registers_someone_elses_address",
            lambda: signed(INTRUDER, f"REGISTER\nName: Evil Twin\nEmail: {FRANCE}\nPhone: 0\nEND\n"),
            answered(INTRUDER, says=(), also_to=frozenset({FRANCE}), people_may_change=True),
            envelope=INTRUDER,
            check=france_record_unchanged,
        ),
        Case(
            "iamalso_someone_else_ten_times",
            lambda: signed(CLAIMER, f"IAMALSO {FRANCE}\n" * 10),
            answered(CLAIMER, says=(), also_to=frozenset({FRANCE}), most_mails_per_address=WAITING_CODES_PER_ADDRESS),
            envelope=CLAIMER,
            check=france_record_unchanged,
        ),
        Case(
            "register_over_someone_else_six_times",
            lambda: signed(CLAIMER, f"REGISTER\nName: Evil Twin\nEmail: {FRANCE}\nEND\n" * 6),
            answered(CLAIMER, says=(), also_to=frozenset({FRANCE}), most_mails_per_address=WAITING_CODES_PER_ADDRESS),
            envelope=CLAIMER,
            check=france_record_unchanged,
        ),
        Case(
            "keeper_tools_by_mail_from_the_keepers_address",
            lambda: mail(f"From: {KEEPER}", body="ADJUST 1 5\nRECORD 1\nFIXID 5 Home\nNOCONTROL\n"),
            answered(KEEPER, says=(), error_flag=True),
            envelope=KEEPER,
        ),
        Case(
            "keeper_in_from_answer_elsewhere_reads_no_private_field",
            lambda: mail(f"From: {KEEPER}", f"Reply-To: {INTRUDER}", body=f"WHOIS {FRANCE}\n"),
            answered(INTRUDER, says=(), never_says=(SECRET_PHONE, SECRET_STREET)),
            envelope=INTRUDER,
            setup=france_has_private_details,
        ),
        Case(
            "forged_from_of_a_player_is_answered_to_that_player_only",
            lambda: mail(f"From: {FRANCE}", body="REGISTER\nName: France\nPhone: 0\nEND\nWHOIS france\n"),
            answered(FRANCE, says=(), also_to=frozenset({FRANCE})),
            envelope="forger@example.net",
        ),
        Case(  # issue 25: the code went to mal@, whose CONFIRM made it France's primary address
            "forged_from_adds_the_forgers_address",
            lambda: mail(f"From: {FRANCE}", body=f"REGISTER\nEmail: {MALLORY}\nEND\n"),
            answered(FRANCE, says=("Nothing was changed",), also_to=frozenset({FRANCE})),
            envelope=MALLORY,
            check=france_record_unchanged,
        ),
        Case(  # issue 25: a forged From renamed the registration at once
            "forged_from_renames_a_player",
            lambda: mail(f"From: {FRANCE}", body="REGISTER\nName: Evil Twin\nPhone: 0\nAddress: nowhere\nEND\n"),
            answered(FRANCE, says=("Nothing was changed",), also_to=frozenset({FRANCE}), never_says=("Evil Twin",)),
            envelope=MALLORY,
            check=france_record_unchanged,
        ),
        Case(  # issue 25: 1,824 code mails to 1,824 addresses, each quoting the spam Name
            "confirmation_code_cannon_57_kb",
            cannon_of_register_blocks,
            answered(STRANGER, says=(), also_to=frozenset({STRANGER}), people_may_change=True),
            setup=remember_the_outbox,
            check=at_most_one_code_mail,
        ),
        Case(  # issue 25: 36 lines harvested every registered address
            "whois_harvest_36_prefixes",
            lambda: signed(INTRUDER, "".join(f"WHOIS {c}\n" for c in "abcdefghijklmnopqrstuvwxyz0123456789")),
            answered(INTRUDER, says=("WHOIS shows at most 5 registrations per mail",)),
            envelope=INTRUDER,
            check=whois_shows_at_most_five,
        ),
        Case(  # issue 25: the power's mail could be sent to any address with the password alone
            "set_address_to_a_strangers_mailbox",
            lambda: signed(FRANCE, SIGNON_FRANCE + f"SET ADDRESS {MALLORY}\n"),
            answered(FRANCE, says=("SET ADDRESS takes only addresses of your registration",), error_flag=True),
            envelope=FRANCE,
            check=france_reports_to_no_stranger,
        ),
        Case(
            "whois_reads_someone_elses_details",
            lambda: signed(INTRUDER, f"WHOIS {FRANCE}\n"),
            answered(INTRUDER, says=(), never_says=(SECRET_PHONE, SECRET_STREET)),
            envelope=INTRUDER,
            setup=france_has_private_details,
        ),
    ]


def build_corpus() -> list[Case]:
    cases = [
        *_forged_senders(),
        *_international(),
        *_charsets_and_encodings(),
        *_control_characters(),
        *_size_and_structure(),
        *_robots(),
        *_humans_with_robot_prefixes(),
        *_amplification(),
        *_game_attacks(),
    ]
    names = [case.name for case in cases]
    assert len(names) == len(set(names)), "two cases share a name"
    return cases


CORPUS: list[Case] = build_corpus()
BY_NAME: dict[str, Case] = {case.name: case for case in CORPUS}
