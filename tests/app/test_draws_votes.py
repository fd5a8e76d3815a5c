"""Draw and concession votes: DIAS and NoDIAS counting (the Judge's worked examples), secrecy, refusals."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from judge.app.game_state.agreements import Agreement, Passed
from judge.app.games.draws import Vote, accepts, count_votes, largest_accepted
from judge.db.enums import DrawVoteKind, SeatStatus
from tests.app.conftest import Harness
from tests.app.orders_helpers import LETTER
from tests.app.press_helpers import (
    ALL_PLAYERS,
    OBSERVER,
    board_without,
    game_with,
    plain,
    votes_stored,
)

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

DRAW, NO_DRAW, CONCEDE = DrawVoteKind.DRAW, DrawVoteKind.NO_DRAW, DrawVoteKind.CONCEDE
AEF = ("AUSTRIA", "ENGLAND", "FRANCE")


def vote(power: str, letters: str | None) -> Vote:
    """A NoDIAS vote as the Judge's draws file writes them: letters, or None for SET NO DRAW."""
    by_letter = {LETTER[p]: p for p in ALL_PLAYERS}
    if letters is None:
        return Vote(power, NO_DRAW)
    return Vote(power, DRAW, frozenset(by_letter[c] for c in letters))


@pytest.mark.parametrize(
    ("france", "england", "austria", "outcome"),
    [
        ("AEF", "AEF", "AEF", Passed(Agreement.DRAW, AEF)),
        ("AE", "AEF", "AEF", Passed(Agreement.DRAW, AEF)),
        ("AE", "AEF", "AE", Passed(Agreement.DRAW, ("AUSTRIA", "ENGLAND"))),
        ("AEF", "AE", "AE", None),
        ("A", "A", None, Passed(Agreement.CONCESSION, ("AUSTRIA",))),
    ],
)
def test_the_judge_s_nodias_examples(
    france: str, england: str, austria: str | None, outcome: Passed | None
) -> None:
    votes = {"FRANCE": vote("FRANCE", france), "ENGLAND": vote("ENGLAND", england),
             "AUSTRIA": vote("AUSTRIA", austria)}  # fmt: skip
    assert count_votes(votes, AEF, AEF, dias=False, largest=None) == outcome


def test_nodias_needs_every_voter() -> None:
    votes = {"FRANCE": vote("FRANCE", "AEF"), "ENGLAND": vote("ENGLAND", "AEF")}
    assert count_votes(votes, AEF, AEF, dias=False, largest=None) is None


def test_dias_draw_and_concession_counting() -> None:
    all_draw = {p: Vote(p, DRAW) for p in AEF}
    assert count_votes(all_draw, AEF, AEF, dias=True, largest="FRANCE") == Passed(Agreement.DRAW, AEF)
    one_no = {**all_draw, "ENGLAND": Vote("ENGLAND", NO_DRAW)}
    assert count_votes(one_no, AEF, AEF, dias=True, largest="FRANCE") is None
    conceding = {p: Vote(p, CONCEDE, frozenset({"FRANCE"})) for p in ("AUSTRIA", "ENGLAND")}
    assert count_votes(conceding, AEF, AEF, dias=True, largest="FRANCE") == Passed(Agreement.CONCESSION, ("FRANCE",))
    assert count_votes(conceding, AEF, AEF, dias=True, largest=None) is None
    # A survivor nobody plays (civil disorder) is in the draw but not asked.
    assert count_votes(all_draw, (*AEF, "ITALY"), AEF, dias=True, largest=None) == Passed(
        Agreement.DRAW, (*AEF, "ITALY")
    )


votes_strategy = st.fixed_dictionaries(
    {p: st.one_of(st.none(), st.sets(st.sampled_from((*AEF, "ITALY")), min_size=1)) for p in (*AEF, "ITALY")}
)


