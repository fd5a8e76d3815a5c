"""Every mail of the hostile corpus through the whole worker (issue 12).

For each case: stored as the SMTP door stores it, the real worker runs until
the queue is empty and must never raise; the mail ends in the state the issue
asks for; the one reply goes exactly where it must (robots: no mail at all),
says what it must, stays within the reply cap, carries no control character
in any header; nothing changes in the game or in anyone's record that the
mail had no right to change; and the judge still answers a plain mail after.

Each case runs on its own fresh SQLite database; the whole corpus runs once
more, case after case in one database, on PostgreSQL when CI provides it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.db.database import Database
from judge.db.enums import InboundState
from tests.conftest import TEST_PASSWORDS
from tests.hostile.corpus import CORPUS, Case
from tests.hostile.harness import World, check_judge_still_answers, check_outgoing

ECHO_PREFIX = "> "


def run_case(world: World, case: Case) -> None:
    """Inject one case and check everything the issue asks of it; raises AssertionError if not."""
    expect = case.expect
    if case.setup is not None:
        case.setup(world)
    before = world.snapshot()
    last = world.last_outgoing_id()
    mail_id = world.inject(case.raw(), case.envelope)
    world.drain()

    state = world.state_of(mail_id)
    assert state is expect.state, f"ended {state}, expected {expect.state}: {world.error_of(mail_id)}"
    if state is InboundState.IGNORED:  # stored, and the operator can read why it was not answered
        assert world.error_of(mail_id), "an ignored mail without the reason"
    outgoing = world.outgoing_since(last)
    check_outgoing(world, outgoing, set(expect.reply_to or ()) | set(expect.also_to))
    if expect.reply_to is None:
        assert outgoing == [], f"mail sent to {[m.recipients for m in outgoing]}"
    else:
        replies = [m for m in outgoing if m.in_reply_to == mail_id and set(m.recipients) & expect.reply_to]
        assert len(replies) == 1, f"{len(replies)} replies; queued: {[m.recipients for m in outgoing]}"
        [reply] = replies
        assert set(reply.recipients) == expect.reply_to
        body = reply.body()
        for fragment in expect.says:
            assert fragment in body, f"the reply does not say {fragment!r}:\n{body[:2000]}"
        for fragment in expect.says_once:
            assert body.count(fragment) == 1, f"{fragment!r} is said {body.count(fragment)} times"
        if expect.error_flag is not None:
            assert ("[Error Flag]" in str(reply.message()["Subject"])) is expect.error_flag, body[:2000]
        if expect.most_echoed_lines is not None:
            echoed = sum(1 for line in body.splitlines() if line.startswith(ECHO_PREFIX))
            assert echoed <= expect.most_echoed_lines, f"{echoed} lines echoed"
    if expect.most_mails_per_address is not None:
        for address in {a for mail in outgoing for a in mail.recipients}:
            count = sum(address in mail.recipients for mail in outgoing)
            assert count <= expect.most_mails_per_address, f"{count} mails to {address}"
    for mail in outgoing:
        for fragment in expect.never_says:
            assert fragment not in mail.body(), f"{fragment!r} sent to {mail.recipients}"

    after = world.snapshot()
    for power, orders in before.orders.items():
        if power not in expect.orders_may_change:
            assert after.orders.get(power) == orders, f"{power}'s orders changed"
    assert after.seats == before.seats, "a seat changed hands, status or password"
    assert after.game == before.game, "the game moved"
    if not expect.people_may_change:
        assert after.addresses == before.addresses, "an address was linked or moved"
        assert after.people == before.people, "someone's record changed"
    if case.check is not None:
        case.check(world, mail_id)
    check_judge_still_answers(world)


@pytest.mark.parametrize("case", CORPUS, ids=[case.name for case in CORPUS])
def test_hostile_mail(sqlite_world: World, case: Case) -> None:
    run_case(sqlite_world, case)


def test_the_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 80


def test_the_whole_corpus_in_one_postgresql_database(postgres_database_url: str, tmp_path: Path) -> None:
    """Case after case in one database: each must still hold with the others' leftovers around."""
    db = Database(postgres_database_url, passwords=TEST_PASSWORDS)
    try:
        world = World(db, tmp_path)
        failures = []
        for case in CORPUS:
            try:
                run_case(world, case)
            except AssertionError as error:
                failures.append(f"{case.name}: {str(error).splitlines()[0][:300]}")
        assert not failures, "\n".join(failures)
    finally:
        db.dispose()
