"""Draw a position, and optionally the orders of its phase and how they ended, as SVG.

Pure: a variant (or its :class:`GameMap`), a :class:`Position` and what was
ordered go in, SVG text comes out; the only thing read is the variant's map
art (:mod:`judge.maps.art`). The picture shows:

* land shaded by the owner of its supply centre (a light tint of the power's
  colour), neutral centres in their own shade, other land plain;
* units as army (a square with a flag's pole) and fleet (a hull) symbols,
  filled with their power's colour (``data-power`` names the power);
* supply centres as rings filled with their owner's colour (white if neutral);
* moves and retreats as arrows stopping short of the destination's unit and
  label, supports as dashed lines, convoys as dotted lines, an explicit hold
  as a ring, a unit without orders as a thin dashed grey ring; an order that
  failed is red with a cross, an invalid one grey with a cross; on a map
  whose east and west edges meet (World), a move the short way round is two
  half-arrows, one leaving each edge;
* a unit dislodged once only, beside its province (never also in it), with
  its order and its retreat options (or its retreat) starting from there;
  builds as a double ring, removals and disbands as a cross;
* the phase as a title, and a legend: each power's colour and centre count.

The centres, shading and legend of a results picture are those *after* the
phase (``OrdersDrawn.centers``): the counts the results mail gives.
Everything readable follows the reader's language (``language``): the
title, the powers' names and the province labels (French abbreviations).

Text is drawn with :mod:`judge.maps.font` (strokes, not a font), so the PNG is
readable on a machine without fonts. Player names never appear: only powers.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from html import escape
from typing import TypeVar, cast

from judge.core.adjudicator.results import AdjudicationResult, OrderResult, Outcome
from judge.core.errors import VariantError
from judge.core.geography import GameMap
from judge.core.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
)
from judge.core.phase import Phase, PhaseType
from judge.core.position import DislodgedUnit, Position
from judge.core.units import Unit, UnitType, province_of
from judge.core.variants import load_map
from judge.i18n import translation
from judge.maps.art import MapArt, Point
from judge.maps.colour import lab, tint
from judge.maps.font import glyph_paths, text_path
from judge.maps.layout import (
    INSETS,
    LABEL_BASELINE,
    LABEL_SIZE,
    Box,
    Inset,
    Labels,
    board_art,
    centre_box,
    inset_art,
    place_labels,
    unit_box,
)

__all__ = [
    "MIN_POWER_DELTA", "BoardOverlay", "OrdersDrawn", "drawn_from", "power_colours", "render_svg", "territory_colour",
]

_TITLE_BAND = 44.0
_ROW = 26.0
_FAILED = "#d62020"
_INVALID = "#808080"
_GOOD = "#1b1b1b"
_NEUTRAL_LAND = "#d8ccaa"
"""A supply centre nobody owns: darker than the plain land, so neutral centres read at a glance."""
NEUTRAL_LAND = _NEUTRAL_LAND
"""The same shade for a board's own neutral land (the Renaissance game's autonomous garrisons)."""
TINT = 0.45
"""How much white a power's territory colour has: light enough for the labels and units on it."""
MIN_POWER_DELTA = 10.0
"""The least CIEDE2000 difference between two powers' colours, and between their territory tints,
on every shipped variant (checked by tests/maps/test_palette.py)."""
LETTERED_POWERS = 10
"""Past this many powers (World's 17, Chaos' 34) each unit carries its power's letter too: a second
cue beside the colour, for colour-blind readers and for colours that stay close however chosen."""
_ARROW_HEAD = 15.0
"""An arrowhead's length: marker 5 x stroke 3."""
REACH = 64.0
"""How far what is drawn about its points may reach beyond their box: a build's outer ring (21), an
arrow's tip put beside its destination (28) with its head (17), a failed order's cross off its line's
middle (40, and 8 for the cross itself): :meth:`_Canvas.shown` leaves out of a clipped view only what
lies farther than this beyond its frame."""

