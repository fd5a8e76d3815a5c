"""A Fog of War (Blind) game played by mail, every reader's mail and answers checked (issue 32).

A master creates a Standard game with SET BLIND, an observer watches, seven players join it by
naming the option; a year is played by mail (SET END YEAR 1901 ends it after the fall). Every
results mail of every reader, and LIST, HISTORY, SUMMARY and MAP of every reader signed on, are
checked against what that reader may see, computed here by the rule docs/variants.md states (the
test's own reading of it, from the stored boards: its units' provinces and their neighbours, its
own centres; a unit's result when it was seen before the phase or ends it where it is seen):

* a power: the orders and results of the units it sees (its own in full), the centres it sees,
  its own count alone; its map with the units it sees and the rest dimmed;
* the master: everything;
* the observer (and the web pages): nothing of the board, until the master sends SET OBSERVERS
  SEE ALL (the observer then sees everything; the web pages still nothing) or the game ends;
* at the end everything becomes public.
"""

from __future__ import annotations

import random
import re
from email.message import EmailMessage

import pytest
from starlette.testclient import TestClient

from judge.app.audience.blind_view import EVERYTHING, NOTHING, View
from judge.app.mail_out.results_maps import map_language, view_of_map_language
from judge.app.mail_out.wording import place
from judge.core.geography import GameMap
from judge.core.orders import Move, Retreat
from judge.core.phase import PhaseType
from judge.core.position import Position
from judge.core.random_orders import RandomOrders
from judge.core.serialization import position_from_json
from judge.core.units import province_of
from judge.core.variants import load_map
from judge.db.models import OutboundMail, PhaseRecord
from judge.maps.contract import orders_from_result
from judge.web.app import create_app
from tests.app.conftest import Harness
from tests.app.games_helpers import player, register
from tests.app.masters_helpers import MASTER, MASTER_PASSWORD, read, state_of

pytestmark = pytest.mark.slow

GAME = "fog"
OBSERVER = "watcher@example.net"
STANDARD = load_map("standard")
NAMES = {STANDARD.power_names[p].name: p for p in STANDARD.powers}
PLACES = sorted(
    ((place(loc, "en", STANDARD), loc) for code in STANDARD.provinces
     for loc in (code, *(f"{code}/{coast}" for coast in STANDARD.province(code).coasts))),
    key=lambda item: -len(item[0]),
)  # fmt: skip
LINE = re.compile(r"^([A-Z][a-z]+):\s+(?:Army |Fleet |Builds an? (?:army|fleet) in |Removes the (?:army|fleet) in )(.*)$")

# Spring: Germany walks into Burgundy (France sees it arrive), with a French support France cannot
# see the origin of; Russia moves where Austria sees and France does not; Italy leaves Venice.
SPRING = {
    "FRANCE": "A PAR-PIC\nA MAR S A MUN-BUR\nF BRE S A RUH-PIC\n",  # the Ruhr, empty, is out of sight
    "GERMANY": "A MUN-BUR\nA BER-KIE\nF KIE-HOL\n",
    "RUSSIA": "A WAR-GAL\n",
    "ITALY": "A VEN-TYR\n",
    "AUSTRIA": "A VIE H\n",
}
FALL = {"GERMANY": "A BUR-MAR\n", "FRANCE": "A PIC-BEL\n"}  # a bounce France sees; both take a centre
WINTER = {"GERMANY": "BUILD A MUN\n", "FRANCE": "BUILD A PAR\n"}


def seen(game_map: GameMap, position: Position, power: str) -> set[str]:
    """The test's reading of the rule: its units' provinces (waiting to retreat too) and their
    neighbours, and its own centres."""
    provinces = {u.province for u in position.units if u.power == power}
    provinces |= {d.unit.province for d in position.dislodged if d.unit.power == power}
    out = set(provinces)
    for province in provinces:
        out |= game_map.province_neighbours(province)
    return out | set(position.centers.get(power, frozenset()))


def told(mail: str) -> set[tuple[str, str]]:
    """(power, location) of every order line of a results mail."""
    found: set[tuple[str, str]] = set()
    for line in mail.splitlines():
        match = LINE.match(line)
        if match is None or match.group(1) not in NAMES:
            continue
        rest = match.group(2)
        location = next(loc for name, loc in PLACES if rest.startswith(name))
        found.add((NAMES[match.group(1)], location))
    return found


