"""Scoring systems: the published worked examples, the totals, wins, ties, and refusals."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from judge.app.game_state.scoring import (
    SYSTEMS,
    FinalResult,
    ResultKind,
    ScoringError,
    c_diplo,
    c_diplo_73,
    draw_size,
    place_bonuses,
    score,
    shown,
    sum_of_squares,
    system_named,
)

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def centres(*counts: int) -> dict[str, int]:
    return dict(zip(POWERS, counts, strict=True))


def test_c_diplo_first_published_example() -> None:
    # World Diplomacy Database, "C-Diplo 100": 4 0 9 7 7 3 4 -> 5 1 48 18.5 18.5 4 5.
    result = FinalResult(ResultKind.DRAW, ("FRANCE", "GERMANY", "ITALY"), centres(4, 0, 9, 7, 7, 3, 4))
    scores = c_diplo(result)
    assert scores == {
        "AUSTRIA": 5, "ENGLAND": 1, "FRANCE": 48, "GERMANY": Fraction(37, 2), "ITALY": Fraction(37, 2),
        "RUSSIA": 4, "TURKEY": 5,
    }  # fmt: skip
    assert sum(scores.values()) == 100


def test_c_diplo_second_published_example() -> None:
    # 5 9 4 5 3 1 7 -> 9.5 48 5 9.5 4 2 22: two powers tied for third share its 7 points.
    result = FinalResult(ResultKind.DRAW, ("ENGLAND", "TURKEY"), centres(5, 9, 4, 5, 3, 1, 7))
    scores = c_diplo(result)
    assert [shown(scores[p]) for p in POWERS] == ["9.5", "48", "5", "9.5", "4", "2", "22"]
    assert sum(scores.values()) == 100


def test_c_diplo_solo_and_its_73_point_reading() -> None:
    result = FinalResult(ResultKind.SOLO, ("FRANCE",), centres(0, 3, 18, 5, 4, 2, 2))
    assert c_diplo(result)["FRANCE"] == 100
    assert c_diplo_73(result)["FRANCE"] == 73
    assert all(c_diplo(result)[p] == 0 for p in POWERS if p != "FRANCE")


def test_draw_size_shares_equally_among_the_draw_only() -> None:
    result = FinalResult(ResultKind.DRAW, ("ENGLAND", "FRANCE", "GERMANY"), centres(0, 12, 10, 8, 4, 0, 0))
    scores = draw_size(result)
    assert scores["ENGLAND"] == scores["GERMANY"] == Fraction(100, 3)
    assert scores["ITALY"] == 0  # survived, not in the draw
    assert shown(scores["FRANCE"]) == "33.33"


def test_sum_of_squares_uses_every_power_s_centres() -> None:
    result = FinalResult(ResultKind.DRAW, ("ENGLAND", "FRANCE"), centres(0, 10, 10, 0, 0, 0, 10))
    scores = sum_of_squares(result)
    assert scores["ENGLAND"] == scores["TURKEY"] == Fraction(100, 3)
    assert sum(scores.values()) == 100


def test_sum_of_squares_example() -> None:
    # 16, 12, 6: 256 + 144 + 36 = 436.
    result = FinalResult(ResultKind.DRAW, ("ENGLAND", "FRANCE", "GERMANY"), centres(0, 16, 12, 6, 0, 0, 0))
    assert sum_of_squares(result)["ENGLAND"] == Fraction(25600, 436)
    assert shown(sum_of_squares(result)["ENGLAND"]) == "58.72"


def test_a_concession_scores_as_a_win_in_every_system() -> None:
    result = FinalResult(ResultKind.CONCESSION, ("RUSSIA",), centres(2, 3, 4, 5, 6, 12, 2))
    for key in SYSTEMS:
        expected = 73 if key == "c-diplo-73" else 100
        assert score(result, key)["RUSSIA"] == expected
        assert score(result, key)["ITALY"] == 0


def test_place_bonuses_spread_over_a_three_way_top_tie() -> None:
    bonuses = place_bonuses(centres(10, 10, 10, 2, 2, 0, 0), (38, 14, 7))
    assert bonuses["AUSTRIA"] == Fraction(59, 3)
    assert bonuses["GERMANY"] == 0


def test_systems_by_name_and_alias() -> None:
    assert system_named(None).key == "draw-size"
    assert system_named("C-Dipo").key == "c-diplo"
    assert system_named(" SoS ").key == "sum-of-squares"
    with pytest.raises(ScoringError, match="unknown scoring system 'baf'"):
        system_named("baf")


@pytest.mark.parametrize(
    ("kind", "winners", "message"),
    [
        (ResultKind.DRAW, (), "at least one"),
        (ResultKind.SOLO, ("FRANCE", "ENGLAND"), "exactly one winner"),
        (ResultKind.DRAW, ("PRUSSIA",), "not powers of the game: PRUSSIA"),
    ],
)
def test_impossible_results_are_refused(kind: ResultKind, winners: tuple[str, ...], message: str) -> None:
    with pytest.raises(ScoringError, match=message):
        FinalResult(kind, winners, centres(5, 5, 5, 5, 5, 5, 4))


board = st.lists(st.integers(min_value=0, max_value=6), min_size=34, max_size=34).map(
    lambda owners: [owners.count(index) for index in range(7)]
)
"""34 centres dealt among the seven powers (a board without a solo is not needed for these)."""


@given(board, st.sets(st.sampled_from(POWERS), min_size=1))
def test_every_drawn_game_is_worth_100_points(counts: list[int], drawn: set[str]) -> None:
    result = FinalResult(ResultKind.DRAW, tuple(sorted(drawn)), centres(*counts))
    for key in ("draw-size", "sum-of-squares", "c-diplo"):
        scores = score(result, key)
        assert sum(scores.values()) == 100
        assert all(points >= 0 for points in scores.values())


@given(board)
def test_c_diplo_ranks_more_centres_higher(counts: list[int]) -> None:
    result = FinalResult(ResultKind.DRAW, POWERS, centres(*counts))
    scores = c_diplo(result)
    for a in POWERS:
        for b in POWERS:
            if result.centres[a] > result.centres[b]:
                assert scores[a] > scores[b]
