"""How a power's orders for one phase are kept: one sheet, merged unit by unit, every version stored.

The Judge's rule is that the last valid order for a unit wins and current
orders are never cleared: a new mail replaces the orders of the units it
names and leaves the others alone. So a power's orders for a phase are one
:class:`OrderSheet` — plain orders and IF blocks in the sequence they were
given — and each mail that changes it stores the whole sheet again with
``uow.orders.submit`` (the newest version counts, every version is kept).

The stored form is the sheet in the judge's notation (``canonical`` holds one
item per order or IF block; ``text`` the same items joined) and, when every item
is a plain order of the phase in play, the same orders as values
(``order_values``, :mod:`judge.core.order_json`): such a sheet is read back from
its values, never by reading its text again (:func:`sheet_of`). A sheet with IF
blocks or a preference list is read back from its text, as are versions stored
before the values were: a block for a later phase is kept as written and read
again with the board of its phase when that phase comes
(``OrderBlockKind.FUTURE``), and IF blocks are decided on the board at the start
of their phase (``OrderBlockKind.CONDITIONAL`` for the current phase).

Completeness follows the Judge: every unit ordered in a movement phase, every
dislodged unit in a retreat phase, every build given or WAIVEd (as far as
there are free centres to build in, as the core's ``build_sites`` counts them: home
centres, or any owned centre in Chaos and under SET ANY CENTRES) and every removal
given in an adjustment phase; and the last order mail had no error anywhere (the error
flag, kept per phase in ``game.extra_settings``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, cast

from sqlalchemy import (
    Select,
    Table,
    Text,
    bindparam,
    case,
    func,
    literal_column,
    null,
    select,
    true,
    type_coerce,
    union_all,
)
from sqlalchemy import cast as sql_cast
from sqlalchemy.sql.elements import BindParameter

from judge.app.game_state.conditions import applied_orders, block_lines, block_orders
from judge.core.adjudicator import Rules
from judge.core.adjudicator.phases import build_sites
from judge.core.adjudicator.validation import builds_owed
from judge.core.errors import PositionError
from judge.core.geography import GameMap
from judge.core.order_json import order_from_json, order_to_json
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
from judge.core.phase import Phase, PhaseType
from judge.core.position import Position
from judge.core.units import Unit, province_of
from judge.db.database import UnitOfWork
from judge.db.enums import OrderBlockKind, PhaseState
from judge.db.models import Game, OrderSubmission, PhaseRecord, Seat
from judge.lang.commands import Conditional, OrderCommand
from judge.lang.mail import parse_mail
from judge.lang.preferences import Preference, choose

ERROR_FLAGS = "order_error_flags"
"""``game.extra_settings`` key: {"phase": "S1901M", "powers": [...]} — powers whose last order mail had errors."""

Item = Order | Conditional | Preference
"""A plain order, an IF block, or a postal preference list (seed 000: "A VIE R BUD, TRI, GAL")."""

ADJUSTMENT_LIST = "*adjustments*"
"""The key of a build or removal list: an explicit adjustment order replaces it (and a later list)."""


def adapt(order: Order, phase_type: PhaseType) -> Order:
    """The order as meant in a phase of ``phase_type``.

    A reader that did not know the phase reads ``F TRI - ALB`` as a move: in
    a retreat phase it is a retreat; DISBAND in an adjustment phase is a
    removal, and REMOVE in a retreat phase a disband.
    """
    if phase_type is PhaseType.RETREAT:
        if isinstance(order, Move) and not order.wants_convoy:
            return Retreat(order.unit, order.destination)
        if isinstance(order, Remove):
            return Disband(order.unit)
    if phase_type is PhaseType.ADJUSTMENT and isinstance(order, Disband):
        return Remove(order.unit)
    return order


def unit_key(order: Order | Preference) -> str | None:
    """The province an order is about (a later order there replaces it); None for WAIVE.

    A retreat list is about its unit; a build or removal list about every
    adjustment (:data:`ADJUSTMENT_LIST`).
    """
    if type(order) in _UNIT_ORDERS:  # the common case first (issue 14: called per order per merge)
        return order.unit.province  # type: ignore[union-attr]
    if isinstance(order, Preference):
        unit = order.unit
        return ADJUSTMENT_LIST if unit is None else unit.province
    if isinstance(order, Waive):
        return None
    if isinstance(order, Build):
        return province_of(order.location)
    return order.unit.province


_UNIT_ORDERS = frozenset({Hold, Move, SupportHold, SupportMove, Convoy, Retreat, Disband, Remove})
"""Order classes about their unit's province (exactly these classes, not subclasses)."""


