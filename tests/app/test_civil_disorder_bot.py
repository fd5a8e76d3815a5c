"""SET CD SENSIBLE / SET CD HOLD (issue 31): what a power in civil disorder plays, set by mail.

Under HOLD (the default, the classic Judge) a power in civil disorder gives no orders: its units hold.
Under SENSIBLE it plays the sensible bot's orders (judge.core.bots) when the phase is processed: here
Italy, put in civil disorder by SET CD AFTER 1 when it misses Spring 1901, holds Venice (which the
Austrian fleet in Trieste could enter) and supports it from Rome.
"""

from __future__ import annotations

from typing import Any

import pytest

from judge.app.console.views import game_details
from judge.app.game_state.boards import from_json
from judge.app.game_state.house_rules import bot_seed
from judge.core.adjudicator import DEFAULT_RULES
from judge.core.bots import bot_orders
from judge.core.phase import Phase
from judge.core.variants import load_map
from tests.app.conftest import Harness
from tests.app.masters_helpers import (
    as_master,
    as_power,
    moderated_game,
    players_by_power,
    read,
    state_of,
)
from tests.app.orders_helpers import StartedGame, start_game
from tests.app.press_helpers import set_extra
from tests.app.reports_helpers import register

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

_OTHERS = {
    "AUSTRIA": "A VIE H", "ENGLAND": "A LVP H", "FRANCE": "A PAR H", "GERMANY": "A BER H",
    "RUSSIA": "A MOS H", "TURKEY": "A CON H",
}  # fmt: skip


def test_the_master_sets_cd_sensible_and_back_to_hold_and_list_shows_it(harness: Harness) -> None:
    moderated_game(harness, players=2)
    register(harness, "curious@example.org", "Curious")
    body = read(as_master(harness, "SET CD HOLD\n"))
    assert "Civil disorder: already Hold." in body
    body = read(as_master(harness, "SET CD SENSIBLE\n"))
    assert "Civil disorder: Sensible (was Hold)." in body
    assert state_of(harness).columns["extra_settings"]["civil_disorder_play"] == "sensible"
    listing = read(harness.exchange("curious@example.org", "LIST modo\n"))
    assert "Powers in civil disorder play sensible orders (SET CD SENSIBLE)." in listing
    body = read(as_master(harness, "SET CD HOLD\n"))
    assert "Civil disorder: Hold (was Sensible)." in body
    listing = read(harness.exchange("curious@example.org", "LIST modo\n"))
    assert "SET CD SENSIBLE" not in listing


def test_players_of_a_moderated_game_may_not_set_it(harness: Harness) -> None:
    moderated_game(harness)
    power = next(iter(players_by_power(harness)))
    body = read(as_power(harness, power, "SET CD SENSIBLE\n"))
    assert "only the master" in body.lower()
    assert "civil_disorder_play" not in state_of(harness).columns["extra_settings"]


def _adjudicated(harness: Harness, phase: str) -> dict[str, Any]:
    """The orders a processed phase was adjudicated with, as its record keeps them."""
    with harness.db.unit_of_work(readonly=True) as uow:
        records = uow.phases.history(uow.games.require("demo"))
        [record] = [r for r in records if r.name == phase]
        return dict(record.orders_adjudicated or {})


def _italy_misses_spring(harness: Harness, play: str | None) -> tuple[StartedGame, dict[str, Any]]:
    game = start_game(harness, "demo")
    set_extra(harness, {"cd_after_missed_seasons": 1})
    if play is not None:
        game.master(f"SET CD {play}\n")
    for power, order in _OTHERS.items():
        game.orders(power, order + "\n")
    game.master("PROCESS\n")
    return game, _adjudicated(harness, "S1901M")


def test_under_cd_sensible_a_power_in_civil_disorder_defends_its_threatened_centre(harness: Harness) -> None:
    game, adjudicated = _italy_misses_spring(harness, "SENSIBLE")
    assert sorted(adjudicated["orders"]["ITALY"]) == ["A ROM S A VEN", "A VEN H", "F NAP H"]
    with harness.db.unit_of_work(readonly=True) as uow:
        seat = next(s for s in game.game(uow).seats if s.power == "ITALY")
        assert seat.status.value == "civil_disorder"
    # The next phase: Italy, in civil disorder from before, plays again.
    for power, order in _OTHERS.items():
        game.orders(power, order + "\n")
    game.master("PROCESS\n")
    assert "ITALY" in _adjudicated(harness, "F1901M")["orders"]


