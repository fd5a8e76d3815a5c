"""How a power's orders are kept: merging by unit, IF blocks, phase-dependent readings, completeness."""

from __future__ import annotations

from judge.app.game_state.boards import opening_position
from judge.app.game_state.conditions import block_lines, chosen_body
from judge.app.game_state.order_sheets import OrderSheet, adapt, completeness, owes_orders
from judge.core.adjudicator import DEFAULT_RULES, Rules
from judge.core.orders import Build, Disband, Hold, Move, Remove, Retreat, Waive
from judge.core.phase import Phase, PhaseType
from judge.core.position import DislodgedUnit, Position
from judge.core.units import Unit, UnitRef, UnitType
from judge.core.variants import load_map
from judge.lang.commands import Conditional
from judge.lang.mail import parse_mail

MAP = load_map("standard")
RULES = DEFAULT_RULES
OPENING = opening_position(MAP)
A = UnitType.ARMY
F = UnitType.FLEET


def read(text: str, phase_type: PhaseType = PhaseType.MOVEMENT) -> OrderSheet:
    return OrderSheet.read(text.splitlines(), MAP, phase_type)


def block(text: str) -> Conditional:
    command = parse_mail(text, MAP).commands[0]
    assert isinstance(command, Conditional)
    return command


def test_a_later_order_for_a_unit_replaces_the_earlier_one_and_others_stay() -> None:
    sheet = read("A PAR - BUR\nF BRE - MAO\nA MAR - SPA")
    sheet = sheet.with_order(Hold(UnitRef(A, "PAR")))
    assert sheet.lines() == ["F BRE - MAO", "A MAR - SPA", "A PAR H"]


def test_waives_are_counted_not_merged() -> None:
    sheet = OrderSheet().with_order(Waive()).with_order(Waive())
    assert sheet.lines() == ["WAIVE", "WAIVE"]


def test_stored_lines_read_back_to_the_same_sheet_blocks_included() -> None:
    sheet = read("A PAR - BUR\nF BRE - MAO").with_block(
        block("IF german army mun and not russian war\n A mar - bur\nELSE\n A mar h\nENDIF")
    )
    again = read("\n".join(sheet.lines()))
    assert again.lines() == sheet.lines()
    assert again.lines()[-1] == "IF GERMANY A MUN AND NOT RUSSIA WAR\n  A MAR - BUR\nELSE\n  A MAR H\nENDIF"


def test_blocks_are_decided_on_the_board_and_later_orders_win() -> None:
    yes = block("IF german army mun\n A par - pic\nENDIF")
    no = block("IF german fleet ber\n F bre - eng\nELSE\n F bre - pic\nENDIF")
    sheet = OrderSheet().with_order(Move(UnitRef(A, "PAR"), "BUR")).with_block(yes).with_block(no)
    assert [str(o) for o in sheet.effective(OPENING, MAP, "FRANCE", RULES)] == ["A PAR - PIC", "F BRE - PIC"]
    after = sheet.with_order(Move(UnitRef(A, "PAR"), "GAS"))
    assert [str(o) for o in after.effective(OPENING, MAP, "FRANCE", RULES)] == ["F BRE - PIC", "A PAR - GAS"]


def test_a_block_replaces_every_earlier_block_that_orders_one_of_its_units() -> None:
    first = block("IF german army mun\n A par - pic\n A mar - spa\nENDIF")
    other = block("IF russian war\n F bre - mao\nENDIF")
    nested = block("IF italian ven\n IF german kie\n  A par - bur\n ENDIF\nENDIF")
    sheet = OrderSheet().with_block(first).with_order(Hold(UnitRef(A, "PAR"))).with_block(other)
    assert sheet.replaced_by(nested) == (first,)
    sheet = sheet.with_block(nested)  # orders A PAR in a nested block: replaces the first, not the other
    assert sheet.items == (Hold(UnitRef(A, "PAR")), other, nested)
    assert sheet.without_blocks("BRE") == (OrderSheet((Hold(UnitRef(A, "PAR")), nested)), (other,))
    assert sheet.without_blocks("MAR") == (sheet, ())
    assert sheet.without_blocks() == (OrderSheet((Hold(UnitRef(A, "PAR")),)), (other, nested))


