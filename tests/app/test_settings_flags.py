"""SET on/off options: who may set them, the audit trail, the Parameter Change announcement."""

from __future__ import annotations

import pytest

from judge.db.enums import DrawVoteKind
from tests.app.conftest import Harness, one_text
from tests.app.games_helpers import form_game, register
from tests.app.masters_helpers import MASTER, as_master, moderated_game, read, sent_to, state_of

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def test_master_sets_nmr_and_the_game_is_told_with_the_parameter_block(harness: Harness) -> None:
    addresses = moderated_game(harness)
    reply = as_master(harness, "SET NMR\n")
    assert "Missed orders: NMR (was NoNMR)." in read(reply)
    state = state_of(harness)
    assert state.columns["nmr"] is True
    assert ("nmr", False, True, MASTER) in state.settings_audit
    announcements = [one_text([m for m in harness.others if m["Subject"] == "XPY:modo - S1901M Parameter Change"])]
    assert set(str(announcements[0]["To"]).split(", ")) == set(addresses)  # not the master: he has the reply
    body = read(announcements[0])
    assert body.startswith(
        "The master has changed the settings of game 'modo':\n\n  Missed orders: NoNMR -> NMR\n"
    )
    assert "Centres to win: 18" in body  # the game's parameters follow


def test_several_sets_in_one_mail_make_one_announcement(harness: Harness) -> None:
    moderated_game(harness)
    as_master(harness, "SET NMR, GREY\nSET NO DIAS\nSET NOLIST\n")
    announcements = [one_text([m for m in harness.others if "Parameter Change" in m["Subject"]])]
    body = read(announcements[0])
    for line in ("Missed orders: NoNMR -> NMR", "Press:         White -> Grey", "Draws:         DIAS -> NoDIAS",
                 "Listing:       Listed -> Unlisted"):
        assert line in body, body
    state = state_of(harness)
    assert (state.columns["press_mode"], state.columns["dias"], state.columns["listed"]) == ("grey", False, False)


def test_a_player_of_a_moderated_game_is_refused_and_nothing_changes(harness: Harness) -> None:
    addresses = moderated_game(harness)
    before = state_of(harness)
    power = next(p for a, p, _s in before.seats if a == addresses[0]) or ""
    reply = harness.exchange(addresses[0], f"SIGNON {power[0]}modo pw0\nSET NMR\nSET QUIET\n")
    body = read(reply)
    assert "[Error Flag]" in reply["Subject"]
    assert "Game 'modo' is moderated: only the master may change that (Missed orders)." in body
    assert "Game 'modo' is moderated: only the master may change that (Quiet)." in body
    after = state_of(harness)
    assert after.columns == before.columns and after.settings_audit == before.settings_audit
    assert not [m for m in harness.others if "Parameter Change" in m["Subject"]]


def test_any_player_of_an_unmoderated_game_may_set_and_is_named_unless_noshow(harness: Harness) -> None:
    form_game(harness, "open", players=7)
    seats = state_of(harness, "open").seats
    france = next(a for a, p, _s in seats if p == "FRANCE")
    number = int((france or "p0@").split("@")[0][1:])
    harness.exchange(france or "", f"SIGNON Fopen pw{number}\nSET NMR\n")
    body = read(next(m for m in harness.others if "Parameter Change" in m["Subject"]))
    assert body.startswith("France has changed the settings of game 'open':")
    harness.exchange(france or "", f"SIGNON Fopen pw{number}\nSET NOSHOW\nSET NO NMR\n")
    body = read(next(m for m in harness.others if "Parameter Change" in m["Subject"]))
    assert body.startswith("The settings of game 'open' have been changed:")
    assert state_of(harness, "open").columns["show_setter"] is False


def test_master_only_flags_are_refused_to_players_of_unmoderated_games(harness: Harness) -> None:
    form_game(harness, "open", players=7)
    seats = state_of(harness, "open").seats
    france = next(a for a, p, _s in seats if p == "FRANCE") or ""
    number = int(france.split("@")[0][1:])
    reply = harness.exchange(france, f"SIGNON Fopen pw{number}\nSET UNRATED\n")
    assert "Only a master of game 'open' may change that (Rated)." in read(reply)
    assert state_of(harness, "open").columns["rated"] is True


def test_observers_may_not_change_the_game(harness: Harness) -> None:
    form_game(harness, "open", players=7)
    reply = harness.exchange("watcher@example.net", "OBSERVE open opw\nSET NMR\n")
    assert "Observers cannot change the game's settings." in read(reply)
    assert state_of(harness, "open").columns["nmr"] is False


def test_moderated_needs_a_master(harness: Harness) -> None:
    register(harness, "solo@example.net")
    reply = harness.exchange("solo@example.net", "CREATE ?solo pw\nSET MODERATED\n")
    assert "Only a master of game 'solo' may change that (Moderated)." in read(reply)
    moderated_game(harness)
    reply = as_master(harness, "SET UNMODERATED\nSET MODERATED\n")
    body = read(reply)
    assert "Moderated: Unmoderated (was Moderated)." in body
    assert "Moderated: Moderated (was Unmoderated)." in body


def test_a_setting_already_so_is_not_recorded_or_announced(harness: Harness) -> None:
    moderated_game(harness)
    before = state_of(harness).settings_audit
    reply = as_master(harness, "SET DIAS\n")
    assert "Draws: already DIAS." in read(reply)
    assert state_of(harness).settings_audit == before
    assert not [m for m in harness.others if "Parameter Change" in m["Subject"]]


def test_switching_dias_clears_the_draw_votes(harness: Harness) -> None:
    moderated_game(harness)
    with harness.db.unit_of_work() as uow:
        game = uow.games.require("modo")
        seat = next(s for s in game.seats if s.power == "FRANCE")
        uow.press.vote(game, seat, DrawVoteKind.DRAW, harness.clock.now())
    as_master(harness, "SET NO DIAS\n")
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.press.votes(uow.games.require("modo")) == []


def test_rule_options_of_other_judges_are_refused_with_the_reason(harness: Harness) -> None:
    moderated_game(harness)
    reply = as_master(harness, "SET STRICT CONVOY\nSET AUTO CREATE\n")
    body = read(reply)
    assert "This judge does not play the STRICT CONVOY option, so it cannot be set." in body
    assert "This judge does not play the AUTO CREATE option, so it cannot be set." in body


def test_broadcast_is_the_observers_own_and_not_announced(harness: Harness) -> None:
    moderated_game(harness)
    reply = harness.exchange("watcher@example.net", "OBSERVE modo opw\nSET NO BROADCAST\n")
    assert "You will no longer get the broadcasts of game 'modo'." in read(reply)
    with harness.db.unit_of_work(readonly=True) as uow:
        observer = uow.games.require("modo").observers[0]
        assert observer.receives_broadcasts is False
    assert not [m for m in harness.others if "Parameter Change" in m["Subject"]]
    reply = as_master(harness, "SET NO BROADCAST\n")
    assert state_of(harness).columns["extra_settings"]["no_broadcast"] == [MASTER]


def test_a_french_reader_gets_the_announcement_in_french(harness: Harness) -> None:
    addresses = moderated_game(harness)
    with harness.db.unit_of_work() as uow:
        person = uow.people.by_address(addresses[0])
        assert person is not None
        person.language = "fr"
    as_master(harness, "SET NMR\n")
    french = sent_to([m for m in harness.others if "Parameter Change" in m["Subject"]], addresses[0])
    assert len(french) == 1
    assert read(french[0]).startswith(
        "Le maître a modifié les paramètres de la partie 'modo' :\n\n  Ordres manquants: NoNMR -> NMR\n"
    )
