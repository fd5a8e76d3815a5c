"""LIST and WHOGAME by mail: the brief list, one game's report, who plays."""

from __future__ import annotations

from typing import Any

import pytest

from judge.app.reports.listing import orders_owed, press_code
from judge.core.phase import Phase
from judge.core.position import Position
from judge.core.units import Unit, UnitType
from judge.core.variants import load_map
from judge.db.models import Game
from tests.app.conftest import Harness
from tests.app.games_helpers import form_game, powers_of, register
from tests.app.identity_helpers import body

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

OUTSIDER = "outsider@example.net"


def _change(harness: Harness, name: str, **columns: Any) -> None:
    """Set game columns directly (the SET handlers are another area's)."""
    with harness.db.unit_of_work() as uow:
        game = uow.games.require(name)
        for key, value in columns.items():
            setattr(game, key, value)


def _make_master(harness: Harness, name: str, address: str, password: str) -> None:
    register(harness, address)
    with harness.db.unit_of_work() as uow:
        game = uow.games.require(name)
        master = uow.people.by_address(address)
        assert master is not None
        uow.games.add_master(game, master, password, harness.clock.now())


def _submit(harness: Harness, name: str, address: str, orders: list[str]) -> None:
    """France's (or anyone's) orders on file, as the orders handler would store them."""
    with harness.db.unit_of_work() as uow:
        game = uow.games.require(name)
        person = uow.people.by_address(address)
        assert person is not None and game.current_phase is not None
        seat = uow.seats.of_person(game, person)
        assert seat is not None
        uow.orders.submit(game, seat, game.current_phase, "\n".join(orders), orders, harness.clock.now())


def _forming(harness: Harness, name: str, creator: str) -> None:
    register(harness, creator)
    reply = harness.exchange(creator, f"CREATE ?{name} pw\n")
    assert "[Error Flag]" not in reply["Subject"], body(reply)


def test_list_without_games(harness: Harness) -> None:
    reply = harness.exchange(OUTSIDER, "LIST\n")
    assert body(reply).endswith("> LIST\nThere are no games to list at present.\n")


@pytest.mark.engine_sql
def test_the_brief_list_shows_listed_games_and_your_own(harness: Harness) -> None:
    _forming(harness, "public", "alice@example.net")
    _forming(harness, "private", "bob@example.net")
    _change(harness, "public", comment="friendly game")
    _change(harness, "private", listed=False)
    legend = (
        "Press: W = white, G = grey, WG = white with grey allowed, GW = grey with white allowed, "
        "- = no press; P = partial press allowed, F = fake press allowed."
    )
    outsider = body(harness.exchange(OUTSIDER, "LIST\n"))
    assert outsider.endswith(
        "> LIST\n"
        "  Game         Phase    Variant              Press Players\n"
        "  public       forming  Standard             WP    1/7      friendly game\n"
        "\n" + legend + "\n"
    )
    bob = body(harness.exchange("bob@example.net", "LIST\n"))
    assert "  public       forming" in bob
    assert "* private      forming  Standard             WP    1/7" in bob
    assert bob.endswith("* = a game you play in, observe or master.\n")


def test_a_created_game_is_listed_until_set_nolist(harness: Harness) -> None:
    """Issue 13: the Judge lists a game unless SET NOLIST (seed 004); a new player's CREATE showed nothing."""
    _forming(harness, "fresh", "alice@example.net")
    assert "  fresh        forming  Standard" in body(harness.exchange(OUTSIDER, "LIST\n"))
    reply = harness.exchange("alice@example.net", "SIGNON ?fresh pw\nSET NOLIST\n")
    assert "[Error Flag]" not in reply["Subject"], body(reply)
    assert "fresh" not in body(harness.exchange(OUTSIDER, "LIST\n"))


def test_the_report_of_a_forming_game(harness: Harness) -> None:
    _forming(harness, "slow", "alice@example.net")
    text = body(harness.exchange(OUTSIDER, "LIST slow\n"))
    assert "> LIST slow\nGame 'slow' (Standard) is forming: 1 joined, 6 more needed.\n" in text
    assert "Players who have joined:\n  alice@example.net (dedication 0)" in text
    assert "  Move    clock 1410 min 12.00 next 71.00 grace 167.00 delay 0.50 days -MTWTF-" in text


