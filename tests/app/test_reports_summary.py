"""SUMMARY: who played which power when, and the centres year by year, by mail."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from judge.app.reports.summary_text import (
    YearCentres,
    centres_by_year,
    identities_hidden,
    year_end_of,
)
from judge.core.phase import Phase
from judge.core.position import Position
from judge.db.models import Game
from tests.app.conftest import Harness, text
from tests.app.reports_helpers import (
    MASTER,
    address_of,
    finish,
    game_state,
    process,
    start_game,
    take_over,
)

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

FRANCE_1901 = {"FRANCE": ["A PAR - BUR", "F BRE - MAO", "A MAR - SPA"]}
FRANCE_F1901 = {"FRANCE": ["F MAO - POR", "A SPA H"]}


def play_1901(harness: Harness) -> None:
    """Spring and fall 1901 (France takes Spain and Portugal), then Italy changes hands."""
    process(harness, "demo", FRANCE_1901)
    process(harness, "demo", FRANCE_F1901)
    take_over(harness, "demo", "ITALY", "newitaly@example.net", "New Italian")


def section(reply_text: str, command: str) -> list[str]:
    """The lines answering ``command`` in a reply (up to the next echoed command, blank lines after it cut)."""
    lines = reply_text.splitlines()
    start = lines.index(f"> {command}") + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("> ")), len(lines))
    while end > start and not lines[end - 1]:
        end -= 1
    return lines[start:end]


def test_summary_names_every_player_and_the_centres_of_each_year(harness: Harness) -> None:
    start_game(harness)
    play_1901(harness)
    reply = harness.exchange("stranger@example.org", "SUMMARY demo\n")
    assert "[Error Flag]" not in reply["Subject"]
    assert section(text(reply), "SUMMARY demo") == [
        "Summary of game 'demo' (Standard).",
        "Started:  Mon Nov 23 2026 09:00:00 +0000",
        "Current phase: W1901A",
        "Phases processed: 2, the last F1901M.",
        "",
        "Players:",
        "  Austria: Austria Player <austria@example.net>  from S1901M",
        "  England: England Player <england@example.net>  from S1901M",
        "  France:  France Player <france@example.net>  from S1901M",
        "  Germany: Germany Player <germany@example.net>  from S1901M",
        "  Italy:   Italy Player <italy@example.net>  from S1901M to W1901A",
        "           New Italian <newitaly@example.net>  from W1901A (took over)",
        "  Russia:  Russia Player <russia@example.net>  from S1901M",
        "  Turkey:  Turkey Player <turkey@example.net>  from S1901M",
        "  Master: Game Master <master@example.net>",
        "",
        "Supply centres at the end of each year:",
        "  Year    Aus  Eng  Fra  Ger  Ita  Rus  Tur",
        "  1900      3    3    3    3    3    4    3",
        "  1901      3    3    5    3    3    4    3",
    ]


def test_summary_after_sign_on_is_about_the_game_signed_on_to(harness: Harness) -> None:
    start_game(harness)
    reply = harness.exchange(address_of("FRANCE"), "SIGNON Fdemo pwfrance\nSUMMARY\n")
    assert "Summary of game 'demo' (Standard)." in section(text(reply), "SUMMARY")


@pytest.mark.engine_sql
def test_summary_before_sign_on_needs_the_game_name(harness: Harness) -> None:
    start_game(harness)
    before = game_state(harness, "demo")
    reply = harness.exchange("stranger@example.org", "SUMMARY\n")
    assert reply["Subject"].startswith("Re: [Error Flag]")
    assert section(text(reply), "SUMMARY") == [
        "SUMMARY needs a game name before SIGNON, e.g. 'SUMMARY mygame'.",
    ]
    assert game_state(harness, "demo") == before


def test_summary_of_an_unknown_game_is_refused(harness: Harness) -> None:
    reply = harness.exchange("stranger@example.org", "STATUS nosuch\n")
    assert "There is no game called 'nosuch' on this judge." in text(reply)
    assert reply["Subject"].startswith("Re: [Error Flag]")


def test_summary_of_a_forming_game_says_it_has_not_started(harness: Harness) -> None:
    with harness.db.unit_of_work() as uow:
        uow.games.create("later", harness.clock.now())
    reply = harness.exchange("stranger@example.org", "SUMMARY later\n")
    assert section(text(reply), "SUMMARY later")[0] == (
        "Game 'later' (Standard) has not started yet: there is nothing to summarise."
    )


def test_gunboat_players_are_hidden_until_the_end_except_from_the_master(harness: Harness) -> None:
    start_game(harness, options=["gunboat"])
    play_1901(harness)
    shown = section(text(harness.exchange("stranger@example.org", "SUMMARY demo\n")), "SUMMARY demo")
    assert "  France:  someone@somewhere  from S1901M" in shown
    assert "           someone@somewhere  from W1901A (took over)" in shown
    assert [line for line in shown if "example.net>" in line] == ["  Master: Game Master <master@example.net>"]
    assert "This is a gunboat game: who played which power is shown when the game is over." in shown

    to_master = section(text(harness.exchange(MASTER, "SIGNON Mdemo masterpw\nSUMMARY\n")), "SUMMARY")
    assert "  France:  France Player <france@example.net>  from S1901M" in to_master

    finish(harness, "demo")
    after = section(text(harness.exchange("stranger@example.org", "SUMMARY demo\n")), "SUMMARY demo")
    assert "  France:  France Player <france@example.net>  from S1901M" in after
    assert "Ended:    Mon Nov 23 2026 11:00:00 +0000" in after


def test_a_noreveal_gunboat_game_keeps_its_players_hidden_after_the_end(harness: Harness) -> None:
    start_game(harness, options=["gunboat"], reveal=False)
    finish(harness, "demo")
    shown = section(text(harness.exchange("stranger@example.org", "SUMMARY demo\n")), "SUMMARY demo")
    assert "  France:  someone@somewhere  from S1901M" in shown
    assert "This gunboat game does not reveal who played which power (NoReveal)." in shown


def test_summary_in_french(harness: Harness) -> None:
    start_game(harness, languages={"FRANCE": "fr"})
    process(harness, "demo", FRANCE_1901)
    process(harness, "demo", FRANCE_F1901)
    shown = section(text(harness.exchange(address_of("FRANCE"), "SIGNON Fdemo pwfrance\nSUMMARY\n")), "SUMMARY")
    assert shown[0] == "Résumé de la partie 'demo' (Standard)."
    assert "Joueurs :" in shown
    assert "  Allemagne:  Germany Player <germany@example.net>  depuis S1901M" in shown
    assert "Centres de ravitaillement à la fin de chaque année :" in shown
    assert "  Année   Aut  Ang  Fra  All  Ita  Rus  Tur" in shown
    assert "  1901      3    3    5    3    3    4    3" in shown


def test_a_rolled_back_year_leaves_the_centre_table(harness: Harness) -> None:
    start_game(harness)
    process(harness, "demo", FRANCE_1901)
    process(harness, "demo", FRANCE_F1901)
    with harness.db.unit_of_work() as uow:
        uow.phases.rollback(uow.games.require("demo"), 2, harness.clock.now(), actor=MASTER)
    shown = section(text(harness.exchange("stranger@example.org", "SUMMARY demo\n")), "SUMMARY demo")
    assert "  1900      3    3    3    3    3    4    3" in shown
    assert not any(line.startswith("  1901") for line in shown)
    assert "Phases processed: 1, the last S1901M." in shown


# -- the pure parts --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phase", "year"),
    [("S1901M", 1900), ("S1901R", 1900), ("F1901M", 1900), ("F1901R", 1900), ("W1901A", 1901), ("S1902M", 1901)],
)
def test_the_year_a_position_closes(phase: str, year: int) -> None:
    assert year_end_of(Phase.parse(phase)) == year


def _position(phase: str, france: int) -> Position:
    centres = {"FRANCE": frozenset(f"C{n}" for n in range(france)), "ITALY": frozenset({"ROM"})}
    return Position("standard", Phase.parse(phase), (), centres)


def test_the_first_position_of_a_year_end_decides_its_row() -> None:
    rows = centres_by_year(
        [_position("S1901M", 3), _position("F1901M", 3), _position("W1901A", 5), _position("S1902M", 5),
         _position("F1902M", 5), _position("F1902R", 5), _position("W1902A", 7)]
    )  # fmt: skip
    assert rows == [
        YearCentres(1900, {"FRANCE": 3, "ITALY": 1}),
        YearCentres(1901, {"FRANCE": 5, "ITALY": 1}),
        YearCentres(1902, {"FRANCE": 7, "ITALY": 1}),
    ]


@pytest.mark.parametrize(
    ("options", "state", "reveal", "master", "hidden"),
    [
        ([], "active", True, False, False),
        (["gunboat"], "active", True, False, True),
        (["gunboat"], "active", True, True, False),
        (["gunboat"], "finished", True, False, False),
        (["gunboat"], "finished", False, False, True),
        (["gunboat"], "terminated", False, True, False),
    ],
)
def test_when_identities_are_hidden(
    options: list[str], state: str, reveal: bool, master: bool, hidden: bool
) -> None:
    from judge.db.enums import GameState

    game = Game(name="g", created_at=datetime(2026, 1, 1, tzinfo=UTC), rule_options=options,
                state=GameState(state), reveal=reveal)  # fmt: skip
    assert identities_hidden(game, viewer_is_master=master) is hidden
