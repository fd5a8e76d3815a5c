"""Maps by mail (issue 16): the picture of a game's phase, and who turned the results' map off.

The picture is drawn by :mod:`judge.maps` from the phase records, which keep
each phase's position before adjudication and, once processed, the ruling in
the `judge adjudicate` contract's format. What a picture may show:

* a processed phase: its position with every order and its result, as the
  results mail told everyone;
* the phase being played: its position only (no orders before processing);
* never a player: the picture names powers, never people, so a gunboat
  game's anonymity holds whoever asks.

``SET MAP OFF`` is kept in the game's ``extra_settings["maps_off"]``: one
entry per reader (``seat:<id>``, ``master:<id>``, ``observer:<id>``) with
the addresses that reader gets the results at, so processing a phase knows
who wants no picture without another query.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from judge.app.variant_rules import game_map_of
from judge.core.adjudicator.results import AdjudicationResult
from judge.core.position import Position
from judge.db.models import Game, PhaseRecord
from judge.mail.compose import Attachment
from judge.maps.contract import orders_from_result
from judge.maps.png import svg_to_png
from judge.maps.render import OrdersDrawn, drawn_from, phase_title, render_svg

MAPS_OFF = "maps_off"
log = logging.getLogger(__name__)


def map_off_addresses(game: Game) -> frozenset[str]:
    """Every address whose reader said SET MAP OFF in ``game`` (lower case)."""
    entries: Mapping[str, Any] = (game.extra_settings or {}).get(MAPS_OFF) or {}
    return frozenset(str(a).lower() for addresses in entries.values() for a in addresses or ())


def set_map_choice(game: Game, reader: str, addresses: Iterable[str], enabled: bool) -> None:
    """Record (OFF) or forget (ON) ``reader``'s choice; ``addresses`` are where its results go."""
    settings = dict(game.extra_settings or {})
    entries = dict(settings.get(MAPS_OFF) or {})
    if enabled:
        entries.pop(reader, None)
    else:
        entries[reader] = sorted({a.strip().lower() for a in addresses if a and a.strip()})
    if entries:
        settings[MAPS_OFF] = entries
    else:
        settings.pop(MAPS_OFF, None)
    game.extra_settings = settings  # a new dict, so the JSON column is written


def map_is_off(game: Game, reader: str) -> bool:
    return reader in ((game.extra_settings or {}).get(MAPS_OFF) or {})


def picture_title(game: Game, position: Position) -> str:
    return f"{game.name}: {phase_title(position.phase)}"


def phase_svg(game: Game, record: PhaseRecord, previous: PhaseRecord | None = None) -> str:
    """The picture of one phase record: with its orders and results only once it is processed.

    A retreat phase's dislodged units get the retreat options that the
    ``previous`` (movement) phase's results announced to everyone.
    """
    from judge.core.serialization import position_from_json

    game_map = game_map_of(game)
    position = position_from_json(record.position_before).position
    drawn: OrdersDrawn | None = None
    if record.processed_at is not None and record.results:
        drawn = orders_from_result(record.results, position, game_map)
    if position.dislodged and previous is not None and previous.results:
        announced = orders_from_result(previous.results, position, game_map)
        drawn = OrdersDrawn(drawn.results if drawn else (), announced.dislodged, announced.retreats)
    return render_svg(game_map, position, drawn, title=picture_title(game, position))


def results_attachment(game: Game, position: Position, result: AdjudicationResult) -> Attachment | None:
    """The results mail's picture: the phase just adjudicated, its orders and what became of them.

    None (and a log line) when it cannot be drawn: a picture never stops a
    phase from being processed, and the results' text is complete without it.
    """
    try:
        svg = render_svg(game_map_of(game), position, drawn_from(result), title=picture_title(game, position))
        return Attachment(file_name(game, str(position.phase), "png"), "image/png", svg_to_png(svg))
    except Exception:
        log.exception("no map for %s %s", game.name, position.phase)
        return None


def file_name(game: Game, phase: str, extension: str) -> str:
    return f"{game.name}-{phase}.{extension}"
