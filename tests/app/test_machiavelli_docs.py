"""The Renaissance game's pages (docs/machiavelli.md, docs/fr/machiavelli.md) quote the judge.

Every order block of a page (```` ```orders ````: a campaign's, ```` ```orders-winter ````: the
adjustments', ```` ```orders-retreat ````) is read line by line by the game's own reader, in
French for the French page, and must read without a refusal; the campaign and winter blocks are
also sent by mail in a game of the variant, and the judge's receipt must keep every line. Every
```` ```reply ```` block is a piece of what the judge mailed in a year played by mail here: its
lines (runs separated by a ``...`` line) must appear together, in order, in one mail of that
game. The books a page quotes (a power's treasury, its money orders) must reach that power and
the master only. A change of the reader, of a reply or of the results breaks these tests.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from judge.core.machiavelli.board import load_board
from judge.core.phase import PhaseType
from judge.lang.machiavelli_sheet import read_sheet
from judge.lang.powers import power_letters
from tests.app.conftest import Harness
from tests.app.games_helpers import player, register
from tests.app.masters_helpers import MASTER, read, state_of

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = {"en": "machiavelli.md", "fr": "fr/machiavelli.md"}
BLOCK = re.compile(r"^```(orders(?:-winter|-retreat)?|reply)\n(.*?)^```", re.MULTILINE | re.DOTALL)
PHASES = {"orders": PhaseType.MOVEMENT, "orders-winter": PhaseType.ADJUSTMENT, "orders-retreat": PhaseType.RETREAT}

BOARD = load_board()
GAME, PASSWORD, MASTER_PASSWORD = "demo", "secret", "masterpw"
PLAYERS = [player(n) for n in range(len(BOARD.game_map.powers))]
LETTER = {power: letter for letter, power in dict(power_letters(BOARD.game_map)).items()}

# The year the pages describe: (phase, power, English lines, French lines). Every power not named
# keeps all its units in the winters (but Turkey, silent in the winter of 1454) and gives no
# orders in the campaigns.
YEAR: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("W1453A", "FLORENCE", ("MAINTAIN A ARE", "MAINTAIN A FLO", "MAINTAIN F PSA"),
     ("ENTRETIENT A ARE", "ENTRETIENT A FLO", "ENTRETIENT F PSA")),
    ("S1454M", "FLORENCE", ("EXPENSE 1: 6 DUCATS DISBAND G SIE", "A ARE - SIE", "A FLO H", "F PSA - WTS", "A ARE - XYZ"),
     ("DÉPENSE 1 : 6 DUCATS DISPERSE G SIE", "A ARE - SIE", "A FLO T", "F PSA - WTS", "A ARE - XYZ")),
    ("S1454M", "FLORENCE", ("EXPENSE 1: 6 DUCATS DISBAND G SIE", "A ARE - SIE", "A FLO H", "F PSA - WTS"),
     ("DÉPENSE 1 : 6 DUCATS DISPERSE G SIE", "A ARE - Sienne", "A FLO T", "F PSA - WTS")),
    ("S1454M", "MILAN", ("A MIL CONVERT TO GARRISON", "A PAV - PIA", "GIVE 2 DUCATS TO FLORENCE", "BORROW 10 DUCATS FOR 1 YEAR"),
     ("A MIL SE CONVERTIT EN GARNISON", "A PAV - PIA", "DONNE 2 DUCATS À FLORENCE", "EMPRUNTE 10 DUCATS POUR 1 AN")),
    ("S1454M", "PAPACY", ("A RME DISBAND",), ("A RME DISPERSE",)),
    ("U1454M", "FLORENCE", ("A SIE - PIO",), ("A SIE - PIO",)),
    ("U1454M", "MILAN", ("G MIL H", "PAY 5 DUCATS TO BANK"), ("G MIL T", "PAIE 5 DUCATS À LA BANQUE")),
    ("F1454M", "FLORENCE", ("A PIO BESIEGE",), ("A PIO ASSIÈGE",)),
    ("W1454A", "FLORENCE", ("MAINTAIN A PIO", "MAINTAIN A FLO", "MAINTAIN F WTS", "BUILD G FLO"),
     ("ENTRETIENT A PIO", "ENTRETIENT A FLO", "ENTRETIENT F WTS", "CONSTRUIT G FLO")),
    ("W1454A", "MILAN", ("MAINTAIN A CRE", "MAINTAIN A PIA", "MAINTAIN G MIL", "BUILD ELITE MERCENARIES A PAV"),
     ("ENTRETIENT A CRE", "ENTRETIENT A PIA", "ENTRETIENT G MIL", "CONSTRUIT MERCENAIRES D'ÉLITE A PAV")),
    ("S1455M", "FLORENCE", ("A PIO BESIEGE",), ("A PIO ASSIÈGE",)),
    ("S1455M", "VENICE", ("GIVE TURKEY TO NAPLES", "EXPENSE 1: 12 DUCATS ASSASSINATE MILAN"),
     ("DONNE TURQUIE À NAPLES", "DÉPENSE 1 : 12 DUCATS ASSASSINE MILAN")),
)  # fmt: skip


def blocks(language: str, kind: str) -> list[tuple[str, str]]:
    """(page:line, text) of each ``kind`` block of the page in ``language``."""
    page = PAGES[language]
    text = (DOCS / page).read_text(encoding="utf-8")
    return [
        (f"docs/{page}:{text.count(chr(10), 0, m.start()) + 1}", m.group(2))
        for m in BLOCK.finditer(text)
        if m.group(1) == kind
    ]


ORDER_BLOCKS = [
    (language, kind, place, body)
    for language in PAGES
    for kind in PHASES
    for place, body in blocks(language, kind)
]


def test_the_pages_have_order_and_reply_examples() -> None:
    for language in PAGES:
        for kind in ("orders", "orders-winter", "orders-retreat", "reply"):
            assert blocks(language, kind), (language, kind)


@pytest.mark.parametrize(("language", "kind", "place", "body"), ORDER_BLOCKS, ids=[b[2] for b in ORDER_BLOCKS])
def test_every_order_example_is_read_by_the_games_reader(language: str, kind: str, place: str, body: str) -> None:
    sheet = read_sheet(body.splitlines(), BOARD.game_map, PHASES[kind], french=language == "fr")
    assert sheet.lines, place
    assert not sheet.errors, f"{place}: " + "; ".join(f"{line.text}: {line.error}" for line in sheet.errors)


@dataclass
class PlayedYear:
    """What the judge mailed in the pages' year: every mail's text, and each reader's address."""

    seats: dict[str, str]
    mails: list[tuple[str, str]] = field(default_factory=list)
    """(recipient, text) of every reply and results mail, in order."""


