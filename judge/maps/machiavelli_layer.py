"""The picture of a Renaissance game's board (issue 33): what only that game has, over the usual map.

:func:`render_machiavelli_svg` draws a :class:`~judge.core.machiavelli.campaign.MachiavelliPosition`
with :func:`judge.maps.render.render_svg` and a :class:`~judge.maps.render.BoardOverlay`:

* the field units (armies and fleets) as on every board, and a dislodged unit beside its province;
* each province shaded by the power that controls it (an autonomous garrison's in the neutral
  shade), each city's marker filled with the colour of the power that controls the city, and the
  legend counting each power's cities (what victory counts);
* each garrison as a tower in its city, filled with its owner's colour (an autonomous garrison
  white), so it never reads as a field unit: a city's point is its centre marker's, or for a
  fortress the sidecar's ``city`` point (``tools/mapgen/cities.py``);
* a siege as a red dashed ring round the besieged city, drawn under the units (the besieger stands
  beside the city and the ring passes under it, as an order's line passes under a label);
* a rebellion as a red badge marked R beside the province's label (in the province) or beside the
  city (in the city), and famine as a brown badge marked F beside the province's label;
* a key under the legend naming the four marks in the reader's language;
* with a phase's orders (:func:`season_drawing`), what the plain variants' results show, drawn by
  the plain path (:func:`judge.maps.render.render_svg`): moves and retreats as arrows, supports and
  convoys, an explicit hold as a ring and a unit without orders as a grey dashed one, a dislodged
  unit once beside its province with its retreats, builds and removals. What is the Renaissance
  game's own reads as a hold of the unit that stays in its province (BESIEGE, LIFT SIEGE, an
  army's conversion into its city's garrison): its ring says it was ordered, the siege's ring
  (after the phase, and on the campaign that took the city) says what became of a siege. A garrison's orders draw nothing: its tower is
  the garrison, and it moves nowhere on the board.

A phase is drawn as the plain variants draw one: the units and garrisons as they stood before it
(where its orders start), and the control (shading, city markers, legend), sieges and unrest after
it (``after``), the counts the results mail gives.

A badge is put at the nearest place, round the province's label or the city, whose box covers no
label, no place a unit can stand, no centre marker or city and no badge placed before: nothing on
the board hides another thing (``tests/maps/test_overlaps.py``).

:func:`scenario_svg` draws a position as the judge keeps it, for the mails, MAP and the web pages
(:func:`judge.app.mail_out.results_maps.phase_svg` asks it first: a scenario's kept positions are
not ordinary ones). Everything drawn is public: units, garrisons, control and unrest, never a
treasury.

Pure: the board and the position in, SVG text out; only the variant's art and board are read.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping
from dataclasses import replace
from html import escape
from typing import Any

from judge.core.adjudicator.results import OrderResult
from judge.core.machiavelli.adjustments import Dismiss, Raise
from judge.core.machiavelli.board import (
    AUTONOMOUS,
    SCENARIO_DIRECTORY,
    MachiavelliBoard,
    load_board,
)
from judge.core.machiavelli.campaign import CITY_MARK, NO_ORDER, NO_RETREAT, MachiavelliPosition
from judge.core.machiavelli.orders import Besiege, LiftSiege, ToGarrison
from judge.core.machiavelli.season import SeasonResult
from judge.core.machiavelli.serialization import position_from_json
from judge.core.order_json import ORDER_VALUE, order_to_json
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
)
from judge.core.phase import Phase, PhaseType, Season
from judge.core.position import DislodgedUnit, Position
from judge.core.serialization import dislodged_to_json, order_result_to_json
from judge.core.units import Unit, UnitRef
from judge.core.variants import SCENARIO_DIRECTORIES
from judge.i18n import translation
from judge.maps.art import Point, load_art
from judge.maps.font import text_path
from judge.maps.layout import (
    Box,
    Labels,
    board_art,
    fixed_obstacles,
    inside,
    outlines,
    place_labels,
)
from judge.maps.render import (
    NEUTRAL_LAND,
    BoardOverlay,
    OrdersDrawn,
    power_colours,
    render_svg,
    territory_colour,
)

GARRISON_HALF = 7.0
"""Half the width and height of a garrison's tower (the size of a centre's marker, which it covers)."""
SIEGE_RADIUS = 11.0
BADGE_RADIUS = 7.0
REBELLION_COLOUR = "#d62020"
FAMINE_COLOUR = "#7a4a12"
AUTONOMOUS_FILL = "#ffffff"
"""An autonomous garrison's tower: no power's colour."""


def city_point(variant: str, province: str) -> Point | None:
    """Where the city of ``province`` is drawn: its centre marker's point, or a fortress's own
    (the sidecar's ``city``), as the board draws them (:func:`judge.maps.layout.board_art`);
    None where the art has neither."""
    anchors = board_art(variant).provinces.get(province)
    if anchors is None:
        return None
    return anchors.city if anchors.city is not None else anchors.centre


def garrison_box(at: Point) -> Box:
    x, y = at
    return Box(x - GARRISON_HALF, y - GARRISON_HALF, x + GARRISON_HALF, y + GARRISON_HALF)


def badge_box(at: Point) -> Box:
    x, y = at
    r = BADGE_RADIUS + 1
    return Box(x - r, y - r, x + r, y + r)


def board_title(phase: Phase, language: str = "en") -> str:
    """``Summer 1454, campaign (U1454M)`` in the reader's language."""
    _ = translation(language).gettext
    if phase.type is PhaseType.ADJUSTMENT:
        return _("Winter {year}, adjustments ({phase})").format(year=phase.year, phase=phase)
    seasons = {
        (Season.SPRING, PhaseType.MOVEMENT): _("Spring {year}, campaign ({phase})"),
        (Season.SUMMER, PhaseType.MOVEMENT): _("Summer {year}, campaign ({phase})"),
        (Season.FALL, PhaseType.MOVEMENT): _("Fall {year}, campaign ({phase})"),
        (Season.SPRING, PhaseType.RETREAT): _("Spring {year}, retreats ({phase})"),
        (Season.SUMMER, PhaseType.RETREAT): _("Summer {year}, retreats ({phase})"),
        (Season.FALL, PhaseType.RETREAT): _("Fall {year}, retreats ({phase})"),
    }
    return seasons.get((phase.season, phase.type), "{phase}").format(year=phase.year, phase=phase)


def has_a_board_of_its_own(variant: str) -> bool:
    """Whether ``variant`` is a Renaissance scenario, whose positions are kept as the core's JSON
    (:mod:`judge.core.machiavelli.serialization`), not as ordinary ones."""
    return SCENARIO_DIRECTORIES.get(variant.strip().lower()) == SCENARIO_DIRECTORY


def scenario_svg(
    variant: str,
    kept: Mapping[str, Any],
    *,
    game_name: str,
    language: str = "en",
    before: Mapping[str, Any] | None = None,
    drawing: Mapping[str, Any] | None = None,
) -> str:
    """The picture of a position ``kept`` as the judge keeps a Renaissance scenario's (``variant``:
    one, :func:`has_a_board_of_its_own`), titled with ``game_name`` and its phase.

    With ``before`` (the position the phase was played from) and ``drawing`` (its orders as
    :func:`drawing_to_json` kept them), the phase played: its units and orders over the board
    ``kept`` after it, titled with that phase."""
    from judge.maps.contract import orders_from_result

    board = load_board(variant.strip().lower())
    position = position_from_json(board, kept)
    if before is None or drawing is None:
        title = f"{game_name}: {board_title(position.phase, language)}"
        return render_machiavelli_svg(board, position, title=title, language=language)
    played = position_from_json(board, before)
    plain = Position(board.game_map.name, played.phase, played.units, {}, dislodged=played.dislodged)
    orders = orders_from_result(drawing, plain, board.game_map)
    title = f"{game_name}: {board_title(played.phase, language)}"
    return render_machiavelli_svg(board, played, title=title, language=language, orders=orders, after=position)


def render_machiavelli_svg(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    *,
    title: str | None = None,
    language: str = "en",
    orders: OrdersDrawn | None = None,
    after: MachiavelliPosition | None = None,
) -> str:
    """The SVG picture of ``position`` on ``board``'s map, titled ``title`` (or the map and the phase).

    ``orders`` (:func:`season_drawing`): the orders of ``position``'s phase and how they ended,
    drawn over its units; ``after``: the position the phase left, whose control, sieges and unrest
    the picture shows (the results mail's)."""
    language = "fr" if language == "fr" else "en"
    game_map = board.game_map
    state = after if after is not None else position
    cities: dict[str, set[str]] = {}
    for city, owner in state.control.cities.items():
        if owner in game_map.powers:
            cities.setdefault(owner, set()).add(city)
    plain = Position(
        game_map.name,
        position.phase,
        position.units,
        {power: frozenset(owned) for power, owned in cities.items()},
        dislodged=position.dislodged,
    )
    drawn: OrdersDrawn | None = None
    if orders is not None or position.dislodged:
        given = orders if orders is not None else OrdersDrawn()
        known = {entry.unit for entry in position.dislodged}
        drawn = OrdersDrawn(
            results=given.results,
            dislodged=(*position.dislodged, *(d for d in given.dislodged if d.unit not in known)),
            retreats={
                **{unit: tuple(_on_board(p) for p in places) for unit, places in position.retreats.items()},
                **given.retreats,
            },
        )
    heading = title if title is not None else f"{(game_map.title or game_map.name).split(':')[0]}: {board_title(position.phase, language)}"
    overlay = BoardOverlay(
        shading=_shading(board, state),
        under=_sieges(board, state, _taken(position, after)),
        marks=_marks(board, position, language, state),
        key=_key(language, load_art(game_map.name).width),
    )
    return render_svg(game_map, plain, drawn, title=heading, language=language, overlay=overlay)


def season_drawing(result: SeasonResult) -> OrdersDrawn:
    """What the plain drawing shows of a phase played: each order of an army or fleet with its
    outcome (a unit no order named: no order), the units the campaign dislodged with their
    retreats, the builds and removals of the adjustments (see the module's docstring)."""
    before = result.before
    standing = {unit.location: unit for unit in before.units}
    standing.update({entry.unit.location: entry.unit for entry in before.dislodged})
    entries: list[OrderResult] = []
    verdicts: list[tuple[str, object, Any, str]] = []
    if result.campaign is not None:
        verdicts += [(v.power, v.order, v.outcome, v.reason) for v in (*result.campaign.verdicts, *result.campaign.unordered)]
    if result.retreat is not None:
        verdicts += [(v.power, v.order, v.outcome, v.reason) for v in (*result.retreat.verdicts, *result.retreat.unordered)]
    if result.adjustments is not None:
        verdicts += [(v.power, v.order, v.outcome, v.reason) for v in result.adjustments.verdicts]
    for power, given, outcome, reason in verdicts:
        entry = _plain_entry(power, given, standing)
        if entry is None:
            continue
        unit, order = entry
        # nobody said so: the plain drawing's "no order" (or, retreating, "disbanded")
        unordered = reason in (NO_ORDER, f"{NO_ORDER}, dislodged", NO_RETREAT)
        entries.append(OrderResult(power, unit, None if unordered else order, outcome, reason))
    dislodged: tuple[DislodgedUnit, ...] = ()
    retreats: dict[Unit, tuple[str, ...]] = {}
    if result.campaign is not None and result.position.phase.type is PhaseType.RETREAT:
        dislodged = tuple(result.position.dislodged)
        retreats = {unit: tuple(_on_board(p) for p in places) for unit, places in result.position.retreats.items()}
    return OrdersDrawn(tuple(entries), dislodged, retreats)


def _on_board(location: str) -> str:
    """A location as the map draws it: a city's space (``FLO#``) at its province."""
    return location[: -len(CITY_MARK)] if location.endswith(CITY_MARK) else location


def _plain_entry(power: str, given: object, standing: Mapping[str, Unit]) -> tuple[Unit | None, Order] | None:
    """The unit and plain order that draw ``given``; None for what the board does not draw (a
    garrison's order, money, a garrison raised or dismissed, an upkeep paid)."""
    if isinstance(given, Raise):
        if given.garrison or given.type is None:
            return None
        return Unit(power, given.type, given.province), Build(given.type, given.province)
    if isinstance(given, Dismiss):
        unit = standing.get(given.province)
        if given.garrison or unit is None:
            return None
        return unit, Remove(UnitRef(unit.type, unit.location))
    if isinstance(given, (Besiege, LiftSiege, ToGarrison)):
        unit = standing.get(given.unit.location)
        return (unit, Hold(UnitRef(unit.type, unit.location))) if unit is not None else None
    if not isinstance(given, (Hold, Move, SupportHold, SupportMove, Convoy, Retreat, Disband)):
        return None
    unit = standing.get(given.unit.location)
    order: Order = given
    if isinstance(order, (Move, Retreat)) and order.destination.endswith(CITY_MARK):
        order = replace(order, destination=_on_board(order.destination))
    return unit, order


def drawing_to_json(drawn: OrdersDrawn) -> dict[str, Any]:
    """``drawn`` in the ``judge adjudicate`` contract's form (each order's value beside its text),
    what a processed phase keeps and :func:`judge.maps.contract.orders_from_result` reads back."""
    return {
        "results": [
            {**order_result_to_json(entry), ORDER_VALUE: None if entry.order is None else order_to_json(entry.order)}
            for entry in drawn.results
        ],
        "dislodged": [dislodged_to_json(d, drawn.retreats.get(d.unit, ())) for d in drawn.dislodged],
    }


def _shading(board: MachiavelliBoard, position: MachiavelliPosition) -> str:
    """Each province in the tint of the power that controls it; an autonomous garrison's province in
    the neutral shade; a province no one controls left plain."""
    game_map = board.game_map
    colours = power_colours(game_map)
    by_owner: dict[str, list[str]] = {}
    for province, owner in position.control.provinces.items():
        if province in game_map.provinces:
            by_owner.setdefault(owner, []).append(province)
    rules = []
    for owner in sorted(by_owner):
        fill = territory_colour(colours[owner]) if owner in colours else NEUTRAL_LAND
        rules.append(",".join(f"#p-{code}" for code in sorted(by_owner[owner])) + f"{{fill:{fill}}}")
    return f'<style class="shading">{"".join(rules)}</style>' if rules else ""


@functools.lru_cache(maxsize=8)
def _fixed_places(
    variant: str, language: str, board: MachiavelliBoard
) -> tuple[Labels, dict[str, tuple[tuple[Point, ...], ...]], tuple[Box, ...], float, float]:
    """What never moves on a board, once per variant and language: its labels, its outlines, the
    boxes no badge may cover (labels, unit places, centre markers, cities with a siege's ring)."""
    art = board_art(variant)
    labels = place_labels(variant, language)
    taken = [*labels.boxes().values(), *fixed_obstacles(art)]
    for code in (*board.cities, *board.fortresses):
        point = city_point(variant, code)
        if point is not None:
            taken.append(garrison_box(point).grown(SIEGE_RADIUS - GARRISON_HALF))
    return labels, outlines(art), tuple(taken), art.width, art.height


class _Places:
    """Where a badge may go: off every label, unit place, centre marker, city, garrison and badge."""

    def __init__(self, variant: str, language: str, board: MachiavelliBoard) -> None:
        self.labels, self.shapes, fixed, self.width, self.height = _fixed_places(variant, language, board)
        self.taken: list[Box] = list(fixed)

    def near(self, province: str, around: Box) -> Point:
        """The nearest free point beside ``around`` (a label's or a city's box), inside ``province``
        if it has room, else anywhere on the board."""
        rings = self.shapes.get(province, ())
        cx, cy = (around.left + around.right) / 2, (around.top + around.bottom) / 2
        half_w, half_h = (around.right - around.left) / 2, (around.bottom - around.top) / 2
        for within in (True, False):
            for reach in (2.0, 6.0, 10.0, 16.0, 24.0, 34.0, 46.0):
                for step in range(24):
                    angle = math.radians(step * 15.0)
                    dx, dy = math.cos(angle), math.sin(angle)
                    point = (
                        cx + dx * (half_w + BADGE_RADIUS + reach),
                        cy + dy * (half_h + BADGE_RADIUS + reach),
                    )
                    box = badge_box(point)
                    if box.left < 0 or box.top < 0 or box.right > self.width or box.bottom > self.height:
                        continue
                    if within and not inside(rings, point):
                        continue
                    if not any(box.overlaps(other) for other in self.taken):
                        self.taken.append(box)
                        return point
        return (cx, cy + half_h + BADGE_RADIUS)  # a board with no room left at all: under its anchor


def _taken(before: MachiavelliPosition, after: MachiavelliPosition | None) -> Mapping[str, Unit]:
    """The sieges the phase drawn completed: a besieged garrison before it, gone after it (its
    ring stays on the picture of the campaign that took the city)."""
    if after is None:
        return {}
    return {
        city: unit
        for city, unit in before.sieges.items()
        if city in before.garrisons and city not in after.garrisons and city not in after.sieges
    }


def _sieges(board: MachiavelliBoard, position: MachiavelliPosition, taken: Mapping[str, Unit]) -> str:
    parts = []
    for city, unit in sorted({**position.sieges, **taken}.items()):
        point = city_point(board.game_map.name, city)
        if point is not None:
            parts.append(
                f'<circle class="siege" data-province="{city}" data-power="{escape(unit.power)}" '
                f'cx="{point[0]:.1f}" cy="{point[1]:.1f}" r="{SIEGE_RADIUS:g}" fill="none" '
                f'stroke="{REBELLION_COLOUR}" stroke-width="2.5" stroke-dasharray="4 3"/>'
            )
    return "".join(parts)


def _marks(board: MachiavelliBoard, position: MachiavelliPosition, language: str, state: MachiavelliPosition) -> str:
    """The garrisons of ``position`` and the unrest of ``state`` (the position after the phase drawn)."""
    variant = board.game_map.name
    colours = power_colours(board.game_map)
    parts: list[str] = []
    for city, owner in sorted(position.garrisons.items()):
        point = city_point(variant, city)
        if point is not None:
            parts.append(_tower(point, city, owner, colours.get(owner, AUTONOMOUS_FILL)))
    places = _Places(variant, language, board)
    for province, rebellion in sorted(state.unrest.rebellions.items()):
        if rebellion.province and province in places.labels.at:
            at = places.near(province, places.labels.box(province))
            parts.append(_badge(at, "rebellion", province, "R", REBELLION_COLOUR, rebellion.against, "province"))
        point = city_point(variant, province)
        if rebellion.city and point is not None:
            at = places.near(province, garrison_box(point).grown(SIEGE_RADIUS - GARRISON_HALF))
            parts.append(_badge(at, "rebellion", province, "R", REBELLION_COLOUR, rebellion.against, "city"))
    for province in sorted(state.unrest.famine):
        if province in places.labels.at:
            at = places.near(province, places.labels.box(province))
            parts.append(_badge(at, "famine", province, "F", FAMINE_COLOUR, "", "province"))
    return "".join(parts)


def _tower(at: Point, city: str, owner: str, fill: str) -> str:
    """A tower with three merlons, as wide and high as a centre's marker."""
    x, y = at
    h = GARRISON_HALF
    d = (
        f"M{x - h + 1:.1f} {y + h:.1f}V{y - h:.1f}h3v2.5h2v-2.5h2v2.5h2v-2.5h3V{y + h:.1f}z"
        f"M{x - 1.5:.1f} {y + h:.1f}v-4h3v4"
    )
    autonomous = ' data-autonomous="yes"' if owner == AUTONOMOUS else ""
    return (
        f'<path class="garrison" data-province="{city}" data-power="{escape(owner)}"{autonomous} '
        f'data-x="{x:.1f}" data-y="{y:.1f}" d="{d}" fill="{fill}" stroke="#111" stroke-width="1.4" '
        'stroke-linejoin="round"/>'
    )


def _badge(at: Point, kind: str, province: str, letter: str, colour: str, against: str, where: str) -> str:
    """A disc with a white letter: two flat elements, no group (the layered PNG pastes them as kept sprites)."""
    x, y = at
    against_attr = f' data-against="{escape(against)}"' if against else ""
    return (
        f'<circle class="{kind}" data-province="{province}" data-where="{where}"{against_attr} '
        f'data-x="{x:.1f}" data-y="{y:.1f}" cx="{x:.1f}" cy="{y:.1f}" r="{BADGE_RADIUS:g}" fill="{colour}" '
        'stroke="#111" stroke-width="1"/>'
        f'<path class="badge-letter" d="{text_path(letter, x, y + 4, 8, "middle")}" fill="none" stroke="#ffffff" '
        'stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round"/>'
    )


@functools.lru_cache(maxsize=4)
def _key(language: str, width: float) -> str:
    """The key band: a garrison, a siege, a rebellion and famine, each named in ``language``."""
    _ = translation(language).gettext
    entries: Iterable[tuple[str, str]] = (
        ("garrison", _("Garrison")),
        ("siege", _("Siege")),
        ("rebellion", _("Rebellion")),
        ("famine", _("Famine")),
    )
    parts = ['<g class="key-entries">']
    column = width / 4
    for index, (kind, text) in enumerate(entries):
        x, y = 12 + index * column + 9, 9.0
        if kind == "garrison":
            parts.append(_tower((x, y), "", "", AUTONOMOUS_FILL).replace('class="garrison"', 'class="key-garrison"'))
        elif kind == "siege":
            parts.append(
                f'<circle cx="{x:g}" cy="{y:g}" r="8" fill="none" stroke="{REBELLION_COLOUR}" stroke-width="2.5" '
                'stroke-dasharray="4 3"/>'
            )
        else:
            colour, letter = (REBELLION_COLOUR, "R") if kind == "rebellion" else (FAMINE_COLOUR, "F")
            parts.append(_badge((x, y), f"key-{kind}", "", letter, colour, "", ""))
        parts.append(
            f'<path class="key-text" data-text="{escape(text)}" d="{text_path(text, x + 17, y + 6, 12, "start")}" '
            'fill="none" stroke="#111" stroke-width="1.4" stroke-linecap="round" stroke-linejoin="round"/>'
        )
    parts.append("</g>")
    return "".join(parts)

