"""The per-mail state on ``MailSession`` is typed: a field for each fact the handlers share
across a mail's commands, and one value per class for a flow whose state's type lives in a room
above the session (the order mail's drafts, a master's changes)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from judge.app.games import masters
from judge.app.orders.order_mail import OrderMail
from judge.app.session.mail_session import MailSession
from judge.app.session.reply import Reply
from judge.mail.decode import DecodedMail


def _session() -> MailSession:
    decoded = DecodedMail(sender="a@example.net", subject="", message_id=None, references=(), body="")
    return MailSession(
        services=cast(Any, None), uow=cast(Any, None), mail_id=1, decoded=decoded, sender="a@example.net",
        now=datetime(2026, 1, 1, tzinfo=UTC), reply=Reply([]), body_lines=[],
    )  # fmt: skip


@dataclass
class _Draft:
    count: int = 0


@dataclass
class _Other:
    pass


def test_no_field_of_the_session_is_an_untyped_mapping() -> None:
    untyped = [f.name for f in dataclasses.fields(MailSession) if "Any" in str(f.type)]
    assert untyped == []
    assert "area_state" not in {f.name for f in dataclasses.fields(MailSession)}


def test_a_new_mail_starts_with_nothing_shared() -> None:
    session = _session()
    assert session.council_member is None
    assert session.players_wanted is True
    assert session.release_watched is False
    assert (session.whois_left, session.whois_bound_told) == (None, False)
    assert (session.codes_mailed, session.claim_refusals_told) == (0, set())
    assert session.state_of(OrderMail) is None
    assert session.state_of(masters._MailState) is None


def test_a_flow_s_state_is_kept_by_its_class_for_the_rest_of_the_mail() -> None:
    session = _session()
    draft = _Draft()
    session.keep_state(draft)
    assert session.state_of(_Draft) is draft
    assert session.state_of(_Other) is None
    draft.count += 1
    assert session.state_of(_Draft) == _Draft(1)
    other = _Other()
    session.keep_state(other)
    assert session.state_of(_Draft) is draft and session.state_of(_Other) is other
    assert session.drop_state(_Draft) is draft
    assert session.state_of(_Draft) is None
    assert session.drop_state(_Draft) is None
    assert session.state_of(_Other) is other


def test_two_mails_share_nothing() -> None:
    first, second = _session(), _session()
    first.keep_state(_Draft(3))
    first.claim_refusals_told.add("OverBound")
    assert second.state_of(_Draft) is None
    assert second.claim_refusals_told == set()
