"""Who may read a power's books in the Renaissance game: its treasury, loans, money orders and chits.

The rules keep a power's money secret: only the power itself and the game's masters read its
treasury, its debts to the bank, the ducats it paid and to whom, and the result of each of its
money orders. Everyone reads what money did on the board (a garrison disbanded by a bribe, a
province in rebellion, a defaulter assassinated) without learning who paid. Every text of the
game that shows money asks this one function which powers' books its reader may see.

The dice of a phase (every roll, the payer of each assassination attempt with it) are the
masters' alone (:func:`dice_readable`): a player reads where famine struck, never the throws, so
that he learns nothing of who tried to kill whom.
"""

from __future__ import annotations

from collections.abc import Iterable


def books_readable(powers: Iterable[str], *, power: str | None, master: bool) -> frozenset[str]:
    """The powers (of ``powers``) whose books a reader sees: every one for a master, its own for a
    power's player, none for an observer or anyone else."""
    every = frozenset(powers)
    if master:
        return every
    if power is not None and power in every:
        return frozenset({power})
    return frozenset()


def dice_readable(*, master: bool) -> bool:
    """Whether a reader sees the phase's rolls: a master only (a power's player or an observer
    reads their public effects)."""
    return master
