"""The files under deploy/ say what the operator's guide says they do.

They are configuration, not code, so these tests read them as the tools
would (INI for systemd, the compose subset of YAML, Postfix tables, TOML and
EnvironmentFile syntax for the judge's settings) and check the promises:
migrate before start, restart on failure, non-root, PostgreSQL with a
healthcheck, mail routed to the port `judge serve` listens on.
"""

from __future__ import annotations

import configparser
import os
import re
import shutil
import stat
import subprocess
import tomllib
from pathlib import Path

import pytest

from judge import config as judge_config
from judge.config import MaildirRelaySpec, SmtpRelaySpec, load_config
from tests.deploy import yaml_subset
from tests.deploy.test_backup_restore import tool

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNIT = DEPLOY / "systemd" / "diplomacy-judge.service"
GUIDE = ROOT / "docs" / "operator-guide.md"


# --- systemd -----------------------------------------------------------------


def read_unit(path: Path) -> dict[str, dict[str, list[str]]]:
    """A systemd unit as {section: {key: [values...]}} (keys may repeat in systemd)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for number, line in enumerate(path.read_text().splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", ";")):
            continue
        if stripped.startswith("[") and stripped.endswith("]"):
            current = sections.setdefault(stripped[1:-1], {})
            continue
        key, equals, value = stripped.partition("=")
        assert equals and current is not None, f"{path.name}:{number}: not KEY=VALUE: {line!r}"
        assert not value.endswith("\\"), f"{path.name}:{number}: keep each setting on one line"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


class TestSystemdUnit:
    unit = read_unit(UNIT)

    def one(self, section: str, key: str) -> str:
        values = self.unit[section].get(key, [])
        assert len(values) == 1, f"[{section}] {key}: expected one value, found {values}"
        return values[0]

    def test_it_parses_as_ini(self) -> None:
        parser = configparser.ConfigParser(strict=False, interpolation=None)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        parser.read(UNIT)
        assert set(parser.sections()) == {"Unit", "Service", "Install"}

    def test_it_migrates_then_serves_with_the_same_judge(self) -> None:
        pre = self.one("Service", "ExecStartPre").split()
        start = self.one("Service", "ExecStart").split()
        assert pre[1:] == ["db", "upgrade"]
        assert start[1:] == ["serve", "--no-migrate"]
        assert pre[0] == start[0] and pre[0].startswith("/")

    def test_it_restarts_on_failure_as_a_non_root_user(self) -> None:
        assert self.one("Service", "Restart") == "on-failure"
        assert self.one("Service", "User") == "judge"
        assert self.one("Service", "Group") == "judge"
        assert self.one("Install", "WantedBy") == "multi-user.target"

    def test_its_data_directory_is_the_state_directory(self) -> None:
        state = self.one("Service", "StateDirectory")
        assert f"JUDGE_DATA_DIR=/var/lib/{state}" in self.unit["Service"]["Environment"]
        assert self.one("Service", "WorkingDirectory") == f"/var/lib/{state}"
        assert self.one("Service", "EnvironmentFile") == "/etc/diplomacy-judge/judge.env"

    @pytest.mark.parametrize(
        ("key", "value"),
        [
            ("NoNewPrivileges", "yes"),
            ("ProtectSystem", "strict"),
            ("ProtectHome", "yes"),
            ("PrivateTmp", "yes"),
            ("PrivateDevices", "yes"),
            ("CapabilityBoundingSet", ""),
            ("RestrictAddressFamilies", "AF_UNIX AF_INET AF_INET6"),
        ],
    )
    def test_it_is_hardened(self, key: str, value: str) -> None:
        assert self.one("Service", key) == value

    @pytest.mark.skipif(
        shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed"
    )
    def test_systemd_knows_every_directive(self, tmp_path: Path) -> None:
        # Point the commands at /bin/true: verify checks that executables exist.
        judge_bin = self.one("Service", "ExecStart").split()[0]
        copy = tmp_path / UNIT.name
        copy.write_text(UNIT.read_text().replace(judge_bin, "/bin/true"))
        result = subprocess.run(
            ["systemd-analyze", "verify", "--man=no", str(copy)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        problems = [
            line
            for line in (result.stdout + result.stderr).splitlines()
            if str(tmp_path) in line
            and ("Unknown" in line or "Invalid" in line or "Failed" in line)
        ]
        assert problems == []


class TestScaleOutUnits:
    upgrade = read_unit(DEPLOY / "systemd" / "diplomacy-judge-db-upgrade.service")
    role = read_unit(DEPLOY / "systemd" / "diplomacy-judge-role@.service")
    single = read_unit(UNIT)

    def test_the_upgrade_unit_is_a_oneshot_db_upgrade(self) -> None:
        assert self.upgrade["Service"]["Type"] == ["oneshot"]
        (command,) = self.upgrade["Service"]["ExecStart"]
        assert command.split()[1:] == ["db", "upgrade"]

    def test_each_role_runs_one_part_of_serve_after_the_upgrade(self) -> None:
        (command,) = self.role["Service"]["ExecStart"]
        assert command.split()[1:] == ["serve", "--no-migrate", "--only", "%i"]
        assert self.role["Unit"]["Requires"] == ["diplomacy-judge-db-upgrade.service"]
        assert "diplomacy-judge-db-upgrade.service" in self.role["Unit"]["After"][0].split()
        assert self.role["Service"]["Restart"] == ["on-failure"]

    @pytest.mark.parametrize(
        "key",
        [
            "User",
            "EnvironmentFile",
            "StateDirectory",
            "NoNewPrivileges",
            "ProtectSystem",
            "SystemCallFilter",
        ],
    )
    def test_they_run_like_the_single_unit(self, key: str) -> None:
        assert self.upgrade["Service"][key] == self.single["Service"][key]
        assert self.role["Service"][key] == self.single["Service"][key]

    def test_all_units_use_the_same_judge(self) -> None:
        binaries = {
            unit["Service"][key][0].split()[0]
            for unit in (self.upgrade, self.role, self.single)
            for key in ("ExecStart", "ExecStartPre")
            if key in unit["Service"]
        }
        assert len(binaries) == 1


# --- the judge's settings ---------------------------------------------------------


def judge_variables() -> set[str]:
    """Every JUDGE_* variable the judge reads (config and logging) plus the backup one."""
    sources = [ROOT / "judge" / "config.py", ROOT / "judge" / "logs.py"]
    found = {
        name for source in sources for name in re.findall(r"\bJUDGE_[A-Z_]+\b", source.read_text())
    }
    return found | {tool.BACKUP_DIR_VARIABLE}


class TestSettingsExamples:
    def test_the_env_example_is_a_valid_configuration(self, tmp_path: Path) -> None:
        env = tool.read_env_file(DEPLOY / "judge.env.example")
        config = load_config(env)
        assert config.database_url.startswith("postgresql+psycopg://")
        assert isinstance(config.relay, SmtpRelaySpec)
        assert (config.relay.host, config.relay.port) == ("127.0.0.1", 25)
        assert config.smtp_port == judge_config.DEFAULT_SMTP_PORT

    def test_the_env_example_documents_every_variable(self) -> None:
        text = (DEPLOY / "judge.env.example").read_text()
        written = set(re.findall(r"^#?(JUDGE_[A-Z_]+)=", text, re.MULTILINE))
        assert judge_variables() - written == set()

    def test_the_toml_example_is_a_valid_configuration_with_every_setting(self) -> None:
        path = DEPLOY / "judge.toml.example"
        config = load_config({}, config_file=path)
        assert config.data_dir == Path("/var/lib/diplomacy-judge")
        assert config.aliases == ("diplomacy@example.org",)
        with path.open("rb") as handle:
            keys = set(tomllib.load(handle))
        assert keys == set(judge_config._ENV_NAMES)

    def test_the_env_file_and_the_toml_file_agree(self) -> None:
        from_env = load_config(tool.read_env_file(DEPLOY / "judge.env.example"))
        from_toml = load_config({}, config_file=DEPLOY / "judge.toml.example")
        for setting in ("relay", "smtp_host", "smtp_port", "address", "admin", "code", "timezone"):
            assert getattr(from_env, setting) == getattr(from_toml, setting), setting


# --- Postfix -----------------------------------------------------------------------


def table_lines(path: Path) -> list[list[str]]:
    return [
        line.split()
        for line in path.read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


class TestPostfix:
    def test_the_transport_map_routes_the_judge_to_judge_serve(self) -> None:
        env = tool.read_env_file(DEPLOY / "judge.env.example")
        config = load_config(env)
        rows = table_lines(DEPLOY / "postfix" / "transport")
        assert rows, "the transport map routes nothing"
        for row in rows:
            assert len(row) == 2, row
        routes = dict(rows)
        assert routes[config.address] == f"smtp:[{config.smtp_host}]:{config.smtp_port}"
        assert routes[config.address] == "smtp:[127.0.0.1]:2525"

    def test_main_cf_uses_the_transport_map(self) -> None:
        settings = {}
        for line in (DEPLOY / "postfix" / "main.cf").read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                key, equals, value = line.partition("=")
                assert equals, f"main.cf: not 'name = value': {line!r}"
                settings[key.strip()] = value.strip()
        assert settings["transport_maps"] == "hash:/etc/postfix/transport"

    def test_master_cf_service_lines_have_eight_fields(self) -> None:
        services = [
            line.split()
            for line in (DEPLOY / "postfix" / "master.cf").read_text().splitlines()
            if line and not line.startswith(("#", " ", "\t"))
        ]
        assert services and all(len(fields) == 8 for fields in services)
        assert services[0][:2] == ["judge", "unix"] and services[0][7] == "smtp"


# --- container image and compose ----------------------------------------------------------


def containerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined."""
    joined = re.sub(r"\\\n", " ", (DEPLOY / "Containerfile").read_text())
    instructions = []
    for line in joined.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            word, _, rest = line.strip().partition(" ")
            instructions.append((word.upper(), " ".join(rest.split())))
    return instructions