def test_the_results_keep_each_bots_level_and_seed_and_they_replay_its_orders(harness: Harness) -> None:
    _italy_misses_spring(harness, "SENSIBLE")
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        [record] = [r for r in uow.phases.history(game) if r.name == "S1901M"]
        results = dict(record.results or {})
        before = from_json(record.position_before)
    assert results["bots"] == {"ITALY": {"level": "sensible", "seed": bot_seed("demo", Phase.parse("S1901M"), "ITALY")}}
    replayed = bot_orders(load_map("standard"), before, "ITALY", DEFAULT_RULES, results["bots"]["ITALY"]["seed"], "sensible")
    assert sorted(map(str, replayed)) == sorted(_adjudicated(harness, "S1901M")["orders"]["ITALY"])


def test_under_cd_hold_the_default_a_power_in_civil_disorder_gives_no_orders(harness: Harness) -> None:
    _game, adjudicated = _italy_misses_spring(harness, None)
    assert "ITALY" not in adjudicated.get("orders", {})
    with harness.db.unit_of_work(readonly=True) as uow:
        [record] = [r for r in uow.phases.history(uow.games.require("demo")) if r.name == "S1901M"]
        assert "bots" not in (record.results or {})


def test_the_setting_and_the_listing_in_french(harness: Harness) -> None:
    moderated_game(harness, players=2, language="fr")
    body = read(as_master(harness, "SET CD SENSIBLE\n"))
    assert "Désordre civil : Sensible" in body


def _bots_shown(harness: Harness) -> dict[str, str]:
    """The bot seats as ``judge game show`` lists them (its view of the game)."""
    with harness.db.unit_of_work(readonly=True) as uow:
        view = game_details(uow, uow.games.require("demo"))
    return {seat["power"]: seat["bot"] for seat in view["seats"] if seat["bot"]}


def test_judge_game_show_names_the_sensible_bot_of_a_power_in_civil_disorder(harness: Harness) -> None:
    _italy_misses_spring(harness, "SENSIBLE")
    assert _bots_shown(harness) == {"ITALY": "sensible"}


# ------------------------------------------------------------------ SET BOT: an abandoned power played by the bot


def test_the_master_gives_a_resigned_power_to_the_bot_which_plays_until_a_takeover(harness: Harness) -> None:
    game = start_game(harness, "demo")
    # A power with a player cannot be given to the bot.
    refused = read(game.master("SET BOT I\n"))
    assert "Italy has a player: only a power without one" in refused
    game.orders("ITALY", "RESIGN\n")
    body = read(game.master("SET BOT I\n"))
    assert "Powers played by a bot: Italy." in body
    assert _bots_shown(harness) == {"ITALY": "normal"}  # judge game show
    register(harness, "curious@example.org", "Curious")
    assert "Played by a bot until a player takes them over: Italy." in read(
        harness.exchange("curious@example.org", "LIST demo\n")
    )
    for power, order in _OTHERS.items():
        game.orders(power, order + "\n")
    game.master("PROCESS\n")
    italian = _adjudicated(harness, "S1901M")["orders"]["ITALY"]
    assert len(italian) == 3 and any(" - " in order for order in italian)  # the normal bot moves
    # A newcomer takes Italy over: the bot stops playing it.
    register(harness, "newcomer@example.org", "Newcomer")
    harness.exchange("newcomer@example.org", "SIGNON Idemo fresh\n")
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.games.require("demo").extra_settings["bot_powers"] == []
    assert _bots_shown(harness) == {}
    for power, order in _OTHERS.items():
        game.orders(power, order + "\n")
    game.master("PROCESS\n")
    assert "ITALY" not in _adjudicated(harness, "F1901M").get("orders", {})


def test_set_no_bot_takes_the_power_back_and_players_may_not_set_it(harness: Harness) -> None:
    game = start_game(harness, "demo")
    game.orders("ITALY", "RESIGN\n")
    game.master("SET BOT I\n")
    assert "Powers played by a bot: -." in read(game.master("SET NO BOT I\n"))
    refused = read(game.orders("FRANCE", "SET BOT I\n"))
    assert "Only a master of game 'demo' may change that (Powers played by a bot)." in refused
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.games.require("demo").extra_settings["bot_powers"] == []


def test_list_shows_the_bot_seats_in_french_as_the_players_guide_quotes(harness: Harness) -> None:
    game = start_game(harness, "demo")
    game.orders("ITALY", "RESIGN\n")
    game.master("SET BOT I\n")
    register(harness, "curieux@example.org", "Curieux", language="fr")
    listing = read(harness.exchange("curieux@example.org", "LIST demo\n"))
    assert "Jouées par un robot jusqu'à ce qu'un joueur les reprenne : Italy." in listing
