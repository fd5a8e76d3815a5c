"""Where a council member's delays count from (seed 003, rules 7 and 8), as kept on his rows.

The seed's delays ("un an") are counted in seasons from a phase: when he
left his council, when his true nation fell, when he was cut off by an
accusation. Each is kept as a phase name (``"F1901M"``) in
``council_members.extra``; the waiting-list entry (``extra["waitlist"]``)
holds the powers he may be placed with and ``from_phase``, the first phase
he may sit again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from judge.core.errors import PhaseError
from judge.core.phase import Phase, PhaseType, Season

WAITLIST_KEY = "waitlist"
LEFT_PHASE = "left_phase"
"""``council_members.extra``: the phase in which the member left his council (eliminated, expelled, gone)."""
TRUE_NATION_FELL_PHASE = "true_nation_eliminated_phase"
"""``council_members.extra``: the phase in which a spy's true nation was eliminated (rule 7b)."""
EXCLUDED_PHASE = "excluded_phase"
"""``council_members.extra``: for a spy under arrest when his true nation fell, when he was cut off (rule 7b)."""


def phase_in(extra: dict[str, Any] | None, key: str) -> Phase | None:
    """The phase stored under ``key`` (``"S1902M"``) in a row's ``extra``, if any.

    A row written before delays were counted in seasons holds only a year
    (``<key minus _phase>_year``): read as that year's winter, the latest
    season, so an old row never makes a delay shorter than it was.
    """
    data = extra or {}
    stored = data.get(key)
    if isinstance(stored, str):
        try:
            return Phase.parse(stored)
        except PhaseError:
            return None
    year = data.get(key.removesuffix("_phase") + "_year")
    if isinstance(year, int):
        return Phase.of(Season.WINTER, year, PhaseType.ADJUSTMENT)
    return None


def waitlist_entry(powers: list[str], from_phase: Phase, reason: str, vetoed_by: Iterable[str]) -> dict[str, Any]:
    """The waiting-list record of a member (``council_members.extra["waitlist"]``)."""
    return {"powers": powers, "from_phase": str(from_phase), "reason": reason, "vetoed_by": sorted(set(vetoed_by))}
