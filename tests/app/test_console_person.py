"""`judge person show|edit|merge|block|unblock` through the command line, on each engine; audited.

Blocking is checked through the real worker: a blocked person's mail is kept
and marked ignored, with no reply; unblocked, the next mail is answered.
"""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from judge.cli import main
from judge.db.enums import AuditKind, InboundState
from judge.db.models import AuditEvent, Person, Seat
from judge.db.repositories.people import Registration
from tests.app.conftest import Harness
from tests.app.orders_helpers import address, start_game


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _register(harness: Harness, name: str, *addresses: str) -> None:
    with harness.db.unit_of_work() as uow:
        person = uow.people.register(Registration(name=name), addresses[0], harness.clock.now())
        for other in addresses[1:]:
            uow.people.add_address(person, other, harness.clock.now())


def _admin_audit(harness: Harness) -> list[tuple[str, str | None]]:
    with harness.db.unit_of_work(readonly=True) as uow:
        return [(e.actor, e.setting) for e in uow.session.scalars(
            select(AuditEvent).where(AuditEvent.kind == AuditKind.ADMIN).order_by(AuditEvent.id))]


def test_show_and_edit(harness: Harness, capsys: pytest.CaptureFixture[str]) -> None:
    start_game(harness)
    url = harness.db.url
    status, out, _ = _cli(capsys, "person", "--url", url, "show", address("FRANCE").upper(), "--json")
    assert status == 0
    view = json.loads(out)
    assert view["name"] == "France" and view["addresses"] == [address("FRANCE")]
    assert view["games"] == [{"game": "demo", "power": "FRANCE", "status": "playing"}]
    assert view["blocked"] is None

    status, out, _ = _cli(capsys, "person", "--url", url, "edit", address("FRANCE"),
                          "name=Marianne", "language=fr", "add_address=m@example.org", "--as", "alice")
    assert status == 0 and "'France' -> 'Marianne'" in out
    status, out, _ = _cli(capsys, "person", "--url", url, "edit", "m@example.org", "primary=M@Example.org")
    assert status == 0
    status, out, _ = _cli(capsys, "person", "--url", url, "show", "m@example.org")
    assert "Marianne <m@example.org>" in out and "language: fr" in out

    for bad, why in (("language=de", "language is one of"), ("level=god", "level is one of"),
                     ("add_address=not an address", "not an address"), ("password=x", "not a field"),
                     ("add_address=" + address("ITALY"), "merge the two people"), ("name", "FIELD=VALUE")):
        status, _, err = _cli(capsys, "person", "--url", url, "edit", "m@example.org", bad)
        assert status == 1 and why in err, (bad, err)
    status, _, err = _cli(capsys, "person", "--url", url, "show", "nobody@example.org")
    assert status == 1 and "nobody registered writes from nobody@example.org" in err
    assert _admin_audit(harness)[:4] == [
        ("alice", "person.name"), ("alice", "person.language"), ("alice", "person.add_address"),
        (_admin_audit(harness)[3][0], "person.primary"),
    ]


def test_merge(harness: Harness, capsys: pytest.CaptureFixture[str]) -> None:
    start_game(harness)
    _register(harness, "Old France", "oldfrance@example.org", "old2@example.org")
    url = harness.db.url
    status, out, _ = _cli(capsys, "person", "--url", url, "merge", "oldfrance@example.org", address("FRANCE"),
                          "--as", "bob")
    assert status == 0 and address("FRANCE") in out
    with harness.db.unit_of_work(readonly=True) as uow:
        keep = uow.people.by_address(address("FRANCE"))
        assert keep is not None and keep.name == "Old France"
        assert sorted(a.address for a in keep.addresses) == sorted(
            ["oldfrance@example.org", "old2@example.org", address("FRANCE")])
        seat = uow.session.scalars(select(Seat).where(Seat.power == "FRANCE")).one()
        assert seat.person_id == keep.id
        assert uow.session.scalars(select(Person).where(Person.name == "France")).all() == []
    # the merged person still signs on to France's seat from the old address
    reply = harness.exchange(address("FRANCE"), "SIGNON Fdemo pwfrance\nA PAR - BUR\n")
    assert "[Error Flag]" not in str(reply["Subject"])
    status, _, err = _cli(capsys, "person", "--url", url, "merge", address("FRANCE"), address("ITALY"))
    assert status == 1 and "both play in game demo" in err
    status, _, err = _cli(capsys, "person", "--url", url, "merge", address("FRANCE"), "old2@example.org")
    assert status == 1 and "already the same person" in err
    status, _, err = _cli(capsys, "person", "--url", url, "merge", "master@example.net", address("ITALY"))
    assert status == 1 and "a master plays no power" in err
    assert ("bob", "person.merge") in _admin_audit(harness)


def test_a_blocked_persons_mail_is_kept_and_not_answered(
    harness: Harness, capsys: pytest.CaptureFixture[str]
) -> None:
    _register(harness, "Troll", "troll@example.com", "troll2@example.com")
    url = harness.db.url
    status, out, _ = _cli(capsys, "person", "--url", url, "block", "troll@example.com",
                          "--reason", "abusive press", "--as", "carol")
    assert status == 0 and "is blocked" in out
    harness.new_mail()
    mail_id = harness.send("troll2@example.com", "VERSION\n")
    harness.drain()
    assert harness.new_mail() == []
    with harness.db.unit_of_work(readonly=True) as uow:
        mail = uow.mail_in.get(mail_id)
        assert mail.state is InboundState.IGNORED and "blocked by the operator" in (mail.error or "")
    status, out, _ = _cli(capsys, "person", "--url", url, "show", "troll@example.com")
    assert "BLOCKED since" in out and "carol: abusive press" in out
    status, out, _ = _cli(capsys, "person", "--url", url, "unblock", "troll@example.com", "--as", "carol")
    assert status == 0 and "not blocked" in out
    status, out, _ = _cli(capsys, "person", "--url", url, "unblock", "troll@example.com")
    assert status == 0 and "already so" in out
    harness.send("troll@example.com", "VERSION\n")
    harness.drain()
    assert len(harness.new_mail()) == 1
    assert [s for a, s in _admin_audit(harness)] == ["person.blocked", "person.blocked"]


def test_every_person_command_has_help_with_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    for words in (["person"], *[["person", a] for a in ("show", "edit", "merge", "block", "unblock")]):
        with pytest.raises(SystemExit) as exit_:
            main([*words, "--help"])
        assert exit_.value.code == 0
        assert "example" in capsys.readouterr().out, words
