"""The master's options that change how a campaign is played (the classic Judge's SET flags).

Defaults are the first edition's, as the Judge plays the standard scenario: a summer campaign,
garrisons, no fortresses, no disbanding as a movement order, control changing at every step of
the turn; money, loans, dice and the adjacency of bribes on; the special units and coastal
convoys on (the Judge's rules file lists both among the first edition's flags, "special" and
"coastalconvoy"; its second edition keeps the special units and turns coastal convoys off, and
its basic game turns both the special units and money off); of the disasters, famine and the
assassination expense on, plague and storms off (the Judge's own defaults for this game: its
new games carry "no plague", and storms, a sea's famine added by the Judge, must be asked for).
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
    and a 3 in even years, and no rule thrown on dice is played: loans, famine, plague, storms
    and the assassination expense, whatever their own flags say); ``adjacency``: SET [NO]
    ADJACENCY (an expense or bribe needs a unit of the payer in or next to its province);
    ``special``: SET [NO] SPECIAL (the citizens' militia, elite mercenaries and elite
    professionals may be raised, kept and bought: one a power; they need money);
    ``coastal_convoys``: SET [NO] COASTAL CONVOYS (a fleet in a coastal province convoys as a
    fleet at sea does); ``famine``: SET [NO] FAMINE (famine markers thrown after the fall,
    starving the spring); ``plague``: SET [NO] PLAGUE (the plague thrown before the summer
    campaign); ``storms``: SET [NO] STORMS (the storms thrown on the seas after the fall);
    ``assassinations``: SET [NO] ASSASSINATIONS (the assassination expense and its chits; the
    bank still has a defaulter assassinated without it)."""

    summer: bool = True
    fortresses: bool = False
    garrisons: bool = True
    disband: bool = False
    mach2: bool = False
    money: bool = True
    loans: bool = True
    dice: bool = True
    adjacency: bool = True
    special: bool = True
    coastal_convoys: bool = True
    famine: bool = True
    plague: bool = False
    storms: bool = False
    assassinations: bool = True

    @property
    def lends(self) -> bool:
        """Whether the bank lends: loans on, and the dice (SET NO DICE ends loans)."""
        return self.dice and self.loans

    @property
    def plays_famine(self) -> bool:
        return self.dice and self.famine

    @property
    def plays_plague(self) -> bool:
        """The plague comes before the summer campaign: none without a summer (SET NO SUMMER)."""
        return self.dice and self.plague and self.summer

    @property
    def plays_storms(self) -> bool:
        return self.dice and self.storms

    @property
    def plays_assassinations(self) -> bool:
        """Whether the assassination expense may be bought: it needs money and the dice."""
        return self.dice and self.money and self.assassinations


FIRST_EDITION = MachiavelliOptions()
