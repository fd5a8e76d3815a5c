"""The seed's rules to the letter (issue 26, seed 003): accusation, vetoes, delays, releases, elections.

Each test here failed on the code before issue 26. Who may: council members
signed on with their own password (ACCUSE, VOTE, READY), the master
(COUNCIL ...). What is revealed: each test says who is told.
"""

from __future__ import annotations

from datetime import UTC

from judge.app.phases.processing import process_phase
from judge.timekeeping.dates import tell_date
from tests.app.conftest import Harness
from tests.app.councils_b_helpers import ambassador, council_game, member_ids
from tests.app.orders_helpers import LETTER, MASTER, StartedGame, address, plain
from tests.app.test_councils_treason_replacements import _council_game_at, _make_spy, _without


def _as(harness: Harness, power: str, rank: int, body: str) -> str:
    """Mail ``body`` as ``power``'s member of ``rank`` (0: the General); the reply."""
    sender = address(power) if rank == 0 else ambassador(power, rank)
    password = f"g{power}" if rank == 0 else f"a{rank}{power}"
    return plain(harness.exchange(sender, f"SIGNON {LETTER[power]}demo {password}\n{body}\n"))


def _status(harness: Harness, game: StartedGame, member: int) -> str:
    with harness.db.unit_of_work(readonly=True) as uow:
        row = uow.councils.member(member)
        assert row is not None
        return row.status


# ------------------------------------------------------------------ rule 6b: the accusation


def test_the_first_ambassador_is_accused_by_the_general_and_the_second(harness: Harness) -> None:
    game = council_game(harness)
    first = member_ids(harness, game, "FRANCE")[ambassador("FRANCE", 1)]
    assert "takes effect when a second member" in _as(harness, "FRANCE", 0, f"ACCUSE {first}")
    assert "now cut off" in _as(harness, "FRANCE", 2, f"ACCUSE {first}")
    assert _status(harness, game, first) == "accused"


def test_a_replacement_ambassador_can_be_accused(harness: Harness) -> None:
    game = council_game(harness)
    with harness.db.unit_of_work() as uow:  # a replacement took the place of the second Ambassador
        row = game.game(uow)
        second = next(m for m in uow.councils.members(row, power="FRANCE") if m.rank == 2)
        second.rank = 3
    ids = member_ids(harness, game, "FRANCE")
    accused = ids[ambassador("FRANCE", 2)]
    _as(harness, "FRANCE", 0, f"ACCUSE {accused}")
    assert "now cut off" in _as(harness, "FRANCE", 1, f"ACCUSE {accused}")
    assert _status(harness, game, accused) == "accused"


# ------------------------------------------------------------------ rule 7b: the veto; a General never leaves in silence


def _unmasked_spy(harness: Harness, rank: int) -> tuple[StartedGame, int]:
    """France's member of ``rank`` spies for Italy, which has just been eliminated (rule 7a)."""
    game = _council_game_at(harness, _without("ITALY", "S1901M"))  # the spring: no yearly election
    spy = _make_spy(harness, game, "FRANCE", rank, "ITALY")
    with harness.db.unit_of_work() as uow:
        process_phase(uow, harness.services, game.game(uow), harness.clock.now(), reason="test")
    harness.new_mail()
    return game, spy


def test_a_vetoed_spy_is_kept_off_the_waiting_list_and_keeps_his_seat(harness: Harness) -> None:
    game, spy = _unmasked_spy(harness, 1)
    assert "vetoes" in plain(game.master(f"COUNCIL VETO {spy}"))
    reply = plain(game.master(f"COUNCIL WAITLIST {spy}"))
    assert "vetoed" in reply and "is on the waiting list" not in reply
    assert _status(harness, game, spy) == "active"


def test_only_a_spy_whose_true_nation_fell_may_be_vetoed(harness: Harness) -> None:
    game = council_game(harness)
    loyal = member_ids(harness, game, "FRANCE")[ambassador("FRANCE", 1)]
    assert "Only a spy whose true nation fell" in plain(game.master(f"COUNCIL VETO {loyal}"))


