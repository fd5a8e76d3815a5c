"""The results' map is drawn by the sender when it delivers the mails, once per phase (issues 14, 16).

Processing a phase queues each reader's results mail with the phase to draw
(``mail_out.map_phase_id``) and draws nothing, so the transaction holding
the game's row lock stays short. The sender attaches the picture when it
hands the mail to the relay; a picture it cannot draw leaves the text mail
as it was. Who sees what is unchanged: the same picture goes to every reader
who did not SET MAP OFF, and it names powers only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest

import judge.app.mail_out.results_maps as maps
from judge.app.mail_out.sender import TransactionalOutbox
from judge.app.phases.guarded_scheduler import process_due
from judge.db.enums import OutboundState
from judge.db.models import OutboundMail, PhaseRecord
from judge.mail.compose import Attachment, AutoSubmitted, render, with_attachment
from judge.mail.outbound import drain_once
from judge.maps.png import png_size
from tests.app.conftest import Harness
from tests.app.orders_helpers import MASTER, OBSERVER, POWERS, address, plain, start_game
from tests.app.test_maps_mail import dislodge_burgundy
from tests.app.test_processing_results import OPENINGS, send_all

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


class Relay:
    def __init__(self) -> None:
        self.delivered: list[tuple[EmailMessage, tuple[str, ...]]] = []

    def deliver(self, message: bytes, recipients: Sequence[str], envelope_sender: str | None = None) -> Mapping[str, str]:
        self.delivered.append((message_from_bytes(message, policy=policy.default), tuple(recipients)))  # type: ignore[arg-type]
        return {}


def _count_drawings(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    drawings: list[int] = []
    real = maps.svg_to_png

    def counted(svg: str) -> bytes:
        drawings.append(1)
        return real(svg)

    monkeypatch.setattr(maps, "svg_to_png", counted)
    return drawings


def _process_spring(harness: Harness) -> None:
    game = start_game(harness)
    assert "MAP OFF" in plain(game.orders("FRANCE", "SET MAP OFF\n"))
    harness.clock.advance(hours=13)
    send_all(game, OPENINGS)
    harness.clock.advance(hours=1)
    assert process_due(harness.services) == 1


def test_processing_draws_nothing_and_the_sender_draws_each_phase_once(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawings = _count_drawings(monkeypatch)
    _process_spring(harness)
    assert drawings == []  # nothing drawn while the phase was processed
    with harness.db.unit_of_work(readonly=True) as uow:
        spring = uow.session.query(PhaseRecord).filter_by(name="S1901M").one()
        rows = {row.recipients[0]: row.map_phase_id for row in uow.session.query(OutboundMail)
                if b"S1901M Results" in row.message}  # fmt: skip
    assert set(rows) == {*(address(p) for p in POWERS), MASTER, OBSERVER}
    assert rows[address("FRANCE")] is None  # SET MAP OFF: no picture asked for
    assert {rows[a] for a in rows if a != address("FRANCE")} == {spring.id}

    relay = Relay()
    drain_once(TransactionalOutbox(harness.services), relay, harness.clock.now(), limit=100)
    results = {to[0]: mail for mail, to in relay.delivered if "S1901M Results" in str(mail["Subject"])}
    assert set(results) == set(rows)
    assert len(drawings) == 1  # one drawing for the eight readers who get it
    for recipient, mail in results.items():
        assert "France:  Army Paris -> Burgundy." in plain(mail)
        pictures = list(mail.iter_attachments())  # type: ignore[misc]
        if recipient == address("FRANCE"):
            assert pictures == []
        else:
            (picture,) = pictures
            assert picture.get_filename() == "demo-S1901M.png"
            assert png_size(picture.get_content())[0] > 0


def test_a_picture_the_sender_cannot_draw_leaves_the_text_mail_as_it_was(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    _process_spring(harness)

    def broken(*_args: object, **_kwargs: object) -> str:
        raise RuntimeError("the renderer is broken")

    monkeypatch.setattr(maps, "render_svg", broken)
    relay = Relay()
    report = drain_once(TransactionalOutbox(harness.services), relay, harness.clock.now(), limit=100)
    results = [mail for mail, _to in relay.delivered if "S1901M Results" in str(mail["Subject"])]
    assert len(results) == 9 and report.failed == 0
    assert all(list(m.iter_attachments()) == [] and "Army Paris -> Burgundy" in plain(m) for m in results)  # type: ignore[misc]


def test_with_attachment_gives_what_render_gives_with_the_attachment(harness: Harness) -> None:
    identity = harness.services.identity
    picture = Attachment("demo-S1901M.png", "image/png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40)
    for body in ("plain text\nsecond line\n", "accents: Méditerranée occidentale\n" + "x" * 1200 + "\n"):
        text_only = render(identity, "p@example.org", "XPY:demo - S1901M Results", body,
                           now=harness.clock.now(), auto_submitted=AutoSubmitted.GENERATED)  # fmt: skip
        later = message_from_bytes(with_attachment(text_only, picture), policy=policy.default)
        at_once = message_from_bytes(
            render(identity, "p@example.org", "XPY:demo - S1901M Results", body, now=harness.clock.now(),
                   auto_submitted=AutoSubmitted.GENERATED, attachment=picture),
            policy=policy.default,
        )  # fmt: skip
        for message in (later, at_once):
            assert message.get_content_type() == "multipart/mixed" and not message.defects
            assert message.get_body(("plain",)).get_content().replace("\r\n", "\n") == body  # type: ignore[union-attr]
            (part,) = message.iter_attachments()  # type: ignore[misc]
            assert part.get_filename() == "demo-S1901M.png" and part.get_content() == picture.data
        assert later["Subject"] == at_once["Subject"] and later["Date"] == at_once["Date"]
        # Already multipart: left as it is, never wrapped twice.
        twice = with_attachment(bytes(later.as_bytes()), picture)
        assert twice == bytes(later.as_bytes())


@pytest.mark.engine_sql  # the claim's statements, FOR UPDATE SKIP LOCKED on PostgreSQL
def test_a_full_batch_takes_the_rest_of_its_last_phases_mails(harness: Harness) -> None:
    """A phase's readers are not cut between two senders' batches (two processes would each draw
    its map): a full batch whose last mail carries a map takes that phase's other mails due."""
    _process_spring(harness)
    now = harness.clock.now()
    with harness.db.unit_of_work(readonly=True) as uow:
        due = [
            (row.id, row.map_phase_id)
            for row in uow.session.query(OutboundMail)
            .filter(OutboundMail.state == OutboundState.PENDING, OutboundMail.next_attempt_at <= now)
            .order_by(OutboundMail.next_attempt_at, OutboundMail.id)
        ]
    first = next(n for n, (_id, phase) in enumerate(due) if phase is not None)
    limit = next(n for n in range(first + 2, len(due)) if due[n - 1][1] is not None)
    phase = due[limit - 1][1]
    rest = [mail for mail in due[limit:] if mail[1] == phase][:limit]
    assert rest  # the phase has readers past the batch's limit: the case at hand

    outbox = TransactionalOutbox(harness.services)
    claimed = outbox.claim_batch(now, lambda _attempts: now + timedelta(minutes=10), limit)
    assert [mail.id for mail in claimed] == [id for id, _phase in due[:limit] + rest]
    # The next claim starts after them; a batch that is not full takes nothing more.
    taken = {mail.id for mail in claimed}
    left = [id for id, _phase in due if id not in taken]
    again = outbox.claim_batch(now, lambda _attempts: now + timedelta(minutes=10), len(left) + 1)
    assert [mail.id for mail in again] == left


