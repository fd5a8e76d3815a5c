"""A Renaissance game's master's options by mail (issue 33): SET [NO] MONEY, SUMMER, MACH2... and the
rules' named sets (SET MACHIAVELLI FIRST|SECOND|BASIC).

Who may set them (the game's master, before the start; not a player, an observer or a stranger,
and nobody once the game is under way), what each reply and announcement tells, how LIST and the
Game Starting mail show them, and that they reach the core: a game without summer goes from
spring to fall, a game without money keeps its units without paying for them, and under the
second edition's rule a move takes control of a province only after the fall.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from judge.app.game_state.boards import from_json
from judge.app.hooks.game_hooks import hooks_for
from judge.app.machiavelli.game_options import (
    FIELD_OF_FLAG,
    changed_words,
    game_options,
    option_words,
)
from judge.cli import main
from judge.core.machiavelli.option_sets import named_set, played_names
from judge.core.machiavelli.options import FIRST_EDITION
from tests.app.conftest import Harness
from tests.app.games_helpers import register
from tests.app.masters_helpers import MASTER, MASTER_PASSWORD, read, state_of
from tests.app.reports_helpers import start_game
from tests.app.test_machiavelli_mail import BOARD, PLAYERS, exchange_ok, process, seats

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

OBSERVER = "watcher@example.org"
STRANGER = "stranger@example.org"


def as_master(harness: Harness, lines: str) -> tuple[bool, str]:
    """(refused, the reply) for the master's mail to game ``mach``."""
    reply = harness.exchange(MASTER, f"SIGNON Mmach {MASTER_PASSWORD}\n{lines}")
    return "[Error Flag]" in reply["Subject"], read(reply)


def created(harness: Harness, *lines: str) -> str:
    """Game ``mach`` created by its master with ``lines`` (SET...) in the same mail; the reply."""
    register(harness, MASTER)
    return exchange_ok(
        harness, MASTER, "\n".join([f"CREATE ?mach {MASTER_PASSWORD} machiavelli", "BECOME MASTER",
                                    "SET MANUAL PROCESS", *lines]) + "\n",
    )  # fmt: skip


def filled(harness: Harness) -> None:
    """Eight players join ``mach``: it starts (W1453A open)."""
    for address in PLAYERS:
        register(harness, address)
    for n, address in enumerate(PLAYERS):
        exchange_ok(harness, address, f"SIGNON ?mach pw{n} machiavelli\n")
    assert state_of(harness, "mach").columns["current_phase"] == "W1453A"


def options_of(harness: Harness) -> Any:
    with harness.db.unit_of_work(readonly=True) as uow:
        return game_options(uow.games.require("mach"))


def kept_position(harness: Harness) -> dict[str, Any]:
    """The open phase's position as the judge keeps it (the core's JSON)."""
    with harness.db.unit_of_work(readonly=True) as uow:
        record = uow.phases.current(uow.games.require("mach"))
        assert record is not None
        return dict(record.position_before)


def lines_saying(text: str, words: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if words in line]


# ------------------------------------------------------------------ who may set them, and what is told


def test_the_master_sets_an_option_before_the_start_and_everyone_is_told(harness: Harness) -> None:
    reply = created(harness, "SET NO SUMMER")
    assert "Machiavelli options: NoSummer (was Summer)." in reply
    assert options_of(harness) == replace(FIRST_EDITION, summer=False)
    register(harness, PLAYERS[0])
    exchange_ok(harness, PLAYERS[0], "SIGNON ?mach pw0 machiavelli\n")
    harness.new_mail()
    refused, reply = as_master(harness, "SET NO MONEY\n")
    assert not refused and "Machiavelli options: NoMoney (was Money)." in reply
    announced = [read(m) for m in harness.others if "Parameter Change" in str(m["Subject"])]
    assert len(announced) == 1 and str(harness.others[0]["To"]) == PLAYERS[0]
    assert "Machiavelli options: Money -> NoMoney" in " ".join(announced[0].split())
    # then the parameter block, with the whole set
    whole = ", ".join(option_words(replace(FIRST_EDITION, summer=False, money=False)))
    assert lines_saying(announced[0], "Machiavelli options: No") == [f"Machiavelli options: {whole}."]
    assert whole.startswith("NoMach2, NoMoney, Loans, Dice, ") and "Garrisons, NoFortresses, Adjacency, NoSummer" in whole