def test_nested_blocks_and_left_to_right_conditions() -> None:
    nested = block(
        "IF german army mun or russian army war and turkish fleet ank\n"
        " IF austrian fleet tri\n  A par - bur\n ENDIF\nENDIF"
    )
    assert [str(o) for o in sheet_of(nested).effective(OPENING, MAP, "FRANCE", RULES)] == ["A PAR - BUR"]
    assert [line.strip() for line in block_lines(nested)][:2] == [
        "IF (GERMANY A MUN OR RUSSIA A WAR) AND TURKEY F ANK", "IF AUSTRIA F TRI",
    ]
    false = block("IF (german army mun or russian army war) and turkish army ank\n A par - bur\nENDIF")
    assert chosen_body(false, OPENING) == ()


def sheet_of(conditional: Conditional) -> OrderSheet:
    return OrderSheet().with_block(conditional)


def test_orders_read_without_the_phase_mean_what_the_phase_makes_them() -> None:
    move = Move(UnitRef(F, "TRI"), "ALB")
    assert adapt(move, PhaseType.RETREAT) == Retreat(UnitRef(F, "TRI"), "ALB")
    assert adapt(move, PhaseType.MOVEMENT) == move
    assert adapt(Disband(UnitRef(A, "PAR")), PhaseType.ADJUSTMENT) == Remove(UnitRef(A, "PAR"))
    assert adapt(Remove(UnitRef(A, "PAR")), PhaseType.RETREAT) == Disband(UnitRef(A, "PAR"))


def test_movement_completeness_names_the_units_without_orders() -> None:
    orders = read("A PAR - BUR\nF BRE - MAO").effective(OPENING, MAP, "FRANCE", RULES)
    done = completeness(OPENING, "FRANCE", orders, MAP)
    assert done.owes and not done.complete
    assert done.unordered == (Unit("FRANCE", A, "MAR"),)
    assert completeness(OPENING, "FRANCE", [*orders, Hold(UnitRef(A, "MAR"))], MAP).complete


def winter(units: tuple[Unit, ...], centers: dict[str, frozenset[str]]) -> Position:
    return Position("standard", Phase.parse("W1901A"), units, centers)


def test_builds_are_owed_only_as_far_as_free_home_centres_allow() -> None:
    centers = {"FRANCE": frozenset({"PAR", "BRE", "MAR", "SPA", "POR", "BEL"})}
    units = (Unit("FRANCE", A, "PAR"), Unit("FRANCE", A, "BUR"), Unit("FRANCE", F, "MAO"))
    board = winter(units, centers)
    assert completeness(board, "FRANCE", [], MAP).builds_left == 2  # 3 owed, BRE and MAR free
    assert completeness(board, "FRANCE", [Build(F, "BRE"), Waive()], MAP).complete
    full = winter((*units, Unit("FRANCE", A, "BRE"), Unit("FRANCE", A, "MAR")), centers)
    assert not owes_orders(full, "FRANCE", MAP)


def test_surplus_builds_later_ones_win_and_removals_are_counted() -> None:
    centers = {"FRANCE": frozenset({"PAR", "BRE", "MAR", "SPA"})}
    board = winter((Unit("FRANCE", A, "SPA"), Unit("FRANCE", A, "GAS"), Unit("FRANCE", F, "MAO")), centers)
    sheet = OrderSheet()
    for order in (Build(A, "PAR"), Build(F, "BRE"), Build(A, "MAR")):
        sheet = sheet.with_order(order).trimmed(board, "FRANCE")
    assert sheet.lines() == ["BUILD A MAR"]
    shrinking = winter((*board.units, Unit("FRANCE", A, "BUR")), {"FRANCE": frozenset({"SPA", "MAR"})})
    assert completeness(shrinking, "FRANCE", [Remove(UnitRef(A, "BUR"))], MAP).removals_left == 1
    assert completeness(shrinking, "FRANCE", [Remove(UnitRef(A, "BUR")), Remove(UnitRef(None, "GAS"))], MAP).complete


def test_retreat_phases_ask_only_for_the_dislodged_units() -> None:
    board = Position(
        "standard", Phase.parse("S1901R"), (Unit("ITALY", A, "TRI"),),
        {"AUSTRIA": frozenset({"TRI"})}, (DislodgedUnit(Unit("AUSTRIA", F, "TRI"), "VEN"),),
    )  # fmt: skip
    assert not owes_orders(board, "ITALY", MAP)
    done = completeness(board, "AUSTRIA", [], MAP)
    assert done.unordered == (Unit("AUSTRIA", F, "TRI"),)
    orders = read("F TRI - ALB", PhaseType.RETREAT).effective(board, MAP, "AUSTRIA", RULES)
    assert orders == [Retreat(UnitRef(F, "TRI"), "ALB")]
    assert completeness(board, "AUSTRIA", orders, MAP).complete


