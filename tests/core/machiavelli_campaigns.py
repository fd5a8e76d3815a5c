"""Hand positions and campaigns of the Renaissance game for the core's tests: one way to write
a unit ("A FLO"), place units, garrisons and sieges on the 1454 board, play a campaign and read
an order's verdict, shared by the campaign, convoy, strait and special-unit tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from judge.core.adjudicator import Outcome
from judge.core.machiavelli.board import Control, MachiavelliBoard
from judge.core.machiavelli.campaign import (
    CampaignResult,
    MachiavelliPosition,
    adjudicate_campaign,
    update_control,
)
from judge.core.machiavelli.options import MachiavelliOptions
from judge.core.machiavelli.orders import MachiavelliOrder
from judge.core.machiavelli.special_units import SpecialKind, UnitPlace
from judge.core.phase import Phase
from judge.core.units import Unit, UnitRef, UnitType


def ref(text: str) -> UnitRef:
    """``"A FLO"`` as the unit an order names."""
    kind, location = text.split()
    return UnitRef(UnitType(kind), location)


def unit(power: str, spec: str) -> Unit:
    """``power``'s unit ``spec`` (``"A FLO"``)."""
    kind, location = spec.split()
    return Unit(power, UnitType(kind), location)


def hand_position(
    board: MachiavelliBoard,
    units: Sequence[tuple[str, str]],
    garrisons: Mapping[str, str] | None = None,
    sieges: Mapping[str, tuple[str, str]] | None = None,
    phase: str = "S1455M",
    specials: Mapping[UnitPlace, SpecialKind] | None = None,
) -> MachiavelliPosition:
    """A hand position: units as (power, "A FLO"), garrisons city -> owner, sieges city -> (power,
    unit), special units by place; the control as those units and garrisons give it."""
    placed = tuple(unit(power, spec) for power, spec in units)
    held = dict(garrisons or {})
    besiegers = {city: unit(power, spec) for city, (power, spec) in (sieges or {}).items()}
    control = update_control(board, Control(MappingProxyType({}), MappingProxyType({})), placed, held)
    made = MachiavelliPosition(Phase.parse(phase), placed, MappingProxyType(held), control, MappingProxyType(besiegers))
    return made if specials is None else replace(made, specials=MappingProxyType(dict(specials)))


def play(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    orders: Mapping[str, Sequence[MachiavelliOrder]],
    options: MachiavelliOptions | None = None,
) -> CampaignResult:
    """The campaign of ``position`` with ``orders`` (the first edition unless ``options``)."""
    return adjudicate_campaign(board, position, orders, options or MachiavelliOptions())


def verdict(result: CampaignResult, order: MachiavelliOrder) -> tuple[Outcome, str]:
    """The outcome and reason of ``order``, given once in the campaign."""
    (found,) = [v for v in result.verdicts if v.order == order]
    return found.outcome, found.reason


def units_of(position: MachiavelliPosition) -> set[str]:
    """Each unit as "POWER A FLO"."""
    return {f"{unit.power} {unit}" for unit in position.units}