def test_only_the_master_sets_them_a_player_an_observer_and_a_stranger_are_refused(harness: Harness) -> None:
    created(harness)
    register(harness, PLAYERS[0])
    register(harness, OBSERVER)
    register(harness, STRANGER)
    reply = harness.exchange(PLAYERS[0], "SIGNON ?mach pw0 machiavelli\nSET NO MONEY\n")
    assert "[Error Flag]" in reply["Subject"]
    assert "Only a master of game 'mach' sets its Machiavelli options (SET NO MONEY)" in read(reply)
    reply = harness.exchange(OBSERVER, "OBSERVE mach watchpw\nSET MACHIAVELLI BASIC\n")
    assert "Only a master of game 'mach' sets its Machiavelli options (SET MACHIAVELLI BASIC)" in read(reply)
    reply = harness.exchange(STRANGER, "SET NO SUMMER\n")
    assert "SET NO SUMMER needs a SIGNON to a game first." in read(reply)
    assert options_of(harness) == FIRST_EDITION  # nothing changed


def test_once_the_game_has_started_nobody_changes_them_and_the_reply_says_why(harness: Harness) -> None:
    created(harness, "SET MACH2")
    filled(harness)
    refused, reply = as_master(harness, "SET NO MACH2\nSET MACHIAVELLI FIRST\n")
    assert refused
    assert ("The Machiavelli options of game 'mach' are set before it starts (SET NO MACH2): its treasuries, "
            "its control of provinces and its years are played under the options it started with.") in " ".join(
        reply.split()
    )  # fmt: skip
    assert "(SET MACHIAVELLI FIRST)" in reply
    assert options_of(harness).mach2 is True


def test_in_a_game_of_another_variant_they_are_refused_as_machiavelli_options(harness: Harness) -> None:
    start_game(harness, "std")
    for line in ("SET MONEY", "SET NO SUMMER", "SET DISBAND", "SET MACHIAVELLI SECOND"):
        reply = harness.exchange(MASTER, f"SIGNON Mstd masterpw\n{line}\n")
        assert "[Error Flag]" in reply["Subject"], line
        assert (f"{line} is an option of Machiavelli games; game 'std' plays the Standard variant."
                in " ".join(read(reply).split())), read(reply)  # fmt: skip


@pytest.mark.parametrize("flag", sorted(FIELD_OF_FLAG))
def test_each_flag_of_the_family_is_set_or_refused_as_not_yet_played(harness: Harness, flag: str) -> None:
    created(harness)
    field = FIELD_OF_FLAG[flag]
    first = getattr(FIRST_EDITION, field, None)
    asked = not first if first is not None else True
    refused, reply = as_master(harness, f"SET {'' if asked else 'NO '}{flag}\n")
    if field in played_names():
        assert not refused, reply
        assert getattr(options_of(harness), field) is asked
        assert "Machiavelli options:" in reply and "(was " in reply
    else:
        assert refused
        assert f"{flag} is a Machiavelli option this judge does not play yet" in reply
        assert options_of(harness) == FIRST_EDITION


def test_no_dice_switches_the_loans_off_and_loans_bring_the_dice_back(harness: Harness) -> None:
    created(harness)
    _refused, reply = as_master(harness, "SET NO DICE\n")
    # the first edition's famine and assassinations go with the dice, as the loans do
    assert "Machiavelli options: NoLoans, NoDice, NoFamine, NoAssassinations (was Loans, Dice, Famine, Assassinations)." in reply
    assert (options_of(harness).dice, options_of(harness).loans) == (False, False)
    _refused, reply = as_master(harness, "SET LOANS\n")
    assert "Machiavelli options: Loans, Dice (was NoLoans, NoDice)." in reply
    assert (options_of(harness).dice, options_of(harness).loans) == (True, True)


# ------------------------------------------------------------------ the named sets, LIST and the start mail


@pytest.mark.parametrize(("words", "name", "shown"), [
    ("SECOND", "SECOND", "the second edition's"),
    ("BASIC", "BASIC", "the basic game's"),
    ("FIRST EDITION", "FIRST", "the first edition's"),
])  # fmt: skip
def test_a_named_set_sets_the_rules_options_and_list_names_it(
    harness: Harness, words: str, name: str, shown: str
) -> None:
    created(harness, "SET NO SUMMER")
    refused, reply = as_master(harness, f"SET MACHIAVELLI {words}\n")
    assert not refused, reply
    assert options_of(harness) == named_set(name)
    listing = exchange_ok(harness, STRANGER, "LIST mach\n")
    assert lines_saying(listing, "Machiavelli options")[0].startswith(f"Machiavelli options ({shown}): ")


def test_the_second_and_the_basic_sets_are_the_rules_defaults() -> None:
    assert named_set("FIRST") == FIRST_EDITION  # the core's defaults are the first edition's set
    second, basic = named_set("SECOND"), named_set("BASIC")
    assert second.mach2 and not FIRST_EDITION.mach2
    assert (basic.money, basic.loans, basic.dice, basic.adjacency, basic.disband) == (False, False, False, False, True)
    assert basic.summer and basic.garrisons and second.summer and second.garrisons


