"""Draw a position, and optionally the orders of its phase and how they ended, as SVG.

Pure: a variant (or its :class:`GameMap`), a :class:`Position` and what was
ordered go in, SVG text comes out; the only thing read is the variant's map
art (:mod:`judge.maps.art`). The picture shows:

* units as army (a square with a flag's pole) and fleet (a hull) symbols,
  filled with their power's colour (``data-power`` names the power);
* supply centres as rings filled with their owner's colour (white if neutral);
* moves and retreats as arrows, supports as dashed lines, convoys as dotted
  lines, holds as a ring; an order that failed is red with a cross, an
  invalid one grey with a cross;
* units dislodged beside their province, with their retreat options as thin
  arrows; builds as a double ring, removals and disbands as a cross;
* the phase as a title, and a legend: each power's colour and centre count.

Text is drawn with :mod:`judge.maps.font` (strokes, not a font), so the PNG is
readable on a machine without fonts. Player names never appear: only powers.
"""

from __future__ import annotations

import colorsys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

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
from judge.maps.art import MapArt, Point, load_art
from judge.maps.font import text_path

__all__ = ["OrdersDrawn", "drawn_from", "power_colours", "render_svg"]

_TITLE_BAND = 44.0
_ROW = 26.0
_FAILED = "#d62020"
_INVALID = "#808080"
_GOOD = "#1b1b1b"

# Colours for the classic seven, close to the published board's; other powers take the generated palette.
_CLASSIC = {
    "AUSTRIA": "#c8372d", "ENGLAND": "#3c3ca8", "FRANCE": "#3fa9e0", "GERMANY": "#5a4a3a",
    "ITALY": "#2e9a3c", "RUSSIA": "#8d5ab8", "TURKEY": "#e8c41c",
}  # fmt: skip
_PALETTE = (
    "#c8372d", "#3c3ca8", "#3fa9e0", "#5a4a3a", "#2e9a3c", "#8d5ab8", "#e8c41c", "#e07b1f",
    "#d94f9c", "#1f8c8c", "#8aa61a", "#7a1f3d", "#2b5f2b", "#f2a0a0", "#6b6bd6", "#b08a3a",
    "#36c2a0",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class OrdersDrawn:
    """What to draw over the position: each order's result, and the units dislodged with their retreats.

    ``retreats`` gives each dislodged unit its retreat locations (an empty
    tuple: it is destroyed); units of ``dislodged`` missing from it are drawn
    without options.
    """

    results: tuple[OrderResult, ...] = ()
    dislodged: tuple[DislodgedUnit, ...] = ()
    retreats: Mapping[Unit, tuple[str, ...]] = field(default_factory=dict)


def drawn_from(result: AdjudicationResult) -> OrdersDrawn:
    """The drawing of an adjudicated phase: its results, its dislodged units and their retreats."""
    return OrdersDrawn(tuple(result.results), tuple(result.dislodged), dict(result.retreats))


def power_colours(game_map: GameMap) -> dict[str, str]:
    """Each power's colour: the classic colours where the power is a classic one, else a palette by index."""
    colours: dict[str, str] = {}
    classic = set(game_map.powers) <= set(_CLASSIC)
    for index, power in enumerate(game_map.powers):
        if classic:
            colours[power] = _CLASSIC[power]
        elif index < len(_PALETTE):
            colours[power] = _PALETTE[index]
        else:  # many powers (Chaos): hues spread by the golden angle, two lightnesses
            hue = (index * 0.618034) % 1.0
            red, green, blue = colorsys.hls_to_rgb(hue, 0.38 if index % 2 else 0.6, 0.7)
            colours[power] = f"#{int(red * 255):02x}{int(green * 255):02x}{int(blue * 255):02x}"
    return colours


def phase_title(phase: Phase) -> str:
    """``Spring 1901 movement (S1901M)``: the phase in words and in the judge's notation."""
    kind = {PhaseType.MOVEMENT: "movement", PhaseType.RETREAT: "retreats", PhaseType.ADJUSTMENT: "adjustments"}
    season = {"S": "Spring", "F": "Fall", "W": "Winter"}.get(str(phase)[0], "")
    return f"{season} {phase.year} {kind[phase.type]} ({phase})"


def _short_title(game_map: GameMap) -> str:
    """``Standard Diplomacy``, ``Ancient Mediterranean``: the variant's title without its notes in brackets."""
    return (game_map.title or game_map.name).split(" (")[0]


def render_svg(
    variant: str | GameMap,
    position: Position,
    orders: OrdersDrawn | AdjudicationResult | None = None,
    *,
    title: str | None = None,
) -> str:
    """The SVG picture of ``position`` (and of ``orders`` if given), titled ``title`` or the phase."""
    game_map = variant if isinstance(variant, GameMap) else load_map(variant)
    art = load_art(game_map.name)
    drawn = drawn_from(orders) if isinstance(orders, AdjudicationResult) else orders
    colours = power_colours(game_map)
    canvas = _Canvas(art, colours)
    canvas.centres(game_map, position.centers)
    for unit in position.units:
        canvas.unit(unit, art.where(unit.location), css="unit")
    dislodged = list(position.dislodged)
    retreats: Mapping[Unit, tuple[str, ...]] = {}
    if drawn is not None:
        dislodged.extend(d for d in drawn.dislodged if d not in dislodged)
        retreats = drawn.retreats
        for result in drawn.results:
            canvas.order(result, position)
    for entry in dislodged:
        canvas.dislodged(entry.unit, retreats.get(entry.unit))
    labels = canvas.labels(game_map)
    heading = title if title is not None else f"{_short_title(game_map)}: {phase_title(position.phase)}"
    legend_rows = (len(game_map.powers) + 3) // 4
    height = art.height + _TITLE_BAND + legend_rows * _ROW + 12
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {art.width:g} {height:g}" '
        f'width="{art.width:g}" height="{height:g}" data-variant="{escape(game_map.name)}" '
        f'data-phase="{position.phase}">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" '
        'orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="context-stroke"/></marker>'
        f'<marker id="arrow-good" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0 0L10 5L0 10z" fill="{_GOOD}"/></marker>'
        f'<marker id="arrow-failed" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0 0L10 5L0 10z" fill="{_FAILED}"/></marker>'
        f'<marker id="arrow-invalid" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0 0L10 5L0 10z" fill="{_INVALID}"/></marker>'
        "</defs>",
        f'<rect x="0" y="0" width="{art.width:g}" height="{height:g}" fill="#ffffff"/>',
        _text(heading, art.width / 2, 31, 20, "middle", css="title", width=2.4),
        f'<g transform="translate(0 {_TITLE_BAND:g})">',
        # Province borders without anti-aliasing: a PNG a third the size, borders still clean.
        f'<g shape-rendering="crispEdges">{art.body}</g>',
        labels,
        *canvas.layers(),
        "</g>",
        _legend(game_map, colours, position.centers, art.width, art.height + _TITLE_BAND + 8),
        "</svg>",
    ]
    return "\n".join(parts)


