"""SET COMMENT, VARIANT (and the adjudicator's rule options), invitation lists, APPROVED, BN/MN/EP."""

from __future__ import annotations

import pytest

from judge.app.game_state.game_rules import game_rules
from tests.app.conftest import Harness
from tests.app.masters_helpers import as_master, as_power, moderated_game, read, state_of

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def test_brief_comment_full_comment_and_their_limits(harness: Harness) -> None:
    moderated_game(harness)
    reply = as_master(harness, "SET COMMENT Friendly game, no rush\n")
    assert "The comment of game 'modo' is set." in read(reply)
    assert state_of(harness).columns["comment"] == "Friendly game, no rush"
    body = read(next(m for m in harness.others if "Parameter Change" in m["Subject"]))
    assert "Comment: - -> 'Friendly game, no rush'" in body
    reply = as_master(harness, "SET COMMENT " + "x" * 61 + "\n")
    assert "The comment is 61 characters long; at most 60 fit." in read(reply)
    assert state_of(harness).columns["comment"] == "Friendly game, no rush"
    as_master(harness, "SET COMMENT BEGIN\nHouse rules:\n  be nice.\nSIGNOFF\nSET NMR\n")
    columns = state_of(harness).columns
    assert columns["comment_full"] == "House rules:\n  be nice."
    assert columns["nmr"] is False  # the comment runs to SIGNOFF, which ends the mail
    reply = as_master(harness, "SET COMMENT\n")
    assert "The comment of game 'modo' is cleared." in read(reply)
    assert state_of(harness).columns["comment"] == ""


def test_rule_options_before_the_start_reach_the_adjudicator(harness: Harness) -> None:
    moderated_game(harness, players=1)
    reply = as_master(harness, "SET VARIANT descartes\nSET VARIANT missing_coast=first\n")
    body = read(reply)
    assert "Options: -. Rules: paradox=descartes." in body
    assert "Options: -. Rules: missing_coast=first, paradox=descartes." in body
    with harness.db.unit_of_work(readonly=True) as uow:
        rules = game_rules(uow.games.require("modo"))
    assert (rules.paradox, rules.missing_coast, rules.duplicate_orders) == ("descartes", "first", "last")
    as_master(harness, "SET NOT VARIANT descartes\n")
    assert state_of(harness).columns["extra_settings"]["rules"] == {"missing_coast": "first"}
    announcement = read(next(m for m in harness.others if "Parameter Change" in m["Subject"]))
    assert "Rules: missing_coast=first, paradox=descartes -> missing_coast=first" in announcement


def test_bad_rule_values_and_unknown_words_are_refused(harness: Harness) -> None:
    moderated_game(harness, players=1)
    before = state_of(harness).columns
    body = read(as_master(harness, "SET VARIANT paradox=chaos\nSET VARIANT frobnicate\nSET VARIANT colour=red\n"))
    assert "paradox=chaos is not a rule option this judge has; choose from szykman, descartes." in body
    assert "Unknown variant or option: frobnicate." in body
    assert "colour=red is not a rule option this judge has; choose from adjacent_convoy," in body
    assert state_of(harness).columns == before


def test_variant_and_game_options(harness: Harness) -> None:
    moderated_game(harness, players=1)
    body = read(as_master(harness, "SET VARIANT gunboat\n"))
    assert "Options: gunboat. Rules: -." in body
    assert state_of(harness).columns["rule_options"] == ["gunboat"]
    as_master(harness, "SET NOT VARIANT gunboat\n")
    assert state_of(harness).columns["rule_options"] == []
    body = read(as_master(harness, "SET VARIANT standard gunboat descartes\n"))
    assert "Game 'modo' will be played on the Standard map." in body
    columns = state_of(harness).columns
    assert (columns["variant"], columns["rule_options"], columns["extra_settings"]["rules"]) == (
        "standard", ["gunboat"], {"paradox": "descartes"},
    )


def test_variant_and_rules_are_fixed_once_the_game_started(harness: Harness) -> None:
    moderated_game(harness)
    before = state_of(harness).columns
    body = read(as_master(harness, "SET VARIANT descartes\n"))
    assert "Variant can only be changed before the game starts." in body
    assert state_of(harness).columns == before


def test_invitation_lists(harness: Harness) -> None:
    moderated_game(harness, players=1)
    body = read(as_master(harness, "SET ALLOW PLAYER Friend@Example.net\nSET DENY PLAYER foe@example.net\n"))
    assert "Players allowed in game 'modo': friend@example.net." in body
    assert "Players denied from game 'modo': foe@example.net." in body
    columns = state_of(harness).columns
    assert (columns["allowed_players"], columns["denied_players"]) == (["friend@example.net"], ["foe@example.net"])
    body = read(as_master(harness, "SET ALLOW PLAYER -friend@example.net\nSET DENY PLAYER -nobody@example.net\n"))
    assert "Players allowed in game 'modo': -." in body
    assert "nobody@example.net is not on that list." in body
    body = read(as_master(harness, "SET ALLOW PLAYER not-an-address\n"))
    assert "This is not a mail address: not-an-address" in body
    assert state_of(harness).columns["allowed_players"] == []


def test_approved_powers_and_identifiers_are_the_masters(harness: Harness) -> None:
    addresses = moderated_game(harness)
    body = read(as_master(harness, "SET APPROVED FG\nSET NOT APPROVED G\nSET APPROVED X\nSET BN 1999AB\n"))
    assert "Approved powers: France, Germany." in body
    assert "Approved powers: France." in body
    assert "Unknown power letter -> X" in body  # the reader checks the letters against the map
    assert "Boardman number: 1999AB (was -)." in body
    extra = state_of(harness).columns["extra_settings"]
    assert (extra["approved_powers"], extra["boardman_number"]) == (["FRANCE"], "1999AB")
    power = next(p for a, p, _s in state_of(harness).seats if a == addresses[0]) or ""
    body = read(harness.exchange(addresses[0], f"SIGNON {power[0]}modo pw0\nSET MN 12\n"))
    assert "Only a master of game 'modo' may change that (Miller number)." in body
    assert "miller_number" not in state_of(harness).columns["extra_settings"]


def test_set_rule_and_set_descartes_are_rule_options_too(harness: Harness) -> None:
    moderated_game(harness, players=1)
    body = read(as_master(harness, "SET DESCARTES\nSET RULE duplicate_orders = hold\n"))
    assert "Options: -. Rules: paradox=descartes." in body
    assert "Options: -. Rules: duplicate_orders=hold, paradox=descartes." in body
    assert state_of(harness).columns["extra_settings"]["rules"] == {"paradox": "descartes", "duplicate_orders": "hold"}
    body = read(as_master(harness, "SET RULE paradox=szykman\n"))
    assert "Rules: duplicate_orders=hold." in body  # back to the default: not kept


def test_set_rule_is_refused_after_the_start_and_to_players_of_moderated_games(harness: Harness) -> None:
    moderated_game(harness)
    body = read(as_master(harness, "SET DESCARTES\n"))
    assert "Rules can only be changed before the game starts." in body
    body = read(as_power(harness, "FRANCE", "SET DESCARTES\n"))
    assert "Game 'modo' is moderated: only the master may change that (Rules)." in body
    assert "rules" not in state_of(harness).columns["extra_settings"]
