"""`judge game ...` through the command line, on each engine: one code path with mail, audited.

A game is started with the app harness; the command line is run in-process
against the same database, then the database (and the outbox) is read back.
"""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from judge.cli import main
from judge.db.enums import AuditKind, GameState, SeatStatus
from judge.db.models import AuditEvent
from tests.app.conftest import Harness
from tests.app.orders_helpers import address, start_game


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _game(harness: Harness, name: str = "demo") -> dict[str, object]:
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require(name)
        return {
            "state": game.state, "paused": game.paused_at is not None, "phase": game.current_phase,
            "nmr": game.nmr, "masters": [m.person.primary_address for m in game.masters],
            "seats": {s.power: (s.status, s.person_id) for s in game.seats},
        }


def _audit(harness: Harness) -> list[AuditEvent]:
    with harness.db.unit_of_work(readonly=True) as uow:
        events = list(uow.session.scalars(select(AuditEvent).order_by(AuditEvent.id)))
        uow.session.expunge_all()
        return events


def test_list_and_show(harness: Harness, capsys: pytest.CaptureFixture[str]) -> None:
    game = start_game(harness)
    game.orders("FRANCE", "A PAR - BUR\nA MAR - SPA\nF BRE - MAO\n")
    game.orders("GERMANY", "A BER - KIE\n")  # two of its three units left without orders
    harness.exchange(address("ENGLAND"), game.signon("ENGLAND") + "PRESS TO F\nhello\nENDPRESS\n")
    url = harness.db.url
    with harness.db.unit_of_work() as uow:
        uow.games.create("waiting", harness.clock.now())

    status, out, _ = _cli(capsys, "game", "--url", url, "list")
    assert status == 0 and "demo" in out and "active" in out and "S1901M" in out and "waiting" in out
    status, out, _ = _cli(capsys, "game", "--url", url, "list", "--state", "forming", "--json")
    assert [json.loads(line)["name"] for line in out.splitlines()] == ["waiting"]

    status, out, _ = _cli(capsys, "game", "--url", url, "show", "demo", "--json")
    assert status == 0
    view = json.loads(out)
    assert view["phase"] == "S1901M" and view["deadline"] and view["grace"]
    assert view["orders_received"] == ["FRANCE", "GERMANY"]
    france = next(s for s in view["seats"] if s["power"] == "FRANCE")
    assert france["addresses"] == [address("FRANCE")] and france["orders"] is True
    assert france["orders_state"] == "complete"
    assert next(s for s in view["seats"] if s["power"] == "GERMANY")["orders_state"] == "incomplete"
    assert view["press"]["this_phase"] == {"press": 1}
    assert view["masters_list"][0]["address"] == "master@example.net"
    status, out, _ = _cli(capsys, "game", "--url", url, "show", "demo")
    assert status == 0 and "orders received this phase: FRANCE, GERMANY" in out and address("ITALY") in out
    seat_lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")}
    assert seat_lines["FRANCE"].endswith("(orders complete)")
    assert seat_lines["GERMANY"].endswith("(orders incomplete)")
    assert seat_lines["ITALY"].endswith("(no orders)")
    assert "press this phase: 1 press" in out and "grace until:" in out
    status, _, err = _cli(capsys, "game", "--url", url, "show", "nosuch")
    assert status == 1 and "there is no game 'nosuch'" in err


def test_pause_resume_set_eject_process_terminate_are_the_masters_commands(
    harness: Harness, capsys: pytest.CaptureFixture[str]
) -> None:
    start_game(harness)
    url = harness.db.url
    harness.new_mail()

    status, out, err = _cli(capsys, "game", "--url", url, "pause", "demo", "--as", "alice")
    assert status == 0 and "is paused" in out and "audited as alice" in out, (out, err)
    assert _game(harness)["paused"] is True
    assert any("Game Paused" in str(m["Subject"]) for m in harness.new_mail())
    status, _, err = _cli(capsys, "game", "--url", url, "pause", "demo", "--as", "alice")
    assert status == 1 and "refused" in err
    status, out, _ = _cli(capsys, "game", "--url", url, "resume", "demo", "--as", "alice")
    assert status == 0 and _game(harness)["paused"] is False

    status, out, _ = _cli(capsys, "game", "--url", url, "set", "demo", "NMR", "--as", "bob")
    assert status == 0 and _game(harness)["nmr"] is True
    status, _, err = _cli(capsys, "game", "--url", url, "set", "demo", "PASSWORD", "x", "--as", "bob")
    assert status == 1 and "a player's own" in err
    status, _, err = _cli(capsys, "game", "--url", url, "set", "demo", "FROBNICATE", "--as", "bob")
    assert status == 1
    # one command per console call: a second line smuggled into the words is refused, nothing done
    status, _, err = _cli(capsys, "game", "--url", url, "set", "demo", "NO NMR\nPROCESS", "--as", "bob")
    assert status == 1 and "must be one command" in err
    status, _, err = _cli(capsys, "game", "--url", url, "eject", "demo", "F\nTERMINATE", "--as", "bob")
    assert status == 1 and "must be one command" in err
    assert _game(harness)["nmr"] is True and _game(harness)["phase"] == "S1901M"

    status, out, _ = _cli(capsys, "game", "--url", url, "eject", "demo", "F", "--as", "bob")
    assert status == 0
    assert _game(harness)["seats"]["FRANCE"][0] is SeatStatus.ABANDONED

    status, out, _ = _cli(capsys, "game", "--url", url, "process", "demo", "--as", "carol")
    assert status == 0 and "processed" in out
    assert _game(harness)["phase"] == "F1901M"
    status, out, _ = _cli(capsys, "game", "--url", url, "rollback", "demo", "1", "--as", "carol")
    assert status == 0 and _game(harness)["phase"] == "S1901M"
    status, out, _ = _cli(capsys, "game", "--url", url, "terminate", "demo", "--as", "dan")
    assert status == 0 and _game(harness)["state"] is GameState.TERMINATED

    events = _audit(harness)
    console = [(e.actor, e.new_value) for e in events if e.kind is AuditKind.ADMIN and e.setting == "console"]
    assert console == [
        ("alice", "PAUSE"), ("alice", "PAUSE"), ("alice", "RESUME"), ("bob", "SET NMR"), ("bob", "EJECT F"),
        ("carol", "PROCESS"), ("carol", "ROLLBACK 1"), ("dan", "TERMINATE"),
    ]
    # the handlers' own records name the operator too
    assert any(e.kind is AuditKind.SETTING and e.setting == "nmr" and e.actor == "bob" for e in events)


