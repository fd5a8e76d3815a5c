"""Issue 18: the notations of French postal and tournament play (seeds 000, 001, 002), as the reader reads them."""

from __future__ import annotations

import pytest

from judge.core.geography import GameMap
from judge.core.orders import Build, Convoy, Hold, Move, Remove, Retreat, SupportHold, SupportMove
from judge.core.phase import Phase, PhaseType
from judge.core.position import DislodgedUnit, Position
from judge.core.units import Unit, UnitRef, UnitType
from judge.core.variants import load_map
from judge.lang.board import settle_by_board, wrong_nationalities
from judge.lang.orders import OrderSyntaxError, ReadOrder, read_order, read_order_line
from judge.lang.preferences import Preference, choose

A = UnitType.ARMY
F = UnitType.FLEET


@pytest.fixture(scope="module")
def standard() -> GameMap:
    return load_map("standard")


def one(line: str, game_map: GameMap, **kwargs: object) -> ReadOrder:
    results = read_order_line(line, game_map, **kwargs)  # type: ignore[arg-type]
    assert len(results) == 1, results
    result = results[0]
    assert isinstance(result, ReadOrder), result
    return result


# ------------------------------------------------------------------ nationalities


def test_seed_000_support_names_the_nationality(standard: GameMap) -> None:
    """Seed 000, 3.4.1 Contenu: "France: A BOU S ALLEMAGNE A RUH - BEL"."""
    read = read_order("A BOU S ALLEMAGNE A RUH - BEL", standard, french=True)
    assert read.order == SupportMove(UnitRef(A, "BUR"), UnitRef(A, "RUH"), "BEL")
    assert read.nationalities == (("RUH", "GERMANY"),)


def test_seed_001_bracketed_support_with_nationality(standard: GameMap) -> None:
    """Seed 001, IX: "A Sil (S) Russie A War-Pru"."""
    read = read_order("A Sil (S) Russie A War-Pru", standard, french=True)
    assert read.order == SupportMove(UnitRef(A, "SIL"), UnitRef(A, "WAR"), "PRU")
    assert read.nationalities == (("WAR", "RUSSIA"),)


@pytest.mark.parametrize(
    "text",
    ["A BUR S GERMAN A RUH - BEL", "A BUR S german A RUH - BEL", "A BUR S Germany A RUH - BEL",
     "A BUR S A GERMAN RUH - BEL", "A BUR S ALLEMAND A RUH - BEL", "A BUR S allemande A RUH - BEL",
     "A BUR S Allem. A RUH - BEL"],
)  # fmt: skip
def test_english_and_french_nationalities_in_any_case(text: str, standard: GameMap) -> None:
    for french in (False, True):
        read = read_order(text, standard, french=french)
        assert read.order == SupportMove(UnitRef(A, "BUR"), UnitRef(A, "RUH"), "BEL")
        assert read.nationalities == (("RUH", "GERMANY"),)


def test_seed_000_nationality_after_the_unit_type(standard: GameMap) -> None:
    """Seed 000, 2.9.4 Exemple 3: "Russie A GAL S A AUTRICHE SER-BUD"."""
    read = read_order("A GAL S A AUTRICHE SER-BUD", standard, french=True)
    assert read.order == SupportMove(UnitRef(A, "GAL"), UnitRef(A, "SER"), "BUD")
    assert read.nationalities == (("SER", "AUSTRIA"),)


def test_seed_001_convoy_names_the_nationality(standard: GameMap) -> None:
    """Seed 001, XII: "FRANCE : F Nth (C) Angleterre Lon-Bel" and "F WMe (C) Angleterre A Lon-Tun"."""
    read = read_order("F Nth (C) Angleterre Lon-Bel", standard, french=True)
    assert read.order == Convoy(UnitRef(F, "NTH"), UnitRef(None, "LON"), "BEL")
    assert read.nationalities == (("LON", "ENGLAND"),)
    read = read_order("F WMe (C) Angleterre A Lon-Tun", standard, french=True)
    assert read.order == Convoy(UnitRef(F, "WES"), UnitRef(A, "LON"), "TUN")


def test_seed_000_abbreviated_nationality(standard: GameMap) -> None:
    """Seed 000, 2.12.2: "France : F MOR C ANG. A LON-TUN" (the nationality abbreviated)."""
    read = read_order("F WES C ANG. A LON-TUN", standard, french=True)
    assert read.order == Convoy(UnitRef(F, "WES"), UnitRef(A, "LON"), "TUN")
    assert read.nationalities == (("LON", "ENGLAND"),)


