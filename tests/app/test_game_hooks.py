"""The game hooks: a game's variant and house rules take part in the flow through them, and only them.

Two kinds of test. The first reads ``judge/app``'s source: the predicate
"is this a council game?" is asked only where a game's hooks are resolved
(and by the audience, the one place that decides who reads a council's
mail, below the hooks in the rooms' order), so no ``if`` on the variant
comes back into the scheduler, processing, planning, the game's start or a
handler. The second drives an ordinary game by mail with a recording
implementation in place of the plain hooks, and checks that each part of
the flow calls its hook point. (What the councils' hooks do is the councils'
tests': ``tests/app/test_councils_*.py``, ``tests/e2e/test_councils_e2e.py``.)
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from judge.app.councils.council_hooks import CouncilHooks
from judge.app.game_state.plain_hooks import PlainHooks
from judge.app.hooks import game_hooks
from judge.app.hooks.game_hooks import (
    COUNCILS,
    MACHIAVELLI,
    PLAIN,
    GameHooks,
    hooks_for,
)
from judge.app.machiavelli.machiavelli_hooks import MachiavelliHooks
from judge.app.phases.guarded_scheduler import process_due
from judge.app.reports.final_summary import final_summary_lines
from judge.db.models import Game
from judge.db.repositories.councils import SETTINGS_KEY
from tests.app.conftest import Harness
from tests.app.games_helpers import form_game
from tests.app.orders_helpers import start_game
from tests.app.test_processing_results import OPENINGS

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

APP = Path(__file__).resolve().parents[2] / "judge" / "app"

PREDICATE = re.compile(r"\b(councils_enabled|is_council_game)\b")
"""Asking whether a game is played by councils, under either name the code ever had."""

MAY_ASK = {
    "hooks/game_hooks.py",  # hooks_for: which hooks a game has
    "audience/council_members.py",  # read_by_councils: who reads a seat's mail (the audience sits below the hooks)
}
"""The modules of ``judge/app`` that may ask the predicate itself."""

FLOW = ("phases", "games/lifecycle.py", "reports/game_start.py", "reports/final_summary.py")
"""The flow the hooks serve: it reaches a variant only through them, never by importing it."""


def asking(root: Path) -> dict[str, list[int]]:
    """``{module: [line...]}``: where the predicate is named under ``root``, but for :data:`MAY_ASK`."""
    found: dict[str, list[int]] = {}
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        if where in MAY_ASK:
            continue
        lines = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if PREDICATE.search(line)]
        if lines:
            found[where] = lines
    return found


def importing_a_variant(root: Path) -> list[str]:
    """The flow's modules that import a variant's own package (``judge.app.councils``, ``judge.app.machiavelli``)."""
    paths: list[Path] = []
    for part in FLOW:
        target = root / part
        paths += sorted(target.rglob("*.py")) if target.is_dir() else [target]
    return [
        path.relative_to(root).as_posix()
        for path in paths
        if re.search(r"^\s*(from|import) judge\.app\.(councils|machiavelli)\b", path.read_text(encoding="utf-8"), re.M)
    ]


# ------------------------------------------------------------------ no branch on the variant


def test_only_the_hooks_and_the_audience_ask_whether_councils_play_a_game() -> None:
    assert asking(APP) == {}


def test_the_flow_reaches_a_variant_only_through_its_hooks() -> None:
    assert importing_a_variant(APP) == []


def test_the_predicate_has_one_name() -> None:
    judge = APP.parent
    second = [p.relative_to(judge).as_posix() for p in judge.rglob("*.py") if "is_council_game" in p.read_text("utf-8")]
    assert second == []


def test_the_scans_see_a_branch_that_comes_back(tmp_path: Path) -> None:
    for folder in ("phases", "games", "reports", "handlers", "hooks"):
        (tmp_path / folder).mkdir()
    (tmp_path / "phases" / "processing.py").write_text(
        "def f(game):\n"
        "    from judge.app.councils.elections import wake_at\n"
        "    if councils_enabled(game):\n"
        "        return wake_at\n",
        encoding="utf-8",
    )
    (tmp_path / "handlers" / "press.py").write_text("if is_council_game(game): pass\n", encoding="utf-8")
    (tmp_path / "hooks" / "game_hooks.py").write_text("if councils_enabled(game): pass\n", encoding="utf-8")
    (tmp_path / "games" / "lifecycle.py").write_text("", encoding="utf-8")
    (tmp_path / "reports" / "game_start.py").write_text("from judge.app.machiavelli import stored_phase\n", encoding="utf-8")
    (tmp_path / "reports" / "final_summary.py").write_text("import judge.app.councils.formation\n", encoding="utf-8")
    assert asking(tmp_path) == {"handlers/press.py": [1], "phases/processing.py": [3]}
    assert importing_a_variant(tmp_path) == [
        "phases/processing.py", "reports/game_start.py", "reports/final_summary.py"
    ]


# ------------------------------------------------------------------ which hooks a game has


def test_a_game_has_the_plain_hooks_unless_councils_play_it() -> None:
    assert hooks_for(None) is PLAIN
    assert hooks_for(Game(name="plain", extra_settings={})) is PLAIN
    assert hooks_for(Game(name="off", extra_settings={SETTINGS_KEY: {"enabled": False}})) is PLAIN
    assert hooks_for(Game(name="councils", extra_settings={SETTINGS_KEY: {"enabled": True}})) is COUNCILS
    assert isinstance(PLAIN, PlainHooks) and isinstance(COUNCILS, CouncilHooks)
    assert hooks_for(Game(name="renaissance", variant="machiavelli", extra_settings={})) is MACHIAVELLI
    assert hooks_for(Game(name="standard", variant="standard", extra_settings={})) is PLAIN
    assert isinstance(MACHIAVELLI, MachiavelliHooks)


def test_the_plain_hooks_change_nothing_and_the_councils_add_their_commands() -> None:
    game = Game(name="plain", extra_settings={})
    assert PLAIN.own_commands == frozenset() and not PLAIN.members_sign_on
    assert PLAIN.join_refusal(game, str) is None
    assert PLAIN.next_phase_times(game, times := object(), None, None, None) is times  # type: ignore[arg-type]
    assert {"VOTE", "COUNCIL", "ACCUSE"} <= COUNCILS.own_commands and COUNCILS.members_sign_on
    assert "played by councils" in (COUNCILS.join_refusal(game, str) or "")


# ------------------------------------------------------------------ the flow calls them


class Recording(PlainHooks):
    """The plain hooks, noting each hook point the flow reaches."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __getattribute__(self, name: str) -> Any:
        if not name.startswith("_") and name != "calls":
            object.__getattribute__(self, "calls").append(name)
        return object.__getattribute__(self, name)


