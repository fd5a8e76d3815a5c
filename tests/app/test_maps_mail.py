"""Maps by mail (issue 16): MAP answers with a picture, results mails carry one, SET MAP OFF stops it.

Who may run MAP (anyone, as HISTORY) and what it reveals: no orders of the
phase being played, no player of a gunboat game, only what the results
mails already told everyone for processed phases.
"""

from __future__ import annotations

from dataclasses import replace
from email.message import EmailMessage

import pytest

from judge.app.phases.guarded_scheduler import process_due
from judge.mail.compose import Attachment, attachment_bytes
from judge.maps.png import png_size
from tests.app.conftest import Harness
from tests.app.orders_helpers import MASTER, OBSERVER, POWERS, address, plain, start_game
from tests.app.test_processing_results import OPENINGS, results_mail, send_all

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def attachments(message: EmailMessage) -> list[EmailMessage]:
    return [part for part in message.iter_attachments()]  # type: ignore[misc]



def test_map_answers_with_a_png_of_the_phase_being_played_without_any_orders(harness: Harness) -> None:
    game = start_game(harness)
    game.orders("FRANCE", "A PAR - BUR\n")
    reply = harness.exchange("stranger@example.org", "MAP demo\n")
    body = plain(reply)
    assert "The map of demo, S1901M, is attached (demo-S1901M.png)" in body
    (picture,) = attachments(reply)
    assert picture.get_content_type() == "image/png"
    data = picture.get_content()
    assert png_size(data)[0] == 1200
    svg_reply = harness.exchange("stranger@example.org", "MAP demo SVG\n")
    (svg_part,) = attachments(svg_reply)
    svg = svg_part.get_content()
    svg = svg.decode() if isinstance(svg, bytes) else svg
    assert 'class="order ' not in svg  # France's order is not shown before processing
    assert svg.count('class="unit"') == 22
    assert reply["X-Judge"] and reply["Auto-Submitted"] == "auto-replied"


def test_map_of_a_processed_phase_shows_its_orders_and_results(harness: Harness) -> None:
    game = start_game(harness)
    harness.clock.advance(hours=13)
    send_all(game, OPENINGS)
    harness.clock.advance(hours=1)
    assert process_due(harness.services) == 1
    reply = harness.exchange(address("ITALY"), "MAP demo S1901M SVG\n")
    assert "with its orders and results" in plain(reply)
    (part,) = attachments(reply)
    svg = part.get_content()
    svg = svg.decode() if isinstance(svg, bytes) else svg
    assert 'class="order move fails"' in svg  # A VIE - GAL bounced
    assert 'class="order support-move succeeds"' in svg
    current = plain(harness.exchange(address("ITALY"), "MAP demo F1901M\n"))
    assert "orders are shown once the phase is processed" in current


def test_map_refusals_say_why(harness: Harness) -> None:
    start_game(harness)
    assert "There is no game called 'nosuch'" in plain(harness.exchange("x@example.org", "MAP nosuch\n"))
    assert "demo has no phase F1905M: it has S1901M to S1901M." in plain(harness.exchange("x@example.org", "MAP demo F1905M\n"))
    assert "MAP needs a game name before SIGNON" in plain(harness.exchange("x@example.org", "MAP\n"))
    two = harness.exchange("x@example.org", "MAP demo\nMAP demo SVG\n")
    assert "One map per mail" in plain(two) and len(attachments(two)) == 1


