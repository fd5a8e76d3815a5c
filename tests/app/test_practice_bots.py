"""Practice games (issue 31): SET BOTS fills a forming game's empty seats with bots, which order as each
phase opens, so one person plays a whole game against them by mail."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.app.console.views import game_details
from judge.app.game_state.boards import from_json, opening_position
from judge.app.game_state.house_rules import bot_seed
from judge.app.phases.guarded_scheduler import process_due
from judge.core.adjudicator import DEFAULT_RULES
from judge.core.bots import bot_orders
from judge.core.phase import Phase
from judge.core.variants import load_map
from judge.db.enums import SeatStatus
from tests.app.conftest import Harness, text
from tests.app.councils_helpers import MASTER
from tests.app.games_helpers import player, register

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

ROOT = Path(__file__).resolve().parents[2]

_HOLD = {
    "AUSTRIA": "A VIE H\nA BUD H\nF TRI H\n", "ENGLAND": "F LON H\nF EDI H\nA LVP H\n",
    "FRANCE": "A PAR H\nA MAR H\nF BRE H\n", "GERMANY": "A BER H\nA MUN H\nF KIE H\n",
    "ITALY": "A ROM H\nA VEN H\nF NAP H\n", "RUSSIA": "A MOS H\nA WAR H\nF SEV H\nF STP/SC H\n",
    "TURKEY": "F ANK H\nA CON H\nA SMY H\n",
}


def _practice(harness: Harness, body: str = "SET BOTS\n") -> str:
    register(harness, player(0))
    harness.exchange(player(0), "CREATE ?prac pw0\n")
    return text(harness.exchange(player(0), "SIGNON ?prac pw0\n" + body))


def test_the_creator_fills_the_seats_with_bots_and_the_game_starts(harness: Harness) -> None:
    reply = _practice(harness)
    assert "Game 'prac': 6 seats played by normal bots." in reply
    assert "Game 'prac' has started." in reply
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("prac")
        bots = [s for s in game.seats if s.status is SeatStatus.BOT]
        assert len(bots) == 6 and all(s.power for s in bots)
        orders = uow.orders.current(game, "S1901M")
        assert sorted(orders) == sorted(s.power for s in bots)


def _human_power(harness: Harness) -> str:
    with harness.db.unit_of_work(readonly=True) as uow:
        [seat] = [s for s in uow.games.require("prac").seats if s.status is SeatStatus.PLAYING]
        return seat.power or ""


def test_the_game_processes_as_soon_as_the_players_orders_are_in_and_records_the_bots(harness: Harness) -> None:
    _practice(harness)
    power = _human_power(harness)
    harness.exchange(player(0), f"SIGNON {power[0]}prac pw0\n" + _HOLD[power])
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("prac")
        due, deadline = game.next_due_at, game.deadline_at
    assert due is not None and deadline is not None and due < deadline  # not waiting for the bots
    harness.clock.set(due)
    assert process_due(harness.services) == 1
    [results] = [m for m in harness.new_mail() if str(m["Subject"]).endswith("Results")]
    assert str(results["To"]) == player(0)  # the bots get no mail
    named = text(results).split("Played by the judge's bots: ", 1)[1].split(".")[0]
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("prac")
        assert game.current_phase == "F1901M"
        [spring] = [r for r in uow.phases.history(game) if r.name == "S1901M"]
        before = from_json(spring.position_before)
        recorded = dict((spring.results or {})["bots"])
        adjudicated = dict((spring.orders_adjudicated or {})["orders"])
        autumn = uow.orders.current(game, "F1901M")  # the bots ordered as the autumn opened
        bots = sorted(s.power or "" for s in game.seats if s.status is SeatStatus.BOT)
    assert sorted(recorded) == bots and power not in recorded
    assert named == ", ".join(b.title() for b in bots)
    assert sorted(autumn) == bots
    for bot in bots:
        assert recorded[bot] == {"level": "normal", "seed": bot_seed("prac", Phase.parse("S1901M"), bot)}
        replayed = bot_orders(load_map("standard"), before, bot, DEFAULT_RULES, recorded[bot]["seed"], "normal")
        assert sorted(map(str, replayed)) == sorted(adjudicated[bot])


def test_only_the_creator_or_a_master_seats_bots_and_only_before_the_start(harness: Harness) -> None:
    for n in range(3):
        register(harness, player(n))
    harness.exchange(player(0), "CREATE ?prac pw0\n")
    harness.exchange(player(1), "SIGNON ?prac pw1\n")
    refused = text(harness.exchange(player(1), "SIGNON ?prac pw1\nSET BOTS\n"))
    assert "Only a master of game 'prac' or its creator may seat bots in it." in refused
    reply = text(harness.exchange(player(0), "SIGNON ?prac pw0\nSET BOTS SENSIBLE\n"))
    assert "Game 'prac': 5 seats played by sensible bots." in reply
    # The player already seated is told, and nobody else is.
    told = [m for m in harness.others if str(m["Subject"]).endswith("Bots")]
    assert [str(m["To"]) for m in told] == [player(1)]
    assert "5 seats of game 'prac' will be played by sensible bots." in text(told[0])
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("prac")
        assert game.state.value == "active"
        assert game.extra_settings["bot_seat_level"] == "sensible"
        assert sum(s.status is SeatStatus.BOT for s in game.seats) == 5
    late = text(harness.exchange(player(0), "SIGNON ?prac pw0\nSET BOTS\n"))
    assert "Bots can only be seated before the game starts" in late


def test_a_master_seats_bots_in_a_game_started_by_hand_and_may_take_them_out(sqlite_harness: Harness) -> None:
    harness = sqlite_harness  # behaviour of the flow; the stored state is covered on both engines above
    register(harness, player(0))
    register(harness, MASTER)
    harness.exchange(player(0), "CREATE ?prac pw0\n")
    with harness.db.unit_of_work() as uow:
        person = uow.people.by_address(MASTER)
        assert person is not None
        uow.games.add_master(uow.games.require("prac"), person, "masterpw", harness.clock.now())
    harness.exchange(MASTER, "SIGNON Mprac masterpw\nSET MANUAL START\n")
    reply = text(harness.exchange(MASTER, "SIGNON Mprac masterpw\nSET BOTS\n"))
    assert "Game 'prac': 6 seats played by normal bots." in reply and "has started" not in reply
    listing = text(harness.exchange(player(0), "LIST prac\n"))
    assert "is forming: 1 joined, 0 more needed." in listing
    assert "Seats played by normal bots (SET BOTS): 6." in listing
    out = text(harness.exchange(MASTER, "SIGNON Mprac masterpw\nSET NO BOTS\n"))
    assert "Bots taken out of game 'prac': 6." in out
    with harness.db.unit_of_work(readonly=True) as uow:
        assert not any(s.status is SeatStatus.BOT for s in uow.games.require("prac").seats)
    unknown = text(harness.exchange(MASTER, "SIGNON Mprac masterpw\nSET BOTS FOOLISH\n"))
    assert "Unknown bot level" in unknown
    councils = text(harness.exchange(player(0), "SIGNON ?prac pw0\nSET COUNCILS 3\nSET BOTS\n"))
    assert "Bots cannot sit in a game played by councils." in councils


_LETTER = {"AUSTRIA": "A", "ENGLAND": "E", "FRANCE": "F", "GERMANY": "G", "ITALY": "I", "RUSSIA": "R", "TURKEY": "T"}


def _two_players(harness: Harness) -> dict[str, str]:
    """``prac`` with two players (p0, p1) and five bots, started: {address: power}."""
    register(harness, player(0))
    register(harness, player(1))
    harness.exchange(player(0), "CREATE ?prac pw0\n")
    harness.exchange(player(1), "SIGNON ?prac pw1\n")
    harness.exchange(player(0), "SIGNON ?prac pw0\nSET BOTS\n")
    with harness.db.unit_of_work(readonly=True) as uow:
        seats = uow.games.require("prac").seats
        return {s.person.primary_address or "": s.power or "" for s in seats if s.person is not None}


def _bot_powers(harness: Harness) -> list[str]:
    with harness.db.unit_of_work(readonly=True) as uow:
        return sorted(s.power or "" for s in uow.games.require("prac").seats if s.status is SeatStatus.BOT)


def test_a_press_to_a_bot_is_answered_once_a_phase_and_still_reaches_the_players(sqlite_harness: Harness) -> None:
    harness = sqlite_harness  # behaviour of the flow; the stored state is covered on both engines above
    powers = _two_players(harness)
    me, other = powers[player(0)], powers[player(1)]
    bot = _bot_powers(harness)[0]
    sign_on = f"SIGNON {_LETTER[me]}prac pw0\n"
    first = text(harness.exchange(player(0), sign_on + f"PRESS TO {_LETTER[bot]}{_LETTER[other]}\nHello both\nENDPRESS\n"))
    assert "Bots do not read press" in first and f"{bot.title()} will not answer." in first
    assert [str(m["To"]) for m in harness.others if "Hello both" in text(m)] == [player(1)]
    again = text(harness.exchange(player(0), sign_on + f"PRESS TO {_LETTER[bot]}\nStill there?\nENDPRESS\n"))
    assert "Bots do not read press" not in again
    # The other player is told on his own first press to a bot; a press to players only tells nothing.
    plain = text(harness.exchange(player(1), f"SIGNON {_LETTER[other]}prac pw1\nPRESS TO {_LETTER[me]}\nHi\nENDPRESS\n"))
    assert "Bots do not read press" not in plain
    told = text(harness.exchange(player(1), f"SIGNON {_LETTER[other]}prac pw1\nBROADCAST\nHi all\nENDPRESS\n"))
    assert "Bots do not read press" in told
    # A new phase: told again.
    harness.exchange(player(0), sign_on + _HOLD[me])
    harness.exchange(player(1), f"SIGNON {_LETTER[other]}prac pw1\n" + _HOLD[other])
    with harness.db.unit_of_work(readonly=True) as uow:
        due = uow.games.require("prac").next_due_at
    assert due is not None
    harness.clock.set(due)
    assert process_due(harness.services) == 1
    autumn = text(harness.exchange(player(0), sign_on + f"PRESS TO {_LETTER[bot]}\nAnd now?\nENDPRESS\n"))
    assert "Bots do not read press" in autumn


def test_a_draw_passes_when_every_player_agrees_the_bots_have_no_vote(sqlite_harness: Harness) -> None:
    harness = sqlite_harness  # behaviour of the flow; the stored state is covered on both engines above
    powers = _two_players(harness)
    me, other = powers[player(0)], powers[player(1)]
    first = text(harness.exchange(player(0), f"SIGNON {_LETTER[me]}prac pw0\nSET DRAW\n"))
    assert "The game is over" not in first
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.games.require("prac").state.value == "active"
    harness.exchange(player(1), f"SIGNON {_LETTER[other]}prac pw1\nSET DRAW\n")
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("prac")
        assert game.state.value == "finished"
    ended = [m for m in harness.others if player(0) in str(m["To"])]
    assert ended, "the players are told the game ended"
    # A DIAS draw includes every survivor, the bots' powers too.
    assert any(all(bot.title() in text(m) for bot in _bot_powers(harness)) for m in ended)


def test_a_newcomer_takes_a_bots_seat_over_by_mail_and_plays_it(harness: Harness) -> None:
    powers = _two_players(harness)
    bot = _bot_powers(harness)[0]
    register(harness, player(5))
    reply = text(harness.exchange(player(5), f"SIGNON {_LETTER[bot]}prac newpw\n"))
    assert f"You have taken over {bot.title()} in game 'prac'." in reply
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("prac")
        seat = next(s for s in game.seats if s.power == bot)
        assert seat.status is SeatStatus.PLAYING and seat.person is not None
        assert sorted(uow.orders.current(game, "S1901M")) == sorted([*_bot_powers(harness), bot])  # the bot's orders stay
        shown = {row["power"]: row["bot"] for row in game_details(uow, game)["seats"] if row["bot"]}
    assert shown == dict.fromkeys(_bot_powers(harness), "normal") and bot not in shown
    listing = text(harness.exchange(player(5), "LIST prac\n"))
    assert f"{bot.title()}" in listing and player(5) in listing
    whogame = text(harness.exchange(player(5), "WHOGAME prac\n"))
    assert whogame.count("the normal bot") == len(_bot_powers(harness)) == 4
    # He keeps the bot's orders for this phase and plays on alone: no bot plays his power any more.
    harness.exchange(player(5), f"SIGNON {_LETTER[bot]}prac newpw\nSET NOWAIT\n")
    for address, power in powers.items():
        harness.exchange(address, f"SIGNON {_LETTER[power]}prac pw{address[1]}\n" + _HOLD[power])
    with harness.db.unit_of_work(readonly=True) as uow:
        due = uow.games.require("prac").next_due_at
    assert due is not None
    harness.clock.set(due)
    assert process_due(harness.services) == 1
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("prac")
        [spring] = [r for r in uow.phases.history(game) if r.name == "S1901M"]
        assert sorted((spring.results or {})["bots"]) == _bot_powers(harness)
        assert bot not in uow.orders.current(game, "F1901M")


# ------------------------------------------------------------------ the guides' practice game, as they quote it

_GUIDE_LINES = {
    "en": (
        ("docs/player-guide.md", "docs/master-guide.md"),
        ["Game 'demo': 6 seats played by normal bots.", "Game 'demo' has started.",
         "Bots do not read press: England will not answer.", "the normal bot"],
    ),
    "fr": (
        ("docs/fr/guide-joueur.md", "docs/fr/guide-maitre.md"),
        ["Partie 'demo' : 6 places jouées par des robots de niveau normal.", "La partie 'demo' a commencé.",
         "Les robots ne lisent pas la presse et ne répondront pas : Angleterre.", "le robot de niveau normal"],
    ),
}  # fmt: skip


def _flat(words: str) -> str:
    return " ".join(words.split())


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_guides_practice_game_gets_the_replies_they_quote(sqlite_harness: Harness, language: str) -> None:
    harness = sqlite_harness
    pages, lines = _GUIDE_LINES[language]
    guides = {page: _flat((ROOT / page).read_text(encoding="utf-8")) for page in pages}
    register(harness, player(0), language=language)
    fence = "```mail-fr\n" if language == "fr" else "```mail\n"
    player_guide = (ROOT / pages[0]).read_text(encoding="utf-8")
    creation = next(block for block in player_guide.split(fence)[1:] if "SET BOTS" in block).split("```")[0]
    replies = text(harness.exchange(player(0), creation))
    replies += text(harness.exchange(player(0), "SIGNON Fdemo secret\nPRESS TO E\nHello\nENDPRESS\nLIST demo\n"))
    for line in lines:
        assert line in _flat(replies), line
        assert line in guides[pages[0]], f"{pages[0]} does not quote {line!r}"
    for line in lines[:3]:
        assert line in guides[pages[1]], f"{pages[1]} does not quote {line!r}"


def test_a_practice_game_whose_only_player_resigns_ends_at_its_next_processing(sqlite_harness: Harness) -> None:
    harness = sqlite_harness
    _practice(harness)
    power = _human_power(harness)
    harness.exchange(player(0), f"SIGNON {power[0]}prac pw0\nRESIGN\n")
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("prac")
        due = game.next_due_at
        assert game.state.value == "active" and due is not None
    harness.clock.set(due)
    process_due(harness.services)
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("prac")
        assert game.state.value == "finished"  # nobody is left to play against the bots
        assert [r.name for r in uow.phases.history(game)] == ["S1901M"]


def test_in_a_fog_of_war_game_a_bot_decides_on_what_its_power_sees(
    sqlite_harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot knows no more than a human in its seat: in a blind game it is handed its power's sight
    (judge.app.audience.blind_view, the one place that decides), never the whole board."""
    from judge.app.game_state import bot_seats
    from judge.core.visibility import seen_provinces

    boards: dict[str, object] = {}
    real = bot_seats.bot_orders

    def recording(game_map, position, power, rules, seed, level):  # type: ignore[no-untyped-def]
        boards[power] = position
        return real(game_map, position, power, rules, seed, level)

    monkeypatch.setattr(bot_seats, "bot_orders", recording)
    register(sqlite_harness, player(0))
    register(sqlite_harness, player(1))
    sqlite_harness.exchange(player(0), "CREATE ?prac pw0\nBECOME MASTER\nSET BLIND\n")
    joined = text(sqlite_harness.exchange(player(1), "SIGNON ?prac pw1 standard blind\n"))
    assert "You have joined game 'prac' (Standard blind)." in joined, joined
    reply = text(sqlite_harness.exchange(player(0), "SIGNON Mprac pw0\nSET BOTS\n"))
    assert "Game 'prac' has started." in reply, reply
    standard = load_map("standard")
    with sqlite_harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("prac")
        assert "blind" in game.rule_options
        bots = sorted(s.power or "" for s in game.seats if s.status is SeatStatus.BOT)
    assert sorted(boards) == bots and len(bots) == 6
    whole = opening_position(standard)
    for power, board in boards.items():
        seen = seen_provinces(standard, whole, power)
        units = board.units  # type: ignore[attr-defined]
        assert all(u.power == power or u.province in seen for u in units), power
        assert len(units) < len(whole.units), f"{power} was handed the whole board"


