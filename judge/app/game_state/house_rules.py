"""Three house rules that act when a phase is processed: a fixed last year, civil disorder after missed
seasons, and what a power in civil disorder plays.

* ``SET END YEAR n`` (seeds 002 and 003: tournament games are played for six
  to nine years, "les parties se termineront au plus tard fin 1906, fin
  1907..."): once every phase of year ``n`` is processed (its adjustments,
  or the last phase of the year when there are none) the game ends without
  a winner and is scored, by the game's scoring system, as a draw of the
  powers still on the board (their centres decide the scores of the
  centre-based systems).
* ``SET CD AFTER n`` (seed 000, 3.6: "un pays n'ayant pas reçu d'ordre
  pendant 3 saisons consécutives sombrerait automatiquement dans le désordre
  civil"): a power that sends no orders is processed as if holding (its
  retreats and removals defaulted) without being put in civil disorder,
  until it has missed ``n`` consecutive seasons (movement phases in which it
  owed orders); orders sent for any phase start the count again. Counts are
  kept in ``extra_settings["missed_seasons"]``.
* ``SET CD SENSIBLE`` / ``SET CD HOLD`` (issue 31; HOLD, the classic Judge,
  by default): under SENSIBLE, a power in civil disorder with no orders on
  file plays the orders of the ``sensible`` bot (:mod:`judge.core.bots`:
  it holds and supports its threatened centres, retreats to keep its
  centres, builds where threatened, removes its farthest units, never
  attacks), chosen when the phase is processed. The bot's seed is derived
  from the game's name, the phase and the power (:func:`bot_seed`), so the
  same phase gets the same orders again.
* ``SET BOT letters`` (issue 31): the master gives powers without a player
  (abandoned, resigned, in civil disorder) to the ``normal`` bot, which
  plays them with the same seeds until a player takes one over (the
  takeover takes it off the list: :func:`judge.app.games.lifecycle.take_over`);
  ``SET NO BOT letters`` takes them back.

Pure decisions on the game's settings and the phase's facts. They take part
in the flow through the game hooks (:mod:`judge.app.hooks.game_hooks`: the hook
points ``ends_after``, ``civil_disorder`` and ``civil_disorder_orders`` of every
implementation), which :func:`judge.app.phases.processing.process_phase` calls and
whose answers it applies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from judge.app.game_state.bot_seats import WITHOUT_PLAYER, bot_board, bot_seed, give_bot_orders
from judge.app.game_state.setting_table import (
    RULES,
    bot_powers,
    bot_seat_level,
    cd_after_missed_seasons,
    civil_disorder_plays_sensibly,
    end_year,
    rules_text,
)
from judge.app.session.services import Services
from judge.core.adjudicator.rules import Rules
from judge.core.bots import Level, bot_orders
from judge.core.geography import GameMap
from judge.core.orders import Order
from judge.core.phase import Phase, PhaseType
from judge.core.position import Position
from judge.db.database import UnitOfWork
from judge.db.enums import SeatStatus
from judge.db.models import Game, Seat

MISSED_KEY = "missed_seasons"
"""``extra_settings`` key: each power's count of consecutive seasons without orders."""


def ends_after(game: Game, next_phase: Phase) -> bool:
    """Whether the game is over because ``next_phase`` lies after its last year (``SET END YEAR``)."""
    last = end_year(game)
    return last is not None and next_phase.year > last


def survivors(position: Position, powers_in_order: Sequence[str]) -> tuple[str, ...]:
    """Powers with a unit or a supply centre, in the map's order: those sharing a game ended by its year."""
    alive = {unit.power for unit in position.units} | {d.unit.power for d in position.dislodged}
    alive |= {power for power, centres in position.centers.items() if centres}
    return tuple(power for power in powers_in_order if power in alive)


def civil_disorder_after_missed(
    game: Game, position: Position, owing: Iterable[str], submitted: Iterable[str], late: Iterable[str]
) -> set[str]:
    """The powers to put in civil disorder after processing ``position``'s phase.

    ``owing``: powers that owed orders in the phase; ``submitted``: powers
    whose orders were on file; ``late``: the powers the scheduler would put in
    civil disorder (NMR at grace). Without ``SET CD AFTER`` that is ``late``
    unchanged. With it, the missed-season counts are updated on the game and
    only powers at ``n`` consecutive missed seasons fall into civil disorder.
    """
    late = set(late)
    threshold = cd_after_missed_seasons(game)
    if threshold is None:
        return late
    sent = set(submitted)
    counts: dict[str, int] = {str(k): int(v) for k, v in (game.extra_settings.get(MISSED_KEY) or {}).items()}
    for power in owing:
        if power in sent:
            counts[power] = 0
        elif position.phase.type is PhaseType.MOVEMENT:
            counts[power] = counts.get(power, 0) + 1
    game.extra_settings = {**game.extra_settings, MISSED_KEY: dict(sorted(counts.items()))}
    return {power for power, missed in counts.items() if missed >= threshold and power not in sent}


@dataclass(frozen=True, slots=True)
class StandIns:
    """What the powers without a player play in a phase: the bots' orders, and which bot with which
    seed played each (kept in the phase's results, so a master can replay why a bot did what it did:
    :func:`judge.core.bots.bot_orders` with the same board, level and seed gives the same orders)."""

    orders: Mapping[str, list[Order]]
    bots: Mapping[str, tuple[Level, int]]

    def results_entry(self) -> dict[str, Any]:
        """``{"bots": {power: {"level": ..., "seed": ...}}}`` for the phase's results, ``{}`` when no bot played."""
        if not self.bots:
            return {}
        return {"bots": {power: {"level": level, "seed": seed} for power, (level, seed) in sorted(self.bots.items())}}


