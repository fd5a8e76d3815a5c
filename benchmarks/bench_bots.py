"""Bots benchmark (issue 31): how well the ``normal`` bot plays, and what a bot's orders cost.

Seeded series of Standard games, each to the end of 1920 or a solo, the bot's
power turning round the seven from one game to the next:

* ``random``: one ``normal`` bot against six powers giving random legal
  orders (:mod:`judge.core.random_orders`, the property tests' generator);
* ``holders``: one ``normal`` bot against six powers that give no orders
  (their units hold, dislodged ones disband, surplus units are removed in
  civil disorder, they never build);
* ``sensible``: one ``normal`` bot against six ``sensible`` bots;
* ``normal``: seven ``normal`` bots (mean length of a game, how often
  someone solos).

For each series: the bot's mean centres at the end (against its start), its
solo rate, the mean year a game ended. Then the CPU time (``process_time``)
of one power's orders for one phase, median and max over every call of the
series on Standard that gave orders (a power with nothing to order is left out), and over seven-``normal``-bot games on the largest
shipped map (by provinces). The last line is
``solo rate against random players: X.XX``.

    .venv/bin/python benchmarks/bench_bots.py [--games 14] [--seed 1] [--large-games 2] [--large-years 6]

Goals (issue 31): a solo in at least 90% of the games against random players
and in every game against holders; centres gained on average against
sensible bots; under 50 ms of CPU for one power's orders on Standard, under
200 ms on the largest map. Figures only; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from judge.core.adjudicator import DEFAULT_RULES, adjudicate
from judge.core.bots import Level, bot_orders
from judge.core.geography import GameMap
from judge.core.orders import Order
from judge.core.position import Position
from judge.core.random_orders import RandomOrders, opening_position
from judge.core.units import Unit
from judge.core.variants import available_variants, load_map

LAST_YEAR = 1920


@dataclass
class Series:
    name: str
    centres_start: list[int] = field(default_factory=list)
    centres_end: list[int] = field(default_factory=list)
    solos: int = 0
    anyone_solos: int = 0
    end_years: list[int] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.centres_end)


Others = Callable[[Position, Mapping[Unit, Sequence[str]], str], dict[str, list[Order]]]
"""The orders of every power but the bot's, for one phase."""


def _timed_bot(
    game_map: GameMap, position: Position, power: str, seed: int, level: Level, times: list[float]
) -> list[Order]:
    start = time.process_time()
    orders = bot_orders(game_map, position, power, DEFAULT_RULES, seed, level)
    spent = time.process_time() - start
    if orders:  # a power with nothing to order this phase is not a bot's work
        times.append(spent)
    return orders


def play(
    game_map: GameMap, bot: str, others: Others, seed: int, times: list[float], last_year: int
) -> tuple[Position, str | None]:
    """One game: ``bot`` played by the ``normal`` bot, the others by ``others``."""
    position = opening_position(game_map)
    retreats: Mapping[Unit, Sequence[str]] = {}
    while position.phase.year <= last_year:
        orders = others(position, retreats, bot)
        mine = _timed_bot(game_map, position, bot, seed * 1000 + position.phase.year, "normal", times)
        if mine:
            orders[bot] = mine
        result = adjudicate(position, orders, DEFAULT_RULES, game_map)
        position, retreats = result.position, result.retreats
        if result.winner is not None:
            return position, result.winner
    return position, None


def random_players(game_map: GameMap, seed: int) -> Others:
    maker = RandomOrders(game_map, random.Random(seed))

    def others(position: Position, retreats: Mapping[Unit, Sequence[str]], bot: str) -> dict[str, list[Order]]:
        orders = maker.orders(position, retreats)
        orders.pop(bot, None)
        return orders

    return others


def holders(position: Position, retreats: Mapping[Unit, Sequence[str]], bot: str) -> dict[str, list[Order]]:
    return {}


