"""An order in words (judge.app.mail_out.wording.order_phrase), kept once written, names the units the
board it is asked about holds: the same order on two boards, by two powers, in two languages, asked in
turn, is written each time as that board, power and language have it."""

from __future__ import annotations

from judge.app.mail_out.wording import order_phrase
from judge.core.orders import Convoy, Hold, Move, Order, Remove, Retreat, SupportHold, SupportMove
from judge.core.phase import Phase
from judge.core.position import DislodgedUnit, Position
from judge.core.units import Unit, UnitRef, UnitType
from judge.core.variants import load_map
from judge.i18n import translation

ARMY, FLEET = UnitType.ARMY, UnitType.FLEET


def board(phase: str, *units: Unit, dislodged: tuple[Unit, ...] = ()) -> Position:
    return Position(
        "standard", Phase.parse(phase), tuple(units), {}, tuple(DislodgedUnit(unit, "BUR") for unit in dislodged)
    )


def words(order: Order, power: str, position: Position, language: str = "en") -> str:
    return order_phrase(order, power, position, language, load_map("standard"), translation(language).gettext)


def test_the_same_order_names_the_units_each_board_holds_asked_in_turn() -> None:
    support = SupportHold(UnitRef(ARMY, "MUN"), UnitRef(ARMY, "BUR"))
    german = board("S1901M", Unit("GERMANY", ARMY, "MUN"), Unit("GERMANY", ARMY, "BUR"))
    french = board("S1901M", Unit("GERMANY", ARMY, "MUN"), Unit("FRANCE", ARMY, "BUR"))
    fleet = board("S1901M", Unit("GERMANY", ARMY, "MUN"), Unit("FRANCE", FLEET, "BUR"))
    empty = board("S1901M", Unit("GERMANY", ARMY, "MUN"))
    for _round in range(2):  # the second round from what the first kept
        assert words(support, "GERMANY", german) == "Army Munich SUPPORT Army Burgundy"
        assert words(support, "GERMANY", french) == "Army Munich SUPPORT French Army Burgundy"
        assert words(support, "GERMANY", fleet) == "Army Munich SUPPORT French Fleet Burgundy"
        assert words(support, "GERMANY", empty) == "Army Munich SUPPORT Army Burgundy"
        assert words(support, "FRANCE", french) == "German Army Munich SUPPORT Army Burgundy"
        assert words(support, "GERMANY", french, "fr") == "Armée Munich SOUTIENT Armée française Bourgogne"


def test_a_retreat_phase_names_the_unit_waiting_to_retreat_an_adjustment_the_one_standing() -> None:
    standing, waiting = Unit("FRANCE", ARMY, "BUR"), Unit("GERMANY", FLEET, "BUR")
    retreats = board("S1901R", standing, dislodged=(waiting,))
    movement = board("S1901M", standing, dislodged=(waiting,))
    hold = Hold(UnitRef(None, "BUR"))
    for _round in range(2):
        assert words(Retreat(UnitRef(None, "BUR"), "RUH"), "GERMANY", retreats) == "Fleet Burgundy -> Ruhr"
        assert words(hold, "GERMANY", retreats) == "Fleet Burgundy HOLD"
        assert words(hold, "GERMANY", movement) == "French Army Burgundy HOLD"
        assert words(Remove(UnitRef(None, "BUR")), "FRANCE", board("W1901A", standing)) == "Removes the army in Burgundy"
        assert words(Remove(UnitRef(FLEET, "BUR")), "FRANCE", board("W1901A")) == "Removes the fleet in Burgundy"


def test_supports_and_convoys_name_the_unit_they_help_as_it_stands() -> None:
    position = board("F1901M", Unit("ENGLAND", FLEET, "NTH"), Unit("FRANCE", ARMY, "BEL"), Unit("ENGLAND", ARMY, "YOR"))
    convoy = Convoy(UnitRef(FLEET, "NTH"), UnitRef(ARMY, "YOR"), "NWY")
    assert words(convoy, "ENGLAND", position) == "Fleet North Sea CONVOY Army Yorkshire -> Norway"
    move = SupportMove(UnitRef(FLEET, "NTH"), UnitRef(ARMY, "BEL"), "HOL")
    assert words(move, "ENGLAND", position) == "Fleet North Sea SUPPORT French Army Belgium -> Holland"
    assert words(Move(UnitRef(ARMY, "YOR"), "NWY", via_convoy=True), "ENGLAND", position) == (
        "Army Yorkshire -> Norway VIA CONVOY"
    )