def test_a_sitting_general_leaving_for_the_waiting_list_opens_an_election(harness: Harness) -> None:
    game, spy = _unmasked_spy(harness, 0)
    reply = plain(game.master(f"COUNCIL WAITLIST {spy}"))
    assert "is on the waiting list" in reply
    with harness.db.unit_of_work(readonly=True) as uow:
        row = game.game(uow)
        assert uow.councils.general(row, "FRANCE") is None
        election = uow.councils.open_elections(row, power="FRANCE")
        assert len(election) == 1 and election[0].kind == "early"
        ranks = sorted((m.role, m.rank) for m in uow.councils.seated(row, power="FRANCE"))
        assert ranks == [("ambassador", 1), ("ambassador", 2)]
    told = {str(m["To"]): plain(m) for m in harness.others if "has left the council" in plain(m)}
    assert set(told) == {ambassador("FRANCE", 1), ambassador("FRANCE", 2), MASTER}
    left = [m for m in harness.others if str(m["To"]) == address("FRANCE")]
    assert [plain(m) for m in left if "no longer sit on France's council" in plain(m)]
    assert not [m for m in left if "has left the council" in plain(m) or "elects" in plain(m)]


# ------------------------------------------------------------------ rules 7 and 8: a year is the same season a year later


def test_an_arrest_in_the_fall_allows_no_escape_in_the_next_spring(harness: Harness) -> None:
    game = council_game(harness, phase="F1901M")
    second = member_ids(harness, game, "FRANCE")[ambassador("FRANCE", 2)]
    _as(harness, "FRANCE", 0, f"ACCUSE {second}")
    _as(harness, "FRANCE", 1, f"ACCUSE {second}")
    with harness.db.unit_of_work() as uow:
        game.game(uow).current_phase = "S1902M"
    refused = _as(harness, "FRANCE", 2, "ESCAPE WAITLIST")
    assert "from the Movement for Fall of 1902" in refused
    assert _status(harness, game, second) == "accused"
    with harness.db.unit_of_work() as uow:
        game.game(uow).current_phase = "F1902M"
    assert "secretly joined the waiting list" in _as(harness, "FRANCE", 2, "ESCAPE WAITLIST")
    assert _status(harness, game, second) == "left"


# ------------------------------------------------------------------ rule 4: elections close when every vote is in


def _open_yearly(harness: Harness, game: StartedGame) -> None:
    from judge.app.councils import elections
    from judge.app.phases.planning import plan

    with harness.db.unit_of_work() as uow:
        row = game.game(uow)
        elections.open_elections(uow, harness.services, row, harness.clock.now(), year=1901, kind="regular")
        plan(uow, harness.services, row, harness.clock.now())


def _times(harness: Harness, game: StartedGame) -> tuple[object, object]:
    with harness.db.unit_of_work(readonly=True) as uow:
        row = game.game(uow)
        return row.earliest_at, row.deadline_at


def test_the_phase_starts_when_the_last_election_closes_and_everyone_is_told(harness: Harness) -> None:
    from datetime import timedelta

    game = council_game(harness)
    _open_yearly(harness, game)
    held_start, held_deadline = _times(harness, game)
    assert held_start == harness.clock.now() + timedelta(hours=24)
    powers = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
    for power in powers:
        ids = member_ids(harness, game, power)
        for rank in (0, 1, 2):
            harness.clock.advance(timedelta(minutes=10))
            reply = _as(harness, power, rank, f"VOTE {ids[ambassador(power, 1)]}")
            assert "Recorded" in reply
    assert "the election is closed" in reply
    start, deadline = _times(harness, game)
    assert start == harness.clock.now()
    assert deadline == held_deadline - (held_start - harness.clock.now())  # type: ignore[operator]
    told = {str(m["To"]) for m in harness.others if "starts now" in plain(m)}
    assert told >= {address(p) for p in powers} | {MASTER}


def test_a_tie_closes_once_every_voter_of_the_game_has_voted(harness: Harness) -> None:
    game = council_game(harness)
    _open_yearly(harness, game)
    powers = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
    for power in powers:  # each member votes for himself: seven 1-1-1 ties
        ids = member_ids(harness, game, power)
        for rank in (0, 1, 2):
            me = address(power) if rank == 0 else ambassador(power, rank)
            _as(harness, power, rank, f"VOTE {ids[me]}")
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.councils.open_elections(game.game(uow)) == []
        assert uow.councils.general(game.game(uow), "FRANCE") is not None  # the tie re-elected him


def test_a_second_vote_says_it_replaced_the_first(harness: Harness) -> None:
    game = council_game(harness)
    _open_yearly(harness, game)
    ids = member_ids(harness, game, "FRANCE")
    assert "replaces your earlier" not in _as(harness, "FRANCE", 1, f"VOTE {ids[ambassador('FRANCE', 1)]}")
    assert "replaces your earlier" in _as(harness, "FRANCE", 1, f"VOTE {ids[ambassador('FRANCE', 2)]}")