def merge(orders: Sequence[Order], order: Order) -> list[Order]:
    """``orders`` with ``order`` added last, replacing any earlier order for its unit."""
    key = unit_key(order)
    kept = [o for o in orders if key is None or unit_key(o) != key]
    kept.append(order)
    return kept


class _Merged:
    """:func:`merge` applied order after order in linear time: a later order for a unit
    replaces the earlier one and goes last (WAIVEs, about no unit, are all kept)."""

    __slots__ = ("_by_key",)

    def __init__(self) -> None:
        self._by_key: dict[object, Order] = {}

    def add(self, order: Order) -> None:
        key: object = unit_key(order)
        if key is None:
            key = object()
        else:
            self._by_key.pop(key, None)
        self._by_key[key] = order

    def orders(self) -> list[Order]:
        return list(self._by_key.values())


_BLOCK = object()
"""The key of an IF block in :attr:`OrderSheet.keys`: no order replaces a block."""


@dataclass(frozen=True, slots=True)
class OrderSheet:
    """A power's orders for one phase: plain orders and IF blocks, in the sequence given."""

    items: tuple[Item, ...] = ()
    keys: tuple[object, ...] | None = field(default=None, compare=False, repr=False)
    """Each item's :func:`unit_key` (an IF block's: :data:`_BLOCK`), carried from one
    :meth:`with_order` to the next (issue 14: a mail's orders were merged in quadratic calls
    of unit_key); None when not worked out yet. Not part of the sheet's value."""

    def _keys(self) -> tuple[object, ...]:
        keys = self.keys
        if keys is None or len(keys) != len(self.items):
            keys = tuple(_BLOCK if isinstance(item, Conditional) else unit_key(item) for item in self.items)
        return keys

    def with_order(self, order: Order | Preference) -> OrderSheet:
        """A plain order (or list) replaces the earlier plain order or list of its unit and goes last.

        An explicit build, removal or WAIVE also replaces a build or removal
        list given before: the player's explicit orders win over the postal
        list given ahead (a later list replaces an earlier one too).
        """
        key = unit_key(order)
        adjusting = isinstance(order, Build | Remove | Waive)
        items: list[Item] = []
        keys: list[object] = []
        for item, item_key in zip(self.items, self._keys(), strict=True):
            if item_key is _BLOCK or not (
                (key is not None and item_key == key) or (adjusting and item_key == ADJUSTMENT_LIST)
            ):
                items.append(item)
                keys.append(item_key)
        items.append(order)
        keys.append(key)
        return OrderSheet(tuple(items), tuple(keys))

    def with_block(self, block: Conditional) -> OrderSheet:
        """The block goes last, replacing every earlier block that orders one of its units
        (as an order replaces the earlier order for its unit), so no unit ever has two blocks."""
        units = block_units(block)
        return OrderSheet((*(item for item in self.items if not _shares_a_unit(item, units)), block))

    def replaced_by(self, block: Conditional) -> tuple[Conditional, ...]:
        """The blocks :meth:`with_block` would replace with ``block``."""
        units = block_units(block)
        return tuple(item for item in self.blocks if _shares_a_unit(item, units))

    def without_blocks(self, province: str | None = None) -> tuple[OrderSheet, tuple[Conditional, ...]]:
        """The sheet without its IF blocks (only the one ordering the unit in ``province`` when
        given), and the blocks withdrawn; plain orders stay."""
        units = frozenset({province}) if province is not None else None
        withdrawn = tuple(
            item for item in self.blocks if units is None or _shares_a_unit(item, units)
        )
        if not withdrawn:
            return self, ()
        return OrderSheet(tuple(item for item in self.items if not any(item is w for w in withdrawn))), withdrawn

    @property
    def plain(self) -> tuple[Order, ...]:
        return tuple(item for item in self.items if not isinstance(item, Conditional | Preference))

    @property
    def preferences(self) -> tuple[Preference, ...]:
        return tuple(item for item in self.items if isinstance(item, Preference))

    @property
    def blocks(self) -> tuple[Conditional, ...]:
        return tuple(item for item in self.items if isinstance(item, Conditional))

    def effective(self, position: Position, game_map: GameMap, power: str, rules: Rules) -> list[Order]:
        """``power``'s orders that apply on ``position``: blocks decided, later orders replacing
        earlier ones, preference lists chosen on ``game_map`` (the game's map with its rules:
        :func:`judge.app.game_state.variant_rules.game_map_of`, so SET ANY CENTRES and Chaos
        build sites count) under the game's adjudication ``rules``
        (:func:`judge.app.game_state.game_rules.game_rules`: a choice is legal as the
        processing will judge it, ``firstcoast`` included)."""
        phase_type = position.phase.type
        merged = _Merged()
        lists: list[Preference] = []
        for item in self.items:
            if isinstance(item, Conditional):
                for command in applied_orders(item, position):
                    if command.read is not None and command.read.preferences:
                        lists.append(Preference(command.read.preferences))
                    elif command.read is not None:
                        merged.add(adapt(command.read.order, phase_type))
            elif isinstance(item, Preference):
                lists.append(item)
            else:
                merged.add(adapt(item, phase_type))
        chosen = merged.orders()
        for preference in lists:  # after the plain orders: those count against the builds allowed
            for order in chosen_from(preference, position, game_map, power, rules, chosen):
                chosen = merge(chosen, adapt(order, phase_type))
        return chosen

    def trimmed(self, position: Position, power: str) -> OrderSheet:
        """In an adjustment phase, the later builds (or removals) win when there are too many.

        The Judge: "the last build orders override the first ones if you build
        more than you have centres for", so a player lists builds in reverse
        order of preference.
        """
        if position.phase.type is not PhaseType.ADJUSTMENT:
            return self
        owed = builds_owed(position, power)
        kinds = (Build, Waive) if owed > 0 else (Remove,)
        allowed = max(abs(owed), 0)
        counted = [i for i, item in enumerate(self.items) if isinstance(item, kinds)]
        surplus = set(counted[: max(0, len(counted) - allowed)])
        return OrderSheet(tuple(item for i, item in enumerate(self.items) if i not in surplus))

    def with_preference(self, preference: Preference) -> OrderSheet:
        return self.with_order(preference)

    def lines(self) -> list[str]:
        """One item per order or block, in the judge's notation (a block spans several lines)."""
        return [
            "\n".join(block_lines(item)) if isinstance(item, Conditional) else str(item)
            for item in self.items
        ]

    def text(self) -> str:
        return "\n".join(self.lines())

    def order_values(self) -> list[dict[str, Any]] | None:
        """Each item as a value (:func:`judge.core.order_json.order_to_json`) when every item is a
        plain order; None when the sheet holds an IF block or a preference list (kept as text)."""
        if any(isinstance(item, Conditional | Preference) for item in self.items):
            return None
        return [order_to_json(cast(Order, item)) for item in self.items]

    @classmethod
    def read(cls, lines: Iterable[str], game_map: GameMap, phase_type: PhaseType) -> OrderSheet:
        """A stored sheet read back (lines that no longer read, after a map change, are skipped).

        Sheets are immutable values, so readings are cached: the scheduler and the
        processing of one phase read the same stored sheets more than once.
        """
        return _read_sheet(tuple(lines), game_map, phase_type)