def bots(game_map: GameMap, level: Level, seed: int, times: list[float] | None = None) -> Others:
    def others(position: Position, retreats: Mapping[Unit, Sequence[str]], bot: str) -> dict[str, list[Order]]:
        orders: dict[str, list[Order]] = {}
        for index, power in enumerate(game_map.powers):
            if power == bot:
                continue
            bot_seed = seed * 1000 + index * 100 + position.phase.year
            given = (
                _timed_bot(game_map, position, power, bot_seed, level, times)
                if times is not None
                else bot_orders(game_map, position, power, DEFAULT_RULES, bot_seed, level)
            )
            if given:
                orders[power] = given
        return orders

    return others


def run_series(name: str, games: int, seed: int, times: list[float]) -> Series:
    game_map = load_map("standard")
    series = Series(name)
    for game in range(games):
        game_seed = seed * 100 + game
        bot = game_map.powers[game % len(game_map.powers)]
        if name == "random":
            others = random_players(game_map, game_seed)
        elif name == "holders":
            others = holders
        elif name == "sensible":
            others = bots(game_map, "sensible", game_seed)
        else:
            others = bots(game_map, "normal", game_seed, times)
        position, winner = play(game_map, bot, others, game_seed, times, LAST_YEAR)
        series.centres_start.append(len(game_map.starting_centers.get(bot, ())))
        series.centres_end.append(len(position.centers.get(bot, ())))
        series.solos += winner == bot
        series.anyone_solos += winner is not None
        series.end_years.append(min(position.phase.year, LAST_YEAR))
    return series


def _ms(values: Sequence[float]) -> str:
    return f"median {statistics.median(values) * 1000:.2f} ms, max {max(values) * 1000:.2f} ms ({len(values)} calls)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=14, help="games per series (default 14: twice each power)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--large-games", type=int, default=2, help="seven-bot games timed on the largest map")
    parser.add_argument("--large-years", type=int, default=6, help="years of each of those games")
    args = parser.parse_args()

    standard_times: list[float] = []
    results: dict[str, Series] = {}
    for name in ("random", "holders", "sensible", "normal"):
        series = run_series(name, args.games, args.seed, standard_times)
        results[name] = series
        line = (
            f"{name:>9}: {series.games} games, bot's centres {statistics.mean(series.centres_start):.1f} -> "
            f"{statistics.mean(series.centres_end):.2f}, bot solos {series.solos / series.games:.2f}, "
            f"someone solos {series.anyone_solos / series.games:.2f}, mean end {statistics.mean(series.end_years):.1f}"
        )
        print(line, flush=True)

    largest = max(available_variants(), key=lambda v: len(load_map(v).provinces))
    large_map = load_map(largest)
    large_times: list[float] = []
    for game in range(args.large_games):
        everyone = bots(large_map, "normal", args.seed * 100 + game, large_times)
        last = large_map.first_phase.year + args.large_years - 1
        play(large_map, large_map.powers[game % len(large_map.powers)], everyone, game, large_times, last)
    print(f"CPU of one power's orders for a phase, standard: {_ms(standard_times)}")
    print(f"CPU of one power's orders for a phase, {largest} ({len(large_map.provinces)} provinces): {_ms(large_times)}")
    gained = statistics.mean(results["sensible"].centres_end) - statistics.mean(results["sensible"].centres_start)
    print(
        "goals: solo vs random >= 0.90: "
        f"{results['random'].solos / results['random'].games:.2f}; solo vs holders 1.00: "
        f"{results['holders'].solos / results['holders'].games:.2f}; gain vs sensible > 0: {gained:+.2f}; "
        f"standard max < 50 ms: {max(standard_times) * 1000:.1f}; {largest} max < 200 ms: {max(large_times) * 1000:.1f}"
    )
    print(f"solo rate against random players: {results['random'].solos / results['random'].games:.2f}")


if __name__ == "__main__":
    main()
