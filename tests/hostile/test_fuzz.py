"""Hypothesis against the whole worker: random bytes, random text, and random mutations of real mail.

Every example is stored as the SMTP door stores it and run through the real
worker (decode, loop guard, parse, dispatch, compose, queue). Whatever the
bytes, the worker never raises, never leaves the mail waiting, never fails on
it (a failure is a bug the guard caught, not an answer), writes no control
character into a header, keeps every reply within the cap, and still answers
a plain mail afterwards.

The seeds of the mutations are real mails: the golden corpus of command mails
(``tests/data/mail``, sent by a player of the game in play, signed on or not),
the raw client mails of ``tests/data/raw``, and the smaller mails of the
hostile corpus. The runs are derandomised (the same examples on every run, so
a failure in CI is a failure on a developer's machine) and kept small: a few
hundred examples in all.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.db.enums import InboundState
from tests.hostile.corpus import CORPUS, FRANCE, SIGNON_FRANCE, mail
from tests.hostile.harness import STRANGER, World, check_judge_still_answers, header_problems

DATA = Path(__file__).resolve().parent.parent / "data"
FUZZ = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
DONE = {InboundState.PROCESSED, InboundState.IGNORED, InboundState.DUPLICATE}  # a repeat is carried out once


def _golden_bodies() -> list[str]:
    return [path.read_text(encoding="utf-8") for path in sorted((DATA / "mail").glob("*.txt"))]


def _seeds() -> list[bytes]:
    seeds = [mail(f"From: {FRANCE}", body=body) for body in _golden_bodies()]
    seeds += [mail(f"From: {FRANCE}", body=SIGNON_FRANCE + body) for body in _golden_bodies()]
    seeds += [path.read_bytes() for path in sorted((DATA / "raw").glob("*.eml"))]
    seeds += [raw for raw in (case.raw() for case in CORPUS) if len(raw) < 16 * 1024]
    return seeds


SEEDS = _seeds()
NASTY_PIECES = [
    b"\r\n", b"\r", b"\n", b"\x00", b"\r\n\r\n", b"\r\n\t", b": ", b"=?utf-8?q?=0D=0A?=", b"=?x?b?!!?=",
    b"\r\nContent-Type: multipart/mixed; boundary=x\r\n", b"\r\n--x\r\n", b"\r\n--x--\r\n",
    b"\r\nContent-Transfer-Encoding: base64\r\n", b"\r\nContent-Transfer-Encoding: quoted-printable\r\n",
    b"charset=utf-16", b"charset=x-unknown", b"\r\nFrom: ", b"\r\nReply-To: ", b"@", b"<", b">",
    b"\r\nAuto-Submitted: no\r\n", b"\xff\xfe", b"\xc3", b"\xe9", "\u202e".encode(), "Р".encode(),
    b"SIGNON Fdemo pwfrance\r\n", b"HELP\r\n", b"A PAR - BUR\r\n", b"IAMALSO x@y.example\r\n",
]  # fmt: skip


@st.composite
def mutated_mails(draw: st.DrawFn) -> bytes:
    """A real mail with a few random edits: bytes flipped, pieces inserted, ranges cut or doubled."""
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 6))):
        where = draw(st.integers(0, len(data)))
        edit = draw(st.sampled_from(("flip", "insert", "piece", "cut", "double", "truncate")))
        if edit == "flip" and data:
            index = min(where, len(data) - 1)
            data[index] = draw(st.integers(0, 255))
        elif edit == "insert":
            data[where:where] = draw(st.binary(min_size=1, max_size=32))
        elif edit == "piece":
            data[where:where] = draw(st.sampled_from(NASTY_PIECES))
        elif edit == "cut":
            del data[where : where + draw(st.integers(1, 64))]
        elif edit == "double":
            data[where:where] = data[where : where + draw(st.integers(1, 256))]
        elif edit == "truncate":
            del data[where:]
    return bytes(data)


def _through_the_worker(world: World, raw: bytes, envelope: str) -> InboundState:
    last = world.last_outgoing_id()
    mail_id = world.inject(raw, envelope)
    world.drain()
    state = world.state_of(mail_id)
    assert state in DONE, f"ended {state}: {world.error_of(mail_id)}"
    cap = world.config.reply_max_bytes
    for outgoing in world.outgoing_since(last):
        assert header_problems(outgoing.raw) == [], header_problems(outgoing.raw)
        assert len(outgoing.body().encode("utf-8")) <= cap + 8 * 1024
    return state


@settings(FUZZ, max_examples=75)
@given(raw=st.binary(max_size=4096))
def test_random_bytes_never_stop_the_worker(sqlite_world: World, raw: bytes) -> None:
    _through_the_worker(sqlite_world, raw, STRANGER)
    check_judge_still_answers(sqlite_world)


@settings(FUZZ, max_examples=150)
@given(raw=mutated_mails())
def test_mutated_real_mails_never_stop_the_worker(sqlite_world: World, raw: bytes) -> None:
    _through_the_worker(sqlite_world, raw, FRANCE)
    check_judge_still_answers(sqlite_world)


@settings(FUZZ, max_examples=75)
@given(
    prefix=st.sampled_from(["", SIGNON_FRANCE, "SIGNON Mdemo masterpw\n", "SIGNON Gdemo guess\n"]),
    body=st.text(max_size=600),
)
def test_random_text_from_a_player_is_read_and_answered(sqlite_world: World, prefix: str, body: str) -> None:
    """Any text a player's client can carry is parsed and dispatched, in the game too: always answered."""
    state = _through_the_worker(sqlite_world, mail(f"From: {FRANCE}", body=prefix + body), FRANCE)
    assert state is InboundState.PROCESSED