def test_seed_002_a_wrong_nationality_leaves_the_order_valid(standard: GameMap) -> None:
    """Seed 002, "Autres éléments sur la rédaction des soutiens": the order stays valid even
    when the nationality given is wrong; the judge says so."""
    position = Position(
        "standard", Phase.parse("S1901M"),
        (Unit("FRANCE", A, "BUR"), Unit("GERMANY", A, "RUH")), {},
    )  # fmt: skip
    wrong = read_order("A BUR S ITALIE A RUH - BEL", standard, french=True)
    assert wrong.order == SupportMove(UnitRef(A, "BUR"), UnitRef(A, "RUH"), "BEL")
    [problem] = wrong_nationalities(wrong, position)
    assert (problem.location, problem.written, problem.actual) == ("RUH", "ITALY", "GERMANY")
    right = read_order("A BUR S ALLEMAGNE A RUH - BEL", standard, french=True)
    assert wrong_nationalities(right, position) == ()


# ------------------------------------------------------------------ brackets


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A Bur (S) A Tyr-Mun", SupportMove(UnitRef(A, "BUR"), UnitRef(A, "TYR"), "MUN")),
        ("F Nth (C) Lon-Bel", Convoy(UnitRef(F, "NTH"), UnitRef(None, "LON"), "BEL")),
        ("Boh (S) A Mun (H)", SupportHold(UnitRef(None, "BOH"), UnitRef(A, "MUN"))),
        ("a Mun (H)", Hold(UnitRef(A, "MUN"))),
        ("F Eng (C) A Lon-Tun", Convoy(UnitRef(F, "ENG"), UnitRef(A, "LON"), "TUN")),
        ("A Ber (H)", Hold(UnitRef(A, "BER"))),
    ],
)
def test_seed_001_bracketed_keywords(text: str, expected: object, standard: GameMap) -> None:
    """Seed 001, IX and XII: "A Bur (S) A Tyr-Mun", "F Nth (C) Lon-Bel", "a Mun (H); Boh (S) A Mun (H)"."""
    position = Position(
        "standard", Phase.parse("S1901M"),
        (Unit("FRANCE", A, "BUR"), Unit("FRANCE", A, "TYR"), Unit("ENGLAND", F, "NTH"), Unit("ENGLAND", F, "ENG"),
         Unit("GERMANY", A, "MUN"), Unit("GERMANY", A, "BER"), Unit("AUSTRIA", A, "BOH")),
        {},
    )  # fmt: skip
    for french in (False, True):
        read = read_order(text, standard, french=french)
        # In French, TYR is first the Tyrrhenian Sea: the board settles it (no unit there).
        power = next(u.power for u in position.units if u.province == read.order.unit.province)  # type: ignore[union-attr]
        assert settle_by_board(read, position, power, standard)[0].order == expected


def test_bracketed_s_at_the_end_is_still_the_south_coast(standard: GameMap) -> None:
    assert read_order("F Spa (s) - Mao", standard).order == Move(UnitRef(F, "SPA/SC"), "MAO")
    assert read_order("F Mao - Spa (s)", standard).order == Move(UnitRef(F, "MAO"), "SPA/SC")
    assert read_order("F Bul (s) S A Rum - Bla", standard).order == SupportMove(UnitRef(F, "BUL/SC"), UnitRef(A, "RUM"), "BLA")
    assert read_order("F Spa (s) H", standard).order == Hold(UnitRef(F, "SPA/SC"))


# ------------------------------------------------------------------ removals and build lists


def test_seed_000_removal_with_origin_in_brackets(standard: GameMap) -> None:
    """Seed 000, 3.4.2: "retirer F(HOL)"."""
    read = read_order("retirer F(HOL)", standard, french=True, phase_type=PhaseType.ADJUSTMENT)
    assert read.order == Remove(UnitRef(F, "HOL"))
    assert read_order("REMOVE F (HOL)", standard, phase_type=PhaseType.ADJUSTMENT).order == Remove(UnitRef(F, "HOL"))


def test_seed_000_build_list(standard: GameMap) -> None:
    """Seed 000, 3.4.2: "construire F BRE, A PAR, A MAR" is one list, best first."""
    read = one("construire F BRE, A PAR, A MAR", standard, french=True, phase_type=PhaseType.ADJUSTMENT)
    # MAR is North Africa in the French table and Marseilles as a code: both are tried, French first.
    assert read.preferences == (Build(F, "BRE"), Build(A, "PAR"), Build(A, "NAF"), Build(A, "MAR"))
    assert read.text == "construire F BRE, A PAR, A MAR"


def test_separate_build_orders_stay_separate(standard: GameMap) -> None:
    results = read_order_line("BUILD A PAR, BUILD A MAR", standard, phase_type=PhaseType.ADJUSTMENT)
    assert [r.order for r in results if isinstance(r, ReadOrder)] == [Build(A, "PAR"), Build(A, "MAR")]


