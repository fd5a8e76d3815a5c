"""Each council member reads alone and acts alone (issue 26, seed 003): one test per defect.

Who may do what, and what it reveals to whom:

* a reply goes to the member who wrote, never to his council: a spy's press
  to his true nation, a vote, an accusation, a new password;
* the council's mail goes to each member who may read it now: an accused
  member is cut off from it, a member who left gets nothing of the game;
  the results go to each member in his own language;
* a member signs on only as himself; his RESIGN, SET ADDRESS and SET WAIT
  touch him alone (SET WAIT is the General's);
* a multi-party room has one Ambassador of each nation, the one who writes
  in it (the nation's Ambassadors share the rooms out).
"""

from __future__ import annotations

import pytest

from judge.app.session.readers import choose_language
from judge.db.enums import SeatStatus
from tests.app.conftest import Harness, text
from tests.app.councils_helpers import (
    LETTER,
    MASTER,
    Seated,
    ambassador,
    elected_council_game,
    form_council_game,
    general,
    seated,
)
from tests.app.councils_secrets_helpers import (
    mails_to,
    member_id,
    reached_by,
    readers,
    say,
    with_text,
)
from tests.app.reports_helpers import process
from tests.app.test_councils_docs import _quoted

pytestmark = pytest.mark.engine_blind  # mail routing and wording: SQLite only, but the tests marked engine_sql

RESULTS = "Results"


def _spy_ambassador(members: list[Seated]) -> Seated:
    """A spy who is an Ambassador (he may write to other powers)."""
    return next(m for m in members if m.true_power is not None and m.role == "ambassador")


