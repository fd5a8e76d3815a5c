"""Orders not given (ONR), the release of orders and early elections (seed 003, rules 4 and 5).

* A General's orders are drafts until he releases them with ``READY``
  (:func:`release`); orders in which every unit holds need ``READY HOLD``,
  the explicit confirmation rule 5c asks for.
* :func:`hold_processing` (one line in the scheduler, before a phase is
  processed): before the deadline, a council game is processed early only
  when every General who owes orders has released them; at the deadline,
  each General who has not is counted an ONR (``council_members.onr_count``)
  and a grace opens (``release_grace_hours``, 24 by default): the phase's
  deadline moves to its end, and an early election of a substitute opens
  for that council, closing half-way through the grace (or as soon as every
  vote is in) so the substitute has the rest of it to prepare orders.
* The incumbent keeps the grace's whole 24 hours (rule 4: "s'il se
  manifeste au cours des 24h, pourra rendre ses ordres et provoquer
  l'annulation des élections anticipées"): his release cancels the early
  election while it is open, and once it has named a substitute he may
  still come back until the grace ends (:func:`come_back_if_due`: a READY,
  or orders in a mail with a READY), which annuls the election and makes
  him General again. So a substitute's orders are resolved at the end of
  the grace (rule 4: "leur résolution immédiate à l'issue du délai de
  grâce"), never sooner; an incumbent's release, as soon as every power
  has released.
* :func:`onr_counts` is what the master's ``COUNCIL ONR`` shows;
  :func:`master_replacement` is ``COUNCIL REPLACE``: the General steps down
  and an early election names his successor.

The state of the phase's release and grace is kept in
``games.extra_settings["council_release"]`` (phase, until, powers in
grace) and each General's release in ``council_members.extra["released"]``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm.attributes import flag_modified

from judge.app.audience.council_members import rule_member
from judge.app.councils.elections import (
    LAST_RANK,
    RELEASE_KEY,
    current_phase,
    mail_council,
    mail_member,
    member_label,
    open_election_of,
    renumber,
)
from judge.app.councils.elections import (
    announce as announce_election,
)
from judge.app.game_state import order_sheets as kept
from judge.app.game_state.boards import from_json
from judge.app.game_state.game_facts import power_name
from judge.app.game_state.game_rules import game_rules
from judge.app.game_state.variant_rules import game_map_of
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.services import Services
from judge.core.councils import elections as election_rules
from judge.core.councils.roles import Channel, may_order
from judge.core.orders import Hold
from judge.core.phase import Phase, PhaseType
from judge.db.database import UnitOfWork
from judge.db.enums import SeatStatus
from judge.db.models import CouncilElection, CouncilMember, Game
from judge.db.repositories.councils import council_settings
from judge.i18n import N_
from judge.lang.commands import CouncilReady

RELEASED_KEY = "released"
HOLD_KEY = "hold_confirmed"


class ReleaseRefused(Exception):
    def __init__(self, reason: str, **fields: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.fields = fields


def _state(game: Game) -> dict[str, Any]:
    raw = (game.extra_settings or {}).get(RELEASE_KEY)
    if isinstance(raw, dict) and raw.get("phase") == game.current_phase:
        return dict(raw)
    return {}


def _store(game: Game, state: dict[str, Any]) -> None:
    game.extra_settings = {**(game.extra_settings or {}), RELEASE_KEY: state}
    flag_modified(game, "extra_settings")


def is_released(member: CouncilMember | None, phase: str | None) -> bool:
    return member is not None and (member.extra or {}).get(RELEASED_KEY) == phase


def _all_hold(uow: UnitOfWork, game: Game, power: str) -> bool:
    """True when the power has units to order this movement phase and every order on file holds."""
    record = uow.phases.current(game)
    if record is None:
        return False
    position = from_json(record.position_before)
    if position.phase.type is not PhaseType.MOVEMENT or not any(u.power == power for u in position.units):
        return False
    game_map = game_map_of(game)
    submission = kept.current_submissions(uow, game, position.phase).get(power)
    orders = kept.sheet_of(submission, game_map, position.phase).effective(position, game_map, power, game_rules(game))
    return all(isinstance(order, Hold) for order in orders)


NOT_GENERAL = N_("Only your council's General-in-chief releases its orders (councils, rule 5). Nothing was done.")


def check_may_release(session: MailSession, member: CouncilMember) -> None:
    """Refuse at once (CommandRefused, in the reader's language) anyone but an active General.

    The incumbent of a running grace whose early election named a substitute
    comes back first (:func:`come_back_if_due`): his READY is his to give.
    """
    if session.game is not None:
        come_back_if_due(session, session.game, member, ready_in_mail=True)
    if may_order(rule_member(member)) is not None:
        raise CommandRefused(session.gettext(NOT_GENERAL))


def substituted_election(uow: UnitOfWork, game: Game, member: CouncilMember, now: datetime) -> CouncilElection | None:
    """The early election that named a substitute over ``member``, if he may still come back now.

    He may while the grace of his missed release runs (rule 4: the 24 hours
    are the incumbent's), he is the General counted the ONR, he still sits
    as an active member, and the substitute that election named is General.
    """
    state = _state(game)
    if not state.get("grace") or now >= datetime.fromisoformat(state["until"]):
        return None
    if (state.get("onr_members") or {}).get(member.power) != member.id or member.status != "active":
        return None
    general = uow.councils.general(game, member.power)
    if general is None or general.id == member.id:
        return None
    early = [
        e for e in uow.councils.elections(game, power=member.power)
        if e.kind == election_rules.EARLY and (e.extra or {}).get("phase") == game.current_phase
        and not (e.extra or {}).get("by_master")
    ]  # fmt: skip
    if not early or early[-1].state != "closed" or early[-1].winner_member_id != general.id:
        return None
    return early[-1]


def come_back_if_due(session: MailSession, game: Game, member: CouncilMember, *, ready_in_mail: bool) -> bool:
    """The incumbent comes back during the grace to hand in his orders: the early election is annulled.

    Only with a release in the mail (``ready_in_mail``: the READY itself,
    or orders in a mail that holds one): rule 4 gives him the 24 hours to
    "rendre ses ordres", not to reopen drafts. He becomes General again,
    the substitute sits again as an Ambassador (the incumbent's rank), and
    the council's active members and the masters are told; the substitute's
    orders on file stay on file for the incumbent to keep or change. Returns
    True when he came back.
    """
    if not ready_in_mail:
        return False
    uow = session.uow
    election = substituted_election(uow, game, member, session.now)
    if election is None:
        return False
    substitute = uow.councils.general(game, member.power)
    assert substitute is not None
    uow.councils.set_role(substitute, "ambassador", member.rank)
    uow.councils.set_role(member, "general", 0)
    renumber(uow, game, member.power)
    uow.councils.close_election(
        election, session.now, outcome=election_rules.CANCELLED, winner=substitute, state="cancelled"
    )
    mail_council(uow, session.services, game, member.power, session.now, INCUMBENT_BACK,
                 general=member_label(uow, member), substitute=member_label(uow, substitute))  # fmt: skip
    session.reply.epilogue += ["", session.gettext(CAME_BACK).format(
        power=power_name(member.power, session.language))]
    uow.flush()
    return True


INCUMBENT_BACK = N_(
    "{power}'s General-in-chief, {general}, came back during the grace to hand in his orders: the early "
    "election is annulled and {substitute} sits again as an Ambassador (councils, rule 4)."
)
CAME_BACK = N_(
    "You came back during the grace: the early election of {power}'s council is annulled and you are its "
    "General-in-chief again (councils, rule 4). The orders on file are the ones your READY releases."
)


def mail_has_ready(session: MailSession) -> bool:
    """Whether the mail holds a READY (its orders are then handed in, not drafts)."""
    return any(isinstance(command, CouncilReady) for command in session.commands)


def release(
    uow: UnitOfWork, services: Services, game: Game, member: CouncilMember, confirm_hold: bool, now: datetime
) -> bool:
    """The General releases his orders for the open phase; returns True if an early election was cancelled."""
    if may_order(rule_member(member)) is not None:
        raise ReleaseRefused(NOT_GENERAL)
    if _all_hold(uow, game, member.power) and not confirm_hold:
        raise ReleaseRefused(
            N_("Every unit of {power} holds: confirm that this is deliberate with READY HOLD (councils, rule 5c). "
               "The orders are not released."),
            power=member.power,
        )
    member.extra = {**(member.extra or {}), RELEASED_KEY: game.current_phase, HOLD_KEY: confirm_hold}
    cancelled = False
    election = open_election_of(uow, game, member.power)
    if election is not None and election.kind == election_rules.EARLY and not (election.extra or {}).get("by_master"):
        uow.councils.close_election(election, now, outcome=election_rules.CANCELLED, state="cancelled")
        mail_council(uow, services, game, member.power, now, EARLY_CANCELLED)
        cancelled = True
    uow.flush()
    return cancelled


EARLY_CANCELLED = N_(
    "{power}'s General-in-chief released his orders during the grace: the early election is cancelled "
    "(councils, rule 4)."
)
GRACE_OPENED = N_(
    "{power}'s General-in-chief did not release his orders by the deadline (an ONR, councils, rule 5). "
    "A grace runs until {until}: an early election names a substitute (vote with VOTE before {deadline}), "
    "who then prepares the orders; a release by the General (READY) at any time before the end of the "
    "grace cancels the election, even once it has named the substitute. At the end of the grace the phase "
    "is processed."
)


def _unreleased(uow: UnitOfWork, game: Game) -> list[str]:
    """Powers that owe orders whose General (if any) has not released them this phase."""
    record = uow.phases.current(game)
    if record is None:
        return []
    position = from_json(record.position_before)
    game_map = game_map_of(game)
    out = []
    for seat in game.seats:
        if seat.power is None or seat.status is not SeatStatus.PLAYING:
            continue
        if not kept.owes_orders(position, seat.power, game_map):
            continue
        general = uow.councils.general(game, seat.power)
        if general is None:
            continue
        if not is_released(general, game.current_phase):
            out.append(seat.power)
        elif not (general.extra or {}).get(HOLD_KEY) and _all_hold(uow, game, seat.power):
            out.append(seat.power)  # rule 5c: orders changed to all-hold after READY need READY HOLD
    return out


def hold_processing(uow: UnitOfWork, services: Services, game: Game, now: datetime) -> bool:
    """True when the phase must not be processed now (see the module's rules); opens the grace if due."""
    state = _state(game)
    if state.get("grace"):
        until = datetime.fromisoformat(state["until"])
        if now >= until:
            return False  # the end of the grace: processed with the orders on file (see end_of_grace)
        if _substitute_serving(uow, game, state):
            return True  # the incumbent's 24 hours run on; the substitute's orders resolve at their end
        return bool(set(state.get("powers", [])) & set(_unreleased(uow, game)))
    late = _unreleased(uow, game)
    if not late:
        return False
    deadline = game.deadline_at
    if deadline is not None and deadline.tzinfo is None:
        deadline = deadline.replace(tzinfo=UTC)
    if deadline is not None and now < deadline:
        warned = sorted(set(state.get("warned", [])) | set(late))
        _warn_unreleased(uow, services, game, now, [p for p in late if p not in state.get("warned", [])], deadline)
        _store(game, {"phase": game.current_phase, "until": deadline.isoformat(), "grace": False, "warned": warned})
        return True
    _open_grace(uow, services, game, now, late)
    return True


def _substitute_serving(uow: UnitOfWork, game: Game, state: dict[str, Any]) -> bool:
    """Whether a power of the grace is ordered by a substitute: its incumbent may still come back."""
    for power, member_id in (state.get("onr_members") or {}).items():
        general = uow.councils.general(game, power)
        if general is not None and general.id != member_id:
            return True
    return False


UNRELEASED_WARNING = N_(
    "Warning: {power}'s orders are drafts the judge has not been given: release them with READY (READY "
    "HOLD if every unit holds) before the deadline, {deadline}. Otherwise it is an ONR: a grace of 24 hours "
    "and an early election of a substitute (councils, rule 5)."
)


def _warn_unreleased(
    uow: UnitOfWork, services: Services, game: Game, now: datetime, powers: list[str], deadline: datetime
) -> None:
    """Each General whose unreleased orders hold the phase, told once per phase, before the deadline.

    The phase would be processed now (every power's orders are in) but for
    these releases: the General alone is warned, in his language.
    """
    for power in powers:
        general = uow.councils.general(game, power)
        if general is None:
            continue
        mail_member(uow, services, game, general, now, UNRELEASED_WARNING, channel=Channel.COUNCIL, deadline=deadline)


RELEASE_WITHDRAWN = N_(
    "Your release of {power}'s orders is withdrawn: every unit now holds, which needs READY HOLD "
    "(councils, rule 5c). The orders are drafts until you release them again."
)


def watch_release(session: MailSession, member: CouncilMember) -> None:
    """A General's orders in this mail: once they are stored, a release they void is withdrawn and said.

    Orders changed after READY keep the release, except orders in which
    every unit now holds after a plain READY (rule 5c asks READY HOLD): that
    release is withdrawn, and the reply says so, never in silence.
    """
    if session.release_watched:
        return
    session.release_watched = True
    # after every other finisher (the orders are stored by one of them): it queues itself last
    session.finishers.append(lambda: session.finishers.append(lambda: _withdraw_voided_release(session, member)))


def _withdraw_voided_release(session: MailSession, member: CouncilMember) -> None:
    game = session.game
    if game is None or not is_released(member, game.current_phase):
        return
    if (member.extra or {}).get(HOLD_KEY) or not _all_hold(session.uow, game, member.power):
        return
    member.extra = {**(member.extra or {}), RELEASED_KEY: None}
    session.reply.epilogue += ["", session.gettext(RELEASE_WITHDRAWN).format(
        power=power_name(member.power, session.language))]


def _open_grace(uow: UnitOfWork, services: Services, game: Game, now: datetime, late: list[str]) -> None:
    settings = council_settings(game) or {}
    grace = timedelta(hours=int(settings.get("release_grace_hours") or 24))
    until = now + grace
    vote_by = now + grace / 2
    year = Phase.parse(game.current_phase or "S1901M").year
    for power in late:
        general = uow.councils.general(game, power)
        if general is not None:
            general.onr_count += 1
        election = uow.councils.open_election(
            game, power, year, election_rules.EARLY, now, vote_by,
            extra={"outgoing": general.id if general is not None else None, "phase": game.current_phase},
        )  # fmt: skip
        mail_council(uow, services, game, power, now, GRACE_OPENED, until=until, deadline=vote_by)
        announce_election(uow, services, game, election, now)
    game.deadline_at = until
    game.grace_at = until
    onr = {}
    for power in late:
        general = uow.councils.general(game, power)
        if general is not None:
            onr[power] = general.id
    _store(game, {"phase": game.current_phase, "until": until.isoformat(), "grace": True, "powers": late,
                  "onr_members": onr})  # fmt: skip
    uow.flush()


DRAFTS_DISCARDED = "(orders not released by the General: drafts set aside, councils rule 5)"


def end_of_grace(uow: UnitOfWork, game: Game, now: datetime) -> None:
    """Called by the scheduler before it reads the orders: at the grace's end, set unreleased drafts aside."""
    state = _state(game)
    if not state.get("grace") or state.get("drafts_checked"):
        return
    if now < datetime.fromisoformat(state["until"]):
        return
    _discard_drafts(uow, game, state, now)
    _store(game, {**state, "drafts_checked": True})
    uow.flush()


def _discard_drafts(uow: UnitOfWork, game: Game, state: dict[str, Any], now: datetime) -> None:
    """At the end of the grace, an incumbent who never released gave no orders: his drafts do not count.

    A substitute's orders count as the seed says (handed in at the end of
    the grace), released or not; so do orders released by the incumbent.
    """
    for power, member_id in (state.get("onr_members") or {}).items():
        general = uow.councils.general(game, power)
        if general is None or general.id != member_id or is_released(general, game.current_phase):
            continue
        seat = uow.seats.by_power(game, power)
        record = uow.phases.current(game)
        if seat is None or record is None or game.current_phase is None:
            continue
        position = from_json(record.position_before)
        if position.phase.type is not PhaseType.MOVEMENT:
            continue  # retreats and adjustments: the judge's own rules for missing orders apply
        holds = [f"{unit.type} {unit.location} H" for unit in position.units if unit.power == power]
        uow.orders.submit(game, seat, game.current_phase, DRAFTS_DISCARDED, holds, now)


def onr_counts(uow: UnitOfWork, game: Game) -> list[tuple[str, CouncilMember]]:
    """Every member who has missed a release, with his power, most first."""
    members = [m for m in uow.councils.members(game) if m.onr_count > 0]
    return [(m.power, m) for m in sorted(members, key=lambda m: (-m.onr_count, m.power, m.id))]


def master_replacement(uow: UnitOfWork, services: Services, game: Game, power: str, now: datetime) -> CouncilMember:
    """The master requires a new General: the incumbent steps down and an early election opens."""
    general = uow.councils.general(game, power)
    if general is None:
        raise ReleaseRefused(N_("{power} has no General-in-chief to replace. Nothing was done."), power=power)
    if open_election_of(uow, game, power) is not None:
        raise ReleaseRefused(N_("{power}'s council is already holding an election. Nothing was done."), power=power)
    uow.councils.set_role(general, "ambassador", LAST_RANK)
    renumber(uow, game, power)
    mail_member(uow, services, game, general, now, GENERAL_REPLACED)
    open_successor_election(uow, services, game, power, now, excluded=[general.id])
    return general


GENERAL_REPLACED = N_(
    "The master requires a new General-in-chief for {power} (councils, rule 5): you step down and sit "
    "as an Ambassador; an early election names your successor, and you may not be elected."
)


def open_successor_election(
    uow: UnitOfWork, services: Services, game: Game, power: str, now: datetime, *, excluded: list[int]
) -> CouncilElection | None:
    """An election of a new General the master's act calls for; None if the council already holds one.

    It is not the early election of a missed release: a READY does not
    cancel it (``by_master``), and the ``excluded`` members may not be
    elected. The council is told by the election's notice.
    """
    if open_election_of(uow, game, power) is not None:
        return None
    settings = council_settings(game) or {}
    deadline = now + timedelta(hours=int(settings.get("election_hours") or 24))
    election = uow.councils.open_election(
        game, power, current_phase(game).year, election_rules.EARLY, now, deadline,
        extra={"by_master": True, "excluded": excluded},
    )  # fmt: skip
    announce_election(uow, services, game, election, now)
    return election
