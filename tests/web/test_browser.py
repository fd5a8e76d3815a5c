"""The pages in a real browser (issue 29): Debian's headless Chromium driven by Playwright.

The web role serves a played game over real HTTP (uvicorn on a port of its own); the list of
games, a game page and a phase page are opened in English and in French: no console error,
the map image loads, the links between phases lead to the next phase, and a screenshot of
each is written (``JUDGE_WEB_SCREENSHOTS=dir`` keeps them; by default the test's temporary
directory). Skipped, saying why, where there is no Chromium or no Playwright, unless
``JUDGE_TEST_BROWSER=required`` (as in .ci/run), which makes that a failure.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.db.enums import PressKind
from judge.web.serving import serve_web
from tests.app.conftest import Harness
from tests.app.reports_helpers import post, process, start_game

pytestmark = pytest.mark.engine_blind  # the engine cannot change what these check: SQLite only

CHROMIUM = os.environ.get("JUDGE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
REQUIRED = os.environ.get("JUDGE_TEST_BROWSER") == "required"

try:
    from playwright.sync_api import ConsoleMessage, Page, sync_playwright
except ImportError:  # pragma: no cover - the dev extra installs it
    sync_playwright = None  # type: ignore[assignment]


def _need_browser() -> None:
    missing = "Playwright is not installed" if sync_playwright is None else (
        "no chromium executable (apt-get install chromium)" if CHROMIUM is None else "")
    if missing:
        if REQUIRED:
            pytest.fail(f"browser tests required: {missing}")
        pytest.skip(missing)


@pytest.fixture
def site(harness: Harness) -> Iterator[str]:
    """The harness's judge's pages on a port of their own, for the time of the test."""
    listening = socket.create_server(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    thread = threading.Thread(target=loop.run_until_complete, args=(serve_web(harness.services, listening, stop),))
    thread.start()
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                threading.Event().wait(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(timeout=15)
        loop.close()


def _played(harness: Harness) -> None:
    start_game(harness, "demo")
    process(harness, "demo", {"FRANCE": ["A PAR-BUR", "F BRE-MAO"], "GERMANY": ["A MUN-RUH"]})
    post(harness, "demo", "Peace in our time. <script>alert(1)</script>", kind=PressKind.BROADCAST, sender="FRANCE")
    process(harness, "demo", {"FRANCE": ["A BUR-BEL", "F MAO-POR"]})


def _open(page: Page, url: str, errors: list[str]) -> None:
    answer = page.goto(url)
    assert answer is not None and answer.status == 200, url
    page.wait_for_load_state("load")
    assert not errors, (url, errors)


def _map_loaded(page: Page) -> bool:
    loaded: bool = page.evaluate(
        "() => { const i = document.querySelector('img.map'); return !!i && i.complete && i.naturalWidth > 0; }"
    )
    return loaded


@pytest.mark.engine_sql  # issue 29 asks the crawl, the hostile-input and the browser tests on both engines
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_pages_render_in_chromium_with_their_map_and_links(
    harness: Harness, site: str, language: str, tmp_path: Path
) -> None:
    _need_browser()
    _played(harness)
    shots = Path(os.environ.get("JUDGE_WEB_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    assert sync_playwright is not None and CHROMIUM is not None
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            context = browser.new_context(locale="fr-FR" if language == "fr" else "en-GB",
                                          viewport={"width": 1100, "height": 900})
            page = context.new_page()
            errors: list[str] = []

            def on_console(message: ConsoleMessage) -> None:
                if message.type == "error":
                    errors.append(message.text)

            page.on("console", on_console)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("dialog", lambda dialog: errors.append(f"a dialog opened: {dialog.message}"))

            _open(page, f"{site}/", errors)
            heading = "Les parties de ce juge" if language == "fr" else "Games on this judge"
            assert page.locator("h1").inner_text() == heading
            page.screenshot(path=str(shots / f"web-games-{language}.png"), full_page=True)

            page.click("text=demo")
            page.wait_for_load_state("load")
            assert page.url.endswith("/games/demo"), page.url
            assert _map_loaded(page), "the game's map did not load"
            assert "Peace in our time. <script>alert(1)</script>" in page.locator("#press").inner_text()
            assert not errors, errors
            page.screenshot(path=str(shots / f"web-game-{language}.png"), full_page=True)

            _open(page, f"{site}/games/demo/S1901M", errors)
            assert _map_loaded(page), "the phase's map did not load"
            page.click("a[rel=next]")
            page.wait_for_load_state("load")
            assert page.url.endswith("/games/demo/F1901M"), page.url
            assert _map_loaded(page)
            page.click("a[rel=prev]")
            page.wait_for_load_state("load")
            assert page.url.endswith("/games/demo/S1901M"), page.url
            results = "Résultats des mouvements du printemps 1901" if language == "fr" else "Movement results for Spring of 1901"
            assert results in page.locator("main").inner_text()
            assert not errors, errors
            page.screenshot(path=str(shots / f"web-phase-{language}.png"), full_page=True)
        finally:
            browser.close()
    for kind in ("games", "game", "phase"):
        assert (shots / f"web-{kind}-{language}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", kind


def test_ci_installs_the_browser_and_never_lets_these_tests_skip() -> None:
    """.ci/run installs Debian's chromium when missing and makes a missing browser a failure;
    the dev extra, which bin/test installs, brings Playwright (its driver, no browser)."""
    import tomllib

    root = Path(__file__).parents[2]
    ci = (root / ".ci" / "run").read_text(encoding="utf-8")
    assert "apt-get install -y -q chromium" in ci and "command -v chromium" in ci
    assert "export JUDGE_TEST_BROWSER=required" in ci
    assert ci.index("export JUDGE_TEST_BROWSER=required") < ci.index("exec bin/test")
    extras = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert any(requirement.startswith("playwright") for requirement in extras["dev"])
    assert 'JUDGE_EXTRAS="dev"' in (root / "bin" / "test").read_text(encoding="utf-8")
    assert "playwright install" not in ci  # no browser download: Debian's chromium, by its path
