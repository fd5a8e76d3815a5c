"""The master's options that change how a campaign is played (the classic Judge's SET flags).

Defaults are the first edition's, as the Judge plays the standard scenario: a summer campaign,
garrisons, no fortresses, no disbanding as a movement order, control changing at every step of
the turn.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MachiavelliOptions:
    """``summer``: SET [NO] SUMMER; ``fortresses``: SET [NO] FORTRESSES (the fortresses hold
    garrisons); ``disband``: SET [NO] DISBAND (a unit may disband as its movement order);
    ``mach2``: SET [NO] MACH2 (the second edition: control changes only after the fall);
    ``garrisons``: SET [NO] GARRISONS (without, no garrison is set up, built or converted to)."""

    summer: bool = True
    fortresses: bool = False
    garrisons: bool = True
    disband: bool = False
    mach2: bool = False


FIRST_EDITION = MachiavelliOptions()