def _send(harness: Harness, year: PlayedYear, sender: str, body: str, *, refused: bool = False) -> str:
    """Send ``body``; the reply is flagged as an error exactly when ``refused``."""
    harness.new_mail()
    reply = harness.exchange(sender, body)
    assert ("[Error Flag]" in reply["Subject"]) is refused, read(reply)
    year.mails.append((sender, read(reply)))
    year.mails += [(str(m["To"]), read(m)) for m in harness.others]
    return read(reply)


def _orders(harness: Harness, year: PlayedYear, power: str, lines: list[str] | tuple[str, ...]) -> str:
    address = year.seats[power]
    body = "\n".join([f"SIGNON {LETTER[power]}{GAME} {PASSWORD}", *lines]) + "\n"
    return _send(harness, year, address, body)


def _everything_kept(harness: Harness, power: str, language: str) -> list[str]:
    """Every unit and garrison of ``power`` maintained, as the open phase's board has them."""
    with harness.db.unit_of_work(readonly=True) as uow:
        record = uow.phases.current(uow.games.require(GAME))
        assert record is not None
        kept = dict(record.position_before)
    verb = "ENTRETIENT" if language == "fr" else "MAINTAIN"
    units = [f"{verb} {u['type']} {u['loc']}" for u in kept["units"] if u["power"] == power]
    return units + [f"{verb} G {city}" for city, owner in kept["garrisons"].items() if owner == power]


def _examples_by_mail(harness: Harness, year: PlayedYear, language: str, kind: str) -> None:
    """Each ``kind`` example of the page sent as Florence's sheet: the receipt keeps every line."""
    refused = "refusé" if language == "fr" else "refused"
    for place, body in blocks(language, kind):
        receipt = _orders(harness, year, "FLORENCE", body.splitlines())
        kept = [line for line in receipt.split("\n\n")[-1].splitlines() if line.strip()]
        sent = [line for line in body.splitlines() if line.strip()]
        assert len(kept) == 1 + len(sent) and not any(refused in line for line in kept), (place, receipt)


