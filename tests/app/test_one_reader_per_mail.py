"""Every mail the judge sends names one reader, and no header of it names anybody else (issue 24).

Three games are played by mail, as people play them: a gunboat game formed by
CREATE and SIGNON (watched by an observer, with broadcasts, partial press, a
late notice and results), a game with a master and three observers, and a
press-heavy game (white, grey, fake and postal press, a seat with a second
report address, a sign-on from an address that is not the player's, whose
reply is copied to the player). Then every outbox row is read with the email
package: the row has one envelope recipient, its ``To`` is that reader alone,
and no header (``To``, ``Cc``, ``Bcc``, ``Reply-To`` or any other, in any MIME
part) names an address other than that reader's and the judge's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from email import message_from_bytes, policy
from email.message import EmailMessage

from judge.app.mail_out.results_maps import ResultsPictures
from judge.app.mail_out.sender import deliverable_message
from judge.app.phases.guarded_scheduler import process_due
from judge.db.models import GameObserver, InboundMail, OutboundMail, PersonAddress
from tests.app.conftest import JUDGE, Harness
from tests.app.games_helpers import powers_of, register
from tests.app.orders_helpers import LETTER, OBSERVER, StartedGame, address, start_game
from tests.app.test_processing_results import OPENINGS

KEEPER = "keeper@example.org"
ADDRESS_HEADERS = frozenset({
    "from", "to", "cc", "bcc", "reply-to", "sender", "return-path", "delivered-to", "resent-from",
    "resent-sender", "resent-to", "resent-cc", "resent-bcc", "mail-followup-to", "mail-reply-to",
    "disposition-notification-to", "errors-to",
})  # fmt: skip
MESSAGE_ID_HEADERS = frozenset({"message-id", "in-reply-to", "references"})
"""Their ``local@domain`` tokens are message ids, not addresses (still checked for known addresses)."""
AN_ADDRESS = re.compile(r"[^\s<>()\[\],;:\"'=?]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")


def leaks(recipients: list[str], raw: bytes, known: Iterable[str]) -> list[str]:
    """What an outbox row (its envelope ``recipients`` and its message) shows beyond its one reader."""
    if len(recipients) != 1:
        return [f"{len(recipients)} envelope recipients: {recipients}"]
    reader = recipients[0].lower()
    allowed = {reader, JUDGE}
    others = {a.lower() for a in known} - allowed
    message = message_from_bytes(raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    found: list[str] = []
    to = [a.addr_spec.lower() for a in message["To"].addresses] if message["To"] is not None else []
    if to != [reader]:
        found.append(f"To is {to}, the row's reader is {reader}")
    for part in message.walk():
        for name, value in part.items():
            key, text = name.lower(), str(value).lower()
            if key in ADDRESS_HEADERS:
                found += [f"{name}: {a.addr_spec}" for a in value.addresses if a.addr_spec.lower() not in allowed]
            found += [f"{name} names {other}" for other in others if other in text]
            if key not in MESSAGE_ID_HEADERS:
                found += [f"{name} holds {token}" for token in AN_ADDRESS.findall(text) if token not in allowed]
    return found


def scan_every_mail(harness: Harness) -> int:
    """Every outbox row as the sender delivers it (with its map), checked; how many there were."""
    pictures = ResultsPictures()
    with harness.db.unit_of_work(readonly=True) as uow:
        rows = [(list(r.recipients), bytes(r.message), r.map_phase_id) for r in uow.session.query(OutboundMail)]
        known = {a.address for a in uow.session.query(PersonAddress)}
        known |= {o.address for o in uow.session.query(GameObserver)}
        known |= {m.mail_from for m in uow.session.query(InboundMail) if m.mail_from}
    known.add(KEEPER)
    problems = []
    for recipients, message, phase in rows:
        delivered = deliverable_message(harness.services, pictures, message, phase)
        for leak in leaks(recipients, delivered, known):
            subject = message.split(b"Subject: ", 1)[-1].split(b"\r\n", 1)[0]
            problems.append(f"{subject!r} to {recipients}: {leak}")
    assert problems == [], "\n".join(problems[:20])
    return len(rows)


def test_the_scan_sees_a_reader_named_in_any_header() -> None:
    """The scan itself: what it must catch (the test below is only as good as this)."""
    known = ["ann@example.net", "bob@example.net", "fan@example.org"]

    def mail(headers: str) -> bytes:
        return f"From: Judge <{JUDGE}>\r\n{headers}Subject: s\r\n\r\nbody\r\n".encode()

    assert leaks(["ann@example.net"], mail("To: ann@example.net\r\n"), known) == []
    assert leaks(["ann@example.net"], mail("To: ann@example.net, bob@example.net\r\n"), known)
    assert leaks(["ann@example.net", "bob@example.net"], mail("To: ann@example.net\r\n"), known)
    assert leaks(["ann@example.net"], mail("To: ann@example.net\r\nCc: fan@example.org\r\n"), known)
    assert leaks(["ann@example.net"], mail("To: ann@example.net\r\nBcc: x@elsewhere.net\r\n"), known)
    assert leaks(["ann@example.net"], mail("To: ann@example.net\r\nReply-To: bob@example.net\r\n"), known)
    assert leaks(["ann@example.net"], mail("To: ann@example.net\r\nX-Seen-By: bob@example.net\r\n"), known)
    assert leaks(["ann@example.net"], mail("To: ann@example.net\r\nX-Note: =?utf-8?q?bob=40example=2Enet?=\r\n"), known)
    assert leaks(["ann@example.net"], mail("To: bob@example.net\r\n"), known)
    assert leaks(["ann@example.net"], mail("To: ann@example.net\r\nIn-Reply-To: <m1@test>\r\n"), known) == []


def _advance_until_processed(harness: Harness, game: StartedGame, phase: str) -> None:
    """Move the clock an hour at a time, running the scheduler, until ``phase`` is processed."""
    for _ in range(24 * 8):
        if game.state()["phase"] != phase:
            return
        harness.clock.advance(hours=1)
        process_due(harness.services)
    raise AssertionError(f"{phase} was never processed")


def test_a_gunboat_game_by_mail_shows_no_reader_to_another(harness: Harness) -> None:
    players = [f"p{n}@example.net" for n in range(7)]
    for player in players:
        register(harness, player)
    harness.exchange(players[0], "CREATE ?gb pw0 standard gunboat\n")
    harness.exchange("fan@example.org", "OBSERVE gb look\n")
    for n, player in enumerate(players[1:], start=1):
        harness.exchange(player, f"SIGNON ?gb pw{n} standard gunboat\n")
    powers = powers_of(harness, "gb")
    assert len(powers) == 7
    game = StartedGame(harness, "gb")

    def signon(player: str) -> str:
        return f"SIGNON {LETTER[powers[player]]}gb pw{players.index(player)}\n"

    first, second, *rest = players
    harness.exchange(first, signon(first) + "BROADCAST\nWho am I?\nENDBROADCAST\n")
    letters = "".join(LETTER[powers[p]] for p in rest[:2])
    harness.exchange(second, signon(second) + f"PRESS TO {letters}\nJust you two.\nENDPRESS\n")
    harness.exchange("fan@example.org", "OBSERVE gb look\nBROADCAST\nGood luck all.\nENDBROADCAST\n")
    late = players[-1]
    for player in players:
        if player != late:
            harness.exchange(player, signon(player) + OPENINGS[powers[player]])
    for _ in range(24 * 4):  # past the deadline: the late notices
        if any("Late" in str(m["Subject"]) for m in harness.outbox()):
            break
        harness.clock.advance(hours=1)
        process_due(harness.services)
    assert any("Late" in str(m["Subject"]) for m in harness.outbox())
    harness.exchange(late, signon(late) + OPENINGS[powers[late]])
    _advance_until_processed(harness, game, "S1901M")
    assert any(str(m["Subject"]).endswith("S1901M Results") for m in harness.outbox())
    assert scan_every_mail(harness) > 40


def test_a_game_with_a_master_and_observers_shows_no_reader_to_another(harness: Harness) -> None:
    game = start_game(harness, "obs")
    fans = ["fan1@example.org", "fan2@example.org"]
    for fan in fans:
        harness.exchange(fan, "OBSERVE obs look\n")
    game.orders("FRANCE", "BROADCAST\nBonjour.\nENDBROADCAST\nPRESS TO O\nHello watchers.\nENDPRESS\n")
    harness.exchange(fans[0], "OBSERVE obs look\nBROADCAST\nFrom the stands.\nENDBROADCAST\n")
    game.master("BROADCAST\nThe master speaks.\nENDBROADCAST\n")
    for power, orders in OPENINGS.items():
        game.orders(power, orders)
    game.master("PROCESS\n")
    assert game.state()["phase"] == "F1901M"
    harness.exchange(OBSERVER, "OBSERVE obs watchpw\nHISTORY obs\n")
    assert scan_every_mail(harness) > 20


def test_a_press_heavy_game_shows_no_reader_to_another(harness: Harness) -> None:
    game = start_game(
        harness, "demo", settings={"press_mode": "white/grey", "fake_press": "partial", "postal_press": True}
    )
    harness.exchange("fan@example.org", "OBSERVE demo look\n")
    with harness.db.unit_of_work() as uow:  # England's second address, in the registration (SET ADDRESS needs it)
        england = uow.people.by_address(address("ENGLAND"))
        assert england is not None
        uow.people.add_address(england, "lord@example.co.uk", harness.clock.now())
    reply = game.orders("ENGLAND", "SET ADDRESS england@example.net,lord@example.co.uk\n")
    assert "[Error Flag]" not in str(reply["Subject"]), reply.get_body(("plain",))
    game.orders("FRANCE", "BROADCAST\nPeace.\nENDPRESS\nPRESS TO EG\nThe Low Countries?\nENDPRESS\n")
    game.orders("GERMANY", "PRESS GREY TO EF\nSomeone is lying.\nENDPRESS\nPRESS TO ALL BUT R\nNot Russia.\nENDPRESS\n")
    game.orders("ITALY", "PRESS TO EG FAKE\nAll friends here.\nENDPRESS\nPRESS FAKE TO R\nOnly Russia.\nENDPRESS\n")
    game.orders("RUSSIA", "POSTAL PRESS\nThe Tsar writes.\nENDPRESS\nPRESS TO M\nFor the master.\nENDPRESS\n")
    game.orders("TURKEY", "PRESS TO O\nHello watchers.\nENDPRESS\nBROADCAST\nSecond thoughts.\nENDPRESS\n")
    game.orders("ENGLAND", "BROADCAST\nRule Britannia.\nENDPRESS\n")
    # The right password from an address that is not Austria's: the reply is copied to Austria.
    reply = harness.exchange("stranger@example.com", f"SIGNON {LETTER['AUSTRIA']}demo pwaustria\nBROADCAST\nHi.\nENDPRESS\n")
    assert "not the one registered" in str(reply.get_body(("plain",)).get_content())  # type: ignore[union-attr]
    for power, orders in OPENINGS.items():
        game.orders(power, orders)
    game.master("PROCESS\n")
    subjects = [str(m["Subject"]) for m in harness.outbox()]
    assert any(s.endswith("Postal Press") for s in subjects)
    assert any("lord@example.co.uk" in str(m["To"]) for m in harness.outbox())
    assert any(address("AUSTRIA") == str(m["To"]) and "stranger" not in str(m["To"]) for m in harness.outbox())
    assert scan_every_mail(harness) > 60
