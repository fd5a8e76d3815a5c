"""How fast the web role answers (issue 29): the game list and a game page of a 20-year game.

Not a test: it prints figures. A Standard game is played for YEARS years with seeded random
movement orders (judge.core.random_orders; retreats and adjustments left to the judge's
defaults), with a broadcast each phase; a few more games are listed beside it. Then, through
the whole stack (the guard, Starlette, the page's read-only unit of work, Jinja2), in one
process: requests per second for a do-nothing page of the same stack, for ``/`` and for the
game's page (its map already drawn and kept), and the server time of one game page. The last
line is the game page's time over the do-nothing page's: ``ratio X.XX``.

    .venv/bin/python benchmarks/bench_web.py [--years 20] [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta

from bench_repository import CHEAP, sqlite_url
from random_games import to_diplomacy_package
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient

from judge.app.game_state import order_sheets as kept
from judge.app.game_state.boards import current, opening_position, to_json
from judge.app.phases.processing import process_phase
from judge.app.session.services import Services
from judge.config import load_config
from judge.core.phase import PhaseType
from judge.core.random_orders import RandomOrders
from judge.core.variants import load_map
from judge.db import Database
from judge.db.enums import GameState, PressKind
from judge.db.migrate import upgrade
from judge.db.repositories import Registration
from judge.timekeeping.clock import FakeClock
from judge.web.app import create_app

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def start(services: Services, name: str) -> None:
    the_map = load_map("standard")
    with services.db.unit_of_work() as uow:
        game = uow.games.create(name, T0)
        for power in POWERS:
            person = uow.people.register(Registration(name=power.title()), f"{power}.{name}@example.net", T0)
            uow.seats.join(game, person, "pw", T0, power=power, phase="S1901M")
        game.state = GameState.ACTIVE
        game.started_at = T0
        uow.phases.open(game, "S1901M", to_json(opening_position(the_map)), T0, deadline_at=T0 + timedelta(days=3))


def play(services: Services, clock: FakeClock, name: str, years: int) -> int:
    """Play ``name`` until its ``years``-th year is over; returns the phases processed."""
    the_map = load_map("standard")
    maker = RandomOrders(the_map, random.Random(7))
    processed = 0
    while True:
        with services.db.unit_of_work() as uow:
            game = uow.games.require(name)
            if game.state is not GameState.ACTIVE:
                return processed
            record, position = current(uow, game)
            if position.phase.year >= 1901 + years:
                return processed
            if position.phase.type is PhaseType.MOVEMENT:
                for power, orders in maker.orders(position, {}).items():
                    seat = uow.seats.by_power(game, power)
                    if seat is None:
                        continue
                    lines = [to_diplomacy_package(order) for order in orders]
                    try:
                        sheet = kept.OrderSheet.read(lines, the_map, position.phase.type)
                    except Exception:
                        continue
                    kept.store(uow, game, seat, position.phase, sheet, clock.now(), future=False)
            uow.press.post(game, f"News of {record.name}.", clock.now(), kind=PressKind.BROADCAST,
                           sender_role="judge", recipients=[])
        clock.advance(hours=1)
        with services.db.unit_of_work() as uow:
            process_phase(uow, services, uow.games.require(name), clock.now(), reason="bench")
        processed += 1


def rate(client: TestClient, path: str, seconds: float) -> tuple[float, float]:
    """(requests per second, median milliseconds) of GET ``path`` for ``seconds``."""
    times: list[float] = []
    ending = time.perf_counter() + seconds
    while time.perf_counter() < ending:
        began = time.perf_counter()
        answer = client.get(path)
        times.append(time.perf_counter() - began)
        assert answer.status_code == 200, (path, answer.status_code)
    return len(times) / sum(times), 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--years", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data, sqlite_url() as url:
        upgrade(url)
        database = Database(url, passwords=CHEAP)
        config = load_config({"JUDGE_DATABASE_URL": url, "JUDGE_DATA_DIR": data, "JUDGE_CODE": "XPY"})
        clock = FakeClock(T0)
        services = Services(db=database, config=config, clock=clock)
        start(services, "long")
        for n in range(9):
            start(services, f"other{n}")
        began = time.perf_counter()
        phases = play(services, clock, "long", args.years)
        print(f"built: a {args.years}-year game of {phases} phases processed in {time.perf_counter() - began:.1f} s")
        guard = create_app(services, rate=1e9, burst=1e9)
        inner = guard.app
        inner.router.routes.insert(0, Route("/nothing", lambda request: Response("ok"), methods=["GET"]))
        with TestClient(guard) as client:
            page = client.get("/games/long")  # draws and keeps the current map
            assert (page.status_code == 200 and "S1921M" in page.text) or args.years != 20, page.text[:200]
            assert guard.site is not None
            site = guard.site
            from starlette.requests import Request

            scope = {"type": "http", "method": "GET", "path": "/games/long", "path_params": {"name": "long"},
                     "query_string": b"", "headers": [], "app": inner}
            server = []
            cpu = []  # the process's own CPU time: on a shared machine, wall time includes waiting for a core
            for _ in range(20):
                t, c = time.perf_counter(), time.process_time()
                site.game(Request(scope))
                server.append(1000 * (time.perf_counter() - t))
                cpu.append(1000 * (time.process_time() - c))
            print(f"server time of the game page: median {statistics.median(server):.1f} ms, "
                  f"best {min(server):.1f} ms (CPU median {statistics.median(cpu):.1f} ms)")
            nothing, nothing_ms = rate(client, "/nothing", args.seconds)
            index, index_ms = rate(client, "/", args.seconds)
            game, game_ms = rate(client, "/games/long", args.seconds)
        print(f"do-nothing page  {nothing:8.1f} requests/s  {nothing_ms:6.2f} ms")
        print(f"game list        {index:8.1f} requests/s  {index_ms:6.2f} ms")
        print(f"game page        {game:8.1f} requests/s  {game_ms:6.2f} ms")
        database.dispose()
        print(f"ratio {nothing / game:.2f}")


if __name__ == "__main__":
    main()
