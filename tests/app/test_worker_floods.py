"""The flood limiter keeps its memory in the database: a restart forgets no flood; and it never
drops a player's own mail.

A sender past the limit is answered once, then dropped quietly; the same
holds after the judge restarts (new Services, new limiter), and for a sender
that rotates its From address behind one envelope sender. A mail that signs
on, with the password, from the player's own address to their seat of a game
in play is read and answered all the same: a player is never dropped in
silence, and a forged flood in their name cannot lock them out.
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from email.message import EmailMessage

from judge.app.mail_in.worker import process_next_mail
from judge.app.runtime.judge_server import build_services
from judge.app.session.services import Services
from judge.db.enums import InboundState
from judge.i18n import translation
from judge.timekeeping.dates import tell_date
from tests.app.conftest import JUDGE, Harness, text
from tests.app.orders_helpers import start_game


def _limited(harness: Harness, limit: int) -> Services:
    """A judge's services as `judge serve` builds them, with a flood limit of ``limit`` an hour."""
    config = dataclasses.replace(
        harness.services.config, rate_limit_messages=limit, rate_limit_window=timedelta(hours=1)
    )
    return build_services(config, harness.db, harness.clock)


def _store(harness: Harness, header_from: str, envelope: str, n: int) -> int:
    raw = (
        f"From: {header_from}\r\nTo: {JUDGE}\r\nSubject: s{n}\r\nMessage-ID: <f{n}@test>\r\n\r\nVERSION\r\n"
    ).encode()
    return harness.db.store_inbound_mail(raw, envelope, [JUDGE], harness.clock.now())


def _states(harness: Harness, ids: list[int]) -> list[InboundState]:
    with harness.db.unit_of_work(readonly=True) as uow:
        return [uow.mail_in.get(i).state for i in ids]


def _run(services: Services) -> None:
    while process_next_mail(services):
        pass


def test_a_restart_does_not_reset_the_flood_limiter(harness: Harness) -> None:
    services = _limited(harness, 3)
    ids = []
    for n in range(4):
        ids.append(_store(harness, "flood@example.net", "flood@example.net", n))
        harness.clock.advance(minutes=1)
    _run(services)
    replies = harness.new_mail()
    assert len(replies) == 4  # three answers and the one warning
    assert "at most 3 mails" in replies[-1].get_body(("plain",)).get_content()  # type: ignore[union-attr]

    restarted = _limited(harness, 3)  # a new process: new Services, new limiter
    ids.append(_store(harness, "flood@example.net", "flood@example.net", 5))
    _run(restarted)
    assert harness.new_mail() == []  # still in the flood: dropped quietly
    assert _states(harness, ids)[3:] == [InboundState.IGNORED, InboundState.IGNORED]

    harness.clock.advance(hours=1, minutes=5)  # a quiet hour ends the flood
    _store(harness, "flood@example.net", "flood@example.net", 6)
    _run(_limited(harness, 3))
    assert len(harness.new_mail()) == 1


def test_rotating_the_from_address_behind_one_envelope_sender_is_one_flood(harness: Harness) -> None:
    services = _limited(harness, 3)
    for n in range(8):
        _store(harness, f"guess{n}@example.net", "bot@example.net", n)
    _run(services)
    assert len(harness.new_mail()) == 4  # three answered, one warned, four dropped


def test_a_flood_from_one_sender_does_not_silence_another(harness: Harness) -> None:
    services = _limited(harness, 2)
    for n in range(5):
        _store(harness, "flood@example.net", "flood@example.net", n)
    bob = _store(harness, "bob@example.net", "bob@example.net", 9)
    _run(services)
    assert _states(harness, [bob]) == [InboundState.PROCESSED]


# --- a player is never dropped in silence (issue 24) -------------------------------------------

FRANCE = "france@example.net"


def _mail(harness: Harness, header_from: str, body: str, n: int, *, envelope: str | None = None) -> int:
    raw = (
        f"From: {header_from}\r\nTo: {JUDGE}\r\nSubject: m{n}\r\nMessage-ID: <p{n}@test>\r\n\r\n"
        + body.replace("\n", "\r\n")
    ).encode()
    return harness.db.store_inbound_mail(raw, envelope or header_from, [JUDGE], harness.clock.now())


def _one_by_one(harness: Harness, services: Services, mails: list[tuple[str, str, str | None]]) -> list[int]:
    """Each (From, body, envelope) stored and processed in turn, a second apart, as they would arrive."""
    ids = []
    for n, (header_from, body, envelope) in enumerate(mails):
        ids.append(_mail(harness, header_from, body, n, envelope=envelope))
        _run(services)
        harness.clock.advance(seconds=1)
    return ids


