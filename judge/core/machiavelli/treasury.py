"""What money leaves on the board of the Renaissance game: treasuries, loans, rebellions, famine.

Plain data kept in :class:`~judge.core.machiavelli.campaign.MachiavelliPosition`; the rules that
change it live in :mod:`judge.core.machiavelli.money`. A power's treasury and loans are its own
secret (and its master's): the core keeps them, the edges decide who may read them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from judge.core.phase import Phase


@dataclass(frozen=True, slots=True)
class Loan:
    """A debt to the bank: ``principal`` and ``interest`` still owed, repaid in full by the end of
    the borrowing step of the campaign ``due`` (a movement phase)."""

    principal: int
    interest: int
    due: Phase

    @property
    def owed(self) -> int:
        return self.principal + self.interest


@dataclass(frozen=True, slots=True)
class Finances:
    """``treasuries``: each power's ducats; ``loans``: each power's debts to the bank, earliest
    due first; ``barred``: the powers that once defaulted, never again lent to by the bank;
    ``chits``: each power's assassination chits, one victim's name per chit (None: the game's
    start, when each power holds one chit against each other power)."""

    treasuries: Mapping[str, int]
    loans: Mapping[str, tuple[Loan, ...]] = field(default_factory=lambda: MappingProxyType({}))
    barred: frozenset[str] = frozenset()
    chits: Mapping[str, tuple[str, ...]] | None = None

    def treasury(self, power: str) -> int:
        return self.treasuries.get(power, 0)

    def debt(self, power: str) -> int:
        """The principal ``power`` owes the bank (what the 25-ducat limit counts)."""
        return sum(loan.principal for loan in self.loans.get(power, ()))


@dataclass(frozen=True, slots=True)
class Rebellion:
    """A rebellion against the power that controlled the province when it began: in the province
    (``province``, until the power puts it down by holding there) and, ``city``, in its
    fortified city (which had no garrison)."""

    against: str
    city: bool = False
    province: bool = True


@dataclass(frozen=True, slots=True)
class Unrest:
    """``rebellions``: province -> its rebellion; ``famine``: the provinces under a famine marker."""

    rebellions: Mapping[str, Rebellion] = field(default_factory=lambda: MappingProxyType({}))
    famine: frozenset[str] = frozenset()


NO_UNREST = Unrest()