class TestContainerfile:
    instructions = containerfile_instructions()

    def values(self, word: str) -> list[str]:
        return [rest for instruction, rest in self.instructions if instruction == word]

    def test_it_builds_on_python_311_slim(self) -> None:
        assert self.instructions[0][0] == "FROM"
        assert re.fullmatch(r"(docker\.io/library/)?python:3\.11-slim", self.instructions[0][1])

    def test_it_pip_installs_the_project_and_copies_what_exists(self) -> None:
        assert any("pip install /src" in run for run in self.values("RUN"))
        for copy in self.values("COPY"):
            *sources, _destination = copy.split()
            for source in sources:
                assert (ROOT / source).exists(), f"COPY {source}: not in the repository"

    def test_it_runs_as_a_non_root_user_after_installing(self) -> None:
        users = self.values("USER")
        assert users == ["judge"]
        words = [instruction for instruction, _ in self.instructions]
        assert words.index("USER") > max(i for i, w in enumerate(words) if w == "RUN")

    def test_it_exposes_smtp_and_the_web_pages_and_keeps_data_in_a_volume(self) -> None:
        assert self.values("EXPOSE") == ["2525 8080"]
        assert self.values("VOLUME") == ['["/var/lib/diplomacy-judge"]']
        env = " ".join(self.values("ENV"))
        assert "JUDGE_DATA_DIR=/var/lib/diplomacy-judge" in env
        assert "JUDGE_SMTP_HOST=0.0.0.0" in env
        assert "JUDGE_WEB_HOST=0.0.0.0" in env and "JUDGE_WEB_PORT=8080" in env  # reachable from outside

    def test_the_entrypoint_is_the_shipped_script(self) -> None:
        assert self.values("ENTRYPOINT") == ['["/usr/local/bin/judge-entrypoint"]']
        assert any(
            copy.split() == ["deploy/container-entrypoint.sh", "/usr/local/bin/judge-entrypoint"]
            for copy in self.values("COPY")
        )


