"""Section 7 of the player's guides (EN and FR), sentence by sentence: what the judge does with IF blocks.

Each test names the sentence it holds the judge to. The guides' quoted
replies are read from the guides themselves, so the page and the judge
cannot drift apart. Every test runs on SQLite and PostgreSQL (blocks are
stored with the power's sheet).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.db.enums import OrderBlockKind
from tests.app.conftest import Harness
from tests.app.orders_helpers import MASTER, OBSERVER, StartedGame, plain, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

ROOT = Path(__file__).resolve().parents[2]
GUIDES = {"en": ROOT / "docs" / "player-guide.md", "fr": ROOT / "docs" / "fr" / "guide-joueur.md"}
HEADINGS = {"en": "## 7. Conditional orders", "fr": "## 7. Ordres conditionnels"}
FENCE = re.compile(r"^```(\w*(?:-fr)?)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def section(language: str) -> str:
    text = GUIDES[language].read_text(encoding="utf-8")
    start = text.index(HEADINGS[language])
    return text[start : text.index("\n## ", start + 1)]


def fenced(language: str, kind: str) -> list[str]:
    """The section's fenced blocks of ``kind`` (``mail``, ``mail-fr`` or ``""``: a quoted reply)."""
    return [body for fence, body in FENCE.findall(section(language)) if fence == kind]


def quoted_replies(language: str) -> list[str]:
    """The section's one-line quotes of the judge (``> ...``)."""
    return [line[2:] for line in section(language).splitlines() if line.startswith("> ")]


def mail_kind(language: str) -> str:
    return "mail-fr" if language == "fr" else "mail"


def after_signon(mail: str) -> str:
    return mail.split("\n", 1)[1]


def stored(game: StartedGame, phase: str = "S1901M") -> list[str]:
    with game.harness.db.unit_of_work(readonly=True) as uow:
        row = uow.orders.current(game.game(uow), phase).get("FRANCE")
        return list(row.canonical) if row is not None else []


GUIDE_BLOCK = (
    "IF GERMANY A MUN AND NOT BUR\n  A PAR - BUR\nELSE IF RUSSIA F SEV OR (ITALY VEN AND TYR)\n"
    "  A PAR H\nELSE\n  A PAR - PIC\nENDIF"
)


# "A condition is true when such a unit stands in the province ... The board at the start of the
# phase is known, so a block for the current phase is decided as soon as it arrives: the reply
# shows each unit with the order the block gives it, then the blocks in force, numbered in the
# order they are decided. On the opening board, the block above gives: (the quoted reply)"
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_guides_block_is_decided_at_once_and_answered_as_the_guide_quotes(harness: Harness, language: str) -> None:
    game = start_game(harness, languages={"FRANCE": language})
    (example, *_) = fenced(language, mail_kind(language))
    reply = game.orders("FRANCE", after_signon(example))
    body = plain(reply)
    (quoted,) = fenced(language, "")
    assert quoted.strip() in body
    assert not reply["Subject"].startswith("Re: [Error Flag]")
    assert stored(game) == [GUIDE_BLOCK]


# "... ELSE IF ... the first branch whose condition holds": a false IF falls to the ELSE IF, and
# "AND and OR are read strictly from left to right; brackets group".
def test_the_first_true_branch_is_taken_reading_conditions_left_to_right(harness: Harness) -> None:
    game = start_game(harness)
    body = game.orders_text(
        "FRANCE",
        # (TRUE OR TRUE) AND FALSE is false read left to right; TRUE OR (TRUE AND FALSE) would be true.
        "IF german munich OR russian moscow AND italian burgundy\n A PAR - BUR\n"
        "ELIF NOT german fleet munich THEN\n A PAR H\nELSE\n A PAR - PIC\nEND\n",
    )
    assert "France: Army Paris HOLD." in body
    assert stored(game)[-1].splitlines()[0] == "IF (GERMANY MUN OR RUSSIA MOS) AND ITALY BUR"


# "Blocks nest. A block left open at the end of the mail, or at a PHASE line, is closed there."
def test_blocks_nest_and_an_open_block_closes_at_a_phase_line(harness: Harness) -> None:
    game = start_game(harness)
    body = game.orders_text(
        "FRANCE",
        "IF german munich\n IF russian warsaw\n  A PAR - PIC\n ENDIF\n"
        "PHASE Fall 1901 Movement\nA PAR H\n",
    )
    assert "France: Army Paris -> Picardy." in body
    assert stored(game) == ["IF GERMANY MUN\n  IF RUSSIA WAR\n    A PAR - PIC\n  ENDIF\nENDIF"]
    assert stored(game, "F1901M") == ["A PAR H"]