@given(votes_strategy)
def test_the_largest_accepted_draw_is_what_a_search_of_every_set_finds(choices: dict[str, set[str] | None]) -> None:
    alive = (*AEF, "ITALY")
    votes = {p: Vote(p, NO_DRAW) if c is None else Vote(p, DRAW, frozenset(c)) for p, c in choices.items()}
    every = [frozenset(s) for n in range(1, len(alive) + 1) for s in combinations(alive, n)]
    accepted = [s for s in every if all(accepts(v, s) for v in votes.values())]
    expected = max(accepted, key=len, default=frozenset())
    assert largest_accepted(votes, alive, alive) == expected
    assert len([s for s in accepted if len(s) == len(expected)]) <= 1  # the largest is unique


# -- by mail -----------------------------------------------------------------------------------------


def state(harness: Harness) -> str:
    with harness.db.unit_of_work(readonly=True) as uow:
        return uow.games.require("demo").state.value


def test_dias_draw_votes_are_secret_until_the_last_one(harness: Harness) -> None:
    game = game_with(harness, board_without("ITALY", "TURKEY", "AUSTRIA", "RUSSIA"))
    reply = game.orders("FRANCE", "SET DRAW\n")
    assert (
        "Recorded: you accept a draw between all the surviving powers. Votes are secret and last until "
        "this phase is processed."
    ) in plain(reply)
    assert harness.others == []
    game.orders("ENGLAND", "SET DRAW\n")
    assert harness.others == []
    assert state(harness) == "active"
    reply = game.orders("GERMANY", "SET DRAW\n")
    assert "The draw has passed: the game is over. Everyone has been sent the final summary." in plain(reply)
    assert state(harness) == "finished"
    subjects = {m["Subject"] for m in harness.others}
    assert subjects == {"XPY:demo - S1901M Draw Declared: EFG"}
    assert votes_stored(harness) == []


def test_set_no_draw_blocks_a_dias_draw(harness: Harness) -> None:
    game = game_with(harness, board_without("ITALY", "TURKEY", "AUSTRIA", "RUSSIA"))
    game.orders("FRANCE", "SET DRAW\n")
    game.orders("ENGLAND", "SET NO DRAW\n")
    reply = game.orders("GERMANY", "SET DRAW\n")
    assert "The draw has passed" not in plain(reply)
    assert state(harness) == "active"
    assert "Recorded: you do not accept a draw this phase." in plain(game.orders("FRANCE", "SET NO DRAW\n"))


def test_nodias_draw_by_mail(harness: Harness) -> None:
    game = game_with(harness, board_without("ITALY", "TURKEY", "RUSSIA", "GERMANY"), dias=False)
    reply = game.orders("FRANCE", "SET DRAW AE\n")
    assert "Recorded: you accept a draw between Austria and England, or any part of them, with or without you." in plain(reply)
    reply = game.orders("ENGLAND", "SET DRAW AEF\n")
    assert "Recorded: you accept a draw between Austria, England and France, or any part of them that includes you." in plain(reply)
    reply = game.orders("AUSTRIA", "SET DRAW AE\n")
    assert "The draw has passed" in plain(reply)
    assert {m["Subject"] for m in harness.others} == {"XPY:demo - S1901M Draw Declared: AE"}


def test_nodias_one_power_list_is_a_concession(harness: Harness) -> None:
    game = game_with(harness, board_without("ITALY", "TURKEY", "RUSSIA", "GERMANY"), dias=False)
    game.orders("FRANCE", "SET DRAW A\n")
    game.orders("ENGLAND", "SET DRAW A\n")
    reply = game.orders("AUSTRIA", "SET NO DRAW\n")
    assert "The votes concede the game to Austria: the game is over." in plain(reply)
    assert {m["Subject"] for m in harness.others} == {"XPY:demo - S1901M Game Conceded to A"}