def expected(record: PhaseRecord, power: str | None) -> set[tuple[str, str]]:
    """(power, location) of the order lines ``power`` may be told (None: every line)."""
    before = position_from_json(record.position_before).position
    after = position_from_json(record.position_after).position
    drawn = orders_from_result(record.results, before, STANDARD)
    lines = set()
    for entry in drawn.results:
        if entry.unit is None:
            continue
        order = entry.order
        moved = isinstance(order, Move | Retreat) and entry.outcome.value == "succeeds"
        end = province_of(order.destination) if moved and order is not None else entry.unit.province  # type: ignore[union-attr]
        if (
            power is None or entry.power == power or entry.unit.province in seen(STANDARD, before, power)
            or end in seen(STANDARD, after, power)
        ):  # fmt: skip
            lines.add((entry.power, entry.unit.location))
    return lines


def exchange_ok(harness: Harness, sender: str, body: str) -> str:
    reply = harness.exchange(sender, body)
    assert "[Error Flag]" not in reply["Subject"], read(reply)
    return read(reply)


def form(harness: Harness, *, end_year: int = 1901) -> dict[str, str]:
    """The game formed and started by mail (it ends after ``end_year``); power -> its player's address."""
    register(harness, MASTER)
    created = exchange_ok(
        harness, MASTER,
        f"CREATE ?{GAME} {MASTER_PASSWORD}\nBECOME MASTER\nSET BLIND\nSET MANUAL PROCESS\nSET END YEAR {end_year}\n",
    )  # fmt: skip
    assert "Options: blind." in created, created
    register(harness, OBSERVER)
    exchange_ok(harness, OBSERVER, f"OBSERVE {GAME} watchpw\n")
    listed = exchange_ok(harness, OBSERVER, f"LIST {GAME}\n")
    assert "Variant and options: Standard blind." in listed, listed
    addresses = [player(n) for n in range(7)]
    for address in addresses:
        register(harness, address)
    # A blind game is joined only by naming the option (the Judge's guard against a mistake).
    refused = harness.exchange(addresses[0], f"SIGNON ?{GAME} pw0\n")
    assert "[Error Flag]" in refused["Subject"], read(refused)
    for n, address in enumerate(addresses):
        joined = exchange_ok(harness, address, f"SIGNON ?{GAME} pw{n} standard blind\n")
        assert f"You have joined game '{GAME}' (Standard blind)." in joined, joined
        assert f":: Judge: XPY  Game: {GAME}  Variant: Standard Blind" in joined, joined
    return {power: address for address, power, _status in state_of(harness, GAME).seats if power and address}


def signon(seats: dict[str, str], power: str) -> str:
    address = seats[power]
    return f"SIGNON {STANDARD.letters[power]}{GAME} pw{int(address[1:].split('@')[0])}\n"


def mail_to(mails: list[EmailMessage], address: str) -> EmailMessage:
    [mail] = [m for m in mails if address in str(m["To"]) and str(m["Subject"]).endswith(" Results")]
    return mail


def map_languages(harness: Harness, subject: str) -> dict[str, str]:
    """{address: the outbox row's map_language} of the mails with ``subject``."""
    with harness.db.unit_of_work(readonly=True) as uow:
        rows = uow.session.query(OutboundMail).filter(OutboundMail.map_phase_id.is_not(None)).all()
        wanted = f"Subject: {subject}\r\n".encode()
        return {row.recipients[0]: str(row.map_language) for row in rows if wanted in bytes(row.message)}


def record_of(harness: Harness, name: str) -> PhaseRecord:
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require(GAME)
        [record] = [r for r in uow.phases.history(game) if r.name == name]
        uow.session.expunge(record)
        return record


