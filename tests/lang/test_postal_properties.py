"""Property tests of the postal notations (issue 18): nationalities, brackets, preference lists.

As for the rest of the reader (tests/lang/test_orders.py): whatever the
notation, the fast path either gives up or answers exactly as the general
reader; a nationality or a bracketed keyword changes nothing but what it
says; a preference list reads back from the judge's notation of it.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.core.names import name_key, name_table
from judge.core.orders import Build, Convoy, Hold, Order, Remove, Retreat, SupportHold, SupportMove
from judge.core.phase import PhaseType
from judge.core.units import UnitRef, UnitType
from judge.lang.nations import nation_words
from judge.lang.orders import OrderSyntaxError, ReadOrder, read_order, read_order_line
from judge.lang.preferences import Preference
from tests.lang.test_orders import (
    ARMY_SPOTS,
    FLEET_SPOTS,
    PHASES,
    PROVINCES,
    SOUP_WORDS,
    STANDARD,
    fast_agrees,
    locations,
    places,
    unit_refs,
)

A = UnitType.ARMY
F = UnitType.FLEET

NATION_WORDS = sorted(nation_words(STANDARD))
POWER_OF = dict(nation_words(STANDARD))
SHARED = set(name_table(STANDARD).ambiguous_keys())
PLAIN_PROVINCES = [p for p in PROVINCES if name_key(p) not in SHARED]
PLAIN_ARMY_SPOTS = [p for p in ARMY_SPOTS if name_key(p) not in SHARED]
PLAIN_FLEET_SPOTS = [p for p in FLEET_SPOTS if name_key(p.split("/")[0]) not in SHARED]

POSTAL_WORDS = [
    *SOUP_WORDS, "(S)", "(s)", "(C)", "(H)", "(h)", "ALLEMAGNE", "German", "Russie", "turc", "ANG.", "Allem.",
    "Ita.", "retirer", "construire", "fait", "retraite", "à", "F(HOL)", "A(MUN)", "(HOL)", ",", ";", "T",
    "Angleterre", "english", "retreat", "to", "BUD", "TRI", "MAR", "TYR", "A", "F",
]  # fmt: skip

cases = st.sampled_from([str, str.upper, str.lower, str.title])


@given(
    words=st.lists(st.sampled_from(POSTAL_WORDS), min_size=1, max_size=9),
    case=cases,
    phase_type=st.sampled_from(PHASES),
    french=st.booleans(),
)
@settings(max_examples=1500, deadline=None)
def test_fast_path_agrees_with_the_general_reader_on_postal_soup(
    words: list[str], case: Callable[[str], str], phase_type: PhaseType | None, french: bool
) -> None:
    text = " ".join(case(w) for w in words)
    fast_agrees(text, phase_type, french)


@given(
    words=st.lists(st.sampled_from(POSTAL_WORDS), min_size=1, max_size=12),
    phase_type=st.sampled_from(PHASES),
    french=st.booleans(),
)
@settings(max_examples=500, deadline=None)
def test_lines_with_lists_read_or_fail_cleanly(words: list[str], phase_type: PhaseType | None, french: bool) -> None:
    line = " ".join(words)
    for result in read_order_line(line, STANDARD, phase_type=phase_type, french=french):
        if isinstance(result, OrderSyntaxError):
            assert result.message and 1 <= result.column <= len(line) + 1
        else:
            assert line[result.column - 1 :].startswith(result.text)
            if result.preferences:
                assert result.preferences[0] == result.order


supports_and_convoys = st.one_of(
    st.builds(SupportHold, unit_refs, unit_refs),
    st.builds(SupportMove, unit_refs, unit_refs, locations),
    st.builds(Convoy, unit_refs, unit_refs, places),
)


def with_nationality(order: Order, word: str, bracketed: bool) -> str:
    """The judge's notation of ``order`` with ``word`` before the other unit and, maybe, "(S)"/"(C)"."""
    text = str(order)
    keyword = " S " if isinstance(order, SupportHold | SupportMove) else " C "
    own, rest = text.split(keyword, 1)
    mark = f" ({keyword.strip()}) " if bracketed else keyword
    return f"{own}{mark}{word} {rest}"


