"""Elections by mail in a council game formed by 21 players (issue 17, seed 003 rule 4).

Who may VOTE: council members signed on with their own password (masters,
players of other games and non-council games are refused). What it
reveals: the reply confirms the voter's own ballot; the result goes to the
council's members and the masters only, never to another council.
"""

from __future__ import annotations

import pytest

from judge.app.phases.guarded_scheduler import process_due
from tests.app.conftest import Harness, text
from tests.app.councils_helpers import MASTER, ambassador, form_council_game, general, seated

pytestmark = pytest.mark.engine_blind  # mail routing and wording: SQLite only, but the tests marked engine_sql


def _member_id(harness: Harness, address: str) -> int:
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        member = uow.councils.member_of_person(game, uow.people.by_address(address))
        assert member is not None
        return member.id


def _vote(harness: Harness, who, body: str) -> str:  # type: ignore[no-untyped-def]
    return text(harness.exchange(who.address, f"{who.signon}\n{body}\n"))


def test_the_start_opens_the_first_election_and_tells_each_member(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    notices = [m for m in harness.outbox() if str(m["Subject"]).endswith(" Election")]
    told = {str(m["To"]) for m in notices}
    assert {m.address for m in members} <= told and MASTER in told
    france = general(members, "FRANCE")
    body = next(text(m) for m in notices if str(m["To"]) == france.address)
    assert "VOTE" in body and str(_member_id(harness, france.address)) in body
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        assert {(e.kind, e.state) for e in uow.councils.elections(game)} == {("first", "open")}


@pytest.mark.engine_sql
def test_a_council_elects_by_mail_and_only_it_and_the_master_learn_the_result(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    france = [m for m in members if m.power == "FRANCE"]
    winner = ambassador(members, "FRANCE", 2)
    winner_id = _member_id(harness, winner.address)
    reply = _vote(harness, france[0], f"VOTE {winner_id}")
    assert "Recorded: your vote for" in reply
    _vote(harness, france[1], f"VOTE {winner_id}")
    harness.new_mail()
    last = _vote(harness, france[2], "VOTE ABSTAIN")
    assert "Every member has voted" in last
    results = [m for m in harness.others if "Election result" in str(m["Subject"])]
    assert sorted(str(m["To"]) for m in results) == sorted([*(m.address for m in france), MASTER])
    assert "is elected General-in-chief" in text(results[0])
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        assert uow.councils.general(game, "FRANCE").id == winner_id  # type: ignore[union-attr]


def test_the_master_and_strangers_have_no_ballot(harness: Harness) -> None:
    form_council_game(harness)
    master = text(harness.exchange(MASTER, "SIGNON Mdemo masterpw\nVOTE ABSTAIN\n"))
    assert "only a council member" in master
    nobody = text(harness.exchange("stranger@example.net", "VOTE ABSTAIN\n"))
    assert "sign on to your council game first" in nobody


def test_a_vote_for_a_member_of_another_council_is_refused(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    england = general(members, "ENGLAND")
    reply = _vote(harness, general(members, "FRANCE"), f"VOTE {_member_id(harness, england.address)}")
    assert "is not a member of your council who may be elected" in reply


def test_an_influence_vote_by_mail_and_the_tie_it_breaks(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    france = [m for m in members if m.power == "FRANCE"]
    for member in france:  # each for himself: a tie
        _vote(harness, member, f"VOTE {_member_id(harness, member.address)}")
    target = france[1]
    spy_free = next(m for m in members if m.power == "ENGLAND" and m.role == "ambassador")
    reply = _vote(harness, spy_free, f"VOTE ABSTAIN F {_member_id(harness, target.address)}")
    assert "anonymous influence vote" in reply
    harness.new_mail()
    harness.clock.advance(hours=25)
    process_due(harness.services)
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        assert uow.councils.general(game, "FRANCE").id == _member_id(harness, target.address)  # type: ignore[union-attr]
    france_results = [text(m) for m in harness.new_mail() if "Election result" in str(m["Subject"])
                      and "France's" in text(m)]  # fmt: skip
    assert france_results and all("influence" in body and spy_free.address not in body for body in france_results)


def test_replies_in_french(harness: Harness) -> None:
    form_council_game(harness, languages={n: "fr" for n in range(21)})
    members = seated(harness)
    reply = _vote(harness, general(members, "FRANCE"), "VOTE ABSTAIN")
    assert "vous vous abstenez" in reply


def test_no_vote_without_an_open_election(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    france = [m for m in members if m.power == "FRANCE"]
    for member in france:
        _vote(harness, member, f"VOTE {_member_id(harness, france[0].address)}")
    assert "holds no election now" in _vote(harness, france[0], "VOTE ABSTAIN")
