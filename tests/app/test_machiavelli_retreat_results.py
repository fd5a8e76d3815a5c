"""The results of a retreat phase of the Renaissance game list its retreat orders, as the plain
game's retreat results do: each retreat or disband ordered with its outcome, and each dislodged
unit no order named ("no order, disbanded"), in the reader's language. Retreats are played on
the board: everyone reads them, the masters and observers too; no power's books come with them.

Spring 1454 from a hand position: the Papacy dislodges Florence's army in Arezzo, Milan
Venice's army in Verona. Florence retreats to Siena; Venice sends nothing.
"""

from __future__ import annotations

from typing import Any

from judge.app.machiavelli.stored_phase import (
    PlayedPhase,
    Reader,
    StoredSheet,
    opening_json,
    play_stored_phase,
    results_for,
)
from judge.core.machiavelli.board import load_board
from tests.app.test_machiavelli_stored_phase import keep_all

BOARD = load_board()
POWERS = BOARD.game_map.powers
SEED = "machiavelli-retreats"
READERS = {
    "florence@example.org": Reader(power="FLORENCE"),
    "venice@example.org": Reader(power="VENICE"),
    "milan@example.org": Reader(power="MILAN", language="fr"),
    "master@example.org": Reader(master=True),
    "observer@example.org": Reader(),
}
MOVED = {("PAPACY", "RME"): "URB", ("MILAN", "CRE"): "BRE", ("MILAN", "PAV"): "MAN"}


def moved(position: dict[str, Any]) -> dict[str, Any]:
    """The spring's board with three units moved by hand (:data:`MOVED`)."""
    units = [{**u, "loc": MOVED.get((u["power"], u["loc"]), u["loc"])} for u in position["units"]]
    return {**position, "units": units}


def retreats(florence: tuple[str, ...]) -> tuple[PlayedPhase, PlayedPhase]:
    """The spring that dislodges the two armies, and its retreats with Florence's ``florence``."""
    opening = opening_json(BOARD)
    winter = play_stored_phase(BOARD, opening, {p: keep_all(opening, p) for p in POWERS}, seed=SEED)
    attacks = {
        "PAPACY": StoredSheet(("A PER - ARE", "A URB S A PER - ARE")),
        "MILAN": StoredSheet(("A BRE - VER", "A MAN S A BRE - VER")),
    }
    spring = play_stored_phase(BOARD, moved(winter.position), attacks, seed=SEED)
    assert spring.position["phase"] == "S1454R"
    retreat = play_stored_phase(
        BOARD, spring.position, {"FLORENCE": StoredSheet(florence)}, seed=SEED
    )
    assert retreat.position["phase"] == "U1454M"
    return spring, retreat


def test_the_retreat_results_list_each_retreat_order_and_each_unit_left_without_one() -> None:
    _spring, retreat = retreats(("A ARE - SIE",))
    texts = results_for(retreat, BOARD, READERS)
    for address in (
        "florence@example.org",
        "venice@example.org",
        "master@example.org",
        "observer@example.org",
    ):
        text = texts[address]
        assert text.startswith("Retreat results for the spring of 1454.\n\nOrders:\n"), text
        assert "  Florence: A ARE - SIE: succeeds\n" in text, text
        assert "  Venice: A VER: no order, disbanded\n" in text, text
        assert "Florence: A FLO, A SIE, F PSA." in text  # the board after: the army in Siena
    # The books stay each power's own (and the masters'); the retreats are everyone's.
    assert (
        "Venice's books" not in texts["florence@example.org"]
        and "Florence's books" in texts["florence@example.org"]
    )
    assert (
        "Florence's books" not in texts["venice@example.org"]
        and "books" not in texts["observer@example.org"]
    )
    french = texts["milan@example.org"]
    assert "  Florence: A ARE - SIE: réussit\n" in french, french
    assert "  Venise: A VER: pas d'ordre, dissoute\n" in french, french


def test_a_retreat_to_a_place_not_offered_is_listed_as_invalid_and_the_unit_disbanded() -> None:
    _spring, retreat = retreats(("A ARE - FLO",))  # Florence's own army stands in Florence
    texts = results_for(retreat, BOARD, READERS)
    assert (
        "  Florence: A ARE - FLO: invalid (not a place it may retreat to)\n"
        in texts["observer@example.org"]
    )
    assert "pas un lieu où elle peut faire retraite" in texts["milan@example.org"]
    assert "A ARE" not in retreat.texts(BOARD, "en").public[-1] and all(
        u["loc"] != "ARE" or u["power"] != "FLORENCE" for u in retreat.position["units"]
    )
