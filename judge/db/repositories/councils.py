"""Councils (issue 17): members and their passwords, elections and votes, accusations.

Reachable as ``uow.councils``. ``settings``/``enabled`` read the game's
council options from ``games.extra_settings`` without any SQL, so code on
the hot path of ordinary games can ask "is this a council game?" for free.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import flag_modified

from judge.db.models import (
    CouncilAccusation,
    CouncilElection,
    CouncilMember,
    CouncilVote,
    Game,
    Person,
)
from judge.db.passwords import PasswordHashing

SETTINGS_KEY = "councils"
DEFAULT_SETTINGS: dict[str, Any] = {
    "enabled": True,
    "size": 3,
    "years": None,
    "election_hours": 24,
    "release_grace_hours": 24,
}
ACTIVE = "active"


def council_settings(game: Game) -> dict[str, Any] | None:
    """The game's council options (defaults filled in), or None when it is no council game."""
    raw = (game.extra_settings or {}).get(SETTINGS_KEY)
    if not isinstance(raw, dict) or not raw.get("enabled", True):
        return None
    return {**DEFAULT_SETTINGS, **raw}


def councils_enabled(game: Game) -> bool:
    """True when ``game`` is played by councils; reads no table.

    The one name of this test. In ``judge.app`` only the game hooks' resolver
    (:func:`judge.app.hooks.game_hooks.hooks_for`) and the audience's
    :func:`judge.app.audience.council_members.read_by_councils` ask it
    (``tests/app/test_game_hooks.py``).
    """
    return council_settings(game) is not None


