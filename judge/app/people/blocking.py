"""People the operator blocked (`judge person block`): their mail is kept, never answered.

A blocked person's mail is stored as any mail (so the operator can read it
with `judge mail show`) and marked ignored with the reason "blocked by the
operator": no reply, no refusal. A refusal would tell an abuser the address
works and invite more mail; silence is what the judge already does to loops
and floods. The mark is kept in the person's ``extra`` under a key a REGISTER
form cannot write (a REGISTER keyword never holds a ``:``, the grammar's
FIELD_NAME), so no migration is needed and no player can set or lift it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from judge.db.models import Person

BLOCK_KEY = "judge:blocked"
"""The key of the block in ``Person.extra``: REGISTER's extra keywords never contain ':'."""
BLOCKED_REASON = "blocked by the operator (judge person block)"


def block_of(person: Person | None) -> dict[str, Any] | None:
    """The block on ``person`` (who, when, why), or None."""
    if person is None:
        return None
    block = (person.extra or {}).get(BLOCK_KEY)
    return block if isinstance(block, dict) else None


def is_blocked(person: Person | None) -> bool:
    """Whether the worker must set this person's mail aside unanswered."""
    return block_of(person) is not None


def set_block(person: Person, operator: str, now: datetime, reason: str = "") -> None:
    """Block ``person`` (a new dict is assigned: JSON columns see only a new value)."""
    block = {"by": operator, "at": now.isoformat(), "reason": reason}
    person.extra = {**(person.extra or {}), BLOCK_KEY: block}


def lift_block(person: Person) -> None:
    person.extra = {key: value for key, value in (person.extra or {}).items() if key != BLOCK_KEY}