def test_the_results_announce_the_deadline_the_yearly_elections_hold(harness: Harness) -> None:
    game = council_game(harness, phase="F1901M")
    harness.new_mail()
    with harness.db.unit_of_work() as uow:
        process_phase(uow, harness.services, game.game(uow), harness.clock.now(), reason="test")
    results = [m for m in harness.new_mail() if str(m["To"]) == address("FRANCE") and "Results" in str(m["Subject"])]
    with harness.db.unit_of_work(readonly=True) as uow:
        row = game.game(uow)
        assert row.current_phase == "S1902M" and uow.councils.open_elections(row)
        deadline = tell_date(row.deadline_at, UTC, str)
    assert f"The deadline for orders is {deadline}" in plain(results[0])


# ------------------------------------------------------------------ the master closes an election, shortens a wait


def test_the_master_closes_an_election_and_the_council_is_told(harness: Harness) -> None:
    game = council_game(harness)
    _open_yearly(harness, game)
    harness.new_mail()
    reply = plain(game.master("COUNCIL CLOSE F"))
    assert "Closed now" in reply and "France" in reply
    with harness.db.unit_of_work(readonly=True) as uow:
        row = game.game(uow)
        assert {e.power for e in uow.councils.open_elections(row)} == {
            "AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"}
    told = {str(m["To"]) for m in harness.others if "The master closes France's election" in plain(m)}
    assert told == {address("FRANCE"), ambassador("FRANCE", 1), ambassador("FRANCE", 2), MASTER}
    assert "Closed now" in plain(game.master("COUNCIL CLOSE"))
    start, _deadline = _times(harness, game)
    assert start == harness.clock.now()  # the last election closed: the phase starts at once
    assert "No election is open" in plain(game.master("COUNCIL CLOSE"))


def test_the_master_shortens_the_wait_and_every_player_is_told(harness: Harness) -> None:
    from datetime import timedelta

    game = council_game(harness)
    _open_yearly(harness, game)
    harness.new_mail()
    assert "now ends by" in plain(game.master("COUNCIL SHORTEN 2"))
    with harness.db.unit_of_work(readonly=True) as uow:
        row = game.game(uow)
        assert {e.deadline_at.replace(tzinfo=None) for e in uow.councils.open_elections(row)} == {
            (harness.clock.now() + timedelta(hours=2)).replace(tzinfo=None)}
    told = {str(m["To"]) for m in harness.others if "The master shortens the councils' wait" in plain(m)}
    assert {address("FRANCE"), address("ENGLAND"), MASTER} <= told
    assert "No council wait ends later" in plain(game.master("COUNCIL SHORTEN 5"))
    refused = plain(harness.exchange(address("FRANCE"), "SIGNON Fdemo gFRANCE\nCOUNCIL SHORTEN 0\n"))
    assert "now ends by" not in refused


def test_pret_is_ready_in_french(harness: Harness) -> None:
    game = council_game(harness)
    reply = _as(harness, "FRANCE", 0, "A PAR - BUR\nA MAR S A PAR - BUR\nF BRE - MAO\nPRET")
    assert "are released to the judge" in reply
    with harness.db.unit_of_work(readonly=True) as uow:
        general = uow.councils.general(game.game(uow), "FRANCE")
        assert general is not None and general.extra["released"] == "S1901M"


# ------------------------------------------------------------------ help by mail


def test_help_on_the_councils_in_english_and_french(harness: Harness) -> None:
    from tests.app.games_helpers import register

    register(harness, "anglais@example.net")
    register(harness, "francais@example.net", language="fr")
    english = plain(harness.exchange("anglais@example.net", "GET COUNCILS\n"))
    french = plain(harness.exchange("francais@example.net", "GET CONSEILS\n"))
    sent = {str(m["To"]): plain(m) for m in harness.new_mail()}
    mails = "\n".join([english, french, *sent.values()])
    for command in ("VOTE ABSTAIN", "READY HOLD", "ACCUSE WITHDRAW", "TRIBUNAL", "ESCAPE", "COUNCIL CLOSE",
                    "COUNCIL SHORTEN", "COUNCIL SEAT"):
        assert command in mails
    assert "PRÊT TENIR" in mails and "Élections (règle 4)" in mails and "Elections (rule 4)" in mails
    index = plain(harness.exchange("anglais@example.net", "GET INDEX\n")) + "".join(
        plain(m) for m in harness.new_mail())
    assert "GET COUNCILS" in index and "ACCUSE" in index and "COUNCIL" in index


