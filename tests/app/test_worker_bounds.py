"""Bounded work and bounded replies: what one mail may cost the judge.

A mail's command lines are capped (the rest refused in one line), a question
asked again is answered once, and a reply has a maximum size with a last line
saying what was cut.
"""

from __future__ import annotations

import dataclasses

import pytest

from judge.app.mail_in import dispatch
from judge.app.mail_in.worker import command_lines
from judge.app.session.reply import cap_text
from judge.db.enums import OutboundState
from judge.db.models import OutboundMail
from tests.app.conftest import Harness, text
from tests.app.orders_helpers import address, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def _settings(harness: Harness, **changes: int) -> None:
    harness.services = dataclasses.replace(
        harness.services, config=dataclasses.replace(harness.services.config, **changes)
    )


def _largest_pending(harness: Harness) -> int:
    with harness.db.unit_of_work(readonly=True) as uow:
        rows = uow.session.query(OutboundMail).filter(OutboundMail.state == OutboundState.PENDING)
        return max(len(row.message) for row in rows)


@pytest.mark.engine_sql
def test_600_kb_of_help_lines_make_a_small_reply(harness: Harness) -> None:
    """Today: a 34 MB reply. Now: HELP answered once, 2,000 lines read, the rest refused in one line."""
    lines = 600 * 1024 // len("HELP\n")
    reply = harness.exchange("ann@example.net", "HELP\n" * lines)
    body = text(reply)
    assert _largest_pending(harness) < 256 * 1024 + 4096
    assert body.count("Answered above (line 1).") == 1999
    assert f"{lines - 2000} more lines were not read: the judge reads at most 2000 lines" in body
    assert body.count("more lines were not read") == 1


def test_10000_orders_do_not_run_10000_handlers(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = start_game(harness)
    calls = 0
    real = dispatch.handler_for

    def counting(command: object) -> object:
        nonlocal calls
        calls += 1
        return real(command)  # type: ignore[arg-type]

    monkeypatch.setattr(dispatch, "handler_for", counting)
    body = game.signon("FRANCE") + "A PAR - BUR\n" * 10_000
    reply = harness.exchange(address("FRANCE"), body)
    assert calls <= 2_000
    assert "8001 more lines were not read" in text(reply)  # the sign-on is one of the 2,000


def test_the_line_cap_is_a_setting_and_signoff_ends_the_commands_before_it(harness: Harness) -> None:
    _settings(harness, mail_max_command_lines=3)
    body = text(harness.exchange("ann@example.net", "VERSION\n\nHELP\nVERSION 1\nA\nB\n"))
    assert "2 more lines were not read: the judge reads at most 3 lines" in body
    body = text(harness.exchange("ann@example.net", "VERSION\nSIGNOFF\nmy signature\nmore\nand more\n"))
    assert "not read" not in body  # the lines after SIGNOFF are no commands


@pytest.mark.engine_sql
def test_a_question_asked_again_is_answered_once_an_order_in_between_answers_list_again(
    harness: Harness,
) -> None:
    body = text(harness.exchange("ann@example.net", "VERSION\nHELP\nVERSION\nHELP\nLIST\nLIST\n"))
    assert body.count("Diplomacy email judge, version") == 1
    assert "Answered above (line 1)." in body and "Answered above (line 2)." in body
    assert "Answered above (line 5)." in body


def test_a_reply_is_cut_at_its_limit_with_a_last_line_saying_so(harness: Harness) -> None:
    _settings(harness, reply_max_bytes=2048)
    body = text(harness.exchange("ann@example.net", "".join(f"frobnicate {n}\n" for n in range(90))))
    assert len(body.encode()) <= 2048 + 200
    assert body.rstrip().endswith("bytes were left out.]")
    assert "a reply holds at most 2048 bytes" in body


def test_cap_text_cuts_at_a_line_end_and_counts_what_it_left_out() -> None:
    text_in = "".join(f"line {n}\n" for n in range(1000))
    out = cap_text(text_in, 1024, lambda cut: f"[cut {cut}]")
    assert len(out.encode()) <= 1024 and out.endswith("]\n")
    kept = out.rsplit("\n[cut", 1)[0]
    assert text_in.startswith(kept) and kept.endswith("\n")
    assert f"[cut {len(text_in) - len(kept)}]" in out
    assert cap_text("short\n", 1024, lambda cut: "never") == "short\n"


def test_command_lines_counts_lines_that_are_not_blank() -> None:
    assert command_lines("a\n\nb\nc\n\nd\n", 2) == ("a\n\nb\n", 2)
    assert command_lines("a\nb\n", 2) == ("a\nb\n", 0)
