"""Hostile and awkward input: stored and read back intact, or refused with a clear error."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.db import Database
from judge.db.enums import InboundState
from judge.db.errors import InvalidTextError, TextTooLongError
from judge.db.models import Person
from judge.db.repositories import Registration
from judge.db.types import NaiveDatetimeError
from judge.db.validation import check_json
from tests.db.helpers import T0, at, game_with_seats, person

NASTY_NAMES = [
    "O'Brien",
    'Robert "Bobby" Tables',
    "Robert'); DROP TABLE people;--",
    "x' OR '1'='1",
    "%_\\%\\_ LIKE",
    "; DELETE FROM games WHERE 1=1; --",
    "Zoë Ærøskøbing — 東京 🎲",
    'back\\slash and "quotes" and `ticks`',
    "\t tabs and\nnewlines\r\n",
]


@pytest.mark.parametrize("name", NASTY_NAMES)
def test_names_with_quotes_and_sql_metacharacters_round_trip(database: Database, name: str) -> None:
    with database.unit_of_work() as uow:
        someone = uow.people.register(Registration(name=name, site=name), "x@example.org", T0)
        game = uow.games.create("g1", T0)
        uow.games.change_setting(game, "comment", name[:80], T0, actor=name[:300])
        someone_id = someone.id
    with database.unit_of_work(readonly=True) as uow:
        stored = uow.people.get(someone_id)
        assert stored.name == name and stored.site == name
        assert uow.games.require("g1").comment == name[:80]
        assert uow.session.query(Person).count() == 1  # nothing was dropped or duplicated


def test_a_one_megabyte_press_body_round_trips(database: Database) -> None:
    body = ("Lorem ipsum dolor sit amet, 'quoted' \"double\" — ünïcödé 🎲\n" * 20000)[: 1 << 20]
    assert len(body) == 1 << 20
    with database.unit_of_work() as uow:
        game, (england, *_) = game_with_seats(uow)
        message_id = uow.press.post(game, body, at(1), sender_seat=england, recipients=["F"]).id
    with database.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        (message,) = uow.press.for_game(game)
        assert message.id == message_id and message.body == body


def test_nul_characters_are_refused_with_the_field_named(database: Database) -> None:
    with pytest.raises(InvalidTextError) as caught, database.unit_of_work() as uow:
        game, (england, *_) = game_with_seats(uow)
        uow.press.post(game, "before\x00after", at(1), sender_seat=england, recipients=["F"])
    assert (caught.value.table, caught.value.column) == ("press", "body")
    assert "NUL" in str(caught.value)
    with database.unit_of_work(readonly=True) as uow:
        assert uow.games.by_name("demo") is None  # the whole unit of work was rolled back


def test_nul_inside_json_is_refused(database: Database) -> None:
    with (
        pytest.raises(InvalidTextError, match=r"orders\.canonical"),
        database.unit_of_work() as uow,
    ):
        game, (england, *_) = game_with_seats(uow)
        uow.orders.submit(game, england, "S1901M", "f lon-nth", ["F LON\x00 - NTH"], at(1))


def test_lone_surrogates_are_refused(database: Database) -> None:
    broken = b"caf\xe9".decode("utf-8", errors="surrogateescape")
    with pytest.raises(InvalidTextError, match="Unicode"), database.unit_of_work() as uow:
        person(uow, name=broken)


def test_text_longer_than_its_column_is_refused_on_every_engine(database: Database) -> None:
    with pytest.raises(TextTooLongError) as caught, database.unit_of_work() as uow:
        uow.games.create("g" * 40, T0)
    assert caught.value.limit == 32 and caught.value.length == 40


def test_changed_rows_are_checked_too(database: Database) -> None:
    with database.unit_of_work() as uow:
        someone_id = person(uow).id
    with pytest.raises(InvalidTextError), database.unit_of_work() as uow:
        uow.people.get(someone_id).name = "evil\x00"
    with database.unit_of_work(readonly=True) as uow:
        assert uow.people.get(someone_id).name == "Ann"


def test_naive_datetimes_are_refused(database: Database) -> None:
    with pytest.raises(Exception) as caught, database.unit_of_work() as uow:
        uow.games.create("naive", datetime(2024, 1, 1, 12, 0))
    assert isinstance(caught.value, NaiveDatetimeError) or isinstance(
        caught.value.__cause__, NaiveDatetimeError
    )


def test_non_utf8_raw_mail_is_stored_byte_for_byte(database: Database) -> None:
    raw = (
        b"From: =?iso-8859-1?q?Andr=E9?= <andre@example.fr>\r\n"
        b"Subject: ordres\r\n\r\n"
        b"A PAR-BUR \xe9t\xe9 \xff\xfe\x00\x01 NUL inside\r\n" + bytes(range(256))
    )
    mail_id = database.store_inbound_mail(
        raw, "André <andre@example.fr>", ["judge@example.org"], T0, "192.0.2.1"
    )
    with database.unit_of_work(readonly=True) as uow:
        stored = uow.mail_in.get(mail_id)
        assert stored.raw == raw
        assert stored.mail_from == "André <andre@example.fr>"
        assert stored.rcpt_tos == ["judge@example.org"] and stored.peer == "192.0.2.1"


@pytest.mark.parametrize(
    ("mail_from", "rcpt_tos", "peer", "error"),
    [
        ("nul\x00@example.org", ["judge@example.org"], "", InvalidTextError),
        ("x" * 1001 + "@example.org", ["judge@example.org"], "", TextTooLongError),
        ("x@example.org", ["judge\x00@example.org"], "", InvalidTextError),
        ("x@example.org", ["judge@example.org"], "\udcff", InvalidTextError),
        ("x@example.org", ["judge@example.org"], "p" * 256, TextTooLongError),
    ],
)
def test_an_envelope_that_cannot_be_stored_intact_is_refused_before_the_database(
    database: Database, mail_from: str, rcpt_tos: list[str], peer: str, error: type[Exception]
) -> None:
    """The door's store is a Core INSERT (no ORM flush): it checks the envelope itself, so
    both engines refuse the same envelopes with the same error (and the door answers 451)."""
    with pytest.raises(error):
        database.store_inbound_mail(b"Subject: x\r\n\r\nHELP\r\n", mail_from, rcpt_tos, T0, peer)
    with database.unit_of_work(readonly=True) as uow:
        assert uow.mail_in.count(InboundState.RECEIVED) == 0


def test_mails_stored_together_get_their_ids_in_the_order_given(database: Database) -> None:
    mails = [(f"mail {n}".encode(), f"p{n % 3}@example.org", ["judge@example.org"], at(n), "") for n in range(7)]
    with database.unit_of_work() as uow:
        ids = uow.mail_in.store_many(mails)
    assert ids == sorted(ids) and len(set(ids)) == 7
    with database.unit_of_work(readonly=True) as uow:
        for mail_id, (raw, mail_from, rcpt_tos, received_at, _) in zip(ids, mails, strict=True):
            stored = uow.mail_in.get(mail_id)
            assert (stored.raw, stored.mail_from, stored.rcpt_tos, stored.received_at) == (
                raw, mail_from, rcpt_tos, received_at,
            )
            assert stored.sender_key == mail_from and stored.state is InboundState.RECEIVED
            assert stored.attempts == 0 and stored.next_attempt_at is None


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"))
)
def test_any_text_without_nul_round_trips(database: Database, body: str) -> None:
    with database.unit_of_work() as uow:
        game = uow.games.by_name("prop") or uow.games.create("prop", T0)
        diary_id = uow.press.add_diary(game, body, T0).id
    with database.unit_of_work(readonly=True) as uow:
        game = uow.games.require("prop")
        (entry,) = [e for e in uow.press.diary(game) if e.id == diary_id]
        assert entry.body == body


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(raw=st.binary(max_size=4096))
def test_any_bytes_round_trip_as_raw_mail(database: Database, raw: bytes) -> None:
    mail_id = database.store_inbound_mail(raw, "x@example.org", ["judge@example.org"], T0)
    with database.unit_of_work(readonly=True) as uow:
        assert uow.mail_in.get(mail_id).raw == raw


@pytest.mark.parametrize(
    ("document", "problem"),
    [
        ({"a": ["x", {"b": "NUL\x00here"}]}, "NUL"),
        ({"key\x00": 1}, "NUL"),
        (["ok", b"caf\xe9".decode("utf-8", errors="surrogateescape")], "Unicode"),
        ({"nested": [[["\udc80"]]]}, "Unicode"),
        ({"not json": {1, 2}, "inside": "\x00"}, "NUL"),  # the encoder cannot write it: walked
    ],
)
def test_json_documents_are_checked_to_the_last_string(document: object, problem: str) -> None:
    """The quick check (the document written once) never lets through what the walk refuses."""
    with pytest.raises(InvalidTextError, match=problem):
        check_json("phases", "results", document)


def test_a_json_document_with_text_that_merely_looks_escaped_passes() -> None:
    """A typed ``\\u0000`` (six characters) is text, not a NUL: accepted, where the NUL is refused."""
    typed = "a literal \\u0000 typed by a player"
    assert "\x00" not in typed and "\\u0000" in typed
    assert check_json("phases", "results", {"press": typed, "n": [1, 2.5, None, True]}) is None
    with pytest.raises(InvalidTextError, match="NUL"):
        check_json("phases", "results", {"press": typed.replace("\\u0000", "\x00"), "n": [1]})