class TestContainerEntrypoint:
    """The entrypoint run against a stand-in `judge` that records its calls."""

    @pytest.fixture
    def fake_judge(self, tmp_path: Path) -> Path:
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        fake = bin_dir / "judge"
        fake.write_text(
            '#!/bin/sh\necho "$*" >> "$JUDGE_CALLS"\n'
            'if [ "$1 $2" = "db upgrade" ] && [ -n "${FAIL_UPGRADE:-}" ]; then exit 4; fi\n'
        )
        fake.chmod(0o755)
        return bin_dir

    def run(self, bin_dir: Path, *args: str, fail_upgrade: bool = False) -> tuple[int, list[str]]:
        calls = bin_dir.parent / "calls"
        calls.write_text("")
        env = {
            "PATH": f"{bin_dir}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            "JUDGE_CALLS": str(calls),
            **({"FAIL_UPGRADE": "1"} if fail_upgrade else {}),
        }
        result = subprocess.run(
            [str(DEPLOY / "container-entrypoint.sh"), *args], env=env, check=False, timeout=30
        )
        return result.returncode, calls.read_text().splitlines()

    def test_default_migrates_then_serves(self, fake_judge: Path) -> None:
        assert self.run(fake_judge) == (0, ["db upgrade", "serve --no-migrate"])

    def test_options_go_to_serve(self, fake_judge: Path) -> None:
        assert self.run(fake_judge, "--only", "worker") == (
            0,
            ["db upgrade", "serve --no-migrate --only worker"],
        )

    def test_a_command_runs_alone(self, fake_judge: Path) -> None:
        assert self.run(fake_judge, "db", "current") == (0, ["db current"])
        assert self.run(fake_judge, "judge", "version") == (0, ["version"])

    def test_a_failed_migration_does_not_serve(self, fake_judge: Path) -> None:
        code, calls = self.run(fake_judge, fail_upgrade=True)
        assert code == 4 and calls == ["db upgrade"]


