"""The end of a game: concessions, a victory at processing, the notices and the final summary with scores."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from judge.core.position import Position
from tests.app.conftest import Harness, one_text
from tests.app.orders_helpers import start_game
from tests.app.press_helpers import (
    ALL_PLAYERS,
    MASTER,
    OBSERVER,
    address,
    board_without,
    game_with,
    plain,
    recipients,
    set_extra,
    votes_stored,
)

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def finished(harness: Harness) -> dict[str, Any]:
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        return {
            "state": game.state.value, "next_due_at": game.next_due_at, "deadline_at": game.deadline_at,
            "outcome": game.extra_settings.get("outcome"),
        }  # fmt: skip


def france_ahead() -> Position:
    """France with Belgium and Holland besides its home centres (5), England 3, Germany 3, the others gone."""
    start = board_without("ITALY", "TURKEY", "AUSTRIA", "RUSSIA")
    centres = dict(start.centers)
    centres["FRANCE"] = centres["FRANCE"] | {"BEL", "HOL"}
    return dataclasses.replace(start, centers=centres)


@pytest.mark.engine_sql
def test_the_final_summary_of_a_draw_scored_by_c_diplo(harness: Harness) -> None:
    game = game_with(harness, board_without("ITALY", "TURKEY", "AUSTRIA", "RUSSIA"))
    set_extra(harness, {"scoring": "c-diplo"})
    game.orders("FRANCE", "DIARY RECORD\nI will betray England.\nENDPRESS\nSET DRAW\n")
    game.orders("ENGLAND", "SET DRAW\n")
    game.orders("GERMANY", "SET DRAW\n")
    mail = one_text(harness.others)
    assert recipients(mail) == {address(p) for p in ALL_PLAYERS} | {MASTER, OBSERVER}
    assert mail["Subject"] == "XPY:demo - S1901M Draw Declared: EFG"
    assert plain(mail) == "\n".join([
        "Game 'demo' is over: it has been declared a draw between England, France and Germany.",
        "",
        "Summary of game 'demo' (Standard).",
        "Started:  Mon Nov 23 2026 09:00:00 +0000",
        "Ended:    Mon Nov 23 2026 09:00:00 +0000",
        "",
        "Players:",
        "  Austria: Austria <austria@example.net>  from S1901M",
        "  England: England <england@example.net>  from S1901M",
        "  France:  France <france@example.net>  from S1901M",
        "  Germany: Germany <germany@example.net>  from S1901M",
        "  Italy:   Italy <italy@example.net>  from S1901M",
        "  Russia:  Russia <russia@example.net>  from S1901M",
        "  Turkey:  Turkey <turkey@example.net>  from S1901M",
        "  Master: Master <master@example.net>",
        "",
        "Supply centres at the end of each year:",
        "  Year    Aus  Eng  Fra  Ger  Ita  Rus  Tur",
        "  1900      0    3    3    3    0    0    0",
        "",
        "Scores (C-Diplo):",
        "  Power     Centres    Score",
        "  Austria         0        1",
        "  England         3    23.67",
        "  France          3    23.67",
        "  Germany         3    23.67",
        "  Italy           0        1",
        "  Russia          0        1",
        "  Turkey          0        1",
        "",
        "The diaries of the game, now published:",
        "",
        "Diary of France, S1901M:",
        "I will betray England.",
        "",
        "The game is over. Thank you for playing.",
        "",
    ])  # fmt: skip
    end = finished(harness)
    assert (end["state"], end["next_due_at"], end["deadline_at"]) == ("finished", None, None)
    assert end["outcome"]["kind"] == "draw"
    assert end["outcome"]["powers"] == ["ENGLAND", "FRANCE", "GERMANY"]
    assert end["outcome"]["scores"]["ENGLAND"] == "71/3"


@pytest.mark.parametrize(
    ("scoring", "france", "england"),
    [(None, "33.33", "33.33"), ("sum-of-squares", "58.14", "20.93"), ("draw-size", "33.33", "33.33")],
)
def test_the_game_s_scoring_system_is_used(harness: Harness, scoring: str | None, france: str, england: str) -> None:
    game = game_with(harness, france_ahead())
    if scoring is not None:
        set_extra(harness, {"scoring": scoring})
    for power in ("FRANCE", "ENGLAND", "GERMANY"):
        game.orders(power, "SET DRAW\n")
    body = plain(harness.others[0])
    assert f"  France          5{france:>9}" in body
    assert f"  England         3{england:>9}" in body


def test_a_concession_to_the_largest_power(harness: Harness) -> None:
    game = game_with(harness, france_ahead())
    reply = game.orders("ENGLAND", "SET CONCEDE F\n")
    assert "Recorded: you concede the game to France. Votes are secret and last until this phase is processed." in plain(reply)
    assert harness.others == []
    reply = game.orders("GERMANY", "SET CONCEDE FRANCE\n")
    assert "The game has been conceded to France: it is over. Everyone has been sent the final summary." in plain(reply)
    mail = one_text(harness.others)
    assert mail["Subject"] == "XPY:demo - S1901M Game Conceded to F"
    assert plain(mail).startswith("Game 'demo' is over: it has been conceded to France.\n")
    assert "Scores (Draw-size scoring):" in plain(mail)
    assert "  France          5      100" in plain(mail)
    assert finished(harness)["outcome"]["kind"] == "concession"


@pytest.mark.engine_sql
def test_no_concede_withdraws(harness: Harness) -> None:
    game = game_with(harness, france_ahead())
    game.orders("ENGLAND", "SET CONCEDE F\n")
    assert "Your concession is withdrawn." in plain(game.orders("ENGLAND", "SET NO CONCEDE\n"))
    assert "You had not conceded this phase: nothing to withdraw." in plain(game.orders("ENGLAND", "SET NO CONCEDE\n"))
    game.orders("GERMANY", "SET CONCEDE F\n")
    assert finished(harness)["state"] == "active"


@pytest.mark.parametrize(
    ("position", "settings", "sender", "body", "message"),
    [
        ("ahead", {}, "ENGLAND", "SET CONCEDE G",
         "A game can be conceded only to the largest power, which is France, not Germany."),
        ("even", {}, "ENGLAND", "SET CONCEDE F", "No power has strictly more supply centres than every other"),
        ("ahead", {}, "FRANCE", "SET CONCEDE F", "You cannot concede the game to yourself."),
        ("ahead", {"dias": False}, "ENGLAND", "SET CONCEDE F",
         "This is a NoDIAS game: concede with a draw vote naming one power, e.g. SET DRAW F."),
        ("ahead", {"concessions": False}, "ENGLAND", "SET CONCEDE F", "Concessions are not allowed in this game."),
    ],
)  # fmt: skip
def test_refused_concessions_change_nothing(
    harness: Harness, position: str, settings: dict[str, object], sender: str, body: str, message: str
) -> None:
    board = france_ahead() if position == "ahead" else board_without("RUSSIA")  # the others have 3 each
    game = game_with(harness, board, **settings)
    reply = game.orders(sender, body + "\n")
    assert message in plain(reply)
    assert "[Error Flag]" in reply["Subject"]
    assert votes_stored(harness) == []
    assert finished(harness)["state"] == "active"


def test_victory_at_the_winning_count_ends_the_game_after_the_results(harness: Harness) -> None:
    game = start_game(harness, "demo", settings={"winning_centers": 5}, languages={"GERMANY": "fr"})
    set_extra(harness, {"scoring": "sum-of-squares"})
    game.orders("FRANCE", "F BRE-MAO\nA MAR-SPA\nA PAR-BUR\n")
    game.master("PROCESS\n")
    game.orders("FRANCE", "F MAO-POR\nA BUR-BEL\nA SPA H\n")
    game.master("PROCESS\n")
    subjects = [m["Subject"] for m in harness.others]
    assert subjects.index("XPY:demo - F1901M Victory: F") > subjects.index("XPY:demo - F1901M Results")
    victory = [m for m in harness.others if m["Subject"] == "XPY:demo - F1901M Victory: F"]
    english = next(m for m in victory if address("FRANCE") in recipients(m))
    assert plain(english).startswith("Game 'demo' is over: France has won with 6 supply centres.\n")
    assert "Scores (Sum of squares):\n" in plain(english)
    assert "  France          6      100\n" in plain(english)
    assert "  Russia          4        0\n" in plain(english)
    french = next(m for m in victory if address("GERMANY") in recipients(m))
    assert recipients(french) == {address("GERMANY")}
    assert plain(french).startswith("La partie 'demo' est terminée : France l'a emporté avec 6 centres.\n")
    assert "Scores (Somme des carrés) :\n" in plain(french)
    end = finished(harness)
    assert end["state"] == "finished" and end["outcome"]["kind"] == "solo"