def test_every_reply_goes_to_its_writer_alone(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    spy = _spy_ambassador(members)
    assert spy.true_power is not None
    fellows = {m.address for m in members if m.power == spy.power and m != spy}
    harness.new_mail()
    letter = LETTER[spy.true_power]
    reply = say(harness, spy, f"PRESS TO {letter}\nYour humble servant reports from inside.\nENDPRESS")
    assert readers(reply) == {spy.address}
    got_it = reached_by(harness.outbox(), "Your humble servant reports")
    true_ambassadors = {m.address for m in members if m.power == spy.true_power and m.role == "ambassador"}
    assert got_it == {spy.address, *true_ambassadors, MASTER}
    assert not got_it & fellows

    # a vote, a first accusation, a new password: each reply to its writer only
    general_ = general(members, spy.power)
    second = ambassador(members, spy.power, 2)
    for who, line in (
        (spy, "VOTE ABSTAIN"),
        (general_, f"ACCUSE {member_id(harness, second.address)}"),
        (general_, "SET PASSWORD sesame42"),
    ):
        harness.new_mail()
        reply = say(harness, who, line)
        assert readers(reply) == {who.address}, line
        fresh = harness.new_mail()
        assert not [m for m in fresh if readers(m) - {MASTER, who.address}], (line, [m["Subject"] for m in fresh])
    assert "sesame42" not in "".join(text(m) for m in harness.outbox() if readers(m) != {general_.address})


@pytest.mark.engine_sql
def test_the_accused_is_cut_off_and_a_member_who_left_gets_nothing(harness: Harness) -> None:
    members = elected_council_game(harness)
    g, a1, a2 = general(members, "FRANCE"), ambassador(members, "FRANCE", 1), ambassador(members, "FRANCE", 2)
    for accuser in (g, a1):
        say(harness, accuser, f"ACCUSE {member_id(harness, a2.address)}")
    expelled = ambassador(members, "ENGLAND", 2)
    master = harness.exchange(MASTER, f"SIGNON Mdemo masterpw\nCOUNCIL EXPEL {member_id(harness, expelled.address)}\n")
    assert "leaves England's council" in text(master)
    mark = len(harness.outbox())
    say(harness, g, "PRESS TO F\nThe council meets without the accused.\nENDPRESS")
    say(harness, a1, "VOTE ABSTAIN")
    process(harness, "demo")
    fresh = harness.outbox()[mark:]
    assert reached_by(fresh, "The council meets without the accused") == {g.address, a1.address, MASTER}
    assert mails_to(fresh, a2.address) and all(RESULTS in str(m["Subject"]) for m in mails_to(fresh, a2.address))
    assert not mails_to(fresh, expelled.address)  # a member who left reads nothing more of the game
    england = ambassador(members, "ENGLAND", 1)
    assert [m for m in mails_to(fresh, england.address) if RESULTS in str(m["Subject"])]


def test_the_results_reach_each_member_in_his_own_language(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    french = ambassador(members, "FRANCE", 2)
    with harness.db.unit_of_work() as uow:
        person = uow.people.by_address(french.address)
        assert person is not None
        choose_language(person, "fr")
    harness.new_mail()
    process(harness, "demo")
    fresh = harness.new_mail()
    for member in (m for m in members if m.power == "FRANCE"):
        results = [m for m in mails_to(fresh, member.address) if RESULTS in str(m["Subject"])]
        assert len(results) == 1 and readers(results[0]) == {member.address}
        body = text(results[0])
        if member == french:
            assert "printemps 1901" in body.lower() and "Spring" not in body, body[:400]
        else:
            assert "Movement results for Spring of 1901" in body, body[:400]


@pytest.mark.engine_sql
def test_nobody_signs_on_as_another_member(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    g, a1 = general(members, "FRANCE"), ambassador(members, "FRANCE", 1)
    harness.new_mail()
    reply = text(harness.exchange(a1.address, f"SIGNON Fdemo {g.password}\nA PAR - BUR\nREADY\n"))
    assert "Invalid password or power, or no such game." in reply
    assert not harness.others  # the General's password is not confirmed to anyone
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        the_general = uow.councils.general(game, "FRANCE")
        assert the_general is not None and "released" not in (the_general.extra or {})
    own = text(say(harness, a1, "A PAR - BUR"))
    assert "Only your council's General-in-chief submits orders" in own


def test_an_ambassadors_resignation_is_his_own(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    g, a1, a2 = general(members, "FRANCE"), ambassador(members, "FRANCE", 1), ambassador(members, "FRANCE", 2)
    reply = " ".join(text(say(harness, a2, "RESIGN")).split())
    quote = "You have resigned from France's council in game 'demo' and left the game."
    assert quote in reply
    _quoted("councils.md", quote)
    told = reached_by(harness.others, "has resigned from France's council")
    assert told == {g.address, a1.address, MASTER}  # his council and the master; no other power
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        seat = uow.seats.by_power(game, "FRANCE")
        assert seat is not None and seat.status is SeatStatus.PLAYING
    assert "Signed on as France" in text(say(harness, g, "A PAR - BUR"))
    assert "Invalid password" in text(say(harness, a2, "A PAR - BUR"))
    process(harness, "demo")
    assert not mails_to(harness.new_mail(), a2.address)


@pytest.mark.engine_sql
def test_a_members_set_address_routes_his_mail_alone(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    g, a1 = general(members, "FRANCE"), ambassador(members, "FRANCE", 1)
    with harness.db.unit_of_work() as uow:  # an address of his registration (REGISTER Email:, confirmed)
        person = uow.people.by_address(a1.address)
        assert person is not None
        uow.people.add_address(person, "elsewhere@example.org", harness.clock.now())
    harness.new_mail()
    reply = say(harness, a1, "SET ADDRESS elsewhere@example.org")
    assert [readers(m) for m in [reply, *harness.copies]] == [{a1.address}, {"elsewhere@example.org"}]
    quote = "Your mail about game 'demo' will now go to elsewhere@example.org."
    assert quote in " ".join(text(reply).split())
    _quoted("councils.md", quote.replace("elsewhere", "other"))
    assert not harness.others  # announced to nobody
    process(harness, "demo")
    fresh = [m for m in harness.new_mail() if RESULTS in str(m["Subject"])]
    assert mails_to(fresh, "elsewhere@example.org") and not mails_to(fresh, a1.address)
    assert mails_to(fresh, g.address) and mails_to(fresh, ambassador(members, "FRANCE", 2).address)
    say(harness, a1, "SET ADDRESS")  # back to his own address
    process(harness, "demo")
    fresh = [m for m in harness.new_mail() if RESULTS in str(m["Subject"])]
    assert mails_to(fresh, a1.address) and not mails_to(fresh, "elsewhere@example.org")


def _french(harness: Harness, member: Seated) -> None:
    with harness.db.unit_of_work() as uow:
        person = uow.people.by_address(member.address)
        assert person is not None
        choose_language(person, "fr")


def test_only_the_general_sets_wait(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    refused = " ".join(text(say(harness, ambassador(members, "FRANCE", 1), "SET WAIT")).split())
    quote = (
        "Only your council's General-in-chief decides whether France's orders wait for the deadline "
        "(councils, rule 5). Nothing was changed."
    )
    assert quote in refused
    _quoted("councils.md", quote)
    _french(harness, ambassador(members, "FRANCE", 2))
    refused = " ".join(text(say(harness, ambassador(members, "FRANCE", 2), "SET WAIT")).split())
    quote = (
        "Seul le Général en chef de votre Conseil décide si les ordres de France attendent la date limite "
        "(Conseils, règle 5). Rien n'a été changé."
    )
    assert quote in refused
    _quoted("fr/conseils.md", quote)
    assert "WAIT set" in text(say(harness, general(members, "FRANCE"), "SET WAIT"))
    with harness.db.unit_of_work(readonly=True) as uow:
        seat = uow.seats.by_power(uow.games.require("demo"), "FRANCE")
        assert seat is not None and seat.wait


def test_a_multi_party_room_seats_the_ambassador_who_writes_in_it(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    france, england2 = ambassador(members, "FRANCE", 1), ambassador(members, "ENGLAND", 2)
    england1 = ambassador(members, "ENGLAND", 1)
    germans = [m.address for m in members if m.power == "GERMANY" and m.role == "ambassador"]
    say(harness, france, "PRESS TO EG\nA room for three.\nENDPRESS")
    first = reached_by(harness.outbox(), "A room for three.")
    assert england1.address in first and england2.address not in first
    assert len(first & set(germans)) == 1
    say(harness, england2, "PRESS TO FG\nI sit here for England.\nENDPRESS")  # the same room: E, F, G
    say(harness, france, "PRESS TO EG\nWelcome.\nENDPRESS")
    welcome = reached_by(harness.outbox(), "Welcome.")
    assert england2.address in welcome and england1.address not in welcome
    assert all(len(readers(m)) == 1 for m in with_text(harness.outbox(), "Welcome."))
