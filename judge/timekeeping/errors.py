"""Errors of the time-keeping rules, precise enough to build a player-facing message from.

Like the core's errors they are ``ValueError`` subclasses: the player's input
(a date, a schedule value, an absence, a sign-on) was wrong, not the program.
``str(error)`` is already a sentence for the reply; attributes keep the parts
so a reply builder or a translation can phrase them differently.
"""

from __future__ import annotations

from datetime import datetime


class TimekeepingError(ValueError):
    """Base of every error raised by judge.timekeeping."""


class DateSyntaxError(TimekeepingError):
    """A date that cannot be read at all, or that names an impossible day."""

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__(f"Cannot read the date {text!r}: {reason}.")


class DateInPastError(TimekeepingError):
    """A date that must lie in the future (a deadline, an absence) but does not."""

    def __init__(self, text: str, when: datetime) -> None:
        self.text = text
        self.when = when
        super().__init__(
            f"The date {text!r} ({when:%a %b %d %Y %H:%M}) should be in the future, but it is in the past."
        )


class DateTooFarError(TimekeepingError):
    """A partly given date that lands further ahead than a player plausibly meant.

    The Judge refuses to guess more than 120 days ahead: a typo in the month
    must not silently push a deadline into next year.
    """

    def __init__(self, text: str, when: datetime, limit_days: int) -> None:
        self.text = text
        self.when = when
        self.limit_days = limit_days
        super().__init__(
            f"The date {text!r} would be {when:%a %b %d %Y %H:%M}, more than {limit_days} days ahead; "
            "if this is what you want, give the year, the month and the day."
        )


class ScheduleError(TimekeepingError):
    """A SET MOVE|RETREAT|ADJUST value that cannot be read or is out of range."""

    def __init__(self, parameter: str, value: str, reason: str) -> None:
        self.parameter = parameter
        self.value = value
        self.reason = reason
        super().__init__(f"Invalid value {value!r} for {parameter}: {reason}.")


class PhaseTimesError(TimekeepingError):
    """A SET DEADLINE/GRACE/START that would put start, deadline and grace out of order."""


class AbsenceError(TimekeepingError):
    """An absence that cannot be recorded; subclasses say why."""


class AbsenceOrderError(AbsenceError):
    """An absence that ends before it starts."""


class AbsenceInPastError(AbsenceError):
    """An absence that is already over."""


class TooManyAbsencesError(AbsenceError):
    """A player who already has the maximum number of pending absences."""

    def __init__(self, owner: str, limit: int) -> None:
        self.owner = owner
        self.limit = limit
        super().__init__(
            f"You already have {limit} absences pending; cancel one with SET NO ABSENCE first."
        )


class OverlappingAbsenceError(AbsenceError):
    """An absence that overlaps one the same player already has."""


class NoSuchAbsenceError(AbsenceError):
    """SET NO ABSENCE naming a day that none of the player's absences covers."""


class MaxAbsenceError(TimekeepingError):
    """SET MAX ABSENCE with a value outside what the Judge allows."""


class ThresholdError(TimekeepingError):
    """SET DEDICATION / ONTIMERAT / RESRAT with a value that may not be set."""


class SignOnRefused(TimekeepingError):
    """A sign-on (join or takeover) refused by the game's reliability thresholds."""


class DedicationTooLowError(SignOnRefused):
    def __init__(self, dedication: int, minimum: int) -> None:
        self.dedication = dedication
        self.minimum = minimum
        super().__init__(
            f"This game requires a dedication of at least {minimum}; yours is {dedication}."
        )


class OnTimeRatioTooLowError(SignOnRefused):
    def __init__(self, ratio: float, minimum: float) -> None:
        self.ratio = ratio
        self.minimum = minimum
        super().__init__(
            f"This game requires an on-time ratio of at least {minimum:.2f}; yours is {ratio:.2f}."
        )


class CivilDisorderRatioTooHighError(SignOnRefused):
    def __init__(self, ratio: float, maximum: float) -> None:
        self.ratio = ratio
        self.maximum = maximum
        super().__init__(
            f"This game accepts a civil-disorder ratio of at most {maximum:.2f}; yours is {ratio:.2f}."
        )
