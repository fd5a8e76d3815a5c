"""The seed's rules to the letter (issue 26, seed 003): accusation, vetoes, delays, releases, elections.

Each test here failed on the code before issue 26. Who may: council members
signed on with their own password (ACCUSE, VOTE, READY), the master
(COUNCIL ...). What is revealed: each test says who is told.
"""

from __future__ import annotations

from tests.app.conftest import Harness
from tests.app.councils_b_helpers import ambassador, council_game, member_ids
from tests.app.orders_helpers import LETTER, StartedGame, address, plain


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
