"""The seed's real size by mail, every mail scanned (issue 26, seed 003): secrets reach only their readers.

21 members in seven councils of three, France's and Germany's councils in
French, one more French player dealt at random: the councils form by mail,
elect their Generals (one council elects an Ambassador, one member casts an
influence vote abroad), every spy who is an Ambassador writes secretly to
his true nation, every General to his council, Ambassadors negotiate in
bilateral and multi-party rooms and in the common room, a council accuses
its second Ambassador who pleads at the tribunal, a member changes his
password, the Generals order and release, two seasons are played, the
yearly election is held, and the Generals concede.

Then every mail the judge queued is read. What it checks:

* each mail's headers name exactly one reader;
* a reply goes to the writer of the mail it answers, and to him alone;
* a spy's identity, before the final summary, only to that spy and the master;
* each secret press only to its writer, the Ambassadors of his true nation and the master;
* each council's press, election result and tribunal only to that council (the accused for his tribunal)
  and the master; the accused reads nothing of his council after the accusation;
* a first accusation only to its author (his reply) and the master; no vote to anyone but its voter;
* no password in a mail to anyone but its owner;
* the results to each member in his own language.

Run on SQLite only: the whole game by mail is long, and what is persisted is
the same as in the per-defect tests (test_councils_secrets.py), whose tests of
stored state (engine_sql) run on both engines.
"""

from __future__ import annotations

import re
from datetime import timedelta
from email.message import EmailMessage

from judge.app.game_state.game_facts import power_name
from judge.app.phases.guarded_scheduler import process_due
from judge.i18n import translation
from tests.app.conftest import Harness, text
from tests.app.councils_helpers import (
    HOLDS,
    LETTER,
    MASTER,
    POWERS,
    Seated,
    ambassador,
    form_council_game,
    general,
    seated,
)
from tests.app.councils_secrets_helpers import member_id, readers

FRENCH_PLAYERS = {1: "F", 2: "F", 3: "F", 4: "G", 5: "G", 6: "G"}
SPY_WORDS = re.compile(r"\bspy\b|\bspies\b|\bespion", re.IGNORECASE)


class Game:
    """The game as played, and what each mail sent was (for the scan)."""

    def __init__(self, harness: Harness) -> None:
        self.harness = harness
        self.writers: dict[str, str] = {}  # Message-ID of each mail sent -> its sender
        self.rules: list[tuple[re.Pattern[str], set[str]]] = []  # a secret -> who may read it
        self.passwords: dict[str, str] = {}  # a member's password once he changed it

    def say(self, who: Seated, body: str) -> str:
        password = self.passwords.get(who.address, who.password)
        self.harness.send(who.address, f"SIGNON {LETTER[who.power]}demo {password}\n{body}\n")
        self.writers[f"<m{self.harness._count}@test>"] = who.address
        self.harness.drain()
        replies = [m for m in self.harness.new_mail() if str(m["In-Reply-To"]) == f"<m{self.harness._count}@test>"]
        assert len(replies) == 1
        return text(replies[0])

    def secret(self, needle: str, allowed: set[str], *, word: bool = False) -> None:
        pattern = re.compile(rf"\b{re.escape(needle)}\b" if word else re.escape(needle))
        self.rules.append((pattern, {a.lower() for a in allowed} | {MASTER}))

    def mark(self) -> int:
        self.harness.new_mail()
        return len(self.harness.outbox())

    def play_phase(self) -> None:
        """Advance the clock until the open phase is processed."""
        with self.harness.db.unit_of_work(readonly=True) as uow:
            before = uow.games.require("demo").current_phase
        for _ in range(12):
            self.harness.clock.advance(timedelta(hours=12))
            process_due(self.harness.services)
            with self.harness.db.unit_of_work(readonly=True) as uow:
                if uow.games.require("demo").current_phase != before:
                    return
        raise AssertionError(f"{before} was never processed")


def _ambassadors(members: list[Seated], power: str) -> set[str]:
    return {m.address for m in members if m.power == power and m.role == "ambassador"}


def _council(members: list[Seated], power: str) -> set[str]:
    return {m.address for m in members if m.power == power}


def _elect(game: Game, members: list[Seated], winners: dict[str, Seated]) -> None:
    for member in members:
        winner = winners.get(member.power) or general(members, member.power)
        game.say(member, f"VOTE {member_id(game.harness, winner.address)}")


