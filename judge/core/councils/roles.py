"""Who on a council may do what (seed 003, rule 1 and rule 3).

* The General-in-chief alone submits orders, proposes and votes draws and
  concedes for the power; during his term he talks to nobody but his own
  Ambassadors.
* The Ambassadors negotiate with the Ambassadors of the other powers; they
  may neither order nor vote. A press to one other power reaches all its
  Ambassadors (the bilateral room); a press to several powers is a
  multi-party room, where each nation has at most one Ambassador, the one
  its Ambassadors chose to sit there by writing in it (the first by rank
  until one has). A broadcast is the seed's
  common room (tour de Babel): every Ambassador of every power.
* A council of one (a game begun short of players with FORCE BEGIN, or a
  council whose other members have all left) is played by its member
  alone: he is its General and his own Ambassador, so he orders and
  negotiates (:func:`negotiators`), as an ordinary player would; else his
  power could speak to nobody and hear nothing.
* A member under accusation or arrest (seed 003, rule 6) is cut off: no
  orders, no votes, no press (the tribunal channel is not press).
* What a member reads (:func:`sees`): the game's public mail while he is
  in the game; his council's mail only while he sits on it as an active
  member; a tribunal's lines as an active member of that council or as the
  accused himself. A member who left (escaped, expelled, resigned) reads
  nothing more of the game.

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


class Channel(StrEnum):
    """What kind of mail a council member may be given (see :func:`sees`)."""

    GAME = "game"
    """What every player of the game reads: results, the master's announcements to all, the end."""
    COUNCIL = "council"
    """His council's room and his power's own mail: the council press, elections, notices to the power."""
    TRIBUNAL = "tribunal"
    """The tribunal of one accused member: his council and himself."""
    OWN = "own"
    """What happens to one member himself (his place on the council, his seat, his departure, his
    elimination): his alone, whatever his status, since he is its subject."""
    END = "end"
    """The end of the game and its final summary, the councils' story with every secret the seed
    lets out: every member who ever sat, those who left too (a spy who stopped playing may be among
    the winners, rule 9: "même si ... l'espion(ne) aurait dû cesser de jouer")."""


IN_GAME_STATUSES = frozenset({"active", "accused", "arrested", "eliminated"})
"""Who still reads the game's public mail (an eliminated power's members, as an eliminated player does)."""


class Refusal(StrEnum):
    """Why a council member may not do something: one value per rule of seed 003."""

    ORDERS_GENERAL_ONLY = "orders-general-only"
    DRAW_GENERAL_ONLY = "draw-general-only"
    CONCEDE_GENERAL_ONLY = "concede-general-only"
    GENERAL_PRESS_OWN_AMBASSADORS_ONLY = "general-press-own-ambassadors-only"
    CUT_OFF = "cut-off"
    PRESS_TO_OBSERVERS = "press-to-observers"
    WAIT_GENERAL_ONLY = "wait-general-only"


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


def sees(member: Member, channel: Channel, *, accused: int | None = None) -> bool:
    """Whether ``member`` may be given mail of ``channel`` now (seed 003, rules 1 and 6).

    The accused is cut off from his council (rule 6b: "exclu du Conseil et
    de tous les salons") but not from the game's public mail; he reads his
    own tribunal (``accused``: its member id). Members who left read nothing
    more, until the end of the game (:attr:`Channel.END`), which everyone reads.
    """
    if channel in (Channel.END, Channel.OWN):
        return True
    if channel is Channel.GAME:
        return member.status in IN_GAME_STATUSES
    if channel is Channel.TRIBUNAL and accused is not None and member.id == accused:
        return member.status in SEATED_STATUSES
    return member.status == ACTIVE


def may_order(member: Member) -> Refusal | None:
    """Orders (and their release) are the General's alone."""
    return _general_only(member, Refusal.ORDERS_GENERAL_ONLY)


def may_vote_draw(member: Member) -> Refusal | None:
    """Draw proposals and votes are the General's alone."""
    return _general_only(member, Refusal.DRAW_GENERAL_ONLY)


