"""The replies docs/councils.md, docs/fr/conseils.md and the masters' guides quote are the judge's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.app.game_state.game_facts import power_name
from tests.app.conftest import Harness, text
from tests.app.councils_helpers import MASTER, ambassador, form_council_game, seated
from tests.app.games_helpers import player, register

pytestmark = pytest.mark.engine_blind  # mail routing and wording: SQLite only, but the tests marked engine_sql

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _flat(page: str) -> str:
    """The page with its line breaks and quote marks folded, so a quoted reply reads on one line."""
    lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
    return " ".join(line.lstrip("> ").strip() for line in lines)


def _quoted(page: str, reply: str) -> None:
    assert reply in _flat(page), f"{page} no longer quotes: {reply}"


def test_the_player_pages_quote_the_sign_on_and_the_refusal(harness: Harness) -> None:
    form_council_game(harness, languages={n: "fr" for n in range(21) if n % 2})
    members = seated(harness)
    english = next(m for m in members if m.power == "FRANCE" and m.rank == 2)
    if (
        int(english.address[1:].split("@")[0]) % 2
    ):  # this seed's France: make sure the reader is English
        english = next(
            m for m in members if m.rank == 2 and not int(m.address[1:].split("@")[0]) % 2
        )
    for page, member in (("councils.md", english),):
        reply = text(harness.exchange(member.address, member.signon + "\nA Par-Bur\n"))
        name = power_name(member.power)
        assert f"Signed on as {name} in game 'demo': you are its Ambassador 2." in reply
        _quoted(page, "Signed on as France in game 'demo': you are its Ambassador 2.")
        refusal = (
            "Only your council's General-in-chief submits orders for {power} (councils, rule 1); "
            "Ambassadors negotiate but do not order. Nothing was recorded."
        )
        assert refusal.format(power=name) in " ".join(reply.split())
        _quoted(page, refusal.format(power="France"))
    french = next(
        m for m in members if m.role == "ambassador" and int(m.address[1:].split("@")[0]) % 2
    )
    reply = " ".join(
        text(harness.exchange(french.address, french.signon + "\nA Par-Bur\n")).split()
    )
    assert f"; votre rôle : Ambassadeur {french.rank}." in reply
    _quoted("fr/conseils.md", "; votre rôle : Ambassadeur 2.")
    tail = " (Conseils, règle 1) ; les Ambassadeurs négocient mais ne donnent pas d'ordres. Rien n'a été enregistré."
    head = "Seul le Général en chef de votre Conseil remet les ordres de "
    assert head + power_name(french.power, "fr") + tail in reply
    _quoted("fr/conseils.md", head + "France" + tail)


def test_the_masters_guides_quote_the_set_councils_reply(harness: Harness) -> None:
    register(harness, player(0))
    register(harness, player(1), language="fr")
    for n, page in ((0, "master-guide.md"), (1, "fr/guide-maitre.md")):
        name = f"demo{n}"
        harness.exchange(player(n), f"CREATE ?{name} pw\n")
        reply = " ".join(
            text(
                harness.exchange(player(n), f"SIGNON ?{name} pw\nSET COUNCILS 3 YEARS 7\n")
            ).split()
        )
        if n == 0:
            sentences = [
                "Game 'demo' will be played by councils of 3 players: 21 players in all (7 powers).",
                "The game ends after 7 game years.",
            ]
        else:
            sentences = [
                "La partie 'demo' se jouera en Conseils de 3 joueurs : 21 joueurs en tout (7 puissances).",
                "La partie s'arrête après 7 années de jeu.",
            ]
        for sentence in sentences:
            assert sentence.replace("'demo'", f"'{name}'") in reply
            _quoted(page, sentence)


def test_the_master_is_told_every_spy_as_the_guide_says(harness: Harness) -> None:
    form_council_game(harness)
    mail = [
        m
        for m in harness.outbox()
        if str(m["To"]) == MASTER and "Councils and spies" in str(m["Subject"])
    ]
    assert mail and "SPY for " in text(mail[0])
    _quoted("master-guide.md", "*Councils and spies*")
    amb = ambassador(seated(harness), "FRANCE")
    assert amb.role == "ambassador"
