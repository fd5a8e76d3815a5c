"""An in-memory :class:`~judge.mail.outbound.Outbox` for tests, with the semantics the drain expects."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from judge.mail.outbound import OutgoingMail


@dataclass
class Row:
    id: int
    message: bytes
    recipients: tuple[str, ...]
    due: datetime
    attempts: int = 0
    state: str = "pending"  # pending | sent | failed
    errors: list[str] = field(default_factory=list)
    sent_at: datetime | None = None


@dataclass
class MemoryOutbox:
    rows: dict[int, Row] = field(default_factory=dict)

    def add(self, message: bytes, recipients: tuple[str, ...], due: datetime) -> int:
        mail_id = len(self.rows) + 1
        self.rows[mail_id] = Row(mail_id, message, recipients, due)
        return mail_id

    def claim_next(self, now: datetime, lease: Callable[[int], datetime]) -> OutgoingMail | None:
        due = sorted(
            (r for r in self.rows.values() if r.state == "pending" and r.due <= now),
            key=lambda r: (r.due, r.id),
        )
        if not due:
            return None
        row = due[0]
        row.attempts += 1  # counted before the send, as the database outbox commits it
        row.due = lease(row.attempts)
        return OutgoingMail(row.id, row.message, row.recipients, row.attempts)

    def mark_sent(self, id: int, now: datetime, refused: Mapping[str, str]) -> None:
        row = self.rows[id]
        assert row.state == "pending", "a mail is sent at most once"
        row.state, row.sent_at = "sent", now
        if refused:
            row.errors.append(f"refused: {dict(refused)}")

    def mark_retry(self, id: int, next_attempt: datetime, error: str) -> None:
        row = self.rows[id]
        row.due = next_attempt
        row.errors.append(error)

    def mark_failed(self, id: int, error: str, now: datetime) -> None:
        row = self.rows[id]
        row.state = "failed"
        row.errors.append(error)

    def states(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for row in self.rows.values():
            counts[row.state] = counts.get(row.state, 0) + 1
        return counts


@dataclass
class BatchMemoryOutbox(MemoryOutbox):
    """:class:`MemoryOutbox` that claims several mails at once and gives back those not tried
    (:class:`judge.mail.outbound.BatchOutbox`); each mail's envelope sender names it (VERP-like)."""

    claims: int = 0
    released: list[int] = field(default_factory=list)

    def claim_batch(self, now: datetime, lease: Callable[[int], datetime], limit: int) -> list[OutgoingMail]:
        self.claims += 1
        claimed: list[OutgoingMail] = []
        for _ in range(limit):
            mail = self.claim_next(now, lease)
            if mail is None:
                break
            claimed.append(OutgoingMail(mail.id, mail.message_bytes, mail.recipients, mail.attempts, f"b+{mail.id}@judge.test"))
        return claimed

    def release(self, ids: Sequence[int]) -> None:
        for mail_id in ids:
            row = self.rows[mail_id]
            assert row.state == "pending"
            row.attempts -= 1
            row.due = datetime.min.replace(tzinfo=UTC)  # due at once again
            self.released.append(mail_id)
