"""The council tables and repository (issue 17): members, passwords, elections, accusations."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.exc import IntegrityError

from judge.db import Database
from judge.db.repositories.councils import councils_enabled
from judge.db.repositories.people import Registration

NOW = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


def _game_and_people(database: Database) -> None:
    with database.unit_of_work() as uow:
        uow.games.create("council", NOW)
        for n in range(3):
            uow.people.register(Registration(name=f"P{n}"), f"p{n}@example.net", NOW)


def test_settings_are_read_from_the_game_without_a_table(database: Database) -> None:
    _game_and_people(database)
    with database.unit_of_work() as uow:
        game = uow.games.require("council")
        assert uow.councils.settings(game) is None
        assert not councils_enabled(game)
        stored = uow.councils.configure(game, size=4)
        assert stored["size"] == 4 and stored["election_hours"] == 24
    with database.unit_of_work() as uow:
        game = uow.games.require("council")
        assert uow.councils.settings(game) == {**stored}
        uow.councils.disable(game)
        assert not councils_enabled(game)


def test_members_passwords_elections_and_votes(database: Database) -> None:
    _game_and_people(database)
    with database.unit_of_work() as uow:
        game = uow.games.require("council")
        people = [uow.people.by_address(f"p{n}@example.net") for n in range(3)]
        general = uow.councils.add_member(
            game, "FRANCE", people[0], NOW, role="general", rank=0, password="sesame"
        )
        spy = uow.councils.add_member(
            game, "FRANCE", people[1], NOW, rank=1, true_power="ENGLAND", password="x"
        )
        uow.councils.add_member(game, "FRANCE", people[2], NOW, rank=2, password="y")
        assert general.password_hash and "sesame" not in general.password_hash
        assert uow.councils.check_password(general, "sesame")
        assert not uow.councils.check_password(general, "x")
        assert uow.councils.general(game, "FRANCE") is general
        assert [m.rank for m in uow.councils.members(game, power="FRANCE")] == [0, 1, 2]
        assert uow.councils.spies(game) == [spy]
        assert uow.councils.member_of_person(game, people[1]) is spy
        election = uow.councils.open_election(
            game, "FRANCE", 1901, "first", NOW, NOW + timedelta(hours=24)
        )
        uow.councils.cast_vote(election, spy, general, NOW)
        uow.councils.cast_vote(election, spy, None, NOW)  # replaces, never duplicates
        assert [v.candidate_member_id for v in uow.councils.votes(election)] == [None]
        uow.councils.close_election(election, NOW, outcome="elected", winner=general)
        assert uow.councils.open_elections(game) == []
        accusation = uow.councils.accuse(game, "FRANCE", spy, [general], NOW)
        assert accusation.accuser_member_ids == [general.id]


def test_one_ballot_per_voter_and_election(database: Database) -> None:
    from judge.db.models import CouncilVote

    _game_and_people(database)
    with pytest.raises(IntegrityError), database.unit_of_work() as uow:
        game = uow.games.require("council")
        member = uow.councils.add_member(game, "FRANCE", None, NOW)
        election = uow.councils.open_election(game, "FRANCE", 1901, "first", NOW, NOW)
        for _ in range(2):
            uow.session.add(
                CouncilVote(election_id=election.id, voter_member_id=member.id, cast_at=NOW)
            )
        uow.session.flush()