def test_build_list_takes_the_first_legal_builds_up_to_the_number_allowed(standard: GameMap) -> None:
    """Seed 000, 3.4.2: "il vaut mieux prévoir un maximum de construction"; the first legal ones count."""
    position = Position(
        "standard", Phase.parse("W1901A"), (Unit("FRANCE", A, "PAR"), Unit("FRANCE", A, "SPA")),
        {"FRANCE": frozenset({"PAR", "BRE", "MAR", "SPA", "POR"})},
    )  # fmt: skip
    read = one("construire A PAR, F BRE, A MAR, A PAR", standard, french=True, phase_type=PhaseType.ADJUSTMENT)
    choice = choose(position, "FRANCE", read.preferences, standard)
    # Three builds owed: PAR is occupied, NAF no home centre; BRE and MAR are taken.
    assert choice.taken == (Build(F, "BRE"), Build(A, "MAR"))
    assert [str(order) for order, _ in choice.passed] == ["BUILD A PAR", "BUILD A NAF"]
    one_build = Position(
        "standard", Phase.parse("W1901A"), (Unit("FRANCE", A, "PAR"), Unit("FRANCE", A, "SPA")),
        {"FRANCE": frozenset({"PAR", "BRE", "MAR"})},
    )  # fmt: skip
    choice = choose(one_build, "FRANCE", read.preferences, standard)
    assert choice.taken == (Build(F, "BRE"),)
    assert [why for _, why in choice.passed][-2:] == ["enough", "enough"]


# ------------------------------------------------------------------ retreat lists


def test_seed_000_retreat_list(standard: GameMap) -> None:
    """Seed 000, 3.4.2: "A VIE fait retraite à BUD, TRI, GAL, BOH, TYR"."""
    for text in ("A VIE fait retraite à BUD, TRI, GAL, BOH, TYR", "A VIE retraite BUD, TRI, GAL, BOH, TYR"):
        read = one(text, standard, french=True, phase_type=PhaseType.MOVEMENT)
        vie = UnitRef(A, "VIE")
        assert read.preferences[:4] == (Retreat(vie, "BUD"), Retreat(vie, "TRI"), Retreat(vie, "GAL"), Retreat(vie, "BOH"))
        assert set(read.preferences[4:]) == {Retreat(vie, "TYR"), Retreat(vie, "TYS")}
    english = one("A VIE retreat BUD, TRI, GAL, BOH, TYR", standard, phase_type=PhaseType.MOVEMENT)
    assert english.preferences[-2:] == (Retreat(UnitRef(A, "VIE"), "TYR"), Retreat(UnitRef(A, "VIE"), "TYS"))


def test_retreat_list_takes_the_first_legal_choice(standard: GameMap) -> None:
    position = Position(
        "standard", Phase.parse("F1901R"), (Unit("AUSTRIA", A, "BUD"), Unit("GERMANY", A, "TRI")), {},
        dislodged=(DislodgedUnit(Unit("AUSTRIA", A, "VIE"), "GAL"),),
    )  # fmt: skip
    read = one("A VIE retraite BUD, TRI, GAL, BOH, TYR", standard, french=True, phase_type=PhaseType.RETREAT)
    assert choose(position, "AUSTRIA", read.preferences, standard).taken == (Retreat(UnitRef(A, "VIE"), "BOH"),)


@pytest.mark.parametrize(
    ("text", "phase_type"),
    [("A VIE R BUD, TRI, GAL", PhaseType.RETREAT), ("BUILD F BRE, A PAR, A MAR", PhaseType.ADJUSTMENT),
     ("REMOVE F HOL, A MUN", PhaseType.ADJUSTMENT)],
)  # fmt: skip
def test_a_list_reads_back_from_its_text(text: str, phase_type: PhaseType, standard: GameMap) -> None:
    read = one(text, standard, phase_type=phase_type)
    assert str(Preference(read.preferences)).startswith(text)  # "A MAR" adds its other reading, "A NAF"
    assert one(str(Preference(read.preferences)), standard, phase_type=phase_type).preferences == read.preferences


# ------------------------------------------------------------------ shared names and holds


def test_shared_name_settled_by_the_board(standard: GameMap) -> None:
    """Issue 18: a French player's "A MAR - ESP" is the army in Marseilles, not "no unit in North Africa"."""
    position = Position("standard", Phase.parse("S1901M"), (Unit("FRANCE", A, "MAR"),), {})
    read = read_order("A MAR - ESP", standard, french=True)
    assert read.order == Move(UnitRef(A, "NAF"), "SPA")  # the language's reading
    settled, notes = settle_by_board(read, position, "FRANCE", standard)
    assert settled.order == Move(UnitRef(A, "MAR"), "SPA")
    assert [(n.written, n.province, n.instead) for n in notes] == [("MAR", "MAR", "NAF")]


