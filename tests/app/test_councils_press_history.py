"""HISTORY's copy of a council member's press (seed 003): the header every reader got, never an address.

Every reader of a council member's press (observers, the master, his own council, another power's
Ambassadors, a spy) gets the one council header (:func:`judge.app.mail_out.press_rules.council_header_text`),
naming the member's seat and power. HISTORY rebuilds it from the stored message, which keeps the
member's role and rank; it never names the member's address, which would tell who sits where.
"""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from judge.app.reports.history_text import press_header
from judge.db.models import PressMessage
from tests.app.conftest import Harness, text
from tests.app.councils_helpers import (
    MASTER,
    Seated,
    ambassador,
    form_council_game,
    general,
    seated,
)
from tests.app.games_helpers import register
from tests.app.press_helpers import by_reader, stored_press

pytestmark = pytest.mark.engine_blind  # mail routing and wording: SQLite only, but the tests marked engine_sql

OBSERVER = "watcher@example.net"
OUTSIDER = "stranger@example.net"


def _council_game(harness: Harness) -> list[Seated]:
    form_council_game(harness)
    with harness.db.unit_of_work() as uow:
        uow.games.add_observer(uow.games.require("demo"), OBSERVER, "watchpw", harness.clock.now())
    return seated(harness)


def _header(message: EmailMessage) -> str:
    return next(line for line in text(message).splitlines() if line.strip()).strip()


def _rebuilt(harness: Harness, row: PressMessage, language: str = "en") -> str:
    with harness.db.unit_of_work(readonly=True) as uow:
        return press_header(uow.games.require("demo"), row, language)


def _spy(members: list[Seated], *, not_power: str) -> Seated:
    """An Ambassador who spies for another power (he reads broadcasts), outside ``not_power``'s council."""
    return next(
        m for m in members
        if m.role == "ambassador" and m.true_power not in (None, m.power) and m.power != not_power
    )  # fmt: skip


def _reader(members: list[Seated], kind: str) -> str:
    return {
        "observer": lambda: OBSERVER,
        "master": lambda: MASTER,
        "own council": lambda: ambassador(members, "TURKEY", 2).address,
        "another power": lambda: next(
            m.address for m in members if m.power == "ENGLAND" and m.role == "ambassador" and m.true_power is None
        ),
        "spy": lambda: _spy(members, not_power="TURKEY").address,
    }[kind]()


@pytest.mark.parametrize("kind", ["observer", "master", "own council", "another power", "spy"])
def test_history_rebuilds_the_broadcast_header_each_reader_got(harness: Harness, kind: str) -> None:
    members = _council_game(harness)
    sender = ambassador(members, "TURKEY", 1)
    harness.exchange(sender.address, f"{sender.signon}\nBROADCAST\nThe tower of Babel is open.\nENDPRESS\n")
    mailed = _header(by_reader(harness.others)[_reader(members, kind)])
    assert mailed == "Broadcast from the Ambassador 1 of Turkey to every Ambassador:"
    [row] = stored_press(harness)
    assert _rebuilt(harness, row) == mailed
    history = text(harness.exchange(OBSERVER, "HISTORY demo\n"))
    assert mailed in history
    assert "The tower of Babel is open." in history


@pytest.mark.parametrize(
    ("who", "press", "reader"),
    [
        ("TURKEY 1", "PRESS TO T", "TURKEY 2"),
        ("TURKEY 0", "PRESS TO T", "TURKEY 1"),
        ("TURKEY 1", "PRESS TO E", "ENGLAND 1"),
        ("TURKEY 1", "PRESS TO TE", "ENGLAND 1"),
        ("TURKEY 1", "PRESS TO EM", "master"),
        ("TURKEY 1", "PRESS TO EG", "master"),
    ],
)  # fmt: skip
def test_the_stored_press_rebuilds_the_header_its_readers_got(harness: Harness, who: str, press: str, reader: str) -> None:
    """Press between members is not in HISTORY (the observers did not get it), but the stored
    message reads back as its readers' header all the same: the one wording, from the kept role."""
    members = _council_game(harness)
    power, rank = who.split()
    sender = general(members, power) if rank == "0" else ambassador(members, power, int(rank))
    harness.exchange(sender.address, f"{sender.signon}\n{press}\nA word.\nENDPRESS\n")
    if reader == "master":
        address = MASTER
    else:
        reader_power, reader_rank = reader.split()
        address = ambassador(members, reader_power, int(reader_rank)).address
    mailed = _header(by_reader(harness.others)[address])
    assert mailed.startswith("Press from the ")
    [row] = stored_press(harness)
    assert _rebuilt(harness, row) == mailed


def _no_member_address(members: list[Seated], answer: str) -> None:
    for member in members:
        assert member.address not in answer, f"HISTORY names {member.address}"


@pytest.mark.parametrize("asker", ["observer", "outsider", "another power", "spy"])
def test_no_history_answer_names_a_council_members_address(harness: Harness, asker: str) -> None:
    members = _council_game(harness)
    sender = ambassador(members, "TURKEY", 1)
    harness.exchange(sender.address, f"{sender.signon}\nBROADCAST\nHello all.\nENDPRESS\n")
    address = {
        "observer": OBSERVER, "outsider": OUTSIDER,
        "another power": _reader(members, "another power"), "spy": _spy(members, not_power="TURKEY").address,
    }[asker]  # fmt: skip
    if asker == "outsider":
        register(harness, OUTSIDER)
    history = text(harness.exchange(address, "HISTORY demo\n"))
    assert "Hello all." in history
    _no_member_address(members, history)


@pytest.mark.engine_sql
def test_a_members_press_kept_before_the_role_was_names_the_power_alone(harness: Harness) -> None:
    """A message stored before the council role was kept (the column empty): HISTORY names the
    power alone, never the member's address."""
    members = _council_game(harness)
    sender = ambassador(members, "TURKEY", 1)
    harness.exchange(sender.address, f"{sender.signon}\nBROADCAST\nOld news.\nENDPRESS\n")
    with harness.db.unit_of_work() as uow:
        row = uow.session.query(PressMessage).one()
        row.sender_member_role = None
        row.sender_member_rank = None
    [row] = stored_press(harness)
    assert _rebuilt(harness, row) == "Broadcast message from Turkey in 'demo':"
    history = text(harness.exchange(OBSERVER, "HISTORY demo\n"))
    assert "Broadcast message from Turkey in 'demo':" in history
    _no_member_address(members, history)


def test_a_french_reader_gets_in_history_the_french_header_of_his_mail(harness: Harness) -> None:
    """HISTORY is written in the asker's language: a French Ambassador finds there, word for word,
    the French header of the broadcast he received."""
    form_council_game(harness, languages=dict.fromkeys(range(21), "fr"))
    members = seated(harness)
    sender = ambassador(members, "TURKEY", 1)
    harness.exchange(sender.address, f"{sender.signon}\nBROADCAST\nBonjour.\nENDPRESS\n")
    reader = _reader(members, "another power")
    mailed = _header(by_reader(harness.others)[reader])
    assert "Ambassadeur 1" in mailed, mailed  # French, not the English wording
    [row] = stored_press(harness)
    assert _rebuilt(harness, row, "fr") == mailed
    assert mailed in text(harness.exchange(reader, "HISTORY demo\n"))