def play_the_pages_year(harness: Harness, language: str) -> PlayedYear:
    """A game of the variant formed by mail and played through the pages' year, in ``language``."""
    register(harness, MASTER, language=language)
    year = PlayedYear({})
    _send(harness, year, MASTER, f"CREATE ?{GAME} {MASTER_PASSWORD} machiavelli\nBECOME MASTER\nSET MANUAL PROCESS\n")
    for address in PLAYERS:
        register(harness, address, language=language)
    for address in PLAYERS:
        _send(harness, year, address, f"SIGNON ?{GAME} {PASSWORD} machiavelli\n")
    year.seats.update({power: address for address, power, _ in state_of(harness, GAME).seats if power and address})
    for command in ("GET info.machiavelli", f"LIST {GAME}"):  # the page sends its readers to both
        assert "1454" in _send(harness, year, PLAYERS[0], command + "\n")
    french = language == "fr"
    for phase in ("W1453A", "S1454M", "U1454M", "F1454M", "W1454A", "S1455M"):
        assert state_of(harness, GAME).columns["current_phase"] == phase
        if phase == "W1453A":
            _examples_by_mail(harness, year, language, "orders-winter")
        if phase == "S1454M":
            _examples_by_mail(harness, year, language, "orders")
        ordered = set()
        for when, power, english, in_french in YEAR:
            if when == phase:
                _orders(harness, year, power, in_french if french else english)
                ordered.add(power)
        if phase.endswith("A"):
            for power in BOARD.game_map.powers:
                if power not in ordered and (power, phase) != ("TURKEY", "W1454A"):
                    _orders(harness, year, power, _everything_kept(harness, power, language))
        if phase == "S1455M":  # an IF block, refused: the page says so
            sign = f"SIGNON {LETTER['PAPACY']}{GAME} {PASSWORD}"
            _send(harness, year, year.seats["PAPACY"], f"{sign}\nIF Milan Army Milan THEN\nA BOL H\nENDIF\n", refused=True)
        _send(harness, year, MASTER, f"SIGNON M{GAME} {MASTER_PASSWORD}\nPROCESS\n")
    # the master's part: another game, created plain, turned into this one (after the year, whose
    # dice are seeded by its game)
    _send(harness, year, MASTER, f"CREATE ?other {MASTER_PASSWORD}\nBECOME MASTER\n")
    _send(harness, year, MASTER, f"SIGNON Mother {MASTER_PASSWORD}\nSET VARIANT machiavelli\n")
    _send(harness, year, MASTER, f"SIGNON Mother {MASTER_PASSWORD}\nSET MACHIAVELLI SECOND\nSET NO SUMMER\n")
    return year


def _runs(block: str) -> list[list[str]]:
    """A quoted block's runs of lines (a ``...`` line separates two runs)."""
    runs: list[list[str]] = [[]]
    for line in block.splitlines():
        if line.strip() == "...":
            runs.append([])
        else:
            runs[-1].append(line.rstrip())
    return [run for run in runs if run]


def _quotes(mail: str, block: str) -> bool:
    lines = [line.rstrip() for line in mail.splitlines()]
    start = 0
    for run in _runs(block):
        for at in range(start, len(lines) - len(run) + 1):
            if lines[at : at + len(run)] == run:
                start = at + len(run)
                break
        else:
            return False
    return True


def _check_the_page(year: PlayedYear, language: str) -> None:
    for place, block in blocks(language, "reply"):
        found = [to for to, mail in year.mails if _quotes(mail, block)]
        assert found, f"{place}: no mail of the year reads:\n{block}"
    for place, block in blocks(language, "reply"):
        readers = {to for to, mail in year.mails if _quotes(mail, block)}
        for line in block.splitlines():
            books = BOOKS.match(line)
            if books is not None:  # a power's books: that power and the master
                assert readers <= {year.seats[_power(books.group(1) or books.group(2), language)], MASTER}, (place, readers)
            if line in DICE:  # the dice of a phase: the masters alone
                assert readers == {MASTER}, (place, readers)
            receipt = RECEIPT.match(line)
            if receipt is not None:  # a receipt: the power that sent the orders, and nobody else
                assert readers == {year.seats[_power(receipt.group(1) or receipt.group(2), language)]}, (place, readers)


BOOKS = re.compile(r"^(?:Comptes d(?:e |')(.+?) \(privés\) :|(.+?)'s books \(private\):)$")
DICE = ("The dice of this phase (for the masters only):", "Les dés de cette phase (pour les maîtres seulement) :")
RECEIPT = re.compile(r"^(?:Orders kept for (.+?):|Ordres retenus pour (.+?) :)$")


def _power(name: str, language: str) -> str:
    return next(p for p in BOARD.game_map.powers if BOARD.game_map.power_display_name(p, language) == name)


def test_the_english_page_quotes_a_year_played_by_mail(harness: Harness) -> None:
    year = play_the_pages_year(harness, "en")
    _check_the_page(year, "en")


def test_the_french_page_quotes_a_year_played_by_mail(harness: Harness) -> None:
    year = play_the_pages_year(harness, "fr")
    _check_the_page(year, "fr")


def test_a_changed_quote_is_caught() -> None:
    """The comparison the page tests rest on: a run must be found whole, in order, in one mail."""
    mail = "Orders:\n  Florence: A ARE - SIE: succeeds\n  Florence: A FLO H: succeeds\n"
    assert _quotes(mail, "Orders:\n  Florence: A ARE - SIE: succeeds\n")
    assert _quotes(mail, "Orders:\n...\n  Florence: A FLO H: succeeds\n")
    assert not _quotes(mail, "Orders:\n  Florence: A ARE - SIE: fails\n")
    assert not _quotes(mail, "  Florence: A FLO H: succeeds\n...\nOrders:\n")
