"""The orders only the Renaissance game has: besiege, lift a siege, and the conversions.

An army or fleet is ordered as in Diplomacy (:mod:`judge.core.orders`: hold, move, support,
convoy) or with one of these; a garrison is named by its city's province and may hold, support
an action into its own province, or convert to an army or a fleet (:class:`GarrisonConvert`).

With money, a campaign's orders also pay the bank, give ducats to another power, borrow, and
spend up to four expenses (:data:`MoneyOrder`), resolved before the moves by
:mod:`judge.core.machiavelli.money`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from judge.core.orders import Order
from judge.core.units import UnitRef, UnitType


@dataclass(frozen=True, slots=True)
class Besiege:
    """An army (or, at a port, a fleet) besieges the garrison of the city of its province."""

    unit: UnitRef


@dataclass(frozen=True, slots=True)
class LiftSiege:
    """The besieger ends its siege; it holds."""

    unit: UnitRef


@dataclass(frozen=True, slots=True)
class ToGarrison:
    """An army (or, at a port, a fleet) converts into the garrison of its province's empty city."""

    unit: UnitRef


@dataclass(frozen=True, slots=True)
class GarrisonHold:
    province: str


@dataclass(frozen=True, slots=True)
class GarrisonSupport:
    """The garrison of ``province`` supports ``supported`` to hold in, or to move into, its province."""

    province: str
    supported: UnitRef
    destination: str | None = None


@dataclass(frozen=True, slots=True)
class GarrisonConvert:
    """The garrison of ``province`` converts into an army or (at a port) a fleet in its province."""

    province: str
    to: UnitType


@dataclass(frozen=True, slots=True)
class GarrisonDisband:
    """The garrison of ``province`` disbands (SET DISBAND; an army or fleet disbands with
    :class:`judge.core.orders.Disband`)."""

    province: str


MachiavelliOrder = (
    Order | Besiege | LiftSiege | ToGarrison | GarrisonHold | GarrisonSupport | GarrisonConvert | GarrisonDisband
)



# ----------------------------------------------------------------------------- money


@dataclass(frozen=True, slots=True)
class PayBank:
    """Repay the bank ``ducats`` (interest of the earliest loan first, then its principal, then
    the next loan's)."""

    ducats: int


@dataclass(frozen=True, slots=True)
class Give:
    """Give (or lend: the game keeps no record of a debt between powers) ``ducats`` to ``power``."""

    ducats: int
    power: str


@dataclass(frozen=True, slots=True)
class Borrow:
    """Borrow ``ducats`` from the bank for ``years`` (1 or 2)."""

    ducats: int
    years: int


@dataclass(frozen=True, slots=True)
class Target:
    """The unit an expense aims at: the army or fleet of ``province``, or (``garrison``) the
    garrison of its city."""

    province: str
    garrison: bool = False


class BribeKind(StrEnum):
    DISBAND = "disband"
    BUY = "buy"
    TO_AUTONOMOUS = "garrison to autonomous"


@dataclass(frozen=True, slots=True)
class FamineRelief:
    province: str


@dataclass(frozen=True, slots=True)
class PacifyRebellion:
    province: str


@dataclass(frozen=True, slots=True)
class CauseRebellion:
    province: str


@dataclass(frozen=True, slots=True)
class CounterBribe:
    target: Target


@dataclass(frozen=True, slots=True)
class Bribe:
    """Disband, buy, or make autonomous the unit ``target`` (what it costs depends on the unit)."""

    kind: BribeKind
    target: Target


@dataclass(frozen=True, slots=True)
class Assassinate:
    """An attempt on the leader of ``power`` (12, 24 or 36 ducats and the payer's chit for it)."""

    power: str


ExpenseAction = FamineRelief | PacifyRebellion | CauseRebellion | CounterBribe | Bribe | Assassinate


@dataclass(frozen=True, slots=True)
class Expense:
    """``EXPENSE number: ducats action``; ``action`` None (``EXPENSE 2: NONE``) cancels the
    expense of that number given before."""

    number: int
    ducats: int
    action: ExpenseAction | None


@dataclass(frozen=True, slots=True)
class GiveChit:
    """Give the payer's assassination chit against ``victim`` to ``power`` (``GIVE TURKEY TO
    NAPLES``)."""

    victim: str
    power: str


MoneyOrder = PayBank | Give | Borrow | Expense | GiveChit
"""The orders of a campaign's borrowing and expenditure steps, before its moves."""
