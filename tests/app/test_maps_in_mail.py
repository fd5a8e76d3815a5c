"""The pictures the mails carry agree with their text and their reader (issue 28).

* a results map's legend and centre marks are the centres *after* the phase,
  as the results mail's table counts them (Fall 1901: captures);
* a French reader's picture is the French one (title, legend, abbreviations),
  chosen with the language the mail's text was written in;
* the Game Starting mail carries the opening board, in each reader's language.
"""

from __future__ import annotations

import re

import pytest

from judge.app.mail_out.results_maps import phase_svg
from judge.app.mail_out.sender import TransactionalOutbox
from judge.app.phases.guarded_scheduler import process_due
from judge.app.reports import game_start
from judge.core.variants import load_map
from judge.db.models import Game, OutboundMail, PhaseRecord
from judge.mail.outbound import drain_once
from judge.maps.png import svg_to_png
from judge.maps.render import power_colours, territory_colour
from tests.app.conftest import Harness
from tests.app.games_helpers import form_game, player, read, register
from tests.app.orders_helpers import address, plain, start_game
from tests.app.test_processing_results import OPENINGS, results_mail, send_all
from tests.app.test_results_map_delivery import Relay

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

STANDARD = load_map("standard")
FALL = {
    "AUSTRIA": "A SER H\nF ALB - GRE\nA VIE - TRI\n",
    "ENGLAND": "F NTH - NWY\nF NWG H\nA YOR H\n",
    "FRANCE": "A BUR - BEL\nA MAR - SPA\nF MAO - POR\n",
    "GERMANY": "A KIE - HOL\nA MUN H\nF DEN H\n",
    "ITALY": "A APU - TUN\nF ION C A APU - TUN\nA VEN H\n",
    "RUSSIA": "F BOT - SWE\nA UKR - RUM\nF SEV H\nA WAR H\n",
    "TURKEY": "A BUL H\nF ANK H\nA ARM H\n",
}


def _svg_of(harness: Harness, phase: str, language: str = "en") -> str:
    with harness.db.unit_of_work(readonly=True) as uow:
        record = uow.session.query(PhaseRecord).filter_by(name=phase).one()
        game = uow.session.get(Game, record.game_id)
        assert game is not None
        return phase_svg(game, record, None, language)


def _play_1901(harness: Harness, languages: dict[str, str] | None = None) -> None:
    game = start_game(harness, languages=languages)
    harness.clock.advance(hours=13)
    send_all(game, OPENINGS)
    harness.clock.advance(hours=1)
    assert process_due(harness.services) == 1
    send_all(game, FALL)
    harness.clock.advance(days=3)
    assert process_due(harness.services) == 1


def test_the_results_map_after_fall_shows_the_centres_the_mail_counts(harness: Harness) -> None:
    _play_1901(harness)
    body = plain(results_mail(harness, "F1901M")[address("AUSTRIA")])
    counted = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\w+):\s+(\d+) Supply centers", body, re.M)}
    assert len(counted) == 7, body
    svg = _svg_of(harness, "F1901M")
    legend = dict(re.findall(r'class="legend-text" data-text="(\w+) (\d+)"', svg))
    assert {name: int(n) for name, n in legend.items()} == counted
    # Captures happened: the counts before the phase would not agree.
    assert counted["Russia"] == 6 and counted["France"] >= 5
    with harness.db.unit_of_work(readonly=True) as uow:
        record = uow.session.query(PhaseRecord).filter_by(name="F1901M").one()
        after = record.position_after["centers"]
    marks = dict(re.findall(r'class="centre" data-province="(\w+)" data-power="(\w*)"', svg))
    for power, owned in after.items():
        for centre in owned:
            assert marks[centre] == power
    assert sum(1 for p in marks.values() if p) == sum(counted.values())
    # The shading is the centres after too: Sweden is Russia's.
    assert shading(svg)["SWE"] == territory_colour(power_colours(STANDARD)["RUSSIA"])