def test_a_picture_reads_its_phase_and_game_in_one_statement_and_the_phase_before_only_for_retreats(
    harness: Harness,
) -> None:
    """The sender draws a phase from its record and game, read together; the phase before is read
    only where the picture needs it: for the retreat options it announced to a retreat phase's
    dislodged units (the picture is then the one drawn with it)."""
    from sqlalchemy import event

    from judge.app.audience.blind_view import EVERYTHING
    from judge.maps.png import svg_to_png

    dislodge_burgundy(harness)
    statements: list[str] = []

    def note(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if not statement.lstrip().upper().startswith(("BEGIN", "SAVEPOINT", "RELEASE")):
            statements.append(statement)

    pictures = maps.ResultsPictures()
    event.listen(harness.db.engine, "before_cursor_execute", note)
    try:
        drawn = {}
        for name in ("S1901M", "S1901R"):
            with harness.db.unit_of_work(readonly=True) as uow:
                record = uow.session.query(PhaseRecord).filter_by(name=name).one()
                statements.clear()
                uow.session.expunge_all()  # as the sender's: nothing of the phase in the session yet
                drawn[name] = (pictures.picture(uow, record.id), len(statements))
    finally:
        event.remove(harness.db.engine, "before_cursor_execute", note)
    assert drawn["S1901M"][1] == 1  # the picture's key, the phase and its game, together
    assert drawn["S1901R"][1] == 2  # and the movement phase before, for the retreat options
    with harness.db.unit_of_work(readonly=True) as uow:
        spring = uow.session.query(PhaseRecord).filter_by(name="S1901M").one()
        retreat = uow.session.query(PhaseRecord).filter_by(name="S1901R").one()
        with_options = svg_to_png(maps.phase_svg(retreat.game, retreat, spring, "en", EVERYTHING))
        without = svg_to_png(maps.phase_svg(retreat.game, retreat, None, "en", EVERYTHING))
    picture = drawn["S1901R"][0]
    assert picture is not None and picture.data == with_options != without
