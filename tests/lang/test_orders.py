"""The order reader: every synonym of the Judge's syntax file, French forms, phases, errors."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.core.errors import CoreError
from judge.core.geography import GameMap
from judge.core.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from judge.core.phase import PhaseType
from judge.core.units import UnitRef, UnitType
from judge.core.variants import load_map
from judge.lang.order_fast_path import read_canonical
from judge.lang.order_meaning import read_general
from judge.lang.orders import (
    OrderSyntaxError,
    ReadOrder,
    clear_reading_cache,
    read_order,
    read_order_line,
)

A = UnitType.ARMY
F = UnitType.FLEET


@pytest.fixture(scope="module")
def standard() -> GameMap:
    return load_map("standard")


def read(text: str, game_map: GameMap, **kwargs: object) -> Order:
    return read_order(text, game_map, **kwargs).order  # type: ignore[arg-type]


def fails(text: str, game_map: GameMap, **kwargs: object) -> OrderSyntaxError:
    with pytest.raises(OrderSyntaxError) as caught:
        read_order(text, game_map, **kwargs)  # type: ignore[arg-type]
    return caught.value


# ------------------------------------------------------------------ movement


@pytest.mark.parametrize(
    "text",
    [
        "A LON H",
        "a lon h",
        "A LON HOLD",
        "A LON holds",
        "Army London stands",
        "LON STAND",
        "A LON xxx",
    ],
)
def test_hold_synonyms(text: str, standard: GameMap) -> None:
    order = read(text, standard)
    assert isinstance(order, Hold)
    assert order.unit.location == "LON"


def test_unit_type_is_kept_as_written_or_none(standard: GameMap) -> None:
    assert read("A LON H", standard) == Hold(UnitRef(A, "LON"))
    assert read("fleet LON H", standard) == Hold(UnitRef(F, "LON"))
    assert read("LON H", standard) == Hold(UnitRef(None, "LON"))


@pytest.mark.parametrize(
    "text",
    [
        "A PAR - BUR",
        "A PAR-BUR",
        "A PAR -> BUR",
        "A PAR M BUR",
        "A PAR move BUR",
        "A PAR moves BUR",
        "A PAR move to BUR",
        "A PAR moves to BUR",
        "A PAR to BUR",
        "Army Paris -> Burgundy",
        "army paris moves to burgundy.",
        "PAR - BUR",
    ],
)
def test_move_synonyms(text: str, standard: GameMap) -> None:
    order = read(text, standard)
    assert isinstance(order, Move)
    assert (order.unit.province, order.destination, order.via_convoy, order.route) == (
        "PAR",
        "BUR",
        False,
        (),
    )


def test_move_via_convoy(standard: GameMap) -> None:
    assert read("A LON - BEL VIA CONVOY", standard) == Move(
        UnitRef(A, "LON"), "BEL", via_convoy=True
    )
    assert read("A LON - BEL by convoy", standard) == Move(
        UnitRef(A, "LON"), "BEL", via_convoy=True
    )
    assert read("A LON - BEL VIA", standard) == Move(UnitRef(A, "LON"), "BEL", via_convoy=True)
    assert read("A Espagne - Marseille via convoi", standard, french=True) == Move(
        UnitRef(A, "SPA"), "MAR", via_convoy=True
    )


@pytest.mark.parametrize(
    "text", ["A LON-ENG-MAO-BRE", "A LON - ENG - MAO - BRE", "A Lon-Eng-Mao-Bre"]
)
def test_convoy_route(text: str, standard: GameMap) -> None:
    order = read(text, standard)
    assert order == Move(UnitRef(A, "LON"), "BRE", route=("ENG", "MAO"))
    assert isinstance(order, Move) and order.wants_convoy


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("F TRI S A BUD - SER", SupportMove(UnitRef(F, "TRI"), UnitRef(A, "BUD"), "SER")),
        ("F TRI support A BUD - SER", SupportMove(UnitRef(F, "TRI"), UnitRef(A, "BUD"), "SER")),
        (
            "F TRI supports BUD moves to SER",
            SupportMove(UnitRef(F, "TRI"), UnitRef(None, "BUD"), "SER"),
        ),
        ("A PAR S A MAR", SupportHold(UnitRef(A, "PAR"), UnitRef(A, "MAR"))),
        ("A PAR S A MAR H", SupportHold(UnitRef(A, "PAR"), UnitRef(A, "MAR"))),
        ("F NTH C A LON - BEL", Convoy(UnitRef(F, "NTH"), UnitRef(A, "LON"), "BEL")),
        ("F NTH convoys A LON to BEL", Convoy(UnitRef(F, "NTH"), UnitRef(A, "LON"), "BEL")),
        ("F NTH transports A LON - BEL", Convoy(UnitRef(F, "NTH"), UnitRef(A, "LON"), "BEL")),
        ("F NTH C F LON - BEL", Convoy(UnitRef(F, "NTH"), UnitRef(F, "LON"), "BEL")),
    ],
)
def test_supports_and_convoys(text: str, expected: Order, standard: GameMap) -> None:
    assert read(text, standard) == expected


@pytest.mark.parametrize(
    ("text", "location"),
    [
        ("F STP/SC H", "STP/SC"),
        ("F STP/sc H", "STP/SC"),
        ("F STP(SC) H", "STP/SC"),
        ("F STP (sc) H", "STP/SC"),
        ("F STP/south coast H", "STP/SC"),
        ("F STP (south coast) H", "STP/SC"),
        ("F STP SC H", "STP/SC"),
        ("F St. Petersburg south coast H", "STP/SC"),
        ("F Spain (north coast) H", "SPA/NC"),
        ("F BUL/EC H", "BUL/EC"),
    ],
)
def test_coasts_in_all_forms(text: str, location: str, standard: GameMap) -> None:
    assert read(text, standard) == Hold(UnitRef(F, location))


def test_coast_on_destination(standard: GameMap) -> None:
    assert read("F MAO - SPA/NC", standard) == Move(UnitRef(F, "MAO"), "SPA/NC")
    assert read("F MAO - spa nc", standard) == Move(UnitRef(F, "MAO"), "SPA/NC")
    # A missing coast is the adjudicator's business: it knows the fleet (DATC 6.B.2).
    assert read("F GAS - SPA", standard) == Move(UnitRef(F, "GAS"), "SPA")


def test_multi_word_english_names(standard: GameMap) -> None:
    assert read("F Mid-Atlantic Ocean - English Channel", standard) == Move(
        UnitRef(F, "MAO"), "ENG"
    )
    assert read("F North Sea C A London - Belgium", standard) == Convoy(
        UnitRef(F, "NTH"), UnitRef(A, "LON"), "BEL"
    )


# ------------------------------------------------------------------ French


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A Paris - Bourgogne", Move(UnitRef(A, "PAR"), "BUR")),
        ("A Londres - Belgique", Move(UnitRef(A, "LON"), "BEL")),
        (
            "F mer du Nord C A Londres - Belgique",
            Convoy(UnitRef(F, "NTH"), UnitRef(A, "LON"), "BEL"),
        ),
        ("A Paris T", Hold(UnitRef(A, "PAR"))),
        ("A Paris H", Hold(UnitRef(A, "PAR"))),
        ("A Paris xxx", Hold(UnitRef(A, "PAR"))),
        ("F Constantinople S A Bulgarie xxx", SupportHold(UnitRef(F, "CON"), UnitRef(A, "BUL"))),
        ("A Espagne - Marseille par convoi", Move(UnitRef(A, "SPA"), "MAR", via_convoy=True)),
        ("A Espagne C Toscane", Move(UnitRef(A, "SPA"), "TUS", via_convoy=True)),
        ("A pays de Galles - Londres", Move(UnitRef(A, "WAL"), "LON")),
        ("F Saint-Pétersbourg cs - golfe de Botnie", Move(UnitRef(F, "STP/SC"), "BOT")),
        ("F Saint-Pétersbourg côte sud H", Hold(UnitRef(F, "STP/SC"))),
        ("F Atlantique - Espagne cn", Move(UnitRef(F, "MAO"), "SPA/NC")),
        (
            "A Piémont S A Espagne - Toscane",
            SupportMove(UnitRef(A, "PIE"), UnitRef(A, "SPA"), "TUS"),
        ),
    ],
)
def test_french_orders(text: str, expected: Order, standard: GameMap) -> None:
    assert read(text, standard, french=True) == expected


def test_t_is_transport_in_english_and_hold_in_french(standard: GameMap) -> None:
    assert read("F NTH T A LON - BEL", standard) == Convoy(
        UnitRef(F, "NTH"), UnitRef(A, "LON"), "BEL"
    )
    assert read("F NTH T", standard, french=True) == Hold(UnitRef(F, "NTH"))


def test_convoyed_attack_with_c_is_french_only(standard: GameMap) -> None:
    error = fails("A SPA C TUS", standard)
    assert "convoy" in error.message.lower()
    assert error.unit == UnitRef(A, "SPA")


# ------------------------------------------------------------------ phases


def test_retreat_phase(standard: GameMap) -> None:
    retreat = PhaseType.RETREAT
    assert read("F TRI - ALB", standard, phase_type=retreat) == Retreat(UnitRef(F, "TRI"), "ALB")
    assert read("F TRI R ALB", standard, phase_type=retreat) == Retreat(UnitRef(F, "TRI"), "ALB")
    assert read("F TRI retreat ALB", standard, phase_type=retreat) == Retreat(
        UnitRef(F, "TRI"), "ALB"
    )
    assert read("F TRI DISBAND", standard, phase_type=retreat) == Disband(UnitRef(F, "TRI"))
    assert read("F TRI D", standard, phase_type=retreat) == Disband(UnitRef(F, "TRI"))
    assert read("A LON H", standard, phase_type=retreat) == Hold(UnitRef(A, "LON"))
    error = fails("A LON - NTH - BEL", standard, phase_type=retreat)
    assert "retreat" in error.message


def test_move_outside_retreat_phases_stays_a_move(standard: GameMap) -> None:
    assert read("F TRI - ALB", standard, phase_type=PhaseType.MOVEMENT) == Move(
        UnitRef(F, "TRI"), "ALB"
    )
    assert read("F TRI - ALB", standard) == Move(UnitRef(F, "TRI"), "ALB")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("BUILD A PAR", Build(A, "PAR")),
        ("build fleet BRE", Build(F, "BRE")),
        ("B F STP/NC", Build(F, "STP/NC")),
        ("BUILD F STP/NC", Build(F, "STP/NC")),
        ("A PAR", Build(A, "PAR")),
        ("F BRE BUILD", Build(F, "BRE")),
        ("REMOVE A PAR", Remove(UnitRef(A, "PAR"))),
        ("REMOVE PAR", Remove(UnitRef(None, "PAR"))),
        ("R A PAR", Remove(UnitRef(A, "PAR"))),
        ("DISBAND A PAR", Remove(UnitRef(A, "PAR"))),
        ("A PAR D", Remove(UnitRef(A, "PAR"))),
        ("F TRI DISBAND", Remove(UnitRef(F, "TRI"))),
        ("debuild A PAR", Remove(UnitRef(A, "PAR"))),
        ("WAIVE", Waive()),
        ("w", Waive()),
        ("A LON H", Hold(UnitRef(A, "LON"))),
    ],
)
def test_adjustment_phase(text: str, expected: Order, standard: GameMap) -> None:
    assert read(text, standard, phase_type=PhaseType.ADJUSTMENT) == expected


def test_build_needs_a_unit_type(standard: GameMap) -> None:
    error = fails("BUILD PAR", standard, phase_type=PhaseType.ADJUSTMENT)
    assert "type" in error.message.lower()


def test_bare_unit_outside_adjustments_is_no_order(standard: GameMap) -> None:
    error = fails("A PAR", standard, phase_type=PhaseType.MOVEMENT)
    assert error.unit == UnitRef(A, "PAR")


def test_an_error_on_a_whole_order_quotes_it_whole(standard: GameMap) -> None:
    """The reply quotes the part at fault from its first word to the end of its last."""
    error = fails("A Paris", standard, phase_type=PhaseType.MOVEMENT)
    assert (error.message, error.column, error.text) == ("No order given for A PAR", 1, "A Paris")
    error = fails("A Paris - Bur via convoy", standard, phase_type=PhaseType.RETREAT)
    assert (error.column, error.text) == (1, "A Paris - Bur via convoy")


def test_proxy_is_refused_clearly(standard: GameMap) -> None:
    for text in ("A PAR P ENGLAND", "A PAR proxy to England"):
        error = fails(text, standard)
        assert "proxy" in error.message.lower()
        assert "not supported" in error.message
        assert error.unit == UnitRef(A, "PAR")


# ------------------------------------------------------------------ errors


def test_unknown_source_province(standard: GameMap) -> None:
    error = fails("A Xyz - BUR", standard)
    assert error.message.startswith("Unrecognized source province -> Xyz")
    assert (error.column, error.text, error.unit) == (3, "Xyz", None)
    assert isinstance(error, CoreError)


def test_unknown_destination_keeps_the_unit(standard: GameMap) -> None:
    error = fails("A PAR - Burgandy", standard)
    assert error.message.startswith("Unrecognized destination province -> Burgandy")
    assert (error.column, error.text, error.unit) == (9, "Burgandy", UnitRef(A, "PAR"))


def test_misspelt_name_gets_suggestions(standard: GameMap) -> None:
    error = fails("A PAR - Burgundyy", standard)
    assert "did you mean" in error.message


def test_coast_that_does_not_exist(standard: GameMap) -> None:
    error = fails("F SPA/EC H", standard)
    assert "coast" in error.message.lower()
    error = fails("F PAR/NC H", standard)
    assert "coast" in error.message.lower()


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("A PAR -", 8),
        ("F NTH C A LON", 14),
        ("A PAR S", 8),
        ("", 1),
        ("A PAR BUR", 7),
        ("A PAR - BUR BUR H", 13),
    ],
)
def test_syntax_errors_have_columns(text: str, column: int, standard: GameMap) -> None:
    error = fails(text, standard)
    assert error.column == column
    assert error.message


def test_error_type_is_precise(standard: GameMap) -> None:
    with pytest.raises(OrderSyntaxError):
        read_order("A PAR # BUR", standard)


# ------------------------------------------------------------------ lines


def test_line_with_several_orders(standard: GameMap) -> None:
    line = "A PAR - BUR, A MAR - SPA; F BRE - Xyz"
    results = read_order_line(line, standard)
    assert [type(r).__name__ for r in results] == ["ReadOrder", "ReadOrder", "OrderSyntaxError"]
    first, second, third = results
    assert isinstance(first, ReadOrder) and first.order == Move(UnitRef(A, "PAR"), "BUR")
    assert isinstance(second, ReadOrder) and second.text == "A MAR - SPA"
    assert isinstance(third, OrderSyntaxError)
    assert line[third.column - 1 :].startswith("Xyz")


def test_line_skips_empty_pieces(standard: GameMap) -> None:
    assert len(read_order_line("A PAR H,, ;A MAR H", standard)) == 2
    assert read_order_line("   ", standard) == []


def test_read_order_keeps_text(standard: GameMap) -> None:
    read_ = read_order("  A LON - BEL  ", standard)
    assert read_.text == "A LON - BEL"
    assert str(read_.order) == "A LON - BEL"


# ------------------------------------------------------------------ readings


def test_readings_settled_by_a_rule_are_reported(standard: GameMap) -> None:
    english = read_order("A MAR H", standard)
    assert english.order == Hold(UnitRef(A, "MAR"))
    assert [(r.province, r.reading) for r in english.readings] == [("MAR", "code")]
    assert english.readings[0].alternatives
    french = read_order("F MAR H", standard, french=True)
    assert french.order == Hold(UnitRef(F, "NAF"))
    assert french.readings[0].alternatives == ("MAR",)


def test_plain_names_report_no_readings(standard: GameMap) -> None:
    assert read_order("A PAR - BUR", standard).readings == ()


def test_coast_on_a_province_without_coasts_in_words(standard: GameMap) -> None:
    error = fails("A Paris north coast - BUR", standard)
    assert error.message.startswith("Invalid coast")
    assert error.column == 3


def test_columns_of_orders_in_a_line(standard: GameMap) -> None:
    line = "  A PAR - BUR ,  F BRE H"
    first, second = read_order_line(line, standard)
    assert isinstance(first, ReadOrder) and isinstance(second, ReadOrder)
    assert line[first.column - 1 :].startswith(first.text)
    assert line[second.column - 1 :].startswith("F BRE H")


# ------------------------------------------------------------------ round trip

STANDARD = load_map("standard")
PROVINCES = sorted(STANDARD.provinces)
FLEET_SPOTS = sorted(loc for code in PROVINCES for loc in STANDARD.fleet_locations(code))
ARMY_SPOTS = sorted(code for code in PROVINCES if STANDARD.is_land(code))

unit_refs = st.one_of(
    st.builds(UnitRef, st.just(A), st.sampled_from(ARMY_SPOTS)),
    st.builds(UnitRef, st.just(F), st.sampled_from(FLEET_SPOTS)),
    st.builds(UnitRef, st.none(), st.sampled_from(PROVINCES)),
)
places = st.sampled_from(PROVINCES)
locations = st.sampled_from(sorted({*PROVINCES, *FLEET_SPOTS}))

movement_orders = st.one_of(
    st.builds(Hold, unit_refs),
    st.builds(Move, unit_refs, locations, st.booleans()),
    st.builds(
        Move,
        unit_refs,
        places,
        st.just(False),
        st.lists(places, min_size=1, max_size=3).map(tuple),
    ),
    st.builds(SupportHold, unit_refs, unit_refs),
    st.builds(SupportMove, unit_refs, unit_refs, locations),
    st.builds(Convoy, unit_refs, unit_refs, places),
)
retreat_orders = st.one_of(st.builds(Retreat, unit_refs, locations), st.builds(Disband, unit_refs))
adjustment_orders = st.one_of(
    st.builds(Build, st.just(A), st.sampled_from(ARMY_SPOTS)),
    st.builds(Build, st.just(F), st.sampled_from(FLEET_SPOTS)),
    st.builds(Remove, unit_refs),
    st.just(Waive()),
)


@given(order=movement_orders)
@settings(max_examples=300, deadline=None)
def test_canonical_text_reads_back_movement(order: Order) -> None:
    assert read(str(order), STANDARD, phase_type=PhaseType.MOVEMENT) == order


@given(order=retreat_orders)
@settings(max_examples=150, deadline=None)
def test_canonical_text_reads_back_retreats(order: Order) -> None:
    assert read(str(order), STANDARD, phase_type=PhaseType.RETREAT) == order


@given(order=adjustment_orders)
@settings(max_examples=150, deadline=None)
def test_canonical_text_reads_back_adjustments(order: Order) -> None:
    assert read(str(order), STANDARD, phase_type=PhaseType.ADJUSTMENT) == order


@given(text=st.text(max_size=40))
@settings(max_examples=300, deadline=None)
def test_any_text_reads_or_fails_cleanly(text: str) -> None:
    try:
        read_order(text, STANDARD)
    except OrderSyntaxError as error:
        assert error.message
        assert 1 <= error.column <= len(text) + 1


# ------------------------------------------------------------------ fast path and cache
#
# read_order first tries a fast path for plainly written orders and caches what
# it reads. Both are only allowed to be faster, never different: wherever the
# fast path answers, its answer must be exactly the general reader's (order,
# text, readings, column); where the general reader refuses, the fast path
# must give up rather than answer.

PHASES: list[PhaseType | None] = [None, *PhaseType]


def general_outcome(text: str, phase_type: PhaseType | None, french: bool) -> ReadOrder | str:
    try:
        return read_general(text, STANDARD, phase_type, french)
    except OrderSyntaxError as error:
        return f"error at {error.column}: {error.message}"


def fast_agrees(text: str, phase_type: PhaseType | None, french: bool) -> bool:
    """Whether the fast path answered; fails the test if it answered differently."""
    fast = read_canonical(text, STANDARD, phase_type, french)
    if fast is None:
        return False
    assert fast == general_outcome(text, phase_type, french), text
    return True


@given(
    order=st.one_of(movement_orders, retreat_orders, adjustment_orders),
    phase_type=st.sampled_from(PHASES),
    french=st.booleans(),
)
@settings(max_examples=400, deadline=None)
def test_fast_path_agrees_with_the_general_reader_on_canonical_orders(
    order: Order, phase_type: PhaseType | None, french: bool
) -> None:
    fast_agrees(str(order), phase_type, french)


@pytest.mark.parametrize(
    ("orders", "phase_type"),
    [
        (movement_orders, PhaseType.MOVEMENT),
        (retreat_orders, PhaseType.RETREAT),
        (adjustment_orders, PhaseType.ADJUSTMENT),
    ],
)
def test_fast_path_answers_every_canonical_order_of_its_phase(
    orders: st.SearchStrategy[Order], phase_type: PhaseType
) -> None:
    @given(order=orders)
    @settings(max_examples=200, deadline=None)
    def check(order: Order) -> None:
        text = str(order)
        assert fast_agrees(text, phase_type, False), f"the fast path gave up on {text!r}"

    check()


def datc_order_texts() -> list[tuple[str, PhaseType]]:
    from judge.core.phase import Phase
    from tests.data_dir import datc_cases

    cases = datc_cases()
    return [
        (text, Phase.parse(case["phase"]).type)
        for case in cases
        for orders in case["orders"].values()
        for text in orders
    ]


def test_fast_path_agrees_on_every_datc_order() -> None:
    texts = datc_order_texts()
    assert len(texts) > 600
    for text, own_phase in texts:
        assert fast_agrees(text, own_phase, False), f"the fast path gave up on {text!r}"
        for phase_type in PHASES:
            for french in (False, True):
                fast_agrees(text, phase_type, french)


# Words players mix: codes, names of several words, coasts in every form,
# keywords and their phrases in both languages, misspellings, ambiguous codes.
SOUP_WORDS = [
    *PROVINCES[::3], "STP/NC", "STP/SC", "SPA/NC", "BUL/EC", "BUL/NC", "PAR/NC", "STP/north",
    "STP/n", "stp/NORD", "SPA/xx", "LON/", "MAR", "TYR", "NAF", "Pariss", "Xyz",
    "Paris", "London", "mer", "du", "Nord", "Mid-Atlantic", "Ocean", "St", "Petersburg",
    "North", "Sea", "Espagne", "cote", "côte", "nord", "coast", "north", "nc", "cn", "co", "Piémont", "Bür",
    "A", "F", "H", "S", "C", "T", "D", "R", "B", "M", "P", "W", "a", "f", "xxx",
    "-", "->", "—", "VIA", "CONVOY", "convoi", "par", "by", "to", "move", "moves", "va",
    "HOLD", "SUPPORT", "BUILD", "REMOVE", "DISBAND", "WAIVE", "RETREAT", "PROXY",
    "soutien", "tient", "(nc)", ".", "H.", "army", "fleet", "armee", "flotte",
]  # fmt: skip


@given(
    words=st.lists(st.sampled_from(SOUP_WORDS), min_size=1, max_size=8),
    case=st.sampled_from([str, str.upper, str.lower, str.title]),
    space=st.sampled_from([" ", "  ", "\t", " \u00a0"]),
    phase_type=st.sampled_from(PHASES),
    french=st.booleans(),
)
@settings(max_examples=1500, deadline=None)
def test_fast_path_agrees_with_the_general_reader_on_word_soup(
    words: list[str],
    case: Callable[[str], str],
    space: str,
    phase_type: PhaseType | None,
    french: bool,
) -> None:
    text = " " + space.join(case(w) for w in words) + space
    fast_agrees(text, phase_type, french)


@pytest.mark.parametrize(
    "text",
    [
        "A LON - BEL",
        "a lon - bel",
        "F NTH C A LON - BEL",
        "F TRI S A BUD - SER",
        "F TRI S A BUD",
        "BUILD F STP/NC",
        "REMOVE LYO",
        "F TRI DISBAND",
        "A LON - NTH - BEL",
        "A LON - BEL VIA CONVOY",
        "F MAR H",
        "F Par H",
        "A PAR - BUR via convoi",
        "PAR - BUR",
        "PAR H",
        "A PAR MOVES TO BUR",
        "F NTH C A LON MOVE TO BEL",
    ],
)
def test_fast_path_answers_plain_orders(text: str) -> None:
    answered = [
        fast_agrees(text, phase_type, french) for phase_type in PHASES for french in (False, True)
    ]
    assert any(answered), f"the fast path never answered {text!r}"


@pytest.mark.parametrize(
    "text",
    [
        "A mer du Nord - BEL",
        "A LON-BEL",
        "F STP (nc) - BOT",
        "A PAR",
        "F STP/NC/SC - BOT",
        "A LON - Xyz",
        "A PAR # BUR",
    ],
)
def test_fast_path_leaves_unusual_orders_to_the_general_reader(text: str) -> None:
    for phase_type in PHASES:
        assert read_canonical(text, STANDARD, phase_type, False) is None


def test_cache_keeps_phases_and_languages_apart() -> None:
    clear_reading_cache()
    assert read("F TRI - ALB", STANDARD, phase_type=PhaseType.MOVEMENT) == Move(
        UnitRef(F, "TRI"), "ALB"
    )
    assert read("F TRI - ALB", STANDARD, phase_type=PhaseType.RETREAT) == Retreat(
        UnitRef(F, "TRI"), "ALB"
    )
    assert read("F TRI - ALB", STANDARD, phase_type=PhaseType.MOVEMENT) == Move(
        UnitRef(F, "TRI"), "ALB"
    )
    assert read("F MAR H", STANDARD) == Hold(UnitRef(F, "MAR"))
    assert read("F MAR H", STANDARD, french=True) == Hold(UnitRef(F, "NAF"))
    assert read("F MAR H", STANDARD) == Hold(UnitRef(F, "MAR"))


def test_cached_reading_keeps_text_and_column() -> None:
    clear_reading_cache()
    first = read_order("  A PAR H", STANDARD)
    second = read_order("A PAR H", STANDARD)
    assert (first.column, first.text) == (3, "A PAR H")
    assert (second.column, second.text) == (1, "A PAR H")
    assert read_order("  A PAR H", STANDARD) == first


def test_errors_are_raised_afresh_from_the_cache() -> None:
    for _ in range(2):
        error = fails("A PAR - Pariss", STANDARD)
        assert error.column == 9
        assert "did you mean" in error.message


def synonyms(kind: str) -> list[str]:
    """Every word or phrase of either language that reads as ``kind``."""
    from judge.lang.order_tokens import ENGLISH_KEYWORDS, FRENCH_KEYWORDS

    return sorted({w for t in (ENGLISH_KEYWORDS, FRENCH_KEYWORDS) for w, k in t.items() if k == kind})


soup_places = st.one_of(
    st.sampled_from(sorted({*PROVINCES, *FLEET_SPOTS})),
    st.sampled_from(["MAR", "TYR", "NAF", "Paris", "Londres", "Xyz", "STP/n", "PAR/SC", "mer du Nord"]),
)
soup_units = st.tuples(st.sampled_from(["", *synonyms("ARMY"), *synonyms("FLEET")]), soup_places).map(
    lambda parts: " ".join(p for p in parts if p)
)


def word_of(kind: str) -> st.SearchStrategy[str]:
    return st.sampled_from(synonyms(kind) + (["-", "->"] if kind == "_MOVE" else []))


# Every shape of grammar/orders.lark, right or wrong for the phase, with any synonym.
shaped_orders = st.one_of(
    st.tuples(soup_units, word_of("HOLD")),
    st.tuples(
        soup_units,
        word_of("_MOVE"),
        soup_places,
        st.lists(st.tuples(word_of("_MOVE"), soup_places).map(" ".join), max_size=2).map(" ".join),
        st.sampled_from(["", *synonyms("VIA_CONVOY")]),
    ),
    st.tuples(
        soup_units,
        word_of("SUPPORT"),
        soup_units,
        st.sampled_from(["", "H", "- BUR", "- SPA/NC", "- BUR VIA CONVOY", "- Xyz"]),
    ),
    st.tuples(soup_units, word_of("CONVOY"), soup_units, st.sampled_from(["", "- BEL", "- HOL via"])),
    st.tuples(soup_units, st.sampled_from(["R", "RETREAT", "retraite", "-"]), soup_places),
    st.tuples(
        soup_units,
        st.sampled_from(synonyms("DISBAND") + synonyms("REMOVE") + synonyms("BUILD") + ["R", "r"]),
    ),
    st.tuples(
        st.sampled_from(synonyms("DISBAND") + synonyms("REMOVE") + synonyms("BUILD") + ["R", "r"]),
        soup_units,
    ),
    st.tuples(word_of("WAIVE"), st.sampled_from(["", "PAR", "now"])),
    st.tuples(soup_units, st.sampled_from(["", "P", "PROXY GERMANY"])),
).map(lambda parts: " ".join(p for p in parts if p))


@given(
    text=shaped_orders,
    case=st.sampled_from([str, str.upper, str.lower, str.title]),
    phase_type=st.sampled_from(PHASES),
    french=st.booleans(),
)
@settings(max_examples=2000, deadline=None)
def test_fast_path_agrees_with_the_general_reader_on_every_shape(
    text: str, case: Callable[[str], str], phase_type: PhaseType | None, french: bool
) -> None:
    fast_agrees(case(text), phase_type, french)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("F St Petersburg cs H", Hold(UnitRef(F, "STP/SC"))),
        ("F MAO - Spain cn", Move(UnitRef(F, "MAO"), "SPA/NC")),
        ("F stp cn - BAR", Move(UnitRef(F, "STP/NC"), "BAR")),
    ],
)
def test_a_french_coast_abbreviation_after_a_name_reads_in_an_english_game(
    text: str, expected: Order, standard: GameMap
) -> None:
    """"cs"/"cn" are no coast words of their own in English, but after a name the name tables read
    them (a French player in an English game)."""
    clear_reading_cache()
    assert read(text, standard) == expected


@pytest.mark.parametrize(
    ("text", "phase_type", "unit"),
    [
        ("REMOVE A PAR PAR", PhaseType.ADJUSTMENT, UnitRef(A, "PAR")),
        ("DISBAND F BRE xx yy", PhaseType.ADJUSTMENT, UnitRef(F, "BRE")),
        ("BUILD A PAR PAR", PhaseType.ADJUSTMENT, UnitRef(A, "PAR")),
        ("DISBAND A PAR - BUR", PhaseType.RETREAT, UnitRef(A, "PAR")),
    ],
)
def test_an_unreadable_order_after_its_keyword_still_names_its_unit(
    text: str, phase_type: PhaseType, unit: UnitRef, standard: GameMap
) -> None:
    """A build, removal or disband that cannot be read still says which unit it was for (the word
    before the unit is skipped, not the unit's type)."""
    assert fails(text, standard, phase_type=phase_type).unit == unit


def test_two_different_coasts_are_refused_as_such(standard: GameMap) -> None:
    """A name that carries a coast and a second, different coast: the answer says they differ (not
    that the province lacks a coast)."""
    error = fails("F St Petersburg north coast/sc H", standard)
    assert error.message == "Two different coasts given -> St Petersburg north coast"


@pytest.mark.parametrize("french", [False, True])
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("F Edimbourg-mer du Nord", Move(UnitRef(F, "EDI"), "NTH")),
        ("F Nwy-mer de Groenland et de Norvège", Move(UnitRef(F, "NWY"), "NWG")),
    ],
)
def test_a_hyphen_before_a_name_of_several_words_is_a_move(
    text: str, expected: Order, french: bool, standard: GameMap
) -> None:
    """"Edimbourg-mer du Nord": the hyphen is cut where the words after it, spaced ones included,
    make a name."""
    clear_reading_cache()
    assert read(text, standard, french=french) == expected


def test_an_unknown_first_word_is_quoted_whole() -> None:
    """A place at the very start of the order (no unit type) is quoted from its first letter."""
    error = fails("Pariss - Bur", STANDARD)
    assert error.message == "Unrecognized source province -> Pariss (did you mean PAR?)"
    assert (error.column, error.text) == (1, "Pariss")
