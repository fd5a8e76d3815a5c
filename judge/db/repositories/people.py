"""People: registration, addresses (IAMALSO), address claims awaiting proof, absences, the dedication record."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, cast

from sqlalchemy import Integer, Table, Update, bindparam, delete, func, select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.util import identity_key

from judge.db.errors import DuplicateError, NotFoundError
from judge.db.models import Absence, AddressClaim, Game, Person, PersonAddress, WhoisLookup
from judge.db.one_parameter_in import in_parameter

REGISTRATION_FIELDS = frozenset(
    {
        "name",
        "phone",
        "site",
        "site_id",
        "postal_address",
        "country",
        "level",
        "birth_date",
        "sex",
        "time_zone",
        "language",
        "wants_package",
        "extra",
    }
)

DEDICATION_COUNTERS = frozenset(
    {
        "dedication",
        "turns_due",
        "turns_on_time",
        "turns_late",
        "games_started",
        "takeovers",
        "abandonments",
        "civil_disorders",
        "resignations",
    }
)


def normalise_address(address: str) -> str:
    """The form addresses are stored and looked up in: trimmed, lower case, no angle brackets."""
    return address.strip().strip("<>").strip().lower()


@dataclass(frozen=True, slots=True)
class Registration:
    """The REGISTER form's fields (what the Judge asked for), minus the address."""

    name: str
    phone: str = ""
    site: str = ""
    site_id: int | None = None
    postal_address: str = ""
    country: str = ""
    level: str = "amateur"
    birth_date: date | None = None
    sex: str = ""
    time_zone: str = ""
    language: str = "en"
    wants_package: bool = False
    extra: Mapping[str, str] | None = None