def block_units(block: Conditional) -> frozenset[str]:
    """The units a block orders in any of its branches (by :func:`unit_key`)."""
    keys: set[str] = set()
    for command in block_orders(block):
        if command.read is None:
            continue
        item: Order | Preference = (
            Preference(command.read.preferences) if command.read.preferences else command.read.order
        )
        key = unit_key(item)
        if key is not None:
            keys.add(key)
    return frozenset(keys)


def _shares_a_unit(item: Item, units: Set[str]) -> bool:
    return isinstance(item, Conditional) and not units.isdisjoint(block_units(item))


@functools.lru_cache(maxsize=4096)
def _read_sheet(lines: tuple[str, ...], game_map: GameMap, phase_type: PhaseType) -> OrderSheet:
    parsed = parse_mail("\n".join(lines), game_map, phase_type=phase_type)
    items: list[Item] = []
    for command in parsed.commands:
        if isinstance(command, OrderCommand) and command.read is not None and command.read.preferences:
            items.append(Preference(command.read.preferences))
        elif isinstance(command, OrderCommand) and command.read is not None:
            items.append(adapt(command.read.order, phase_type))
        elif isinstance(command, Conditional):
            items.append(command)
    return OrderSheet(tuple(items))


def chosen_from(
    preference: Preference,
    position: Position,
    game_map: GameMap,
    power: str,
    rules: Rules,
    others: Sequence[Order] = (),
) -> tuple[Order, ...]:
    """The orders ``power``'s preference list comes to on ``position`` (seed 000, 3.4.2).

    Only in the phase the list is for (a retreat list in a retreat phase, a
    build or removal list in an adjustment phase): the first legal retreat;
    the first legal builds or removals up to the number allowed, after the
    power's other adjustment orders (``others``). ``game_map`` is the game's
    map with its rules (never the bare variant's: a build list under SET ANY
    CENTRES or in Chaos builds in any owned centre, as the core's build sites
    say); ``power`` is the power whose sheet holds the list (a list never
    orders another power's units or builds); ``rules`` the game's adjudication
    options, under which the processing judges the choice taken.
    """
    wanted = PhaseType.RETREAT if preference.unit is not None else PhaseType.ADJUSTMENT
    if position.phase.type is not wanted:
        return ()
    return choose(position, power, preference.choices, game_map, rules, others=others).taken


