"""The operator's console acting on people: edit a registration, merge two people, block one.

Use cases behind `judge person edit|merge|block|unblock`. Each change is
written to the audit log (kind ``admin``) with the operator's name. Addresses
are read with :func:`judge.mail.addresses.canonical_address`, the judge's
one definition of an address, so the console stores what the mail side would.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import select, update

from judge.app.people.blocking import block_of, lift_block, set_block
from judge.app.reports.person import LEVELS
from judge.db.database import UnitOfWork
from judge.db.enums import AuditKind
from judge.db.models import GameMaster, Person, PersonAddress, Seat
from judge.db.models.base import Base
from judge.i18n import LANGUAGES
from judge.mail.addresses import canonical_address

TEXT_FIELDS = ("name", "phone", "site", "postal_address", "country", "sex")
EDITABLE = (*TEXT_FIELDS, "level", "language", "time_zone", "primary", "add_address", "remove_address")
"""What `judge person edit` changes: the registration's fields, and the person's addresses."""

RECORD_FIELDS = (
    "dedication", "turns_due", "turns_on_time", "turns_late", "games_started", "takeovers",
    "abandonments", "civil_disorders", "resignations",
)


class PersonRefusal(Exception):
    """The change cannot be made; the message says why, for the operator."""


def find_person(uow: UnitOfWork, text: str) -> Person:
    address = canonical_address(text)
    person = uow.people.by_address(address)
    if person is None:
        raise PersonRefusal(f"nobody registered writes from {address}")
    return person


def edit_person(
    uow: UnitOfWork, person: Person, field: str, value: str, operator: str, now: datetime
) -> tuple[Any, Any]:
    """Change one field (or address) of ``person``; returns (old, new) as recorded."""
    field = field.strip().lower()
    old: Any
    new: Any
    if field in TEXT_FIELDS:
        if field == "name" and not value.strip():
            raise PersonRefusal("a person's name cannot be empty")
        old, new = getattr(person, field), value.strip()
        setattr(person, field, new)
    elif field == "level":
        if value.lower() not in LEVELS:
            raise PersonRefusal(f"level is one of {', '.join(LEVELS)}")
        old, new = person.level, value.lower()
        person.level = new
    elif field == "language":
        if value.lower() not in LANGUAGES:
            raise PersonRefusal(f"language is one of {', '.join(LANGUAGES)}")
        old, new = person.language, value.lower()
        person.language = new
    elif field == "time_zone":
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise PersonRefusal(f"{value!r} is not a time zone (e.g. Europe/Paris)") from None
        old, new = person.time_zone, value
        person.time_zone = new
    elif field == "primary":
        address = canonical_address(value)
        if address not in [a.address for a in person.addresses]:
            raise PersonRefusal(f"{address} is not one of {person.name}'s addresses")
        old, new = person.primary_address, address
        for link in person.addresses:
            link.is_primary = link.address == address
    elif field == "add_address":
        address = canonical_address(value)
        holder = uow.people.by_address(address)
        if holder is not None and holder.id != person.id:
            raise PersonRefusal(f"{address} is already {holder.name}'s: merge the two people instead")
        old, new = None, address
        uow.people.add_address(person, address, now)
    elif field == "remove_address":
        address = canonical_address(value)
        links = [a for a in person.addresses if a.address == address]
        if not links:
            raise PersonRefusal(f"{address} is not one of {person.name}'s addresses")
        if len(person.addresses) == 1:
            raise PersonRefusal(f"{address} is {person.name}'s only address")
        old, new = address, None
        person.addresses.remove(links[0])
        if links[0].is_primary:
            person.addresses[0].is_primary = True
    else:
        raise PersonRefusal(f"{field!r} is not a field the console edits ({', '.join(EDITABLE)})")
    person.updated_at = now
    uow.audit.record(
        AuditKind.ADMIN, now, person=person, actor=operator, setting=f"person.{field}",
        old_value=old, new_value=new, detail=f"judge person edit {field}",
    )
    uow.flush()
    return old, new


def merge_people(uow: UnitOfWork, keep: Person, gone: Person, operator: str, now: datetime) -> list[str]:
    """Make ``gone`` part of ``keep``: addresses, seats, masterships, history and record; ``gone`` is deleted.

    Refused when both play in the same game (one person cannot hold two
    seats of a game) or one plays where the other is master. A mastership of
    a game both master is kept once.
    Returns the addresses moved.
    """
    if keep.id == gone.id:
        raise PersonRefusal("those addresses are already the same person")
    kept_games = {s.game_id for s in uow.session.scalars(select(Seat).where(Seat.person_id == keep.id))}
    for seat in uow.session.scalars(select(Seat).where(Seat.person_id == gone.id)):
        if seat.game_id in kept_games:
            raise PersonRefusal(f"both play in game {seat.game.name}: eject one first")
    kept_masters = {m.game_id for m in uow.session.scalars(select(GameMaster).where(GameMaster.person_id == keep.id))}
    gone_games = {s.game_id for s in uow.session.scalars(select(Seat).where(Seat.person_id == gone.id))}
    gone_masters = {m.game_id for m in uow.session.scalars(select(GameMaster).where(GameMaster.person_id == gone.id))}
    if (kept_games & gone_masters) or (gone_games & kept_masters):
        raise PersonRefusal("one plays in a game the other masters: a master plays no power")
    for master in list(uow.session.scalars(select(GameMaster).where(GameMaster.person_id == gone.id))):
        if master.game_id in kept_masters:
            uow.session.delete(master)
    uow.flush()
    moved = [a.address for a in gone.addresses]
    gone_name, gone_id = gone.name, gone.id
    uow.session.execute(
        update(PersonAddress).where(PersonAddress.person_id == gone.id)
        .values(person_id=keep.id, is_primary=False)
    )
    for table in Base.metadata.sorted_tables:
        if table.name in ("people", "person_addresses"):
            continue
        for column in table.columns:
            if any(fk.column.table.name == "people" for fk in column.foreign_keys):
                uow.session.execute(
                    update(table).where(column == gone.id).values({column.name: keep.id})
                )
    for name in RECORD_FIELDS:
        setattr(keep, name, getattr(keep, name) + getattr(gone, name))
    block = block_of(gone)
    if block is not None and block_of(keep) is None:
        set_block(keep, str(block.get("by", operator)), now, str(block.get("reason", "")))
    keep.updated_at = now
    uow.session.expire(keep, ["addresses"])
    uow.audit.record(
        AuditKind.ADMIN, now, person=keep, actor=operator, setting="person.merge",
        old_value={"id": gone_id, "name": gone_name, "addresses": moved}, new_value=keep.id,
        detail=f"judge person merge: {gone_name} (#{gone_id}) merged into {keep.name} (#{keep.id})",
    )
    uow.session.expire(gone)  # its addresses and absences moved: the delete must not cascade to them
    uow.session.delete(gone)
    uow.flush()
    return moved


def block_person(uow: UnitOfWork, person: Person, operator: str, now: datetime, *, blocked: bool, reason: str = "") -> bool:
    """Block or unblock ``person``; returns False when there was nothing to change."""
    before = block_of(person) is not None
    if before == blocked:
        return False
    if blocked:
        set_block(person, operator, now, reason)
    else:
        lift_block(person)
    uow.audit.record(
        AuditKind.ADMIN, now, person=person, actor=operator, setting="person.blocked",
        old_value=before, new_value=blocked, detail=reason or None,
    )
    uow.flush()
    return True
