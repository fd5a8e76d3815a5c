"""The seed's rules to the letter (issue 26, seed 003): accusation, vetoes, delays, releases, elections.

Each test here failed on the code before issue 26. Who may: council members
signed on with their own password (ACCUSE, VOTE, READY), the master
(COUNCIL ...). What is revealed: each test says who is told.
"""

from __future__ import annotations

from judge.app.processing import process_phase
from tests.app.conftest import Harness
from tests.app.councils_b_helpers import ambassador, council_game, member_ids
from tests.app.orders_helpers import LETTER, MASTER, StartedGame, address, plain
from tests.app.test_councils_treason_replacements import _council_game_at, _make_spy, _without


def _as(harness: Harness, power: str, rank: int, body: str) -> str:
    """Mail ``body`` as ``power``'s member of ``rank`` (0: the General); the reply."""
    sender = address(power) if rank == 0 else ambassador(power, rank)
    password = f"g{power}" if rank == 0 else f"a{rank}{power}"
    return plain(harness.exchange(sender, f"SIGNON {LETTER[power]}demo {password}\n{body}\n"))


def _status(harness: Harness, game: StartedGame, member: int) -> str:
    with harness.db.unit_of_work(readonly=True) as uow:
        row = uow.councils.member(member)
        assert row is not None
        return row.status


# ------------------------------------------------------------------ rule 6b: the accusation


def test_the_first_ambassador_is_accused_by_the_general_and_the_second(harness: Harness) -> None:
    game = council_game(harness)
    first = member_ids(harness, game, "FRANCE")[ambassador("FRANCE", 1)]
    assert "takes effect when a second member" in _as(harness, "FRANCE", 0, f"ACCUSE {first}")
    assert "now cut off" in _as(harness, "FRANCE", 2, f"ACCUSE {first}")
    assert _status(harness, game, first) == "accused"


def test_a_replacement_ambassador_can_be_accused(harness: Harness) -> None:
    game = council_game(harness)
    with harness.db.unit_of_work() as uow:  # a replacement took the place of the second Ambassador
        row = game.game(uow)
        second = next(m for m in uow.councils.members(row, power="FRANCE") if m.rank == 2)
        second.rank = 3
    ids = member_ids(harness, game, "FRANCE")
    accused = ids[ambassador("FRANCE", 2)]
    _as(harness, "FRANCE", 0, f"ACCUSE {accused}")
    assert "now cut off" in _as(harness, "FRANCE", 1, f"ACCUSE {accused}")
    assert _status(harness, game, accused) == "accused"


# ------------------------------------------------------------------ rule 7b: the veto; a General never leaves in silence


def _unmasked_spy(harness: Harness, rank: int) -> tuple[StartedGame, int]:
    """France's member of ``rank`` spies for Italy, which has just been eliminated (rule 7a)."""
    game = _council_game_at(harness, _without("ITALY", "S1901M"))  # the spring: no yearly election
    spy = _make_spy(harness, game, "FRANCE", rank, "ITALY")
    with harness.db.unit_of_work() as uow:
        process_phase(uow, harness.services, game.game(uow), harness.clock.now(), reason="test")
    harness.new_mail()
    return game, spy


def test_a_vetoed_spy_is_kept_off_the_waiting_list_and_keeps_his_seat(harness: Harness) -> None:
    game, spy = _unmasked_spy(harness, 1)
    assert "vetoes" in plain(game.master(f"COUNCIL VETO {spy}"))
    reply = plain(game.master(f"COUNCIL WAITLIST {spy}"))
    assert "vetoed" in reply and "is on the waiting list" not in reply
    assert _status(harness, game, spy) == "active"


def test_only_a_spy_whose_true_nation_fell_may_be_vetoed(harness: Harness) -> None:
    game = council_game(harness)
    loyal = member_ids(harness, game, "FRANCE")[ambassador("FRANCE", 1)]
    assert "Only a spy whose true nation fell" in plain(game.master(f"COUNCIL VETO {loyal}"))


def test_a_sitting_general_leaving_for_the_waiting_list_opens_an_election(harness: Harness) -> None:
    game, spy = _unmasked_spy(harness, 0)
    reply = plain(game.master(f"COUNCIL WAITLIST {spy}"))
    assert "is on the waiting list" in reply
    with harness.db.unit_of_work(readonly=True) as uow:
        row = game.game(uow)
        assert uow.councils.general(row, "FRANCE") is None
        election = uow.councils.open_elections(row, power="FRANCE")
        assert len(election) == 1 and election[0].kind == "early"
        ranks = sorted((m.role, m.rank) for m in uow.councils.seated(row, power="FRANCE"))
        assert ranks == [("ambassador", 1), ("ambassador", 2)]
    told = {str(m["To"]): plain(m) for m in harness.others if "has left the council" in plain(m)}
    assert set(told) == {ambassador("FRANCE", 1), ambassador("FRANCE", 2), MASTER}
    left = [m for m in harness.others if str(m["To"]) == address("FRANCE")]
    assert [plain(m) for m in left if "no longer sit on France's council" in plain(m)]
    assert not [m for m in left if "has left the council" in plain(m) or "elects" in plain(m)]


# ------------------------------------------------------------------ rules 7 and 8: a year is the same season a year later


def test_an_arrest_in_the_fall_allows_no_escape_in_the_next_spring(harness: Harness) -> None:
    game = council_game(harness, phase="F1901M")
    second = member_ids(harness, game, "FRANCE")[ambassador("FRANCE", 2)]
    _as(harness, "FRANCE", 0, f"ACCUSE {second}")
    _as(harness, "FRANCE", 1, f"ACCUSE {second}")
    with harness.db.unit_of_work() as uow:
        game.game(uow).current_phase = "S1902M"
    refused = _as(harness, "FRANCE", 2, "ESCAPE WAITLIST")
    assert "from the Movement for Fall of 1902" in refused
    assert _status(harness, game, second) == "accused"
    with harness.db.unit_of_work() as uow:
        game.game(uow).current_phase = "F1902M"
    assert "secretly joined the waiting list" in _as(harness, "FRANCE", 2, "ESCAPE WAITLIST")
    assert _status(harness, game, second) == "left"
