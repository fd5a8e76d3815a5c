"""The audit trail: settings changed, new addresses seen, takeovers, rollbacks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from enum import Enum
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.db.enums import AuditKind
from judge.db.models import AuditEvent, Game, Person


def json_value(value: Any) -> Any:
    """``value`` as something JSON can hold, so any setting's old and new values can be recorded."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(key): json_value(item) for key, item in value.items()}
    if isinstance(value, Sequence | set | frozenset):
        return [json_value(item) for item in value]
    return str(value)


class AuditRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def record(
        self,
        kind: AuditKind,
        now: datetime,
        *,
        game: Game | None = None,
        person: Person | None = None,
        actor: str = "",
        setting: str | None = None,
        old_value: Any = None,
        new_value: Any = None,
        detail: str | None = None,
    ) -> AuditEvent:
        event = AuditEvent(
            at=now,
            kind=kind,
            game_id=game.id if game is not None else None,
            person_id=person.id if person is not None else None,
            actor=actor,
            setting=setting,
            old_value=json_value(old_value),
            new_value=json_value(new_value),
            detail=detail,
        )
        self.session.add(event)
        self.session.flush()
        return event

    def record_new_address(
        self,
        address: str,
        now: datetime,
        *,
        person: Person | None = None,
        game: Game | None = None,
        detail: str | None = None,
    ) -> AuditEvent:
        """A sign-on (or any command) from an address not seen before for this person."""
        return self.record(
            AuditKind.NEW_ADDRESS, now, game=game, person=person, actor=address, detail=detail
        )

    def for_game(self, game: Game, *, kind: AuditKind | None = None) -> list[AuditEvent]:
        query = select(AuditEvent).where(AuditEvent.game_id == game.id)
        if kind is not None:
            query = query.where(AuditEvent.kind == kind)
        return list(self.session.scalars(query.order_by(AuditEvent.at, AuditEvent.id)))

    def for_person(self, person: Person) -> list[AuditEvent]:
        return list(
            self.session.scalars(
                select(AuditEvent)
                .where(AuditEvent.person_id == person.id)
                .order_by(AuditEvent.at, AuditEvent.id)
            )
        )
