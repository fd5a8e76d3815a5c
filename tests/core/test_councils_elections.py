"""Election counting and treason rules of seed 003 (rules 4, 6, 7, 8): pure functions."""

from __future__ import annotations

from judge.core.councils import elections as el
from judge.core.councils import treason as tr
from judge.core.councils.roles import Member
from judge.core.phase import Phase

GENERAL = Member(1, "FRANCE", "general", 0)
FIRST_AMB = Member(2, "FRANCE", "ambassador", 1)
SECOND_AMB = Member(3, "FRANCE", "ambassador", 2)
COUNCIL = (GENERAL, FIRST_AMB, SECOND_AMB)


def ballots(*pairs: tuple[int, int | None]) -> list[el.Ballot]:
    return [el.Ballot(v, c) for v, c in pairs]


# ---------------------------------------------------------------- counting


def test_majority_elects() -> None:
    result = el.count(COUNCIL, ballots((1, 2), (2, 2), (3, 1)), [], outgoing=1, first=False)
    assert (result.outcome, result.winner) == (el.ELECTED, 2)
    assert result.counts == {1: 1, 2: 2, 3: 0}


def test_tie_re_elects_the_outgoing_general() -> None:
    result = el.count(COUNCIL, ballots((1, 1), (2, 2), (3, 3)), [], outgoing=1, first=False)
    assert (result.outcome, result.winner) == (el.RE_ELECTED_TIE, 1)
    assert result.tied == (1, 2, 3)


def test_tie_at_the_first_election_is_civil_disorder() -> None:
    result = el.count(COUNCIL, ballots((1, 1), (2, 2), (3, 3)), [], outgoing=None, first=True)
    assert (result.outcome, result.winner) == (el.CIVIL_DISORDER_TIE, None)
    assert result.civil_disorder


def test_everyone_abstaining_is_a_tie() -> None:
    result = el.count(COUNCIL, ballots((1, None), (2, None), (3, None)), [], outgoing=2, first=False)
    assert (result.outcome, result.winner) == (el.RE_ELECTED_TIE, 2)


def test_influence_breaks_a_tie_only_among_the_tied() -> None:
    tie = ballots((1, 1), (2, 2), (3, None))
    result = el.count(COUNCIL, tie, [2, 3, 3, 3], outgoing=1, first=False)
    # 3 had most influence votes but was not among the tied (1 and 2): only 2's count.
    assert (result.outcome, result.winner, result.influence_decided) == (el.ELECTED, 2, True)


def test_influence_breaks_a_first_election_tie() -> None:
    result = el.count(COUNCIL, ballots((1, 1), (2, 2), (3, 3)), [3], outgoing=None, first=True)
    assert (result.outcome, result.winner) == (el.ELECTED, 3)


def test_influence_never_overturns_a_clear_result() -> None:
    result = el.count(COUNCIL, ballots((1, 2), (2, 2), (3, 1)), [1, 1, 1, 1], outgoing=1, first=False)
    assert (result.outcome, result.winner, result.influence_decided) == (el.ELECTED, 2, False)


def test_tied_influence_leaves_the_tie() -> None:
    result = el.count(COUNCIL, ballots((1, 1), (2, 2), (3, None)), [1, 2], outgoing=2, first=False)
    assert (result.outcome, result.winner) == (el.RE_ELECTED_TIE, 2)


def test_accused_member_neither_votes_nor_is_elected() -> None:
    accused = Member(3, "FRANCE", "ambassador", 2, status="accused")
    council = (GENERAL, FIRST_AMB, accused)
    result = el.count(council, ballots((1, 2), (2, 1), (3, 3)), [], outgoing=1, first=False)
    assert result.counts == {1: 1, 2: 1}
    assert (result.outcome, result.winner) == (el.RE_ELECTED_TIE, 1)


def test_outgoing_general_gone_leaves_civil_disorder_on_a_tie() -> None:
    gone = Member(1, "FRANCE", "general", 0, status="left")
    result = el.count((gone, FIRST_AMB, SECOND_AMB), ballots((2, 2), (3, 3)), [], outgoing=1, first=False)
    assert (result.outcome, result.winner) == (el.CIVIL_DISORDER_TIE, None)


def test_vote_refusals() -> None:
    accused = Member(3, "FRANCE", "ambassador", 2, status="accused")
    council = (GENERAL, FIRST_AMB, accused)
    assert el.vote_refusal(GENERAL, FIRST_AMB, council) is None
    assert el.vote_refusal(GENERAL, None, council) is None
    assert el.vote_refusal(accused, GENERAL, council) is el.VoteRefusal.NOT_A_VOTER
    assert el.vote_refusal(GENERAL, accused, council) is el.VoteRefusal.NOT_A_CANDIDATE
    stranger = Member(9, "ENGLAND", "general", 0)
    assert el.vote_refusal(GENERAL, stranger, council) is el.VoteRefusal.NOT_A_CANDIDATE


def test_influence_refusals() -> None:
    assert el.influence_refusal(FIRST_AMB, None, "ENGLAND", True, el.REGULAR) is None
    assert el.influence_refusal(FIRST_AMB, 1, "ENGLAND", True, el.REGULAR) is el.VoteRefusal.INFLUENCE_NEEDS_ABSTENTION
    assert el.influence_refusal(FIRST_AMB, None, "FRANCE", True, el.REGULAR) is el.VoteRefusal.INFLUENCE_OWN_COUNCIL
    assert el.influence_refusal(FIRST_AMB, None, "ENGLAND", False, el.REGULAR) is el.VoteRefusal.INFLUENCE_NOT_OPEN
    assert el.influence_refusal(FIRST_AMB, None, "ENGLAND", True, el.EARLY) is el.VoteRefusal.INFLUENCE_ONLY_REGULAR