def test_the_seeds_game_by_mail_keeps_every_secret(sqlite_harness: Harness) -> None:
    harness = sqlite_harness
    languages = {n: "fr" for n in [*FRENCH_PLAYERS, 7]}
    form_council_game(harness, languages=languages, preferences=FRENCH_PLAYERS)
    members = seated(harness)
    game = Game(harness)
    assert harness._count == 21  # the formation's mails: CREATE from p0, then SIGNON ?demo from p1..p20
    game.writers.update({f"<m{k}@test>": f"p{k - 1}@example.net" for k in range(1, 22)})
    french = {f"p{n}@example.net" for n in languages}
    assert {m.address for m in members if m.power in ("FRANCE", "GERMANY")} <= french  # two councils in French
    spies = {m.address: m for m in members if m.true_power is not None}

    # -- the first elections: Italy elects its first Ambassador; one influence vote abroad ---------
    voter = ambassador(members, "TURKEY", 1)
    italy = [m for m in members if m.power == "ITALY"]
    _elect(game, [m for m in members if m.power not in ("TURKEY",) and m not in italy], {})
    reply = game.say(voter, f"VOTE ABSTAIN I {member_id(harness, italy[0].address)}")
    assert "anonymous influence vote" in reply
    for member in italy:
        game.say(member, f"VOTE {member_id(harness, ambassador(members, 'ITALY', 1).address)}")
    for member in (m for m in members if m.power == "TURKEY" and m != voter):
        game.say(member, f"VOTE {member_id(harness, general(members, 'TURKEY').address)}")
    members = seated(harness)  # Italy's General changed
    for power in POWERS:  # each council's election results, in English and in French
        game.secret(f"Result of {power_name(power)}'s", _council(members, power))
        game.secret(f"Résultat pour {power_name(power, 'fr')} :", _council(members, power))

    # -- press: spies to their true nations, Generals to their councils, Ambassadors negotiate --------
    for n, spy in enumerate(s for s in spies.values() if s.role == "ambassador"):
        assert spy.true_power is not None
        token = f"SECRET-{n}-for-{spy.true_power}"
        game.say(spy, f"PRESS TO {LETTER[spy.true_power]}\n{token}\nENDPRESS")
        game.secret(token, {spy.address, *_ambassadors(members, spy.true_power)})
    for power in POWERS:
        token = f"COUNCIL-ROOM-{power}"
        game.say(general(members, power), f"PRESS TO {LETTER[power]}\n{token}\nENDPRESS")
        game.secret(token, _council(members, power))
    for n, power in enumerate(POWERS):
        other = POWERS[(n + 1) % 7]
        token = f"BILATERAL-{power}-{other}"
        game.say(ambassador(members, power, 1), f"PRESS TO {LETTER[other]}\n{token}\nENDPRESS")
        game.secret(token, {ambassador(members, power, 1).address, *_ambassadors(members, other)})
    game.say(ambassador(members, "ENGLAND", 2), "PRESS TO FG\nROOM-EFG\nENDPRESS")
    game.secret("ROOM-EFG", {ambassador(members, "ENGLAND", 2).address, *_ambassadors(members, "FRANCE"),
                             *_ambassadors(members, "GERMANY")})  # fmt: skip
    game.say(ambassador(members, "RUSSIA", 1), "BROADCAST\nCOMMON-ROOM\nENDPRESS")
    game.secret("COMMON-ROOM", {m.address for m in members if m.role == "ambassador"})

    # -- Austria accuses its second Ambassador, who pleads; a member changes his password -------------
    austria = [m for m in members if m.power == "AUSTRIA"]
    accused = ambassador(members, "AUSTRIA", 2)
    accusers = [m for m in austria if m != accused]
    first = game.mark()
    game.say(accusers[0], f"ACCUSE {member_id(harness, accused.address)}")
    told_first = set().union(*(readers(m) for m in harness.outbox()[first:]))
    assert told_first == {accusers[0].address, MASTER}  # the first accusation: its author and the master
    game.say(accusers[1], f"ACCUSE {member_id(harness, accused.address)}")
    game.say(accused, "TRIBUNAL TRIBUNAL-PLEA I am loyal to Austria.")
    game.secret("TRIBUNAL-PLEA", _council(members, "AUSTRIA"))
    game.say(general(members, "AUSTRIA"), "PRESS TO A\nAFTER-THE-ACCUSATION\nENDPRESS")
    game.secret("AFTER-THE-ACCUSATION", _council(members, "AUSTRIA") - {accused.address})
    changer = ambassador(members, "ENGLAND", 1)
    game.say(changer, "SET PASSWORD Zebra-Lantern-77")
    game.passwords[changer.address] = "Zebra-Lantern-77"
    game.secret("Zebra-Lantern-77", {changer.address})
    for member in members:
        game.secret(member.password, {member.address}, word=True)

    # -- two seasons: every General orders and releases; the yearly election; the concession ---------
    for season in ("spring", "fall"):  # nobody else may sign on with a General's password (test_councils_secrets)
        for power in POWERS:
            reply = game.say(general(members, power), HOLDS[power] + "\nREADY HOLD")
            assert "are released to the judge" in reply or "sont rendus à l'arbitre" in reply, (season, reply)
        game.play_phase()
    _elect(game, [m for m in members if m != accused], {})
    for power in POWERS:
        if power != "RUSSIA":
            game.say(general(members, power), "SET CONCEDE R")

    # -- the scan ------------------------------------------------------------------------------
    mails = harness.outbox()
    assert len(mails) > 350
    summary_seen = False
    shared = []
    for message in mails:
        to = readers(message)
        body = text(message)
        subject = str(message["Subject"])
        if len(to) != 1:
            shared.append((subject, sorted(to)))
        summary_seen = summary_seen or "spies revealed:" in body or "espions dévoilés" in body
        for reader in to:
            _check(game, message, reader, body, subject, summary_seen=summary_seen, spies=set(spies), french=french,
                   accused=accused.address)  # fmt: skip
    assert not shared, f"mails naming more than one reader: {shared[:5]}"
    _the_story_in_each_language(mails, french)
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.games.require("demo").state.value == "finished"


