"""The guides' examples are mails the judge reads without an error, and their links lead somewhere.

Every fenced block marked ``mail`` in docs/ (``mail-fr``: read as from a
player who chose French) is parsed as a mail body with the Standard map; a
guide that shows a mistake would teach it. Relative links between the pages
(and to deploy/) must name files that exist, and anchors headings that exist.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from judge.lang.mail import parse_mail

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
GUIDES = ("player-guide.md", "master-guide.md", "fr/guide-joueur.md", "fr/guide-maitre.md", "README.md")
BLOCK = re.compile(r"^```(mail(?:-fr)?)\n(.*?)^```", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"\]\(([^)\s]+)\)")


def mail_blocks() -> list[tuple[str, str, bool]]:
    """(page:line, body, french) for every mail block of every page."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((f"{page.relative_to(ROOT)}:{line}", match.group(2), match.group(1) == "mail-fr"))
    return found


def test_the_guides_exist_and_have_examples() -> None:
    for name in GUIDES:
        assert (DOCS / name).is_file(), name
    places = {place.split(":")[0] for place, _, _ in mail_blocks()}
    for name in ("player-guide.md", "master-guide.md", "fr/guide-joueur.md", "fr/guide-maitre.md"):
        assert f"docs/{name}" in places, f"docs/{name} has no mail example"


@pytest.mark.parametrize(("place", "body", "french"), mail_blocks(), ids=[b[0] for b in mail_blocks()])
def test_every_mail_example_reads_without_error(place: str, body: str, french: bool) -> None:
    result = parse_mail(body, french=french)
    assert not result.errors, f"{place}: " + "; ".join(f"line {e.line}: {e.message}" for e in result.errors)
    assert result.commands


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, blanks to dashes."""
    text = unicodedata.normalize("NFC", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {anchor(line.lstrip("#")) for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("#")}


@pytest.mark.parametrize("page", [*PAGES, ROOT / "README.md"], ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_lead_somewhere(page: Path) -> None:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
    for target in LINK.findall(text):
        if re.match(r"^[a-z]+:", target):
            continue
        path_part, _, fragment = target.partition("#")
        destination = (page.parent / path_part).resolve() if path_part else page
        assert destination.exists(), f"{page.relative_to(ROOT)}: broken link {target}"
        if fragment and destination.suffix == ".md":
            assert fragment in anchors(destination), f"{page.relative_to(ROOT)}: no heading for #{fragment}"