def civil_disorder_orders(
    game: Game,
    position: Position,
    newly_in_civil_disorder: Iterable[str],
    ordered: Iterable[str],
    game_map: GameMap,
    rules: Rules,
) -> StandIns:
    """What the powers without a player play in ``position``'s phase, when they have no orders on file.

    A power the master gave to the bot (``SET BOT``), while its seat has no
    player (abandoned, resigned or in civil disorder): the normal bot's
    orders. A power in civil disorder (from before, or put there by this
    processing: ``newly_in_civil_disorder``): nothing under ``SET CD HOLD``
    (the default: its units hold, its retreats and adjustments are defaulted
    by the adjudicator), the sensible bot's orders under ``SET CD SENSIBLE``.
    ``ordered``: the powers with orders on file, which play those; a bot
    seat's (SET BOTS) are its bot's, given when the phase opened, and are
    recorded with their level and seed like the others.
    """
    newly = set(newly_in_civil_disorder)
    skip = set(ordered)
    played: dict[str, list[Order]] = {}
    bots: dict[str, tuple[Level, int]] = {}
    for seat in sorted(game.seats, key=lambda s: s.power or ""):
        power = seat.power
        if power is None:
            continue
        level = bot_level(game, seat, newly_in_civil_disorder=power in newly)
        if level is None:
            continue
        seed = bot_seed(game.name, position.phase, power)
        if power in skip:
            if seat.status is SeatStatus.BOT:  # its orders on file are the bot's, given when the phase opened
                bots[power] = (level, seed)
            continue
        orders = bot_orders(game_map, bot_board(game, game_map, position, power), power, rules, seed, level)
        if orders:
            played[power] = orders
            bots[power] = (level, seed)
    return StandIns(played, bots)




def bot_level(game: Game, seat: Seat, *, newly_in_civil_disorder: bool = False) -> Level | None:
    """The bot that plays ``seat``'s power when it has no orders on file, if any (the one rule:
    processing and ``judge game show`` both ask it). ``newly_in_civil_disorder``: the processing
    under way puts it in civil disorder."""
    if seat.power is None:
        return None
    if seat.status is SeatStatus.BOT:
        return bot_seat_level(game)
    if seat.power in bot_powers(game) and seat.status in WITHOUT_PLAYER:
        return "normal"
    in_cd = newly_in_civil_disorder or seat.status is SeatStatus.CIVIL_DISORDER
    if in_cd and civil_disorder_plays_sensibly(game):
        return "sensible"
    return None


def house_rule_words(game: Game, gettext: Callable[[str], str]) -> list[str]:
    """What LIST shows of a game's rule options and house rules (nothing when all are the defaults).

    Players see before they join, and while they play, when the game ends and
    which rules it is adjudicated under.
    """
    _ = gettext
    words = []
    chosen = game.extra_settings.get(RULES) or {}
    if chosen:
        words.append(_("Rules: {rules}.").format(rules=rules_text(chosen)))
    last = end_year(game)
    if last is not None:
        words.append(_("The game ends after {year}.").format(year=last))
    missed = cd_after_missed_seasons(game)
    if missed is not None:
        words.append(_("Civil disorder after {count} seasons without orders.").format(count=missed))
    if civil_disorder_plays_sensibly(game):
        words.append(_("Powers in civil disorder play sensible orders (SET CD SENSIBLE)."))
    bots = bot_powers(game)
    if bots:
        words.append(
            _("Played by a bot until a player takes them over: {powers}.").format(
                powers=", ".join(power.title() for power in sorted(bots))
            )
        )
    return words


class HouseRuleHooks:
    """The game hooks that are house rules, the same in every kind of game (SET CD AFTER, SET CD
    SENSIBLE / SET BOT, SET END YEAR): the ordinary game's hooks and the councils' inherit them,
    so a house rule is answered in one place whatever else a variant adds."""

    def civil_disorder(
        self, game: Game, position: Position, owing: Iterable[str], submitted: Iterable[str], late: Iterable[str]
    ) -> set[str]:
        return civil_disorder_after_missed(game, position, owing, submitted, late)  # SET CD AFTER

    def civil_disorder_orders(
        self, game: Game, position: Position, newly_in_civil_disorder: Iterable[str], ordered: Iterable[str],
        game_map: GameMap, rules: Rules,
    ) -> StandIns:
        return civil_disorder_orders(  # SET CD SENSIBLE, SET BOT
            game, position, newly_in_civil_disorder, ordered, game_map, rules
        )

    def ends_after(self, game: Game, next_phase: Phase) -> bool:
        return ends_after(game, next_phase)  # SET END YEAR

    def on_game_started(self, uow: UnitOfWork, game: Game, now: datetime, first_year: int) -> None:
        give_bot_orders(uow, game, now)  # SET BOTS: the bots order as the first phase opens

    def after_phase_opened(
        self, uow: UnitOfWork, services: Services, game: Game, now: datetime, phase: Phase, next_phase: Phase
    ) -> None:
        give_bot_orders(uow, game, now)  # SET BOTS: the bots order as each phase opens

