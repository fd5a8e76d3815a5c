"""Seed 003, rules 1 and 3: who on a council may order, vote, concede and press whom."""

from __future__ import annotations

from judge.core.councils.roles import (
    Member,
    PressRequest,
    Refusal,
    may_concede,
    may_order,
    may_press,
    may_vote_draw,
    negotiators,
    press_readers,
    sits_alone,
)

GENERAL = Member(1, "FRANCE", "general", 0)
AMB1 = Member(2, "FRANCE", "ambassador", 1)
AMB2 = Member(3, "FRANCE", "ambassador", 2)
E_GEN = Member(4, "ENGLAND", "general", 0)
E1 = Member(5, "ENGLAND", "ambassador", 1)
E2 = Member(6, "ENGLAND", "ambassador", 2)
G_GEN = Member(7, "GERMANY", "general", 0)
G1 = Member(8, "GERMANY", "ambassador", 1)
G2 = Member(9, "GERMANY", "ambassador", 2)
COUNCILS = {
    "FRANCE": [GENERAL, AMB1, AMB2],
    "ENGLAND": [E_GEN, E1, E2],
    "GERMANY": [G_GEN, G1, G2],
}


def test_only_the_general_orders_votes_draws_and_concedes() -> None:
    assert may_order(GENERAL) is None
    assert may_vote_draw(GENERAL) is None
    assert may_concede(GENERAL) is None
    assert may_order(AMB1) is Refusal.ORDERS_GENERAL_ONLY
    assert may_vote_draw(AMB2) is Refusal.DRAW_GENERAL_ONLY
    assert may_concede(AMB1) is Refusal.CONCEDE_GENERAL_ONLY


def test_a_member_cut_off_by_an_accusation_may_do_nothing() -> None:
    accused = Member(3, "FRANCE", "ambassador", 2, status="accused")
    assert may_press(accused, PressRequest(powers=("ENGLAND",))) is Refusal.CUT_OFF
    assert may_press(accused, PressRequest(own_council=True)) is Refusal.CUT_OFF
    assert may_order(Member(1, "FRANCE", "general", 0, status="arrested")) is Refusal.CUT_OFF


def test_the_general_writes_only_to_his_own_ambassadors() -> None:
    assert may_press(GENERAL, PressRequest(own_council=True)) is None
    assert (
        may_press(GENERAL, PressRequest(powers=("ENGLAND",)))
        is Refusal.GENERAL_PRESS_OWN_AMBASSADORS_ONLY
    )
    assert (
        may_press(GENERAL, PressRequest(broadcast=True))
        is Refusal.GENERAL_PRESS_OWN_AMBASSADORS_ONLY
    )
    assert (
        may_press(GENERAL, PressRequest(own_council=True, powers=("ENGLAND",)))
        is Refusal.GENERAL_PRESS_OWN_AMBASSADORS_ONLY
    )
    assert may_press(GENERAL, PressRequest(masters=True)) is None  # the referee is always reachable
    readers = press_readers(GENERAL, PressRequest(own_council=True), COUNCILS)
    assert readers == (AMB1, AMB2)


def test_ambassadors_press_reaches_ambassadors_never_generals() -> None:
    assert may_press(AMB1, PressRequest(powers=("ENGLAND",))) is None
    bilateral = press_readers(AMB1, PressRequest(powers=("ENGLAND",)), COUNCILS)
    assert bilateral == (E1, E2)
    everyone = press_readers(AMB1, PressRequest(broadcast=True), COUNCILS)
    assert set(everyone) == {AMB2, E1, E2, G1, G2}
    assert not {E_GEN, G_GEN, GENERAL} & set(everyone)


def test_one_ambassador_per_nation_on_a_multi_party_thread() -> None:
    readers = press_readers(AMB2, PressRequest(powers=("ENGLAND", "GERMANY")), COUNCILS)
    assert readers == (E1, G1)
    nations = [m.power for m in readers]
    assert len(nations) == len(set(nations))


def test_a_multi_party_thread_skips_an_ambassador_who_is_cut_off() -> None:
    councils = {
        **COUNCILS,
        "ENGLAND": [E_GEN, Member(5, "ENGLAND", "ambassador", 1, "accused"), E2],
    }
    assert press_readers(AMB1, PressRequest(powers=("ENGLAND", "GERMANY")), councils) == (E2, G1)


def test_the_council_room_reaches_general_and_fellow_ambassador() -> None:
    assert press_readers(AMB1, PressRequest(own_council=True), COUNCILS) == (GENERAL, AMB2)


def test_ambassadors_do_not_write_to_observers() -> None:
    assert may_press(AMB1, PressRequest(observers=True)) is Refusal.PRESS_TO_OBSERVERS
    assert (
        may_press(AMB1, PressRequest(powers=("ENGLAND",), observers=True))
        is Refusal.PRESS_TO_OBSERVERS
    )


