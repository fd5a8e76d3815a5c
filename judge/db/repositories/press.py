"""Press and broadcasts, draw and concession votes, diary entries."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import cast

from sqlalchemy import Table, bindparam, delete, select
from sqlalchemy.orm import Session

from judge.db.enums import DrawVoteKind, PressKind
from judge.db.errors import NotFoundError
from judge.db.models import DiaryEntry, DrawVote, Game, PressMessage, Seat
from judge.db.one_parameter_in import in_parameter


class PressRepository:
    def __init__(self, session: Session) -> None:
        self.session = session
        self._voteless: set[int] = set()
        """Games known in this transaction to have no draw vote (:meth:`read_votes_ahead`)."""

    def post(
        self,
        game: Game,
        body: str,
        now: datetime,
        *,
        kind: PressKind = PressKind.PRESS,
        phase: str | None = None,
        sender_seat: Seat | None = None,
        sender_role: str = "power",
        sender_address: str | None = None,
        recipients: Iterable[str] = (),
        shown_recipients: Iterable[str] | None = None,
        grey: bool = False,
        mail_in_id: int | None = None,
        council_role: str | None = None,
        council_rank: int | None = None,
    ) -> PressMessage:
        """Store a message as sent; who gets which copy is decided by the press rules, not here.

        ``council_role``/``council_rank``: a council member's seat, as his readers' header named it."""
        message = PressMessage(
            game_id=game.id,
            phase=phase if phase is not None else game.current_phase,
            kind=kind,
            sender_seat_id=sender_seat.id if sender_seat is not None else None,
            sender_role=sender_role,
            sender_power=sender_seat.power if sender_seat is not None else None,
            sender_address=sender_address,
            sender_member_role=council_role,
            sender_member_rank=council_rank,
            recipients=list(recipients),
            shown_recipients=list(shown_recipients) if shown_recipients is not None else None,
            grey=grey,
            body=body,
            sent_at=now,
            mail_in_id=mail_in_id,
        )
        self.session.add(message)
        self.session.flush()
        return message

    def for_game(
        self, game: Game, *, since: datetime | None = None, until: datetime | None = None
    ) -> list[PressMessage]:
        """The game's press in the order it was sent (for HISTORY and SUMMARY)."""
        query = select(PressMessage).where(PressMessage.game_id == game.id)
        if since is not None:
            query = query.where(PressMessage.sent_at >= since)
        if until is not None:
            query = query.where(PressMessage.sent_at < until)
        return list(self.session.scalars(query.order_by(PressMessage.sent_at, PressMessage.id)))

    # -- draw and concession votes --------------------------------------------------

    def vote(
        self, game: Game, seat: Seat, kind: DrawVoteKind, now: datetime, *, powers: str = ""
    ) -> DrawVote:
        """Cast or replace the seat's vote (one standing vote per seat)."""
        vote = self.session.scalars(
            select(DrawVote).where(DrawVote.game_id == game.id, DrawVote.seat_id == seat.id)
        ).one_or_none()
        if vote is None:
            self._voteless.discard(game.id)
            vote = DrawVote(game_id=game.id, seat_id=seat.id, phase="", kind=kind, cast_at=now)
            self.session.add(vote)
        vote.kind = kind
        vote.powers = powers
        vote.phase = game.current_phase or ""
        vote.cast_at = now
        self.session.flush()
        return vote

    def votes(self, game: Game) -> list[DrawVote]:
        return list(
            self.session.scalars(
                select(DrawVote).where(DrawVote.game_id == game.id).order_by(DrawVote.seat_id)
            )
        )

    def withdraw_vote(self, game: Game, seat: Seat) -> None:
        self.session.execute(
            delete(DrawVote).where(DrawVote.game_id == game.id, DrawVote.seat_id == seat.id)
        )

    def read_votes_ahead(self, game_ids: Iterable[int]) -> None:
        """Which of these games have draw votes, in one query: :meth:`clear_votes` then needs no
        statement for those that have none (the scheduler's batch of due games, whose votes
        nothing else in its transaction casts but :meth:`vote`, which forgets what was read)."""
        ids = set(game_ids)
        if ids:
            voting = set(self.session.scalars(_VOTING_GAMES, {"voting_games": sorted(ids)}))
            self._voteless |= ids - voting

    def clear_votes(self, game: Game) -> int:
        """Votes last one phase: cleared at processing, RESUME and when DIAS is toggled."""
        session = self.session
        if game.id in self._voteless:
            return 0  # read ahead: nothing to clear
        if any(type(loaded) is DrawVote for loaded in session.identity_map.values()):
            # Votes loaded in this session: the ORM statement removes them from it too.
            result = session.execute(_CLEAR_VOTES, {"game_id": game.id})
        else:
            # None loaded (processing): the same DELETE on the table, without the ORM's bulk
            # machinery; pending changes flushed first, as the ORM statement's autoflush would.
            if session.autoflush:
                session.flush()
            result = session.execute(_CLEAR_VOTES_ON_TABLE, {"game_id": game.id})
        return int(result.rowcount)  # type: ignore[attr-defined]

    # -- diaries ------------------------------------------------------------------------

    def add_diary(
        self,
        game: Game,
        body: str,
        now: datetime,
        *,
        seat: Seat | None = None,
        person_id: int | None = None,
    ) -> DiaryEntry:
        entry = DiaryEntry(
            game_id=game.id,
            seat_id=seat.id if seat is not None else None,
            person_id=person_id if person_id is not None else (seat.person_id if seat else None),
            phase=game.current_phase,
            body=body,
            created_at=now,
        )
        self.session.add(entry)
        self.session.flush()
        return entry

    def diary(self, game: Game, *, seat: Seat | None = None) -> list[DiaryEntry]:
        """Entries not deleted, oldest first; one seat's, or the whole game's (published at the end)."""
        query = select(DiaryEntry).where(
            DiaryEntry.game_id == game.id, DiaryEntry.deleted_at.is_(None)
        )
        if seat is not None:
            query = query.where(DiaryEntry.seat_id == seat.id)
        return list(self.session.scalars(query.order_by(DiaryEntry.created_at, DiaryEntry.id)))

    def delete_diary(self, entry_id: int, seat: Seat, now: datetime) -> None:
        """DIARY DELETE n: only the seat's own entry; kept, marked deleted."""
        entry = self.session.get(DiaryEntry, entry_id)
        if entry is None or entry.seat_id != seat.id or entry.deleted_at is not None:
            raise NotFoundError("diary entry", entry_id)
        entry.deleted_at = now
        self.session.flush()


_CLEAR_VOTES = delete(DrawVote).where(DrawVote.game_id == bindparam("game_id"))
"""A game's draw votes (built once: cleared at every processing)."""
_VOTES = cast(Table, DrawVote.__table__)
_CLEAR_VOTES_ON_TABLE = delete(_VOTES).where(_VOTES.c.game_id == bindparam("game_id"))
_VOTING_GAMES = (
    select(_VOTES.c.game_id).where(in_parameter(_VOTES.c.game_id, "voting_games")).distinct()
)
""":meth:`PressRepository.read_votes_ahead`'s query (built once)."""
