"""The year of the Renaissance game: three campaigns (spring, summer, fall), then the adjustments.

Each campaign is a movement phase followed by its retreats when a unit was dislodged; the
adjustments come every year, after the fall (units are paid for each year, so there is always
something to order). The classic Judge's ``SET NO SUMMER`` drops the summer campaign (and with
it the plague): spring, fall and the adjustments, as in Diplomacy.
"""

from __future__ import annotations

from judge.core.phase import Phase, PhaseType, Season


def campaigns(*, summer: bool = True) -> tuple[Season, ...]:
    """The movement seasons of a year, in order."""
    return (Season.SPRING, Season.SUMMER, Season.FALL) if summer else (Season.SPRING, Season.FALL)


def next_phase(done: Phase, *, dislodged: bool = False, summer: bool = True) -> Phase:
    """The phase after ``done``: its retreats if a unit was dislodged in its movement, else the
    next campaign, the adjustments after the fall, and the next spring after the adjustments."""
    if done.type is PhaseType.MOVEMENT and dislodged:
        return Phase.of(done.season, done.year, PhaseType.RETREAT)
    if done.type is PhaseType.ADJUSTMENT:
        return Phase.of(Season.SPRING, done.year + 1, PhaseType.MOVEMENT)
    seasons = campaigns(summer=summer)
    if done.season not in seasons:
        raise ValueError(f"{done} is not a campaign of this game (summer {'on' if summer else 'off'})")
    position = seasons.index(done.season)
    if position + 1 < len(seasons):
        return Phase.of(seasons[position + 1], done.year, PhaseType.MOVEMENT)
    return Phase.of(Season.WINTER, done.year, PhaseType.ADJUSTMENT)


def year_phases(year: int, *, summer: bool = True) -> tuple[Phase, ...]:
    """The movement phases and the adjustments of ``year`` (retreats only come when needed)."""
    moves = tuple(Phase.of(season, year, PhaseType.MOVEMENT) for season in campaigns(summer=summer))
    return (*moves, Phase.of(Season.WINTER, year, PhaseType.ADJUSTMENT))