def _text(text: str, x: float, y: float, size: float, anchor: str, *, css: str, width: float = 1.4, colour: str = "#111") -> str:
    return (
        f'<path class="{css}" data-text="{escape(text)}" d="{text_path(text, x, y, size, anchor)}" fill="none" '
        f'stroke="{colour}" stroke-width="{width:g}" stroke-linecap="round" stroke-linejoin="round"/>'
    )


def _legend(
    game_map: GameMap, colours: Mapping[str, str], centers: Mapping[str, frozenset[str]], width: float, top: float
) -> str:
    parts = ['<g class="legend">']
    column = width / 4
    for index, power in enumerate(game_map.powers):
        x = 12 + (index % 4) * column
        y = top + (index // 4) * _ROW
        count = len(centers.get(power, ()))
        parts.append(
            f'<rect class="swatch" data-power="{escape(power)}" x="{x:g}" y="{y:g}" width="18" height="18" '
            f'fill="{colours[power]}" stroke="#111" stroke-width="1"/>'
        )
        name = game_map.power_names[power].name if power in game_map.power_names else power
        parts.append(_text(f"{name} {count}", x + 26, y + 15, 12, "start", css="legend-text"))
    parts.append("</g>")
    return "".join(parts)


class _Canvas:
    """Collects the layers of one picture, each a list of SVG elements."""

    def __init__(self, art: MapArt, colours: Mapping[str, str]) -> None:
        self.art = art
        self.colours = colours
        self._centres: list[str] = []
        self._lines: list[str] = []
        self._units: list[str] = []
        self._marks: list[str] = []

    def layers(self) -> Iterable[str]:
        yield '<g class="centres">' + "".join(self._centres) + "</g>"
        yield '<g class="units">' + "".join(self._units) + "</g>"
        yield '<g class="orders">' + "".join(self._lines) + "</g>"
        yield '<g class="marks">' + "".join(self._marks) + "</g>"

    def labels(self, game_map: GameMap) -> str:
        codes = [code for code in self.art.provinces if code in game_map.provinces]
        strokes = " ".join(
            text_path(code, self.art.provinces[code].label[0], self.art.provinces[code].label[1] + 4, 9, "middle")
            for code in codes
        )
        # One path for every label (a tenth less time to render a large board than a path each),
        # butt ends, and no anti-aliasing: crisp small letters, and a PNG a quarter smaller. Bevelled
        # joins: without anti-aliasing, mitred or round ones fill the sharp angles of W and M.
        return (
            f'<path class="labels" data-labels="{" ".join(codes)}" d="{strokes}" shape-rendering="crispEdges" '
            'fill="none" stroke="#2a2a2a" stroke-width="1.1" stroke-linecap="butt" stroke-linejoin="bevel"/>'
        )

    def centres(self, game_map: GameMap, centers: Mapping[str, frozenset[str]]) -> None:
        owner = {c: p for p, owned in centers.items() for c in owned}
        for code in sorted(game_map.supply_centers):
            anchors = self.art.provinces.get(code)
            if anchors is None or anchors.centre is None:
                continue
            x, y = anchors.centre
            power = owner.get(code)
            fill = self.colours.get(power, "#ffffff") if power else "#ffffff"
            self._centres.append(
                f'<circle class="centre" data-province="{code}" data-power="{escape(power or "")}" '
                f'cx="{x:.1f}" cy="{y:.1f}" r="6" fill="{fill}" stroke="#111" stroke-width="1.5"/>'
            )

    def unit(self, unit: Unit, at: Point, *, css: str, extra: str = "") -> None:
        x, y = at
        fill = self.colours.get(unit.power, "#dddddd")
        common = (
            f'class="{css}" data-power="{escape(unit.power)}" data-unit="{unit.type.value}" '
            f'data-loc="{escape(unit.location)}" fill="{fill}" stroke="#111" stroke-width="1.5"{extra}'
        )
        if unit.type is UnitType.ARMY:
            self._units.append(
                f'<path {common} d="M{x - 9:.1f} {y - 7:.1f}h18v14h-18z M{x - 4:.1f} {y + 7:.1f}v-10h9"/>'
            )
        else:
            self._units.append(
                f'<path {common} d="M{x - 12:.1f} {y - 1:.1f}h24l-5 8h-14z M{x - 1:.1f} {y - 1:.1f}v-9l7 7h-7"/>'
            )

    def _cross(self, at: Point, colour: str, kind: str) -> None:
        x, y = at
        self._marks.append(
            f'<path class="cross {kind}" d="M{x - 6:.1f} {y - 6:.1f}l12 12M{x + 6:.1f} {y - 6:.1f}l-12 12" '
            f'stroke="{colour}" stroke-width="3.5" stroke-linecap="round"/>'
        )

    def _line(self, start: Point, end: Point, kind: str, outcome: Outcome, *, arrow: bool, dash: str = "", shorten: float = 13.0) -> None:
        colour = {Outcome.SUCCEEDS: _GOOD, Outcome.FAILS: _FAILED, Outcome.INVALID: _INVALID}[outcome]
        (x1, y1), (x2, y2) = start, end
        length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1e-6)
        if length > 2 * shorten:
            x1, y1 = x1 + (x2 - x1) * shorten / length, y1 + (y2 - y1) * shorten / length
            x2, y2 = x2 - (x2 - x1) * shorten / length, y2 - (y2 - y1) * shorten / length
        marker = f' marker-end="url(#arrow-{outcome.value if outcome is not Outcome.SUCCEEDS else "good"})"' if arrow else ""
        marker = marker.replace("arrow-fails", "arrow-failed")
        dashing = f' stroke-dasharray="{dash}"' if dash else ""
        self._lines.append(
            f'<path class="order {kind} {outcome.value}" d="M{x1:.1f} {y1:.1f}L{x2:.1f} {y2:.1f}" fill="none" '
            f'stroke="{colour}" stroke-width="3"{dashing}{marker}/>'
        )
        if outcome is not Outcome.SUCCEEDS:
            self._cross(((x1 + x2) / 2, (y1 + y2) / 2), colour, outcome.value)

    def _at(self, location: str) -> Point | None:
        try:
            return self.art.where(location)
        except VariantError:  # a location the art lacks (an invalid order): draw nothing
            return None

    def order(self, result: OrderResult, position: Position) -> None:
        order = result.order
        outcome = result.outcome
        unit_location = result.unit.location if result.unit is not None else None
        if order is None or isinstance(order, Hold):
            if unit_location is not None and (at := self._at(unit_location)) is not None:
                colour = {Outcome.SUCCEEDS: _GOOD, Outcome.FAILS: _FAILED, Outcome.INVALID: _INVALID}[outcome]
                if order is None and result.unit is not None and position.phase.type is not PhaseType.MOVEMENT:
                    self._cross(at, _FAILED, "disbanded")  # no order in a retreat/adjustment: it is lost
                else:
                    self._lines.append(
                        f'<circle class="order hold {outcome.value}" cx="{at[0]:.1f}" cy="{at[1]:.1f}" r="16" fill="none" '
                        f'stroke="{colour}" stroke-width="2.5"/>'
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
            self._marks.append(
                f'<circle class="order build {outcome.value}" data-power="{escape(result.power)}" cx="{at[0]:.1f}" '
                f'cy="{at[1]:.1f}" r="17" fill="none" stroke="{colour}" stroke-width="2"/>'
                f'<circle cx="{at[0]:.1f}" cy="{at[1]:.1f}" r="21" fill="none" stroke="{colour}" stroke-width="1.5"/>'
            )
            if outcome is not Outcome.SUCCEEDS:
                self._cross(at, colour, outcome.value)
            return
        start = self._at(order.unit.location) if hasattr(order, "unit") else None
        if start is None and unit_location is not None:
            start = self._at(unit_location)
        if start is None:
            return
        if isinstance(order, (Remove, Disband)):
            self._lines.append(f'<circle class="order {"remove" if isinstance(order, Remove) else "disband"} {outcome.value}" '
                               f'cx="{start[0]:.1f}" cy="{start[1]:.1f}" r="15" fill="none" stroke="{_FAILED}" stroke-width="2"/>')
            self._cross(start, _FAILED if outcome is Outcome.SUCCEEDS else _INVALID, "removed")
            return
        if isinstance(order, (Move, Retreat)):
            end = self._at(order.destination)
            if end is not None:
                kind = "move" if isinstance(order, Move) else "retreat"
                if isinstance(order, Move) and order.wants_convoy:
                    kind = "move convoyed"
                self._line(start, end, kind, outcome, arrow=True)
            return
        if isinstance(order, SupportHold):
            end = self._at(order.supported.location)
            if end is not None:
                self._line(start, end, "support-hold", outcome, arrow=False, dash="8 5")
            return
        if isinstance(order, (SupportMove, Convoy)):
            subject = order.supported if isinstance(order, SupportMove) else order.convoyed
            origin = self._at(subject.location)
            target = self._at(province_of(order.destination))
            if origin is None or target is None:
                return
            middle = ((origin[0] + target[0]) / 2, (origin[1] + target[1]) / 2)
            kind, dash = ("support-move", "8 5") if isinstance(order, SupportMove) else ("convoy", "2 5")
            self._line(start, middle, kind, outcome, arrow=True, dash=dash, shorten=10.0)

    def dislodged(self, unit: Unit, retreats: tuple[str, ...] | None) -> None:
        home = self._at(unit.location)
        if home is None:
            return
        beside = (home[0] + 16, home[1] + 14)
        self.unit(unit, beside, css="unit dislodged", extra=' stroke-dasharray="3 2" opacity="0.85"')
        self._marks.append(
            f'<circle class="dislodged-mark" data-loc="{escape(unit.location)}" cx="{beside[0]:.1f}" cy="{beside[1]:.1f}" '
            f'r="15" fill="none" stroke="{_FAILED}" stroke-width="2"/>'
        )
        if retreats is None:
            return
        if not retreats:
            self._cross(beside, _FAILED, "destroyed")
        for option in retreats:
            end = self._at(option)
            if end is None:
                continue
            self._lines.append(
                f'<path class="retreat-option" data-loc="{escape(unit.location)}" data-to="{escape(option)}" '
                f'd="M{beside[0]:.1f} {beside[1]:.1f}L{end[0]:.1f} {end[1]:.1f}" fill="none" stroke="{_FAILED}" '
                f'stroke-width="1.5" stroke-dasharray="4 3" marker-end="url(#arrow-failed)"/>'
            )


def results_for_viewer(results: Sequence[OrderResult], powers: Iterable[str]) -> tuple[OrderResult, ...]:
    """Only the results of ``powers`` (for a picture shown before a phase is over)."""
    allowed = set(powers)
    return tuple(r for r in results if r.power in allowed)