def test_list_and_the_game_starting_mail_show_the_options_in_english_and_french(harness: Harness) -> None:
    created(harness, "SET NO SUMMER", "SET FORTRESSES")
    register(harness, STRANGER, language="fr")
    listing = exchange_ok(harness, MASTER, "LIST mach\n")
    expected = ", ".join(option_words(replace(FIRST_EDITION, summer=False, fortresses=True)))
    assert expected.startswith("NoMach2, Money, Loans, Dice, ") and "Garrisons, Fortresses, Adjacency, NoSummer" in expected
    assert f"Machiavelli options: {expected}." in " ".join(listing.split())
    french = exchange_ok(harness, STRANGER, "LIST mach\n")
    assert f"Options de Machiavelli : {expected}." in " ".join(french.split())
    harness.new_mail()
    filled(harness)
    starting = [read(m) for m in harness.others if "Game Starting" in str(m["Subject"])]
    assert starting and all(f"Machiavelli options: {expected}." in " ".join(t.split()) for t in starting)


def test_the_changed_options_follow_the_variant_where_a_plain_games_options_do(harness: Harness, capsys: Any) -> None:
    # A plain game shows its options beside its variant ("Variant: Standard Gunboat"); a Renaissance
    # game shows there what its master changed from the first edition, to whoever the place is for.
    created(harness, "SET NO DICE", "SET NO SUMMER")
    register(harness, PLAYERS[0])
    register(harness, STRANGER)
    joined = harness.exchange(PLAYERS[0], "SIGNON ?mach pw0 machiavelli\n")  # a player, signed on
    changed = "NoLoans NoDice NoFamine NoAssassinations NoSummer"  # SET NO DICE takes the others away
    assert f":: Judge: XPY  Game: mach  Variant: Machiavelli {changed}\n" in read(joined)
    _refused, master = as_master(harness, "LIST mach\n")
    assert f":: Judge: XPY  Game: mach  Variant: Machiavelli {changed}\n" in master
    assert f"Variant and options: Machiavelli: the Balance of Power, 1454 {changed}." in " ".join(master.split())
    stranger = exchange_ok(harness, STRANGER, "LIST mach\n")  # LIST is public: the options too
    assert f"Variant and options: Machiavelli: the Balance of Power, 1454 {changed}." in " ".join(stranger.split())
    assert "Game: mach" not in stranger  # the header names a game only to the signed on
    capsys.readouterr()
    assert main(["game", "--url", harness.db.url, "show", "mach"]) == 0
    console = capsys.readouterr().out
    assert console.startswith(f"game mach: forming, machiavelli {changed}, phase -\n"), console
    assert f"  Variant and options: Machiavelli: the Balance of Power, 1454 {changed}.\n" in console
    assert "  Machiavelli options: NoMach2, Money, NoLoans, NoDice," in console
    # A first-edition game names nothing beside its variant; a named set, what it changes.
    assert changed_words(FIRST_EDITION) == [] and changed_words(named_set("SECOND")) == ["Mach2", "NoCoastalConvoys"]


# ------------------------------------------------------------------ the options reach the core


def test_without_summer_the_spring_campaign_is_followed_by_the_fall(harness: Harness) -> None:
    created(harness, "SET NO SUMMER")
    filled(harness)
    process(harness)
    assert state_of(harness, "mach").columns["current_phase"] == "S1454M"
    spring = process(harness)
    assert state_of(harness, "mach").columns["current_phase"] == "F1454M"
    assert all("Next phase: F1454M." in mail for mail in spring.values())


def test_without_money_the_basic_adjustments_keep_the_units_without_books(harness: Harness) -> None:
    created(harness, "SET NO MONEY")
    filled(harness)
    opening = kept_position(harness)
    assert "treasuries" not in opening or not opening["treasuries"]
    winter = process(harness)  # nobody orders: the basic game keeps what each may keep
    assert not any("Treasury:" in mail or "books (private)" in mail for mail in winter.values())
    after = kept_position(harness)
    assert after["phase"] == "S1454M"
    assert sorted(map(str, after["units"])) == sorted(map(str, opening["units"]))


def test_with_money_the_same_winter_without_maintain_orders_loses_the_units(harness: Harness) -> None:
    created(harness)
    filled(harness)
    opening = kept_position(harness)
    process(harness)
    after = kept_position(harness)
    assert len(after["units"]) < len(opening["units"])  # the advanced game keeps only what is paid for


