"""A practice game by mail over SMTP (issue 31): one person against six bots, against the whole judge.

The player registers and, in one mail, creates the game, states a preference
and fills the six other seats with bots (SET BOTS); the game starts at once.
Every phase the bots order as the phase opens, so the phase is processed as
soon as the player's orders are in (and the delay has passed), never at the
deadline; the player, whose orders here are written by the judge's own
sensible bot in the judge's notation and mailed as a person would, plays two
game years, gets the results of each phase and sees the bots named in them;
a press to a bot is answered with the line that bots do not read press.
"""

from __future__ import annotations

import pytest

from judge.app.game_state.boards import current
from judge.app.game_state.game_rules import game_rules
from judge.app.game_state.order_sheets import owes_orders
from judge.app.game_state.variant_rules import game_map_of
from judge.core.bots import bot_orders
from judge.db.database import Database
from judge.db.enums import SeatStatus
from tests.e2e.game_flow import process_when_due
from tests.e2e.harness import CODE, E2EJudge, text

pytestmark = pytest.mark.slow


@pytest.fixture
def database(sqlite_database: Database) -> Database:
    """On SQLite only: the game's stored state is checked on both engines by tests/app/test_practice_bots.py,
    and this long game's CPU is spent once."""
    return sqlite_database

SOLO = "solo@example.net"
GAME = "demo"  # the name process_when_due (tests/e2e/game_flow.py) watches
YEARS = 2


def _board(judge: E2EJudge) -> tuple[str, str, list[str]]:
    """The open phase, the player's power, and the orders the player sends for it (none if he owes none)."""
    with judge.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require(GAME)
        [seat] = [s for s in game.seats if s.person is not None]
        power = seat.power or ""
        _record, position = current(uow, game)
        game_map = game_map_of(game)
        if not owes_orders(position, power, game_map):
            return str(position.phase), power, []
        orders = bot_orders(game_map, position, power, game_rules(game), position.phase.year, "sensible")
        return str(position.phase), power, [str(order) for order in orders]


def test_one_person_plays_two_years_against_six_bots_by_mail(judge: E2EJudge) -> None:
    judge.exchange(SOLO, "REGISTER\nName: Solo Player\nCountry: France\nEND\n")
    reply = text(judge.exchange(SOLO, f"CREATE ?{GAME} pw\nSET PREFERENCE F\nSET BOTS\n"))
    assert f"Game '{GAME}': 6 seats played by normal bots." in reply
    assert f"Game '{GAME}' has started." in reply
    [starting] = judge.wait_for_mail(lambda m: m["Subject"] == f"{CODE}:{GAME} - S1901M Game Starting")
    assert text(starting).count("the normal bot") == 6 and SOLO in text(starting)

    record: list[str] = []
    told = text(judge.exchange(SOLO, f"SIGNON F{GAME} pw\nPRESS TO E\nShall we share the Channel?\nENDPRESS\n"))
    assert "Bots do not read press: England will not answer." in told
    record.append("press to England -> " + told.split("Bots do not read press: ", 1)[1].splitlines()[0])
    seen = 0
    while True:
        phase, power, orders = _board(judge)
        if int(phase[1:5]) >= 1901 + YEARS:
            break
        if orders:
            body = text(judge.exchange(SOLO, f"SIGNON F{GAME} pw\n" + "\n".join(orders) + "\n"))
            assert "Your orders are complete." in body, body
        process_when_due(judge, phase)
        results = judge.wait_for_mail(
            lambda m, p=phase: m["Subject"] == f"{CODE}:{GAME} - {p} Results" and SOLO in str(m["To"]),
            what=f"{phase} results",
        )
        assert len(results) == 1
        body = text(results[0])
        bots = body.split("Played by the judge's bots: ", 1)[1].split(".")[0]
        assert bots == "Austria, England, Germany, Italy, Russia, Turkey"
        record.append(f"{phase}: {power.title()} sent {'; '.join(orders) or 'nothing (owed nothing)'}")
        seen += 1
    assert seen >= 2 * YEARS  # two movement phases a year at least, each processed without waiting for a bot
    with judge.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require(GAME)
        assert sum(s.status is SeatStatus.BOT for s in game.seats) == 6
        processed = [r for r in uow.phases.history(game) if r.results]
        assert all(r.results and r.results.get("reason") == "all orders in" for r in processed)
        centres = current(uow, game)[1].centers
    record.append("centres in " + phase + ": " + ", ".join(f"{p.title()} {len(c)}" for p, c in sorted(centres.items())))
    print("\n".join(record))  # the record of the game (pytest -s shows it)