def test_results_mails_carry_the_map_and_set_map_off_stops_it_for_that_reader_only(harness: Harness) -> None:
    game = start_game(harness)
    off = plain(game.orders("FRANCE", "SET MAP OFF\n"))
    assert "MAP OFF: your results mails for demo come without the map" in off
    observer = plain(harness.exchange(OBSERVER, "SIGNON Odemo watchpw\nSET MAP OFF\n"))
    assert "MAP OFF" in observer
    harness.clock.advance(hours=13)
    send_all(game, OPENINGS)
    harness.clock.advance(hours=1)
    assert process_due(harness.services) == 1
    mails = results_mail(harness, "S1901M")
    assert set(mails) == {*(address(p) for p in POWERS), MASTER, OBSERVER}
    for recipient, mail in mails.items():
        pictures = attachments(mail)
        assert "France:  Army Paris -> Burgundy." in plain(mail)  # the text is whole either way
        if recipient in (address("FRANCE"), OBSERVER):
            assert pictures == [], recipient
        else:
            (picture,) = pictures
            assert picture.get_filename() == "demo-S1901M.png"
            assert png_size(picture.get_content())[0] == 1200
    assert "MAP ON" in plain(game.orders("FRANCE", "SET MAP ON\n"))
    position = game.position()
    for power in POWERS:
        game.orders(power, "".join(f"{unit} H\n" for unit in position.units if unit.power == power))
    harness.clock.advance(days=1)
    assert process_due(harness.services) == 1
    fall = results_mail(harness, "F1901M")
    assert len(attachments(fall[address("FRANCE")])) == 1


def test_set_map_needs_a_sign_on(harness: Harness) -> None:
    start_game(harness)
    assert "SET MAP is for a player, master or observer signed on" in plain(harness.exchange("x@example.org", "SET MAP OFF\n"))
    assert "SET MAP needs ON or OFF" in plain(harness.exchange("x@example.org", "SET MAP maybe\n"))


def test_a_gunboat_games_map_reveals_no_player(harness: Harness) -> None:
    game = start_game(harness, "gb", settings={})
    with harness.db.unit_of_work() as uow:
        uow.games.by_name("gb").rule_options = ["gunboat"]  # type: ignore[union-attr]
    harness.clock.advance(hours=13)
    for power, body in OPENINGS.items():
        game.orders(power, body)
    harness.clock.advance(hours=1)
    assert process_due(harness.services) == 1
    reply = harness.exchange(address("ENGLAND"), "MAP gb S1901M SVG\n")
    (part,) = attachments(reply)
    svg = part.get_content()
    svg = (svg.decode() if isinstance(svg, bytes) else svg).lower()
    for power in POWERS:
        assert address(power) not in svg and "example.net" not in svg
        assert f'data-text="{power.title().lower()} ' in svg  # powers are named, in the legend
    assert "master" not in svg
    results = [m for m in harness.outbox() if m["Subject"] == "XPY:gb - S1901M Results"]
    assert results and all(len(attachments(m)) == 1 for m in results)


