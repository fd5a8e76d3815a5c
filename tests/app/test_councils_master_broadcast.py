"""A master's broadcast in a council game reaches every member of every council, each alone."""

from __future__ import annotations

import pytest

from tests.app.conftest import Harness
from tests.app.councils_helpers import MASTER, form_council_game, seated

pytestmark = pytest.mark.engine_blind  # mail routing and wording: SQLite only, but the tests marked engine_sql


def test_the_masters_broadcast_reaches_every_council_member(harness: Harness) -> None:
    form_council_game(harness)
    members = seated(harness)
    harness.new_mail()
    harness.exchange(MASTER, "SIGNON Mdemo masterpw\nBROADCAST\nHear ye.\nENDPRESS\n")
    readers = [str(m["To"]) for m in harness.others]
    assert sorted(readers) == sorted(m.address for m in members)  # one mail each, every member
