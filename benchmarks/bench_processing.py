"""How long the judge takes to process games that fall due at the same instant.

Not a test: it prints figures. N started Standard games each get the seven
powers' opening orders (stored as the order mails would store them), all
falling due at one instant; one scheduler pass (:func:`process_due`) then
processes them one game per transaction: read the orders, adjudicate, store
the ruling and the next phase, queue nine results mails (seven players, a
master, an observer). Printed: games per second and milliseconds per game.

    .venv/bin/python benchmarks/bench_processing.py [--games 200]
    .venv/bin/python benchmarks/bench_processing.py --postgres-url postgresql+psycopg://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import os
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
from judge.core.phase import Phase
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


def build(services: Services, games: int) -> None:
    the_map = load_map("standard")
    phase = Phase.parse("S1901M")
    with services.db.unit_of_work() as uow:
        for n in range(games):
            game = uow.games.create(f"bench{n}", T0)
            for power, lines in OPENINGS.items():
                person = uow.people.register(
                    Registration(name=power, site="Home", country="France"), f"{power}{n}@example.net", T0
                )
                seat = uow.seats.join(game, person, "pw", T0, power=power, phase=str(phase))
                sheet = kept.OrderSheet.read(lines, the_map, phase.type)
                kept.store(uow, game, seat, phase, sheet, T0, future=False)
            master = uow.people.register(Registration(name="M", site="Home", country="France"), f"m{n}@example.net", T0)
            uow.games.add_master(game, master, "pw", T0)
            uow.games.add_observer(game, f"o{n}@example.net", "pw", T0)
            uow.phases.open(game, str(phase), to_json(opening_position(the_map)), T0, deadline_at=T0 + timedelta(days=3))
            game.state = GameState.ACTIVE
            game.deadline_at, game.grace_at, game.earliest_at = T0 + timedelta(days=3), T0 + timedelta(days=6), T0
            plan(uow, services, game, T0)


def run(url: str, games: int, data_dir: Path) -> None:
    upgrade(url)
    database = Database(url, passwords=CHEAP)
    config = load_config({"JUDGE_DATABASE_URL": url, "JUDGE_DATA_DIR": str(data_dir), "JUDGE_CODE": "XPY"})
    clock = FakeClock(T0)
    services = Services(db=database, config=config, clock=clock)
    build(services, games)
    clock.advance(hours=1)
    started = time.perf_counter()
    handled = process_due(services)
    elapsed = time.perf_counter() - started
    database.dispose()
    print(f"{database.dialect:10s} {handled:5d} games due at once: {elapsed:7.2f} s, "
          f"{handled / elapsed:7.1f} games/s, {1000 * elapsed / handled:6.1f} ms per game")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--postgres-url", default=os.environ.get("JUDGE_TEST_POSTGRES_URL", ""))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data, sqlite_url() as url:
        run(url, args.games, Path(data))
    if args.postgres_url:
        with tempfile.TemporaryDirectory() as data, postgres_url(args.postgres_url) as url:
            run(url, args.games, Path(data))


if __name__ == "__main__":
    main()