# ------------------------------------------------------------------ completeness


@dataclass(frozen=True, slots=True)
class Completeness:
    """What a power still owes in a phase.

    ``owes``: the power has something to order at all. ``unordered``: units
    (dislodged units in a retreat phase) without an order. ``builds_left`` and
    ``removals_left``: adjustments still to give (builds count WAIVEs, and
    only as many as the core's ``build_sites`` allows).
    """

    owes: bool
    unordered: tuple[Unit, ...] = ()
    builds_left: int = 0
    removals_left: int = 0

    @property
    def complete(self) -> bool:
        return not self.unordered and self.builds_left <= 0 and self.removals_left <= 0


def completeness(position: Position, power: str, orders: Sequence[Order], game_map: GameMap) -> Completeness:
    phase_type = position.phase.type
    ordered = {unit_key(order) for order in orders}
    if phase_type is PhaseType.MOVEMENT:
        units = tuple(u for u in position.units if u.power == power)
        return Completeness(bool(units), tuple(u for u in units if u.province not in ordered))
    if phase_type is PhaseType.RETREAT:
        units = tuple(d.unit for d in position.dislodged if d.unit.power == power)
        return Completeness(bool(units), tuple(u for u in units if u.province not in ordered))
    owed = builds_owed(position, power)
    if owed > 0:
        possible = min(owed, len(build_sites(position, power, game_map)))
        given = sum(1 for order in orders if isinstance(order, Build | Waive))
        return Completeness(possible > 0, builds_left=max(0, possible - given))
    if owed < 0:
        given = sum(1 for order in orders if isinstance(order, Remove))
        return Completeness(True, removals_left=max(0, -owed - given))
    return Completeness(False)


def owes_orders(position: Position, power: str, game_map: GameMap) -> bool:
    return completeness(position, power, (), game_map).owes


# ------------------------------------------------------------------ storage


def current_submissions(uow: UnitOfWork, game: Game, phase: Phase | str) -> dict[str, OrderSubmission]:
    """{power: the submission that counts} for ``phase``."""
    return uow.orders.current(game, str(phase))


class _Stored(Protocol):
    """A stored version of a sheet: an ORM row, or a :class:`StoredSheet`."""

    @property
    def canonical(self) -> Sequence[str]: ...

    @property
    def order_values(self) -> Sequence[Mapping[str, Any]] | None: ...


def sheet_of(submission: _Stored | None, game_map: GameMap, phase: Phase) -> OrderSheet:
    """A stored version as a sheet: from its orders' values when it has them (each order as
    meant in ``phase``, :func:`adapt`), else its text read back (:meth:`OrderSheet.read`)."""
    if submission is None:
        return OrderSheet()
    values = submission.order_values
    if values is not None and len(values) == len(submission.canonical):
        try:
            return OrderSheet(tuple(adapt(order_from_json(value), phase.type) for value in values))
        except PositionError:  # a value this judge cannot read: its text is read instead
            pass
    return OrderSheet.read(submission.canonical, game_map, phase.type)


