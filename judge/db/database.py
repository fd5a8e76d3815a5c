"""The entry point of the persistence layer: a :class:`Database` hands out units of work.

A unit of work is one transaction with every repository on it: it commits
when the ``with`` block ends normally and rolls back if it raises, so "one
mail, one transaction" is simply one ``with db.unit_of_work() as uow:``.
On SQLite a writing unit of work begins with ``BEGIN IMMEDIATE`` (see
judge.db.engine); on PostgreSQL the repositories take row locks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from judge.db import validation
from judge.db.engine import make_engine, writer
from judge.db.passwords import DEFAULT_HASHING, PasswordHashing
from judge.db.repositories import (
    AuditRepository,
    CouncilRepository,
    GameRepository,
    InboundMailRepository,
    OrderRepository,
    OutboxRepository,
    PeopleRepository,
    PhaseRepository,
    PressRepository,
    SeatRepository,
)


class JudgeSession(Session):
    """The judge's sessions: text is checked on every flush (judge.db.validation)."""


validation.install(JudgeSession)


class UnitOfWork:
    """One transaction and the repositories that work in it."""

    def __init__(self, session: Session, passwords: PasswordHashing) -> None:
        self.session = session
        self.people = PeopleRepository(session)
        self.games = GameRepository(session, passwords)
        self.seats = SeatRepository(session, passwords)
        self.phases = PhaseRepository(session)
        self.orders = OrderRepository(session)
        self.press = PressRepository(session)
        self.mail_in = InboundMailRepository(session)
        self.outbox = OutboxRepository(session)
        self.audit = AuditRepository(session)
        self.councils = CouncilRepository(session, passwords)

    def flush(self) -> None:
        self.session.flush()

    @contextmanager
    def together(self) -> Iterator[None]:
        """Several games' work in this unit of work, their writes sent together at the block's end:
        the phases opened and the games' changes in one flush, the players' dedication credits
        added up (one UPDATE for everyone credited alike), the mails queued in one INSERT
        (the scheduler's batch of due games). A block that raises writes none of them (the
        transaction is then rolled back). What the block reads is unaffected: nothing in it
        reads the mail queue, and the ORM flushes before any query that is not told otherwise."""
        self.phases.hold()
        self.people.hold_credits()
        self.outbox.hold()
        try:
            yield
        except BaseException:
            self.phases.drop_held()
            self.people.drop_held_credits()
            self.outbox.drop_held()
            raise
        self.phases.flush_held()
        self.people.release_credits()
        self.outbox.release()


class Database:
    """A connection to the judge's database (SQLite file or PostgreSQL server)."""

    def __init__(
        self, url: str, *, passwords: PasswordHashing = DEFAULT_HASHING, echo: bool = False
    ) -> None:
        self.url = url
        self.engine: Engine = make_engine(url, echo=echo)
        self.passwords = passwords
        self._write_sessions = sessionmaker(
            bind=writer(self.engine), class_=JudgeSession, expire_on_commit=False
        )
        self._read_sessions = sessionmaker(
            bind=self.engine, class_=JudgeSession, expire_on_commit=False
        )

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.engine.dialect.name

    @contextmanager
    def unit_of_work(self, *, readonly: bool = False) -> Iterator[UnitOfWork]:
        """A transaction: commit at the end of the block, roll back on an exception.

        ``readonly`` units of work do not take SQLite's write lock (and must
        not write: on SQLite a write would then wait for, or fail on, the lock).
        """
        factory = self._read_sessions if readonly else self._write_sessions
        with factory() as session, session.begin():
            yield UnitOfWork(session, self.passwords)

    def store_inbound_mail(
        self,
        raw: bytes,
        mail_from: str,
        rcpt_tos: Iterable[str],
        received_at: datetime,
        peer: str = "",
    ) -> int:
        """Store a received mail in its own transaction and return its id once committed.

        The SMTP server answers 250 only after this returns: from then on the
        mail survives a crash.
        """
        with self.unit_of_work() as uow:
            (mail_id,) = uow.mail_in.store_many([(raw, mail_from, rcpt_tos, received_at, peer)])
        return mail_id

    def dispose(self) -> None:
        """Close every pooled connection (end of process, end of a test)."""
        self.engine.dispose()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.dispose()


def open_database(
    url: str, *, migrate: bool = True, passwords: PasswordHashing = DEFAULT_HASHING
) -> Database:
    """The database at ``url``, brought to the head revision first when ``migrate``.

    This is what a starting judge calls: a fresh database gets the whole
    schema, an older one is upgraded, a current one is left alone. With
    ``migrate=False`` (several judge processes sharing one PostgreSQL database,
    migrated by the operator) it only checks the revision and raises
    :class:`~judge.db.errors.SchemaError` if it is not the head.
    """
    from judge.db.schema_head import at_head

    if at_head(url):  # already current: nothing to upgrade or check, and no Alembic to import
        return Database(url, passwords=passwords)
    from judge.db.migrate import check_current, upgrade

    if migrate:
        upgrade(url)
    else:
        check_current(url)
    return Database(url, passwords=passwords)
