"""Floods and guessing, as a hostile sender runs them: many mails, rotating addresses, a restart between.

The flood limiter and the sign-on throttle must hold when the attacker
changes the From line at every mail, and must remember across a restart of
the judge (they live in the database, not in the worker's memory).
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

from judge.app.runtime.judge_server import build_services
from judge.db.database import Database
from judge.db.enums import InboundState
from judge.mail.triage import QUOTING_ANSWERS_PER_DAY
from tests.hostile.corpus import GERMANY, MASTER, mail
from tests.hostile.harness import JUDGE, KEEPER, World

pytestmark = pytest.mark.engine_blind  # the engine cannot change what these check: SQLite only

LIMIT = 5


def flood(world: World, count: int, *, sender: str, envelope: str | None = None, body: str = "VERSION\n") -> list[int]:
    """``count`` mails; ``sender`` may hold ``{n}`` to rotate the From line."""
    ids = []
    for n in range(count):
        address = sender.format(n=n)
        raw = mail(f"From: {address}", body=body.format(n=n), message_id=f"<flood{n}-{address}>")
        ids.append(world.inject(raw, envelope or address))
    world.drain()
    return ids


def restart(world: World) -> None:
    """What a restart leaves: the database. Everything the worker held in memory is built anew."""
    world.services = build_services(world.config, world.db, world.clock)


def test_a_flood_gets_its_answers_then_one_warning_then_silence(database: Database, tmp_path: Path) -> None:
    world = World(database, tmp_path, rate_limit=LIMIT)
    before = world.last_outgoing_id()
    ids = flood(world, 4 * LIMIT, sender="flooder@example.com")
    out = world.outgoing_since(before)
    assert len(out) == LIMIT + 1
    assert all(m.recipients == ("flooder@example.com",) for m in out)
    states = [world.state_of(i) for i in ids]
    assert states[:LIMIT] == [InboundState.PROCESSED] * LIMIT
    assert states[LIMIT:] == [InboundState.IGNORED] * (3 * LIMIT)


def test_rotating_the_from_line_buys_nothing(database: Database, tmp_path: Path) -> None:
    world = World(database, tmp_path, rate_limit=LIMIT)
    before = world.last_outgoing_id()
    flood(world, 4 * LIMIT, sender="rot{n}@example.com", envelope="flooder@example.com")
    assert len(world.outgoing_since(before)) <= LIMIT + 1


@pytest.mark.engine_sql
def test_the_flood_limiter_remembers_across_a_restart(database: Database, tmp_path: Path) -> None:
    world = World(database, tmp_path, rate_limit=LIMIT)
    before = world.last_outgoing_id()
    flood(world, LIMIT, sender="flooder@example.com")
    restart(world)
    flood(world, 2 * LIMIT, sender="flooder@example.com")
    assert len(world.outgoing_since(before)) == LIMIT + 1


def test_guessing_a_powers_password_from_rotating_addresses_is_throttled_and_told_once(
    database: Database, tmp_path: Path
) -> None:
    """Five wrong guesses in an hour close the power to sign-ons from anyone, its player's address
    included (anyone can forge it): the right password from a guesser's address is refused too;
    the master and the power's player are told once; a restart does not reopen it; the player,
    from their own address, is mailed a one-time code there, and with it still plays."""
    world = World(database, tmp_path)
    before = world.last_outgoing_id()
    flood(world, 12, sender="guesser{n}@example.com", body="SIGNON Gdemo guess{n}\nA BER - SIL\n")
    restart(world)
    flood(world, 3, sender="guesser{n}@example.org", body="SIGNON Gdemo guess{n}\n")
    out = world.outgoing_since(before)
    told_master = [m for m in out if MASTER in m.recipients]
    told_player = [m for m in out if GERMANY in m.recipients]
    assert len(told_master) == 1 and len(told_player) == 1

    last = world.last_outgoing_id()
    [lucky] = flood(world, 1, sender="guesser99@example.net", body="SIGNON Gdemo pwgermany\nA BER - SIL\n")
    [reply] = [m for m in world.outgoing_since(last) if m.in_reply_to == lucky]
    assert "Signed on as Germany" not in reply.body()
    assert world.game.state()["orders"].get("S1901M", {}).get("GERMANY") is None

    last = world.last_outgoing_id()
    [player] = flood(world, 1, sender=GERMANY, body="SIGNON Gdemo pwgermany\nA BER - SIL\n")
    [reply] = [m for m in world.outgoing_since(last) if m.in_reply_to == player]
    assert "Signed on as Germany" not in reply.body()
    [unlock] = [m for m in world.outgoing_since(last) if "Sign-on Unlock" in str(m.message()["Subject"])]
    assert unlock.recipients == (GERMANY,)
    code = re.search(r"<password> (\S+)", unlock.body())
    assert code is not None

    last = world.last_outgoing_id()
    [player] = flood(world, 1, sender=GERMANY, body=f"SIGNON Gdemo pwgermany {code.group(1)}\nA BER - SIL\n")
    [reply] = [m for m in world.outgoing_since(last) if m.in_reply_to == player]
    assert "Signed on as Germany" in reply.body()
    assert JUDGE not in reply.recipients


def test_the_keepers_exemption_needs_every_address_of_the_mail_to_be_the_keepers(
    database: Database, tmp_path: Path
) -> None:
    """The judgekeeper is exempt from the flood limit. An envelope sender or a From line is anyone's
    to write: naming the keeper in one of them must not buy a stranger unlimited replies, neither
    to a third party (keeper in the envelope) nor to the keeper (keeper forged in From)."""
    world = World(database, tmp_path, rate_limit=LIMIT)
    before = world.last_outgoing_id()
    flood(world, 4 * LIMIT, sender="target@example.com", envelope=KEEPER)
    assert len(world.outgoing_since(before)) <= LIMIT + 1
    before = world.last_outgoing_id()
    flood(world, 4 * LIMIT, sender=KEEPER, envelope="forger@example.net")
    assert len(world.outgoing_since(before)) <= LIMIT + 1
    before = world.last_outgoing_id()
    flood(world, 2 * LIMIT, sender=KEEPER)  # the keeper, From and envelope: never limited
    assert len(world.outgoing_since(before)) == 2 * LIMIT


def test_a_vacation_program_quoting_each_judge_mail_is_stopped_after_a_few_answers(
    database: Database, tmp_path: Path
) -> None:
    """Issue 25: a vacation program with no robot header, quoting each judge mail in full, was
    answered 31 times before the flood limit stopped it. The flood limit is off here, so only
    the quoting rule can stop it; a restart in the middle forgets nothing."""
    world = World(database, tmp_path)
    responder = "away@example.com"
    start = world.last_outgoing_id()
    flood(world, 1, sender=responder)  # the person's own mail, before they left
    seen = start
    for round_ in range(40):
        new = [m for m in world.outgoing_since(seen) if responder in m.recipients]
        if not new:
            break
        seen = new[-1].id
        quoted = "".join(f"> {line}\n" for line in new[-1].body().splitlines())
        raw = mail(
            f"From: {responder}", subject=f"Re: {new[-1].message()['Subject']}",
            body="I am away until Monday.\n\n" + quoted, message_id=f"<away{round_}@example.com>",
        )
        world.inject(raw, responder)
        world.drain()
        if round_ == 1:
            restart(world)
    answers = [m for m in world.outgoing_since(start) if responder in m.recipients]
    assert len(answers) == 1 + QUOTING_ANSWERS_PER_DAY  # its own mail's answer, then the quota
    world.clock.advance(timedelta(days=1, minutes=1))
    [later] = flood(world, 1, sender=responder, body="I am away.\n> :: Judge: XPY\n")
    assert world.state_of(later) is InboundState.PROCESSED  # a new day, a new quota
