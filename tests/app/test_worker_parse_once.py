"""The worker reads a mail once (issue 14): at its SIGNON the reader takes the game's map,
phase and language for the rest. Only a mail with something before its sign-on is read
again whole with them, so every line is still read as it always was."""

from __future__ import annotations

import pytest

from judge.app.mail_in import worker
from tests.app.conftest import Harness, text
from tests.app.orders_helpers import address, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = worker.parse_mail

    def counting(body: str, *args: object, **kwargs: object) -> worker.ParseResult:
        seen.append(body)
        return real(body, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(worker, "parse_mail", counting)
    return seen


def test_an_order_mail_is_read_once_with_the_games_map(harness: Harness, reads: list[str]) -> None:
    game = start_game(harness)
    harness.new_mail()
    reply = text(harness.exchange(address("FRANCE"), game.signon("FRANCE") + "A PAR - BUR\nF BRE - XYZ\nSIGNOFF\n"))
    assert len(reads) == 1
    assert "France: Army Paris -> Burgundy." in reply
    assert "Unrecognized destination province -> XYZ" in reply


def test_lines_before_the_signon_are_read_again_with_the_game(harness: Harness, reads: list[str]) -> None:
    game = start_game(harness)
    harness.new_mail()
    reply = text(harness.exchange(address("FRANCE"), "VERSION\n" + game.signon("FRANCE") + "A PAR - BUR\n"))
    assert len(reads) == 2
    assert "Diplomacy email judge, version" in reply
    assert "France: Army Paris -> Burgundy." in reply
