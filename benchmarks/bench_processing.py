"""How long the judge takes to process games that fall due at the same instant.

Not a test: it prints figures. N started Standard games each get the seven
powers' Spring 1901 orders (stored as the order mails would store them), all
falling due at one instant; one scheduler pass (:func:`process_due`) then
processes them one game per transaction: read the orders, adjudicate, store
the ruling and the next phase, queue nine results mails (seven players, a
master, an observer). Printed: games per second and milliseconds per game.

The orders (``--orders``, :data:`ORDERS`) are by default the same opening in
every game (:data:`OPENINGS`): every game's results are then the same but for
its name, which flatters whatever is kept by content (the map's compressed
bands). ``--orders random`` gives each game its own legal orders, drawn from
the judge's one random-order generator
(:class:`judge.core.random_orders.RandomOrders`) seeded by the game's number:
same number, same orders, whatever N is.

    .venv/bin/python benchmarks/bench_processing.py [--games 200] [--orders random]
    .venv/bin/python benchmarks/bench_processing.py --postgres-url postgresql+psycopg://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench_repository import CHEAP, postgres_url, sqlite_url

from judge.app.game_state import order_sheets as kept
from judge.app.game_state.boards import opening_position, to_json
from judge.app.phases.guarded_scheduler import process_due
from judge.app.phases.planning import plan
from judge.app.session.services import Services
from judge.config import load_config
from judge.core.adjudicator.validation import validate
from judge.core.geography import GameMap
from judge.core.phase import Phase
from judge.core.position import Position
from judge.core.random_orders import RandomOrders
from judge.core.variants import load_map
from judge.db import Database
from judge.db.enums import GameState
from judge.db.migrate import upgrade
from judge.db.repositories import Registration
from judge.timekeeping.clock import FakeClock

OPENINGS = {
    "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
    "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
    "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
    "GERMANY": ["A BER - KIE", "A MUN - BUR", "F KIE - DEN"],
    "ITALY": ["A ROM - APU", "A VEN H", "F NAP - ION"],
    "RUSSIA": ["A WAR - GAL", "A MOS - UKR", "F SEV - BLA", "F STP/SC - BOT"],
    "TURKEY": ["F ANK - BLA", "A CON - BUL", "A SMY - ARM"],
}
T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
ORDERS = ("opening", "random")
"""What ``build`` orders: ``opening`` (:data:`OPENINGS` in every game) or ``random`` (each game its own)."""
SEED = 28
"""The random orders' seed: game ``n`` draws from ``random.Random(SEED * 1_000_003 + n)``."""


def random_opening(the_map: GameMap, position: Position, n: int) -> dict[str, list[str]]:
    """Game ``n``'s own orders for ``position``, each legal (checked by the adjudicator's validation:
    no illegal order slips into the figures), in the judge's notation as an order mail gives them."""
    drawn = RandomOrders(the_map, random.Random(SEED * 1_000_003 + n)).orders(position, {})
    for power, orders in drawn.items():
        for order in orders:
            error = validate(position, power, order, the_map)
            assert error is None, (n, power, str(order), error)
    return {power: [str(order) for order in orders] for power, orders in drawn.items()}


def build(services: Services, games: int, orders: str = "opening") -> None:
    """``games`` Standard games in Spring 1901, all due at once, each power's orders stored (``orders``:
    one of :data:`ORDERS`)."""
    if orders not in ORDERS:
        raise ValueError(f"orders must be one of {ORDERS}, not {orders!r}")
    the_map = load_map("standard")
    phase = Phase.parse("S1901M")
    start = opening_position(the_map)
    with services.db.unit_of_work() as uow:
        for n in range(games):
            game = uow.games.create(f"bench{n}", T0)
            given = OPENINGS if orders == "opening" else random_opening(the_map, start, n)
            for power in OPENINGS:
                lines = given.get(power, [])
                person = uow.people.register(
                    Registration(name=power, site="Home", country="France"), f"{power}{n}@example.net", T0
                )
                seat = uow.seats.join(game, person, "pw", T0, power=power, phase=str(phase))
                sheet = kept.OrderSheet.read(lines, the_map, phase.type)
                assert len(sheet.plain) == len(lines), (n, power, lines)  # every line read as an order
                kept.store(uow, game, seat, phase, sheet, T0, future=False)
            master = uow.people.register(Registration(name="M", site="Home", country="France"), f"m{n}@example.net", T0)
            uow.games.add_master(game, master, "pw", T0)
            uow.games.add_observer(game, f"o{n}@example.net", "pw", T0)
            uow.phases.open(game, str(phase), to_json(start), T0, deadline_at=T0 + timedelta(days=3))
            game.state = GameState.ACTIVE
            game.deadline_at, game.grace_at, game.earliest_at = T0 + timedelta(days=3), T0 + timedelta(days=6), T0
            plan(uow, services, game, T0)


def run(url: str, games: int, data_dir: Path, orders: str = "opening") -> None:
    upgrade(url)
    database = Database(url, passwords=CHEAP)
    config = load_config({"JUDGE_DATABASE_URL": url, "JUDGE_DATA_DIR": str(data_dir), "JUDGE_CODE": "XPY"})
    clock = FakeClock(T0)
    services = Services(db=database, config=config, clock=clock)
    build(services, games, orders)
    clock.advance(hours=1)
    started = time.perf_counter()
    handled = process_due(services)
    elapsed = time.perf_counter() - started
    database.dispose()
    print(f"{database.dialect:10s} {handled:5d} games due at once: {elapsed:7.2f} s, "
          f"{handled / elapsed:7.1f} games/s, {1000 * elapsed / handled:6.1f} ms per game")


ORDERS_HELP = "opening: the same opening in every game; random: each game its own legal orders (seeded)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--orders", choices=ORDERS, default="opening", help=ORDERS_HELP)
    parser.add_argument("--postgres-url", default=os.environ.get("JUDGE_TEST_POSTGRES_URL", ""))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data, sqlite_url() as url:
        run(url, args.games, Path(data), args.orders)
    if args.postgres_url:
        with tempfile.TemporaryDirectory() as data, postgres_url(args.postgres_url) as url:
            run(url, args.games, Path(data), args.orders)


if __name__ == "__main__":
    main()