def test_the_council_commands_have_french_keywords(harness: Harness) -> None:
    """ACCUSER, ACCUSER RETIRER, EVASION, CONSEIL ... do what ACCUSE, ESCAPE, COUNCIL do; the French
    help and guide list them. The replies go to their writers alone, as for the English words."""
    from pathlib import Path

    from tests.app.games_helpers import register

    register(harness, "francais@example.net", language="fr")
    french = plain(harness.exchange("francais@example.net", "GET CONSEILS\n")) + "".join(
        plain(m) for m in harness.new_mail())
    docs = Path(__file__).resolve().parents[2] / "docs" / "fr" / "conseils.md"
    guide = " ".join(docs.read_text(encoding="utf-8").split())
    for words in ("ACCUSER RETIRER", "EVASION PARTIR", "CONSEIL REMPLACER", "CONSEIL ABREGER", "VOTE ABSTENTION"):
        assert words in french, words
    for words in ("`ACCUSER RETIRER`", "`EVASION PARTIR`", "`CONSEIL`", "`ABREGER`", "`VOTE ABSTENTION`"):
        assert words in guide, words
    game = council_game(harness)
    first = member_ids(harness, game, "FRANCE")[ambassador("FRANCE", 1)]
    assert "takes effect when a second member" in _as(harness, "FRANCE", 0, f"ACCUSER {first}")
    assert "now cut off" in _as(harness, "FRANCE", 2, f"ACCUSER {first}")
    assert _status(harness, game, first) == "accused"
    assert "rehabilitated" in _as(harness, "FRANCE", 2, f"ACCUSER RETIRER {first}")
    assert _status(harness, game, first) == "active"
    assert "No General has missed a release of orders." in plain(game.master("CONSEIL ONR"))
    shorten = plain(game.master("CONSEIL ABREGER 2"))  # read as COUNCIL SHORTEN: nothing waits here
    assert "COUNCIL needs" not in shorten and "No council wait ends later" in shorten, shorten


# ------------------------------------------------------------------ rule 5: releases warned, never lost in silence


def test_a_general_is_warned_before_the_deadline_that_his_orders_are_unreleased(harness: Harness) -> None:
    from judge.app.phases.guarded_scheduler import process_due
    from tests.app.councils_helpers import elected_council_game, general
    from tests.app.test_councils_elections_release import OPENINGS, _mail

    members = elected_council_game(harness)
    for power, orders in OPENINGS.items():
        _mail(harness, general(members, power), orders if power == "FRANCE" else orders + "\nREADY")
    harness.new_mail()
    harness.clock.advance(hours=1)  # every order is in, well before the deadline
    process_due(harness.services)  # the phase would be processed early but for France's release
    warned = [m for m in harness.new_mail() if "has not been given" in plain(m)]
    assert [str(m["To"]) for m in warned] == [general(members, "FRANCE").address]
    harness.clock.advance(hours=1)
    process_due(harness.services)
    assert not [m for m in harness.new_mail() if "has not been given" in plain(m)]  # once per phase


def test_orders_changed_to_all_hold_withdraw_the_release_and_say_so(harness: Harness) -> None:
    from tests.app.councils_helpers import elected_council_game, general
    from tests.app.test_councils_elections_release import OPENINGS, _mail

    members = elected_council_game(harness)
    france = general(members, "FRANCE")
    assert "released to the judge" in _mail(harness, france, OPENINGS["FRANCE"] + "\nREADY")
    kept = _mail(harness, france, "A PAR - PIC\nA MAR - SPA\nF BRE - MAO")
    assert "withdrawn" not in kept  # a change of orders keeps the release
    withdrawn = _mail(harness, france, "A PAR H\nA MAR H\nF BRE H")
    assert "Your release of France's orders is withdrawn" in withdrawn
    with harness.db.unit_of_work(readonly=True) as uow:
        row = uow.games.require("demo")
        general_row = uow.councils.general(row, "FRANCE")
        assert general_row is not None and general_row.extra.get("released") is None


def test_a_general_the_master_replaces_is_told_alone(harness: Harness) -> None:
    game = council_game(harness)
    harness.new_mail()
    assert "steps down" in plain(game.master("COUNCIL REPLACE F"))
    told = [str(m["To"]) for m in harness.others if "you step down" in plain(m)]
    assert told == [address("FRANCE")]
