"""The pages themselves (issue 29): the list of games, a game, a phase and its map, in English
and French, in UTC or the reader's zone; and what any request gets: strict headers, no cookie,
404 for anything odd, only GET and HEAD, escaped text, a rate limit."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from starlette.testclient import TestClient

from judge.db.enums import GameState, PressKind, SeatStatus
from judge.ruling import rule_on
from judge.web.app import create_app
from tests.app.conftest import Harness
from tests.app.reports_helpers import finish, post, process, start_game

pytestmark = pytest.mark.engine_blind  # the engine cannot change what these check: SQLite only

HOSTILE = "<script>alert('x')</script>"


@pytest.mark.engine_sql
def test_the_index_lists_forming_active_and_finished_games_with_their_open_powers(
    harness: Harness, web: TestClient
) -> None:
    start_game(harness, "alpha")
    start_game(harness, "omega")
    finish(harness, "omega")
    with harness.db.unit_of_work() as uow:
        uow.games.create("newbie", harness.clock.now())
        alpha = uow.games.require("alpha")
        seat = uow.seats.by_power(alpha, "ITALY")
        assert seat is not None
        uow.seats.leave(seat, harness.clock.now(), SeatStatus.RESIGNED, phase=alpha.current_phase)
        alpha.deadline_at = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    page = web.get("/").text
    forming, active, finished = (page.index(f'<section id="{key}">') for key in ("forming", "active", "finished"))
    assert forming < page.index("/games/newbie") < active < page.index("/games/alpha") < finished
    assert page.index("/games/omega") > finished
    row = page[page.index("/games/alpha"):]
    row = row[: row.index("</tr>")]
    assert "Standard" in row and "Spring 1901, movement (S1901M)" in row and "Italy" in row
    assert "Monday 30 November 2026, 12:00 UTC" in row
    assert "SIGNON ?newbie password" in page and "judge@example.org" in page
    games = {game["name"]: game for game in web.get("/api/games").json()}
    assert games["alpha"]["open_powers"] == ["ITALY"] and games["newbie"]["state"] == "forming"


@pytest.mark.engine_sql
def test_a_game_page_has_its_powers_phases_map_chart_and_settings(harness: Harness, web: TestClient) -> None:
    start_game(harness, "demo")
    process(harness, "demo", {"FRANCE": ["A PAR-BUR", "F BRE-MAO"]})
    process(harness, "demo", {"FRANCE": ["A BUR-BEL", "F MAO-POR"]})
    page = web.get("/games/demo").text
    for phase in ("S1901M", "F1901M", "W1901A"):
        assert f'href="/games/demo/{phase}"' in page
    assert '<img class="map" src="/games/demo/W1901A.svg"' in page
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in page and "<polyline" in page  # the centres chart
    assert "<td>France</td><td class=\"n\">5</td>" in page  # Brest, Marseilles, Paris, Belgium, Portugal
    assert "France Player" in page and "Game Master" in page  # names, as SUMMARY gives them
    assert "Press settings: White" in page
    data = web.get("/api/games/demo").json()
    assert [p["name"] for p in data["phases"]] == ["S1901M", "F1901M", "W1901A"]
    assert data["centres_by_year"][-1] == {"year": 1901, "centres": data["centres_by_year"][-1]["centres"]}
    assert data["centres_by_year"][-1]["centres"]["FRANCE"] == 5


@pytest.mark.engine_sql
def test_a_phase_page_shows_its_map_results_board_and_neighbours(harness: Harness, web: TestClient) -> None:
    start_game(harness, "demo")
    process(harness, "demo", {"FRANCE": ["A PAR-BUR"]})
    process(harness, "demo", {"FRANCE": ["F BRE-MAO"]})
    following = web.get("/api/games/demo").json()["phases"][2]["name"]
    page = web.get("/games/demo/F1901M").text
    assert 'rel="prev" href="/games/demo/S1901M"' in page and f'rel="next" href="/games/demo/{following}"' in page
    assert 'src="/games/demo/F1901M.svg"' in page and "Movement results for Fall of 1901" in page
    assert "Units on the board:" in page and "A Burgundy" in page
    french = web.get("/games/demo/F1901M?lang=fr").text  # the results in French, though no reader is French
    assert "Résultats des mouvements de l&#39;automne 1901" in french and "aucun ordre traité" in french
    assert "No Order Processed" not in french and "Movement results" not in french
    assert web.get("/games/demo/f1901m").status_code == 200  # any case, as MAP reads it
    svg = web.get("/games/demo/F1901M.svg")
    png = web.get("/games/demo/F1901M.png")
    assert svg.headers["content-type"] == "image/svg+xml" and svg.text.startswith("<")
    assert png.headers["content-type"] == "image/png" and png.content[:8] == b"\x89PNG\r\n\x1a\n"
    api = web.get("/api/games/demo/F1901M").json()
    assert api["position"]["phase"] == "F1901M" and api["input"]["units"] and "report" not in api["result"]
    # The ruling in the contract's terms: the entries judge adjudicate gives for the input, no more
    # (the orders' values the judge keeps for its maps stay inside).
    assert api["result"]["results"] == rule_on(api["input"])["results"]


def test_maps_are_drawn_once_and_kept(harness: Harness) -> None:
    start_game(harness, "demo")
    process(harness, "demo")
    app = create_app(harness.services, rate=10_000, burst=10_000)
    assert app.site is not None
    with TestClient(app) as client:
        first = client.get("/games/demo/S1901M.svg").content
        assert client.get("/games/demo/S1901M.svg").content == first
        client.get("/games/demo/S1901M.png")
        client.get("/games/demo/S1901M.png")
        tag = client.get("/games/demo/S1901M.svg").headers["etag"]
        again = client.get("/games/demo/S1901M.svg", headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b""
        assert client.get("/games/demo/S1901M.png").headers["etag"] != tag
        assert client.get("/games/demo/S1901M.svg?lang=fr").headers["etag"] != tag  # in French
    assert app.site.pictures.drawn == 3  # one SVG, one PNG, the French SVG


def test_french_by_parameter_or_browser_and_times_in_the_readers_zone(harness: Harness, web: TestClient) -> None:
    start_game(harness, "demo")
    assert "Les parties de ce juge" in web.get("/?lang=fr").text
    assert "Les parties de ce juge" in web.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}).text
    assert "Games on this judge" in web.get("/", headers={"Accept-Language": "de, en;q=0.5, fr;q=0.2"}).text
    assert "Games on this judge" in web.get("/?lang=xx").text
    paris = web.get("/games/demo?lang=fr&tz=Europe/Paris").text
    assert "lundi 23 novembre 2026, 10:00 CET (Europe/Paris), soit 09:00 UTC" in paris
    assert 'href="/games/demo/S1901M?lang=fr&amp;tz=Europe%2FParis"' in paris  # kept along the links
    assert "Monday 23 November 2026, 09:00 UTC" in web.get("/games/demo?tz=Mars/Olympus").text


@pytest.mark.engine_sql  # issue 29 asks the crawl, the hostile-input and the browser tests on both engines
@pytest.mark.parametrize("path", [
    "/nothing", "/games", "/games/", "/games/nope", "/games/%2e%2e", "/games/..%2f..%2fetc%2fpasswd",
    "/games/" + "a" * 300, "/games/<script>", "/games/demo/S1901M.gif", "/games/demo/S1901M.svg.png",
    "/games/demo/X9999Z", "/games/demo/S1901M/more", "/games/demo/%00", "/api/games/nope",
    "/api/games/demo/nope", "/static/../judge/web/app.py", "/static/nothing.css", "/games/demo/.svg",
])  # fmt: skip
def test_odd_paths_get_the_404_page(harness: Harness, web: TestClient, path: str) -> None:
    start_game(harness, "demo")
    answer = web.get(path)
    assert answer.status_code == 404, path
    assert "Traceback" not in answer.text


def test_every_answer_has_the_strict_headers_no_cookie_and_only_get_and_head(harness: Harness, web: TestClient) -> None:
    start_game(harness, "demo")
    for path in ("/", "/games/demo", "/games/demo/S1901M.svg", "/api/games", "/nothing"):
        answer = web.get(path)
        assert "default-src 'none'" in answer.headers["content-security-policy"], path
        assert "script-src" not in answer.headers["content-security-policy"]
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert "set-cookie" not in answer.headers
    head = web.head("/games/demo")
    assert head.status_code == 200 and head.content == b""
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"):
        assert web.request(method, "/games/demo").status_code == 405, method


@pytest.mark.engine_sql  # issue 29 asks the crawl, the hostile-input and the browser tests on both engines
def test_hostile_text_from_mail_is_escaped_everywhere(harness: Harness, web: TestClient) -> None:
    start_game(harness, "demo")
    with harness.db.unit_of_work() as uow:
        game = uow.games.require("demo")
        game.comment = HOSTILE
        game.comment_full = f"Rules: {HOSTILE}\n<img src=x onerror=alert(1)>"
        person = uow.people.by_address("france@example.net")
        assert person is not None
        person.name = HOSTILE
    post(harness, "demo", f"{HOSTILE} and <a href='javascript:alert(1)'>x</a>", kind=PressKind.BROADCAST,
         sender="FRANCE")
    process(harness, "demo")
    finish(harness, "demo")
    for path in ("/", "/games/demo", "/games/demo/S1901M", "/games/demo/S1901M.svg", "/feed.atom",
                 "/games/demo/feed.atom"):
        body = web.get(path).text
        assert "<script" not in body and "<img src=x" not in body and "<a href='javascript" not in body, path
    page = web.get("/games/demo").text
    assert page.count("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;") >= 3  # the name, the comment, the press
    api = web.get("/api/games/demo")  # JSON is data, not a page: the text as it is, never sniffed as HTML
    assert api.headers["content-type"] == "application/json" and api.headers["x-content-type-options"] == "nosniff"
    assert HOSTILE in api.json()["powers"][2]["players"]


def test_a_client_hammering_the_pages_is_slowed_down(harness: Harness) -> None:
    start_game(harness, "demo")
    with TestClient(create_app(harness.services, rate=0.001, burst=3)) as client:
        statuses = [client.get("/").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]


def test_the_calendar_has_the_next_deadline_while_the_game_is_played(harness: Harness, web: TestClient) -> None:
    start_game(harness, "demo")
    with harness.db.unit_of_work() as uow:
        uow.games.require("demo").deadline_at = datetime(2026, 11, 26, 23, 30, tzinfo=UTC)
    calendar = web.get("/games/demo/deadlines.ics").text
    assert calendar.startswith("BEGIN:VCALENDAR") and "DTSTART:20261126T233000Z" in calendar
    with harness.db.unit_of_work() as uow:
        uow.games.require("demo").state = GameState.FINISHED
    assert "BEGIN:VEVENT" not in web.get("/games/demo/deadlines.ics").text


def test_the_metrics_count_the_pages_served_by_status(harness: Harness, web: TestClient) -> None:
    from judge.app.console import pages_served
    from judge.app.console.metrics import JudgeCollector

    start_game(harness, "demo")
    before = pages_served.counts()
    web.get("/games/demo")
    web.get("/games/nope")
    web.get("/games/nope")
    after = pages_served.counts()
    assert after.get(200, 0) - before.get(200, 0) == 1 and after.get(404, 0) - before.get(404, 0) == 2
    [family] = [f for f in JudgeCollector(harness.db, harness.clock.now).collect() if f.name == "judge_web_pages_served"]
    assert {s.labels["status"]: s.value for s in family.samples if s.name.endswith("_total")}["404"] == after[404]


def test_a_phase_in_json_replays_through_judge_adjudicate_to_the_same_ruling(harness: Harness, web: TestClient) -> None:
    from judge.ruling import rule_on

    start_game(harness, "demo")
    process(harness, "demo", {"FRANCE": ["A PAR-BUR", "A MAR S A PAR-BUR"], "GERMANY": ["A MUN-BUR"],
                              "ENGLAND": ["F LON-NTH"]})
    phase = web.get("/api/games/demo/S1901M").json()
    replayed = rule_on(phase["input"])
    assert "error" not in replayed
    for key in ("next_phase", "units", "centers", "results"):
        assert replayed[key] == phase["result"][key], key


def test_the_feeds_are_atom_with_results_and_the_observers_press(harness: Harness, web: TestClient) -> None:
    from xml.etree import ElementTree

    atom = "{http://www.w3.org/2005/Atom}"
    start_game(harness, "demo")
    post(harness, "demo", "Hello observers", kind=PressKind.PRESS, sender="FRANCE", recipients=["O"])
    post(harness, "demo", "Only for England", kind=PressKind.PRESS, sender="FRANCE", recipients=["E"])
    process(harness, "demo")
    judge_feed = ElementTree.fromstring(web.get("/feed.atom").content)
    titles = [entry.findtext(f"{atom}title") for entry in judge_feed.iter(f"{atom}entry")]
    assert titles == ["demo: results of S1901M", "New game demo"]
    game_feed = web.get("/games/demo/feed.atom")
    assert game_feed.headers["content-type"].startswith("application/atom+xml")
    entries = list(ElementTree.fromstring(game_feed.content).iter(f"{atom}entry"))
    texts = [entry.findtext(f"{atom}content") or "" for entry in entries]
    assert any("Movement results for Spring of 1901" in text and "/games/demo/S1901M.png" in text for text in texts)
    assert any("Hello observers" in text for text in texts)
    pictures = [link.get("href") for entry in entries for link in entry.iter(f"{atom}link") if link.get("rel") == "enclosure"]
    assert pictures == ["http://127.0.0.1:8080/games/demo/S1901M.png"]
    assert not any("Only for England" in text for text in texts)
    assert "France" in "".join(texts) and "@" not in "".join(texts)


@pytest.mark.engine_sql
def test_the_pages_answer_while_the_mail_path_holds_the_write_lock(harness: Harness, web: TestClient) -> None:
    """The web role only reads: a page answers while a worker's transaction holds the write lock
    (it neither waits for the lock nor takes it), and shows nothing uncommitted."""
    import threading

    start_game(harness, "demo")
    paths = ("/", "/games/demo", "/games/demo/S1901M", "/games/demo/S1901M.svg", "/api/games/demo")
    answers: list[tuple[int, bool]] = []
    with harness.db.unit_of_work() as uow:
        uow.games.require("demo").comment = "Not committed yet"
        uow.session.flush()  # on SQLite the write lock is held from here to the commit

        def read() -> None:
            for path in paths:
                answer = web.get(path)
                answers.append((answer.status_code, "Not committed yet" in answer.text))

        reader = threading.Thread(target=read)
        reader.start()
        reader.join(timeout=60)
        assert not reader.is_alive(), "a page waited for the write lock"
    assert answers == [(200, False)] * len(paths)


def test_feed_links_use_the_configured_address_never_the_host_header(harness: Harness) -> None:
    import dataclasses

    start_game(harness, "demo")
    services = dataclasses.replace(
        harness.services, config=dataclasses.replace(harness.services.config, web_base_url="https://judge.example.org")
    )
    with TestClient(create_app(services)) as client:
        feed = client.get("/games/demo/feed.atom", headers={"Host": "evil.example.com"}).text
        calendar = client.get("/games/demo/deadlines.ics", headers={"Host": "evil.example.com"}).text
    assert "https://judge.example.org/games/demo" in feed and "evil" not in feed
    assert "evil" not in calendar
    with TestClient(create_app(harness.services)) as client:
        feed = client.get("/feed.atom", headers={"Host": "evil.example.com"}).text
    assert "http://127.0.0.1:8080/" in feed and "evil" not in feed


def test_after_a_rollback_the_pages_show_the_new_timeline_not_the_kept_pictures(harness: Harness, web: TestClient) -> None:
    start_game(harness, "demo")
    process(harness, "demo", {"FRANCE": ["A PAR-BUR"]})
    old_page = web.get("/games/demo/S1901M").text
    old_map = web.get("/games/demo/S1901M.svg").headers["etag"]
    assert "Paris -&gt; Burgundy" in old_page
    with harness.db.unit_of_work() as uow:
        game = uow.games.require("demo")
        reopened = uow.phases.rollback(game, 1, harness.clock.now())
        game.current_phase = reopened.name
    page = web.get("/games/demo/S1901M").text
    assert "Paris -&gt; Burgundy" not in page and "This phase is being played" in page
    assert web.get("/games/demo/F1901M").status_code == 404  # the abandoned timeline's phase
    assert web.get("/games/demo/S1901M.svg").headers["etag"] != old_map
    process(harness, "demo", {"FRANCE": ["A PAR-PIC"]})
    assert "Paris -&gt; Picardy" in web.get("/games/demo/S1901M").text
    assert [p["name"] for p in web.get("/api/games/demo").json()["phases"]] == ["S1901M", "F1901M"]


@pytest.mark.engine_sql
def test_at_most_a_few_pages_read_the_database_at_once(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """However many clients ask at once, the pages hold at most CONCURRENT_READS of the
    connections the mail roles share with them."""
    import contextlib
    import threading
    from collections.abc import Iterator

    from judge.web import app as web_app

    start_game(harness, "demo")
    database = harness.db
    real = database.unit_of_work
    inside = 0
    most = 0
    lock = threading.Lock()
    gate = threading.Event()

    @contextlib.contextmanager
    def counted(*, readonly: bool = False) -> Iterator[object]:
        nonlocal inside, most
        with lock:
            inside += 1
            most = max(most, inside)
            if inside >= web_app.CONCURRENT_READS:
                gate.set()
        try:
            gate.wait(timeout=2)  # hold the readers until the bound is reached
            with real(readonly=readonly) as uow:
                yield uow
        finally:
            with lock:
                inside -= 1

    monkeypatch.setattr(database, "unit_of_work", counted)
    statuses: list[int] = []
    with TestClient(create_app(harness.services, rate=10_000, burst=10_000)) as client:
        threads = [threading.Thread(target=lambda: statuses.append(client.get("/games/demo").status_code))
                   for _ in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    assert statuses == [200] * 12
    assert most == web_app.CONCURRENT_READS


ODD = ["", "..", "%2e%2e%2f", "<script>", "'", '"', "%00", "%ff%fe", "a" * 2000, "ü", "𝔡𝔢𝔪𝔬", "demo%0d%0aSet-Cookie:x=1",
       "demo;rm", "demo?x", "DEMO", " demo", "demo ", "S1901M.svg.svg", "..%5c..%5cwindows", "%25", "\\", "con", "nul"]


@pytest.mark.engine_sql  # issue 29 asks the crawl, the hostile-input and the browser tests on both engines
def test_no_odd_path_or_parameter_gets_anything_but_a_page_or_a_404(harness: Harness, web: TestClient) -> None:
    start_game(harness, "demo")
    for odd in ODD:
        for path in (f"/games/{odd}", f"/games/demo/{odd}", f"/api/games/{odd}", f"/api/games/demo/{odd}",
                     f"/games/{odd}/feed.atom", f"/games/demo?lang={odd}&tz={odd}", f"/?tz={odd}",
                     f"/games/demo/S1901M.svg?lang={odd}"):
            answer = web.get(path)
            assert answer.status_code in (200, 404), (path, answer.status_code)
            assert "Traceback" not in answer.text and "set-cookie" not in answer.headers, path


@pytest.mark.engine_sql  # issue 29 asks the crawl, the hostile-input and the browser tests on both engines
def test_hostile_strings_sent_by_mail_render_as_text_on_every_page(harness: Harness, web: TestClient) -> None:
    """The strings come in by mail as anyone could send them: a registration name (a game's
    master's, which its page shows), a game's
    comment set by its master, a broadcast; a game name with markup is refused by CREATE, so no
    page can carry it. Every page shows them as text (escaped), never as markup."""
    from tests.app.conftest import text
    from tests.app.reports_helpers import address_of, password_of

    start_game(harness, "demo")
    reply = harness.exchange("evil@example.org", f"REGISTER\nName: {HOSTILE}\nCountry: France\nEND\n")
    assert "[Error Flag]" not in str(reply["Subject"]), text(reply)
    reply = harness.exchange("evil@example.org", "CREATE ?lure lurepw\nBECOME MASTER\n")
    assert "[Error Flag]" not in str(reply["Subject"]), text(reply)
    harness.exchange("evil@example.org", "CREATE ?<script> lurepw\n")
    harness.exchange("master@example.net", f"SIGNON Mdemo masterpw\nSET COMMENT {HOSTILE}\n")
    harness.exchange(address_of("FRANCE"), f"SIGNON Fdemo {password_of('FRANCE')}\n"
                                           f"BROADCAST\n{HOSTILE} <img src=x onerror=alert(1)>\nENDBROADCAST\n")
    process(harness, "demo")
    pages = [web.get(path) for path in ("/", "/games/lure", "/games/demo", "/games/demo/S1901M", "/feed.atom",
                                        "/games/demo/feed.atom", "/games/demo/S1901M.svg", "/?lang=fr",
                                        "/games/demo?lang=fr")]
    assert all(page.status_code == 200 for page in pages)
    for page in pages:
        assert "<script" not in page.text and "<img src=x" not in page.text, page.url
    game = web.get("/games/demo").text
    assert game.count("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;") >= 2  # the comment and the press
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in web.get("/games/lure").text  # its master's name
    assert web.get("/games/<script>").status_code == 404
    assert [g["name"] for g in web.get("/api/games").json()] == ["demo", "lure"]


@pytest.mark.engine_sql  # issue 29 asks the crawl, the hostile-input and the browser tests on both engines
def test_a_client_past_its_burst_is_refused_without_touching_the_database(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rate limit is decided in memory before any read: a hammering client costs the mail
    path no connection and no lock (the 429s open no unit of work)."""
    import contextlib
    from collections.abc import Iterator

    start_game(harness, "demo")
    database = harness.db
    real = database.unit_of_work
    opened: list[bool] = []

    @contextlib.contextmanager
    def counted(*, readonly: bool = False) -> Iterator[object]:
        opened.append(readonly)
        with real(readonly=readonly) as uow:
            yield uow

    monkeypatch.setattr(database, "unit_of_work", counted)
    with TestClient(create_app(harness.services, rate=0.001, burst=2)) as client:
        statuses = [client.get("/games/demo").status_code for _ in range(50)]
    assert statuses == [200, 200] + [429] * 48
    assert opened == [True, True]  # the two pages served, each read-only; none for the 48 refused


def test_a_game_drawn_by_mail_shows_its_end_and_its_scores_in_both_languages(
    harness: Harness, web: TestClient
) -> None:
    """At the end, the game page carries the final summary's outcome and score table (the mail
    path's own lines), and the list of games puts the game among the finished ones."""
    from tests.app.orders_helpers import LETTER
    from tests.app.reports_helpers import POWERS, address_of, password_of

    start_game(harness, "demo")
    process(harness, "demo", {"FRANCE": ["A PAR-BUR"]})
    assert '<section id="final">' not in web.get("/games/demo").text
    for power in POWERS:
        harness.exchange(address_of(power), f"SIGNON {LETTER[power]}demo {password_of(power)}\nSET DRAW\n")
    english = web.get("/games/demo").text
    final = english[english.index('<section id="final">'):]
    final = final[: final.index("</section>")]
    assert "it has been declared a draw between Austria, England, France, Germany, Italy, Russia and Turkey" in final
    assert "Scores (Draw-size scoring):" in final and "  Russia          4    14.29" in final
    french = web.get("/games/demo?lang=fr").text
    assert "elle a été déclarée nulle entre Autriche" in french and "Partage selon la taille de la nulle" in french
    index = web.get("/").text
    assert index.index("/games/demo") > index.index('<section id="finished">')
    assert web.get("/api/games/demo").json()["state"] == "finished"
