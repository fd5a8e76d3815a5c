"""The door's group commit (issue 14): mails arriving together share one commit, each 250
still waits for its own mail's commit, and one bad mail costs only its own 451."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest

from judge.mail.inbound import GroupCommitStore, Received

T0 = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


class Store:
    """``store_many`` that records its groups; ``gate`` holds the first commit until released."""

    def __init__(self) -> None:
        self.groups: list[list[bytes]] = []
        self.committed: set[bytes] = set()
        self.gate = threading.Event()
        self.entered = threading.Event()
        self._next = 0
        self._lock = threading.Lock()

    def store_many(self, mails: list[Received]) -> list[int]:
        self.entered.set()
        self.gate.wait(10)
        if any(raw == b"bad" for raw, *_ in mails):
            raise RuntimeError("cannot store that")
        with self._lock:
            self.groups.append([raw for raw, *_ in mails])
            ids = list(range(self._next + 1, self._next + 1 + len(mails)))
            self._next += len(mails)
            self.committed.update(raw for raw, *_ in mails)
        return ids


def _send(store: GroupCommitStore, raw: bytes) -> int:
    return store.store_inbound(raw, "a@example.net", ["judge@example.org"], T0, "192.0.2.1:25")


def test_mails_waiting_for_a_commit_share_the_next_one_and_each_returns_once_committed() -> None:
    backend = Store()
    store = GroupCommitStore(backend.store_many)
    results: dict[bytes, int] = {}

    def send(raw: bytes) -> None:
        mail_id = _send(store, raw)
        assert raw in backend.committed  # never before its own commit
        results[raw] = mail_id

    with ThreadPoolExecutor(5) as pool:
        first = pool.submit(send, b"m0")
        assert backend.entered.wait(10)  # the first commit is under way: the others queue
        rest = [pool.submit(send, f"m{n}".encode()) for n in range(1, 5)]
        while len(store._queue) < 4:
            threading.Event().wait(0.01)
        backend.gate.set()
        for future in [first, *rest]:
            future.result(10)
    assert backend.groups == [[b"m0"], [b"m1", b"m2", b"m3", b"m4"]]
    assert sorted(results.values()) == [1, 2, 3, 4, 5]


def test_a_bad_mail_in_a_group_costs_only_its_own_answer() -> None:
    backend = Store()
    store = GroupCommitStore(backend.store_many)
    with ThreadPoolExecutor(4) as pool:
        first = pool.submit(_send, store, b"m0")
        assert backend.entered.wait(10)
        rest = {raw: pool.submit(_send, store, raw) for raw in (b"m1", b"bad", b"m2")}
        while len(store._queue) < 3:
            threading.Event().wait(0.01)
        backend.gate.set()
        assert first.result(10) == 1
        assert rest[b"m1"].result(10) > 0 and rest[b"m2"].result(10) > 0
        with pytest.raises(RuntimeError, match="cannot store"):
            rest[b"bad"].result(10)
    assert backend.committed == {b"m0", b"m1", b"m2"}


def test_one_mail_alone_is_committed_at_once() -> None:
    backend = Store()
    backend.gate.set()
    store = GroupCommitStore(backend.store_many)
    assert _send(store, b"solo") == 1
    assert _send(store, b"again") == 2
    assert backend.groups == [[b"solo"], [b"again"]]
