"""docs/web.md says what the pages and the JSON answers are: each documented address answers,
and each JSON example's keys are the ones the judge gives."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tests.app.conftest import Harness
from tests.app.reports_helpers import process, start_game

pytestmark = pytest.mark.engine_blind  # the engine cannot change what these check: SQLite only

DOC = (Path(__file__).parents[2] / "docs" / "web.md").read_text(encoding="utf-8")


def test_every_documented_address_answers(harness: Harness, web: TestClient) -> None:
    start_game(harness, "demo")
    process(harness, "demo")
    addresses = re.findall(r"^\| `(/[^`]*)`", DOC, re.MULTILINE)
    assert len(addresses) == 7
    for address in addresses:
        for one in address.replace("`, `", " ").split():
            path = one.replace("<name>", "demo").replace("<phase>", "S1901M")
            if path.startswith("."):
                path = "/games/demo/S1901M" + path
            assert web.get(path).status_code == 200, path


def test_the_json_examples_have_the_keys_the_judge_gives(harness: Harness, web: TestClient) -> None:
    start_game(harness, "demo")
    process(harness, "demo")
    examples = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", DOC, re.DOTALL)]
    games, game, phase = examples
    assert set(games[0]) == set(web.get("/api/games").json()[0])
    answer = web.get("/api/games/demo").json()
    assert set(game) <= set(answer) and set(game["powers"][0]) == set(answer["powers"][0])
    assert set(phase) == set(web.get("/api/games/demo/S1901M").json())
    assert "orders" in web.get("/api/games/demo/S1901M").json()["input"]


ROOT = Path(__file__).parents[2]
GUIDES = {
    "player": ("docs/player-guide.md", "docs/fr/guide-joueur.md"),
    "master": ("docs/master-guide.md", "docs/fr/guide-maitre.md"),
    "operator": ("docs/operator-guide.md", "docs/fr/guide-exploitant.md"),
}


def _text(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


def test_the_players_masters_and_operators_guides_in_english_and_french_describe_the_pages() -> None:
    for english, french in GUIDES.values():
        for path in (english, french):
            text = _text(path)
            assert "SET NOLIST" in text, path  # how a master hides a game from the pages
            assert "http://127.0.0.1:8080/" in text or "web.md" in text, path
    for path in (*GUIDES["player"], *GUIDES["operator"]):
        assert "images/web-game.png" in _text(path), path
        assert "?tz=Europe/Paris" in _text(path) and "?lang=fr" in _text(path), path
    assert (ROOT / "docs/images/web-game.png").stat().st_size > 10_000


def test_the_addresses_the_guides_quote_answer(harness: Harness, web: TestClient) -> None:
    """Every local address a guide quotes for the pages (``http://127.0.0.1:8080/...``, the
    default, which tests/web/test_web_role.py holds) answers on a judge with a game."""
    start_game(harness, "demo")
    process(harness, "demo")
    quoted = set()
    for path in (*(p for pair in GUIDES.values() for p in pair), "README.md", "docs/web.md"):
        quoted |= set(re.findall(r"http://127\.0\.0\.1:8080(/[^\s`)'\"]*)", _text(path)))
    assert "/" in quoted
    for address in sorted(quoted):
        assert web.get(address).status_code == 200, address
        assert web.head(address).status_code == 200, address


def test_the_operators_guides_commands_for_the_pages_are_real() -> None:
    """The judge commands, settings, deploy files and systemd units the web sections of the
    operator's guides (English and French) quote exist and parse."""
    from judge.cli import build_parser
    from tests.deploy.test_deploy_files import judge_variables

    english = _text("docs/operator-guide.md")
    section = english[english.index("### The web pages"):english.index("### The SMTP door")]
    for text in (section, _text("docs/fr/guide-exploitant.md")):
        commands = re.findall(r"^(judge [^#\n]*?)\s*(?:#.*)?$", "\n".join(re.findall(r"```sh\n(.*?)```", text, re.DOTALL)),
                              re.MULTILINE)
        commands += re.findall(r"`(judge [^`]+)`", text)
        assert any("--only web" in c for c in commands) and any(c.strip() == "judge check" for c in commands)
        for command in commands:
            build_parser().parse_args(command.split()[1:])
        assert {v for v in re.findall(r"\bJUDGE_WEB_[A-Z_]+", text)} <= judge_variables()
        for named in re.findall(r"\bdeploy/[\w./@-]*\w", text):
            assert (ROOT / named).exists(), named
        units = re.findall(r"\b(diplomacy-judge(?:-[a-z]+)*)(?:@\w*)?", text)
        assert "diplomacy-judge-role" in units and "diplomacy-judge" in units
        for unit in units:
            unit_file = "diplomacy-judge-role@.service" if unit.startswith("diplomacy-judge-role") else f"{unit}.service"
            assert (ROOT / "deploy/systemd" / unit_file).exists(), unit
        assert "JUDGE_WEB_BASE_URL=https://" in text and "nginx -t" in text


def test_the_proxy_examples_forward_to_the_default_address_and_pass_only_what_the_pages_answer(
    harness: Harness,
) -> None:
    """nginx's and Caddy's examples send to where the role listens by default, let GET and HEAD
    through, and POST only to the one-click unsubscribe route the application has."""
    from judge.config import load_config
    from judge.web.app import create_app

    config = load_config({"JUDGE_DATA_DIR": "/nonexistent"})
    where = f"{config.web_host}:{config.web_port}"
    nginx = _text("deploy/nginx-judge-web.conf")
    caddy = _text("deploy/Caddyfile.judge-web")
    assert re.findall(r"proxy_pass (\S+);", nginx) == [f"http://{where}"] * 2
    assert re.findall(r"reverse_proxy (\S+)", caddy) == [where]
    assert "limit_except GET { deny all; }" in nginx and "limit_except POST { deny all; }" in nginx
    assert "location /unsubscribe/ {" in nginx and "not path /unsubscribe/*" in caddy
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in nginx  # the client the rate limit counts
    assert "return 301 https://" in nginx and "ssl_certificate" in nginx
    app = create_app(harness.services).app
    posts = [route.path for route in app.routes if "POST" in (getattr(route, "methods", None) or ())]
    assert posts == ["/unsubscribe/{token}"]
