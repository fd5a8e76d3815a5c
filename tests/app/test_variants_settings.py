"""SET options that exist only for some variants (RAILWAYS, HONG KONG, GATEWAYS) and SET NEUTRALS, by mail.

Who may: the moderator (here the master), before the start. What is
revealed: the reply names the rule and, when refused, why.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from judge.app.game_state.variant_rules import game_map_of
from judge.core.geography import GameMap
from judge.core.special_rules import NEUTRAL
from judge.core.variants import available_variants, register_map, unregister_map
from tests.app.conftest import Harness
from tests.app.games_helpers import player, register
from tests.app.masters_helpers import MASTER, MASTER_PASSWORD, phase_rows, read
from tests.core.tiny_variant import tiny_map

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

RAILWAY = {"name": "railway", "power": "NORTH", "provinces": ["AAA", "BBB", "CCC", "DDD", "EEE"]}
HONG_KONG = {"name": "hong_kong", "province": "HHH", "not_for": "SOUTH"}
SUEZ = {"name": "suez_canal", "province": "KKK", "seas": ["WWW"]}


@pytest.fixture(autouse=True)
def variants() -> Iterator[None]:
    register_map(tiny_map(special_rules=[RAILWAY, HONG_KONG, SUEZ]))
    register_map(tiny_map(name="plainland"))
    yield
    unregister_map("tinyland")
    unregister_map("plainland")


def create(harness: Harness, variant: str, name: str = "vr") -> None:
    register(harness, MASTER)
    reply = harness.exchange(MASTER, f"CREATE ?{name} {MASTER_PASSWORD} {variant}\nBECOME MASTER\n")
    assert "[Error Flag]" not in reply["Subject"], read(reply)


def as_master(harness: Harness, body: str, name: str = "vr") -> str:
    return read(harness.exchange(MASTER, f"SIGNON M{name} {MASTER_PASSWORD}\n{body}"))


def stored_game_map(harness: Harness, name: str = "vr") -> GameMap:
    with harness.db.unit_of_work(readonly=True) as uow:
        return game_map_of(uow.games.require(name))


def test_railways_and_hong_kong_switch_where_the_variant_has_them(harness: Harness) -> None:
    create(harness, "tinyland")
    answer = as_master(harness, "SET RAILWAYS\n")
    assert "Railways: already Railways." in answer
    answer = as_master(harness, "SET NO RAILWAYS\nSET NO HONG KONG\n")
    assert "Railways: NoRailways (was Railways)." in answer
    assert "Hong Kong: NoHongKong (was HongKong)." in answer
    game_map = stored_game_map(harness)
    assert game_map.special.railway is None and game_map.special.hong_kong is None
    assert game_map.special.suez_canal is not None
    answer = as_master(harness, "SET RAILWAYS\n")
    assert "Railways: Railways (was NoRailways)." in answer
    assert stored_game_map(harness).special.railway is not None


def test_the_canal_is_part_of_the_map(harness: Harness) -> None:
    create(harness, "tinyland")
    assert "Gateways: already Gateways." in as_master(harness, "SET GATEWAYS\n")
    answer = as_master(harness, "SET NO GATEWAYS\n")
    assert "GATEWAYS cannot be switched off: it is a border of the Tinyland map." in answer


@pytest.mark.parametrize("option", ["RAILWAYS", "HONG KONG", "GATEWAYS"])
def test_variant_options_are_refused_with_the_reason_elsewhere(harness: Harness, option: str) -> None:
    create(harness, "plainland")
    answer = as_master(harness, f"SET {option}\n")
    assert f"{option} is a rule of variants that have it (such as Colonial); the Tinyland variant" in answer


def test_variant_options_are_refused_on_standard_in_french(harness: Harness) -> None:
    register(harness, MASTER, language="fr")
    harness.exchange(MASTER, f"CREATE ?vr {MASTER_PASSWORD}\nBECOME MASTER\n")
    answer = as_master(harness, "SET RAILWAYS\n")
    assert "RAILWAYS est une règle des variantes qui l'ont (comme Colonial) ; la variante Standard" in answer


def test_neutrals_put_an_army_in_every_unowned_centre_at_the_start(harness: Harness) -> None:
    create(harness, "plainland")
    answer = as_master(harness, "SET NEUTRALS\n")
    assert "Neutrals: Neutrals (was NoNeutrals)." in answer
    for n in range(3):
        register(harness, player(n))
        reply = harness.exchange(player(n), f"SIGNON ?vr pw{n} plainland\n")
        assert "[Error Flag]" not in reply["Subject"], read(reply)
    opening = phase_rows(harness, "vr")[0]["before"]
    neutrals = sorted(u["loc"] for u in opening["units"] if u["power"] == NEUTRAL)
    assert neutrals == ["DDD", "HHH"]
    answer = as_master(harness, "SET NO NEUTRALS\n")
    assert "can only be changed before the game starts" in answer


def test_a_player_of_a_moderated_game_may_not_switch_rules(harness: Harness) -> None:
    create(harness, "tinyland")
    as_master(harness, "SET MODERATED\n")
    register(harness, player(0))
    harness.exchange(player(0), "SIGNON ?vr pw0 tinyland\n")
    reply = harness.exchange(player(0), "SIGNON ?vr pw0 tinyland\nSET NO RAILWAYS\n")
    assert "only the master may change that (Railways)" in read(reply)
    assert stored_game_map(harness).special.railway is not None


def test_chaos_starts_with_the_winter_builds() -> None:
    from judge.app.game_state.boards import opening_position
    from judge.core.variants import load_map

    opening = opening_position(load_map("chaos"))
    assert str(opening.phase) == "W1900A"
    assert opening.units == () and len(opening.centers) == 34


@pytest.mark.parametrize(("words", "any_centre", "needs_home"), [
    ("SET ANY CENTRES", True, False), ("SET ONE CENTRE", True, True), ("SET HOME CENTRES", False, False),
])
def test_set_any_and_one_centre_are_played(harness: Harness, words: str, any_centre: bool, needs_home: bool) -> None:
    create(harness, "plainland")
    as_master(harness, words + "\n")
    special = stored_game_map(harness).special
    assert (special.build_any_owned_centre, special.builds_need_a_home_centre) == (any_centre, needs_home)


def test_chaos_lists_its_builds_in_any_centre(harness: Harness) -> None:
    create(harness, "chaos")
    assert "AnyCentres" in as_master(harness, "LIST\n")


def test_set_variant_before_the_start_changes_map_threshold_and_sign_on_words(harness: Harness) -> None:
    register(harness, MASTER)
    harness.exchange(MASTER, f"CREATE ?vr {MASTER_PASSWORD}\nBECOME MASTER\n")
    answer = as_master(harness, "SET VARIANT colonial\n")
    assert "Game 'vr' will be played on the Colonial map." in answer
    listing = as_master(harness, "LIST\n")
    assert "Variant and options: Colonial." in listing and "Centres to win: 30." in listing
    register(harness, player(0))
    refused = read(harness.exchange(player(0), "SIGNON ?vr pw0\n"))
    assert "Colonial" in refused
    joined = harness.exchange(player(0), "SIGNON ?vr pw0 colonial\n")
    assert "[Error Flag]" not in joined["Subject"], read(joined)


def test_neutral_units_are_shown_and_reported_in_french(harness: Harness) -> None:
    register(harness, MASTER, language="fr")
    harness.exchange(MASTER, f"CREATE ?vr {MASTER_PASSWORD} plainland\nBECOME MASTER\nSET MANUAL PROCESS\nSET NEUTRALS\n")
    for n in range(3):
        register(harness, player(n), language="fr")
        harness.exchange(player(n), f"SIGNON ?vr pw{n} plainland\n")
    starting = [read(m) for m in harness.others if "Game Starting" in str(m["Subject"])]
    assert starting and all("   Neutre: Armée Delta." in mail for mail in starting)
    harness.exchange(MASTER, f"SIGNON Mvr {MASTER_PASSWORD}\nPROCESS\n")
    results = [read(m) for m in harness.others if str(m["Subject"]).endswith("S1901M Results")]
    assert results and all("Neutre:            Armée Hôtel, aucun ordre traité." in mail for mail in results)
    listing = as_master(harness, "LIST\n")
    assert "  Neutre: A Delta, A Hôtel." in listing, listing


def test_chaos_forced_to_begin_asks_first_for_the_winter_builds(harness: Harness) -> None:
    create(harness, "chaos")
    register(harness, player(0))
    harness.exchange(player(0), "SIGNON ?vr pw0 chaos\n")
    answer = as_master(harness, "FORCE BEGIN\n")
    assert "[Error" not in answer, answer
    starting = [read(m) for m in harness.others if "Game Starting" in str(m["Subject"])]
    assert starting and "Starting position, Adjustment for Winter of 1900:" in starting[0]
    assert phase_rows(harness, "vr")[0]["name"] == "W1900A"


def test_chaos_powers_with_digit_letters_sign_on_press_and_build(harness: Harness) -> None:
    create(harness, "chaos")
    for n, letter in enumerate("09"):
        register(harness, player(n))
        harness.exchange(player(n), f"SIGNON ?vr pw{n} chaos\nSET PREFERENCE {letter}\n")
    as_master(harness, "FORCE BEGIN\n")
    answer = read(harness.exchange(player(0), "SIGNON 0vr pw0\nPRESS TO 9\nhello nine\nENDPRESS\nBUILD A SEV\n"))
    assert "Signed on as Sevastopol in game 'vr'." in answer
    assert "Press sent to Warsaw:" in answer
    assert "Sevastopol: Builds an army in Sevastopol." in answer
    assert [m["Subject"] for m in harness.others] == ["XPY:vr - W1900A Press from 0 to 9"]
    assert player(1) in str(harness.others[0]["To"])


@pytest.mark.parametrize("variant", available_variants())
def test_every_shipped_variant_starts_and_processes_by_mail(harness: Harness, variant: str) -> None:
    language = "fr" if variant in ("colonial", "youngstown", "chaos") else "en"
    register(harness, MASTER, language=language)
    reply = harness.exchange(MASTER, f"CREATE ?vr {MASTER_PASSWORD} {variant}\nBECOME MASTER\nSET MANUAL PROCESS\n")
    assert "[Error Flag]" not in reply["Subject"], read(reply)
    register(harness, player(0), language=language)
    reply = harness.exchange(player(0), f"SIGNON ?vr pw0 {variant}\n")
    assert "[Error Flag]" not in reply["Subject"], read(reply)
    answer = as_master(harness, "FORCE BEGIN\n")
    assert "[Error" not in answer, answer
    first = phase_rows(harness, "vr")[0]["name"]
    answer = as_master(harness, "PROCESS\nLIST\n")
    assert "[Error" not in answer, answer
    rows = phase_rows(harness, "vr")
    assert rows[0]["state"] == "processed" and rows[0]["name"] == first
    assert any(str(m["Subject"]).endswith(f"{first} Results") for m in harness.others)