def check_results(
    harness: Harness, seats: dict[str, str], phase: str, *, over: bool, observers_see: bool = False
) -> dict[str, str]:
    """Every reader's results mail of ``phase`` against what it may see; {address: text}."""
    mails = harness.others
    record = record_of(harness, phase)
    texts = {}
    for power, address in seats.items():
        body = read(mail_to(mails, address))
        texts[address] = body
        assert told(body) == expected(record, None if over else power), (power, body)
        table = [line for line in body.splitlines() if "Supply centers," in line]
        if not over:
            assert all(line.startswith(STANDARD.power_names[power].name) for line in table), (power, body)
    master = read(mail_to(mails, MASTER))
    assert told(master) == expected(record, None), master
    observer = read(mail_to(mails, OBSERVER))
    if over or observers_see:
        assert told(observer) == expected(record, None), observer
    else:
        assert told(observer) == set(), observer
        assert "This is a Fog of War game: what happened is shown to observers when the game is over." in observer
        assert "Supply centers," not in observer and "Ownership" not in observer
    texts[MASTER], texts[OBSERVER] = master, observer
    # The results map of each reader: its own view (the power's index in the map), the master's
    # whole board, the observer's nothing; everyone's whole board once the game is over.
    languages = map_languages(harness, str(mail_to(mails, MASTER)["Subject"]))
    assert languages[MASTER] == "en"
    assert languages[OBSERVER] == ("en" if over or observers_see else "en:-")
    for power, address in seats.items():
        assert languages[address] == ("en" if over else f"en:{STANDARD.powers.index(power)}")
    return texts


def svg_units(svg: str) -> set[tuple[str, str]]:
    return set(re.findall(r'class="unit[^"]*" data-power="([A-Z]+)" data-unit="[AF]" data-loc="([A-Z/]+)"', svg))


def svg_unseen(svg: str) -> set[str]:
    match = re.search(r'<style class="fog" data-unseen="([A-Z ]*)"', svg)
    return set(match.group(1).split()) if match else set()


def check_answers(harness: Harness, seats: dict[str, str], *, over: bool) -> None:
    """LIST, HISTORY, SUMMARY and MAP of every reader signed on, against what it may see."""
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require(GAME)
        current = uow.phases.current(game) or uow.phases.history(game)[-1]
        board = position_from_json(current.position_before).position
        after = position_from_json(current.position_after or current.position_before).position
        processed = [r.name for r in uow.phases.history(game) if r.processed_at is not None]
    readers = [(power, seats[power], signon(seats, power)) for power in STANDARD.powers]
    readers += [(None, MASTER, f"SIGNON M{GAME} {MASTER_PASSWORD}\n"), (None, OBSERVER, "")]
    for power, address, sign in readers:
        everything = over or address == MASTER
        sight = None if everything else (seen(STANDARD, board, power) if power else set())
        # One mail each: LIST, HISTORY, SUMMARY and MAP, answered in the reply's sections.
        reply = harness.exchange(
            address, f"{sign}LIST {GAME}\nHISTORY {GAME} EXCLSTART S1901M\nSUMMARY {GAME}\nMAP {GAME} SVG\n"
        )
        answer = read(reply)
        assert "[Error Flag]" not in reply["Subject"], answer
        listed = answer.split(f"> LIST {GAME}")[1].split("> HISTORY")[0]
        history = answer.split("> HISTORY")[1].split("> SUMMARY")[0]
        summary = answer.split("> SUMMARY")[1].split("> MAP")[0]
        if over:  # a finished game's LIST shows no board, and hides no count
            assert "Units on the board:" not in listed and "       ?" not in listed, listed
        else:
            units = listed.split("Units on the board:")[1].split("Supply centres owned:")[0].splitlines()
            shown = {NAMES[line.split(":")[0].strip()] for line in units if line.strip()}
            visible = {u.power for u in board.units if sight is None or u.province in sight or u.power == power}
            assert shown == visible, (address, listed)
        if not everything:
            rows = [line for line in listed.splitlines() if re.match(r"^  [A-Z][a-z]+ ", line) and "?" in line]
            assert len(rows) == (6 if power else 7), (address, listed)
        for name in processed:
            told_here = told(history.split(f"{GAME} - {name} Results")[1].split("=====")[0])
            record = record_of(harness, name)
            assert told_here == (expected(record, None) if everything else
                                 expected(record, power) if power else set()), (address, name, history)  # fmt: skip
        heading = next((line for line in summary.splitlines() if line.strip().startswith("Year")), "")
        assert heading.split()[1:] == (
            [STANDARD.power_names[p].name[:3] for p in STANDARD.powers] if everything else
            [STANDARD.power_names[power].name[:3]] if power else []
        ), (address, summary)  # fmt: skip
        svg = next(part for part in reply.iter_attachments()).get_content()
        svg = svg.decode() if isinstance(svg, bytes) else svg
        drawn = svg_units(svg)
        if sight is None:
            assert svg_unseen(svg) == set()
            whole = {(u.power, u.location) for u in board.units}
            assert whole <= drawn <= whole | {(u.power, u.location) for u in after.units}, address  # builds drawn
        else:
            assert svg_unseen(svg) == set(STANDARD.provinces) - sight, address
            assert drawn == {(u.power, u.location) for u in board.units if u.province in sight or u.power == power}