def test_the_report_of_a_game_under_way(harness: Harness) -> None:
    addresses = form_game(harness, "demo")
    powers = powers_of(harness, "demo")
    france = next(a for a, p in powers.items() if p == "FRANCE")
    _submit(harness, "demo", france, ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"])
    text = body(harness.exchange(OUTSIDER, "LIST demo\n"))
    assert text.startswith(
        "\n:: Judge: XPY\n\n> LIST demo\n"
        "Game 'demo' (Standard), active: Spring 1901, movement (S1901M).\n"
        "Deadline of the phase: Thursday 26 November 2026, 23:30 UTC\n"
    )
    assert "Waiting for orders from: Austria, England, Germany, Italy, Russia, Turkey.\n" in text
    assert "  Flags: Unmoderated, Rated, NoNMR, DIAS, Concessions, Listed, HomeCentres, MaxAbsence 15.\n" in text
    assert "  Press settings: White, Partial, NoFake, ObserverAny.\n" in text
    assert "  Power   Status    Units Centres Late Dedication  Player\n" in text
    assert f"  France  orders        3       3    0          0  {france}\n" in text
    assert "  Russia  no orders     4       4    0          0  " in text
    assert "  France: F Brest, A Marseilles, A Paris.\n" in text
    assert "  Russia (4): Moscow, Sevastopol, St Petersburg, Warsaw.\n" in text
    assert "  Unowned (12): Belgium, Bulgaria, Denmark, Greece, Holland, Norway, Portugal, Rumania, Serbia, Spain, Sweden, Tunis.\n" in text
    assert len(addresses) == 7


def test_partial_and_late_orders_show_in_the_table(harness: Harness) -> None:
    form_game(harness, "demo")
    powers = powers_of(harness, "demo")
    france = next(a for a, p in powers.items() if p == "FRANCE")
    _submit(harness, "demo", france, ["A PAR - BUR"])
    harness.clock.advance(days=8)
    text = body(harness.exchange(OUTSIDER, "LIST demo\n"))
    assert "  France  partial     3" in text
    assert "  Russia  late        4" in text
    assert "Waiting for orders from: Austria, England, France, Germany, Italy, Russia, Turkey." in text


def test_list_after_signon_is_the_report_of_that_game(harness: Harness) -> None:
    addresses = form_game(harness, "demo")
    letter = powers_of(harness, "demo")[addresses[1]][0]
    text = body(harness.exchange(addresses[1], f"SIGNON {letter}demo pw1\nLIST\n"))
    assert "> LIST\nGame 'demo' (Standard), active: Spring 1901, movement (S1901M)." in text


def test_list_full_reports_every_listed_game(harness: Harness) -> None:
    _forming(harness, "one", "alice@example.net")
    _forming(harness, "two", "bob@example.net")
    _forming(harness, "hidden", "carol@example.net")
    _change(harness, "hidden", listed=False)
    text = body(harness.exchange(OUTSIDER, "LIST FULL\n"))
    assert "Game 'one' (Standard) is forming" in text
    assert "Game 'two' (Standard) is forming" in text
    assert "hidden" not in text


def test_list_of_an_unknown_game_is_an_error(harness: Harness) -> None:
    reply = harness.exchange(OUTSIDER, "LIST nosuch\n")
    assert "[Error Flag]" in reply["Subject"]
    assert "> LIST nosuch\nThere is no game named 'nosuch' on this judge.\n" in body(reply)


def test_gunboat_addresses_are_shown_to_the_master_only(harness: Harness) -> None:
    addresses = form_game(harness, "boat")
    _change(harness, "boat", rule_options=["gunboat"])
    _make_master(harness, "boat", "gm@example.net", "secret")
    text = body(harness.exchange(addresses[0], "LIST boat\n"))
    assert "someone@somewhere" in text
    assert not any(address in text for address in addresses)
    master = body(harness.exchange("gm@example.net", "SIGNON Mboat secret\nLIST\n"))
    assert all(address in master for address in addresses)
    assert "Game master: gm@example.net" in master


def test_the_report_in_french(harness: Harness) -> None:
    form_game(harness, "demo")
    register(harness, "jeanne@example.org", language="fr")
    text = body(harness.exchange("jeanne@example.org", "LIST demo\n"))
    assert "Partie « demo » (Standard), en cours : Printemps 1901, mouvements (S1901M)." in text
    assert "  Puissance  État        Unités Centres Retards Dédication  Joueur\n" in text
    assert "Unités sur le plateau :" in text
    assert "  Allemagne: A Berlin, F Kiel, A Munich." in text
    assert "  France: F Brest, A Marseille, A Paris.\n" in text  # French province names


def test_whogame_lists_players_in_power_order_without_private_fields(harness: Harness) -> None:
    addresses = form_game(harness, "demo")
    powers = powers_of(harness, "demo")
    text = body(harness.exchange(OUTSIDER, "WHOGAME demo\n"))
    assert text.index("Austria:") < text.index("England:") < text.index("Turkey:")
    austria = next(a for a, p in powers.items() if p == "AUSTRIA")
    assert f"Austria:\nName:      {austria.split('@')[0].title()}\nEmail:     {austria}\n" in text
    assert "Phone:" not in text and "Observer" not in text
    assert all(address in text for address in addresses)


def test_whogame_full_adds_the_observers(harness: Harness) -> None:
    form_game(harness, "demo")
    reply = harness.exchange("watcher@example.net", "OBSERVE demo look\n")
    assert "[Error Flag]" not in reply["Subject"], body(reply)
    text = body(harness.exchange(OUTSIDER, "WHOGAME demo FULL\n"))
    assert "Game observer:\nEmail:     watcher@example.net" in text


def test_whogame_refusals(harness: Harness) -> None:
    form_game(harness, "boat")
    _change(harness, "boat", rule_options=["gunboat"])
    no_game = harness.exchange(OUTSIDER, "WHOGAME\n")
    assert "Name the game: WHOGAME game [FULL]." in body(no_game)
    unknown = harness.exchange(OUTSIDER, "WHOGAME nosuch\n")
    assert "There is no game named 'nosuch' on this judge." in body(unknown)
    gunboat = harness.exchange("p0@example.net", "WHOGAME boat\n")
    assert "'boat' is a gunboat game: only its master, signed on as master, may see who plays." in body(gunboat)
    for reply in (no_game, unknown, gunboat):
        assert "[Error Flag]" in reply["Subject"]


def test_orders_owed_in_each_kind_of_phase() -> None:
    the_map = load_map("standard")
    units = (
        Unit("FRANCE", UnitType.ARMY, "PAR"),
        Unit("FRANCE", UnitType.FLEET, "BRE"),
    )
    centers = {"FRANCE": frozenset({"PAR", "BRE", "MAR", "SPA"})}
    movement = Position("standard", Phase.parse("F1901M"), units, centers)
    assert orders_owed(movement, the_map, "FRANCE") == 2
    assert orders_owed(movement, the_map, "GERMANY") == 0
    winter = Position("standard", Phase.parse("W1901A"), units, centers)
    assert orders_owed(winter, the_map, "FRANCE") == 1  # two more centres, one free home centre (MAR)
    fewer = {"FRANCE": frozenset({"PAR"})}
    assert orders_owed(Position("standard", Phase.parse("W1901A"), units, fewer), the_map, "FRANCE") == 1


def test_orders_owed_counts_the_build_sites_of_the_games_rules() -> None:
    """LIST's status column counts builds as the core's build sites do on the game's map: a free
    owned foreign centre is a build site under SET ANY CENTRES (and in Chaos), not by default."""
    from judge.app.game_state.variant_rules import game_map_of

    units = (Unit("FRANCE", UnitType.ARMY, "PAR"), Unit("FRANCE", UnitType.ARMY, "BRE"), Unit("FRANCE", UnitType.ARMY, "MAR"))
    centers = {"FRANCE": frozenset({"PAR", "BRE", "MAR", "BEL", "HOL"})}
    winter = Position("standard", Phase.parse("W1901A"), units, centers)
    assert orders_owed(winter, load_map("standard"), "FRANCE") == 0
    anywhere = game_map_of(Game(name="anyc", variant="standard", build_centres="any"))
    assert orders_owed(winter, anywhere, "FRANCE") == 2
    chaos = Position("chaos", Phase.parse("W1901A"), (Unit("PARIS", UnitType.ARMY, "PAR"),),
                     {"PARIS": frozenset({"PAR", "BEL"})})  # fmt: skip
    assert orders_owed(chaos, load_map("chaos"), "PARIS") == 1


def test_press_codes() -> None:
    def game(**columns: Any) -> Game:
        defaults: dict[str, Any] = {"press_mode": "white", "partial_press": True, "fake_press": "none"}
        return Game(**{**defaults, **columns})

    assert press_code(game()) == "WP"
    assert press_code(game(press_mode="grey/white", partial_press=False, fake_press="partial may be faked")) == "GWF"
    assert press_code(game(press_mode="none")) == "-"


def test_a_gunboat_player_signed_on_to_his_own_game_learns_nobody_else(harness: Harness) -> None:
    """Every "who plays whom" answer, asked by each player signed on to his own gunboat game, names
    nobody but himself (issue 34: the only WHOGAME test asked as an outsider)."""
    addresses = form_game(harness, "boat")
    _change(harness, "boat", rule_options=["gunboat"])
    powers = powers_of(harness, "boat")
    refusal = "'boat' is a gunboat game: only its master, signed on as master, may see who plays."
    for n, address in enumerate(addresses):
        letter = powers[address][0]
        reply = harness.exchange(
            address, f"SIGNON {letter}boat pw{n}\nWHOGAME\nWHOGAME boat FULL\nLIST boat\nLIST\nSUMMARY boat\n"
        )
        text = body(reply)
        assert f"Signed on as {powers[address].title()} in game 'boat'." in text, text
        assert text.count(refusal) == 2, text
        others = [other for other in addresses if other != address]
        whole = reply.as_string()
        assert not [other for other in others if other in whole or other.split("@")[0] in text], whole