def test_votes_are_cleared_when_the_phase_is_processed(harness: Harness) -> None:
    game = game_with(harness, board_without("ITALY", "TURKEY", "AUSTRIA", "RUSSIA"))
    game.orders("FRANCE", "SET DRAW\n")
    game.orders("ENGLAND", "SET DRAW\n")
    assert len(votes_stored(harness)) == 2
    game.master("PROCESS\n")
    assert votes_stored(harness) == []
    game.orders("GERMANY", "SET DRAW\n")
    assert state(harness) == "active"


def test_powers_in_civil_disorder_do_not_vote_but_are_in_the_draw(harness: Harness) -> None:
    game = game_with(harness, board_without("TURKEY", "AUSTRIA", "RUSSIA"))
    with harness.db.unit_of_work() as uow:
        seat = uow.seats.by_power(uow.games.require("demo"), "ITALY")
        assert seat is not None
        seat.status = SeatStatus.CIVIL_DISORDER
    for power in ("FRANCE", "ENGLAND", "GERMANY"):
        game.orders(power, "SET DRAW\n")
    assert {m["Subject"] for m in harness.others} == {"XPY:demo - S1901M Draw Declared: EFGI"}


@pytest.mark.parametrize(
    ("settings", "sender", "body", "message"),
    [
        ({}, "FRANCE", "SET DRAW EF", "This is a DIAS game: a draw includes every surviving power, so SET DRAW "
                                     "takes no list. The vote was not recorded."),
        ({"dias": False}, "FRANCE", "SET DRAW", "This is a NoDIAS game: name the powers of the draw you accept, "
                                                "e.g. SET DRAW AEF. The vote was not recorded."),
        ({"dias": False}, "FRANCE", "SET DRAW FI", "Italy: not a surviving power; a draw can include only powers "
                                                   "still in the game. The vote was not recorded."),
        ({}, "ITALY", "SET DRAW", "Italy has no unit and no supply centre left: only surviving powers vote."),
    ],
)  # fmt: skip
def test_refused_votes_change_nothing(
    harness: Harness, settings: dict[str, object], sender: str, body: str, message: str
) -> None:
    game = game_with(harness, board_without("ITALY"), **settings)
    reply = game.orders(sender, body + "\n")
    assert message in plain(reply)
    assert "[Error Flag]" in reply["Subject"]
    assert votes_stored(harness) == []


def test_masters_and_observers_do_not_vote(harness: Harness) -> None:
    game = game_with(harness)
    reply = game.master("SET DRAW\n")
    assert "Only the powers of a game vote on draws and concessions" in plain(reply)
    reply = harness.exchange(OBSERVER, "OBSERVE demo watchpw\nSET DRAW\n")
    assert "Only the powers of a game vote on draws and concessions" in plain(reply)
    assert votes_stored(harness) == []


def test_a_master_who_became_a_power_votes_for_it(harness: Harness) -> None:
    game = game_with(harness, board_without("ITALY", "TURKEY", "AUSTRIA", "RUSSIA", "GERMANY"))
    game.orders("FRANCE", "SET DRAW\n")
    reply = game.master("BECOME ENGLAND\nSET DRAW\n")
    assert "The draw has passed" in plain(reply)


def test_no_votes_once_the_game_is_over(harness: Harness) -> None:
    game = game_with(harness, board_without("ITALY", "TURKEY", "AUSTRIA", "RUSSIA", "GERMANY"))
    game.orders("FRANCE", "SET DRAW\n")
    game.orders("ENGLAND", "SET DRAW\n")
    reply = game.orders("FRANCE", "SET NO DRAW\n")
    assert "Game 'demo' is not being played: there is nothing to vote on." in plain(reply)


def test_set_draw_set_letters_are_stored_as_letters(harness: Harness) -> None:
    game = game_with(harness, dias=False)
    game.orders("FRANCE", "SET DRAW fge\n")
    [(_, kind, letters)] = votes_stored(harness)
    assert (kind, letters) == ("draw", "FGE")