def test_a_map_that_cannot_be_drawn_never_stops_the_results(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    import judge.app.mail_out.results_maps

    def broken(*_args: object, **_kwargs: object) -> str:
        raise ValueError("no drawing")

    monkeypatch.setattr(judge.app.mail_out.results_maps, "render_svg", broken)
    game = start_game(harness)
    harness.clock.advance(hours=13)
    send_all(game, OPENINGS)
    harness.clock.advance(hours=1)
    assert process_due(harness.services) == 1
    mails = results_mail(harness, "S1901M")
    assert len(mails) == 9 and all(attachments(m) == [] for m in mails.values())
    assert "France:  Army Paris -> Burgundy." in plain(mails[address("FRANCE")])


def dislodge_burgundy(harness: Harness) -> None:
    """Game ``demo`` played through S1901M from a hand position: Germany's supported attack
    dislodges France's army in Burgundy, so S1901R is open with its retreats announced."""
    from judge.core.phase import Phase
    from judge.core.position import Position
    from judge.core.units import Unit, UnitType
    from judge.core.variants import load_map

    units = (
        Unit("FRANCE", UnitType.ARMY, "BUR"),
        Unit("GERMANY", UnitType.ARMY, "RUH"),
        Unit("GERMANY", UnitType.ARMY, "MUN"),
    )
    start = Position("standard", Phase.parse("S1901M"), units, load_map("standard").starting_centers)
    game = start_game(harness, position=start)
    harness.clock.advance(hours=13)
    game.orders("FRANCE", "A BUR H\n")
    game.orders("GERMANY", "A RUH - BUR\nA MUN S A RUH - BUR\n")
    harness.clock.advance(hours=1)
    assert process_due(harness.services) == 1


def test_a_retreat_phase_map_shows_the_dislodged_unit_and_the_retreats_the_results_announced(harness: Harness) -> None:
    dislodge_burgundy(harness)
    reply = harness.exchange(address("ITALY"), "MAP demo SVG\n")
    assert "demo, S1901R, is attached" in plain(reply)
    (part,) = attachments(reply)
    svg = part.get_content()
    svg = svg.decode() if isinstance(svg, bytes) else svg
    assert svg.count('class="unit dislodged"') == 1
    assert re_findall(r'class="unit dislodged" data-power="([A-Z]+)" data-unit="A" data-loc="BUR"', svg) == ["FRANCE"]
    options = set(re_findall(r'class="retreat-option" data-loc="BUR" data-to="([A-Z/]+)"', svg))
    assert options and "RUH" not in options and options <= {"PAR", "PIC", "GAS", "MAR", "BEL"}


def re_findall(pattern: str, text: str) -> list[str]:
    import re

    return re.findall(pattern, text)


def test_a_reply_with_a_map_keeps_to_the_reply_cap_and_says_what_it_left_out(harness: Harness) -> None:
    """Issue 25: a reply of 306 KB went out with its map against a 256 KiB cap. The cap holds for
    the whole mail: when the map does not fit beside the text it is left out, and the reply says
    so and how to get it (or that the map alone is larger than the cap)."""
    start_game(harness)
    alone = harness.exchange("stranger@example.org", "MAP demo\n")
    (picture,) = attachments(alone)
    map_bytes = attachment_bytes(Attachment("demo-S1901M.png", "image/png", picture.get_content()))
    cap = map_bytes + 20_000
    harness.services.config = replace(harness.services.config, reply_max_bytes=cap)
    filler = "".join(f"GET {name}\n" for name in ("info", "register", "syntax", "press", "draw", "master", "deadlines"))
    crowded = harness.exchange("stranger@example.org", "MAP demo\n" + filler)
    assert len(plain(crowded).encode()) > 20_000 and attachments(crowded) == []
    assert f"[The map demo-S1901M.png was left out: with it this reply would pass the judge's limit of {cap} bytes. " \
           "Send MAP alone in a mail to get it.]" in plain(crowded)
    assert len(crowded.as_bytes()) <= cap + 8 * 1024  # the header block and the closing line
    assert len(attachments(harness.exchange("stranger@example.org", "MAP demo\n"))) == 1  # alone, it fits
    harness.services.config = replace(harness.services.config, reply_max_bytes=map_bytes // 2)
    small = harness.exchange("stranger@example.org", "MAP demo\n")
    assert attachments(small) == [] and "it is larger than the judge's limit" in plain(small)


def test_a_processed_phase_keeps_its_orders_as_values_and_its_map_reads_no_order_text(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27: the results keep each order's value beside its text, the map is drawn from the
    values; a phase stored the old way (text only) still draws the same picture."""
    from types import SimpleNamespace

    import judge.lang.orders
    from judge.app.mail_out.results_maps import phase_svg
    from judge.core.order_json import ORDER_VALUE, order_from_json

    game = start_game(harness)
    harness.clock.advance(hours=13)
    send_all(game, OPENINGS)
    harness.clock.advance(hours=1)
    assert process_due(harness.services) == 1
    with harness.db.unit_of_work(readonly=True) as uow:
        record = uow.phases.history(game.game(uow))[0]
        entries = record.results["results"]
        assert entries and all(str(order_from_json(e[ORDER_VALUE])) == e["order"] for e in entries)
        old_way = SimpleNamespace(  # the same phase as stored before the values were kept: text only
            position_before=record.position_before, processed_at=record.processed_at,
            results={**record.results, "results": [{k: v for k, v in e.items() if k != ORDER_VALUE} for e in entries]},
        )  # fmt: skip
        from_text = phase_svg(game.game(uow), old_way)  # type: ignore[arg-type]

        def no_reading(*_args: object, **_kwargs: object) -> object:
            raise AssertionError("the map read an order's text")

        monkeypatch.setattr(judge.lang.orders, "read_order_line", no_reading)
        from_values = phase_svg(game.game(uow), record)
    assert 'class="order move fails"' in from_values and 'class="order support-move succeeds"' in from_values
    assert from_values == from_text