def test_master_adds_a_registered_person(harness: Harness, capsys: pytest.CaptureFixture[str]) -> None:
    start_game(harness, with_master=False)
    url = harness.db.url
    with harness.db.unit_of_work() as uow:
        from judge.db.repositories.people import Registration

        uow.people.register(Registration(name="Ann"), "ann@example.org", harness.clock.now())
    status, _, err = _cli(capsys, "game", "--url", url, "master", "demo", "not an address")
    assert status == 1 and "not an address" in err
    status, _, err = _cli(capsys, "game", "--url", url, "master", "demo", "who@example.org")
    assert status == 1 and "nobody registered" in err
    status, _, err = _cli(capsys, "game", "--url", url, "master", "demo", address("ITALY"))
    assert status == 1 and "plays in demo" in err
    status, out, _ = _cli(capsys, "game", "--url", url, "master", "demo", "ANN@example.org", "--as", "eve")
    assert status == 0 and _game(harness)["masters"] == ["ann@example.org"]
    password = out.split("SIGNON Mdemo ")[1].split(":")[0]
    reply = harness.exchange("ann@example.org", f"SIGNON Mdemo {password}\nSET NMR\n")
    assert "[Error Flag]" not in str(reply["Subject"]) and _game(harness)["nmr"] is True
    assert [(e.actor, e.new_value) for e in _audit(harness) if e.setting == "master"] == [
        ("eve", "ann@example.org")
    ]


def test_every_game_command_has_help_with_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    for words in (["game"], *[["game", a] for a in (
        "list", "show", "process", "pause", "resume", "terminate", "rollback", "set", "eject", "master"
    )]):
        with pytest.raises(SystemExit) as exit_:
            main([*words, "--help"])
        assert exit_.value.code == 0
        assert "example" in capsys.readouterr().out, words


def test_the_console_s_acts_are_told_as_the_judgekeeper_s_not_the_master_s(
    harness: Harness, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.app.orders_helpers import plain

    start_game(harness)
    url = harness.db.url
    harness.new_mail()
    assert _cli(capsys, "game", "--url", url, "pause", "demo", "--as", "alice")[0] == 0
    paused = [plain(m) for m in harness.new_mail() if "Game Paused" in str(m["Subject"])]
    assert paused and all("the judgekeeper" in text and "the master" not in text for text in paused), paused
    assert _cli(capsys, "game", "--url", url, "set", "demo", "NMR", "--as", "bob")[0] == 0
    changed = [plain(m) for m in harness.new_mail() if "Parameter Change" in str(m["Subject"])]
    assert changed and all("judgekeeper" in text and "master" not in text.split("\n\n")[0] for text in changed)
    assert _cli(capsys, "game", "--url", url, "eject", "demo", "F", "--as", "bob")[0] == 0
    [ejected] = [plain(m) for m in harness.new_mail() if str(m["To"]) == address("FRANCE") and "Ejected" in str(m["Subject"])]
    assert ejected.startswith("The judgekeeper has removed you from game 'demo'. You no longer play France.")
    assert _cli(capsys, "game", "--url", url, "resume", "demo", "--as", "alice")[0] == 0
    assert _cli(capsys, "game", "--url", url, "process", "demo", "--as", "carol")[0] == 0
    harness.new_mail()
    assert _cli(capsys, "game", "--url", url, "rollback", "demo", "1", "--as", "carol")[0] == 0
    rolled = [plain(m) for m in harness.new_mail() if "Rollback" in str(m["Subject"])]
    assert rolled and all(text.startswith("The judgekeeper has rolled game 'demo' back") for text in rolled)