class PeopleRepository:
    def __init__(self, session: Session) -> None:
        self.session = session
        self._held_credits: dict[int, Counter[str]] | None = None
        """Credits of :meth:`credit` held for the end (:meth:`hold_credits`), by person, or None."""

    def register(self, registration: Registration, address: str, now: datetime) -> Person:
        """A new person, whose permanent address is ``address``.

        Raises DuplicateError if the address already belongs to someone
        (re-registering is :meth:`update_registration`).
        """
        key = normalise_address(address)
        if self.by_address(key) is not None:
            raise DuplicateError("address", key)
        person = Person(registered_at=now, updated_at=now, **_fields(registration))
        person.addresses.append(PersonAddress(address=key, is_primary=True, added_at=now))
        self.session.add(person)
        self.session.flush()
        return person

    def update_registration(
        self, person: Person, changes: Mapping[str, Any], now: datetime
    ) -> dict[str, tuple[Any, Any]]:
        """Apply REGISTER fields to ``person``; returns {field: (old, new)} of what changed."""
        unknown = set(changes) - REGISTRATION_FIELDS
        if unknown:
            raise ValueError(f"not registration fields: {', '.join(sorted(unknown))}")
        changed: dict[str, tuple[Any, Any]] = {}
        for key, value in changes.items():
            old = getattr(person, key)
            if key == "extra":
                value = dict(value or {})
            if old != value:
                changed[key] = (old, value)
                setattr(person, key, value)
        if changed:
            person.updated_at = now
        self.session.flush()
        return changed

    def get(self, person_id: int) -> Person:
        person = self.session.get(Person, person_id)
        if person is None:
            raise NotFoundError("person", person_id)
        return person

    def by_address(self, address: str) -> Person | None:
        """The person who writes from ``address`` (any of their addresses), if known."""
        return self.session.scalars(
            select(Person)
            .join(PersonAddress, PersonAddress.person_id == Person.id)
            .where(PersonAddress.address == normalise_address(address))
        ).one_or_none()

    def add_address(self, person: Person, address: str, now: datetime) -> PersonAddress:
        """IAMALSO: ``address`` is also ``person``. Idempotent for the same person.

        Raises DuplicateError if another person already has that address.
        """
        key = normalise_address(address)
        existing = self.session.scalars(
            select(PersonAddress).where(PersonAddress.address == key)
        ).one_or_none()
        if existing is not None:
            if existing.person_id != person.id:
                raise DuplicateError("address", key)
            return existing
        link = PersonAddress(address=key, is_primary=False, added_at=now)
        person.addresses.append(link)
        self.session.flush()
        return link

    # -- address claims (judge.app.people.claims) ---------------------------------------------------

    def add_claim(
        self,
        *,
        kind: str,
        confirm_address: str,
        requester: str,
        person: Person,
        payload: Mapping[str, Any],
        token_hash: str,
        now: datetime,
        lifetime: timedelta,
    ) -> AddressClaim:
        """A change that waits for ``CONFIRM`` from ``confirm_address``; only the code's hash is kept."""
        claim = AddressClaim(
            token_hash=token_hash,
            kind=kind,
            confirm_address=normalise_address(confirm_address),
            requester=normalise_address(requester),
            person_id=person.id,
            payload=dict(payload),
            created_at=now,
            expires_at=now + lifetime,
        )
        self.session.add(claim)
        self.session.flush()
        return claim

    def pending_claims(
        self, confirm_address: str, now: datetime, *, max_attempts: int | None = None
    ) -> list[AddressClaim]:
        """Claims still waiting for ``confirm_address``: unused, unexpired (and not exhausted)."""
        query = select(AddressClaim).where(
            AddressClaim.confirm_address == normalise_address(confirm_address),
            AddressClaim.used_at.is_(None),
            AddressClaim.expires_at > now,
        )
        if max_attempts is not None:
            query = query.where(AddressClaim.attempts < max_attempts)
        return list(self.session.scalars(query.order_by(AddressClaim.id)))

    def purge_claims(self, expired_before: datetime) -> int:
        """Forget claims that expired before ``expired_before`` (used or not)."""
        result = self.session.execute(
            delete(AddressClaim).where(AddressClaim.expires_at < expired_before)
        )
        return int(result.rowcount)  # type: ignore[attr-defined]

    def claims_since(
        self, since: datetime, *, requester: str | None = None, domain: str | None = None
    ) -> int:
        """Claims made since ``since`` (by ``requester``; to an address at ``domain``), used or not."""
        query = select(func.count()).select_from(AddressClaim).where(AddressClaim.created_at > since)
        if requester is not None:
            query = query.where(AddressClaim.requester == normalise_address(requester))
        if domain is not None:
            escaped = domain.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            query = query.where(AddressClaim.confirm_address.like(f"%@{escaped}", escape="\\"))
        return int(self.session.scalar(query) or 0)

    def claim_by_token(self, token_hash: str) -> AddressClaim | None:
        return self.session.scalars(
            select(AddressClaim).where(AddressClaim.token_hash == token_hash)
        ).one_or_none()

    # -- WHOIS answers (judge.app.handlers.whois) ----------------------------------------------

    def whois_shown(self, sender: str, since: datetime) -> int:
        """Registrations WHOIS showed ``sender`` since ``since``."""
        query = select(func.coalesce(func.sum(WhoisLookup.shown), 0)).where(
            WhoisLookup.sender == normalise_address(sender), WhoisLookup.at > since
        )
        return int(self.session.scalar(query) or 0)

    def record_whois(self, sender: str, shown: int, now: datetime, *, kept: timedelta) -> None:
        """WHOIS showed ``sender`` ``shown`` registrations; rows older than ``kept`` are forgotten."""
        self.session.execute(delete(WhoisLookup).where(WhoisLookup.at < now - kept))
        self.session.add(WhoisLookup(sender=normalise_address(sender), at=now, shown=shown))
        self.session.flush()

    def add_absence(
        self,
        person: Person,
        starts_at: datetime,
        ends_at: datetime,
        now: datetime,
        *,
        game: Game | None = None,
        set_by_master: bool = False,
    ) -> Absence:
        if ends_at < starts_at:
            raise ValueError("an absence cannot end before it starts")
        absence = Absence(
            person_id=person.id,
            game_id=game.id if game is not None else None,
            starts_at=starts_at,
            ends_at=ends_at,
            set_by_master=set_by_master,
            created_at=now,
        )
        self.session.add(absence)
        self.session.flush()
        return absence

    def absences(
        self, person: Person, *, game: Game | None = None, ending_after: datetime | None = None
    ) -> list[Absence]:
        """The person's absences (for ``game``, and those declared for all games), by start."""
        query = select(Absence).where(Absence.person_id == person.id)
        if game is not None:
            query = query.where((Absence.game_id == game.id) | (Absence.game_id.is_(None)))
        if ending_after is not None:
            query = query.where(Absence.ends_at > ending_after)
        return list(self.session.scalars(query.order_by(Absence.starts_at, Absence.id)))

    def remove_absence(self, absence: Absence) -> None:
        self.session.delete(absence)
        self.session.flush()

    def purge_absences(self, ended_before: datetime) -> int:
        """Drop absences that are over (the Judge purges them once past)."""
        result = self.session.execute(delete(Absence).where(Absence.ends_at < ended_before))
        return int(result.rowcount)  # type: ignore[attr-defined]

    def credit(self, person_ids: Sequence[int], counters: Mapping[str, int]) -> None:
        """Add ``counters`` to the dedication records of ``person_ids``:
        ``UPDATE people SET x = x + n ... WHERE id IN (...)``, one atomic statement for everyone
        credited alike (the punctual players of a phase usually are), so parallel games never
        lose an update. The people loaded in the session are expired (re-read when next looked
        at). While credits are held (:meth:`hold_credits`) they are added up and written by
        :meth:`release_credits`."""
        _check_counters(counters)
        if self._held_credits is not None:
            for person_id in person_ids:
                self._held_credits.setdefault(person_id, Counter()).update(counters)
            return
        self._credit_now(person_ids, counters)

    def hold_credits(self) -> None:
        """From now on :meth:`credit` adds up its credits until :meth:`release_credits` writes them,
        one statement for everyone credited alike (the scheduler's batch of due games: nothing
        in it reads a dedication record)."""
        if self._held_credits is None:
            self._held_credits = {}

    def release_credits(self) -> None:
        """Write the credits held since :meth:`hold_credits` and stop holding."""
        held, self._held_credits = self._held_credits or {}, None
        groups: dict[tuple[tuple[str, int], ...], list[int]] = {}
        for person_id, counters in held.items():
            groups.setdefault(tuple(sorted((k, n) for k, n in counters.items() if n)), []).append(person_id)
        for key, person_ids in groups.items():
            if key:
                self._credit_now(sorted(person_ids), dict(key))

    def drop_held_credits(self) -> None:
        """Stop holding, writing nothing (the transaction is rolled back)."""
        self._held_credits = None

    def _credit_now(self, person_ids: Sequence[int], counters: Mapping[str, int]) -> None:
        session = self.session
        if any(isinstance(pending, Person) for pending in (*session.new, *session.dirty)):
            session.flush()  # a person's pending change must not overwrite what the statement adds
        params: dict[str, Any] = {f"add_{name}": amount for name, amount in counters.items()}
        params["person_ids"] = list(person_ids)
        session.execute(_credit_statement(tuple(counters)), params)
        for person_id in person_ids:
            loaded = session.identity_map.get(identity_key(Person, person_id))
            if loaded is not None:
                session.expire(loaded, list(counters))  # re-read when next looked at

    def add_to_record(self, person: Person, **increments: int) -> None:
        """Add to dedication counters atomically (``UPDATE ... SET x = x + n``).

        Atomic so two processes crediting the same person in parallel games
        never lose an update; the object is refreshed afterwards.
        """
        _check_counters(increments)
        if not increments:
            return
        self._credit_now([person.id], increments)
        self.session.refresh(person, attribute_names=list(increments))


def _check_counters(counters: Mapping[str, int]) -> None:
    unknown = set(counters) - DEDICATION_COUNTERS
    if unknown:
        raise ValueError(f"not dedication counters: {', '.join(sorted(unknown))}")


@functools.cache
def _credit_statement(names: tuple[str, ...]) -> Update:
    """``UPDATE people SET name = name + :add_name ... WHERE id IN (:person_ids)`` on the table
    (Core: the objects loaded in the session are expired by the caller), built once per set of
    counters (a phase uses one or two sets): no statement construction at each processing."""
    table = cast(Table, Person.__table__)
    return (
        update(table)
        .where(in_parameter(table.c.id, "person_ids"))  # one array on PostgreSQL: a batch credits ~100
        .values({table.c[name]: table.c[name] + bindparam(f"add_{name}", type_=Integer) for name in names})
    )


def _fields(registration: Registration) -> dict[str, Any]:
    fields = {key: getattr(registration, key) for key in REGISTRATION_FIELDS if key != "extra"}
    fields["extra"] = dict(registration.extra or {})
    return fields
