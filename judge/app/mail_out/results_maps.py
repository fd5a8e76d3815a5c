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
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Text, bindparam, cast, select

from judge import json_text
from judge.app.audience.blind_view import EVERYTHING, NOTHING, View
from judge.app.game_state.variant_rules import GameRules, game_map_of
from judge.core.adjudicator.results import AdjudicationResult
from judge.core.geography import GameMap
from judge.core.position import Position
from judge.core.serialization import position_from_json
from judge.core.units import Unit
from judge.core.visibility import end_province
from judge.db.database import UnitOfWork
from judge.db.models import Game, PhaseRecord
from judge.mail.compose import Attachment
from judge.maps.contract import orders_from_result
from judge.maps.machiavelli_layer import has_a_board_of_its_own, scenario_svg
from judge.maps.png import svg_to_png
from judge.maps.render import OrdersDrawn, phase_title, render_svg

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


class Named(Protocol):
    @property
    def name(self) -> str: ...


class PictureGame(GameRules, Named, Protocol):
    """What a phase's picture reads of its game: a :class:`Game`, or those columns read alone."""


class PicturePhase(Protocol):
    """What a phase's picture reads of its record: a :class:`PhaseRecord`, or those columns read alone."""

    @property
    def position_before(self) -> dict[str, Any]: ...

    @property
    def position_after(self) -> dict[str, Any] | None: ...

    @property
    def results(self) -> dict[str, Any] | None: ...

    @property
    def processed_at(self) -> datetime | None: ...


def picture_title(game: Named, position: Position, language: str = "en") -> str:
    return f"{game.name}: {phase_title(position.phase, language)}"


def phase_svg(
    game: PictureGame, record: PicturePhase, previous: PicturePhase | None = None, language: str = "en",
    view: View = EVERYTHING,
) -> str:
    """The picture of one phase record, in the reader's ``language``: with its orders and results
    (and the centres after it) only once it is processed.

    A retreat phase's dislodged units get the retreat options that the
    ``previous`` (movement) phase's results announced to everyone.
    ``view`` (Fog of War, :mod:`judge.app.audience.blind_view`): what the reader may see; the
    units and orders out of its sight are left off, the provinces it does not see dimmed.
    """
    return _phase_svg(game, record, previous.results if previous is not None else None, language, view)


def _phase_svg(
    game: PictureGame, record: PicturePhase, announced: Mapping[str, Any] | None, language: str, view: View
) -> str:
    """:func:`phase_svg`, with the results of the phase before (``announced``) in place of its record."""
    # A scenario whose positions are kept the Renaissance core's way is drawn by its own layer: the
    # board the phase leaves once processed (the results mail's), else the board as it stands.
    # A processed phase whose ruling kept its orders' drawing is drawn as the plain variants' are:
    # its units and orders over the control it left.
    if has_a_board_of_its_own(game.variant):
        after = record.position_after if record.processed_at is not None else None
        drawing = (record.results or {}).get("drawing") if after is not None else None
        return scenario_svg(
            game.variant, after or record.position_before, game_name=game.name, language=language,
            before=record.position_before if drawing is not None else None, drawing=drawing,
        )
    game_map = game_map_of(game)
    position = position_from_json(record.position_before).position
    drawn: OrdersDrawn | None = None
    if record.processed_at is not None and record.results:
        drawn = orders_from_result(record.results, position, game_map)
    if position.dislodged and announced:
        options = orders_from_result(announced, position, game_map)
        drawn = OrdersDrawn(
            drawn.results if drawn else (), options.dislodged, options.retreats, drawn.centers if drawn else None
        )
    seen: frozenset[str] | None = None
    if not view.everything:
        seen, position, drawn = _fogged(game_map, view, position, drawn)
    return render_svg(
        game_map, position, drawn, title=picture_title(game, position, language), language=language, seen=seen
    )


def _fogged(
    game_map: GameMap, view: View, position: Position, drawn: OrdersDrawn | None
) -> tuple[frozenset[str], Position, OrdersDrawn | None]:
    """The picture's position and orders as ``view`` sees them, and the provinces it sees (the
    board before the phase: the picture draws that board)."""
    seen = view.seen(game_map, position) or frozenset()
    if drawn is None:
        return seen, view.position(game_map, position), None
    after = position_seen_after(position, drawn)
    seen |= view.seen(game_map, after) or frozenset()
    result = AdjudicationResult(position.phase, position.phase, after, drawn.results, drawn.dislodged, drawn.retreats)
    before, shown = view.results(game_map, position, result)
    centers = shown.position.centers if drawn.centers is not None else None
    return seen, before, OrdersDrawn(shown.results, shown.dislodged, shown.retreats, centers)


def position_seen_after(position: Position, drawn: OrdersDrawn) -> Position:
    """The board after a drawn phase, as far as the picture knows it: the units where their
    results leave them (a dislodged unit where it stood), and the centres after the phase."""
    moved: list[Unit] = []
    for entry in drawn.results:
        end = end_province(entry)
        if entry.unit is None or end is None:
            continue
        if end == entry.unit.province:
            moved.append(entry.unit)
        else:
            destination = getattr(entry.order, "destination", end)
            moved.append(Unit(entry.unit.power, entry.unit.type, destination))
    ordered = {entry.unit for entry in drawn.results if entry.unit is not None}
    units = tuple(moved) + tuple(u for u in position.units if u not in ordered)
    dislodged = {d.unit for d in drawn.dislodged}
    return replace(
        position,
        units=tuple(u for u in units if u not in dislodged),
        centers=drawn.centers if drawn.centers is not None else position.centers,
        dislodged=tuple(drawn.dislodged),
    )


