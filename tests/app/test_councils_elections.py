"""Election phases of council games (issue 17, seed 003 rule 4): opening, ballots, counting, mail.

Who may vote: seated, non-accused members of the council holding the
election; an abstaining member may influence another country's election.
What is revealed: each ballot only to its voter; results (home counts, the
winner, whether influence decided) to the council's active members and the
masters, never to other councils, never who influenced.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from judge.app.councils import elections
from judge.app.phases.guarded_scheduler import process_due
from judge.app.phases.planning import plan
from judge.app.phases.processing import process_phase
from judge.core.phase import Phase
from judge.db.enums import SeatStatus
from tests.app.conftest import Harness
from tests.app.councils_b_helpers import ambassador, council_game, member_ids
from tests.app.orders_helpers import MASTER, OBSERVER, StartedGame, address, plain


def _open(harness: Harness, game: StartedGame, kind: str = "regular", year: int = 1901) -> None:
    with harness.db.unit_of_work() as uow:
        row = game.game(uow)
        elections.open_elections(uow, harness.services, row, harness.clock.now(), year=year, kind=kind)
        plan(uow, harness.services, row, harness.clock.now())  # as processing does after opening


def _vote(harness: Harness, game: StartedGame, voter: str, power: str, candidate: str | None, **kw: str) -> elections.Cast:
    with harness.db.unit_of_work() as uow:
        row = game.game(uow)
        member = uow.councils.member_of_person(row, uow.people.by_address(voter))
        assert member is not None
        cast = elections.cast(uow, harness.services, row, member, candidate, harness.clock.now(), **kw)
        return cast


def _general_of(harness: Harness, game: StartedGame, power: str) -> str | None:
    with harness.db.unit_of_work(readonly=True) as uow:
        row = game.game(uow)
        general = uow.councils.general(row, power)
        return None if general is None else uow.people.get(general.person_id).primary_address


def _elections(harness: Harness, game: StartedGame, power: str) -> list[tuple[str, str, str | None]]:
    with harness.db.unit_of_work(readonly=True) as uow:
        return [(e.kind, e.state, e.outcome) for e in uow.councils.elections(game.game(uow), power=power)]


def test_opening_announces_to_each_council_and_moves_the_phase_back(harness: Harness) -> None:
    game = council_game(harness)
    with harness.db.unit_of_work(readonly=True) as uow:
        row = game.game(uow)
        span = row.deadline_at - row.earliest_at
    harness.new_mail()
    _open(harness, game)
    with harness.db.unit_of_work(readonly=True) as uow:
        row = game.game(uow)
        # the phase starts when the election closes and keeps its whole time for the new General
        assert row.earliest_at == harness.clock.now() + timedelta(hours=24)
        assert row.deadline_at - row.earliest_at == span
        assert row.next_due_at is not None and row.next_due_at <= row.earliest_at
        assert len(uow.councils.open_elections(row)) == 7
    mail = harness.new_mail()
    france = [m for m in mail if str(m["To"]) in (address("FRANCE"), ambassador("FRANCE", 1), ambassador("FRANCE", 2))]
    assert len(france) == 3
    body = plain(france[0])
    assert "VOTE" in body and "Amb1France" in body and "Amb1England" not in body
    assert any(str(m["To"]) == MASTER for m in mail)
    assert not any(str(m["To"]) == OBSERVER for m in mail)


def test_election_hours_come_from_the_council_settings(harness: Harness) -> None:
    game = council_game(harness, election_hours=6)
    _open(harness, game)
    with harness.db.unit_of_work(readonly=True) as uow:
        (first, *_) = uow.councils.open_elections(game.game(uow))
        assert first.deadline_at == harness.clock.now() + timedelta(hours=6)


def test_a_majority_elects_and_the_roles_change(harness: Harness) -> None:
    game = council_game(harness)
    ids = member_ids(harness, game, "FRANCE")
    _open(harness, game)
    harness.new_mail()
    _vote(harness, game, address("FRANCE"), "FRANCE", str(ids[ambassador("FRANCE", 1)]))
    _vote(harness, game, ambassador("FRANCE", 2), "FRANCE", "Amb1France")
    cast = _vote(harness, game, ambassador("FRANCE", 1), "FRANCE", None)
    assert cast.closed
    assert _general_of(harness, game, "FRANCE") == ambassador("FRANCE", 1)
    with harness.db.unit_of_work(readonly=True) as uow:
        ranks = {m.id: (m.role, m.rank) for m in uow.councils.members(game.game(uow), power="FRANCE")}
    assert ranks[ids[address("FRANCE")]] == ("ambassador", 1)
    assert _elections(harness, game, "FRANCE") == [("regular", "closed", "elected")]
    results = [m for m in harness.new_mail() if "Election result" in str(m["Subject"])]
    assert sorted(str(m["To"]) for m in results) == sorted(
        [address("FRANCE"), ambassador("FRANCE", 1), ambassador("FRANCE", 2), MASTER]
    )
    assert "Amb1France (" in plain(results[0]) and "2 vote(s)" in plain(results[0])


def test_a_tie_waits_for_the_deadline_and_re_elects_the_outgoing_general(harness: Harness) -> None:
    game = council_game(harness)
    ids = member_ids(harness, game, "FRANCE")
    _open(harness, game)
    for voter in ids:
        assert not _vote(harness, game, voter, "FRANCE", str(ids[voter])).closed  # each for himself
    harness.clock.advance(hours=24)
    process_due(harness.services)
    assert _elections(harness, game, "FRANCE") == [("regular", "closed", "re-elected-tie")]
    assert _general_of(harness, game, "FRANCE") == address("FRANCE")


def test_an_influence_vote_breaks_a_tie_anonymously(harness: Harness) -> None:
    game = council_game(harness)
    ids = member_ids(harness, game, "FRANCE")
    _open(harness, game)
    for voter in ids:
        _vote(harness, game, voter, "FRANCE", str(ids[voter]))
    cast = _vote(harness, game, ambassador("ENGLAND", 2), "ENGLAND", None,
                 influence_power="FRANCE", influence_word=str(ids[ambassador("FRANCE", 2)]))  # fmt: skip
    assert cast.influence is not None
    harness.new_mail()
    harness.clock.advance(hours=24)
    process_due(harness.services)
    assert _general_of(harness, game, "FRANCE") == ambassador("FRANCE", 2)
    results = [(str(m["To"]), plain(m)) for m in harness.new_mail() if "Election result" in str(m["Subject"])]
    about_france = [(to, body) for to, body in results if "France's" in body]
    assert sorted(to for to, _body in about_france) == sorted(
        [address("FRANCE"), ambassador("FRANCE", 1), ambassador("FRANCE", 2), MASTER])
    for _to, body in about_france:  # the council and the master learn that influence decided, not whose
        assert "influence" in body
        assert "Amb2England" not in body and "England" not in body


def test_influence_needs_an_abstention_at_home(harness: Harness) -> None:
    game = council_game(harness)
    ids = member_ids(harness, game, "FRANCE")
    _open(harness, game)
    with pytest.raises(elections.BallotRefused) as refused:
        _vote(harness, game, ambassador("ENGLAND", 2), "ENGLAND", "Amb1England",
              influence_power="FRANCE", influence_word=str(ids[ambassador("FRANCE", 2)]))  # fmt: skip
    assert "abstain" in refused.value.reason
    with pytest.raises(elections.BallotRefused):
        _vote(harness, game, ambassador("ENGLAND", 2), "ENGLAND", None,
              influence_power="ENGLAND", influence_word="Amb1England")  # fmt: skip


def test_a_member_cannot_vote_for_someone_of_another_council(harness: Harness) -> None:
    game = council_game(harness)
    _open(harness, game)
    with pytest.raises(elections.BallotRefused):
        _vote(harness, game, address("FRANCE"), "FRANCE", "Amb1England")


def test_an_accused_member_has_no_vote(harness: Harness) -> None:
    game = council_game(harness)
    _open(harness, game)
    with harness.db.unit_of_work() as uow:
        row = game.game(uow)
        accused = uow.councils.member_of_person(row, uow.people.by_address(ambassador("FRANCE", 2)))
        assert accused is not None
        uow.councils.set_status(accused, "accused")
    with pytest.raises(elections.BallotRefused) as refused:
        _vote(harness, game, ambassador("FRANCE", 2), "FRANCE", None)
    assert "no vote" in refused.value.reason


def test_a_tie_at_the_first_election_leaves_civil_disorder_until_the_next(harness: Harness) -> None:
    game = council_game(harness)
    with harness.db.unit_of_work() as uow:  # before the first election nobody is General
        for member in uow.councils.members(game.game(uow), power="FRANCE"):
            uow.councils.set_role(member, "ambassador", member.rank + 1)
    ids = member_ids(harness, game, "FRANCE")
    _open(harness, game, kind="first")
    for voter in ids:
        _vote(harness, game, voter, "FRANCE", str(ids[voter]))
    harness.clock.advance(hours=24)
    process_due(harness.services)
    assert _elections(harness, game, "FRANCE")[0] == ("first", "closed", "civil-disorder-tie")
    assert _general_of(harness, game, "FRANCE") is None
    with harness.db.unit_of_work(readonly=True) as uow:
        seat = next(s for s in game.game(uow).seats if s.power == "FRANCE")
        assert seat.status is SeatStatus.CIVIL_DISORDER
    # the next election with a winner ends the civil disorder
    _open(harness, game, year=1902)
    for voter in ids:
        _vote(harness, game, voter, "FRANCE", str(ids[address("FRANCE")]))
    with harness.db.unit_of_work(readonly=True) as uow:
        seat = next(s for s in game.game(uow).seats if s.power == "FRANCE")
        assert seat.status is SeatStatus.PLAYING
    assert _general_of(harness, game, "FRANCE") == address("FRANCE")


def test_leaving_the_fall_opens_the_yearly_election(harness: Harness) -> None:
    game = council_game(harness, phase="F1901M")
    with harness.db.unit_of_work() as uow:
        row = game.game(uow)
        process_phase(uow, harness.services, row, harness.clock.now(), reason="test")
        assert Phase.parse(row.current_phase or "").year == 1902 or (row.current_phase or "").startswith("W")
        opened = uow.councils.open_elections(row)
        assert {e.power for e in opened} == {"AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"}
        assert {(e.year, e.kind) for e in opened} == {(1901, "regular")}
        assert row.next_due_at is not None and row.next_due_at <= opened[0].deadline_at


def test_spring_opens_no_election(harness: Harness) -> None:
    game = council_game(harness)
    with harness.db.unit_of_work() as uow:
        row = game.game(uow)
        process_phase(uow, harness.services, row, harness.clock.now(), reason="test")
        assert row.current_phase == "F1901M"
        assert uow.councils.open_elections(row) == []


def test_yearly_point() -> None:
    p = Phase.parse
    assert elections.is_yearly_election_point(p("F1901M"), p("W1901A"))
    assert elections.is_yearly_election_point(p("F1901R"), p("W1901A"))
    assert elections.is_yearly_election_point(p("F1901M"), p("S1902M"))
    assert not elections.is_yearly_election_point(p("F1901M"), p("F1901R"))
    assert not elections.is_yearly_election_point(p("S1901M"), p("F1901M"))
    # Leaving the adjustments is a point too (the year turned); open_elections opens none twice for
    # one year and kind, so the fall's elections are not opened again there.
    assert elections.is_yearly_election_point(p("W1901A"), p("S1902M"))
