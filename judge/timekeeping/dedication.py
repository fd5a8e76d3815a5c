"""Dedication: the reliability record that follows a player from game to game.

Points (njudge's conf.c defaults, which sites may change):

* +3 to each power that owed orders and was punctual, -1 to each late one,
  at the first late notice of a phase (once per phase, not per daily notice);
* +3 to each power that owed orders (and is not in civil disorder) when a
  phase with no late notice is processed at most one hour after its deadline;
* -49 when a power is abandoned (with the -1 of the late notice, the -50 of
  the Judge's docs);
* -100 when a power goes into civil disorder at the end of grace.

Every processed phase counts, whoever processed it (the scheduler, or the
master's PROCESS, :data:`ProcessReason.MASTER`): each power that owed orders
has a turn due, on time unless it was late (a late notice named it, it went
into civil disorder, or its orders were still incomplete when the phase was
processed). A power whose orders were incomplete at a processing that no
late notice announced (a master's PROCESS before the deadline or before the
first notice) is charged the -1 of a late notice, once per phase, and marked
late in the game (:func:`missed_unannounced`) as the notice would have.

Unrated games change nothing. The ratios: on-time ratio = turns on time /
turns due; CD ratio = (civil disorders + abandonments) / (games started +
takeovers), capped at 1.0, as njudge's code counts them. A newcomer (0/0)
passes both ratio gates; dedication starts at 0.

Choices: a phase processed within the hour after a late notice does not also
pay the +3 of on-time processing (njudge pays both, which rewards the same
punctuality twice and even pays the late power); here each phase pays its
punctual powers once, and only the powers whose orders were complete. A
master's PROCESS pays the punctual powers' +3 at any time when no late
notice went out (under MANUAL PROCESS the master's delay is not theirs).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from judge.timekeeping.errors import (
    CivilDisorderRatioTooHighError,
    DedicationTooLowError,
    OnTimeRatioTooLowError,
    ThresholdError,
)
from judge.timekeeping.lateness import (
    Abandonment,
    LateNotice,
    PhaseClock,
    Process,
    ProcessReason,
    TimekeepingEvent,
)

ON_TIME_WINDOW = timedelta(hours=1)
CREATE_DEDICATION = -10
DEFAULT_MIN_DEDICATION = -10000


@dataclass(frozen=True, slots=True)
class DedicationPoints:
    """The points scale; the defaults are the Judge's."""

    on_time: int = 3
    late: int = -1
    abandoned: int = -49
    civil_disorder: int = -100


DEFAULT_POINTS = DedicationPoints()


def points_for_events(clock: PhaseClock, events: Iterable[TimekeepingEvent], now: datetime, *,
                      rated: bool, points: DedicationPoints = DEFAULT_POINTS) -> dict[str, int]:
    """Dedication changes per power for ``events`` = ``due(clock, now)``, carried out at ``now``.

    ``clock`` is the state *before* ``record``. Powers map to their player of
    record by the caller; powers not mentioned are unchanged.
    """
    if not rated:
        return {}
    delta: Counter[str] = Counter()
    events = tuple(events)
    notice_this_time = any(isinstance(e, LateNotice) for e in events)
    for event in events:
        if isinstance(event, LateNotice) and event.number == 1:
            for letter in event.late:
                delta[letter] += points.late
            for letter in event.on_time:
                delta[letter] += points.on_time
        elif isinstance(event, Abandonment):
            for letter in event.powers:
                delta[letter] += points.abandoned
        elif isinstance(event, Process):
            for letter in event.newly_in_civil_disorder:
                delta[letter] += points.civil_disorder
            if notice_this_time:
                continue  # the notice paid the punctual and charged the late
            for letter in missed_unannounced(clock):
                delta[letter] += points.late
            in_time = event.reason is ProcessReason.MASTER or now <= clock.times.deadline + ON_TIME_WINDOW
            punctual = (event.reason is not ProcessReason.GRACE_EXPIRED
                        and clock.late_notices_sent == 0 and in_time)
            if punctual:
                for status in clock.holders:
                    if status.complete:
                        delta[status.power] += points.on_time
    return {letter: value for letter, value in delta.items() if value}


def missed_unannounced(clock: PhaseClock) -> frozenset[str]:
    """Powers that owed orders, had none complete when the phase was processed, and that no late
    notice had named: they missed the phase, and are charged and marked late for it here.

    ``clock`` is the state at the processing, the notices sent this phase recorded in it.
    """
    if clock.late_notices_sent:
        return frozenset()
    return clock.incomplete


