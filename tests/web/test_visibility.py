"""What the pages reveal to whom (issue 29): exactly what an observer by mail may see.

Games are played by mail (sign-ons, orders, press through the judge's handlers), then every
page, picture, feed and JSON answer reachable from ``/`` is crawled, and none of the strings
an observer never receives may appear: anyone's address, private press, a gunboat game's
players, a council's press and its spy, master-only press of a moderated game, an unlisted
game, the orders of a phase not yet processed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest
from starlette.testclient import TestClient

from judge.db.enums import GameState
from tests.app.conftest import Harness
from tests.app.councils_helpers import form_council_game, seated
from tests.app.reports_helpers import POWERS, address_of, password_of, process, start_game

pytestmark = pytest.mark.engine_blind  # the engine cannot change what these check: SQLite only

LINK = re.compile(r'(?:href|src)="(/[^"]*)"')


def crawl(web: TestClient, starts: Iterable[str] = ("/",)) -> dict[str, str]:
    """Every page reachable from ``starts`` (and each game's feeds and JSON), path -> body text."""
    seen: dict[str, str] = {}
    todo = [*list(starts), "/feed.atom", "/api/games"]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        answer = web.get(path)
        assert answer.status_code == 200, (path, answer.status_code)
        body = answer.content.decode("utf-8", "replace") if not path.endswith(".png") else ""
        seen[path] = body
        found = [link.replace("&amp;", "&") for link in LINK.findall(body)]
        for game in re.findall(r'"/games/([a-z0-9_.-]+)"', body):
            found += [f"/api/games/{game}", f"/games/{game}/deadlines.ics"]
        for phase in re.findall(r'href="/games/([a-z0-9_.-]+)/([A-Z0-9]+)"', body):
            found.append(f"/api/games/{phase[0]}/{phase[1]}")
        todo += [link for link in found if link not in seen]
    return seen


def assert_nowhere(pages: dict[str, str], secrets: Iterable[str]) -> None:
    for secret in secrets:
        for path, body in pages.items():
            assert secret.lower() not in body.lower(), f"{secret!r} shown at {path}"


def mail(harness: Harness, sender: str, body: str) -> None:
    harness.exchange(sender, body)


def stored_press(harness: Harness) -> set[str]:
    """Every press text the judge stored (so that a test knows its secret was really sent)."""
    from judge.db.models import PressMessage

    with harness.db.unit_of_work(readonly=True) as uow:
        return {message.body.strip() for message in uow.session.query(PressMessage)}


def france_signon(name: str = "demo") -> str:
    return f"SIGNON F{name} {password_of('FRANCE')}\n"


def test_a_gunboat_game_with_private_press_shows_no_player_and_no_private_press(
    harness: Harness, web: TestClient
) -> None:
    start_game(harness, "boat", options=["gunboat"])
    mail(harness, address_of("FRANCE"), france_signon("boat") + "PRESS TO E\nOnly England reads this.\nENDPRESS\n")
    mail(harness, address_of("FRANCE"), france_signon("boat") + "PRESS TO M\nOnly the master reads this.\nENDPRESS\n")
    mail(harness, address_of("FRANCE"), france_signon("boat") + "BROADCAST\nEveryone reads this.\nENDBROADCAST\n")
    mail(harness, address_of("FRANCE"), france_signon("boat") + "PRESS TO O\nThe observers read this.\nENDPRESS\n")
    process(harness, "boat", {"FRANCE": ["A PAR-BUR"]})
    assert {"Only England reads this.", "Only the master reads this."} <= stored_press(harness)
    pages = crawl(web)
    assert "/games/boat/S1901M" in pages and "/games/boat/S1901M.svg" in pages
    everything = "\n".join(pages.values())
    assert "Everyone reads this." in everything and "The observers read this." in everything
    assert "Broadcast message from France" in everything  # the power, as the observers' copy said
    assert_nowhere(pages, [
        "Only England reads this.", "Only the master reads this.", "@example.net",
        *(f"{power.title()} Player" for power in POWERS), "pwfrance",
    ])


def test_a_finished_gunboat_game_names_its_players_unless_noreveal(harness: Harness, web: TestClient) -> None:
    start_game(harness, "shown", options=["gunboat"])
    start_game(harness, "kept", options=["gunboat"], reveal=False)
    for name in ("shown", "kept"):
        with harness.db.unit_of_work() as uow:
            game = uow.games.require(name)
            game.state = GameState.FINISHED
            game.finished_at = harness.clock.now()
    assert "France Player" in web.get("/games/shown").text
    kept = web.get("/games/kept").text
    assert "France Player" not in kept and "gunboat" in kept
    assert "players" not in web.get("/api/games/kept").json()["powers"][0]


def test_orders_of_a_phase_not_processed_are_shown_nowhere(harness: Harness, web: TestClient) -> None:
    start_game(harness, "demo")
    paths = ["/games/demo", "/games/demo/S1901M", "/games/demo/S1901M.svg", "/api/games/demo/S1901M",
             "/api/games/demo", "/games/demo/feed.atom", "/feed.atom"]
    before = {path: web.get(path).content for path in paths}
    mail(harness, address_of("FRANCE"), france_signon() + "A PAR-BUR\nF BRE-MAO\nA MAR-SPA\n")
    after = {path: web.get(path).content for path in paths}
    assert after == before
    phase = web.get("/api/games/demo/S1901M").json()
    assert phase["processed"] is False and "input" not in phase and "result" not in phase
    assert "This phase is being played" in web.get("/games/demo/S1901M").text
    process(harness, "demo")
    assert "Paris -&gt; Burgundy" in web.get("/games/demo/S1901M").text  # once processed, as the results said
    assert web.get("/api/games/demo/S1901M").json()["input"]["orders"]["FRANCE"]


def test_an_unlisted_game_is_not_on_any_page(harness: Harness, web: TestClient) -> None:
    start_game(harness, "open")
    start_game(harness, "hush")
    with harness.db.unit_of_work() as uow:
        uow.games.require("hush").listed = False
    pages = crawl(web)
    assert "/games/open" in pages
    assert_nowhere(pages, ["hush"])
    for path in ("/games/hush", "/games/hush/S1901M", "/games/hush/S1901M.svg", "/api/games/hush",
                 "/api/games/hush/S1901M", "/games/hush/feed.atom", "/games/hush/deadlines.ics"):
        assert web.get(path).status_code == 404, path


def test_a_moderated_game_shows_no_master_only_press(harness: Harness, web: TestClient) -> None:
    start_game(harness, "ruled")
    with harness.db.unit_of_work() as uow:
        uow.games.require("ruled").moderated = True
    mail(harness, address_of("FRANCE"), france_signon("ruled") + "PRESS TO M\nA word to the master.\nENDPRESS\n")
    mail(harness, "master@example.net", "SIGNON Mruled masterpw\nPRESS TO F\nThe master answers France.\nENDPRESS\n")
    assert {"A word to the master.", "The master answers France."} <= stored_press(harness)
    pages = crawl(web)
    assert "Game Master" in pages["/games/ruled"]  # the master's name, as SUMMARY gives it
    assert_nowhere(pages, ["A word to the master.", "The master answers France.", "@example.net", "masterpw"])


def test_a_council_game_shows_no_council_press_no_member_and_no_spy(harness: Harness, web: TestClient) -> None:
    addresses = form_council_game(harness)
    members = seated(harness)
    spies = [m for m in members if m.true_power is not None]
    assert spies, "the council game has a spy"
    general = next(m for m in members if m.role == "general")
    mail(harness, general.address, f"{general.signon}\nPRESS TO {general.signon.split()[1][0]}\n"
                                   "Council secret.\nENDPRESS\n")
    assert "Council secret." in stored_press(harness)
    pages = crawl(web)
    assert "/games/demo" in pages
    assert "<th>Players</th>" not in pages["/games/demo"] and "played by a council" in pages["/games/demo"]
    assert_nowhere(pages, ["Council secret.", "spy", "espion", "@example.net", *addresses])


@pytest.mark.engine_sql  # issue 29 asks the crawl, the hostile-input and the browser tests on both engines
def test_one_judge_with_every_kind_of_game_shows_none_of_their_secrets(harness: Harness, web: TestClient) -> None:
    """The issue's crawl: a gunboat game with private press, a council game with a spy, a
    moderated game, an unlisted game and a game with orders waiting, all on one judge, every
    page, picture, feed and JSON answer reachable from the list of games."""
    addresses = form_council_game(harness)
    spies = [m for m in seated(harness) if m.true_power is not None]
    start_game(harness, "boat", options=["gunboat"])
    mail(harness, address_of("FRANCE"), france_signon("boat") + "PRESS TO E\nGunboat secret.\nENDPRESS\n")
    start_game(harness, "ruled")
    with harness.db.unit_of_work() as uow:
        uow.games.require("ruled").moderated = True
    mail(harness, address_of("FRANCE"), france_signon("ruled") + "PRESS TO M\nModerated secret.\nENDPRESS\n")
    start_game(harness, "hush")
    with harness.db.unit_of_work() as uow:
        uow.games.require("hush").listed = False
    mail(harness, address_of("FRANCE"), france_signon("hush") + "BROADCAST\nUnlisted broadcast.\nENDBROADCAST\n")
    mail(harness, address_of("FRANCE"), france_signon("ruled") + "A PAR-PIC\nF BRE-ENG\n")
    assert {"Gunboat secret.", "Moderated secret.", "Unlisted broadcast."} <= stored_press(harness)
    pages = crawl(web)
    assert {"/games/demo", "/games/boat", "/games/ruled", "/api/games/ruled/S1901M"} <= set(pages)
    assert spies
    assert_nowhere(pages, [
        "Gunboat secret.", "Moderated secret.", "Unlisted broadcast.", "hush", "spy", "espion",
        "@example.net", "Picardy", "English Channel", *addresses,
    ])
    boat = pages["/games/boat"] + pages["/api/games/boat"]
    assert not any(f"{power.title()} Player" in boat for power in POWERS)  # the same people are named elsewhere


BOATMEN = ("Alder", "Birch", "Cedar", "Damson", "Elder", "Fir", "Gorse")


def _by_mail(harness: Harness, sender: str, body: str) -> str:
    """Send ``body`` from ``sender``; the reply's text, which must carry no error flag."""
    from tests.app.conftest import text

    reply = harness.exchange(sender, body)
    assert "[Error Flag]" not in str(reply["Subject"]), text(reply)
    return text(reply)


def _join_by_mail(harness: Harness, name: str, people: list[str], variant: str = "") -> dict[str, tuple[str, str]]:
    """The people (after the creator, ``people[0]``, whose password is ``<name>pw0``) SIGNON the
    forming game ``name`` (password ``<name>pw<n>``) until it starts; power -> (address, password)."""
    from tests.app.games_helpers import powers_of

    for n, person in enumerate(people[1:], start=1):
        _by_mail(harness, person, f"SIGNON ?{name} {name}pw{n}{variant}\n")
    powers = powers_of(harness, name)
    assert len(powers) == 7, powers
    return {power: (address, f"{name}pw{people.index(address)}") for address, power in powers.items()}


def _signon(name: str, power: str, password: str) -> str:
    from tests.app.orders_helpers import LETTER

    return f"SIGNON {LETTER[power]}{name} {password}\n"


@pytest.mark.engine_sql  # issue 29 asks the crawl, the hostile-input and the browser tests on both engines
def test_games_formed_and_played_by_mail_leak_nothing_on_any_page_in_either_language(
    harness: Harness, web: TestClient
) -> None:
    """The issue's crawl with every game formed and played by mail, as people play: a gunboat
    game (CREATE, SIGNON, private press, orders, its deadline passed by the scheduler), a council
    game with its spy and council press, a moderated game (CREATE then BECOME MASTER) with press
    to and from its master and orders waiting, and a game its master hid with SET NO LIST; then
    every page, picture, feed and JSON answer reachable from ``/`` and from ``/?lang=fr``."""
    from judge.app.phases.guarded_scheduler import process_due
    from tests.app.games_helpers import register
    from tests.app.orders_helpers import LETTER
    from tests.app.test_processing_results import OPENINGS

    # The council game (formed by mail: CREATE with SET COUNCILS, 20 SIGNONs), its general's press.
    council_addresses = form_council_game(harness)
    members = seated(harness)
    spies = [m for m in members if m.true_power is not None]
    assert spies, "the council game has a spy"
    general = next(m for m in members if m.role == "general")
    harness.exchange(general.address, f"{general.signon}\nPRESS TO {general.signon.split()[1][0]}\n"
                                      "Council secret by mail.\nENDPRESS\n")

    # The gunboat game, formed and played by mail.
    sailors = [f"sailor{n}@example.org" for n in range(7)]
    for n, sailor in enumerate(sailors):
        register(harness, sailor, name=f"Boatman {BOATMEN[n]}")
    _by_mail(harness, sailors[0], "CREATE ?boat boatpw0 standard gunboat\n")
    boat = _join_by_mail(harness, "boat", sailors, " standard gunboat")
    (first, (first_address, first_pw)), (second, _), (third, _) = sorted(boat.items())[:3]
    _by_mail(harness, first_address, _signon("boat", first, first_pw)
             + f"PRESS TO {LETTER[second]}{LETTER[third]}\nGunboat private press by mail.\nENDPRESS\n"
             + "BROADCAST\nGunboat broadcast by mail.\nENDBROADCAST\n")
    for power, (sailor, password) in boat.items():
        _by_mail(harness, sailor, _signon("boat", power, password) + OPENINGS[power])
    for _ in range(24 * 8):
        if "/games/boat/F1901M" in web.get("/games/boat").text:
            break
        harness.clock.advance(hours=1)
        process_due(harness.services)
    else:
        raise AssertionError("the gunboat game's first phase was never processed")

    # The moderated game: its creator becomes its master; press to and from the master; orders waiting.
    _by_mail(harness, "mod@example.org", "REGISTER\nName: Moderator Quill\nCountry: Liechtenstein\n"
             "Phone: +423 555 0199\nAddress: 7 Hidden Lane, Vaduz\nBirthdate: 1971-02-03\n"
             "Site: Quiet University\nClub: Secret Circle\nEND\n")  # personal data, by mail
    for n in range(1, 8):
        register(harness, f"ruler{n}@example.org", name=f"Ruler Number {n}")
    register(harness, "hider@example.org", name="Hidden Keeper")
    _by_mail(harness, "mod@example.org", "CREATE ?ruled modpw\nBECOME MASTER\n")
    ruled = _join_by_mail(harness, "ruled", ["mod@example.org", *(f"ruler{n}@example.org" for n in range(1, 8))])
    france, france_pw = ruled["FRANCE"]
    _by_mail(harness, france, _signon("ruled", "FRANCE", france_pw)
             + "PRESS TO M\nModerated secret by mail.\nENDPRESS\nA PAR-PIC\nF BRE-ENG\nA MAR-GAS\n")
    _by_mail(harness, "mod@example.org", "SIGNON Mruled modpw\nPRESS TO F\nThe master's secret answer.\nENDPRESS\n")

    # The game its master hid.
    _by_mail(harness, "hider@example.org", "CREATE ?hushhush hidepw\nBECOME MASTER\nSET NO LIST\n")

    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.games.require("hushhush").listed is False
        assert uow.games.require("ruled").moderated is True
        moderator = uow.people.by_address("mod@example.org")
        assert moderator is not None and moderator.phone and moderator.postal_address and moderator.birth_date
    assert {"Council secret by mail.", "Gunboat private press by mail.", "Moderated secret by mail.",
            "The master's secret answer."} <= stored_press(harness)

    english = crawl(web)
    french = crawl(web, ("/?lang=fr",))
    assert "/games/boat/S1901M" in english and "/games/ruled/S1901M?lang=fr" in french
    everything = "\n".join(english.values())
    assert "Gunboat broadcast by mail." in everything and "Moderator Quill" in english["/games/ruled"]
    assert "Ruler Number 3" in english["/games/ruled"]  # its players are named, as SUMMARY names them
    secrets = [
        "Council secret by mail.", "spy", "espion", *council_addresses,
        "Gunboat private press by mail.", "Boatman", "boatpw", "sailor",
        "Moderated secret by mail.", "The master's secret answer.", "modpw", "Picardy", "English Channel",
        "Gascony", "Picardie", "Manche", "Gascogne", "mod@example.org", "Hidden Keeper",
        "hushhush", "hider", "hidepw", "@example.net",
        "Liechtenstein", "555 0199", "Hidden Lane", "1971", "Quiet University", "Secret Circle", *sailors, *(address for address, _ in ruled.values()),
    ]
    assert_nowhere(english, secrets)
    assert_nowhere(french, secrets)
