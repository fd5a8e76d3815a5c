"""Convoys across a held strait (the classic Judge's rules file, "Special mapboard features": "As long
as there is a fleet in either Messina or Piombino, no hostile fleet can move or convoy between the
Gulf of Naples and the Ionian Sea or the Eastern Tyrrhenian Sea and Pisa"; "No player may use the
straits without the controlling player's permission"), played on the 1454 board.

Naples' army convoyed from Naples to Durazzo by fleets in the Gulf of Naples and the Ionian Sea
crosses Messina's strait (Durazzo borders the Ionian Sea, not the Gulf); an army of Pisa convoyed
through the Eastern Tyrrhenian Sea crosses Piombino's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import pytest

from judge.core.adjudicator import Outcome
from judge.core.machiavelli.board import MachiavelliBoard, load_board
from judge.core.machiavelli.campaign import (
    CampaignResult,
    MachiavelliPosition,
    retreat_phase,
)
from judge.core.machiavelli.options import MachiavelliOptions
from judge.core.machiavelli.orders import MachiavelliOrder
from judge.core.orders import Convoy, Hold, Move, Retreat, SupportMove
from judge.core.units import Unit, UnitType
from tests.core.machiavelli_campaigns import hand_position, play, ref, units_of, verdict

NAP, PAP, FLO, MIL = "NAPLES", "PAPACY", "FLORENCE", "MILAN"


@pytest.fixture(scope="module")
def board() -> MachiavelliBoard:
    return load_board()


def at(board: MachiavelliBoard, *units: tuple[str, str]) -> MachiavelliPosition:
    return hand_position(board, units)


TO_DURAZZO = Move(ref("A NAP"), "DUR")
GULF_CONVOYS = Convoy(ref("F GON"), ref("A NAP"), "DUR")
IONIAN_CONVOYS = Convoy(ref("F ION"), ref("A NAP"), "DUR")
ACROSS_MESSINA = [TO_DURAZZO, GULF_CONVOYS, IONIAN_CONVOYS]


def test_a_convoy_through_an_empty_strait_lands(board: MachiavelliBoard) -> None:
    position = at(board, (PAP, "A NAP"), (PAP, "F GON"), (PAP, "F ION"))
    result = play(board, position, {PAP: ACROSS_MESSINA})
    assert verdict(result, TO_DURAZZO)[0] is Outcome.SUCCEEDS
    assert "PAPACY A DUR" in units_of(result.position)


def test_a_convoy_through_a_strait_held_by_another_power_fails(board: MachiavelliBoard) -> None:
    position = at(board, (NAP, "F MES"), (PAP, "A NAP"), (PAP, "F GON"), (PAP, "F ION"))
    result = play(board, position, {PAP: ACROSS_MESSINA})
    assert verdict(result, TO_DURAZZO) == (Outcome.FAILS, "the strait is held by NAPLES")
    assert "PAPACY A NAP" in units_of(result.position) and "PAPACY A DUR" not in units_of(result.position)


def test_the_holder_convoys_its_own_army_through_its_strait(board: MachiavelliBoard) -> None:
    position = at(board, (NAP, "F MES"), (NAP, "A NAP"), (NAP, "F GON"), (NAP, "F ION"))
    result = play(board, position, {NAP: ACROSS_MESSINA})
    assert verdict(result, TO_DURAZZO)[0] is Outcome.SUCCEEDS
    assert "NAPLES A DUR" in units_of(result.position)


def test_the_holders_army_is_not_carried_across_by_another_powers_fleet(board: MachiavelliBoard) -> None:
    # "No hostile fleet can ... convoy" across: the Papal fleets may not carry even Naples' army.
    position = at(board, (NAP, "F MES"), (NAP, "A NAP"), (PAP, "F GON"), (PAP, "F ION"))
    result = play(board, position, {NAP: [TO_DURAZZO], PAP: [GULF_CONVOYS, IONIAN_CONVOYS]})
    assert verdict(result, TO_DURAZZO) == (Outcome.FAILS, "the strait is held by NAPLES")
    assert "NAPLES A NAP" in units_of(result.position)


def test_a_holder_dislodged_in_the_same_campaign_still_closes_its_strait(board: MachiavelliBoard) -> None:
    # The strait is held as the campaign begins: Naples' fleet, driven out of Messina by the
    # Papal attack of that very campaign, still closes it to the Papal convoy.
    position = at(
        board, (NAP, "F MES"), (PAP, "A NAP"), (PAP, "F GON"), (PAP, "F ION"), (PAP, "F PAL"), (PAP, "F ETS")
    )
    attack = [Move(ref("F PAL"), "MES"), SupportMove(ref("F ETS"), ref("F PAL"), "MES")]
    result = play(board, position, {PAP: [*ACROSS_MESSINA, *attack], NAP: [Hold(ref("F MES"))]})
    assert [d.unit for d in result.position.dislodged] == [Unit(NAP, UnitType.FLEET, "MES")]
    assert "PAPACY F MES" in units_of(result.position)
    assert verdict(result, TO_DURAZZO) == (Outcome.FAILS, "the strait is held by NAPLES")


def test_a_fleet_entering_an_empty_strait_closes_it_that_campaign(board: MachiavelliBoard) -> None:
    position = at(board, (NAP, "F PAL"), (PAP, "A NAP"), (PAP, "F GON"), (PAP, "F ION"))
    result = play(board, position, {PAP: ACROSS_MESSINA, NAP: [Move(ref("F PAL"), "MES")]})
    assert "NAPLES F MES" in units_of(result.position)
    assert verdict(result, TO_DURAZZO) == (Outcome.FAILS, "the strait is held by NAPLES")


TO_TIVOLI = Move(ref("A PSA"), "TIV")
EAST_CONVOYS = Convoy(ref("F ETS"), ref("A PSA"), "TIV")
WEST_CONVOYS = Convoy(ref("F WTS"), ref("A PSA"), "TIV")


TO_PISA = Move(ref("A PAL"), "PSA")
BY_THE_EAST = Convoy(ref("F ETS"), ref("A PAL"), "PSA")
BY_THE_WEST = Convoy(ref("F WTS"), ref("A PAL"), "PSA")


def test_a_convoy_goes_round_a_held_strait_by_another_chain(board: MachiavelliBoard) -> None:
    # Palermo -> ETS -> Pisa crosses Piombino's strait; Palermo -> WTS -> Pisa does not.
    position = at(board, (FLO, "F PIO"), (PAP, "A PAL"), (PAP, "F ETS"), (PAP, "F WTS"))
    result = play(board, position, {PAP: [TO_PISA, BY_THE_EAST, BY_THE_WEST]})
    assert verdict(result, TO_PISA)[0] is Outcome.SUCCEEDS
    assert "PAPACY A PSA" in units_of(result.position)


def test_when_the_open_chain_is_broken_the_convoy_never_falls_back_on_the_closed_one(board: MachiavelliBoard) -> None:
    units = [(PAP, "A PAL"), (PAP, "F ETS"), (PAP, "F WTS"), (MIL, "F WMS"), (MIL, "F SAR")]
    orders: dict[str, list[MachiavelliOrder]] = {
        PAP: [TO_PISA, BY_THE_EAST, BY_THE_WEST],
        MIL: [Move(ref("F WMS"), "WTS"), SupportMove(ref("F SAR"), ref("F WMS"), "WTS")],
    }
    # With Piombino empty the army lands by the eastern chain, the western fleet dislodged.
    free = play(board, at(board, *units), orders)
    assert "PAPACY A PSA" in units_of(free.position)
    # Held by Florence, the eastern chain is closed and the western one broken: the army stays.
    held = play(board, at(board, (FLO, "F PIO"), *units), orders)
    assert [d.unit for d in held.position.dislodged] == [Unit(PAP, UnitType.FLEET, "WTS")]
    assert verdict(held, TO_PISA)[0] is Outcome.FAILS
    assert "PAPACY A PAL" in units_of(held.position)


def test_under_the_second_edition_piombino_closes_no_convoy(board: MachiavelliBoard) -> None:
    position = at(board, (FLO, "F PIO"), (PAP, "A PSA"), (PAP, "F ETS"))
    orders: dict[str, list[MachiavelliOrder]] = {PAP: [TO_TIVOLI, EAST_CONVOYS]}
    assert verdict(play(board, position, orders), TO_TIVOLI) == (Outcome.FAILS, "the strait is held by FLORENCE")
    result = play(board, position, orders, MachiavelliOptions(mach2=True))
    assert "PAPACY A TIV" in units_of(result.position)


def test_what_a_strait_closes_is_the_scenarios_data(board: MachiavelliBoard) -> None:
    # A scenario whose Messina closes moves and supports only lets the convoy through.
    straits = tuple(replace(s, closes=frozenset({"moves", "supports"})) for s in board.straits)
    moves_only = replace(board, straits=straits)
    position = at(moves_only, (NAP, "F MES"), (PAP, "A NAP"), (PAP, "F GON"), (PAP, "F ION"))
    result = play(moves_only, position, {PAP: ACROSS_MESSINA})
    assert "PAPACY A DUR" in units_of(result.position)
    crossing = Move(ref("F GON"), "OTR")  # no strait: the Gulf borders Otranto
    result = play(moves_only, at(moves_only, (NAP, "F MES"), (PAP, "F GON")), {PAP: [crossing]})
    assert verdict(result, crossing)[0] is Outcome.SUCCEEDS
    crossing = Move(ref("F GON"), "ION")
    result = play(moves_only, at(moves_only, (NAP, "F MES"), (PAP, "F GON")), {PAP: [crossing]})
    assert verdict(result, crossing) == (Outcome.FAILS, "the strait is held by NAPLES")


TO_TIVOLI_ROUND = [TO_TIVOLI, EAST_CONVOYS, WEST_CONVOYS]


def test_a_chain_round_a_closed_strait_is_a_route_of_its_own(board: MachiavelliBoard) -> None:
    # Pisa -> WTS -> ETS -> Tivoli has a shortcut, Pisa -> ETS, while Piombino is open: the western
    # fleet is on no route that is needed (DATC 6.G.19) and its convoy is refused.
    units = [(PAP, "A PSA"), (PAP, "F ETS"), (PAP, "F WTS")]
    free = play(board, at(board, *units), {PAP: TO_TIVOLI_ROUND})
    assert verdict(free, WEST_CONVOYS)[0] is Outcome.INVALID
    assert "PAPACY A TIV" in units_of(free.position)
    # Florence's fleet in Piombino closes the shortcut: the long chain is the route, and it carries the army.
    held = play(board, at(board, (FLO, "F PIO"), *units), {PAP: TO_TIVOLI_ROUND})
    assert verdict(held, WEST_CONVOYS)[0] is Outcome.SUCCEEDS
    assert verdict(held, TO_TIVOLI)[0] is Outcome.SUCCEEDS
    assert "PAPACY A TIV" in units_of(held.position)


# ------------------------------------------------------------------ retreats across a strait

GULF_DRIVEN_OUT = {NAP: [Move(ref("F NAP"), "GON"), SupportMove(ref("F CAP"), ref("F NAP"), "GON")]}


def driven_out(
    board: MachiavelliBoard, *units: tuple[str, str], more: Mapping[str, Sequence[MachiavelliOrder]] | None = None
) -> CampaignResult:
    """Naples drives the Papal fleet out of the Gulf of Naples; ``more`` orders besides."""
    position = at(board, (PAP, "F GON"), (NAP, "F NAP"), (NAP, "F CAP"), *units)
    orders = {power: [*GULF_DRIVEN_OUT.get(power, []), *(more or {}).get(power, [])] for power in (NAP, PAP)}
    result = play(board, position, orders)
    assert Unit(PAP, UnitType.FLEET, "GON") in result.position.retreats
    return result


def test_a_fleets_retreat_across_a_strait_another_power_holds_fails(board: MachiavelliBoard) -> None:
    to_ionian = Retreat(ref("F GON"), "ION")
    held = driven_out(board, (NAP, "F MES"))
    assert "ION" in held.position.retreats[Unit(PAP, UnitType.FLEET, "GON")]  # adjacency is not closed
    result = retreat_phase(board, held.position, {PAP: [to_ionian]})
    assert [(v.outcome, v.reason) for v in result.verdicts] == [(Outcome.FAILS, "the strait is held by NAPLES")]
    assert not any(u.power == PAP for u in result.position.units)  # the fleet is disbanded
    # Messina empty, the retreat passes.
    result = retreat_phase(board, driven_out(board).position, {PAP: [to_ionian]})
    assert "PAPACY F ION" in units_of(result.position)


def test_a_holder_waiting_to_retreat_itself_holds_no_strait(board: MachiavelliBoard) -> None:
    attack = {PAP: [Move(ref("F PAL"), "MES"), SupportMove(ref("F ETS"), ref("F PAL"), "MES")]}
    both = driven_out(board, (NAP, "F MES"), (PAP, "F PAL"), (PAP, "F ETS"), more=attack)
    assert Unit(NAP, UnitType.FLEET, "MES") in both.position.retreats  # Naples' fleet is out of Messina
    result = retreat_phase(board, both.position, {PAP: [Retreat(ref("F GON"), "ION")]})
    assert "PAPACY F ION" in units_of(result.position)  # the Papal fleet in Messina holds it now
