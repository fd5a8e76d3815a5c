"""What the results of the Renaissance game tell of its dice, and to whom (issue 33).

Everyone reads where a disaster struck, what it took and who was assassinated; the payer of an
attempt and every die reach the masters alone (:func:`judge.app.audience.machiavelli_books.dice_readable`),
the payer's own attempt his books. In English and French.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from judge.app.audience.machiavelli_books import books_readable, dice_readable
from judge.app.machiavelli.season_report import SeasonTexts, season_texts
from judge.core.machiavelli.board import load_board
from judge.core.machiavelli.campaign import MachiavelliPosition, opening_position
from judge.core.machiavelli.dice import dice_for
from judge.core.machiavelli.disasters import Dice
from judge.core.machiavelli.options import MachiavelliOptions
from judge.core.machiavelli.orders import Assassinate, Expense
from judge.core.machiavelli.season import SeasonResult, play_phase
from judge.core.machiavelli.treasury import Finances
from judge.core.phase import Phase
from judge.core.units import Unit, UnitType
from judge.i18n import translation

BOARD = load_board()
POWERS = BOARD.game_map.powers


def at(phase: str, **changes: object) -> MachiavelliPosition:
    start = opening_position(BOARD)
    money = Finances(MappingProxyType({p: 40 for p in POWERS}))
    return replace(start, phase=Phase.parse(phase), money=money, **changes)  # type: ignore[arg-type]


def texts(result: SeasonResult, language: str = "en") -> SeasonTexts:
    return season_texts(result, BOARD.game_map, language, translation(language).gettext)


def pinned(*throws: tuple[int, ...]) -> Dice:
    left = iter(throws)
    return lambda count: next(left)


def test_an_assassination_is_public_its_payer_and_die_are_not() -> None:
    seed = next(
        f"report-{n}"
        for n in range(200)
        if dice_for(f"report-{n}", Phase.parse("S1455M"), "assassination/FLORENCE/2").randint(1, 6) <= 2
    )
    attempt = Expense(2, 24, Assassinate("PAPACY"))
    result = play_phase(BOARD, at("S1455M"), {"FLORENCE": [attempt]}, MachiavelliOptions(), seed=seed)
    said = texts(result)
    player = said.for_reader(books_readable(POWERS, power="MILAN", master=False), dice=dice_readable(master=False))
    payer = said.for_reader(books_readable(POWERS, power="FLORENCE", master=False), dice=dice_readable(master=False))
    master = said.for_reader(books_readable(POWERS, power=None, master=True), dice=dice_readable(master=True))
    for mail in (player, payer, master):
        assert "The leader of Papacy is assassinated." in mail
    assert "ASSASSINATE" not in player and "against PAPACY" not in player  # who paid: never told
    assert "Assassination chits: AUSTRIA, FLORENCE, FRANCE, NAPLES, PAPACY, TURKEY, VENICE." in player
    assert "ASSASSINATE PAPACY: succeeds (paid 24 ducats)" in payer
    assert "The dice of this phase" not in payer
    assert "assassination, FLORENCE against PAPACY:" in master
    french = texts(result, "fr").for_reader(frozenset())
    assert "Le souverain de la Papauté est assassiné." in french or "Le souverain de Papauté" in french


def test_the_plague_and_the_storms_are_told_with_what_they_took() -> None:
    spring = play_phase(
        BOARD, at("S1455M"), {}, MachiavelliOptions(plague=True), seed="s",
        disaster_dice={"plague": pinned((2, 2), (4, 4))},
    )  # fmt: skip
    said = texts(spring).for_reader(frozenset())
    assert "The plague strikes CRE, DUR, FLO, MOD, NAP, PER, VEN." in said
    assert "Milan: A CRE is lost to the plague." in said and "Autonomous: G MOD is lost to the plague." in said
    assert "plague, severity" not in said
    assert "La peste frappe CRE, DUR, FLO, MOD, NAP, PER, VEN." in texts(spring, "fr").for_reader(frozenset())
    units = (*opening_position(BOARD).units, Unit("TURKEY", UnitType.FLEET, "ION"))
    fall = play_phase(
        BOARD, at("F1454M", units=units), {}, MachiavelliOptions(storms=True, famine=False), seed="s",
        disaster_dice={"storm": pinned((2, 2), (5, 5))},
    )  # fmt: skip
    told = texts(fall)
    assert "Storms strike ION, WMS." in told.for_reader(frozenset())
    assert "Turkey: F ION is lost in the storm." in told.for_reader(frozenset())
    assert "storm, row: 5 5 -> ION, WMS" in told.for_reader(frozenset(), dice=True)