def may_wait(member: Member) -> Refusal | None:
    """When the orders are resolved (now, or at the deadline: SET WAIT) is the General's choice
    (seed 003, rule 5a: "ok pour résolution immédiate / à la D.L.")."""
    return _general_only(member, Refusal.WAIT_GENERAL_ONLY)


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


def may_press(sender: Member, request: PressRequest, *, alone: bool = False) -> Refusal | None:
    """Whether ``sender`` may send ``request`` (press to the master alone is always allowed).

    ``alone``: the sender is the only member seated on his council, its
    General and its Ambassador at once (:func:`negotiators`).
    """
    if request.masters and not (
        request.own_council or request.powers or request.broadcast or request.observers
    ):
        return None
    if sender.cut_off:
        return Refusal.CUT_OFF
    if sender.is_general and not alone:
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


def sits_alone(member: Member, council: Iterable[Member]) -> bool:
    """Whether ``member`` is the only member seated on his council (``council``: its seated members)."""
    seated = [m for m in council if m.status in SEATED_STATUSES]
    return len(seated) == 1 and seated[0].id == member.id


def negotiators(members: Sequence[Member]) -> list[Member]:
    """Who negotiates for a nation (``members``: its council's seated members), first by rank.

    Its active Ambassadors; a council of one is played by its member alone,
    who is its General and its Ambassador at once (a game begun short of
    players: FORCE BEGIN fills the councils evenly, so with fewer players
    than powers twice over some councils have one member).
    """
    ambassadors = _ambassadors(members)
    if ambassadors:
        return ambassadors
    if len(members) == 1 and sits_alone(members[0], members) and members[0].status == ACTIVE:
        return [members[0]]
    return []


def room_key(sender_power: str, powers: Iterable[str]) -> str:
    """The multi-party room a press to several powers speaks in: its nations, the sender's too."""
    return ",".join(sorted({sender_power, *powers}))


def room_holder(members: Sequence[Member], holder: int | None) -> Member | None:
    """The one Ambassador who sits for a nation in a multi-party room (seed 003, rule 3).

    The nation's Ambassadors share the rooms out among themselves: the one
    who last wrote in the room (``holder``) sits in it while he is an active
    Ambassador; until one of them has written, the first by rank does.
    """
    ambassadors = negotiators(members)
    chosen = [m for m in ambassadors if m.id == holder]
    candidates = chosen or ambassadors
    return candidates[0] if candidates else None


def press_readers(
    sender: Member,
    request: PressRequest,
    councils: Mapping[str, Sequence[Member]],
    holders: Mapping[str, int] | None = None,
) -> tuple[Member, ...]:
    """The council members who read an allowed press (never the sender; masters apart).

    ``councils`` maps each power to its members. The sender's own council
    room reaches the other active members of his council (General and
    Ambassadors); a press to one power reaches all its Ambassadors (the
    bilateral room); to several powers, one Ambassador of each nation, the
    one who sits in that room (:func:`room_holder`; ``holders`` maps each
    power to its member who last wrote there); a broadcast, every
    Ambassador (the sender's fellows too). A council of one is read by its
    member (:func:`negotiators`).
    """
    chosen: list[Member] = []
    if request.own_council:
        chosen += [
            m for m in councils.get(sender.power, ()) if m.id != sender.id and m.status == ACTIVE
        ]
    if request.broadcast:
        for members in councils.values():
            chosen += negotiators(members)
    elif len(request.powers) == 1:
        chosen += negotiators(councils.get(request.powers[0], ()))
    else:
        for power in request.powers:
            holder = room_holder(councils.get(power, ()), (holders or {}).get(power))
            chosen += [holder] if holder is not None else []
    seen: set[int] = set()
    out: list[Member] = []
    for member in chosen:
        if member.id not in seen and member.id != sender.id:
            seen.add(member.id)
            out.append(member)
    return tuple(out)
