"""The web role of `judge serve` (issue 29): its settings, ``--only web``, and the pages served
over real HTTP by uvicorn inside the judge's event loop, stopped with the judge."""

from __future__ import annotations

import asyncio
import dataclasses
import socket
from pathlib import Path

import httpx
import pytest

from judge.app.runtime.judge_server import ALL_ROLES, MAIL_ROLES, JudgeServer, Role, ServerTuning
from judge.app.runtime.startup_line import startup_line
from judge.cli import build_parser
from judge.commands.serve import load_web_pages
from judge.config import ConfigError, load_config
from tests.app.conftest import Harness
from tests.app.reports_helpers import start_game

pytestmark = pytest.mark.engine_blind  # the engine cannot change what these check: SQLite only

TUNING = ServerTuning(shutdown_grace_seconds=5)


def test_the_web_role_is_on_by_default_on_loopback_8080_and_0_turns_it_off(tmp_path: Path) -> None:
    config = load_config({"JUDGE_DATA_DIR": str(tmp_path)})
    assert (config.web_host, config.web_port, config.web_base_url) == ("127.0.0.1", 8080, "")
    assert load_config({"JUDGE_DATA_DIR": str(tmp_path), "JUDGE_WEB_PORT": "0"}).web_port == 0
    based = load_config({"JUDGE_DATA_DIR": str(tmp_path), "JUDGE_WEB_BASE_URL": "https://judge.example.org/dip/"})
    assert based.web_base_url == "https://judge.example.org/dip"
    for wrong in ("ftp://judge.example.org", "judge.example.org", "https://x.org/?a=1"):
        with pytest.raises(ConfigError, match="web_base_url"):
            load_config({"JUDGE_DATA_DIR": str(tmp_path), "JUDGE_WEB_BASE_URL": wrong})
    with pytest.raises(ConfigError, match="web_port"):
        load_config({"JUDGE_DATA_DIR": str(tmp_path), "JUDGE_WEB_PORT": "70000"})


def test_web_is_a_role_of_judge_serve() -> None:
    assert Role.WEB in ALL_ROLES and Role.WEB not in MAIL_ROLES
    assert build_parser().parse_args(["serve", "--only", "web"]).only == ["web"]


def test_the_startup_line_says_where_the_pages_are(tmp_path: Path) -> None:
    config = load_config({"JUDGE_DATA_DIR": str(tmp_path)})
    line = startup_line(config, listening=None, roles=["web"], web="127.0.0.1:8080")
    assert "pages on http://127.0.0.1:8080/" in line


def test_the_role_serves_pages_over_http_until_the_judge_stops(harness: Harness) -> None:
    start_game(harness, "demo")
    listening = socket.create_server(("127.0.0.1", 0))

    async def run() -> tuple[int, str, int, str]:
        server = JudgeServer(harness.services, roles={Role.WEB}, tuning=TUNING, web_socket=listening, web=load_web_pages)
        async with server:
            assert server.running_roles == {Role.WEB}
            base = f"http://127.0.0.1:{server.web_port}"
            async with httpx.AsyncClient(base_url=base) as client:
                for _ in range(100):  # uvicorn starts in the role's task
                    try:
                        index = await client.get("/")
                        break
                    except httpx.ConnectError:
                        await asyncio.sleep(0.05)
                game = await client.get("/games/demo")
        assert listening.fileno() == -1  # closed with the judge
        return index.status_code, index.headers["content-security-policy"], game.status_code, game.text

    status, policy, game_status, page = asyncio.run(run())
    assert status == 200 and "default-src 'none'" in policy
    assert game_status == 200 and "<h1>demo</h1>" in page


def test_web_port_0_leaves_the_role_off(harness: Harness) -> None:
    harness.services = dataclasses.replace(
        harness.services, config=dataclasses.replace(harness.services.config, web_port=0)
    )

    async def run() -> frozenset[Role]:
        async with JudgeServer(harness.services, roles={Role.WEB}, tuning=TUNING, web=load_web_pages) as server:
            return server.running_roles

    assert asyncio.run(run()) == frozenset()


def test_a_taken_web_port_fails_judge_serve_like_a_taken_smtp_port(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from judge.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        monkeypatch.setenv("JUDGE_DATA_DIR", str(tmp_path))
        monkeypatch.setenv("JUDGE_WEB_PORT", str(taken.getsockname()[1]))
        assert main(["serve", "--only", "web"]) == 1
    assert "address already in use" in capsys.readouterr().err.lower()


def test_judge_check_reports_the_web_role(harness: Harness) -> None:
    from datetime import UTC, datetime

    from judge.app.console.health import Thresholds, check

    def web_finding(config: object) -> tuple[bool, str]:
        report = check(config, datetime.now(UTC), Thresholds(), relay_timeout=2)  # type: ignore[arg-type]
        [finding] = [f for f in report.findings if f.name == "web"]
        return finding.ok, finding.detail

    config = harness.services.config
    assert web_finding(dataclasses.replace(config, web_port=0)) == (True, "off (web_port 0)")
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        free = closed.getsockname()[1]
    ok, detail = web_finding(dataclasses.replace(config, web_port=free))
    assert not ok and "not answering" in detail
    listening = socket.create_server(("127.0.0.1", 0))
    port = listening.getsockname()[1]

    async def run() -> tuple[bool, str]:
        async with JudgeServer(harness.services, roles={Role.WEB}, tuning=TUNING, web_socket=listening, web=load_web_pages):
            for _ in range(100):
                found = await asyncio.to_thread(web_finding, dataclasses.replace(config, web_port=port))
                if found[0]:
                    return found
                await asyncio.sleep(0.05)
            return found

    ok, detail = asyncio.run(run())
    assert ok and detail == f"http://127.0.0.1:{port}/ answers 200"
