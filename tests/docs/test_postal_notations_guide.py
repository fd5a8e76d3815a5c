"""The guides' postal notation tables (issue 18) read as the guides say.

docs/player-guide.md ("Postal notations") and docs/fr/guide-joueur.md
("Notations postales") each show a table of orders as players write them
and as the judge reads them. Every row is read here (English rows as an
English player's, French rows as a French player's) and must give exactly
the judge's notation the guide shows; a list gives its whole list.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.core.phase import Phase
from judge.core.position import Position
from judge.core.units import Unit, UnitType
from judge.core.variants import load_map
from judge.lang.board import settle_by_board
from judge.lang.orders import ReadOrder, read_order, read_order_line
from judge.lang.preferences import Preference

DOCS = Path(__file__).resolve().parents[2] / "docs"
TABLES = {
    "player-guide.md": ("| Written | The judge reads |", False),
    "fr/guide-joueur.md": ("| Écrit | Le juge lit |", True),
}
ROW = re.compile(r"^\| `([^`]+)` \| `([^`]+)` \|$")


def rows() -> list[tuple[str, str, str, bool]]:
    found: list[tuple[str, str, str, bool]] = []
    for page, (header, french) in TABLES.items():
        lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
        start = lines.index(header)
        for line in lines[start + 2 :]:
            match = ROW.match(line)
            if match is None:
                break
            found.append((page, match.group(1), match.group(2), french))
    return found


def test_each_guide_has_its_table() -> None:
    pages = {page for page, *_ in rows()}
    assert pages == set(TABLES)
    assert len(rows()) >= 20


@pytest.mark.parametrize(("page", "written", "read_as", "french"), rows(), ids=[f"{r[0]}:{r[1]}" for r in rows()])
def test_each_quoted_notation_reads_as_the_guide_says(page: str, written: str, read_as: str, french: bool) -> None:
    results = read_order_line(written, load_map("standard"), french=french)
    assert len(results) == 1, f"{page}: {written!r} gave {results}"
    [result] = results
    assert isinstance(result, ReadOrder), f"{page}: {written!r}: {result}"
    shown = str(Preference(result.preferences)) if result.preferences else str(result.order)
    assert shown == read_as, f"{page}: {written!r}"


def test_the_french_guides_mar_example_is_the_army_in_marseilles() -> None:
    """guide-joueur.md: "Ainsi `A MAR - ESP` est l'armée de Marseille quand vous l'avez là."."""
    text = (DOCS / "fr/guide-joueur.md").read_text(encoding="utf-8")
    assert "`A MAR - ESP` est l'armée de Marseille" in text
    standard = load_map("standard")
    position = Position("standard", Phase.parse("S1901M"), (Unit("FRANCE", UnitType.ARMY, "MAR"),), {})
    read = read_order("A MAR - ESP", standard, french=True)
    assert str(settle_by_board(read, position, "FRANCE", standard)[0].order) == "A MAR - SPA"


PROSE = [
    ("player-guide.md", "F Spa (s) - Mao", False, "F SPA/SC - MAO"),
    ("player-guide.md", "F Bul (s) S A Rum - Bla", False, "F BUL/SC S A RUM - BLA"),
    ("player-guide.md", "A Mun S French A Bur - Par", False, "A MUN S A BUR - PAR"),
    ("player-guide.md", "Remove F(HOL)", False, "REMOVE F HOL"),
    ("fr/guide-joueur.md", "F Esp (s) - Mao", True, "F SPA/SC - MAO"),
    ("fr/guide-joueur.md", "F Bul (s) S A Rou - Noi", True, "F BUL/SC S A RUM - BLA"),
    ("fr/guide-joueur.md", "A Munich S France A Bourgogne - Paris", True, "A MUN S A BUR - PAR"),
    ("fr/guide-joueur.md", "retirer F(HOL)", True, "REMOVE F HOL"),
]


@pytest.mark.parametrize(("page", "written", "french", "read_as"), PROSE, ids=[f"{p}:{w}" for p, w, _, _ in PROSE])
def test_the_notations_quoted_in_the_text_read_as_the_guide_says(page: str, written: str, french: bool, read_as: str) -> None:
    text = " ".join((DOCS / page).read_text(encoding="utf-8").split())
    assert f"`{written}`" in text, f"{page} no longer quotes {written!r}"
    assert str(read_order(written, load_map("standard"), french=french).order) == read_as