def test_a_bot_seat_eliminated_then_rolled_back_is_the_bots_again(sqlite_harness: Harness) -> None:
    """ROLLBACK to a turn where a bot's power lived gives the seat back to the bot, not to nobody:
    a practice game's seat that no person ever held is a bot's."""
    register(sqlite_harness, player(0))
    register(sqlite_harness, player(1))
    sqlite_harness.exchange(player(0), "CREATE ?prac pw0\nBECOME MASTER\nSET MANUAL PROCESS\n")
    sqlite_harness.exchange(player(1), "SIGNON ?prac pw1\n")
    started = text(sqlite_harness.exchange(player(0), "SIGNON Mprac pw0\nSET BOTS\n"))
    assert "Game 'prac' has started." in started, started
    processed = text(sqlite_harness.exchange(player(0), "SIGNON Mprac pw0\nPROCESS\n"))
    assert "[Error Flag]" not in processed, processed
    with sqlite_harness.db.unit_of_work() as uow:
        game = uow.games.require("prac")
        bot = next(s for s in game.seats if s.status is SeatStatus.BOT)
        human = next(s for s in game.seats if s.status is SeatStatus.PLAYING)
        # As if both had lost everything in the autumn (what processing does on an elimination).
        uow.seats.set_status(bot, SeatStatus.ELIMINATED)
        uow.seats.set_status(human, SeatStatus.ELIMINATED)
        bot_power, human_power = bot.power, human.power
    rolled = text(sqlite_harness.exchange(player(0), "SIGNON Mprac pw0\nROLLBACK\n"))
    assert "is back at Movement for Spring of 1901 (S1901M)" in rolled, rolled
    with sqlite_harness.db.unit_of_work(readonly=True) as uow:
        seats = {s.power: s.status for s in uow.games.require("prac").seats}
    assert seats[bot_power] is SeatStatus.BOT
    assert seats[human_power] is SeatStatus.PLAYING