@pytest.mark.parametrize(("lines", "controlled_after_spring"), [((), True), (("SET MACH2",), False)])
def test_the_second_edition_gives_control_of_a_province_only_after_the_fall(
    harness: Harness, lines: tuple[str, ...], controlled_after_spring: bool
) -> None:
    created(harness, "SET NO MONEY", *lines)
    filled(harness)
    process(harness)  # W1453A
    papacy = seats(harness)["PAPACY"]
    exchange_ok(harness, papacy, f"SIGNON Pmach pw{PLAYERS.index(papacy)}\nA RME - TIV\n")
    process(harness)  # S1454M: the army stands in Tivoli
    after_spring = kept_position(harness)
    assert any(u == {"power": "PAPACY", "type": "A", "loc": "TIV"} for u in after_spring["units"])
    assert (after_spring["control"]["provinces"].get("TIV") == "PAPACY") is controlled_after_spring
    process(harness)  # U1454M
    process(harness)  # F1454M: after the fall, Tivoli is the Pope's under either rule
    assert kept_position(harness)["control"]["provinces"].get("TIV") == "PAPACY"
    assert BOARD.game_map.is_province("TIV")


# ------------------------------------------------------------------ the docs say what the judge does

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _flat(page: str) -> str:
    """The page with its line breaks and quote marks folded, so a quoted reply reads on one line."""
    return " ".join(line.lstrip("> ").strip() for line in (DOCS / page).read_text(encoding="utf-8").splitlines())


def test_the_masters_guides_quote_the_judge_s_own_replies(harness: Harness) -> None:
    created(harness)
    english = " ".join(as_master(harness, "SET NO SUMMER\n")[1].split())
    assert "Machiavelli options: NoSummer (was Summer)." in english
    assert "Machiavelli options: NoSummer (was Summer)." in _flat("master-guide.md")
    refused_now = (
        "The Machiavelli options of game 'mach' are set before it starts (SET MONEY): its treasuries, "
        "its control of provinces and its years are played under the options it started with."
    )
    assert refused_now in _flat("master-guide.md")
    french_reply = (
        "Options de Machiavelli : NoSummer (auparavant Summer).",
        "Les options de Machiavelli de la partie 'mach' se fixent avant son début (SET MONEY) : ses trésors, "
        "le contrôle de ses provinces et ses années se jouent avec les options de son départ.",
    )
    for quoted in french_reply:
        assert quoted in _flat("fr/guide-maitre.md")
    as_master(harness, "SET SUMMER\n")
    in_french = f"SET LANGUAGE fr\nSIGNON Mmach {MASTER_PASSWORD}\n"
    assert french_reply[0] in " ".join(read(harness.exchange(MASTER, in_french + "SET NO SUMMER\n")).split())
    filled(harness)
    assert french_reply[1] in " ".join(read(harness.exchange(MASTER, in_french + "SET MONEY\n")).split())
    in_english = f"SET LANGUAGE en\nSIGNON Mmach {MASTER_PASSWORD}\n"
    assert refused_now in " ".join(read(harness.exchange(MASTER, in_english + "SET MONEY\n")).split())
    second = "Machiavelli options (the second edition's): Mach2, Money, Loans, "
    assert second in _flat("master-guide.md")
    assert "Options de Machiavelli (celles de la seconde édition) : Mach2, Money, Loans, " in _flat("fr/guide-maitre.md")
    assert ", ".join(option_words(named_set("SECOND"))).startswith("Mach2, Money, Loans, ")


def test_unsupported_md_names_exactly_the_options_not_played_yet() -> None:
    rows = [line for line in (DOCS / "unsupported.md").read_text(encoding="utf-8").splitlines()
            if "Machiavelli options" in line and line.startswith("|")]  # fmt: skip
    named = {name for row in rows for name in re.findall(r"`SET ([A-Z ]+)`", row.split("|")[1])}
    unplayed = {flag for flag, field in FIELD_OF_FLAG.items() if field not in played_names()}
    assert named == unplayed


@pytest.mark.parametrize(("lines", "owes_maintains"), [((), True), (("SET NO MONEY",), False)])
def test_what_a_power_still_owes_follows_the_game_s_options(
    harness: Harness, lines: tuple[str, ...], owes_maintains: bool
) -> None:
    """With money every unit owes a MAINTAIN in the adjustments; without, nothing is owed where
    nothing is to be built or removed (the phase's clock and the processing ask this)."""
    created(harness, *lines)
    filled(harness)
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("mach")
        record = uow.phases.current(game)
        assert record is not None
        kept = dict(record.position_before)
        owed = hooks_for(game).orders_completeness(
            game, from_json(kept), kept, "FLORENCE", None, lambda: (), BOARD.game_map
        )
    assert (len(owed.unordered) > 0) is owes_maintains
    assert owed.complete is not owes_maintains


def test_without_dice_every_variable_income_roll_is_the_rules_fixed_one(harness: Harness) -> None:
    """SET NO DICE: the variable income's dice read 4 in an odd year (1453), in every power's books."""
    created(harness, "SET NO DICE")
    filled(harness)
    winter = process(harness)
    rolls = re.findall(r"from the dice \[([0-9, ]*)\]", winter[MASTER])
    assert len(rolls) == len(BOARD.game_map.powers)
    assert {int(n) for found in rolls for n in found.split(",") if n.strip()} == {4}
