"""The record of every die the Renaissance game throws, so that a phase can be audited.

Each rule that throws dice seeds its own :class:`random.Random` from the game's seed, the phase
and what it throws for (``f"{seed}/{phase}/famine"``, say), so one rule's dice never shift
another's and a phase played again from the same position gives the same numbers. Each throw is
kept as a :class:`Roll` in the phase's result (:attr:`judge.core.machiavelli.season.SeasonResult.rolls`):
the master reads them all; the players read only their public effects.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Roll:
    """One throw: for which ``rule`` (income, famine, plague, storm, assassination, rebellion),
    for what (``subject``: a power, a province, the table's row or column), the ``dice`` as
    they fell, and what came of them (``outcome``, in the master's words)."""

    rule: str
    subject: str
    dice: tuple[int, ...]
    outcome: str

    @property
    def total(self) -> int:
        return sum(self.dice)

    def to_json(self) -> dict[str, object]:
        return {"rule": self.rule, "for": self.subject, "dice": list(self.dice), "outcome": self.outcome}


def dice_for(seed: int | str, phase: object, purpose: str) -> random.Random:
    """The dice of one rule in one phase: the same seed, phase and purpose throw the same."""
    return random.Random(f"{seed}/{phase}/{purpose}")


def throw(rng: random.Random, count: int) -> tuple[int, ...]:
    """``count`` six-sided dice."""
    return tuple(rng.randint(1, 6) for _ in range(count))
