"""`judge` start-up and `judge adjudicate --jsonl` leave the collector as they found it.

The command line turns the collector off while it starts, and a batch collects its
youngest generation less often; neither may outlive the command (a program that calls
``main`` goes on with its own settings).
"""

import gc
import io
import sys

import pytest

from judge.cli import main

POSITION = (
    '{"variant": "standard", "phase": "S1901M",'
    ' "units": [{"power": "ENGLAND", "type": "F", "loc": "NTH"}],'
    ' "centers": {"ENGLAND": ["LON"]}, "orders": {"ENGLAND": ["F NTH - BEL"]}}\n'
)


def _run_batch(monkeypatch: pytest.MonkeyPatch, text: str) -> list[str]:
    stdin = io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8")
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys, "stdout", stdout)
    assert main(["adjudicate", "--jsonl"]) == 0
    stdout.flush()
    return stdout.buffer.getvalue().decode("utf-8").splitlines()


@pytest.mark.parametrize("enabled", [True, False])
def test_batch_restores_the_collector(monkeypatch: pytest.MonkeyPatch, enabled: bool) -> None:
    threshold = gc.get_threshold()
    was_enabled = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        out = _run_batch(monkeypatch, POSITION + "\n" + POSITION)
        assert gc.isenabled() is enabled
        assert gc.get_threshold() == threshold
    finally:
        gc.enable() if was_enabled else gc.disable()
        gc.set_threshold(*threshold)
    assert len(out) == 2
    assert all('"outcome":"succeeds"' in line for line in out)


def test_start_up_restores_the_collector(capsys: pytest.CaptureFixture[str]) -> None:
    assert gc.isenabled()
    assert main(["--version"]) == 0
    assert gc.isenabled()
    assert capsys.readouterr().out.startswith("judge ")