def test_a_council_of_one_is_its_general_and_its_ambassador() -> None:
    """A game begun short of players (FORCE BEGIN): the lone member orders and negotiates."""
    lone = Member(10, "ITALY", "general", 0)
    councils = {**COUNCILS, "ITALY": [lone]}
    assert negotiators([lone]) == [lone]
    assert sits_alone(lone, [lone])
    assert may_press(lone, PressRequest(powers=("ENGLAND",)), alone=True) is None
    assert may_press(lone, PressRequest(powers=("ENGLAND",))) is Refusal.GENERAL_PRESS_OWN_AMBASSADORS_ONLY
    assert press_readers(lone, PressRequest(powers=("ENGLAND",)), councils) == (E1, E2)
    assert press_readers(E1, PressRequest(powers=("ITALY",)), councils) == (lone,)
    assert lone in press_readers(E1, PressRequest(broadcast=True), councils)
    assert press_readers(E1, PressRequest(powers=("ITALY", "FRANCE")), councils) == (lone, AMB1)
    # a General whose only fellow is under accusation is not alone: cut off from the world (rule 6b)
    accused = Member(11, "TURKEY", "ambassador", 1, status="accused")
    t_gen = Member(12, "TURKEY", "general", 0)
    assert negotiators([t_gen, accused]) == []
    assert not sits_alone(t_gen, [t_gen, accused])
    assert negotiators([Member(13, "RUSSIA", "general", 0, status="accused")]) == []


def test_the_end_of_the_game_is_read_by_every_member_who_ever_sat() -> None:
    """The final summary tells the councils' story to all: those who left too (rule 9 may name them)."""
    from judge.core.councils.roles import Channel, sees

    left = Member(20, "FRANCE", "ambassador", 9, status="left")
    assert not sees(left, Channel.GAME) and not sees(left, Channel.COUNCIL)
    assert sees(left, Channel.END)
    assert all(sees(Member(21, "FRANCE", "ambassador", 1, status=s), Channel.END)
               for s in ("active", "accused", "arrested", "eliminated", "left"))  # fmt: skip


def test_what_happens_to_a_member_is_his_to_read_whatever_his_status() -> None:
    """Channel.OWN: his elimination, his leaving, his seat (mailed to him alone by the audience)."""
    from judge.core.councils.roles import Channel, sees

    for status in ("active", "accused", "eliminated", "left"):
        assert sees(Member(30, "FRANCE", "ambassador", 1, status=status), Channel.OWN)
    assert not sees(Member(31, "FRANCE", "general", 0, status="left"), Channel.COUNCIL)


def test_naming_the_master_too_does_not_lift_a_refusal() -> None:
    """Press to the master alone is always allowed; a press to the master and to others is judged
    as the press to the others."""
    accused = Member(3, "FRANCE", "ambassador", 2, status="accused")
    assert may_press(accused, PressRequest(masters=True)) is None
    assert may_press(accused, PressRequest(masters=True, powers=("ENGLAND",))) is Refusal.CUT_OFF
    assert (
        may_press(GENERAL, PressRequest(masters=True, broadcast=True))
        is Refusal.GENERAL_PRESS_OWN_AMBASSADORS_ONLY
    )
    assert may_press(AMB1, PressRequest(masters=True, observers=True)) is Refusal.PRESS_TO_OBSERVERS


def test_who_reads_each_channel_by_status() -> None:
    """The whole of sees(), written out: the game's public mail reaches every member still in the
    game (the eliminated too), the council and a tribunal only active members, his own tribunal the
    accused (arrested or not) but not once he left, his own news and the end everyone."""
    from judge.core.councils.roles import Channel, sees

    statuses = ("active", "accused", "arrested", "eliminated", "left")
    expected = {
        Channel.GAME: {"active", "accused", "arrested", "eliminated"},
        Channel.COUNCIL: {"active"},
        Channel.TRIBUNAL: {"active"},
        Channel.OWN: set(statuses),
        Channel.END: set(statuses),
    }
    own_tribunal = {"active", "accused", "arrested"}
    for channel, readers in expected.items():
        for status in statuses:
            member = Member(40, "FRANCE", "ambassador", 1, status=status)
            assert sees(member, channel) is (status in readers), (channel, status)
            assert sees(member, channel, accused=41) is (status in readers), (channel, status, "another's")
            mine = own_tribunal if channel is Channel.TRIBUNAL else readers
            assert sees(member, channel, accused=40) is (status in mine), (channel, status, "his own")


def test_the_council_room_never_reaches_its_sender_nor_a_member_no_longer_active() -> None:
    arrested = Member(42, "FRANCE", "ambassador", 3, status="arrested")
    left = Member(43, "FRANCE", "ambassador", 4, status="left")
    councils = {**COUNCILS, "FRANCE": [GENERAL, AMB1, AMB2, arrested, left]}
    assert press_readers(AMB1, PressRequest(own_council=True), councils) == (GENERAL, AMB2)
    assert press_readers(GENERAL, PressRequest(own_council=True), councils) == (AMB1, AMB2)


def test_the_ambassador_who_last_wrote_in_a_room_holds_it_while_active() -> None:
    from judge.core.councils.roles import room_holder

    assert room_holder([GENERAL, AMB1, AMB2], AMB2.id) == AMB2
    assert room_holder([GENERAL, AMB1, AMB2], None) == AMB1  # nobody wrote yet: the first by rank
    assert room_holder([GENERAL, AMB1, AMB2], GENERAL.id) == AMB1  # a General never holds a room
    gone = Member(AMB2.id, "FRANCE", "ambassador", 2, status="arrested")
    assert room_holder([GENERAL, AMB1, gone], AMB2.id) == AMB1
    assert room_holder([GENERAL], None) == GENERAL  # a council of one: its General sits there too
