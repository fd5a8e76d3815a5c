"""The rules' named sets of the master's options, and the one link between options.

The Judge's rules file lists the default flags of each way to play the game; a master picks one
with ``SET MACHIAVELLI FIRST|SECOND|BASIC`` before changing single options:

* the first edition (1978-1983): famine, loans, assassinations, dice, special units, adjacency,
  money and coastal convoys on; plague, storms, fortresses and disbanding in a campaign off;
* the second edition (1995): the same, with its control rule (``mach2``: control changes only
  after the fall) and no coastal convoys;
* the basic game: no money (so no loans, bribes, special units or assassinations), no dice, no
  adjacency rule, coastal convoys, and a unit may disband as its campaign order.

Summer and garrisons are on in all three. Each set is written in full, by the options' names;
an option the core did not play (no field of
:class:`~judge.core.machiavelli.options.MachiavelliOptions`) would be left out of the set it builds,
so a set never names an option that has no effect (:func:`unplayed_names` says which: none today).

The link (the Judge's): without dice there is no famine, plague, storm, loan or assassination,
and switching any of those on brings the dice back (:func:`switched`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from types import MappingProxyType

from judge.core.machiavelli.options import MachiavelliOptions

_FIRST: Mapping[str, bool] = MappingProxyType({
    "summer": True, "garrisons": True, "fortresses": False, "disband": False, "mach2": False,
    "money": True, "loans": True, "dice": True, "adjacency": True, "famine": True, "plague": False,
    "storms": False, "assassinations": True, "special": True, "coastal_convoys": True,
})  # fmt: skip

SET_VALUES: Mapping[str, Mapping[str, bool]] = MappingProxyType({
    "FIRST": _FIRST,
    "SECOND": MappingProxyType({**_FIRST, "mach2": True, "coastal_convoys": False}),
    "BASIC": MappingProxyType({
        **_FIRST, "money": False, "loans": False, "dice": False, "adjacency": False, "famine": False,
        "assassinations": False, "special": False, "disband": True,
    }),
})  # fmt: skip
"""Each named set, every option of the Judge's family by its field name."""

NEEDS_DICE = ("famine", "plague", "storms", "loans", "assassinations")
"""The options that roll dice or lean on them: off without dice (the Judge names famine, plague,
loans and assassinations; storms are thrown on dice too, and the core plays none without them)."""


def played_names() -> frozenset[str]:
    """The options the core plays: the fields of :class:`MachiavelliOptions`."""
    return frozenset(f.name for f in fields(MachiavelliOptions))


def unplayed_names() -> frozenset[str]:
    """The options of the Judge's family the core does not play yet."""
    return frozenset(_FIRST) - played_names()


def named_set(name: str) -> MachiavelliOptions:
    """The options of the set ``name`` (``FIRST``, ``SECOND``, ``BASIC``), as far as they are played."""
    played = played_names()
    values = {key: value for key, value in SET_VALUES[name].items() if key in played}
    return MachiavelliOptions(**values)


def switched(options: MachiavelliOptions, name: str, on: bool) -> MachiavelliOptions:
    """``options`` with ``name`` switched ``on`` (or off), and the dice's link kept: no dice
    switches off every option of :data:`NEEDS_DICE`; one of those on switches the dice on."""
    played = played_names()
    changes: dict[str, bool] = {name: on}
    if name == "dice" and not on:
        changes.update({other: False for other in NEEDS_DICE if other in played})
    if name in NEEDS_DICE and on:
        changes["dice"] = True
    return replace(options, **changes)
