import random

import pytest

from judge.app.game_state.assignment import AssignmentError, Preference, assign_powers, rank_costs

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def pref(*groups: str, star: bool = False) -> Preference:
    return Preference(tuple(frozenset(g.split()) for g in groups), star)


def test_ranks_average_inside_brackets_and_for_unlisted_powers():
    costs = rank_costs(pref("FRANCE", "ENGLAND GERMANY"), POWERS)
    assert costs["FRANCE"] == 1
    assert costs["ENGLAND"] == costs["GERMANY"] == 2.5
    # four powers left off share ranks 4..7
    assert costs["TURKEY"] == costs["AUSTRIA"] == 5.5


def test_everyone_gets_first_choice_when_possible():
    prefs = {name: pref(power) for name, power in zip("abcdefg", POWERS, strict=True)}
    deal = assign_powers(prefs, POWERS, random.Random(1))
    assert deal == dict(zip("abcdefg", POWERS, strict=True))


def test_conflict_is_resolved_for_the_best_total():
    prefs = {
        "a": pref("FRANCE", "ENGLAND"),
        "b": pref("FRANCE", "GERMANY"),
        "c": pref("ENGLAND", "FRANCE"),
    }
    deal = assign_powers(prefs, POWERS, random.Random(7))
    # the only total of 4 (1 + 2 + 1): a France, b its second choice, c England
    assert deal == {"a": "FRANCE", "b": "GERMANY", "c": "ENGLAND"}


def test_ties_are_random_but_reproducible_from_the_seed():
    prefs = {name: pref(star=True) for name in "abcdefg"}
    deals = {tuple(sorted(assign_powers(prefs, POWERS, random.Random(seed)).items())) for seed in range(20)}
    assert len(deals) > 1
    assert assign_powers(prefs, POWERS, random.Random(3)) == assign_powers(prefs, POWERS, random.Random(3))


def test_players_without_wishes_take_the_leftovers():
    prefs = {"keen": pref("TURKEY"), "quiet": Preference()}
    for seed in range(10):
        assert assign_powers(prefs, POWERS, random.Random(seed))["keen"] == "TURKEY"


def test_errors():
    with pytest.raises(AssignmentError):
        assign_powers({n: Preference() for n in range(8)}, POWERS, random.Random(0))
    with pytest.raises(AssignmentError):
        rank_costs(pref("PRUSSIA"), POWERS)