def check_pages(harness: Harness, *, over: bool) -> None:
    """The web pages: nothing of a running blind game; everything once it is over."""
    with TestClient(create_app(harness.services, rate=10_000, burst=10_000)) as client:
        index = client.get("/")
        assert (f"/games/{GAME}" in index.text) == over
        for path in (f"/games/{GAME}", f"/games/{GAME}/S1901M", f"/api/games/{GAME}", f"/api/games/{GAME}/S1901M",
                     f"/games/{GAME}/feed.atom"):  # fmt: skip
            assert client.get(path).status_code == (200 if over else 404), path
        if over:
            page = client.get(f"/games/{GAME}/S1901M").text
            assert "Army Warsaw" in page and "Army Munich" in page


def test_a_blind_game_by_mail_every_reader_sees_what_it_may(
    sqlite_harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = sqlite_harness  # one engine: the stored state (results JSON, outbox rows) is the usual kind
    # The harness would draw every results mail's PNG on each read of the outbox; the maps are
    # checked here as MAP's SVG (the same drawing, phase_svg) and by what each outbox row asks.
    delivered = harness._delivered
    monkeypatch.setattr(harness, "_delivered", lambda id, message, phase, language=None: delivered(id, message, None))
    seats = form(harness)
    starting = [m for m in harness.others if "Game Starting" in str(m["Subject"])]
    assert len(starting) == 9
    languages = map_languages(harness, str(starting[0]["Subject"]))
    assert languages[MASTER] == "en" and languages[OBSERVER] == "en:-"
    assert {languages[seats[p]] for p in STANDARD.powers} == {f"en:{i}" for i in range(7)}
    check_pages(harness, over=False)

    acks = {power: exchange_ok(harness, seats[power], signon(seats, power) + orders) for power, orders in SPRING.items()}
    # Orders may name units out of sight: taken as written, and the reply tells nothing of them.
    assert "France: Army Marseilles SUPPORT Army Munich -> Burgundy." in acks["FRANCE"], acks["FRANCE"]
    assert "France: Fleet Brest SUPPORT Army Ruhr -> Picardy." in acks["FRANCE"], acks["FRANCE"]
    assert "German" not in acks["FRANCE"] and "no unit" not in acks["FRANCE"]
    harness.new_mail()
    exchange_ok(harness, MASTER, f"SIGNON M{GAME} {MASTER_PASSWORD}\nPROCESS\n")
    texts = check_results(harness, seats, "S1901M", over=False)
    french = texts[seats["FRANCE"]]
    # The support of a unit France did not see is reported without naming its power.
    assert "France:  Army Marseilles SUPPORT Army Munich -> Burgundy." in french, french
    assert "Germany: Army Munich -> Burgundy." in french and "Russia" not in french
    assert "Russia:  Army Warsaw -> Galicia." in texts[seats["AUSTRIA"]]
    check_answers(harness, seats, over=False)

    # The master lets the observers see the whole board from now on.
    allowed = exchange_ok(harness, MASTER, f"SIGNON M{GAME} {MASTER_PASSWORD}\nSET OBSERVERS SEE ALL\nLIST\n")
    assert "Observers see the whole board: ObserversSeeAll (was NoObserversSeeAll)." in allowed, allowed
    assert "ObserversSeeAll" in allowed.split("Flags:")[1].splitlines()[0], allowed
    for power, orders in FALL.items():
        exchange_ok(harness, seats[power], signon(seats, power) + orders)
    harness.new_mail()
    exchange_ok(harness, MASTER, f"SIGNON M{GAME} {MASTER_PASSWORD}\nPROCESS\n")
    texts = check_results(harness, seats, "F1901M", over=False, observers_see=True)
    french = texts[seats["FRANCE"]]
    assert "Germany: Army Burgundy -> Marseilles.  (*bounce*)" in french, french
    assert "France:  4 Supply centers,  3 Units:  Builds   1 unit(s)." in french, french
    assert not any(line.startswith("Germany:") and "Supply centers" in line for line in french.splitlines())
    assert "Belgium" in french.split("Ownership of supply centers:")[1] and "Warsaw" not in french

    for power, orders in WINTER.items():
        exchange_ok(harness, seats[power], signon(seats, power) + orders)
    harness.new_mail()
    exchange_ok(harness, MASTER, f"SIGNON M{GAME} {MASTER_PASSWORD}\nPROCESS\n")
    texts = check_results(harness, seats, "W1901A", over=True)  # the last phase (END YEAR 1901): all public
    assert state_of(harness, GAME).columns["state"] == "finished"
    assert "Germany: Builds an army in Munich." in texts[OBSERVER] and "Builds an army in Paris" in texts[OBSERVER]
    check_answers(harness, seats, over=True)
    check_pages(harness, over=True)


@pytest.mark.parametrize("power", [None, *STANDARD.powers])
def test_an_outbox_row_keeps_its_readers_view_for_the_map_in_eight_characters(power: str | None) -> None:
    for view in (EVERYTHING, NOTHING) if power is None else (View(everything=False, power=power),):
        kept = map_language("fr", view, STANDARD)
        assert len(kept) <= 8  # mail_out.map_language is a String(8)
        assert view_of_map_language(kept, STANDARD) == ("fr", view)


def test_a_seeded_random_blind_game_by_mail_tells_each_reader_only_what_it_may_see(
    sqlite_harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two years of seeded random legal orders (the property tests' generator), mailed by each player
    and processed by the master: every results mail of every phase, to each power, the master and
    the observer, tells exactly what that reader may see, until the last one makes it all public."""
    harness = sqlite_harness
    delivered = harness._delivered
    monkeypatch.setattr(harness, "_delivered", lambda id, message, phase, language=None: delivered(id, message, None))
    seats = form(harness, end_year=1902)
    maker = RandomOrders(STANDARD, random.Random(32))
    checked: set[str] = set()
    hidden = moved = 0
    for _turn in range(12):
        with harness.db.unit_of_work(readonly=True) as uow:
            game = uow.games.require(GAME)
            if game.state.value == "finished":
                break
            current = uow.phases.current(game)
            assert current is not None
            position = position_from_json(current.position_before).position
        # Retreats are left unordered (the units disband): the generator needs the adjudication's options.
        orders = {} if position.phase.type is PhaseType.RETREAT else maker.orders(position, {})
        for power, listed in orders.items():
            if listed and power in seats:
                exchange_ok(harness, seats[power], signon(seats, power) + "".join(f"{o}\n" for o in listed))
        harness.new_mail()
        exchange_ok(harness, MASTER, f"SIGNON M{GAME} {MASTER_PASSWORD}\nPROCESS\n")
        mails = harness.others
        with harness.db.unit_of_work(readonly=True) as uow:
            game = uow.games.require(GAME)
            finished = game.state.value == "finished"
            names = [r.name for r in uow.phases.history(game) if r.processed_at is not None and r.name not in checked]
        for name in names:
            over = finished and name == names[-1]
            record = record_of(harness, name)
            subject = f" {name} Results"
            for reader, power in [*((a, p) for p, a in seats.items()), (MASTER, None), (OBSERVER, None)]:
                [mail] = [m for m in mails if reader in str(m["To"]) and str(m["Subject"]).endswith(subject)]
                body = read(mail)
                if over or reader == MASTER:
                    want = expected(record, None)
                else:
                    want = set() if reader == OBSERVER else expected(record, power)
                assert told(body) == want, (name, reader, body)
                hidden += power is not None and not over and want < expected(record, None)
            checked.add(name)
            moved += sum(isinstance(o, Move) for listed in orders.values() for o in listed)
    assert finished, "the game ends after 1902 (SET END YEAR)"
    assert {"S1901M", "F1901M", "W1901A", "S1902M", "F1902M"} <= checked, checked
    assert moved > 20 and hidden > 20, (moved, hidden)  # the game moved, and the fog hid something