def test_a_chaos_power_owes_a_build_in_any_free_centre_it_owns() -> None:
    """Chaos builds in any owned centre: a power owning a free non-home centre owes that build, so
    its orders are not complete (and the deadline waits) until it builds or waives."""
    chaos = load_map("chaos")
    board = Position(
        "chaos", Phase.parse("W1901A"), (Unit("PARIS", A, "PAR"),),
        {"PARIS": frozenset({"PAR", "BEL"})},
    )  # fmt: skip
    done = completeness(board, "PARIS", [], chaos)
    assert done.owes and done.builds_left == 1 and not done.complete
    assert completeness(board, "PARIS", [Build(A, "BEL")], chaos).complete
    occupied = Position("chaos", board.phase, (*board.units, Unit("PARIS", A, "BEL")), board.centers)
    assert not owes_orders(occupied, "PARIS", chaos)


def test_a_standard_power_owning_only_foreign_centres_free_owes_no_build() -> None:
    centers = {"FRANCE": frozenset({"PAR", "BEL", "HOL"})}
    board = winter((Unit("FRANCE", A, "PAR"),), centers)
    assert not owes_orders(board, "FRANCE", MAP)


def test_set_any_centres_makes_a_foreign_centre_a_build_site() -> None:
    """SET ANY CENTRES on Standard: the game's map (``game_map_of``) counts a free foreign centre."""
    from judge.app.game_state.variant_rules import game_map_of
    from judge.db.models import Game

    board = winter((Unit("FRANCE", A, "PAR"), Unit("FRANCE", A, "BRE"), Unit("FRANCE", A, "MAR")),
                   {"FRANCE": frozenset({"PAR", "BRE", "MAR", "BEL"})})  # fmt: skip
    assert not owes_orders(board, "FRANCE", MAP)
    anywhere = game_map_of(Game(name="anyc", variant="standard", build_centres="any"))
    assert completeness(board, "FRANCE", [], anywhere).builds_left == 1


def test_a_chaos_build_list_builds_in_an_owned_centre_that_is_another_powers_home() -> None:
    """Chaos: every centre is some power's home, and a power builds in any centre it owns. A postal
    build list on the power's sheet is chosen for that power on the game's map: Paris's list naming
    Belgium (captured) builds there, though Belgium is another power's home centre."""
    chaos = load_map("chaos")
    board = Position(
        "chaos", Phase.parse("W1901A"), (Unit("PARIS", A, "PAR"),),
        {"PARIS": frozenset({"PAR", "BEL"})},
    )  # fmt: skip
    sheet = OrderSheet.read(["BUILD A BEL, A PAR"], chaos, PhaseType.ADJUSTMENT)
    assert sheet.preferences, "the line is kept as a preference list"
    assert sheet.effective(board, chaos, "PARIS", RULES) == [Build(A, "BEL")]


def test_a_build_list_is_read_on_the_map_given_set_any_centres() -> None:
    """The sheet chooses a list on the map it is given (the game's, with SET ANY CENTRES), not the
    position's bare variant: Belgium is a French build site only with the rule."""
    from judge.app.game_state.variant_rules import game_map_of
    from judge.db.models import Game

    board = winter((Unit("FRANCE", A, "PAR"), Unit("FRANCE", A, "BRE"), Unit("FRANCE", A, "MAR")),
                   {"FRANCE": frozenset({"PAR", "BRE", "MAR", "BEL"})})  # fmt: skip
    sheet = read("BUILD A BEL, A PAR", PhaseType.ADJUSTMENT)
    assert sheet.effective(board, MAP, "FRANCE", RULES) == []
    anywhere = game_map_of(Game(name="anyc", variant="standard", build_centres="any"))
    assert sheet.effective(board, anywhere, "FRANCE", RULES) == [Build(A, "BEL")]


def test_a_build_list_is_chosen_under_the_games_adjudication_rules() -> None:
    """``firstcoast`` (missing_coast=first): a fleet built in St Petersburg without its coast is
    legal, as the processing will judge it, so the list takes it; by default it is not (the coast
    is missing), and the list goes on to Moscow."""
    board = Position(
        "standard", Phase.parse("W1901A"), (Unit("RUSSIA", A, "WAR"), Unit("RUSSIA", A, "UKR")),
        {"RUSSIA": frozenset({"WAR", "STP", "MOS"})},
    )  # fmt: skip
    sheet = read("BUILD F STP, A MOS", PhaseType.ADJUSTMENT)
    assert sheet.effective(board, MAP, "RUSSIA", RULES) == [Build(A, "MOS")]
    assert sheet.effective(board, MAP, "RUSSIA", Rules(missing_coast="first")) == [Build(F, "STP")]