def turns_of_phase(clock: PhaseClock, process: Process) -> dict[str, bool]:
    """For the on-time ratio: each power that owed orders this phase -> was it on time?

    Powers already in civil disorder before the phase are nobody's turn; a power whose orders
    were incomplete when the phase was processed was late, whoever processed it. ``clock`` is the state before ``record``.
    """
    late = clock.late_powers | process.newly_in_civil_disorder | clock.incomplete
    return {status.power: status.power not in late for status in clock.holders}


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player's reliability record across games."""

    dedication: int = 0
    turns_due: int = 0
    turns_on_time: int = 0
    games_started: int = 0
    takeovers: int = 0
    civil_disorders: int = 0
    abandonments: int = 0

    @property
    def on_time_ratio(self) -> float:
        """Turns on time / turns due; 1.0 for a newcomer, who has not been late yet."""
        if self.turns_due == 0:
            return 1.0
        return self.turns_on_time / self.turns_due

    @property
    def civil_disorder_ratio(self) -> float:
        """(CDs + abandonments) / (games started + takeovers), at most 1.0; 0.0 for a newcomer."""
        games = self.games_started + self.takeovers
        if games == 0:
            return 0.0
        return min(1.0, (self.civil_disorders + self.abandonments) / games)

    def add_points(self, points: int, *, rated: bool = True) -> PlayerRecord:
        return replace(self, dedication=self.dedication + points) if rated else self

    def add_turn(self, on_time: bool, *, rated: bool = True) -> PlayerRecord:
        if not rated:
            return self
        return replace(self, turns_due=self.turns_due + 1,
                       turns_on_time=self.turns_on_time + (1 if on_time else 0))

    def add_game(self, *, takeover: bool = False) -> PlayerRecord:
        if takeover:
            return replace(self, takeovers=self.takeovers + 1)
        return replace(self, games_started=self.games_started + 1)

    def add_abandonment(self, *, rated: bool = True) -> PlayerRecord:
        return replace(self, abandonments=self.abandonments + 1) if rated else self

    def add_civil_disorder(self, *, rated: bool = True) -> PlayerRecord:
        return replace(self, civil_disorders=self.civil_disorders + 1) if rated else self

    def describe(self) -> str:
        """One line for WHOIS / INFO PLAYER / LIST."""
        games = self.games_started + self.takeovers
        return (f"Dedication: {self.dedication}  "
                f"On-time ratio: {self.on_time_ratio:.2f} ({self.turns_on_time}/{self.turns_due})  "
                f"CD ratio: {self.civil_disorder_ratio:.2f} "
                f"({self.civil_disorders + self.abandonments}/{games})")


def apply_points(records: Mapping[str, PlayerRecord], delta_by_player: Mapping[str, int], *,
                 rated: bool) -> dict[str, PlayerRecord]:
    """Add ``delta_by_player`` to each player's record (unrated games change nothing)."""
    updated = dict(records)
    for player, value in delta_by_player.items():
        updated[player] = updated.get(player, PlayerRecord()).add_points(value, rated=rated)
    return updated


@dataclass(frozen=True, slots=True)
class SignOnThresholds:
    """A game's gates: SET DEDICATION n, SET ONTIMERAT r, SET RESRAT r."""

    min_dedication: int = DEFAULT_MIN_DEDICATION
    min_on_time_ratio: float = 0.0
    max_civil_disorder_ratio: float = 1.0


def check_sign_on(record: PlayerRecord, thresholds: SignOnThresholds) -> None:
    """Refuse a join or takeover below the game's thresholds (at the minimum is admitted)."""
    if record.dedication < thresholds.min_dedication:
        raise DedicationTooLowError(record.dedication, thresholds.min_dedication)
    if record.on_time_ratio < thresholds.min_on_time_ratio:
        raise OnTimeRatioTooLowError(record.on_time_ratio, thresholds.min_on_time_ratio)
    if record.civil_disorder_ratio > thresholds.max_civil_disorder_ratio:
        raise CivilDisorderRatioTooHighError(record.civil_disorder_ratio,
                                             thresholds.max_civil_disorder_ratio)


def check_may_create(record: PlayerRecord, minimum: int = CREATE_DEDICATION) -> None:
    """CREATE needs a dedication of at least -10."""
    if record.dedication < minimum:
        raise DedicationTooLowError(record.dedication, minimum)


def validate_dedication_threshold(value: int, setter: PlayerRecord) -> int:
    """SET DEDICATION n: no higher than the setter's own dedication, so a master cannot set a bar he does not meet."""
    if value > setter.dedication:
        raise ThresholdError(
            f"You cannot require a dedication of {value}: it may not exceed your own ({setter.dedication})."
        )
    return value


def validate_ratio(name: str, value: float) -> float:
    """SET ONTIMERAT r / SET RESRAT r: a ratio between 0 and 1."""
    if not 0.0 <= value <= 1.0 or value != value:
        raise ThresholdError(f"{name} must be a ratio between 0 and 1, not {value}.")
    return value
