"""SQLite writers of one process take the write lock first come, first served.

Without the gate, a thread that commits and begins again at once (the worker
between two mails) wins SQLite's write lock back almost every time, and a
short writer waiting in SQLite's busy handler (the SMTP door's insert) can
starve until its timeout. These tests pin the order writers get the lock in,
and that the lock is given back however a transaction ends.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from judge.db import engine as engine_module
from judge.db.engine import WriteGate, WriteGateTimeout, make_engine, writer


@pytest.fixture
def sqlite_engine(tmp_path: Path) -> Iterator[Engine]:
    engine = make_engine(f"sqlite:///{tmp_path}/gate.sqlite3")
    with writer(engine).begin() as connection:
        connection.exec_driver_sql("CREATE TABLE log (who TEXT)")
    try:
        yield engine
    finally:
        engine.dispose()


def _wait_until(condition: object, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_the_gate_serves_waiters_in_arrival_order() -> None:
    gate = WriteGate()
    order: list[str] = []
    gate.acquire(5)
    threads = []
    for name in ("first", "second", "third"):
        def take(name: str = name) -> None:
            gate.acquire(5)
            order.append(name)
            gate.release()

        thread = threading.Thread(target=take)
        thread.start()
        threads.append(thread)
        _wait_until(lambda: len(gate._waiting) == len(threads))
    gate.release()
    gate.acquire(5)  # the releasing thread asks again at once: it queues behind the others
    order.append("releaser")
    gate.release()
    for thread in threads:
        thread.join(5)
    assert order == ["first", "second", "third", "releaser"]


def test_a_waiter_gives_up_after_its_timeout_and_leaves_the_queue() -> None:
    gate = WriteGate()
    gate.acquire(5)
    with pytest.raises(WriteGateTimeout):
        gate.acquire(0.05)
    assert not gate._waiting
    gate.release()
    gate.acquire(0.05)  # free again, nobody left queued
    gate.release()


def test_a_writer_waiting_for_another_gets_the_lock_before_the_holder_begins_again(
    sqlite_engine: Engine,
) -> None:
    holder_has_lock = threading.Event()
    let_go = threading.Event()

    def hold_then_write_again() -> None:
        with writer(sqlite_engine).begin() as connection:
            connection.execute(text("INSERT INTO log VALUES ('holder 1')"))
            holder_has_lock.set()
            let_go.wait(10)
        with writer(sqlite_engine).begin() as connection:  # straight back in, like the worker
            connection.execute(text("INSERT INTO log VALUES ('holder 2')"))

    def door() -> None:
        with writer(sqlite_engine).begin() as connection:
            connection.execute(text("INSERT INTO log VALUES ('door')"))

    holder = threading.Thread(target=hold_then_write_again)
    holder.start()
    assert holder_has_lock.wait(10)
    waiting = threading.Thread(target=door)
    waiting.start()
    gate = _gate_of(sqlite_engine)
    _wait_until(lambda: len(gate._waiting) == 1)
    let_go.set()
    holder.join(10)
    waiting.join(10)
    with sqlite_engine.connect() as connection:
        rows = [row[0] for row in connection.execute(text("SELECT who FROM log ORDER BY rowid"))]
    assert rows == ["holder 1", "door", "holder 2"]


def test_the_gate_is_given_back_on_rollback_and_readers_never_queue(sqlite_engine: Engine) -> None:
    with pytest.raises(RuntimeError), writer(sqlite_engine).begin() as connection:
        connection.execute(text("INSERT INTO log VALUES ('rolled back')"))
        with sqlite_engine.connect() as reader:  # a reader is not held up by a writer
            assert reader.execute(text("SELECT count(*) FROM log")).scalar() == 0
        raise RuntimeError("the unit of work failed")
    gate = _gate_of(sqlite_engine)
    assert not gate._held
    with writer(sqlite_engine).begin() as connection:
        connection.execute(text("INSERT INTO log VALUES ('after')"))
    assert not gate._held


def test_a_writer_held_up_past_the_busy_timeout_fails_instead_of_hanging(
    sqlite_engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine_module, "BUSY_TIMEOUT_MS", 50)
    failures: list[BaseException] = []
    with writer(sqlite_engine).begin() as connection:
        connection.execute(text("INSERT INTO log VALUES ('long')"))

        def late() -> None:
            try:
                with writer(sqlite_engine).begin() as other:
                    other.execute(text("INSERT INTO log VALUES ('late')"))
            except BaseException as error:
                failures.append(error)

        thread = threading.Thread(target=late)
        thread.start()
        thread.join(10)
    assert len(failures) == 1 and isinstance(failures[0], WriteGateTimeout)
    assert not _gate_of(sqlite_engine)._held


def _gate_of(engine: Engine) -> WriteGate:
    with engine.connect() as connection:
        driver = connection.connection.dbapi_connection
        gate = getattr(driver, "gate", None)
    assert isinstance(gate, WriteGate)
    return gate