class CouncilRepository:
    def __init__(self, session: Session, passwords: PasswordHashing) -> None:
        self.session = session
        self.passwords = passwords

    # -- settings (no SQL) ---------------------------------------------------

    def settings(self, game: Game) -> dict[str, Any] | None:
        return council_settings(game)

    def configure(self, game: Game, **options: Any) -> dict[str, Any]:
        """Turn councils on for ``game`` (or change options); returns the stored options."""
        settings = dict(game.extra_settings or {})
        current = dict(settings.get(SETTINGS_KEY) or {})
        current.update({"enabled": True, **options})
        settings[SETTINGS_KEY] = current
        game.extra_settings = settings
        flag_modified(game, "extra_settings")
        self.session.flush()
        return {**DEFAULT_SETTINGS, **current}

    def disable(self, game: Game) -> None:
        settings = dict(game.extra_settings or {})
        settings.pop(SETTINGS_KEY, None)
        game.extra_settings = settings
        flag_modified(game, "extra_settings")
        self.session.flush()

    # -- members ---------------------------------------------------------------

    def add_member(
        self,
        game: Game,
        power: str,
        person: Person | None,
        now: datetime,
        *,
        role: str = "ambassador",
        rank: int = 1,
        true_power: str | None = None,
        password: str | None = None,
        password_hash: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> CouncilMember:
        """A new member of ``power``'s council; ``password`` is hashed, never stored."""
        member = CouncilMember(
            game_id=game.id,
            power=power,
            person_id=person.id if person is not None else None,
            role=role,
            rank=rank,
            true_power=true_power,
            status=ACTIVE,
            joined_at=now,
            password_hash=self.passwords.hash(password) if password is not None else password_hash,
            extra=dict(extra or {}),
        )
        self.session.add(member)
        self.session.flush()
        return member

    def member(self, member_id: int) -> CouncilMember | None:
        return self.session.get(CouncilMember, member_id)

    def members(self, game: Game, *, power: str | None = None) -> list[CouncilMember]:
        """Every member of the game (or of one power), past ones included, by power then rank."""
        query = select(CouncilMember).where(CouncilMember.game_id == game.id)
        if power is not None:
            query = query.where(CouncilMember.power == power)
        return list(
            self.session.scalars(
                query.order_by(CouncilMember.power, CouncilMember.rank, CouncilMember.id)
            )
        )

    def active_members(self, game: Game, *, power: str | None = None) -> list[CouncilMember]:
        return [m for m in self.members(game, power=power) if m.status == ACTIVE]

    def seated(self, game: Game, *, power: str | None = None) -> list[CouncilMember]:
        """Members still on a council (active or accused), not those who left or were eliminated."""
        return [
            m
            for m in self.members(game, power=power)
            if m.status in (ACTIVE, "accused", "arrested") and m.left_at is None
        ]

    def general(self, game: Game, power: str) -> CouncilMember | None:
        for member in self.members(game, power=power):
            if member.role == "general" and member.status == ACTIVE:
                return member
        return None

    def member_of_person(self, game: Game, person: Person) -> CouncilMember | None:
        """The person's current place in the game (the newest one not left)."""
        rows = self.session.scalars(
            select(CouncilMember)
            .where(CouncilMember.game_id == game.id, CouncilMember.person_id == person.id)
            .order_by(CouncilMember.id.desc())
        )
        for member in rows:
            if member.left_at is None:
                return member
        return None

    def by_rank(self, game: Game, power: str, rank: int) -> CouncilMember | None:
        for member in self.members(game, power=power):
            if member.rank == rank and member.left_at is None:
                return member
        return None

    def person_of(self, member: CouncilMember) -> Person | None:
        """The member's registration (None if it was deleted)."""
        return self.session.get(Person, member.person_id) if member.person_id is not None else None

    def spies(self, game: Game) -> list[CouncilMember]:
        return [m for m in self.members(game) if m.true_power is not None]

    def check_password(self, member: CouncilMember, password: str) -> bool:
        if member.password_hash is None:
            return False
        ok = self.passwords.verify(member.password_hash, password)
        if ok and self.passwords.needs_rehash(member.password_hash):
            member.password_hash = self.passwords.hash(password)
        return ok

    def set_password(self, member: CouncilMember, password: str) -> None:
        member.password_hash = self.passwords.hash(password)
        self.session.flush()

    def set_role(self, member: CouncilMember, role: str, rank: int) -> None:
        member.role = role
        member.rank = rank
        self.session.flush()

    def set_status(self, member: CouncilMember, status: str, now: datetime | None = None) -> None:
        member.status = status
        if status in ("left", "eliminated"):
            member.left_at = now
        self.session.flush()

    # -- elections -------------------------------------------------------------

    def open_election(
        self,
        game: Game,
        power: str,
        year: int,
        kind: str,
        now: datetime,
        deadline: datetime,
        *,
        extra: dict[str, Any] | None = None,
    ) -> CouncilElection:
        election = CouncilElection(
            game_id=game.id,
            power=power,
            year=year,
            kind=kind,
            opened_at=now,
            deadline_at=deadline,
            state="open",
            extra=dict(extra or {}),
        )
        self.session.add(election)
        self.session.flush()
        return election

    def election(self, election_id: int) -> CouncilElection | None:
        return self.session.get(CouncilElection, election_id)

    def elections(
        self, game: Game, *, power: str | None = None, state: str | None = None
    ) -> list[CouncilElection]:
        query = select(CouncilElection).where(CouncilElection.game_id == game.id)
        if power is not None:
            query = query.where(CouncilElection.power == power)
        if state is not None:
            query = query.where(CouncilElection.state == state)
        return list(self.session.scalars(query.order_by(CouncilElection.id)))

    def open_elections(self, game: Game, *, power: str | None = None) -> list[CouncilElection]:
        return self.elections(game, power=power, state="open")

    def close_election(
        self,
        election: CouncilElection,
        now: datetime,
        *,
        outcome: str,
        winner: CouncilMember | None = None,
        state: str = "closed",
    ) -> None:
        election.state = state
        election.closed_at = now
        election.outcome = outcome
        election.winner_member_id = winner.id if winner is not None else None
        self.session.flush()

    def cast_vote(
        self,
        election: CouncilElection,
        voter: CouncilMember,
        candidate: CouncilMember | None,
        now: datetime,
        *,
        influence: CouncilElection | None = None,
    ) -> CouncilVote:
        """Record (or replace) ``voter``'s ballot in ``election``."""
        vote = self.session.scalars(
            select(CouncilVote).where(
                CouncilVote.election_id == election.id, CouncilVote.voter_member_id == voter.id
            )
        ).first()
        if vote is None:
            vote = CouncilVote(election_id=election.id, voter_member_id=voter.id, cast_at=now)
            self.session.add(vote)
        vote.candidate_member_id = candidate.id if candidate is not None else None
        vote.influence_election_id = influence.id if influence is not None else None
        vote.cast_at = now
        self.session.flush()
        return vote

    def votes(self, election: CouncilElection) -> list[CouncilVote]:
        return list(
            self.session.scalars(
                select(CouncilVote)
                .where(CouncilVote.election_id == election.id)
                .order_by(CouncilVote.id)
            )
        )

    def influence_votes(self, election: CouncilElection) -> list[CouncilVote]:
        """Ballots cast elsewhere whose influence vote targets ``election``."""
        return list(
            self.session.scalars(
                select(CouncilVote)
                .where(CouncilVote.influence_election_id == election.id)
                .order_by(CouncilVote.id)
            )
        )

    # -- accusations -----------------------------------------------------------

    def accuse(
        self,
        game: Game,
        power: str,
        accused: CouncilMember,
        accusers: list[CouncilMember],
        now: datetime,
    ) -> CouncilAccusation:
        accusation = CouncilAccusation(
            game_id=game.id,
            power=power,
            accused_member_id=accused.id,
            accuser_member_ids=[a.id for a in accusers],
            opened_at=now,
            state="open",
        )
        self.session.add(accusation)
        self.session.flush()
        return accusation

    def accusations(
        self, game: Game, *, power: str | None = None, state: str | None = None
    ) -> list[CouncilAccusation]:
        query = select(CouncilAccusation).where(CouncilAccusation.game_id == game.id)
        if power is not None:
            query = query.where(CouncilAccusation.power == power)
        if state is not None:
            query = query.where(CouncilAccusation.state == state)
        return list(self.session.scalars(query.order_by(CouncilAccusation.id)))

    def close_accusation(self, accusation: CouncilAccusation, state: str, now: datetime) -> None:
        accusation.state = state
        accusation.closed_at = now
        self.session.flush()
