"""Colours that differ (issue 28): any two powers' colours, and any two powers' territory tints,
differ by at least MIN_POWER_DELTA in CIEDE2000 on every shipped variant; neutral and plain land
differ from every power's land."""

from __future__ import annotations

import itertools

import pytest

from judge.core.position import Position
from judge.core.variants import SCENARIO_DIRECTORIES, available_variants, load_map
from judge.maps.colour import ciede2000, difference, lab
from judge.maps.render import (
    _NEUTRAL_LAND,
    _PALETTE,
    MIN_POWER_DELTA,
    power_colours,
    territory_colour,
)

_PLAIN_LAND = "#eee2c0"  # the art's .land fill
_SEA = "#a8c8e6"  # the art's .sea fill


def test_ciede2000_gives_the_published_values() -> None:
    # Pairs from Sharma, Wu and Dalal's table of CIEDE2000 test data (1, 7, 17 and 25).
    pairs = [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ]
    for first, second, expected in pairs:
        assert ciede2000(first, second) == pytest.approx(expected, abs=1e-4)
    assert lab("#ffffff") == pytest.approx((100.0, 0.0, 0.0), abs=0.01)


@pytest.mark.parametrize("variant", (*available_variants(), *sorted(SCENARIO_DIRECTORIES)))  # Machiavelli too
def test_every_two_powers_colours_and_lands_differ(variant: str) -> None:
    game_map = load_map(variant)
    colours = power_colours(game_map)
    assert set(colours) == set(game_map.powers)
    for (p, a), (q, b) in itertools.combinations(colours.items(), 2):
        assert difference(a, b) >= MIN_POWER_DELTA, (p, q, a, b)
        assert difference(territory_colour(a), territory_colour(b)) >= MIN_POWER_DELTA, (p, q)
    for power, colour in colours.items():
        land = territory_colour(colour)
        for other in (_PLAIN_LAND, _NEUTRAL_LAND, _SEA):
            assert difference(land, other) >= MIN_POWER_DELTA / 2, (power, other)
    assert difference(_PLAIN_LAND, _NEUTRAL_LAND) >= 5


def test_the_palette_covers_34_powers_and_world_has_no_near_twins() -> None:
    assert len(_PALETTE) >= 34
    worst = min(difference(a, b) for a, b in itertools.combinations(_PALETTE, 2))
    assert worst >= MIN_POWER_DELTA
    world = list(power_colours(load_map("world")).values())
    assert len(world) == 17
    assert min(difference(a, b) for a, b in itertools.combinations(world, 2)) >= 13


@pytest.mark.parametrize("variant", ["world", "chaos", "standard"])
def test_where_powers_are_many_each_unit_carries_its_powers_letter(variant: str) -> None:
    """The second cue beside the colour (issue 28): past ten powers, each unit symbol is drawn with
    its power's letter; the classic boards keep their plain symbols."""
    import re

    from judge.core.random_orders import opening_position
    from judge.maps.render import LETTERED_POWERS, render_svg

    game_map = load_map(variant)
    position = opening_position(game_map)
    if not position.units:  # Chaos starts with builds: put one army in each power's first home centre
        from judge.core.units import Unit, UnitType

        homes = {p: sorted(game_map.home_centers[p])[0] for p in game_map.powers if game_map.home_centers.get(p)}
        position = Position(variant, position.phase, tuple(Unit(p, UnitType.ARMY, h) for p, h in homes.items()), position.centers)
    board = render_svg(game_map, position).partition('<g class="inset"')[0]
    elements = [dict(re.findall(r'([a-z-]+)="([^"]*)"', e)) for e in re.findall(r'<path class="unit"[^>]*>', board)]
    units = [(e["data-power"], e.get("data-letter", "")) for e in elements]
    assert len(units) == len(position.units)
    letters = board.count('class="unit-letter"')
    if len(game_map.powers) > LETTERED_POWERS:
        assert letters == len(units)
        assert all(letter == game_map.power_letter(power) for power, letter in units)
    else:
        assert letters == 0 and all(letter == "" for _power, letter in units)
