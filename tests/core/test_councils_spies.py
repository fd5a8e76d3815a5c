"""Seed 003, rule 2: one spy per council, drawn at random, working for another power."""

from __future__ import annotations

import random

from judge.core.councils.spies import derangement, draw_spies

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
COUNCILS = {power: [10 * i + k for k in range(3)] for i, power in enumerate(POWERS)}


def test_one_spy_per_council_working_for_another_power() -> None:
    spies = draw_spies(COUNCILS, seed=1234)
    assert sorted(s.infiltrated for s in spies) == sorted(POWERS)
    for spy in spies:
        assert spy.true_power != spy.infiltrated
        assert spy.member in COUNCILS[spy.infiltrated]
    # every power has exactly one spy working for it
    assert sorted(s.true_power for s in spies) == sorted(POWERS)


def test_the_draw_replays_from_its_seed_and_varies_with_it() -> None:
    assert draw_spies(COUNCILS, seed=99) == draw_spies(COUNCILS, seed=99)
    draws = {draw_spies(COUNCILS, seed=seed) for seed in range(20)}
    assert len(draws) > 10


def test_derangement_never_maps_a_power_to_itself() -> None:
    rng = random.Random(5)
    for _ in range(200):
        mapping = derangement(POWERS, rng)
        assert all(a != b for a, b in mapping.items())
        assert sorted(mapping.values()) == sorted(POWERS)


def test_every_member_can_be_drawn() -> None:
    chosen = {
        s.member
        for seed in range(200)
        for s in draw_spies(COUNCILS, seed)
        if s.infiltrated == "FRANCE"
    }
    assert chosen == set(COUNCILS["FRANCE"])


def test_a_single_council_has_no_spy() -> None:
    assert draw_spies({"FRANCE": [1, 2, 3]}, seed=1) == ()


def test_a_council_of_one_hosts_no_spy_and_has_none_working_for_it() -> None:
    councils = {**COUNCILS, "TURKEY": [99]}
    for seed in range(30):
        spies = draw_spies(councils, seed)
        assert "TURKEY" not in {s.infiltrated for s in spies}
        assert "TURKEY" not in {s.true_power for s in spies}
        assert len(spies) == 6