def shading(svg: str) -> dict[str, str]:
    """Province -> fill, from the picture's shading style sheet."""
    sheet = svg.split('<style class="shading">', 1)[1].split("</style>", 1)[0]
    fills: dict[str, str] = {}
    for selectors, fill in re.findall(r"([^{}]+)\{fill:(#[0-9a-f]{6})\}", sheet):
        for selector in selectors.split(","):
            fills[selector.removeprefix("#p-")] = fill
    return fills


def test_a_french_reader_gets_the_french_picture(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    _play_1901(harness, languages={"GERMANY": "fr"})
    with harness.db.unit_of_work(readonly=True) as uow:
        rows = {r.recipients[0]: r.map_language for r in uow.session.query(OutboundMail) if b"F1901M Results" in r.message}
    assert rows[address("GERMANY")] == "fr" and rows[address("AUSTRIA")] == "en"
    mails = results_mail(harness, "F1901M")
    french = mails[address("GERMANY")]
    assert plain(french).startswith("Résultats des mouvements de l'automne 1901.")
    (picture,) = list(french.iter_attachments())  # type: ignore[misc]
    (english,) = list(mails[address("AUSTRIA")].iter_attachments())  # type: ignore[misc]
    assert picture.get_content() != english.get_content()
    svg = _svg_of(harness, "F1901M", "fr")
    assert picture.get_content() == svg_to_png(svg)
    assert 'data-text="demo: Automne 1901, mouvements (F1901M)"' in svg
    assert 'data-text="Allemagne ' in svg and 'data-text="Angleterre ' in svg
    labels = re.search(r'class="labels" data-labels="([^"]*)"', svg).group(1).split()  # type: ignore[union-attr]
    assert "MAN" in labels and "ENG" not in labels  # the Channel is la Manche
    # The sender's own path (claim, draw, attach) picks the French picture for the French reader.
    relay = Relay()
    drain_once(TransactionalOutbox(harness.services), relay, harness.clock.now(), limit=200)
    delivered = {to[0]: m for m, to in relay.delivered if "F1901M Results" in str(m["Subject"])}
    (sent,) = list(delivered[address("GERMANY")].iter_attachments())  # type: ignore[misc]
    (sent_english,) = list(delivered[address("AUSTRIA")].iter_attachments())  # type: ignore[misc]
    assert sent.get_content() == picture.get_content() and sent_english.get_content() == english.get_content()
    assert "MAN" not in re.search(r'class="labels" data-labels="([^"]*)"', _svg_of(harness, "F1901M")).group(1).split()  # type: ignore[union-attr]


@pytest.mark.engine_sql
def test_the_game_starting_mail_carries_the_opening_board_in_each_readers_language(harness: Harness) -> None:
    addresses = form_game(harness, players=6)
    register(harness, player(6), language="fr")
    reply = harness.exchange(player(6), "SIGNON ?demo pw6\n")
    assert "[Error Flag]" not in reply["Subject"], read(reply)
    starting = {str(m["To"]): m for m in harness.others if "Game Starting" in str(m["Subject"])}
    assert set(starting) == {*addresses, player(6)}
    pictures = {to: list(m.iter_attachments()) for to, m in starting.items()}  # type: ignore[misc]
    assert all(len(p) == 1 and p[0].get_filename() == "demo-S1901M.png" for p in pictures.values())
    with harness.db.unit_of_work(readonly=True) as uow:
        record = uow.session.query(PhaseRecord).filter_by(name="S1901M").one()
        game = uow.session.get(Game, record.game_id)
        assert game is not None
        english, french = (svg_to_png(phase_svg(game, record, None, lang)) for lang in ("en", "fr"))
    assert pictures[player(6)][0].get_content() == french
    assert all(pictures[a][0].get_content() == english for a in addresses)
    assert english != french


def test_a_reader_with_the_map_off_gets_a_game_starting_mail_without_it(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_start, "map_off_addresses", lambda game: frozenset({player(2)}))
    addresses = form_game(harness, players=7)
    starting = {str(m["To"]): m for m in harness.others if "Game Starting" in str(m["Subject"])}
    assert set(starting) == set(addresses)
    assert list(starting[player(2)].iter_attachments()) == []  # type: ignore[misc]
    assert len(list(starting[player(3)].iter_attachments())) == 1  # type: ignore[misc]