def test_everyone_voted_ignores_the_cut_off() -> None:
    accused = Member(3, "FRANCE", "ambassador", 2, status="accused")
    assert el.everyone_voted((GENERAL, FIRST_AMB, accused), [1, 2])
    assert not el.everyone_voted(COUNCIL, [1, 2])


# ---------------------------------------------------------------- treason


def test_any_ambassador_may_be_accused_never_the_general() -> None:
    assert tr.accuse_refusal(GENERAL, SECOND_AMB) is None
    assert tr.accuse_refusal(SECOND_AMB, GENERAL) is tr.AccuseRefusal.GENERAL_IMMUNE
    # rule 6b: "the second Ambassador" is whichever one the two others accuse, whatever his rank
    assert tr.accuse_refusal(GENERAL, FIRST_AMB) is None
    assert tr.accuse_refusal(SECOND_AMB, FIRST_AMB) is None
    assert tr.accuse_refusal(GENERAL, Member(4, "FRANCE", "ambassador", 3)) is None
    assert tr.accuse_refusal(SECOND_AMB, SECOND_AMB) is tr.AccuseRefusal.SELF
    assert tr.accuse_refusal(Member(9, "ENGLAND", "general", 0), SECOND_AMB) is tr.AccuseRefusal.OTHER_COUNCIL
    accused_accuser = Member(2, "FRANCE", "ambassador", 1, status="accused")
    assert tr.accuse_refusal(accused_accuser, SECOND_AMB) is tr.AccuseRefusal.ACCUSER_NOT_ACTIVE


def test_two_accusers_are_needed() -> None:
    assert not tr.accusation_effective([1])
    assert not tr.accusation_effective([1, 1])
    assert tr.accusation_effective([1, 2])


def test_one_accuser_withdrawing_rehabilitates() -> None:
    assert tr.after_withdrawal([1, 2], 2, True) == ([1], True)
    assert tr.after_withdrawal([1], 1, False) == ([], False)
    assert tr.after_withdrawal([1, 2], 3, True) == ([1, 2], False)


def test_escape_after_a_year_under_arrest_counted_in_seasons() -> None:
    spring = Phase.parse("S1901M")
    assert tr.escape_refusal("accused", spring, Phase.parse("F1901M")) is tr.EscapeRefusal.TOO_SOON
    assert tr.escape_refusal("accused", spring, Phase.parse("W1901A")) is tr.EscapeRefusal.TOO_SOON
    assert tr.escape_refusal("accused", spring, Phase.parse("S1902M")) is None
    # arrested in the fall: not in the next spring (a new calendar year), only from the next fall
    fall = Phase.parse("F1901R")
    assert tr.escape_refusal("accused", fall, Phase.parse("S1902M")) is tr.EscapeRefusal.TOO_SOON
    assert tr.escape_refusal("accused", fall, Phase.parse("F1902M")) is None
    assert tr.escape_refusal("active", spring, Phase.parse("S1905M")) is tr.EscapeRefusal.NOT_ARRESTED


def test_a_year_after_is_the_same_season_a_year_later() -> None:
    assert tr.a_year_after(Phase.parse("S1901R")) == Phase.parse("S1902M")
    assert tr.a_year_after(Phase.parse("F1901M")) == Phase.parse("F1902M")
    assert tr.a_year_after(Phase.parse("W1901A")) == Phase.parse("W1902A")


def test_waitlist_destinations() -> None:
    alive = ["ENGLAND", "FRANCE", "GERMANY", "ITALY"]
    # rule 8: an innocent escapee goes to any foreign power; a real spy only to his true nation
    assert tr.waitlist_powers(former_power="FRANCE", true_power=None, reason="escape", alive=alive) == [
        "ENGLAND", "GERMANY", "ITALY"]
    assert tr.waitlist_powers(former_power="FRANCE", true_power="ITALY", reason="escape", alive=alive) == ["ITALY"]
    # rule 7c: spy inside an eliminated power: his true nation only
    assert tr.waitlist_powers(
        former_power="TURKEY", true_power="ITALY", reason="infiltrated-eliminated", alive=alive) == ["ITALY"]
    # rule 7b: true nation eliminated: any foreign power but the infiltrated one
    assert tr.waitlist_powers(
        former_power="FRANCE", true_power="RUSSIA", reason="true-nation-eliminated", alive=alive) == [
        "ENGLAND", "GERMANY", "ITALY"]


def test_placement_needs_no_veto_and_a_year() -> None:
    allowed = ["ENGLAND", "GERMANY"]
    fall = Phase.parse("F1903M")

    def refusal(power: str, now: str, *, allowed: list[str] = allowed, vetoed: list[str] | None = None) -> object:
        return tr.placement_refusal(power=power, allowed=allowed, vetoed_by=vetoed or [], from_phase=fall,
                                    now=Phase.parse(now))

    assert refusal("ENGLAND", "F1903M") is None
    assert refusal("ENGLAND", "S1903M") is tr.WaitlistRefusal.TOO_SOON
    assert refusal("ENGLAND", "F1904M", vetoed=["FRANCE"]) is tr.WaitlistRefusal.VETOED
    assert refusal("ITALY", "F1904M", allowed=["GERMANY"]) is tr.WaitlistRefusal.NOT_TRUE_NATION