def _check(game: Game, message: EmailMessage, reader: str, body: str, subject: str, *, summary_seen: bool,
           spies: set[str], french: set[str], accused: str) -> None:  # fmt: skip
    """What one reader of one mail may read."""
    answered = str(message["In-Reply-To"] or "")
    if answered in game.writers:
        assert reader == game.writers[answered], (subject, reader)
    elif answered:
        raise AssertionError(f"a reply to a mail nobody sent: {subject}")
    else:  # a ballot is told to its voter only, in his reply
        assert "Recorded: your vote" not in body and "votre vote pour" not in body, (reader, subject)
    if not summary_seen and SPY_WORDS.search(body) and reader != MASTER:
        assert reader in spies and ("Your council" in subject or "Votre Conseil" in subject or answered), (
            reader, subject)  # fmt: skip
    for pattern, allowed in game.rules:
        if pattern.search(body):
            assert reader in allowed, (pattern.pattern, reader, subject)
    if reader == accused and "AFTER-THE-ACCUSATION" in body:
        raise AssertionError("the accused read his council's press")
    if "Results" in subject and reader in french:
        assert "Movement results for" not in body, (reader, subject)
    if "Results" in subject and reader not in french and reader != MASTER:
        assert "Movement results for" in body, (reader, subject)


STORY_LABELS = ("The councils, spies revealed:", "Members:", "Elections of the General-in-chief:",
                "Accusations of treason:", "spy working for {power}")  # fmt: skip


def _the_story_in_each_language(mails: list[EmailMessage], french: set[str]) -> None:
    """The final summary, the councils' story, reaches every member, each in his language: a French
    member reads its every heading in French, none in English (issue 26)."""
    story = {next(iter(readers(m))): text(m) for m in mails if "spies revealed:" in text(m) or "espions dévoilés" in text(m)}
    assert {reader for reader in story if reader != MASTER} == {f"p{n}@example.net" for n in range(21)}
    _ = translation("fr").gettext
    for reader, body in story.items():
        for label in STORY_LABELS:
            english, translated = label.split("{")[0], _(label).split("{")[0]
            assert english != translated, label
            assert (translated if reader in french else english) in body, (reader, label)
            if reader in french:
                assert english not in body, (reader, label)
