"""CREATE: a new forming game with its creator seated, and every way it is refused."""

from __future__ import annotations

import pytest

from judge.core.variants import offered_variants
from tests.app.conftest import Harness
from tests.app.games_helpers import read, register, snapshot

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def test_create_makes_a_forming_game_with_the_creator_seated(harness: Harness) -> None:
    register(harness, "alice@example.net")
    reply = harness.exchange("alice@example.net", "CREATE ?demo secret\n")
    body = read(reply)
    assert "> CREATE ?demo secret" in body
    assert "Game 'demo' (Standard) has been created and you have joined it." in body
    assert "Players still needed before the game can start: 6." in body
    assert "BECOME MASTER" in body
    assert "[Error Flag]" not in reply["Subject"]
    assert reply["Subject"].startswith("Re: XPY:demo")
    game = snapshot(harness, "demo")
    assert game.state == "forming"
    assert game.seats == [("alice@example.net", None, "waiting")]


def test_create_with_variant_and_option_records_them(harness: Harness) -> None:
    register(harness, "alice@example.net")
    body = read(harness.exchange("alice@example.net", "CREATE ?gb secret standard gunboat\n"))
    assert "Game 'gb' (Standard gunboat) has been created" in body
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("gb")
        assert (game.variant, game.rule_options) == ("standard", ["gunboat"])


def test_the_creators_password_opens_the_seat(harness: Harness) -> None:
    register(harness, "alice@example.net")
    harness.exchange("alice@example.net", "CREATE ?demo secret\n")
    with harness.db.unit_of_work() as uow:
        seat = uow.games.require("demo").seats[0]
        assert uow.seats.check_password(seat, "secret")
        assert not uow.seats.check_password(seat, "other")
        assert "secret" not in (seat.password_hash or "")


def test_unregistered_sender_cannot_create(harness: Harness) -> None:
    reply = harness.exchange("stranger@example.net", "CREATE ?demo secret\nVERSION\n")
    body = read(reply)
    assert "Only registered players may create a game" in body
    assert "Diplomacy email judge" not in body  # the rest of the mail was not read
    assert "[Error Flag]" in reply["Subject"]
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.games.by_name("demo") is None


def test_a_taken_name_is_refused_and_the_game_unchanged(harness: Harness) -> None:
    register(harness, "alice@example.net")
    register(harness, "bob@example.net")
    harness.exchange("alice@example.net", "CREATE ?demo secret\n")
    body = read(harness.exchange("bob@example.net", "CREATE ?Demo other\n"))
    assert "A game called 'demo' already exists. To join it: SIGNON ?demo password." in body
    assert snapshot(harness, "demo").seats == [("alice@example.net", None, "waiting")]


def test_unknown_option_is_refused_with_the_known_ones(harness: Harness) -> None:
    register(harness, "alice@example.net")
    body = read(harness.exchange("alice@example.net", "CREATE ?demo secret nosuchmap\n"))
    variants = ", ".join(offered_variants())
    assert f"Unknown variant or option: nosuchmap. Variants: {variants}. Options: gunboat, blind." in body
    assert "chaos" in variants and "standard" in variants and "machiavelli" in variants
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.games.by_name("demo") is None


@pytest.mark.engine_sql
def test_low_dedication_cannot_create(harness: Harness) -> None:
    register(harness, "alice@example.net")
    with harness.db.unit_of_work() as uow:
        person = uow.people.by_address("alice@example.net")
        assert person is not None
        uow.people.add_to_record(person, dedication=-11)
    body = read(harness.exchange("alice@example.net", "CREATE ?demo secret\n"))
    assert "Creating a game needs a dedication of at least -10; yours is -11." in body
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.games.by_name("demo") is None


def test_create_replies_in_french_to_a_french_player(harness: Harness) -> None:
    register(harness, "zoe@example.fr", language="fr")
    body = read(harness.exchange("zoe@example.fr", "CREATE ?partie secret\n"))
    assert "La partie 'partie' (Standard) a été créée et vous y êtes inscrit." in body
    assert "Joueurs qu'il faut encore avant que la partie puisse commencer : 6." in body
