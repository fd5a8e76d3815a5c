"""Bot seats of practice games (``SET BOTS [level]``, issue 31): the bots give their orders when a phase opens.

A master (or the creator) fills a forming game's empty seats with bots
(:mod:`judge.app.handlers.set_bots`); at the start they take the powers the
players were not dealt (:func:`judge.app.games.lifecycle.start_game`) and
sit as seats whose status is ``bot``: no player, no password, open for a
newcomer's takeover. Each time a phase opens (the start, and every
processing: the game hooks ``on_game_started`` and ``after_phase_opened``
of every implementation, through :class:`judge.app.game_state.house_rules.HouseRuleHooks`),
each bot seat's orders for it are stored as its orders on file, as a
player's would be, so the clock, which never waits for a bot, processes a
game of one player and six bots as soon as the player's orders are in.
The orders are :func:`judge.core.bots.bot_orders` at the game's bot level,
with the seed :func:`bot_seed` derives from the game, the phase and the
power; the processing records that level and seed for each power a bot
played (``results["bots"]``), so a master can replay them.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from datetime import datetime

from judge.app.audience.blind_view import view_of
from judge.app.game_state.boards import current
from judge.app.game_state.game_rules import game_rules
from judge.app.game_state.order_sheets import OrderSheet, owes_orders, store
from judge.app.game_state.setting_table import bot_powers, bot_seat_level
from judge.app.game_state.variant_rules import game_map_of
from judge.core.bots import bot_orders
from judge.core.geography import GameMap
from judge.core.phase import Phase
from judge.core.position import Position
from judge.db.database import UnitOfWork
from judge.db.enums import SeatStatus
from judge.db.models import Game, Seat


def bot_board(game: Game, game_map: GameMap, position: Position, power: str) -> Position:
    """The board a bot playing ``power`` decides on: what that power's player would be shown.

    In a Fog of War game that is the power's sight (:func:`judge.app.audience.blind_view.view_of`,
    the one place that decides what a reader sees), so a bot in civil disorder or in a bot seat
    knows no more than a human in its place; elsewhere the whole board.
    """
    return view_of(game, power=power).position(game_map, position)


def bot_seed(game_name: str, phase: Phase, power: str) -> int:
    """The seed of a bot's orders for ``power`` in ``phase`` of a game: the same every time it is asked."""
    return zlib.crc32(f"{game_name}/{phase}/{power}".encode())


PRESS_TOLD_KEY = "bot_press_told"
"""``extra_settings`` key: ``{"phase": ..., "senders": [...]}``, who has been told this phase that bots
do not read press (told once per phase)."""

WITHOUT_PLAYER = (SeatStatus.ABANDONED, SeatStatus.RESIGNED, SeatStatus.CIVIL_DISORDER)
"""The seats the master may give to the bot (SET BOT), and the bot plays while they stay so."""


def reads_no_press(game: Game, seat: Seat) -> bool:
    """Whether a bot plays ``seat``'s power and nobody reads its press: a bot seat (SET BOTS), or a power
    without a player given to the bot (SET BOT). A power in civil disorder is still its player's."""
    if seat.status is SeatStatus.BOT:
        return True
    return seat.power in bot_powers(game) and seat.status in (SeatStatus.ABANDONED, SeatStatus.RESIGNED)


def press_to_bots(game: Game, powers: Iterable[str], sender: str) -> list[str]:
    """The bot powers among ``powers`` (a press's recipients) that ``sender`` (a power, or an
    address) must be told do not read press: all of them the first time in the phase, none after
    (the game remembers who was told, until the phase changes)."""
    wanted = set(powers)
    bots = sorted(seat.power or "" for seat in game.seats if seat.power in wanted and reads_no_press(game, seat))
    if not bots:
        return []
    told = dict(game.extra_settings.get(PRESS_TOLD_KEY) or {})
    senders = list(told.get("senders") or []) if told.get("phase") == game.current_phase else []
    if sender in senders:
        return []
    game.extra_settings = {
        **game.extra_settings, PRESS_TOLD_KEY: {"phase": game.current_phase, "senders": [*senders, sender]},
    }  # fmt: skip
    return bots


def seated_bots(game: Game) -> list[Seat]:
    """The game's bot seats that have a power (SET BOTS, after the start), in the order of their powers."""
    return sorted(
        (seat for seat in game.seats if seat.power is not None and seat.status is SeatStatus.BOT),
        key=lambda seat: seat.power or "",
    )


def give_bot_orders(uow: UnitOfWork, game: Game, now: datetime) -> list[str]:
    """Store, for each bot seat that owes orders in the open phase, the bot's orders; the powers ordered.

    No query for a game without bot seats. The new phase is flushed first
    (a turn someone else opened fails here as at the processing's own flush).
    """
    bots = seated_bots(game)
    if not bots:
        return []
    uow.phases.flush_opened(game)
    _record, position = current(uow, game)
    game_map = game_map_of(game)
    rules = game_rules(game)
    level = bot_seat_level(game)
    ordered = []
    for seat in bots:
        power = seat.power or ""
        if not owes_orders(position, power, game_map):
            continue
        seed = bot_seed(game.name, position.phase, power)
        orders = bot_orders(game_map, bot_board(game, game_map, position, power), power, rules, seed, level)
        if orders:
            store(uow, game, seat, position.phase, OrderSheet(tuple(orders)), now, future=False)
            ordered.append(power)
    return ordered
