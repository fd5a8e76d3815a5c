"""Errors in the reader's language: the mail reader's and the core's, by mail and one by one.

A French player reads every problem of their mail in French, provinces and
powers included ("Paris et Moscou ne sont pas adjacents."); an English
player reads exactly what the judge always wrote. Beyond the mails, every
error of the golden corpus and of a sweep of illegal orders must carry a
message whose English rendering is the error's own text (so the template can
never drift from the English contract of ``judge parse``) and whose French
rendering is complete.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from judge.app.game_state.boards import opening_position
from judge.app.session.error_text import error_text
from judge.core.adjudicator import validate
from judge.core.errors import (
    N_,
    Message,
    NotAdjacentError,
    OrderError,
    PhaseError,
    Place,
    PowerName,
)
from judge.core.orders import Build, Convoy, Hold, Move, Order, SupportHold, SupportMove
from judge.core.phase import Phase
from judge.core.position import Position
from judge.core.units import Unit, UnitRef, UnitType
from judge.core.variants import load_map
from judge.lang.errors import CommandError, MailError
from judge.lang.mail import parse_mail
from judge.lang.orders import OrderSyntaxError
from tests.app.conftest import Harness
from tests.app.orders_helpers import address, plain, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

CORPUS = Path(__file__).resolve().parents[1] / "data" / "mail"
STANDARD = load_map("standard")


# ---------------------------------------------------------------- by mail


def test_a_french_player_reads_illegal_orders_in_french_with_french_names(harness: Harness) -> None:
    game = start_game(harness, languages={"FRANCE": "fr"})
    before = game.state()
    body = game.orders_text(
        "FRANCE",
        "A PAR - MOS\nA MUN - RUH\nF BRE S A MUN - RUH\nA PAR - ENG\nF BRE - PAR\nF NTH H\n",
    )
    assert "> A PAR - MOS\nA PAR - MOS: Paris et Moscou ne sont pas adjacents.\n" in body
    assert "> A MUN - RUH\nA MUN - RUH: L'unité de Munich n'est pas la vôtre (puissance : Allemagne).\n" in body
    assert (
        "> F BRE S A MUN - RUH\nF BRE S A MUN - RUH: La flotte de Brest ne peut pas soutenir un mouvement "
        "vers Ruhr : elle ne pourrait pas s'y rendre elle-même.\n"
    ) in body
    assert "A PAR - ENG: Une armée ne peut pas aller à Manche : c'est une province maritime.\n" in body
    assert "F BRE - PAR: Une flotte ne peut pas aller à Paris : cette province n'a pas de côte.\n" in body
    assert "F NTH H: Il n'y a aucune unité à mer du Nord.\n" in body
    for english in ("not adjacent", "belongs to", "cannot support", "sea province", "There is no unit"):
        assert english not in body
    assert "France: Armée Paris, aucun ordre traité." in body
    assert game.state() == before


def test_a_french_player_reads_the_mail_readers_errors_in_french(harness: Harness) -> None:
    game = start_game(harness, languages={"FRANCE": "fr"})
    before = game.state()
    body = game.orders_text("FRANCE", "A PAR - XYZ\nF BRE - Pqr\nA PAR S\nF BRE\nSET FOO\n")
    assert "> A PAR - XYZ\nProvince de destination inconnue -> XYZ\n" in body
    assert "> F BRE - Pqr\nProvince de destination inconnue -> Pqr (vouliez-vous dire PAR ou POR ou PRU ?)\n" in body
    assert "> A PAR S\nProvince manquante après 'S'\n" in body
    assert "> F BRE\nAucun ordre donné pour F BRE\n" in body
    assert "> SET FOO\nOption SET inconnue -> FOO\n" in body
    assert "Unrecognized" not in body and "Missing" not in body and "Unknown" not in body
    assert game.state() == before


def test_errors_before_the_signon_are_in_the_senders_language(harness: Harness) -> None:
    start_game(harness, languages={"FRANCE": "fr"})
    body = plain(harness.exchange(address("FRANCE"), "bonjour\nSIGNON Fdemo\n"))
    assert "> bonjour\nCommande inconnue -> bonjour\n" in body
    assert "> SIGNON Fdemo\nSIGNON Fdemo : le mot de passe manque.\n" in body


def test_an_english_player_reads_the_same_errors_as_before(harness: Harness) -> None:
    game = start_game(harness, languages={"FRANCE": "fr"})
    before = game.state()
    body = game.orders_text("ENGLAND", "A LVP - MOS\nF LON S A PAR - BUR\nA LVP - XYZ\nF EDI - Nrth\n")
    assert "> A LVP - MOS\nA LVP - MOS: Liverpool is not adjacent to Moscow.\n" in body
    assert (
        "> F LON S A PAR - BUR\nF LON S A PAR - BUR: The fleet in London cannot support a move to "
        "Burgundy: it could not move there itself.\n"
    ) in body
    assert "> A LVP - XYZ\nUnrecognized destination province -> XYZ\n" in body
    assert "> F EDI - Nrth\nUnrecognized destination province -> Nrth (did you mean NTH" in body
    assert "England: Army Liverpool, No Order Processed." in body
    assert game.state() == before


# ---------------------------------------------------------------- one error at a time


def test_core_errors_name_places_and_powers_in_the_readers_language() -> None:
    error = NotAdjacentError(Place("STP/NC", "St Petersburg (north coast)"), Place("LON", "London"))
    assert str(error) == "St Petersburg (north coast) is not adjacent to London."
    assert error.source == "St Petersburg (north coast)"  # the attributes keep the English names
    assert error_text(error, "en") == "St Petersburg (north coast) is not adjacent to London."
    assert error_text(error, "fr") == "Saint-Pétersbourg (côte nord) et Londres ne sont pas adjacents."
    owned = OrderError(Message(N_("The unit in {location} belongs to {owner}, not to you."),
                               location=Place("KIE", "Kiel"), owner=PowerName("GERMANY", "Germany")))
    assert error_text(owned, "fr") == "L'unité de Kiel n'est pas la vôtre (puissance : Allemagne)."


def test_a_place_the_map_does_not_know_keeps_its_name() -> None:
    error = NotAdjacentError(Place("XYZ", "Xyz"), Place("PAR", "Paris"))
    assert error_text(error, "fr") == "Xyz et Paris ne sont pas adjacents."


def test_errors_without_a_template_stay_in_english() -> None:
    assert error_text(PhaseError("cannot read phase 'X'"), "fr") == "cannot read phase 'X'"
    assert error_text(CommandError("plain words", 3), "fr") == "plain words"
    assert error_text(MailError(1, 1, "x", "plain words"), "fr") == "plain words"
    assert error_text(OrderSyntaxError("Empty order", 1, ""), "fr") == "Empty order"


def test_an_unknown_language_reads_english() -> None:
    error = NotAdjacentError(Place("PAR", "Paris"), Place("MOS", "Moscow"))
    assert error_text(error, "de") == "Paris is not adjacent to Moscow."


def test_a_shifted_order_error_keeps_its_translation() -> None:
    error = OrderSyntaxError(Message(N_("Incomplete order")), 4, "").shifted(10)
    assert (error.column, error.message, error_text(error, "fr")) == (14, "Incomplete order", "Ordre incomplet")


# ---------------------------------------------------------------- every error


def _corpus_errors() -> list[MailError]:
    errors: list[MailError] = []
    for mail in sorted(CORPUS.glob("*.txt")):
        result = parse_mail(mail.read_bytes().decode("utf-8"), french=mail.name.startswith("fr_"))
        errors += result.errors
    return errors


def test_every_error_of_the_golden_corpus_is_translated_and_its_english_is_unchanged() -> None:
    errors = _corpus_errors()
    assert len(errors) >= 40
    for error in errors:
        assert error.translatable is not None, error.message
        assert error_text(error, "en") == error.message
        french = error_text(error, "fr")
        assert french != error.message, error.message
        assert "{" not in french and "}" not in french, french


def _illegal_orders() -> list[tuple[Position, str, Order]]:
    """Orders from every power for every unit of the opening board, to every province, and builds in winter."""
    opening = opening_position(STANDARD)
    provinces = sorted(STANDARD.provinces)
    cases: list[tuple[Position, str, Order]] = []
    for power in STANDARD.powers:
        for unit in opening.units:
            ref = UnitRef(unit.type, unit.location)
            cases.append((opening, power, Hold(ref)))
            for province in provinces:
                cases.append((opening, power, Move(ref, province)))
                cases.append((opening, power, SupportHold(ref, UnitRef(None, province))))
                cases.append((opening, power, SupportMove(ref, UnitRef(UnitType.ARMY, "PAR"), province)))
                cases.append((opening, power, Convoy(ref, UnitRef(UnitType.ARMY, "LVP"), province)))
    winter = replace(opening, phase=Phase.parse("W1901A"))
    short = replace(winter, units=tuple(u for u in opening.units if u.location != "PAR"))
    for position in (winter, short):
        for province in ("PAR", "MUN", "BRE", "MAR", "STP", "NTH", "BUR"):
            for unit_type in UnitType:
                cases.append((position, "FRANCE", Build(unit_type, province)))
    russia = replace(short, units=(*short.units, Unit("RUSSIA", UnitType.ARMY, "MOS")),
                     centers={**short.centers, "RUSSIA": frozenset({"MOS", "STP", "SEV", "WAR", "PAR"})})
    cases.append((russia, "RUSSIA", Build(UnitType.FLEET, "STP")))
    return cases


def test_every_illegal_order_on_the_board_is_explained_in_both_languages() -> None:
    kinds: set[str] = set()
    for position, power, order in _illegal_orders():
        error = validate(position, power, order, STANDARD)
        if error is None:
            continue
        kinds.add(type(error).__name__)
        assert error.translatable is not None, str(error)
        assert error_text(error, "en", STANDARD) == str(error)
        french = error_text(error, "fr", STANDARD)
        assert french != str(error), str(error)
        assert "{" not in french, french
    assert len(kinds) >= 8, kinds


@pytest.mark.parametrize(
    ("order", "french"),
    [
        ("A PAR S A PAR", "Une unité ne peut pas se soutenir elle-même."),
        ("F BRE C A PAR - LON", "Seule une flotte en mer peut convoyer ; Brest n'est pas une mer."),
        ("A PAR - PAR", "Une unité ne peut pas se déplacer vers la province où elle se trouve."),
        ("A PAR S A MAR - MAR", "L'armée de Marseille s'y trouve déjà."),
    ],
)
def test_french_texts_of_some_illegal_orders(order: str, french: str) -> None:
    from judge.lang.orders import read_order

    read = read_order(order, STANDARD)
    error = validate(opening_position(STANDARD), "FRANCE", read.order, STANDARD)
    assert error is not None
    assert error_text(error, "fr", STANDARD) == french


# ---------------------------------------------------------------- results


def _results_lines(position: Position, orders: dict[str, list[Order]], language: str, **rules: str) -> list[str]:
    from judge.app.reports.results import ResultsReport, render_results
    from judge.core.adjudicator import Rules, adjudicate
    from judge.i18n import translation

    result = adjudicate(position, orders, Rules.from_mapping(rules), STANDARD)
    text = render_results(ResultsReport("demo", 1, position, result), STANDARD, language, translation(language).gettext)
    return text.splitlines()


def test_the_engines_reason_for_a_unit_whose_order_was_invalid_is_translated() -> None:
    opening = opening_position(STANDARD)
    orders: dict[str, list[Order]] = {"FRANCE": [Move(UnitRef(UnitType.ARMY, "MAR"), "MUN")]}
    english = _results_lines(opening, orders, "en")
    assert "France:  Army Marseilles, No Order Processed.  (*holds (invalid order)*)" in english
    french = _results_lines(opening, orders, "fr")
    assert "France:     Armée Marseille, aucun ordre traité.  (*tient (ordre invalide)*)" in french


def test_a_retreat_chosen_for_a_player_is_told_in_the_readers_language() -> None:
    from judge.core.position import DislodgedUnit

    position = replace(
        opening_position(STANDARD),
        phase=Phase.parse("S1901R"),
        dislodged=(DislodgedUnit(Unit("ENGLAND", UnitType.FLEET, "NTH"), "HEL"),),
    )
    english = _results_lines(position, {}, "en", missing_retreats="seed000")
    assert any(line.endswith("(*retreated to Yorkshire by the game master*)") for line in english), english
    french = _results_lines(position, {}, "fr", missing_retreats="seed000")
    assert any(
        line.startswith("Angleterre: Flotte mer du Nord")
        and line.endswith("(*retraite vers Yorkshire décidée par le maître de la partie*)")
        for line in french
    ), french