@given(order=supports_and_convoys, word=st.sampled_from(NATION_WORDS), case=cases, bracketed=st.booleans())
@settings(max_examples=400, deadline=None)
def test_a_nationality_changes_nothing_but_what_it_says(
    order: Order, word: str, case: Callable[[str], str], bracketed: bool
) -> None:
    text = with_nationality(order, case(word), bracketed)
    read = read_order(text, STANDARD)
    assert read.order == order, text
    other = order.supported if isinstance(order, SupportHold | SupportMove) else order.convoyed  # type: ignore[union-attr]
    assert read.nationalities == ((other.location, POWER_OF[word]),), text
    fast_agrees(text, None, False)
    fast_agrees(text, PhaseType.MOVEMENT, True)


@given(unit=unit_refs, french=st.booleans())
@settings(max_examples=200, deadline=None)
def test_bracketed_hold(unit: UnitRef, french: bool) -> None:
    if french and name_key(unit.province) in SHARED:
        return  # a shared code reads the French way in French: tested with the board
    assert read_order(f"{unit} (H)", STANDARD, french=french).order == Hold(unit)


@given(
    unit=st.builds(UnitRef, st.just(A), st.sampled_from(PLAIN_ARMY_SPOTS)),
    choices=st.lists(st.sampled_from(PLAIN_PROVINCES), min_size=1, max_size=6, unique=True),
    phase_type=st.sampled_from([PhaseType.MOVEMENT, PhaseType.RETREAT]),
    french=st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_a_retreat_list_reads_as_written_and_back(
    unit: UnitRef, choices: list[str], phase_type: PhaseType, french: bool
) -> None:
    keyword = "retraite" if french else "retreat"
    line = f"{unit} {keyword} {', '.join(choices)}"
    [read] = read_order_line(line, STANDARD, phase_type=phase_type, french=french)
    assert isinstance(read, ReadOrder), line
    expected = tuple(Retreat(unit, choice) for choice in choices)
    if len(choices) > 1:
        assert read.preferences == expected
        assert read.text == line
        again = read_order_line(str(Preference(expected)), STANDARD, phase_type=phase_type)
        assert [r.preferences for r in again if isinstance(r, ReadOrder)] == [expected]
    else:
        assert read.order == expected[0] and read.preferences == ()


builds = st.one_of(
    st.builds(Build, st.just(A), st.sampled_from(PLAIN_ARMY_SPOTS)),
    st.builds(Build, st.just(F), st.sampled_from(PLAIN_FLEET_SPOTS)),
)


@given(
    choices=st.lists(builds, min_size=2, max_size=5, unique_by=lambda b: b.location),
    removal=st.booleans(),
    bracketed=st.booleans(),
    phase_type=st.sampled_from([None, PhaseType.MOVEMENT, PhaseType.ADJUSTMENT]),
)
@settings(max_examples=300, deadline=None)
def test_build_and_removal_lists_read_as_written_and_back(
    choices: list[Build], removal: bool, bracketed: bool, phase_type: PhaseType | None
) -> None:
    def unit(build: Build) -> str:
        return f"{build.type.value}({build.location})" if bracketed else f"{build.type.value} {build.location}"

    keyword = "REMOVE" if removal else "BUILD"
    line = f"{keyword} " + ", ".join(unit(b) for b in choices)
    expected: tuple[Order, ...] = (
        tuple(Remove(UnitRef(b.type, b.location)) for b in choices) if removal else tuple(choices)
    )
    [read] = read_order_line(line, STANDARD, phase_type=phase_type)
    assert isinstance(read, ReadOrder), (line, read)
    assert read.preferences == expected, line
    [again] = read_order_line(str(Preference(expected)), STANDARD, phase_type=phase_type)
    assert isinstance(again, ReadOrder) and again.preferences == expected