# The classic seven keep the colours players know; the others were chosen (greedily, each the colour
# farthest from those before it, in CIEDE2000, over the colours and their tints) from a grid of sRGB
# colours of lightness 32 to 75 kept off the sea, the plain land and white: any two of the 34 differ
# by more than MIN_POWER_DELTA, and so do their tints.
_CLASSIC = {
    "AUSTRIA": "#c8372d", "ENGLAND": "#3c3ca8", "FRANCE": "#3fa9e0", "GERMANY": "#5a4a3a",
    "ITALY": "#2e9a3c", "RUSSIA": "#8d5ab8", "TURKEY": "#e8c41c",
}  # fmt: skip
_PALETTE = (
    "#c8372d", "#3c3ca8", "#3fa9e0", "#5a4a3a", "#2e9a3c", "#8d5ab8", "#e8c41c", "#ff780f",
    "#ff0087", "#c3b4c3", "#005a5a", "#a5b496", "#00c3b4", "#ff87b4", "#5a5a00", "#7800ff",
    "#96a5ff", "#d2a578", "#005aff", "#78c300", "#5a6987", "#f03cff", "#962d5a", "#873c00",
    "#ff9678", "#966978", "#b47800", "#4b694b", "#960096", "#69a5a5", "#005a87", "#d2a5f0",
    "#ff4b0f", "#a5a54b",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class OrdersDrawn:
    """What to draw over the position: each order's result, the units dislodged with their
    retreats, and the centres after the phase.

    ``retreats`` gives each dislodged unit its retreat locations (an empty
    tuple: it is destroyed); units of ``dislodged`` missing from it are drawn
    without options. ``centers`` (when known) is who owns what once the
    phase is over: the picture's centre marks, shading and legend show it.
    """

    results: tuple[OrderResult, ...] = ()
    dislodged: tuple[DislodgedUnit, ...] = ()
    retreats: Mapping[Unit, tuple[str, ...]] = field(default_factory=dict)
    centers: Mapping[str, frozenset[str]] | None = None


@dataclass(frozen=True, slots=True)
class BoardOverlay:
    """What a game with more on its board than units and centres (the Renaissance game's garrisons,
    sieges, rebellions and famine: :mod:`judge.maps.machiavelli_layer`) adds to a picture.

    ``shading`` replaces the territory style sheet (its rules name provinces as ``#p-CODE``);
    ``under`` is drawn over the art and under the centres and units (lines that may pass under a
    unit, as an order's line passes under a label); ``marks`` over the units and orders and under
    the labels; both in the board's coordinates;
    ``key`` is drawn in a band of its own, ``KEY_ROW`` high, under the legend (its coordinates
    start at the band's top left)."""

    shading: str | None = None
    under: str = ""
    marks: str = ""
    key: str = ""


KEY_ROW = 26.0
"""The height of an overlay's key band under the legend."""


def drawn_from(result: AdjudicationResult) -> OrdersDrawn:
    """The drawing of an adjudicated phase: its results, its dislodged units, their retreats, the centres after."""
    return OrdersDrawn(tuple(result.results), tuple(result.dislodged), dict(result.retreats), result.position.centers)


def power_colours(game_map: GameMap) -> dict[str, str]:
    """Each power's colour: a classic power (Youngstown's England too) keeps its classic colour, the
    others take the palette after the classic seven, in the variant's order; a variant with more
    powers than that (Chaos) takes the whole palette in order."""
    powers = game_map.powers
    if len(powers) > len(_PALETTE):
        raise VariantError(f"{game_map.name} has {len(powers)} powers: the palette has {len(_PALETTE)} colours")
    others = [p for p in powers if p not in _CLASSIC]
    if len(others) > len(_PALETTE) - len(_CLASSIC):
        return {power: _PALETTE[index] for index, power in enumerate(powers)}
    spare = iter(_PALETTE[len(_CLASSIC) :])
    return {power: _CLASSIC[power] if power in _CLASSIC else next(spare) for power in powers}


@functools.lru_cache(maxsize=256)
def territory_colour(colour: str) -> str:
    """The shade of a power's land: its colour, lightened (kept: the same few in every picture)."""
    return tint(colour, TINT)


def phase_title(phase: Phase, language: str = "en") -> str:
    """``Fall 1901, movement (F1901M)`` in the reader's language."""
    _ = translation(language).gettext
    texts = {
        ("S", PhaseType.MOVEMENT): _("Spring {year}, movement ({phase})"),
        ("S", PhaseType.RETREAT): _("Spring {year}, retreats ({phase})"),
        ("F", PhaseType.MOVEMENT): _("Fall {year}, movement ({phase})"),
        ("F", PhaseType.RETREAT): _("Fall {year}, retreats ({phase})"),
        ("W", PhaseType.ADJUSTMENT): _("Winter {year}, adjustments ({phase})"),
    }
    text = texts.get((str(phase)[0], phase.type), "{phase}")
    return text.format(year=phase.year, phase=phase)


def _short_title(game_map: GameMap) -> str:
    """``Standard Diplomacy``, ``Ancient Mediterranean``: the variant's title without its notes in brackets."""
    return (game_map.title or game_map.name).split(" (")[0]


def legend_lines(game_map: GameMap, centers: Mapping[str, frozenset[str]], language: str = "en") -> list[tuple[str, str]]:
    """(power, text) of each legend entry: the power's name in ``language`` and its centre count."""
    lines = []
    for power in game_map.powers:
        names = game_map.power_names.get(power)
        name = names.display(language) if names is not None else power
        lines.append((power, f"{name} {len(centers.get(power, ()))}"))
    return lines


class _Grid:
    """Boxes filed by the square cells of the page they touch: whether a box is clear of all of them
    asks only those of the cells it touches (the same answer as trying every box, a few times sooner)."""

    __slots__ = ("_cells",)
    _SIDE = 48.0

    def __init__(self, boxes: Iterable[Box]) -> None:
        cells: dict[tuple[int, int], list[Box]] = {}
        for box in boxes:
            for cell in self._cells_of(box):
                cells.setdefault(cell, []).append(box)
        self._cells = {cell: tuple(found) for cell, found in cells.items()}

    @classmethod
    def _cells_of(cls, box: Box) -> Iterable[tuple[int, int]]:
        side = cls._SIDE
        for x in range(math.floor(box.left / side), math.floor(box.right / side) + 1):
            for y in range(math.floor(box.top / side), math.floor(box.bottom / side) + 1):
                yield (x, y)

    def clear(self, box: Box) -> bool:
        """No box of the grid overlaps ``box``."""
        cells = self._cells
        for cell in self._cells_of(box):
            for other in cells.get(cell, ()):
                if box.overlaps(other):
                    return False
        return True


@dataclass(frozen=True, slots=True)
class _Base:
    """What one variant's picture has in every phase, in one language: built once and kept."""

    art: MapArt
    labels: Labels
    label_boxes: tuple[tuple[str, Box], ...]
    labels_svg: str
    defs: str
    label_grid: _Grid
    """The label boxes by place, to ask whether a box is clear of every label without trying each."""
    obstacle_grid: _Grid
    """Every place a unit can stand and every centre marker, by place (a dislodged unit keeps off them)."""
    found: dict[tuple[object, ...], object] = field(default_factory=dict, compare=False, repr=False)
    """What the searches among the labels found (an arrow's tip, a cross's place: functions of the
    labels and the line alone) and the order lines drawn from them, by the search and its arguments:
    the same move in another picture (the same opening, the same reply) is not searched or drawn
    again. Bounded: emptied at :data:`_KEEP_FOUND`."""

    def kept(self, key: tuple[object, ...], search: Callable[[], _T]) -> _T:
        """What ``search`` finds, kept by ``key`` (its name and arguments)."""
        found = self.found.get(key)
        if found is None:
            if len(self.found) >= _KEEP_FOUND:
                self.found.clear()
            found = self.found[key] = search()
        return cast(_T, found)


_T = TypeVar("_T")
_KEEP_FOUND = 20_000
"""How many searches a board keeps (a few MB)."""


@functools.lru_cache(maxsize=64)
def _base(variant: str, language: str, inset: bool = False) -> _Base:
    art = inset_art(variant) if inset else board_art(variant)
    assert art is not None
    labels = place_labels(variant, language, inset)
    strokes = " ".join(
        text_path(labels.text[code], labels.at[code][0], labels.at[code][1] + LABEL_BASELINE, LABEL_SIZE, "middle")
        for code in labels.at
    )
    # One path for every label (a tenth less time to render a large board than a path each),
    # butt ends, and no anti-aliasing: crisp small letters, and a smaller PNG. Bevelled
    # joins: without anti-aliasing, mitred or round ones fill the sharp angles of W and M.
    # Drawn over the orders with a pale halo under the letters: a support or convoy line that crosses
    # a label (NTH, between a convoy's fleet and the move it carries) passes under it, never over.
    # The halo is crisp, as the letters: anti-aliased, it cost a third more time and a fifth more PNG.
    labels_svg = (
        f'<path class="label-halo" d="{strokes}" fill="none" stroke="#ffffff" stroke-opacity="0.6" '
        'stroke-width="3" shape-rendering="crispEdges" stroke-linecap="butt" stroke-linejoin="bevel"/>'
        f'<path class="labels" data-labels="{escape(" ".join(labels.text[c] for c in labels.at))}" '
        f'data-codes="{" ".join(labels.at)}" d="{strokes}" shape-rendering="crispEdges" '
        'fill="none" stroke="#2a2a2a" stroke-width="1.1" stroke-linecap="butt" stroke-linejoin="bevel"/>'
    )
    marker = (
        '<marker id="arrow-{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" '
        'orient="auto"><path d="M0 0L10 5L0 10z" fill="{colour}"/></marker>'
    )
    defs = (
        "<defs>"
        + "".join(marker.format(name=n, colour=c) for n, c in (("good", _GOOD), ("failed", _FAILED), ("invalid", _INVALID)))
        + "</defs>"
    )
    label_boxes = tuple(labels.boxes().items())
    obstacles = [unit_box(p) for a in art.provinces.values() for p in (a.unit, *a.coasts.values())]
    obstacles += [centre_box(a.centre) for a in art.provinces.values() if a.centre is not None]
    return _Base(art, labels, label_boxes, labels_svg, defs, _Grid([b for _c, b in label_boxes]), _Grid(obstacles))


def _draw(
    base: _Base, colours: Mapping[str, str], game_map: GameMap, position: Position, drawn: OrdersDrawn | None,
    centers: Mapping[str, frozenset[str]], framed: Inset | None = None, frame: Box | None = None,
) -> list[str]:
    """The centres, units, orders and marks of one view of the board (the board, or its inset).
    On a board with an inset, the units of the ``framed`` region are drawn as much smaller as the
    inset is larger: they stand as far apart as in the inset, where none covers another.
    ``frame``: what the view shows (an inset's panel, which clips it): what lies wholly beyond is
    left out (:meth:`_Canvas.shown`)."""
    art = base.art
    letters = (
        {power: game_map.power_letter(power) for power in game_map.powers}
        if len(game_map.powers) > LETTERED_POWERS
        else {}
    )
    canvas = _Canvas(art, colours, base, letters, framed, frame)
    canvas.centres(game_map, centers)
    dislodged = list(position.dislodged)
    retreats: Mapping[Unit, tuple[str, ...]] = {}
    if drawn is not None:
        dislodged.extend(d for d in drawn.dislodged if all(d.unit != e.unit for e in dislodged))
        retreats = drawn.retreats
    # A dislodged unit stands beside its province, once: in a retreat phase the province holds the
    # unit that took it; in a movement phase's results the unit is drawn where it ends up.
    away = {(d.unit.power, d.unit.location) for d in dislodged}
    for entry in dislodged:
        canvas.place_dislodged(entry.unit)
    for unit in position.units:
        if position.phase.type is PhaseType.MOVEMENT and (unit.power, unit.location) in away:
            continue
        canvas.unit(unit, art.where(unit.location), css="unit")
    if drawn is not None:
        for result in drawn.results:
            canvas.order(result, position)
    for entry in dislodged:
        canvas.dislodged(entry.unit, retreats.get(entry.unit) if entry.unit in retreats else None)
    return list(canvas.layers())


def render_svg(
    variant: str | GameMap,
    position: Position,
    orders: OrdersDrawn | AdjudicationResult | None = None,
    *,
    title: str | None = None,
    language: str = "en",
    seen: frozenset[str] | None = None,
    overlay: BoardOverlay | None = None,
) -> str:
    """The SVG picture of ``position`` (and of ``orders`` if given), titled ``title`` or the phase.

    ``overlay``: what a game's own board adds (:class:`BoardOverlay`).

    ``seen`` (Fog of War): the provinces the reader sees; the others are dimmed (the position and
    orders given are the reader's view already: nothing out of sight is drawn).

    A board with an inset (:data:`judge.maps.layout.INSETS`) draws its crowded
    region again, larger, in a panel under the board (``<g class="inset">``),
    with the legend beside it; on the board the region is framed and its
    provinces' labels are left to the inset.
    """
    game_map = variant if isinstance(variant, GameMap) else load_map(variant)
    language = "fr" if language == "fr" else "en"
    base = _base(game_map.name, language)
    art = base.art
    drawn = drawn_from(orders) if isinstance(orders, AdjudicationResult) else orders
    colours = power_colours(game_map)
    centers = drawn.centers if drawn is not None and drawn.centers is not None else position.centers
    shading = (
        overlay.shading if overlay is not None and overlay.shading is not None else _shading(game_map, colours, centers)
    ) + _fog(game_map, seen)
    heading = title if title is not None else f"{_short_title(game_map)}: {phase_title(position.phase, language)}"
    region = INSETS.get(game_map.name)
    panel: list[str] = []
    legend_left, legend_width, columns = 0.0, art.width, 4
    legend_top = art.height + _TITLE_BAND + 8
    rows = (len(game_map.powers) + columns - 1) // columns
    height = art.height + _TITLE_BAND + rows * _ROW + 12
    if region is not None:
        inset = _base(game_map.name, language, inset=True)
        width, tall = inset.art.width, inset.art.height
        top = art.height + _TITLE_BAND + 8
        panel = [
            f'<g class="inset" transform="translate(8 {top:g})" data-region="{region.left:g} {region.top:g} '
            f'{region.right:g} {region.bottom:g}" data-scale="{region.scale:g}">',
            f'<clipPath id="inset-clip"><rect x="0" y="0" width="{width:g}" height="{tall:g}"/></clipPath>',
            '<g clip-path="url(#inset-clip)">',
            _layer("base", f'<g shape-rendering="crispEdges">{inset.art.body}</g>'),
            _layer("dyn", *_draw(inset, colours, game_map, position, drawn, centers, frame=Box(0.0, 0.0, width, tall))),
            _layer("over", inset.labels_svg),
            "</g>",
            _layer("over", f'<rect x="0" y="0" width="{width:g}" height="{tall:g}" fill="none" stroke="#111" stroke-width="2"/>'),
            "</g>",
        ]
        legend_left, legend_width, columns = width + 24, art.width - width - 24, 2
        rows = (len(game_map.powers) + columns - 1) // columns
        height = max(top + tall + 12, legend_top + rows * _ROW + 12)
    key: list[str] = []
    if overlay is not None and overlay.key:
        key = [_layer("dyn", f'<g class="key" transform="translate(0 {height:g})">{overlay.key}</g>')]
        height += KEY_ROW
    frame = (
        f'<rect class="inset-frame" x="{region.left:g}" y="{region.top:g}" width="{region.right - region.left:g}" '
        f'height="{region.bottom - region.top:g}" fill="none" stroke="#111" stroke-width="1.5" stroke-dasharray="6 4"/>'
        if region is not None
        else ""
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {art.width:g} {height:g}" '
        f'width="{art.width:g}" height="{height:g}" data-variant="{_escaped(game_map.name)}" '
        f'data-phase="{position.phase}" data-language="{language}">',
        _layer("dyn", base.defs, shading),
        _layer("base", f'<rect x="0" y="0" width="{art.width:g}" height="{height:g}" fill="#ffffff"/>'),
        _layer("dyn", _title(heading, art.width / 2, 31, 20)),
        f'<g class="board" transform="translate(0 {_TITLE_BAND:g})">',
        # Province borders without anti-aliasing: a smaller PNG, borders still clean.
        _layer("base", f'<g shape-rendering="crispEdges">{art.body}</g>'),
        *([_layer("dyn", f'<g class="overlay-under">{overlay.under}</g>')] if overlay is not None and overlay.under else []),
        _layer("dyn", frame, *_draw(base, colours, game_map, position, drawn, centers, region)),
        *([_layer("dyn", f'<g class="overlay">{overlay.marks}</g>')] if overlay is not None and overlay.marks else []),
        _layer("over", base.labels_svg),
        "</g>",
        *panel,
        _layer("dyn", _legend(game_map, colours, centers, legend_left, legend_width, legend_top, language, columns)),
        *key,
        "</svg>",
    ]
    return "\n".join(parts)


@functools.lru_cache(maxsize=4096)
def _escaped(text: str) -> str:
    """``text`` escaped for an attribute's value: kept, as the same provinces, powers and legend
    lines come again in every picture (a hundred a Standard picture)."""
    return escape(text)


FOG_COLOUR = "#8c8c8c"
"""The fill of a province a Fog of War reader does not see."""


def _fog(game_map: GameMap, seen: frozenset[str] | None) -> str:
    """The provinces out of sight, dimmed: a style sheet after the shading (the later rule wins)."""
    if seen is None:
        return ""
    unseen = sorted(p for p in game_map.provinces if p not in seen)
    if not unseen:
        return ""
    rules = ",".join(f"#p-{p}" for p in unseen)
    return f'<style class="fog" data-unseen="{" ".join(unseen)}">{rules}{{fill:{FOG_COLOUR}}}</style>'


def _layer(kind: str, *parts: str) -> str:
    """``parts`` between the comments that name their layer (``base``: the page and the board's art,
    the same in every phase; ``over``: the same in every phase too but drawn over the orders, the
    province labels on their halo and the inset's border; ``dyn``: what the phase changes).
    Comments draw nothing: :func:`judge.maps.png.svg_to_png` reads them to draw the parts that
    never change once per board (:mod:`judge.maps.layers`)."""
    return f"<!--{kind}-->" + "\n".join(parts) + f"<!--/{kind}-->"


def _shading(game_map: GameMap, colours: Mapping[str, str], centers: Mapping[str, frozenset[str]]) -> str:
    """The territory colours, as a style sheet over the art's provinces (ids beat its classes):
    each owned centre's province in its owner's tint, each neutral centre in the neutral shade."""
    rules: list[str] = []
    owned: set[str] = set()
    for power in game_map.powers:
        provinces = sorted(c for c in centers.get(power, ()) if c in game_map.provinces)
        owned.update(provinces)
        if provinces:
            rules.append(",".join(f"#p-{c}" for c in provinces) + f"{{fill:{territory_colour(colours[power])}}}")
    neutral = sorted(c for c in game_map.supply_centers if c not in owned and c in game_map.provinces)
    if neutral:
        rules.append(",".join(f"#p-{c}" for c in neutral) + f"{{fill:{_NEUTRAL_LAND}}}")
    return f'<style class="shading">{"".join(rules)}</style>' if rules else ""


def _text(text: str, x: float, y: float, size: float, anchor: str, *, css: str, width: float = 1.4, colour: str = "#111") -> str:
    return (
        f'<path class="{css}" data-text="{_escaped(text)}" d="{text_path(text, x, y, size, anchor)}" fill="none" '
        f'stroke="{colour}" stroke-width="{width:g}" stroke-linecap="round" stroke-linejoin="round"/>'
    )


def _title(text: str, x: float, y: float, size: float) -> str:
    """The picture's title, a path a glyph (:func:`judge.maps.font.glyph_paths`): each game's name
    is new to the drawing, its glyphs are not."""
    glyphs = "".join(
        f'<path d="{d}" fill="none" stroke="#111" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>'
        for d in glyph_paths(text, x, y, size)
    )
    return f'<g class="title" data-text="{escape(text)}">{glyphs}</g>'


def _legend(
    game_map: GameMap, colours: Mapping[str, str], centers: Mapping[str, frozenset[str]], left: float, width: float,
    top: float, language: str, columns: int = 4,
) -> str:
    parts = ['<g class="legend">']
    column = width / columns
    for index, (power, text) in enumerate(legend_lines(game_map, centers, language)):
        x = left + 12 + (index % columns) * column
        y = top + (index // columns) * _ROW
        parts.append(
            f'<rect class="swatch" data-power="{_escaped(power)}" x="{x:g}" y="{y:g}" width="18" height="18" '
            f'fill="{colours[power]}" stroke="#111" stroke-width="1"/>'
        )
        parts.append(_text(text, x + 26, y + 15, 12, "start", css="legend-text"))
    parts.append("</g>")
    return "".join(parts)


class _Canvas:
    """Collects the layers of one picture, each a list of SVG elements."""

    def __init__(
        self, art: MapArt, colours: Mapping[str, str], base: _Base, letters: Mapping[str, str] | None = None,
        framed: Inset | None = None, frame: Box | None = None,
    ) -> None:
        self.art = art
        self.framed = framed
        """The region an inset draws again larger: its units are drawn smaller on the board."""
        self.frame = frame
        """What the view shows, when it is clipped (an inset's panel): see :meth:`shown`."""
        self.colours = colours
        self.base = base
        self.letters = letters or {}
        self.wraps = art.wraps
        self._centres: list[str] = []
        self._lines: list[str] = []
        self._units: list[str] = []
        self._marks: list[str] = []
        self._beside: dict[str, Point] = {}
        """Where each dislodged unit is drawn, by its location."""
        self._taken: list[Box] = []
        """Boxes of the dislodged units already placed."""

    def layers(self) -> Iterable[str]:
        yield '<g class="centres">' + "".join(self._centres) + "</g>"
        yield '<g class="units">' + "".join(self._units) + "</g>"
        yield '<g class="orders">' + "".join(self._lines) + "</g>"
        yield '<g class="marks">' + "".join(self._marks) + "</g>"

    def shown(self, *points: Point) -> bool:
        """Whether what is drawn about ``points`` (a unit's, a centre's or a mark's place, an order
        line's ends) may show in the view: anywhere but in a clipped one (an inset's panel, which draws
        every unit and order of the board again, most of them beyond its frame), where their box grown
        by :data:`REACH` must overlap the frame. What is left out would have been clipped whole: the
        picture is the same, its SVG a third smaller (World's)."""
        frame = self.frame
        if frame is None:
            return True
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        return (
            min(xs) - REACH < frame.right
            and frame.left < max(xs) + REACH
            and min(ys) - REACH < frame.bottom
            and frame.top < max(ys) + REACH
        )

    def centres(self, game_map: GameMap, centers: Mapping[str, frozenset[str]]) -> None:
        owner = {c: p for p, owned in centers.items() for c in owned}
        for code in sorted(game_map.supply_centers):
            anchors = self.art.provinces.get(code)
            if anchors is None or anchors.centre is None:
                continue
            x, y = anchors.centre
            if not self.shown((x, y)):
                continue
            power = owner.get(code) or ""
            fill = self.colours.get(power, "#ffffff") if power else "#ffffff"
            size = self._size((x, y))
            self._centres.append(
                self.base.kept(
                    ("centre", code, x, y, power, fill, size), functools.partial(_centre_svg, code, x, y, power, fill, size)
                )
            )

    def _size(self, at: Point) -> float:
        """1, or smaller on the board in the region its inset draws again larger."""
        return 1 / self.framed.scale if self.framed is not None and self.framed.holds(at) else 1.0

    def unit(self, unit: Unit, at: Point, *, css: str, extra: str = "") -> None:
        """A unit's symbol at ``at``, kept by the board (the same unit there in another picture)."""
        if not self.shown(at):
            return
        fill = self.colours.get(unit.power, "#dddddd")
        letter = self.letters.get(unit.power)
        size = self._size(at)
        self._units += self.base.kept(
            ("unit", unit, at, css, extra, fill, letter, size), lambda: self._unit_svg(unit, at, css, extra, fill, letter, size)
        )

    def _unit_svg(
        self, unit: Unit, at: Point, css: str, extra: str, fill: str, letter: str | None, k: float
    ) -> tuple[str, ...]:
        x, y = at
        smaller = ""
        if k != 1.0:  # scaled about its own point: data-x and data-y stay its centre
            smaller = f' transform="matrix({k:.3g} 0 0 {k:.3g} {x * (1 - k):.1f} {y * (1 - k):.1f})"'
            extra += f' data-size="{k:.3g}"{smaller}'
        common = (
            f'class="{css}" data-power="{_escaped(unit.power)}" data-unit="{unit.type.value}" '
            f'data-loc="{_escaped(unit.location)}" data-x="{x:.1f}" data-y="{y:.1f}" fill="{fill}" stroke="#111" '
            f'stroke-width="1.5"{extra}'
        )
        if letter is not None:  # the second cue where powers are many: the power's letter, no flag
            ink = "#ffffff" if lab(fill)[0] < 55 else "#111111"
            if unit.type is UnitType.ARMY:
                shape, at_x, at_y = f"M{x - 9:.1f} {y - 7:.1f}h18v14h-18z", x, y + 4
            else:
                shape = f"M{x - 12:.1f} {y - 1:.1f}h24l-5 8h-14z M{x + 3:.1f} {y - 1:.1f}v-9l7 7h-7"
                at_x, at_y = x - 4, y - 2.5
            return (
                f'<path {common} data-letter="{_escaped(letter)}" d="{shape}"/>',
                f'<path class="unit-letter" d="{text_path(letter, at_x, at_y, 8 if unit.type is UnitType.ARMY else 7)}" '
                f'fill="none" stroke="{ink if unit.type is UnitType.ARMY else "#111111"}" stroke-width="1.5" '
                f'stroke-linecap="round" stroke-linejoin="round"{smaller}/>',
            )
        if unit.type is UnitType.ARMY:
            return (f'<path {common} d="M{x - 9:.1f} {y - 7:.1f}h18v14h-18z M{x - 4:.1f} {y + 7:.1f}v-10h9"/>',)
        return (f'<path {common} d="M{x - 12:.1f} {y - 1:.1f}h24l-5 8h-14z M{x - 1:.1f} {y - 1:.1f}v-9l7 7h-7"/>',)

    def place_dislodged(self, unit: Unit) -> Point | None:
        """Beside its province: the nearest place, down and to the right first, whose box covers no
        label, no unit anchor, no centre marker and no other dislodged unit."""
        home = self._at(unit.location)
        if home is None:
            return None
        chosen = (home[0] + 16, home[1] + 14)
        # Within the picture first; a unit near or past its edge (an inset's, which shows its
        # region's surroundings cut off) then anywhere beside it.
        # Where the board is crowded (World's China), farther out.
        nearer = (22.0, 28.0, 34.0, 42.0, 50.0, 60.0, 72.0, 86.0)
        for radius, within in [(r, True) for r in nearer] + [(r, False) for r in (22.0, 28.0, 34.0)]:
            found = None
            for step in range(16):
                angle = math.radians(40 + step * 22.5)
                point = (home[0] + radius * math.cos(angle), home[1] + radius * math.sin(angle))
                box = unit_box(point).grown(1)
                if within and not (box.left >= 0 and box.right <= self.art.width and box.top >= 0 and box.bottom <= self.art.height):
                    continue
                if self.base.label_grid.clear(box) and self.base.obstacle_grid.clear(box) and not any(
                    box.overlaps(t) for t in self._taken
                ):
                    found = point
                    break
            if found is not None:
                chosen = found
                break
        self._taken.append(unit_box(chosen))
        self._beside[unit.location] = chosen
        return chosen

    def _cross(self, at: Point, colour: str, kind: str) -> None:
        if self.shown(at):
            self._marks.append(_cross_svg(at, colour, kind))

    def _wrapped(self, start: Point, end: Point) -> tuple[tuple[Point, Point], ...]:
        """The segments from ``start`` to ``end``: one, or on a map whose edges meet, two when the
        short way crosses the edge (to the edge, then from the other edge)."""
        (x1, y1), (x2, y2) = start, end
        width = self.art.width
        if not self.wraps or abs(x2 - x1) <= width / 2:
            return ((start, end),)
        shifted = x2 - width if x2 > x1 else x2 + width  # the destination seen across the edge
        edge = 0.0 if shifted < 0 else width
        y_edge = y1 + (y2 - y1) * (edge - x1) / (shifted - x1)
        return ((start, (edge, y_edge)), ((width - edge, y_edge), end))

    def _end_clear(self, start: Point, end: Point, stop: float) -> Point:
        """Where an arrow from ``start`` towards ``end`` stops: ``stop`` short of it, and further back
        while its head would cover a label; when the whole way is covered (a short move between
        crowded labels), the tip goes beside the destination's unit instead, where it covers none."""
        return self.base.kept(("end", start, end, stop), lambda: self._search_end(start, end, stop))

    def _search_end(self, start: Point, end: Point, stop: float) -> Point:
        (x1, y1), (x2, y2) = start, end
        length = math.hypot(x2 - x1, y2 - y1)
        if length < 1e-6:
            return end
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        back = min(stop, length * 0.6)
        while back < length * 0.85:
            tip = (x2 - ux * back, y2 - uy * back)
            if self.base.label_grid.clear(_head_box(tip, (ux, uy))):
                return tip
            back += 2.0
        for radius in (16.0, 22.0, 28.0):
            for step in range(12):
                angle = math.atan2(-uy, -ux) + math.radians((step + 1) // 2 * 30 * (1 if step % 2 else -1))
                tip = (x2 + radius * math.cos(angle), y2 + radius * math.sin(angle))
                dx, dy = tip[0] - x1, tip[1] - y1
                norm = math.hypot(dx, dy)
                if norm < 20:
                    continue
                if self.base.label_grid.clear(_head_box(tip, (dx / norm, dy / norm))):
                    return tip
        return (x2 - ux * min(stop, length * 0.6), y2 - uy * min(stop, length * 0.6))

    def _line(
        self, start: Point, end: Point, kind: str, outcome: Outcome, *, arrow: bool, dash: str = "", stop: float = 15.0,
        extra: str = "",
    ) -> None:
        """An order's line (and its cross when it did not succeed), kept by the board: drawn once for
        every picture with the same order."""
        if not self.shown(start, end):
            return
        lines, marks = self.base.kept(
            ("line", start, end, kind, outcome, arrow, dash, stop, extra),
            lambda: self._line_svg(start, end, kind, outcome, arrow, dash, stop, extra),
        )
        self._lines += lines
        self._marks += marks

    def _line_svg(
        self, start: Point, end: Point, kind: str, outcome: Outcome, arrow: bool, dash: str, stop: float, extra: str
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        colour = {Outcome.SUCCEEDS: _GOOD, Outcome.FAILS: _FAILED, Outcome.INVALID: _INVALID}[outcome]
        marker_name = {Outcome.SUCCEEDS: "good", Outcome.FAILS: "failed", Outcome.INVALID: "invalid"}[outcome]
        lines: list[str] = []
        marks: list[str] = []
        segments = self._wrapped(start, end)
        dashing = f' stroke-dasharray="{dash}"' if dash else ""
        path: list[str] = []
        for index, (a, b) in enumerate(segments):
            last = index == len(segments) - 1
            (x1, y1), (x2, y2) = a, b
            length = max(math.hypot(x2 - x1, y2 - y1), 1e-6)
            if index == 0 and length > 30:  # leave the unit's symbol
                x1, y1 = x1 + (x2 - x1) * 12 / length, y1 + (y2 - y1) * 12 / length
            if last:
                x2, y2 = self._end_clear((x1, y1), (x2, y2), stop) if arrow else (x2, y2)
            path.append(f"M{x1:.1f} {y1:.1f}L{x2:.1f} {y2:.1f}")
        marker = f' marker-end="url(#arrow-{marker_name})"' if arrow else ""
        wrap = ' data-wraps="yes"' if len(segments) > 1 else ""
        d = "".join(path)
        lines.append(
            f'<path class="order {kind} {outcome.value}"{extra}{wrap} d="{d}" fill="none" '
            f'stroke="{colour}" stroke-width="3"{dashing}{marker}/>'
        )
        if len(segments) > 1 and arrow:  # the first half-arrow gets its own head at the edge
            (a, b) = segments[0]
            lines.append(
                f'<path class="order-wrap {outcome.value}" d="M{b[0] - (b[0] - a[0]) * 0.001:.1f} {b[1]:.1f}L{b[0]:.1f} {b[1]:.1f}" '
                f'fill="none" stroke="{colour}" stroke-width="3"{marker}/>'
            )
        if outcome is not Outcome.SUCCEEDS:
            a, b = segments[-1]
            marks.append(_cross_svg(self._mark_point(a, b), colour, outcome.value))
        return tuple(lines), tuple(marks)

    def _mark_point(self, start: Point, end: Point) -> Point:
        """A point on the line near its middle (or just beside it) where a cross covers no label."""
        return self.base.kept(("mark", start, end), lambda: self._search_mark(start, end))

    def _search_mark(self, start: Point, end: Point) -> Point:
        length = max(math.hypot(end[0] - start[0], end[1] - start[1]), 1e-6)
        nx, ny = -(end[1] - start[1]) / length, (end[0] - start[0]) / length
        for side in (0.0, 10.0, -10.0, 18.0, -18.0):
            for step in range(15):
                fraction = 0.5 + (step + 1) // 2 * 0.05 * (1 if step % 2 else -1)
                point = (
                    start[0] + (end[0] - start[0]) * fraction + nx * side,
                    start[1] + (end[1] - start[1]) * fraction + ny * side,
                )
                if self.base.label_grid.clear(Box(point[0] - 8, point[1] - 8, point[0] + 8, point[1] + 8)):
                    return point
        # A short line among labels (World's Midwest): the nearest clear place round its middle.
        middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
        for radius in (14.0, 20.0, 26.0, 32.0, 40.0):
            for step in range(16):
                angle = math.radians(step * 22.5)
                point = (middle[0] + radius * math.cos(angle), middle[1] + radius * math.sin(angle))
                if self.base.label_grid.clear(Box(point[0] - 8, point[1] - 8, point[0] + 8, point[1] + 8)):
                    return point
        return middle

    def _at(self, location: str) -> Point | None:
        try:
            return self.art.where(location)
        except VariantError:  # a location the art lacks (an invalid order): draw nothing
            return None

    def _unit_at(self, location: str) -> Point | None:
        """Where the unit standing on ``location`` is drawn: beside its province when dislodged."""
        return self._beside.get(location) or self._at(location)

    def order(self, result: OrderResult, position: Position) -> None:
        order = result.order
        outcome = result.outcome
        unit_location = result.unit.location if result.unit is not None else None
        if order is None or isinstance(order, Hold):
            if unit_location is not None and (at := self._unit_at(unit_location)) is not None:
                colour = {Outcome.SUCCEEDS: _GOOD, Outcome.FAILS: _FAILED, Outcome.INVALID: _INVALID}[outcome]
                if order is None and result.unit is not None and position.phase.type is not PhaseType.MOVEMENT:
                    self._cross(at, _FAILED, "disbanded")  # no order in a retreat/adjustment: it is lost
                elif not self.shown(at):
                    pass  # beyond a clipped view's frame
                elif order is None:  # no order: it holds, but nobody said so
                    self._lines.append(
                        f'<circle class="order unordered {outcome.value}" data-loc="{_escaped(unit_location)}" '
                        f'cx="{at[0]:.1f}" cy="{at[1]:.1f}" r="{15 * self._size(at):g}" fill="none" stroke="{_INVALID}" stroke-width="1.2" '
                        'stroke-dasharray="2 3"/>'
                    )
                else:
                    self._lines.append(
                        f'<circle class="order hold {outcome.value}" data-loc="{_escaped(unit_location)}" cx="{at[0]:.1f}" '
                        f'cy="{at[1]:.1f}" r="{16 * self._size(at):g}" fill="none" stroke="{colour}" stroke-width="2.5"/>'
                    )
            return
        if isinstance(order, Build):
            at = self._at(order.location)
            if at is None:
                return
            if outcome is Outcome.SUCCEEDS:
                built = Unit(result.power, order.type, order.location)
                self.unit(built, at, css="unit built")
            colour = _GOOD if outcome is Outcome.SUCCEEDS else _FAILED
            if self.shown(at):
                self._marks.append(
                    f'<circle class="order build {outcome.value}" data-power="{_escaped(result.power)}" cx="{at[0]:.1f}" '
                    f'cy="{at[1]:.1f}" r="{17 * self._size(at):g}" fill="none" stroke="{colour}" stroke-width="2"/>'
                    f'<circle cx="{at[0]:.1f}" cy="{at[1]:.1f}" r="{21 * self._size(at):g}" fill="none" stroke="{colour}" stroke-width="1.5"/>'
                )
            if outcome is not Outcome.SUCCEEDS:
                self._cross(at, colour, outcome.value)
            return
        start = self._unit_at(order.unit.location) if hasattr(order, "unit") else None
        if start is None and unit_location is not None:
            start = self._unit_at(unit_location)
        if start is None:
            return
        if isinstance(order, (Remove, Disband)):
            if self.shown(start):
                self._lines.append(f'<circle class="order {"remove" if isinstance(order, Remove) else "disband"} {outcome.value}" '
                                   f'cx="{start[0]:.1f}" cy="{start[1]:.1f}" r="{15 * self._size(start):g}" fill="none" stroke="{_FAILED}" '
                                   'stroke-width="2"/>')
            self._cross(start, _FAILED if outcome is Outcome.SUCCEEDS else _INVALID, "removed")
            return
        if isinstance(order, (Move, Retreat)):
            end = self._at(order.destination)
            if end is not None:
                kind = "move" if isinstance(order, Move) else "retreat"
                if isinstance(order, Move) and order.wants_convoy:
                    kind = "move convoyed"
                where = f' data-from="{_escaped(order.unit.location)}" data-to="{_escaped(order.destination)}"'
                self._line(start, end, kind, outcome, arrow=True, extra=where)
            return
        if isinstance(order, SupportHold):
            end = self._unit_at(order.supported.location)
            if end is not None:
                self._line(start, end, "support-hold", outcome, arrow=False, dash="8 5")
            return
        if isinstance(order, (SupportMove, Convoy)):
            subject = order.supported if isinstance(order, SupportMove) else order.convoyed
            origin = self._unit_at(subject.location)
            target = self._at(province_of(order.destination))
            if origin is None or target is None:
                return
            if self.wraps and abs(target[0] - origin[0]) > self.art.width / 2:  # the middle of the short way
                target = (target[0] - self.art.width if target[0] > origin[0] else target[0] + self.art.width, target[1])
            middle = ((origin[0] + target[0]) / 2 % self.art.width if self.wraps else (origin[0] + target[0]) / 2,
                      (origin[1] + target[1]) / 2)  # fmt: skip
            kind, dash = ("support-move", "8 5") if isinstance(order, SupportMove) else ("convoy", "2 5")
            self._line(start, middle, kind, outcome, arrow=True, dash=dash, stop=6.0)

    def dislodged(self, unit: Unit, retreats: tuple[str, ...] | None) -> None:
        beside = self._beside.get(unit.location)
        if beside is None:
            return
        self.unit(unit, beside, css="unit dislodged", extra=' stroke-dasharray="3 2" opacity="0.85"')
        if self.shown(beside):
            self._marks.append(
                f'<circle class="dislodged-mark" data-loc="{_escaped(unit.location)}" cx="{beside[0]:.1f}" cy="{beside[1]:.1f}" '
                f'r="{15 * self._size(beside):g}" fill="none" stroke="{_FAILED}" stroke-width="2"/>'
            )
        if retreats is None:
            return
        if not retreats:
            self._cross(beside, _FAILED, "destroyed")
        for option in retreats:
            end = self._at(option)
            if end is None or not self.shown(beside, end):
                continue
            segments = self._wrapped(beside, end)
            d = ""
            for index, (a, b) in enumerate(segments):
                if index == len(segments) - 1:
                    b = self._end_clear(a, b, 15.0)
                d += f"M{a[0]:.1f} {a[1]:.1f}L{b[0]:.1f} {b[1]:.1f}"
            self._lines.append(
                f'<path class="retreat-option" data-loc="{_escaped(unit.location)}" data-to="{_escaped(option)}" '
                f'd="{d}" fill="none" stroke="{_FAILED}" '
                f'stroke-width="1.5" stroke-dasharray="4 3" marker-end="url(#arrow-failed)"/>'
            )


def _centre_svg(code: str, x: float, y: float, power: str, fill: str, size: float) -> str:
    return (
        f'<circle class="centre" data-province="{code}" data-power="{_escaped(power)}" '
        f'cx="{x:.1f}" cy="{y:.1f}" r="{6 * size:g}" fill="{fill}" stroke="#111" stroke-width="1.5"/>'
    )


def _cross_svg(at: Point, colour: str, kind: str) -> str:
    x, y = at
    return (
        f'<path class="cross {kind}" data-x="{x:.1f}" data-y="{y:.1f}" d="M{x - 6:.1f} {y - 6:.1f}l12 12M{x + 6:.1f} '
        f'{y - 6:.1f}l-12 12" stroke="{colour}" stroke-width="3.5" stroke-linecap="round"/>'
    )


def _head_box(tip: Point, direction: Point) -> Box:
    """The box around an arrowhead whose tip is ``tip``, pointing along ``direction`` (a unit vector)."""
    ux, uy = direction
    bx, by = tip[0] - ux * _ARROW_HEAD, tip[1] - uy * _ARROW_HEAD
    half = _ARROW_HEAD / 2
    xs = (tip[0], bx - uy * half, bx + uy * half)
    ys = (tip[1], by + ux * half, by - ux * half)
    return Box(min(xs), min(ys), max(xs), max(ys))
