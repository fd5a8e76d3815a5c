"""White press: broadcasts and partial press to powers, observers and masters, and its refusals."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from judge.db.enums import PressKind
from judge.db.models import PressMessage
from tests.app.conftest import Harness, one_text
from tests.app.games_helpers import form_game, powers_of, read, register

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


@pytest.fixture
def started(harness: Harness) -> list[str]:
    """p0 France, p1 England, p2 Germany, p3 Russia; an observer fan@example.org."""
    addresses = form_game(harness, preferences={0: "F", 1: "E", 2: "G", 3: "R"})
    assert powers_of(harness, "demo")[addresses[2]] == "GERMANY"
    harness.exchange("fan@example.org", "OBSERVE demo look\n")
    harness.new_mail()
    return addresses


def _to(message: EmailMessage) -> set[str]:
    return {a.strip() for a in str(message["To"]).split(",")}


def _stored(harness: Harness) -> list[tuple[str, list[str], str | None, str]]:
    with harness.db.unit_of_work(readonly=True) as uow:
        rows = uow.session.query(PressMessage).order_by(PressMessage.id).all()
        return [(r.kind.value, list(r.recipients), r.sender_power, r.body) for r in rows]


def test_broadcast_reaches_everyone_but_the_sender(harness: Harness, started: list[str]) -> None:
    reply = harness.exchange(started[0], "SIGNON Fdemo pw0\nBROADCAST\nHello all,\n  let us talk.\nENDBROADCAST\n")
    body = read(reply)
    assert "Broadcast sent to everyone in game 'demo':\n\nHello all,\n  let us talk." in body
    mail = one_text(harness.others)
    assert mail["Subject"] == "XPY:demo - S1901M Broadcast"
    assert _to(mail) == {*started[1:], "fan@example.org"}
    assert read(mail) == (
        f"Broadcast message from {started[0]} as France in 'demo':\n\nHello all,\n  let us talk.\n"
    )
    assert _stored(harness) == [(PressKind.BROADCAST.value, [], "FRANCE", "Hello all,\n  let us talk.")]


def test_press_to_some_powers(harness: Harness, started: list[str]) -> None:
    reply = harness.exchange(started[0], "SIGNON Fdemo pw0\nPRESS TO EG\nSecret plan.\nENDPRESS\n")
    assert "Press sent to England, Germany:" in read(reply)
    mail = one_text(harness.others)
    assert mail["Subject"] == "XPY:demo - S1901M Press from F to EG"
    assert _to(mail) == {started[1], started[2]}
    assert read(mail) == f"Message from {started[0]} as France to England, Germany in 'demo':\n\nSecret plan.\n"
    assert _stored(harness) == [(PressKind.PRESS.value, ["ENGLAND", "GERMANY"], "FRANCE", "Secret plan.")]


def test_press_to_all_but_includes_observers_unless_named(harness: Harness, started: list[str]) -> None:
    harness.exchange(started[0], "SIGNON Fdemo pw0\nPRESS TO ALL BUT E\nNot for England.\nENDPRESS\n")
    mail = one_text(harness.others)
    assert _to(mail) == {*started[2:], "fan@example.org"}
    assert "as France to all but England in 'demo':" in read(mail)
    harness.exchange(started[0], "SIGNON Fdemo pw0\nPRESS -EO\nNot for observers.\nENDPRESS\n")
    mail = one_text(harness.others)
    assert _to(mail) == set(started[2:])


def test_press_to_observers(harness: Harness, started: list[str]) -> None:
    harness.exchange(started[0], "SIGNON Fdemo pw0\nPRESS TO O\nHi watchers.\nENDPRESS\n")
    mail = one_text(harness.others)
    assert _to(mail) == {"fan@example.org"}
    assert "to the observers in 'demo':" in read(mail)
    assert mail["Subject"] == "XPY:demo - S1901M Press from F to O"


def test_press_to_the_master(harness: Harness, started: list[str]) -> None:
    register(harness, "gm@example.net")
    with harness.db.unit_of_work() as uow:
        game = uow.games.require("demo")
        game.press_mode = "none"
        person = uow.people.by_address("gm@example.net")
        assert person is not None
        uow.games.add_master(game, person, "mpw", harness.clock.now())
    harness.exchange(started[0], "SIGNON Fdemo pw0\nPRESS TO M\nA question.\nENDPRESS\n")
    mail = one_text(harness.others)
    assert _to(mail) == {"gm@example.net"}
    assert read(mail).startswith(f"Message from {started[0]} as France to the master in 'demo':")


def test_observers_and_masters_sign_as_such(harness: Harness, started: list[str]) -> None:
    harness.exchange("fan@example.org", "OBSERVE demo look\nBROADCAST\nGood luck.\nENDBROADCAST\n")
    mail = one_text(harness.others)
    assert read(mail).startswith("Broadcast message from fan@example.org as Observer in 'demo':")
    assert _to(mail) == set(started)
    assert _stored(harness)[0][2] is None


def test_french_readers_get_a_french_header(harness: Harness) -> None:
    for n in range(7):
        register(harness, f"p{n}@example.net", language="fr" if n == 1 else "en")
    harness.exchange("p0@example.net", "CREATE ?demo pw0\nSET PREFERENCE F\n")
    harness.exchange("p1@example.net", "SIGNON ?demo pw1\nSET PREFERENCE G\n")
    for n in range(2, 7):
        harness.exchange(f"p{n}@example.net", f"SIGNON ?demo pw{n}\n")
    harness.new_mail()
    harness.exchange("p0@example.net", "SIGNON Fdemo pw0\nBROADCAST\nBonjour.\nENDBROADCAST\n")
    french = next(m for m in harness.others if "p1@example.net" in _to(m))
    assert _to(french) == {"p1@example.net"}
    assert read(french) == "Message à tous de p0@example.net en tant que France dans 'demo' :\n\nBonjour.\n"
    english = next(m for m in harness.others if "p2@example.net" in _to(m))
    assert read(english).startswith("Broadcast message from p0@example.net as France in 'demo':")


def test_gunboat_press_hides_the_address(harness: Harness) -> None:
    for n in range(7):
        register(harness, f"p{n}@example.net")
    harness.exchange("p0@example.net", "CREATE ?gb pw0 standard gunboat\nSET PREFERENCE F\n")
    for n in range(1, 7):
        harness.exchange(f"p{n}@example.net", f"SIGNON ?gb pw{n} standard gunboat\n")
    harness.new_mail()
    harness.exchange("p0@example.net", "SIGNON Fgb pw0\nBROADCAST\nWho am I?\nENDBROADCAST\n")
    mail = one_text(harness.others)
    assert read(mail) == "Broadcast message from France in 'gb':\n\nWho am I?\n"


@pytest.mark.parametrize(
    ("setup", "body", "message"),
    [
        ({}, "PRESS GREY TO E\nx\nENDPRESS", "Grey (anonymous) press is not allowed in this game"),
        ({}, "PRESS TO E FAKE\nx\nENDPRESS", "Fake press is not allowed in this game."),
        ({"press_mode": "none"}, "BROADCAST\nx\nENDBROADCAST", "This game has no press, except to the master"),
        ({"partial_press": False}, "PRESS TO E\nx\nENDPRESS", "Partial press is not allowed in this game"),
        ({}, "BROADCAST\n\nENDBROADCAST", "This press has no text; it was not sent."),
        ({}, "PRESS TO F\nto myself\nENDPRESS", "Nobody would receive this press."),
    ],
)
def test_refused_press_is_not_sent_and_flags_the_reply(
    harness: Harness, started: list[str], setup: dict[str, object], body: str, message: str
) -> None:
    with harness.db.unit_of_work() as uow:
        game = uow.games.require("demo")
        for key, value in setup.items():
            setattr(game, key, value)
    reply = harness.exchange(started[0], f"SIGNON Fdemo pw0\n{body}\n")
    assert message in read(reply)
    assert "[Error Flag]" in reply["Subject"]
    assert harness.others == []
    assert _stored(harness) == []


def test_observer_press_can_be_switched_off(harness: Harness, started: list[str]) -> None:
    with harness.db.unit_of_work() as uow:
        uow.games.require("demo").observer_press = "none"
    reply = harness.exchange("fan@example.org", "OBSERVE demo look\nBROADCAST\nx\nENDBROADCAST\n")
    assert "Observers may not send press in this game." in read(reply)
    assert harness.others == []


def test_press_needs_a_signon(harness: Harness) -> None:
    reply = harness.exchange("x@example.net", "BROADCAST\nhello\nENDBROADCAST\n")
    assert "Press needs a SIGNON first" in read(reply)
    assert len(harness.others) == 0


def test_press_in_a_forming_game_between_joined_players(harness: Harness) -> None:
    register(harness, "a@example.net")
    register(harness, "b@example.net")
    harness.exchange("a@example.net", "CREATE ?demo pw\n")
    harness.exchange("b@example.net", "SIGNON ?demo pw\n")
    harness.exchange("b@example.net", "SIGNON ?demo pw\nBROADCAST\nHi.\nENDBROADCAST\n")
    mail = one_text(harness.others)
    assert _to(mail) == {"a@example.net"}
    assert read(mail) == "Broadcast message from b@example.net in 'demo':\n\nHi.\n"
