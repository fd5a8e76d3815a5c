"""Issue 13: suggestions for an unknown province name, as a new player meets them.

Suggestions come by prefix, by abbreviation and by edit distance over every
name and abbreviation of the map (rapidfuzz), the provinces next to the
ordered unit first; a misspelt name with a hyphen is quoted and matched whole.
"""

from __future__ import annotations

from judge.core.names import suggest_provinces
from judge.core.variants import load_map
from judge.lang.orders import OrderSyntaxError, read_order_line


def _error(text: str) -> str:
    [result] = read_order_line(text, load_map())
    assert isinstance(result, OrderSyntaxError), result
    return result.message


def test_a_prefix_suggests_the_names_it_begins_neighbours_first() -> None:
    assert _error("F Bar - Nor") == (
        "Unrecognized destination province -> Nor (did you mean NWY or NWG or NTH or NAF?)"
    )


def test_a_hyphenated_misspelt_name_is_kept_whole() -> None:
    assert _error("F Bre - Mid-Atlantc Ocean") == (
        "Unrecognized destination province -> Mid-Atlantc Ocean (did you mean MAO?)"
    )
    assert _error("A Mos - St-Petrsburg") == "Unrecognized destination province -> St-Petrsburg (did you mean STP?)"


def test_names_joined_by_dashes_are_still_cut() -> None:
    [read] = read_order_line("F Lon-Eng-Mao-Bre", load_map())
    assert not isinstance(read, OrderSyntaxError)
    assert _error("A Par-Brr").startswith("Unrecognized destination province -> Brr (did you mean ")


def test_an_abbreviation_and_a_misspelling_find_their_province() -> None:
    game_map = load_map()
    assert suggest_provinces("Nrth", game_map)[0] == "NTH"
    assert suggest_provinces("Norwy", game_map) == ("NWY",)
    assert suggest_provinces("Livnia", game_map) == ("LVN",)
    assert suggest_provinces("Pariss", game_map) == ("PAR",)
    assert suggest_provinces("Norvge", game_map, french=True) == ("NWY",)


def test_nothing_close_suggests_nothing() -> None:
    assert suggest_provinces("Qqqqqqqq", load_map()) == ()


def test_a_name_before_a_hyphenated_name_is_cut_off_only_there() -> None:
    [read] = read_order_line("F Bre-Mid-Atlantic Ocean", load_map())
    assert not isinstance(read, OrderSyntaxError)
    assert (read.order.unit.location, read.order.destination) == ("BRE", "MAO")  # type: ignore[attr-defined]
    assert _error("F Bre-Mid-Atlantc Ocean") == (
        "Unrecognized destination province -> Mid-Atlantc Ocean (did you mean MAO?)"
    )
    [read] = read_order_line("A Mos-St-Petersburg", load_map())
    assert not isinstance(read, OrderSyntaxError)