# "If any line of a block cannot be read ... the whole block is refused, the reason is given
# under the line, and your earlier orders and blocks stay as they were (the error flag is set)."
def test_a_block_with_an_unreadable_line_is_refused_whole_and_earlier_orders_stay(harness: Harness) -> None:
    game = start_game(harness)
    game.orders("FRANCE", "A PAR H\nIF german munich\n A MAR - BUR\nENDIF\n")
    before = stored(game)
    reply = game.orders(
        "FRANCE", "IF german army munich\n A PAR - BUR\nELSE\n A PAR - Sevvastopol\nENDIF\nF BRE - MAO\n"
    )
    body = plain(reply)
    assert (
        "> A PAR - Sevvastopol\n"
        "Unrecognized destination province -> Sevvastopol (did you mean SEV?) (the whole IF block is ignored)\n"
    ) in body.replace(">  ", "> ")
    assert reply["Subject"].startswith("Re: [Error Flag]")
    assert stored(game) == [*before, "F BRE - MAO"]  # no part of the block kept; the other orders read
    assert "Error flag set" in body or "error flag is set" in body


# "... or any order in it is illegal, the whole block is refused ..."
def test_a_block_with_an_illegal_order_is_refused_whole_and_earlier_blocks_stay(harness: Harness) -> None:
    game = start_game(harness)
    game.orders("FRANCE", "IF german munich\n A PAR - BUR\nENDIF\n")
    before = stored(game)
    reply = game.orders("FRANCE", "IF german munich\n A PAR - PIC\nELSE\n A PAR - MUN\nENDIF\n")
    body = plain(reply)
    assert "A PAR - MUN: Paris is not adjacent to Munich." in body
    assert "The IF block was not kept (your earlier orders and blocks stay)" in body
    assert reply["Subject"].startswith("Re: [Error Flag]")
    assert stored(game) == before


# "For a block given for a later phase, after a PHASE line, the lines are read now and the block
# is decided when that phase opens."
def test_a_block_for_a_later_phase_is_read_now_and_kept_for_that_phase(harness: Harness) -> None:
    game = start_game(harness)
    body = game.orders_text("FRANCE", "PHASE Fall 1901 Movement\nIF german munich\n A PAR - Pariss\nENDIF\n")
    assert "(the whole IF block is ignored)" in body
    assert stored(game, "F1901M") == []
    game.orders("FRANCE", "PHASE Fall 1901 Movement\nIF german munich\n A BUR - MUN\nENDIF\n")
    assert stored(game, "F1901M") == ["IF GERMANY MUN\n  A BUR - MUN\nENDIF"]
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.orders.current(game.game(uow), "F1901M")["FRANCE"].kind is OrderBlockKind.FUTURE


# "A new block that orders a unit an earlier block orders replaces that earlier block, as an
# order replaces the earlier order for its unit; the reply says so under the block's first line:"
@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_new_block_for_the_same_unit_replaces_the_earlier_one(harness: Harness, language: str) -> None:
    game = start_game(harness, languages={"FRANCE": language})
    game.orders("FRANCE", "IF german munich\n A PAR - BUR\nENDIF\n")
    game.orders("FRANCE", "IF russian warsaw\n A PAR - PIC\nENDIF\nIF italian venice\n F BRE - MAO\nENDIF\n")
    body = game.orders_text("FRANCE", "IF NOT german munich\n A PAR - GAS\nELSE\n A PAR H\nENDIF\n")
    (replaces, _withdrawn) = quoted_replies(language)
    assert f"> IF NOT german munich\n{replaces}\n" in body
    assert stored(game) == [
        "IF ITALY VEN\n  F BRE - MAO\nENDIF",
        "IF NOT GERMANY MUN\n  A PAR - GAS\nELSE\n  A PAR H\nENDIF",
    ]  # one block per unit: never three contradictory blocks for one army