def test_shared_name_settled_by_the_place_the_order_can_reach(standard: GameMap) -> None:
    """TYR: a fleet in the Gulf of Lyon can reach the Tyrrhenian Sea, not Tyrolia."""
    position = Position("standard", Phase.parse("S1901M"), (Unit("FRANCE", F, "LYO"),), {})
    read = read_order("F LYO - TYR", standard)
    assert read.order == Move(UnitRef(F, "LYO"), "TYR")
    settled, _ = settle_by_board(read, position, "FRANCE", standard)
    assert settled.order == Move(UnitRef(F, "LYO"), "TYS")


def test_the_language_decides_when_the_board_cannot(standard: GameMap) -> None:
    position = Position("standard", Phase.parse("S1901M"), (Unit("FRANCE", F, "MAR"), Unit("FRANCE", F, "NAF")), {})
    read = read_order("F MAR H", standard, french=True)
    assert settle_by_board(read, position, "FRANCE", standard)[0].order == Hold(UnitRef(F, "NAF"))
    read = read_order("F MAR H", standard)
    assert settle_by_board(read, position, "FRANCE", standard)[0].order == Hold(UnitRef(F, "MAR"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A Paris H", Hold(UnitRef(A, "PAR"))),
        ("A Paris T", Hold(UnitRef(A, "PAR"))),
        ("A Paris xxx", Hold(UnitRef(A, "PAR"))),
        ("F Constantinople S A Bulgarie xxx", SupportHold(UnitRef(F, "CON"), UnitRef(A, "BUL"))),
        ("A Bulgarie S F Constantinople T", SupportHold(UnitRef(A, "BUL"), UnitRef(F, "CON"))),
        ("A Ankara S A Smyrne H", SupportHold(UnitRef(A, "ANK"), UnitRef(A, "SMY"))),
        ("A Brest S A Paris", SupportHold(UnitRef(A, "BRE"), UnitRef(A, "PAR"))),
    ],
)
def test_seed_002_hold_notations(text: str, expected: object, standard: GameMap) -> None:
    """Seed 002, "Ordres légaux": "A Paris H, A Paris T ou A Paris xxx"; Survivor Turkey's
    "F Constantinople S A Bulgarie xxx"; "A Brest S A Paris"."""
    for french in (False, True):
        assert read_order(text, standard, french=french).order == expected


def test_a_t_that_does_not_end_the_order_is_still_a_convoy_in_english(standard: GameMap) -> None:
    assert read_order("F NTH T A LON - BEL", standard).order == Convoy(UnitRef(F, "NTH"), UnitRef(A, "LON"), "BEL")


def test_a_nationality_alone_is_no_unit(standard: GameMap) -> None:
    with pytest.raises(OrderSyntaxError):
        read_order("A BUR S ALLEMAGNE - BEL", standard, french=True)


def test_judge_parse_shows_nationalities_and_lists() -> None:
    """`judge parse` (judge.lang.serialize) says what the notation carried beside the order."""
    from judge.lang.mail import parse_mail
    from judge.lang.serialize import result_to_json

    data = result_to_json(parse_mail("SIGNON Fdemo pw\nA BOU S ALLEMAGNE A RUH - BEL\nA VIE retraite BUD, TRI\n", french=True))
    support, retreats = data["commands"][1], data["commands"][2]  # type: ignore[index]
    assert support["nationalities"] == [{"location": "RUH", "power": "GERMANY"}]  # type: ignore[index]
    assert retreats["preferences"] == ["A VIE R BUD", "A VIE R TRI"]  # type: ignore[index]
    assert "preferences" not in support and "nationalities" not in retreats  # type: ignore[operator]


def test_two_shared_names_in_one_order_are_settled_together(standard: GameMap) -> None:
    """French "F MAR S A TYR - PIE": North Africa and the Tyrrhenian Sea by the table; the board
    (a fleet in Marseilles, an army in Tyrolia) makes both Marseilles and Tyrolia."""
    position = Position("standard", Phase.parse("S1901M"), (Unit("FRANCE", F, "MAR"), Unit("FRANCE", A, "TYR")), {})
    read = read_order("F MAR S A TYR - PIE", standard, french=True)
    assert read.order == SupportMove(UnitRef(F, "NAF"), UnitRef(A, "TYS"), "PIE")
    settled, notes = settle_by_board(read, position, "FRANCE", standard)
    assert settled.order == SupportMove(UnitRef(F, "MAR"), UnitRef(A, "TYR"), "PIE")
    assert sorted((n.written, n.province, n.instead) for n in notes) == [("MAR", "MAR", "NAF"), ("TYR", "TYR", "TYS")]