@pytest.fixture
def recording(monkeypatch: pytest.MonkeyPatch) -> Recording:
    hooks = Recording()
    monkeypatch.setattr(game_hooks, "PLAIN", hooks)
    return hooks


def test_a_game_s_start_deals_the_powers_and_announces_through_the_hooks(harness: Harness, recording: Recording) -> None:
    form_game(harness)
    assert {"deal_powers", "on_game_started", "announce_start"} <= set(recording.calls)
    assert recording.calls.index("deal_powers") < recording.calls.index("on_game_started")


def test_orders_press_and_processing_call_their_hook_points(harness: Harness, recording: Recording) -> None:
    game = start_game(harness)
    recording.calls.clear()
    game.orders("FRANCE", "A PAR - BUR\n")
    assert {"members_sign_on", "check_order"} <= set(recording.calls)
    recording.calls.clear()
    game.orders("FRANCE", "SET NOWAIT\nSET DRAW\nPRESS TO E\nHello.\nENDPRESS\n")
    assert {"check_wait", "wake_at", "check_draw", "send_press"} <= set(recording.calls)  # NOWAIT re-plans
    for power, orders in OPENINGS.items():
        game.orders(power, orders)
    harness.clock.advance(hours=13)  # past the phase's start and the delay after the last orders
    recording.calls.clear()
    assert process_due(harness.services) == 1
    points = ["before_due", "holds_processing", "civil_disorder", "ends_after", "next_phase_times",
              "after_phase_opened", "wake_at"]  # fmt: skip
    assert [c for c in recording.calls if c in points] == points  # each once, in the flow's order


def test_the_final_summary_asks_the_hooks_for_the_variant_s_lines(harness: Harness, recording: Recording) -> None:
    game = start_game(harness)
    with harness.db.unit_of_work(readonly=True) as uow:
        final_summary_lines(uow, game.game(uow), language="en", zone=harness.services.config.timezone, _=str)
    assert "final_summary_lines" in recording.calls


def test_a_variant_s_hooks_decide_without_a_branch_in_the_flow(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hooks implementation that holds processing is obeyed: the scheduler only asks."""

    class Holding(PlainHooks):
        def holds_processing(self, *args: object) -> bool:
            return True

    game = start_game(harness)
    for power, orders in OPENINGS.items():
        game.orders(power, orders)
    harness.clock.advance(hours=13)  # all orders in, past the phase's start: processing is due
    monkeypatch.setattr(game_hooks, "PLAIN", Holding())
    process_due(harness.services)
    assert game.state()["phases"] == [("S1901M", "open")]
    monkeypatch.setattr(game_hooks, "PLAIN", PlainHooks())
    harness.clock.advance(timedelta(minutes=1))
    with harness.db.unit_of_work() as uow:
        uow.games.set_next_due(game.game(uow), harness.clock.now())
    process_due(harness.services)
    assert game.state()["phases"][0] == ("S1901M", "processed")


def test_both_implementations_are_game_hooks() -> None:
    hooks: list[GameHooks] = [PlainHooks(), CouncilHooks(), MachiavelliHooks()]  # mypy checks each against the protocol
    assert all(callable(h.wake_at) for h in hooks)
