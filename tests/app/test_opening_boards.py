"""The outbound role draws the boards in play when it starts (issue 28): the first deadline after a
start does not pay for each board's unchanging parts (seconds of CPU for World), and a results
picture drawn after the warming reuses the board it drew."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator

import pytest

import judge.app.reports.opening_boards as boards
from judge.app.mail_out.results_maps import ResultsPictures
from judge.app.phases.guarded_scheduler import process_due
from judge.app.runtime.judge_server import JudgeServer, Role, ServerTuning
from judge.db.enums import GameState
from judge.db.models import PhaseRecord
from judge.maps import layers
from tests.app.conftest import Harness
from tests.app.orders_helpers import start_game
from tests.app.test_processing_results import OPENINGS, send_all

pytestmark = pytest.mark.engine_blind  # which boards a process draws: the same on either engine


@pytest.fixture(autouse=True)
def _nothing_warmed() -> Iterator[None]:
    boards._WARMED.clear()
    yield
    boards._WARMED.clear()


def _drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """The (variant, language) openings warm_boards draws from now on (not drawn for real)."""
    drawn: list[tuple[str, str]] = []

    def opening(variant: str, phase: str | None = None, title: str | None = None, language: str = "en") -> str:
        drawn.append((variant, language))
        return "<svg/>"

    monkeypatch.setattr(boards, "opening_svg", opening)
    monkeypatch.setattr(boards, "svg_to_png", lambda _svg: b"")
    return drawn


def _game(harness: Harness, name: str, variant: str, state: GameState) -> None:
    with harness.db.unit_of_work() as uow:
        game = uow.games.create(name, harness.clock.now(), variant=variant)
        game.state = state


def test_each_variant_in_play_is_drawn_once_in_each_language(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _drawn(monkeypatch)
    _game(harness, "going", "standard", GameState.ACTIVE)
    _game(harness, "going2", "standard", GameState.PAUSED)
    _game(harness, "forming", "youngstown", GameState.FORMING)
    _game(harness, "over", "world", GameState.FINISHED)
    _game(harness, "stopped", "ancient_mediterranean", GameState.TERMINATED)

    assert boards.warm_boards(harness.db) == 4
    assert drawn == [("standard", "en"), ("standard", "fr"), ("youngstown", "en"), ("youngstown", "fr")]
    assert boards.warm_boards(harness.db) == 0  # once per process
    assert len(drawn) == 4


def test_no_game_no_board(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _drawn(monkeypatch)
    assert boards.warm_boards(harness.db) == 0
    assert drawn == []


def test_a_board_that_cannot_be_drawn_is_skipped_and_the_others_drawn(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    drawn = _drawn(monkeypatch)

    def failing(svg: str) -> bytes:
        if len(drawn) == 1:
            raise RuntimeError("no art")
        return b""

    monkeypatch.setattr(boards, "svg_to_png", failing)
    _game(harness, "going", "standard", GameState.ACTIVE)
    assert boards.warm_boards(harness.db) == 1  # English failed, French drawn
    assert "could not draw the standard opening board (en)" in caplog.text


def test_a_stop_ends_the_warming_between_boards(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _drawn(monkeypatch)
    _game(harness, "going", "standard", GameState.ACTIVE)
    assert boards.warm_boards(harness.db, stop=lambda: len(drawn) == 1) == 1
    assert drawn == [("standard", "en")]


def test_the_first_results_picture_after_warming_draws_no_board_of_its_own(harness: Harness) -> None:
    """The warming draws the very board a results picture of the variant composes over (same
    parts, same cache key): not an approximation of it."""
    game = start_game(harness)
    harness.clock.advance(hours=13)
    send_all(game, OPENINGS)
    harness.clock.advance(hours=1)
    assert process_due(harness.services) == 1
    layers._board.cache_clear()

    assert boards.warm_boards(harness.db) == 2
    warmed = layers._board.cache_info()
    assert warmed.currsize == 2  # the English and the French board

    with harness.db.unit_of_work(readonly=True) as uow:
        spring = uow.session.query(PhaseRecord).filter_by(name="S1901M").one()
        pictures = ResultsPictures()
        assert pictures.picture(uow, spring.id, "en") is not None
        assert pictures.picture(uow, spring.id, "fr") is not None
    after = layers._board.cache_info()
    assert after.misses == warmed.misses  # both pictures found their board drawn
    assert after.hits >= warmed.hits + 2


def test_the_outbound_role_warms_the_boards_when_it_starts(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The operator's guide (section 12) names the log event: ``outbox.boards_drawn``."""
    drawn = _drawn(monkeypatch)
    caplog.set_level(logging.INFO, logger="judge.app.runtime.judge_server")
    _game(harness, "going", "standard", GameState.ACTIVE)

    class NoRelay:
        def deliver(self, *_args: object, **_kwargs: object) -> dict[str, str]:
            raise AssertionError("nothing to send")

    async def run() -> None:
        tuning = ServerTuning(outbound_poll_seconds=0.05, shutdown_grace_seconds=5)
        async with JudgeServer(harness.services, roles={Role.OUTBOUND}, relay=NoRelay(), tuning=tuning) as server:
            assert server._warming is not None
            await asyncio.wait_for(asyncio.shield(server._warming), timeout=30)
            assert "judge-warm-boards" not in server._tasks  # not a role: its end is no failure
        assert not server.failed

    asyncio.run(run())
    assert drawn == [("standard", "en"), ("standard", "fr")]
    assert [r.getMessage() for r in caplog.records if r.getMessage() == "outbox.boards_drawn"] == ["outbox.boards_drawn"]


def test_a_role_without_the_sender_draws_no_board(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _drawn(monkeypatch)
    _game(harness, "going", "standard", GameState.ACTIVE)

    async def run() -> None:
        tuning = ServerTuning(scheduler_poll_seconds=0.05, shutdown_grace_seconds=5)
        async with JudgeServer(harness.services, roles={Role.SCHEDULER}, tuning=tuning) as server:
            assert server._warming is None
            await asyncio.sleep(0.1)

    asyncio.run(run())
    assert drawn == []