def _france_orders(harness: Harness) -> list[str]:
    with harness.db.unit_of_work(readonly=True) as uow:
        return list(uow.orders.current(uow.games.require("demo"), "S1901M")["FRANCE"].canonical)


def _plain(message: EmailMessage) -> str:
    return text(message).replace("\r\n", "\n")


def test_a_player_sending_40_order_mails_has_each_read_and_answered_and_the_last_in_force(harness: Harness) -> None:
    start_game(harness)
    services = _limited(harness, 30)
    harness.new_mail()
    bodies = [f"SIGNON Fdemo pwfrance\nA PAR - {'PIC' if n % 2 else 'GAS'}\nA MAR H\nF BRE H\n" for n in range(39)]
    bodies.append("SIGNON Fdemo pwfrance\nA PAR - BUR\nA MAR S A PAR - BUR\nF BRE - MAO\n")
    ids = _one_by_one(harness, services, [(FRANCE, body, None) for body in bodies])
    assert _states(harness, ids) == [InboundState.PROCESSED] * 40
    replies = [m for m in harness.new_mail() if str(m["To"]) == FRANCE]
    assert len(replies) == 40
    assert all("Signed on as France" in _plain(reply) for reply in replies)
    # The 31st is past the limit: read and answered, with the warning that names the limit and its end.
    warned = [n for n, reply in enumerate(replies) if "at most 30 mails" in _plain(reply)]
    assert warned == [30]
    assert "This mail was read and is answered below." in _plain(replies[30])
    assert _france_orders(harness) == ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"]


def test_a_strangers_flood_is_still_stopped_even_with_a_players_password(harness: Harness) -> None:
    start_game(harness)
    services = _limited(harness, 30)
    harness.new_mail()
    stranger = "stranger@example.com"  # knows France's password, writes from an address not France's
    start = harness.clock.now()
    ids = _one_by_one(harness, services, [(stranger, "SIGNON Fdemo pwfrance\nA PAR - PIC\n", None)] * 40)
    assert _states(harness, ids) == [InboundState.PROCESSED] * 30 + [InboundState.IGNORED] * 10
    to_stranger = [m for m in harness.new_mail() if str(m["To"]) == stranger]
    assert len(to_stranger) == 31  # thirty answers, one warning, then silence
    warning = _plain(to_stranger[-1])
    # The 31st arrived 30 s after the first; the last 30 arrivals start at the second (start + 1 s):
    # the flood ends at start + 1 h 1 s, told rounded up to the minute (mail sent from then on is read).
    assert start.second == 0
    end = tell_date(start + timedelta(hours=1, minutes=1), harness.services.config.timezone, translation("en").gettext)
    assert warning == (
        "The judge reads at most 30 mails from one address in 60 minutes, and you have sent more. "
        f"Until {end} (later if you send more before then), mail from you is kept but not read, "
        "except mail that signs on to a game you play or master from your registered address: "
        "your orders and press are always read. This mail was not read.\n"
    )


def test_a_forged_flood_in_a_players_name_does_not_stop_the_players_own_orders(harness: Harness) -> None:
    start_game(harness)
    services = _limited(harness, 30)
    forged = [(FRANCE, "A PAR - PIC\nBROADCAST\nspam\nENDPRESS\n", "forger@evil.example")] * 45
    forged_ids = _one_by_one(harness, services, forged)
    assert _states(harness, forged_ids)[31:] == [InboundState.IGNORED] * 14  # the flood is stopped
    harness.new_mail()
    [real] = _one_by_one(
        harness, services, [(FRANCE, "SIGNON Fdemo pwfrance\nA PAR - BUR\nA MAR S A PAR - BUR\nF BRE - MAO\n", None)]
    )
    assert _states(harness, [real]) == [InboundState.PROCESSED]
    [reply] = [m for m in harness.new_mail() if str(m["To"]) == FRANCE]
    assert "Signed on as France" in _plain(reply)
    assert _france_orders(harness) == ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"]


def test_a_flood_of_mail_that_signs_on_with_a_wrong_password_is_stopped(harness: Harness) -> None:
    start_game(harness)
    services = _limited(harness, 5)
    ids = _one_by_one(harness, services, [(FRANCE, "SIGNON Fdemo wrong\nA PAR - PIC\n", None)] * 8)
    assert _states(harness, ids) == [InboundState.PROCESSED] * 5 + [InboundState.IGNORED] * 3
    assert len([m for m in harness.new_mail() if str(m["To"]) == FRANCE and m["In-Reply-To"]]) == 6  # 5 answers, 1 warning
