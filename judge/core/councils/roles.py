"""Who on a council may do what (seed 003, rule 1 and rule 3).

* The General-in-chief alone submits orders, proposes and votes draws and
  concedes for the power; during his term he talks to nobody but his own
  Ambassadors.
* The Ambassadors negotiate with the Ambassadors of the other powers; they
  may neither order nor vote. A press to one other power reaches all its
  Ambassadors (the bilateral room); a press to several powers is a
  multi-party room, where each nation has at most one Ambassador: it reaches
  one Ambassador of each (the first, by rank). A broadcast is the seed's
  common room (tour de Babel): every Ambassador of every power.
* A member under accusation or arrest (seed 003, rule 6) is cut off: no
  orders, no votes, no press (the tribunal channel is not press).

Each ``may_*`` function returns None when allowed, or the :class:`Refusal`
naming the rule, from which the app builds the player's sentence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

GENERAL = "general"
AMBASSADOR = "ambassador"
ACTIVE = "active"
SEATED_STATUSES = frozenset({"active", "accused", "arrested"})


class Refusal(StrEnum):
    """Why a council member may not do something: one value per rule of seed 003."""

    ORDERS_GENERAL_ONLY = "orders-general-only"
    DRAW_GENERAL_ONLY = "draw-general-only"
    CONCEDE_GENERAL_ONLY = "concede-general-only"
    GENERAL_PRESS_OWN_AMBASSADORS_ONLY = "general-press-own-ambassadors-only"
    CUT_OFF = "cut-off"
    PRESS_TO_OBSERVERS = "press-to-observers"


@dataclass(frozen=True, slots=True)
class Member:
    """What the rules need to know of a council member."""

    id: int
    power: str
    role: str
    rank: int
    status: str = ACTIVE

    @property
    def is_general(self) -> bool:
        return self.role == GENERAL

    @property
    def cut_off(self) -> bool:
        return self.status != ACTIVE


def _general_only(member: Member, refusal: Refusal) -> Refusal | None:
    if member.cut_off:
        return Refusal.CUT_OFF
    return None if member.is_general else refusal


def may_order(member: Member) -> Refusal | None:
    """Orders (and their release) are the General's alone."""
    return _general_only(member, Refusal.ORDERS_GENERAL_ONLY)


def may_vote_draw(member: Member) -> Refusal | None:
    """Draw proposals and votes are the General's alone."""
    return _general_only(member, Refusal.DRAW_GENERAL_ONLY)


def may_concede(member: Member) -> Refusal | None:
    """A concession speaks for the power: the General's alone (seed 003, rule 10)."""
    return _general_only(member, Refusal.CONCEDE_GENERAL_ONLY)


@dataclass(frozen=True, slots=True)
class PressRequest:
    """A press as the rules see it: to its own council, to other powers, or to everyone."""

    own_council: bool = False
    """Addressed to the sender's own power: the council's private room."""
    powers: tuple[str, ...] = ()
    """Other powers addressed (empty with ``own_council`` alone)."""
    broadcast: bool = False
    observers: bool = False
    masters: bool = False


def may_press(sender: Member, request: PressRequest) -> Refusal | None:
    """Whether ``sender`` may send ``request`` (press to the master alone is always allowed)."""
    if request.masters and not (
        request.own_council or request.powers or request.broadcast or request.observers
    ):
        return None
    if sender.cut_off:
        return Refusal.CUT_OFF
    if sender.is_general:
        if request.broadcast or request.powers or request.observers:
            return Refusal.GENERAL_PRESS_OWN_AMBASSADORS_ONLY
        return None
    if request.observers:
        return Refusal.PRESS_TO_OBSERVERS
    return None


def _ambassadors(members: Iterable[Member]) -> list[Member]:
    return sorted(
        (m for m in members if m.role == AMBASSADOR and m.status == ACTIVE),
        key=lambda m: (m.rank, m.id),
    )


def press_readers(
    sender: Member, request: PressRequest, councils: Mapping[str, Sequence[Member]]
) -> tuple[Member, ...]:
    """The council members who read an allowed press (never the sender; masters apart).

    ``councils`` maps each power to its members. The sender's own council
    room reaches the other active members of his council (General and
    Ambassadors); a press to one power reaches all its Ambassadors; to
    several powers, the first Ambassador of each (one per nation on a
    multi-party room); a broadcast, every Ambassador (the sender's fellows too).
    """
    chosen: list[Member] = []
    if request.own_council:
        chosen += [
            m for m in councils.get(sender.power, ()) if m.id != sender.id and m.status == ACTIVE
        ]
    if request.broadcast:
        for members in councils.values():
            chosen += _ambassadors(members)
    elif len(request.powers) == 1:
        chosen += _ambassadors(councils.get(request.powers[0], ()))
    else:
        for power in request.powers:
            first = _ambassadors(councils.get(power, ()))[:1]
            chosen += first
    seen: set[int] = set()
    out: list[Member] = []
    for member in chosen:
        if member.id not in seen and member.id != sender.id:
            seen.add(member.id)
            out.append(member)
    return tuple(out)
