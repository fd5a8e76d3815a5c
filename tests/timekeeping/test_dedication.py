"""Dedication points, ratios and sign-on gates."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from judge.timekeeping.deadlines import PhaseTimes
from judge.timekeeping.dedication import (
    DEFAULT_POINTS,
    DedicationPoints,
    PlayerRecord,
    SignOnThresholds,
    apply_points,
    check_may_create,
    check_sign_on,
    points_for_events,
    turns_of_phase,
    validate_dedication_threshold,
    validate_ratio,
)
from judge.timekeeping.errors import (
    CivilDisorderRatioTooHighError,
    DedicationTooLowError,
    OnTimeRatioTooLowError,
    ThresholdError,
)
from judge.timekeeping.lateness import (
    PhaseClock,
    PowerStatus,
    Process,
    begin_phase,
    due,
    orders_received,
    record,
)

PARIS = ZoneInfo("Europe/Paris")
DEADLINE = datetime(2026, 11, 19, 23, 30, tzinfo=PARIS)
TIMES = PhaseTimes(DEADLINE - timedelta(days=3), DEADLINE, DEADLINE + timedelta(hours=167))
H = timedelta(hours=1)


def phase(*, nmr: bool = False, cd: str = "") -> PhaseClock:
    powers = [PowerStatus(p, owes_orders=True, civil_disorder=p in cd) for p in "EFG"]
    return begin_phase(TIMES, powers, delay=timedelta(minutes=30), nmr=nmr)


def complete(clock: PhaseClock, letters: str, at: datetime) -> PhaseClock:
    for letter in letters:
        clock = orders_received(clock, letter, complete=True, all_units_ordered=True, at=at)
    return clock


def play(clock: PhaseClock, until: datetime, *, rated: bool = True) -> tuple[PhaseClock, dict[str, int]]:
    """Step through every due moment, summing the points as the scheduler would."""
    total: dict[str, int] = {}
    now = clock.times.start
    while now <= until:
        events = due(clock, now)
        for letter, value in points_for_events(clock, events, now, rated=rated).items():
            total[letter] = total.get(letter, 0) + value
        clock = record(clock, events, now)
        now += H / 2
    return clock, total


def test_judge_default_points() -> None:
    assert DedicationPoints(on_time=3, late=-1, abandoned=-49, civil_disorder=-100) == DEFAULT_POINTS


def test_early_processing_pays_every_punctual_power() -> None:
    clock = complete(phase(), "EFG", DEADLINE - 10 * H)
    _, points = play(clock, DEADLINE)
    assert points == {"E": 3, "F": 3, "G": 3}


def test_processing_within_an_hour_of_the_deadline_still_counts_as_on_time() -> None:
    from dataclasses import replace

    clock = replace(complete(phase(), "EFG", DEADLINE - 10 * H), master_wait=True)
    processed = due(clock, DEADLINE)
    assert points_for_events(clock, processed, DEADLINE + H, rated=True) == {"E": 3, "F": 3, "G": 3}
    assert points_for_events(clock, processed, DEADLINE + 2 * H, rated=True) == {}


def test_civil_disorder_powers_from_before_earn_nothing() -> None:
    clock = complete(phase(cd="G"), "EF", DEADLINE - 10 * H)
    _, points = play(clock, DEADLINE)
    assert points == {"E": 3, "F": 3}


def test_late_then_in_before_grace() -> None:
    clock = complete(phase(), "EF", DEADLINE - 10 * H)
    clock, points = play(clock, DEADLINE + 2 * H)
    assert points == {"E": 3, "F": 3, "G": -1}  # the first late notice only
    clock = complete(clock, "G", DEADLINE + 30 * H)
    _, more = play(clock, DEADLINE + 31 * H)
    assert more == {}  # a later second notice costs nothing, processing pays nothing extra


def test_nmr_late_power_is_abandoned_then_put_in_civil_disorder() -> None:
    clock = complete(phase(nmr=True), "EF", DEADLINE - 10 * H)
    clock, points = play(clock, TIMES.grace)
    assert points == {"E": 3, "F": 3, "G": -1 - 49 - 100}
    assert clock.power("G").civil_disorder


def test_nonmr_late_power_is_abandoned_only() -> None:
    clock = complete(phase(), "EF", DEADLINE - 10 * H)
    _, points = play(clock, TIMES.grace + 100 * H)
    assert points == {"E": 3, "F": 3, "G": -50}


def test_unrated_games_change_nothing() -> None:
    clock = complete(phase(nmr=True), "EF", DEADLINE - 10 * H)
    _, points = play(clock, TIMES.grace, rated=False)
    assert points == {}
    assert PlayerRecord().add_turn(False, rated=False) == PlayerRecord()
    assert PlayerRecord().add_civil_disorder(rated=False) == PlayerRecord()


def test_turns_of_phase_feed_the_on_time_ratio() -> None:
    clock = complete(phase(nmr=True, cd="E"), "F", DEADLINE - 10 * H)
    clock_before = clock
    now = clock.times.start
    while not any(isinstance(e, Process) for e in due(clock, now)):
        clock_before = record(clock, due(clock, now), now)
        clock = clock_before
        now += H
    process = next(e for e in due(clock, now) if isinstance(e, Process))
    assert turns_of_phase(clock_before, process) == {"F": True, "G": False}


def test_ratios() -> None:
    newcomer = PlayerRecord()
    assert newcomer.on_time_ratio == 1.0 and newcomer.civil_disorder_ratio == 0.0
    record_ = PlayerRecord()
    for on_time in (True, True, True, False):
        record_ = record_.add_turn(on_time)
    assert record_.on_time_ratio == 0.75
    record_ = record_.add_game().add_game(takeover=True).add_civil_disorder()
    assert record_.civil_disorder_ratio == 0.5
    record_ = record_.add_abandonment().add_abandonment()
    assert record_.civil_disorder_ratio == 1.0  # capped
    assert "On-time ratio: 0.75 (3/4)" in record_.describe()
    assert "CD ratio: 1.00 (3/2)" in record_.describe()


def test_apply_points_to_players() -> None:
    records = {"alice@example.org": PlayerRecord(dedication=5)}
    updated = apply_points(records, {"alice@example.org": -50, "bob@example.org": 3}, rated=True)
    assert updated["alice@example.org"].dedication == -45
    assert updated["bob@example.org"].dedication == 3
    assert apply_points(records, {"alice@example.org": -50}, rated=False) == records


def test_sign_on_gates() -> None:
    gates = SignOnThresholds(min_dedication=0, min_on_time_ratio=0.8, max_civil_disorder_ratio=0.2)
    check_sign_on(PlayerRecord(), gates)  # a newcomer at 0 is admitted by a gate of 0
    with pytest.raises(DedicationTooLowError, match="at least 0; yours is -1"):
        check_sign_on(PlayerRecord(dedication=-1), gates)
    with pytest.raises(OnTimeRatioTooLowError):
        check_sign_on(PlayerRecord(turns_due=10, turns_on_time=7), gates)
    with pytest.raises(CivilDisorderRatioTooHighError):
        check_sign_on(PlayerRecord(games_started=4, civil_disorders=1), gates)
    check_sign_on(PlayerRecord(dedication=-9999, turns_due=10, turns_on_time=0,
                               games_started=1, civil_disorders=1), SignOnThresholds())


def test_create_needs_minus_ten() -> None:
    check_may_create(PlayerRecord(dedication=-10))
    with pytest.raises(DedicationTooLowError):
        check_may_create(PlayerRecord(dedication=-11))


def test_threshold_settings() -> None:
    assert validate_dedication_threshold(10, PlayerRecord(dedication=10)) == 10
    with pytest.raises(ThresholdError, match="your own"):
        validate_dedication_threshold(11, PlayerRecord(dedication=10))
    assert validate_ratio("ONTIMERAT", 0.9) == 0.9
    for bad in (-0.1, 1.5, float("nan")):
        with pytest.raises(ThresholdError):
            validate_ratio("RESRAT", bad)


def test_a_master_s_process_counts_the_phase_like_any_processing() -> None:
    from judge.timekeeping.dedication import missed_unannounced
    from judge.timekeeping.lateness import ProcessReason

    clock = complete(phase(), "EF", DEADLINE - 10 * H)
    process = Process(ProcessReason.MASTER)
    # Before the deadline: the punctual paid, the missing power charged as a late notice would.
    assert points_for_events(clock, [process], DEADLINE - 5 * H, rated=True) == {"E": 3, "F": 3, "G": -1}
    assert turns_of_phase(clock, process) == {"E": True, "F": True, "G": False}
    assert missed_unannounced(clock) == {"G"}
    # After the first late notice: the notice paid and charged already, the turn is still counted.
    noticed, _ = play(clock, DEADLINE + H)
    assert points_for_events(noticed, [process], DEADLINE + 5 * H, rated=True) == {}
    assert missed_unannounced(noticed) == frozenset()
    assert turns_of_phase(noticed, process) == {"E": True, "F": True, "G": False}