def store(
    uow: UnitOfWork,
    game: Game,
    seat: Seat,
    phase: Phase,
    sheet: OrderSheet,
    now: datetime,
    *,
    future: bool,
    mail_id: int | None = None,
    person_id: int | None = None,
    stored: SeatOrders | None = None,
) -> None:
    """Store a new version of the seat's whole sheet for ``phase`` (``stored``: what
    :func:`seat_orders` read for that phase in this transaction, which spares a second read
    and lets the version go in with Core statements, no ORM object: the worker's hot path)."""
    if future:
        kind = OrderBlockKind.FUTURE
    else:
        kind = OrderBlockKind.CONDITIONAL if sheet.blocks else OrderBlockKind.CURRENT
    lines = sheet.lines()
    text = "\n".join(lines)
    values = None if future else sheet.order_values()  # a PHASE block is kept as written
    if stored is not None and stored.epoch == game.epoch and not future:
        uow.orders.submit_row(
            game, seat, str(phase), text, lines, now,
            current_id=stored.current.id if stored.current is not None else None,
            newest_version=stored.newest_version, kind=kind, mail_in_id=mail_id, submitted_by_id=person_id,
            order_values=values,
        )  # fmt: skip
        return
    uow.orders.submit(
        game, seat, str(phase), text, lines, now, kind=kind, mail_in_id=mail_id, submitted_by_id=person_id,
        order_values=values,
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class StoredSheet:
    """One stored version of a seat's orders as an order mail reads it: no ORM object (issue 14)."""

    id: int
    phase: str
    kind: OrderBlockKind
    canonical: tuple[str, ...]
    order_values: tuple[dict[str, Any], ...] | None = None
    """The orders as values, one per item, when the version has them (see :func:`sheet_of`)."""


SUPERSEDED = "judge_superseded_orders"
"""``Session.info`` key: ids of order versions this transaction superseded by CLEAR
(:func:`clear_pending`), which :meth:`SeatOrders.pending` leaves out."""


@dataclass(frozen=True, slots=True)
class SeatOrders:
    """A seat's stored orders that count: its sheet for the current phase and its blocks for later ones.

    Read in one query when a mail starts giving orders (:func:`seat_orders`), as plain
    values. A block superseded later in the same transaction by CLEAR is left out by
    :meth:`pending` (``cleared``: the transaction's record of them, :data:`SUPERSEDED`); a
    block superseded by a newer one for its phase is replaced by it where the mail reads it.
    """

    current: StoredSheet | None
    later: tuple[tuple[Phase, StoredSheet], ...]
    submitted: frozenset[str] = frozenset()
    """Every power with orders that count for the current phase (read in the same query): an
    order mail needs no re-planning while another power still owes all of its orders."""
    newest_version: int = 0
    """The seat's power's newest version for the current phase, superseded or not (0: none):
    the next one stored is this plus one, with no second read."""
    epoch: int | None = None
    """The game's timeline when this was read (a ROLLBACK later in the mail starts another)."""
    cleared: Set[int] = frozenset()
    """The ids of versions the transaction superseded by CLEAR since (shared, growing)."""

    def pending(self) -> list[tuple[Phase, StoredSheet]]:
        """The blocks for later phases still in force, soonest first (as :func:`pending_blocks`)."""
        cleared = self.cleared
        return [(phase, row) for phase, row in self.later if row.id not in cleared]

    def for_phase(self, phase: Phase) -> StoredSheet | None:
        """The block in force for the later ``phase``, if any."""
        rows = [row for later, row in self.pending() if later == phase]
        return rows[-1] if rows else None


@functools.cache
def _seat_orders_statement() -> Select[
    tuple[int | None, int | None, str | None, str | None, OrderBlockKind | None, list[str] | None, list[Any] | None]
]:
    """:func:`seat_orders`'s query, built once (building it cost more CPU than running it): in
    Core, the orders of other powers read for their power alone (their text is not decoded).

    Two reads joined by UNION ALL, each on a partial index of the orders in force (issue 14;
    ``ix_orders_current`` and ``ix_orders_ahead``, judge/db/models/play.py): every power's orders for
    the phase, and the seat's blocks for later phases. Read as one condition with an OR,
    SQLite went through every order of the game, superseded versions and past phases included,
    at every order mail: its cost grew with the game's history.
    """
    table = cast(Table, OrderSubmission.__table__)
    versions = table.alias("versions")
    game_id: BindParameter[int] = bindparam("so_game")
    epoch: BindParameter[int] = bindparam("so_epoch")
    name: BindParameter[str] = bindparam("so_phase")
    power: BindParameter[str] = bindparam("so_power")
    seat_id: BindParameter[int] = bindparam("so_seat")
    newest = (  # always one row, so the outer join below gives it even without any orders
        select(func.max(versions.c.version).label("version"))
        .where(versions.c.game_id == game_id, versions.c.epoch == epoch, versions.c.phase == name, versions.c.power == power)
        .subquery()
    )
    in_force = table.c.superseded_at.is_(None)
    # The kind written into the SQL, not bound: the engines must see that it implies the index's.
    not_current = table.c.kind != literal_column(f"'{OrderBlockKind.CURRENT.value}'")
    columns = (table.c.id, table.c.power, table.c.phase, table.c.kind, table.c.canonical, table.c.order_values)
    for_the_phase = select(*columns).where(
        table.c.game_id == game_id, table.c.epoch == epoch, table.c.phase == name, in_force
    )
    ahead = select(*columns).where(
        table.c.seat_id == seat_id, in_force, not_current, table.c.game_id == game_id,
        table.c.epoch == epoch, table.c.phase != name,
    )  # fmt: skip
    rows = union_all(for_the_phase, ahead).subquery("seat_orders_rows")
    own_canonical = type_coerce(case((rows.c.power == power, rows.c.canonical), else_=null()), table.c.canonical.type)
    own_values = type_coerce(case((rows.c.power == power, rows.c.order_values), else_=null()), table.c.order_values.type)
    return (
        select(newest.c.version, rows.c.id, rows.c.power, rows.c.phase, rows.c.kind, own_canonical, own_values)
        .select_from(newest)
        .outerjoin(rows, true())
        .order_by(rows.c.id)
    )


def seat_orders(uow: UnitOfWork, game: Game, seat: Seat, phase: Phase) -> SeatOrders:
    """The seat's current sheet for ``phase`` and its pending later blocks, in one query.

    The same rows as ``current_submissions(...)[seat.power]`` and
    :func:`pending_blocks` together, which an order mail needs both of (to
    merge into, and to acknowledge). Read in Core (issue 14: the ORM objects were the order
    mail's costliest read); this session's changes are flushed first, as the ORM's query would.
    """
    name = str(phase)
    uow.session.flush()
    found = uow.session.connection().execute(
        _seat_orders_statement(),
        {"so_game": game.id, "so_epoch": game.epoch, "so_phase": name, "so_power": seat.power, "so_seat": seat.id},
    ).all()
    return _seat_orders_of(uow, game, seat, phase, found)


def _seat_orders_of(
    uow: UnitOfWork, game: Game, seat: Seat, phase: Phase, found: Sequence[Sequence[Any]]
) -> SeatOrders:
    """:class:`SeatOrders` from the rows of :func:`_seat_orders_statement` (its seven columns)."""
    name = str(phase)
    newest_version = int(found[0][0] or 0) if found else 0
    current: StoredSheet | None = None
    later: list[tuple[Phase, StoredSheet]] = []
    submitted: set[str] = set()
    for _version, row_id, row_power, row_phase, kind, canonical, values in found:
        if row_id is None:
            continue
        if row_phase == name:
            submitted.add(row_power)
            if row_power == seat.power:
                current = StoredSheet(row_id, row_phase, kind, tuple(canonical or ()), _values(values))
            continue
        later_phase = Phase.parse(row_phase)
        if later_phase > phase:
            later.append((later_phase, StoredSheet(row_id, row_phase, kind, tuple(canonical or ()), _values(values))))
    later.sort(key=lambda pair: (pair[0], pair[1].id))
    cleared: set[int] = uow.session.info.setdefault(SUPERSEDED, set())
    return SeatOrders(current, tuple(later), frozenset(submitted), newest_version, game.epoch, cleared)


def _values(stored: object) -> tuple[dict[str, Any], ...] | None:
    return tuple(stored) if isinstance(stored, list) else None


@dataclass(frozen=True, slots=True)
class OpenPhaseOrders:
    """The open phase as an order mail reads it, with the signed-on seat's stored orders."""

    turn: int
    position: str
    """The phase's ``position_before`` as the JSON text stored."""
    orders: SeatOrders | None
    """The seat's orders (:func:`seat_orders`) for the open phase; None when they could not be
    read with it (the phase is not the game's ``current_phase``): read them on their own."""


def open_phase_and_orders(uow: UnitOfWork, game: Game, seat: Seat) -> OpenPhaseOrders | None:
    """The open phase (``PhaseRepository.open_board``) and :func:`seat_orders` for it, in one
    query (issue 14: one statement less per order mail); None when no phase is open.

    The orders are those of the game's ``current_phase``, the open phase's name as the game
    records it; should the two ever differ, the orders are left to :func:`seat_orders`."""
    uow.session.flush()
    name = game.current_phase or ""
    found = uow.session.connection().execute(
        _open_phase_orders_statement(),
        {
            "op_game": game.id, "so_game": game.id, "so_epoch": game.epoch, "so_phase": name,
            "so_power": seat.power, "so_seat": seat.id,
        },
    ).all()  # fmt: skip
    if not found:
        return None
    _phase_id, turn, phase_name, position = found[0][:4]
    if phase_name != name:
        return OpenPhaseOrders(int(turn), str(position), None)
    orders = _seat_orders_of(uow, game, seat, Phase.parse(name), [row[4:] for row in found])
    return OpenPhaseOrders(int(turn), str(position), orders)


@functools.cache
def _open_phase_orders_statement() -> Select[Any]:
    """:func:`open_phase_and_orders`'s query, built once: the open phase (one row) joined to
    :func:`_seat_orders_statement`'s rows."""
    phases = cast(Table, PhaseRecord.__table__)
    open_phase = (
        select(phases.c.id, phases.c.turn, phases.c.name, sql_cast(phases.c.position_before, Text).label("position"))
        .where(phases.c.game_id == bindparam("op_game"), phases.c.state == PhaseState.OPEN.value)
        .order_by(phases.c.turn.desc())
        .limit(1)
        .subquery("open_phase")
    )
    orders = _seat_orders_statement().subquery("seat_orders")
    return (
        select(open_phase.c.id, open_phase.c.turn, open_phase.c.name, open_phase.c.position, *orders.c)
        .select_from(open_phase)
        .join(orders, true())
        .order_by(orders.c.id)
    )


def pending_blocks(uow: UnitOfWork, game: Game, seat: Seat, after: Phase) -> list[tuple[Phase, OrderSubmission]]:
    """The seat's stored orders for phases later than ``after``, soonest first."""
    out: list[tuple[Phase, OrderSubmission]] = []
    for row in uow.orders.pending_future(game, seat, after_phase=str(after)):
        phase = Phase.parse(row.phase)
        if phase > after:
            out.append((phase, row))
    return sorted(out, key=lambda pair: (pair[0], pair[1].id))


def clear_pending(uow: UnitOfWork, game: Game, seat: Seat, after: Phase, now: datetime) -> int:
    """CLEAR: drop the seat's orders for later phases (kept as superseded); current orders stay."""
    rows = pending_blocks(uow, game, seat, after)
    cleared: set[int] = uow.session.info.setdefault(SUPERSEDED, set())
    for _phase, row in rows:
        row.superseded_at = now
        cleared.add(row.id)
    uow.flush()
    return len(rows)


# ------------------------------------------------------------------ the error flag


def error_flags(game: Game) -> frozenset[str]:
    """Powers whose last order mail for the current phase had errors."""
    stored = game.extra_settings.get(ERROR_FLAGS)
    if not isinstance(stored, dict) or stored.get("phase") != game.current_phase:
        return frozenset()
    return frozenset(str(p) for p in stored.get("powers", ()))


def set_error_flag(game: Game, power: str, flagged: bool) -> None:
    before = error_flags(game)
    powers = set(before)
    if flagged:
        powers.add(power)
    else:
        powers.discard(power)
    if powers == before:  # already so: no rewrite of the game row
        return
    game.extra_settings = {
        **game.extra_settings,
        ERROR_FLAGS: {"phase": game.current_phase, "powers": sorted(powers)},
    }
