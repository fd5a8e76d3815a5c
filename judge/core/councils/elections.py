"""Counting a council's election of its General (seed 003, rule 4).

* Each member still sitting on the council (not accused, arrested, gone)
  votes for a member of the council or abstains.
* The member with strictly the most votes is elected.
* On a tie at the top (a 1-1-1 split, or nobody voting at all), the
  anonymous influence votes cast from other councils decide, but only among
  the tied members and only if one of them has strictly more of them:
  influence never overturns a clear result at home.
* A tie that influence does not break re-elects the outgoing General; at the
  very first election (no outgoing General) it leaves the power in civil
  disorder for a year (no General: nobody may order).

Who may vote, who may be elected and where an influence vote may go are
answered by :func:`vote_refusal` and :func:`influence_refusal`, each
returning the rule's reason or None.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from judge.core.councils.roles import Member

ELECTED = "elected"
RE_ELECTED_TIE = "re-elected-tie"
CIVIL_DISORDER_TIE = "civil-disorder-tie"
CANCELLED = "cancelled"

FIRST = "first"
REGULAR = "regular"
EARLY = "early"


class VoteRefusal(StrEnum):
    """Why a ballot is refused: one value per rule."""

    NOT_A_VOTER = "not-a-voter"
    """The voter is not an active member of this council (accused members lose the vote)."""
    NOT_A_CANDIDATE = "not-a-candidate"
    """The candidate is not an active member of this council."""
    INFLUENCE_NEEDS_ABSTENTION = "influence-needs-abstention"
    INFLUENCE_OWN_COUNCIL = "influence-own-council"
    INFLUENCE_NOT_OPEN = "influence-not-open"
    INFLUENCE_ONLY_REGULAR = "influence-only-regular"


@dataclass(frozen=True, slots=True)
class Ballot:
    """One home ballot: ``candidate`` is a member id, or None to abstain."""

    voter: int
    candidate: int | None


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of an election: who is General now, and why."""

    outcome: str
    winner: int | None
    counts: dict[int, int] = field(default_factory=dict)
    """Home votes per candidate (every eligible candidate, zero included)."""
    tied: tuple[int, ...] = ()
    """The candidates tied at the top, when there was a tie."""
    influence_decided: bool = False

    @property
    def civil_disorder(self) -> bool:
        return self.outcome == CIVIL_DISORDER_TIE


def eligible(members: Iterable[Member]) -> list[Member]:
    """Members who may vote and be elected: the active ones (rule 6b: the accused lose the vote)."""
    return [m for m in members if not m.cut_off]


def vote_refusal(voter: Member, candidate: Member | None, council: Sequence[Member]) -> VoteRefusal | None:
    """None if ``voter`` may cast this home ballot in ``council``'s election (candidate None: abstain)."""
    seated = {m.id for m in eligible(council)}
    if voter.id not in seated:
        return VoteRefusal.NOT_A_VOTER
    if candidate is not None and candidate.id not in seated:
        return VoteRefusal.NOT_A_CANDIDATE
    return None


def influence_refusal(
    voter: Member, home_candidate: int | None, target_power: str, target_open: bool, target_kind: str
) -> VoteRefusal | None:
    """None if ``voter`` (who votes ``home_candidate`` at home) may influence ``target_power``'s election.

    Only a member who abstains at home may, only in another country, only in
    an open yearly (or first) election: an early election names a substitute
    for a missed release and is the council's own business.
    """
    if home_candidate is not None:
        return VoteRefusal.INFLUENCE_NEEDS_ABSTENTION
    if target_power == voter.power:
        return VoteRefusal.INFLUENCE_OWN_COUNCIL
    if not target_open:
        return VoteRefusal.INFLUENCE_NOT_OPEN
    if target_kind == EARLY:
        return VoteRefusal.INFLUENCE_ONLY_REGULAR
    return None


def _leaders(counts: dict[int, int], among: Iterable[int]) -> list[int]:
    pool = list(among)
    if not pool:
        return []
    best = max(counts.get(c, 0) for c in pool)
    return sorted(c for c in pool if counts.get(c, 0) == best)


def count(
    council: Sequence[Member],
    ballots: Sequence[Ballot],
    influence: Sequence[int],
    *,
    outgoing: int | None,
    first: bool,
    excluded: Iterable[int] = (),
) -> Result:
    """Count an election of ``council`` (see the module's rules).

    ``ballots`` from voters who are not eligible, or for candidates who are
    not, are ignored (a member accused after voting loses his vote).
    ``influence`` lists the candidate ids named by influence votes from other
    councils. ``outgoing`` is the General before the election (None at the
    first election or when the post is vacant). ``excluded`` members vote
    but may not be elected (a General the master removed, rule 5).
    """
    voters = {m.id for m in eligible(council)}
    barred = set(excluded)
    seated = [m.id for m in eligible(council) if m.id not in barred]
    seated_set = set(seated)
    counts: dict[int, int] = dict.fromkeys(seated, 0)
    for ballot in ballots:
        if ballot.voter in voters and ballot.candidate in seated_set:
            counts[ballot.candidate] += 1
    leaders = _leaders(counts, seated)
    if len(leaders) == 1:
        return Result(ELECTED, leaders[0], counts)
    tied = tuple(leaders)
    pull = Counter(c for c in influence if c in tied)
    swayed = _leaders(dict(pull), tied)
    if len(swayed) == 1 and pull[swayed[0]] > 0:
        return Result(ELECTED, swayed[0], counts, tied, influence_decided=True)
    if first or outgoing is None:
        return Result(CIVIL_DISORDER_TIE, None, counts, tied)
    if outgoing in seated_set:
        return Result(RE_ELECTED_TIE, outgoing, counts, tied)
    # The outgoing General has left or is cut off: nobody can be re-elected.
    return Result(CIVIL_DISORDER_TIE, None, counts, tied)


def everyone_voted(council: Sequence[Member], voters: Iterable[int]) -> bool:
    """True when every eligible member has a ballot in: the election may close before its deadline."""
    return {m.id for m in eligible(council)} <= set(voters)