def map_language(language: str, view: View, game_map: GameMap) -> str:
    """What an outbox row keeps to draw its reader's map: the language, and in a Fog of War game
    whose sight (``fr:3``: the map's fourth power; ``en:-``: the one who sees nothing)."""
    if view.everything:
        return language
    if view.power is None:
        return f"{language}:-"
    return f"{language}:{game_map.powers.index(view.power)}"


def view_of_map_language(language: str, game_map: GameMap) -> tuple[str, View]:
    """The language and view :func:`map_language` wrote."""
    language, _, sight = language.partition(":")
    if not sight:
        return language, EVERYTHING
    if sight == "-" or not sight.isdigit() or int(sight) >= len(game_map.powers):
        return language, NOTHING
    return language, View(everything=False, power=game_map.powers[int(sight)])


class ResultsPictures:
    """The mails' pictures, drawn by the sender when it delivers them, once per phase and language.

    A phase's results go to every player, master and observer in separate
    mails that carry the same picture in their reader's language; the
    sender delivers them one after another, so a few recent pictures are
    kept. The key is the phase record's id, its processing time and the
    language: a processed record never changes, and a rollback that deletes
    it (its id may be reused on SQLite) gives the new record another
    processing time, so a kept picture cannot be shown for the wrong phase.
    A phase not processed yet (the Game Starting mail's opening board) is
    drawn as it stands, without orders; its key adds the record's game and
    name, so a reused id draws again.
    """

    def __init__(self, keep: int = 8) -> None:
        self._keep = keep
        self._pictures: OrderedDict[tuple[object, ...], Attachment | None] = OrderedDict()

    def picture(self, uow: UnitOfWork, phase_id: int, language: str = "en") -> Attachment | None:
        """The PNG of phase ``phase_id`` in ``language`` (with its orders and results once processed), or None.

        None (and a log line) when the phase is gone or the picture cannot be
        drawn: a picture never stops a mail, whose text is complete.
        """
        # One statement: the key's columns, and what the picture is drawn from as text, decoded only
        # when it is drawn (a phase's readers after the first get its kept picture). On the session's
        # connection, in its transaction: the ORM's handling of a statement is not needed for these
        # columns (nor its flush: the sender writes no phase or game).
        row = uow.session.connection().execute(_READ, {"phase_id": phase_id}).first()
        if row is None:
            return None
        processed_at, game_id, name = row[0], row[1], row[2]
        key: tuple[object, ...] = (phase_id, processed_at, language)
        if processed_at is None:
            key = (*key, game_id, name)
        if key in self._pictures:
            self._pictures.move_to_end(key)
            return self._pictures[key]
        picture = _draw_results(uow, phase_id, tuple(row), language)
        self._pictures[key] = picture
        while len(self._pictures) > self._keep:
            self._pictures.popitem(last=False)
        return picture


_READ = select(
    PhaseRecord.processed_at, PhaseRecord.game_id, PhaseRecord.name, PhaseRecord.turn,
    cast(PhaseRecord.position_before, Text), cast(PhaseRecord.position_after, Text), cast(PhaseRecord.results, Text),
    Game.name, Game.variant, cast(Game.extra_settings, Text), Game.build_centres,
).join(Game, Game.id == PhaseRecord.game_id).where(PhaseRecord.id == bindparam("phase_id"))  # fmt: skip
"""What the sender's picture of a phase reads, with its game, in one statement (a Core select: the
ORM's loading of the whole record and game cost as much as drawing the phase's orders), built once
(its cache key too: a statement built for each picture costs a tenth of a millisecond more). The
JSON documents come as their text: decoded by :func:`judge.json_text.loads` (orjson, a third of the
standard library's time) when the picture is drawn, not at all when it is kept already."""


def _json(text: str | None) -> Any:
    return None if text is None else json_text.loads(text)


@dataclass(frozen=True, slots=True)
class _GameRead:
    """A game's columns that a picture reads (:class:`PictureGame`)."""

    name: str
    variant: str
    extra_settings: dict[str, Any] | None
    build_centres: str


@dataclass(frozen=True, slots=True)
class _PhaseRead:
    """A phase record's columns that a picture reads (:class:`PicturePhase`)."""

    processed_at: datetime | None
    position_before: dict[str, Any]
    position_after: dict[str, Any] | None
    results: dict[str, Any] | None


def _draw_results(uow: UnitOfWork, phase_id: int, row: tuple[Any, ...], language: str) -> Attachment | None:
    """The picture of phase ``phase_id`` from its row of :data:`_READ`."""
    try:
        processed_at, game_id, name, turn, before, after, results, game_name, variant, settings, build = row
        game = _GameRead(game_name, variant, _json(settings), build)
        record = _PhaseRead(processed_at, _json(before), _json(after), _json(results))
        language, view = view_of_map_language(language, game_map_of(game))
        language = "fr" if language == "fr" else "en"
        # The phase before it in its timeline (the newest record of the turn before, made before it):
        # read only for the retreat options it announced to the units dislodged here.
        announced = None
        if (record.position_before or {}).get("dislodged"):
            announced = _json(
                uow.session.connection().scalars(
                    select(cast(PhaseRecord.results, Text))
                    .where(PhaseRecord.game_id == game_id, PhaseRecord.turn == turn - 1, PhaseRecord.id < phase_id)
                    .order_by(PhaseRecord.id.desc())
                    .limit(1)
                ).first()
            )
        svg = _phase_svg(game, record, announced, language, view)
        return Attachment(file_name(game, name, "png"), "image/png", svg_to_png(svg))
    except Exception:
        log.exception("no map for phase record %s", phase_id)
        return None


def file_name(game: Named, phase: str, extension: str) -> str:
    return f"{game.name}-{phase}.{extension}"
