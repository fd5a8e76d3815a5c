"""`judge parse`: a mail body in, the JSON of its commands and errors out."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from judge.cli import main

CORPUS = Path(__file__).resolve().parents[1] / "data" / "mail"


def test_parse_a_file_prints_the_golden_json(capsys: pytest.CaptureFixture[str]) -> None:
    mail = CORPUS / "07_typical_orders.txt"
    status = main(["parse", str(mail)])
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(mail.with_suffix(".json").read_text(encoding="utf-8"))
    assert status == 0


def test_parse_reads_standard_input_and_reports_errors(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    body = b"signon Fdt pw\nA Par - Xyz\nset wait\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(body)))
    status = main(["parse", "--compact"])
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    printed = json.loads(out)
    assert [command["kind"] for command in printed["commands"]] == ["signon", "set_wait"]
    assert printed["errors"][0]["line"] == 2
    assert printed["errors"][0]["column"] == 9
    assert printed["errors"][0]["text"] == "A Par - Xyz"
    assert "Xyz" in printed["errors"][0]["message"]
    assert status == 1


def test_parse_options_french_and_phase(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    mail = tmp_path / "mail.txt"
    mail.write_text("signon Fdt pw\nA Paris T\nF Tri - Alb\n", encoding="utf-8")
    assert main(["parse", "--french", "--phase", "retreat", str(mail)]) == 0
    commands = json.loads(capsys.readouterr().out)["commands"]
    assert [command.get("order_type") for command in commands] == [None, "hold", "retreat"]


def test_parse_survives_undecodable_bytes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    mail = tmp_path / "junk.bin"
    mail.write_bytes(bytes(range(256)) * 40)
    status = main(["parse", str(mail)])
    printed = json.loads(capsys.readouterr().out)
    assert status == 1 and printed["errors"]


def test_parse_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["parse", str(tmp_path / "absent.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_parse_unknown_variant(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    mail = tmp_path / "mail.txt"
    mail.write_text("list\n", encoding="utf-8")
    assert main(["parse", "--variant", "nosuch", str(mail)]) == 2
    assert "unknown variant" in capsys.readouterr().err
