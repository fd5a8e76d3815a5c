"""Accusation of spying and high treason, arrest and escape (seed 003, rules 6 to 8).

* Rule 6a: the General can never be accused.
* Rule 6b: once two members of a council tell the master they accuse the
  other Ambassador ("le 2nd Ambassadeur": the one who is not among them),
  he is cut off (council, negotiation, vote) and may plead before his
  council in a tribunal channel. Any Ambassador may be accused, whatever
  his rank: ranks only order the members, and change with elections and
  replacements.
* Rule 6c: one of the two accusers changing his mind rehabilitates him.
* Rule 8: after a year under arrest without rehabilitation, he may escape:
  leave the game, or join the waiting list (a loyal member goes to any
  foreign power with a vacancy, a real spy only to his true nation), and
  take a seat no sooner than a year after his exclusion from the old
  council (his arrest: rule 6b "exclu(e) du Conseil").
* Rule 7: a spy whose true nation is eliminated may join the waiting list
  for any foreign power unless the infiltrated power vetoes it, no sooner
  than a year after his exclusion (if under arrest) or after the
  elimination; a spy inside an eliminated power may join the waiting list
  for his true nation only, no sooner than a year after leaving.

Every "un an" of the seed is counted in seasons (:func:`a_year_after`): the
same season a year later, never the next calendar year.

Each ``*_refusal`` function returns None when allowed, or the reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum

from judge.core.councils.roles import Member
from judge.core.phase import Phase, PhaseType, Season

ACCUSERS_NEEDED = 2


class AccuseRefusal(StrEnum):
    ACCUSER_NOT_ACTIVE = "accuser-not-active"
    OTHER_COUNCIL = "other-council"
    SELF = "self"
    GENERAL_IMMUNE = "general-immune"
    NOT_SEATED = "not-seated"


class EscapeRefusal(StrEnum):
    NOT_ARRESTED = "not-arrested"
    TOO_SOON = "too-soon"


class WaitlistRefusal(StrEnum):
    VETOED = "vetoed"
    NOT_TRUE_NATION = "not-true-nation"
    OWN_FORMER_POWER = "own-former-power"
    TOO_SOON = "too-soon"


def accuse_refusal(accuser: Member, accused: Member) -> AccuseRefusal | None:
    """None if ``accuser`` may accuse ``accused`` (rules 6a and 6b): any Ambassador of his own council."""
    if accuser.cut_off:
        return AccuseRefusal.ACCUSER_NOT_ACTIVE
    if accuser.power != accused.power:
        return AccuseRefusal.OTHER_COUNCIL
    if accuser.id == accused.id:
        return AccuseRefusal.SELF
    if accused.is_general:
        return AccuseRefusal.GENERAL_IMMUNE
    if accused.status not in ("active", "accused"):
        return AccuseRefusal.NOT_SEATED
    return None


def accusation_effective(accusers: Iterable[int]) -> bool:
    """Two distinct accusers make the accusation take effect (rule 6b)."""
    return len(set(accusers)) >= ACCUSERS_NEEDED


def after_withdrawal(accusers: Sequence[int], withdrawing: int, was_effective: bool) -> tuple[list[int], bool]:
    """The accusers left after ``withdrawing`` changes his mind, and whether the accused is rehabilitated.

    Rule 6c: once in effect, one accuser withdrawing is enough to
    rehabilitate; before that, withdrawing simply takes back the first
    accusation.
    """
    left = [a for a in accusers if a != withdrawing]
    rehabilitated = was_effective and len(left) < len(accusers)
    return left, rehabilitated


def a_year_after(since: Phase) -> Phase:
    """The first phase of the same season a year later: the seed's "un an", counted in seasons.

    Arrested in the spring of 1901, a member may escape from the spring of
    1902 (not in the fall of 1901, nor in January's adjustments); a delay
    that starts in the winter's adjustments ends at the next winter's.
    """
    opening = PhaseType.ADJUSTMENT if since.season is Season.WINTER else PhaseType.MOVEMENT
    return Phase.of(since.season, since.year + 1, opening)


def escape_refusal(status: str, arrested_at: Phase, now: Phase) -> EscapeRefusal | None:
    """None if a member under arrest since ``arrested_at`` may escape at ``now`` (rule 8)."""
    if status not in ("accused", "arrested"):
        return EscapeRefusal.NOT_ARRESTED
    if now < a_year_after(arrested_at):
        return EscapeRefusal.TOO_SOON
    return None


def waitlist_powers(
    *,
    former_power: str,
    true_power: str | None,
    reason: str,
    alive: Iterable[str],
) -> list[str]:
    """The powers a player joining the waiting list may be placed with (rules 7b, 7c, 8).

    ``reason`` is ``"escape"`` (rule 8: a spy only to his true nation, a loyal
    member to any foreign power), ``"true-nation-eliminated"`` (rule 7b: any
    foreign power) or ``"infiltrated-eliminated"`` (rule 7c: his true nation only).
    """
    living = sorted(set(alive))
    if reason == "infiltrated-eliminated" or (reason == "escape" and true_power is not None):
        return [true_power] if true_power is not None and true_power in living else []
    return [p for p in living if p != former_power and p != true_power]


def placement_refusal(
    *,
    power: str,
    allowed: Sequence[str],
    vetoed_by: Iterable[str],
    from_phase: Phase,
    now: Phase,
) -> WaitlistRefusal | None:
    """None if a waiting-list player may take a seat on ``power``'s council at ``now``.

    ``vetoed_by`` are the powers that vetoed this player (rule 7b: the
    infiltrated power's veto keeps him off the list altogether);
    ``from_phase`` is :func:`a_year_after` the moment his delay counts from.
    """
    if set(vetoed_by):
        return WaitlistRefusal.VETOED
    if power not in allowed:
        return WaitlistRefusal.NOT_TRUE_NATION if len(allowed) <= 1 else WaitlistRefusal.OWN_FORMER_POWER
    if now < from_phase:
        return WaitlistRefusal.TOO_SOON
    return None