class TestCompose:
    compose = yaml_subset.loads((DEPLOY / "compose.yaml").read_text())

    def service(self, name: str) -> dict[str, object]:
        assert isinstance(self.compose, dict)
        services = self.compose["services"]
        assert isinstance(services, dict)
        value = services[name]
        assert isinstance(value, dict)
        return value

    def test_it_names_the_judge_and_its_database(self) -> None:
        assert isinstance(self.compose, dict)
        assert set(self.compose["services"]) == {"judge", "db"}

    def test_the_database_is_postgresql_15_with_a_healthcheck(self) -> None:
        db = self.service("db")
        assert str(db["image"]).endswith("postgres:15")
        healthcheck = db["healthcheck"]
        assert isinstance(healthcheck, dict)
        assert "pg_isready" in " ".join(healthcheck["test"])

    def test_the_judge_waits_for_a_healthy_database_and_uses_it(self) -> None:
        judge = self.service("judge")
        assert judge["depends_on"] == {"db": {"condition": "service_healthy"}}
        environment = judge["environment"]
        assert isinstance(environment, dict)
        assert environment["JUDGE_DATABASE_URL"] == "postgresql+psycopg://judge:judge@db:5432/judge"
        db_env = self.service("db")["environment"]
        assert isinstance(db_env, dict)
        assert environment["JUDGE_DATABASE_URL"].startswith(
            f"postgresql+psycopg://{db_env['POSTGRES_USER']}:{db_env['POSTGRES_PASSWORD']}@db:5432/{db_env['POSTGRES_DB']}"
        )

    def test_the_judge_is_built_from_the_containerfile(self) -> None:
        build = self.service("judge")["build"]
        assert isinstance(build, dict)
        context = (DEPLOY / str(build["context"])).resolve()
        assert context == ROOT
        assert (context / str(build["dockerfile"])).resolve() == DEPLOY / "Containerfile"

    def test_published_port_is_loopback_only_and_volumes_are_declared(self) -> None:
        judge = self.service("judge")
        assert judge["ports"] == ["127.0.0.1:2525:2525", "127.0.0.1:8080:8080"]  # SMTP, the web pages
        assert isinstance(self.compose, dict)
        declared = set(self.compose["volumes"])
        used = {
            str(volume).split(":", 1)[0]
            for service in ("judge", "db")
            for volume in self.service(service)["volumes"]  # type: ignore[attr-defined]
        }
        assert used == declared


class TestYamlSubset:
    @pytest.mark.parametrize(
        "document",
        [
            "a: &anchor 1\n",
            "a: |\n  text\n",
            "list:\n  - name: x\n",
            "a: 1\na: 2\n",
            "a:b\n",
        ],
    )
    def test_it_refuses_what_it_cannot_read(self, document: str) -> None:
        with pytest.raises(yaml_subset.UnsupportedYaml):
            yaml_subset.loads(document)

    def test_it_reads_nesting_lists_and_flow_values(self) -> None:
        document = 'a:\n  b: \'x\' # note\n  c:\n    - "1"\n    - two\n  d: [1, "y"]\n  e: {}\n'
        assert yaml_subset.loads(document) == {
            "a": {"b": "x", "c": ["1", "two"], "d": [1, "y"], "e": {}}
        }


# --- scripts ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "script",
    ["backup.sh", "restore.sh", "smoke.sh", "container-entrypoint.sh"],
)
def test_scripts_are_executable_and_parse(script: str) -> None:
    path = DEPLOY / script
    assert path.stat().st_mode & stat.S_IXUSR, f"{script} is not executable"
    shell = "sh" if path.read_text().startswith("#!/bin/sh") else "bash"
    result = subprocess.run([shell, "-n", str(path)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_the_default_relay_of_a_bare_judge_is_the_maildir_the_backup_saves(tmp_path: Path) -> None:
    config = load_config({"JUDGE_DATA_DIR": str(tmp_path)})
    assert isinstance(config.relay, MaildirRelaySpec)
    assert tool.resolve_target({"JUDGE_DATA_DIR": str(tmp_path)}).maildir == config.relay.path
