"""The master's options that change how a campaign is played (the classic Judge's SET flags).

Defaults are the first edition's, as the Judge plays the standard scenario: a summer campaign,
garrisons, no fortresses, no disbanding as a movement order, control changing at every step of
the turn; money, loans, dice and the adjacency of bribes on.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MachiavelliOptions:
    """``summer``: SET [NO] SUMMER; ``fortresses``: SET [NO] FORTRESSES (the fortresses hold
    garrisons); ``disband``: SET [NO] DISBAND (a unit may disband as its movement order);
    ``mach2``: SET [NO] MACH2 (the second edition: control changes only after the fall);
    ``garrisons``: SET [NO] GARRISONS (without, no garrison is set up, built or converted to);
    ``money``: SET [NO] MONEY (treasuries, upkeep, expenses and bribes; without, the basic
    game's adjustments); ``loans``: SET [NO] LOANS (borrowing from the bank; gifts between
    powers stay); ``dice``: SET [NO] DICE (without, every variable income roll is a 4 in odd years
    and a 3 in even years); ``adjacency``: SET [NO] ADJACENCY (an expense or bribe needs a unit
    of the payer in or next to its province)."""

    summer: bool = True
    fortresses: bool = False
    garrisons: bool = True
    disband: bool = False
    mach2: bool = False
    money: bool = True
    loans: bool = True
    dice: bool = True
    adjacency: bool = True


FIRST_EDITION = MachiavelliOptions()
