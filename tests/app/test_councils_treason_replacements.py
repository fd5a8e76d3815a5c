"""Eliminations, the waiting list and replacements (issue 17, seed 003 rules 7 and 8).

Who may: the processing unmasks a spy whose true nation fell (to the
council he infiltrated and the masters only); COUNCIL EXPEL / WAITLIST /
VETO / SEAT are the master's alone. What is revealed: the spy's identity
to his host council and the masters; the waiting list to the master only.
"""

from __future__ import annotations

import dataclasses

from judge.app.game_state.boards import opening_position
from judge.app.phases.processing import process_phase
from judge.core.variants import load_map
from tests.app.conftest import Harness
from tests.app.councils_b_helpers import ambassador, council_game, member_ids
from tests.app.orders_helpers import MASTER, StartedGame, address, plain, start_game


def _make_spy(harness: Harness, game: StartedGame, host: str, rank: int, true_power: str) -> int:
    with harness.db.unit_of_work() as uow:
        row = game.game(uow)
        member = next(m for m in uow.councils.members(row, power=host) if m.rank == rank)
        member.true_power = true_power
        return member.id


def _without(power: str, phase: str = "F1901M"):  # type: ignore[no-untyped-def]
    from judge.core.phase import Phase

    opening = opening_position(load_map("standard"))
    return dataclasses.replace(
        opening,
        phase=Phase.parse(phase),
        units=tuple(u for u in opening.units if u.power != power),
        centers={p: c for p, c in opening.centers.items() if p != power},
    )


def _council_game_at(harness: Harness, position) -> StartedGame:  # type: ignore[no-untyped-def]
    from tests.app import councils_b_helpers as helpers

    original = helpers.start_game
    helpers.start_game = lambda h, **kw: original(h, position=position)  # type: ignore[assignment]
    try:
        return council_game(harness)
    finally:
        helpers.start_game = original  # type: ignore[assignment]


def _master(game: StartedGame, body: str) -> str:
    return plain(game.master(body))


def test_a_spy_whose_true_nation_falls_is_unmasked_to_his_host_only(harness: Harness) -> None:
    game = _council_game_at(harness, _without("ITALY"))
    spy = _make_spy(harness, game, "FRANCE", 1, "ITALY")
    harness.new_mail()
    with harness.db.unit_of_work() as uow:
        process_phase(uow, harness.services, game.game(uow), harness.clock.now(), reason="test")
    processed = harness.new_mail()
    unmasked = [m for m in processed if "is a spy working for Italy" in plain(m)]
    assert sorted(str(m["To"]) for m in unmasked) == sorted(
        [address("FRANCE"), ambassador("FRANCE", 1), ambassador("FRANCE", 2), MASTER])
    with harness.db.unit_of_work(readonly=True) as uow:
        member = uow.councils.member(spy)
        assert member is not None and member.extra["true_nation_eliminated_phase"] == "F1901M"
        italians = uow.councils.members(game.game(uow), power="ITALY")
        assert {m.status for m in italians} == {"eliminated"}
    # issue 26: each member of the fallen power is told he leaves its council, alone
    left = [str(m["To"]) for m in processed if "Italy is eliminated: you leave its council" in plain(m)]
    assert sorted(left) == sorted([address("ITALY"), ambassador("ITALY", 1), ambassador("ITALY", 2)])
    # rule 7b: the waiting list for any foreign power, a year after; the host's veto keeps him off
    reply = _master(game, f"COUNCIL WAITLIST {spy}")
    assert "is on the waiting list, for Austria, England, Germany, Russia, Turkey, from the Movement for Fall of 1902" in reply
    assert "COUNCIL" not in "".join(plain(m) for m in harness.others if str(m["To"]) != MASTER)
    assert "vetoes" in _master(game, f"COUNCIL VETO {spy}")
    assert "vetoed" in _master(game, f"COUNCIL SEAT {spy} G")


def test_the_infiltrated_power_may_expel_its_spy(harness: Harness) -> None:
    game = council_game(harness)
    spy = _make_spy(harness, game, "FRANCE", 2, "ITALY")
    assert "leaves France's council" in _master(game, f"COUNCIL EXPEL {spy}")
    with harness.db.unit_of_work(readonly=True) as uow:
        member = uow.councils.member(spy)
        assert member is not None and member.status == "left" and member.left_at is not None


def test_a_spy_inside_a_fallen_power_goes_back_to_his_true_nation_only(harness: Harness) -> None:
    game = _council_game_at(harness, _without("FRANCE"))
    spy = _make_spy(harness, game, "FRANCE", 1, "ENGLAND")
    with harness.db.unit_of_work() as uow:
        process_phase(uow, harness.services, game.game(uow), harness.clock.now(), reason="test")
    assert "for England, from the Movement for Fall of 1902" in _master(game, f"COUNCIL WAITLIST {spy}")
    assert "only with his true nation" in _master(game, f"COUNCIL SEAT {spy} G")
    # a year counted in seasons: eliminated in the fall of 1901, no seat in the spring of 1902
    assert "may take a seat from the Movement for Fall of 1902" in _master(game, f"COUNCIL SEAT {spy} E")
    with harness.db.unit_of_work() as uow:
        game.game(uow).current_phase = "F1902M"
    assert "no seat to fill" in _master(game, f"COUNCIL SEAT {spy} E")  # England's council is full
    with harness.db.unit_of_work() as uow:  # England's second Ambassador leaves: a vacancy
        row = game.game(uow)
        leaver = next(m for m in uow.councils.members(row, power="ENGLAND") if m.rank == 2)
        uow.councils.set_status(leaver, "left", harness.clock.now())
    reply = _master(game, f"COUNCIL SEAT {spy} E")
    assert "takes a seat on England's council" in reply
    with harness.db.unit_of_work(readonly=True) as uow:
        english = [m for m in uow.councils.seated(game.game(uow), power="ENGLAND")]
        assert len(english) == 3 and english[-1].extra["replaces_member"] == spy
        assert english[-1].true_power is None  # back with his true nation: no longer a spy
        # issue 26: ranks stay "General, Ambassador, Ambassador": the newcomer takes the rank left free
        assert sorted((m.role, m.rank) for m in english) == [("ambassador", 1), ("ambassador", 2), ("general", 0)]
    # issue 26: the member seated again is told so, alone, in his mail
    seated_notice = [str(m["To"]) for m in harness.others if "You take a seat on England's council" in plain(m)]
    assert seated_notice == [ambassador("FRANCE", 1)]


def test_only_the_master_runs_council_commands(harness: Harness) -> None:
    game = council_game(harness)
    ids = member_ids(harness, game, "FRANCE")
    reply = plain(harness.exchange(address("FRANCE"),
                                   f"SIGNON Fdemo gFRANCE\nCOUNCIL EXPEL {ids[ambassador('FRANCE', 2)]}\n"))
    assert "master" in reply.lower() and "leaves" not in reply
    with harness.db.unit_of_work(readonly=True) as uow:
        assert all(m.status == "active" for m in uow.councils.members(game.game(uow), power="FRANCE"))


def test_a_game_without_councils_refuses_them(harness: Harness) -> None:
    game = start_game(harness)
    assert "not played by councils" in plain(game.master("COUNCIL ONR\n"))