# "Orders and blocks are decided in the order you gave them, so for a unit the order or block given
# last wins: an order for Paris sent after the block above replaces what the block gives Paris,
# and the block stays for any other unit it orders."
def test_for_a_unit_the_order_or_block_given_last_wins(harness: Harness) -> None:
    game = start_game(harness)
    game.orders("FRANCE", "IF german munich\n A PAR - BUR\n A MAR - SPA\nENDIF\n")
    body = game.orders_text("FRANCE", "A PAR - PIC\n")
    assert "France: Army Paris -> Picardy." in body
    assert "France: Army Marseilles -> Spain." in body
    body = game.orders_text("FRANCE", "IF german munich\n A PAR - GAS\nENDIF\n")
    assert "France: Army Paris -> Gascony." in body
    assert "France: Army Marseilles, No Order Processed." in body  # the new block replaced the old one
    assert "1. IF GERMANY MUN\n     A PAR - GAS\n   ENDIF" in body
    assert "2. " not in body


# "To withdraw blocks, send CLEAR IF (every block in force) or CLEAR IF with a unit (the block that
# orders it); your plain orders stay." and the quoted answer.
@pytest.mark.parametrize("language", ["en", "fr"])
def test_clear_if_withdraws_the_block_of_a_unit_and_plain_orders_stay(harness: Harness, language: str) -> None:
    game = start_game(harness, languages={"FRANCE": language})
    game.orders("FRANCE", {
        "en": "F BRE H\nIF german munich\n A PAR - BUR\nENDIF\nIF german kiel\n A MAR - SPA\nENDIF\n",
        "fr": "F Brest T\nIF Allemagne Munich\n A Paris - Bourgogne\nENDIF\nIF Allemagne Kiel\n A Marseille - Espagne\nENDIF\n",
    }[language])
    (_example, withdraw) = fenced(language, mail_kind(language))
    body = game.orders_text("FRANCE", after_signon(withdraw))
    (_replaces, withdrawn) = quoted_replies(language)
    assert withdrawn in body
    assert stored(game) == ["F BRE H", "IF GERMANY KIE\n  A MAR - SPA\nENDIF"]
    body = game.orders_text("FRANCE", "CLEAR IF\n")
    assert stored(game) == ["F BRE H"]
    body = game.orders_text("FRANCE", "CLEAR IF\n")
    assert ("There was no IF block to withdraw." if language == "en" else "Il n'y avait aucun bloc IF à retirer.") in body


# "After a PHASE line, it withdraws the blocks kept for that phase."
def test_clear_if_after_a_phase_line_withdraws_that_phases_blocks(harness: Harness) -> None:
    game = start_game(harness)
    game.orders("FRANCE", "IF german munich\n A PAR - BUR\nENDIF\nPHASE F1901M\nA BUR H\nIF german munich\n A MAR - SPA\nENDIF\n")
    body = game.orders_text("FRANCE", "PHASE F1901M\nCLEAR IF Marseilles\n")
    assert "1 IF block(s) withdrawn, for Marseilles." in body
    assert stored(game, "F1901M") == ["A BUR H"]
    assert stored(game) == ["IF GERMANY MUN\n  A PAR - BUR\nENDIF"]  # the current phase's block stays


# "`ORDERS` lists the blocks in force, as the reply does."
def test_orders_lists_the_blocks_in_force_numbered_in_the_order_they_are_decided(harness: Harness) -> None:
    game = start_game(harness)
    game.orders("FRANCE", "IF german munich\n A PAR - BUR\nENDIF\nA MAR H\nIF russian warsaw\n F BRE - MAO\nENDIF\n")
    body = game.orders_text("FRANCE", "ORDERS\n")
    assert (
        "1. IF GERMANY MUN\n     A PAR - BUR\n   ENDIF\n"
        "2. IF RUSSIA WAR\n     F BRE - MAO\n   ENDIF\n"
    ) in body


# Who may withdraw: the power's player (a master after BECOME); an observer is refused and sees nothing.
def test_only_the_powers_player_may_withdraw_its_blocks(harness: Harness) -> None:
    game = start_game(harness)
    game.orders("FRANCE", "IF german munich\n A PAR - BUR\nENDIF\n")
    body = plain(harness.exchange(OBSERVER, "SIGNON Odemo watchpw\nCLEAR IF\n"))
    assert "Observers cannot give orders." in body
    assert "A PAR - BUR" not in body
    body = plain(game.master("CLEAR IF\n"))
    assert "A master must BECOME a power before giving its orders." in body
    assert stored(game) == ["IF GERMANY MUN\n  A PAR - BUR\nENDIF"]
    assert MASTER
