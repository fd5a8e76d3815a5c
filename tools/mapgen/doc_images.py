"""Draw the pictures of the docs (docs/images) with the judge's own renderer: regenerate them after a
change to the maps.

* Standard after Fall 1901 (F1901M): supports, a convoy, a bounce and a dislodgement, in English
  and in French (``map-standard-f1901m.png``, ``map-standard-f1901m-fr.png``), and after the retreat
  that follows (F1901R), when the centres change hands (``map-standard-f1901r.png``, ``-fr``);
* World and Youngstown mid-game (a random game's twelfth phase, its orders and results);
* the older pictures of the player's guide (Standard F1902M from the tests' fixture, Ancient
  Mediterranean's opening moves).

    .venv/bin/python tools/mapgen/doc_images.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judge.core.adjudicator import Rules, adjudicate  # noqa: E402
from judge.core.phase import PhaseType  # noqa: E402
from judge.core.position import Position  # noqa: E402
from judge.core.random_orders import RandomOrders  # noqa: E402
from judge.core.units import Unit  # noqa: E402
from judge.core.variants import load_map  # noqa: E402
from judge.maps.contract import svg_from_contract  # noqa: E402
from judge.maps.png import svg_to_png  # noqa: E402
from judge.maps.render import render_svg  # noqa: E402
from judge.ruling import rule_on  # noqa: E402

IMAGES = ROOT / "docs" / "images"

FALL_1901 = {
    "variant": "standard",
    "phase": "F1901M",
    "units": [
        {"power": "AUSTRIA", "type": "A", "loc": "GAL"}, {"power": "AUSTRIA", "type": "A", "loc": "SER"},
        {"power": "AUSTRIA", "type": "F", "loc": "ALB"},
        {"power": "ENGLAND", "type": "F", "loc": "NTH"}, {"power": "ENGLAND", "type": "F", "loc": "NWG"},
        {"power": "ENGLAND", "type": "A", "loc": "YOR"},
        {"power": "FRANCE", "type": "A", "loc": "BUR"}, {"power": "FRANCE", "type": "A", "loc": "SPA"},
        {"power": "FRANCE", "type": "F", "loc": "MAO"},
        {"power": "GERMANY", "type": "A", "loc": "KIE"}, {"power": "GERMANY", "type": "A", "loc": "MUN"},
        {"power": "GERMANY", "type": "F", "loc": "DEN"},
        {"power": "ITALY", "type": "A", "loc": "APU"}, {"power": "ITALY", "type": "A", "loc": "VEN"},
        {"power": "ITALY", "type": "F", "loc": "ION"},
        {"power": "RUSSIA", "type": "A", "loc": "WAR"}, {"power": "RUSSIA", "type": "A", "loc": "UKR"},
        {"power": "RUSSIA", "type": "F", "loc": "SEV"}, {"power": "RUSSIA", "type": "F", "loc": "BOT"},
        {"power": "TURKEY", "type": "F", "loc": "BLA"}, {"power": "TURKEY", "type": "A", "loc": "BUL"},
        {"power": "TURKEY", "type": "A", "loc": "ARM"},
    ],
    "centers": {
        "AUSTRIA": ["BUD", "TRI", "VIE"], "ENGLAND": ["EDI", "LON", "LVP"], "FRANCE": ["BRE", "MAR", "PAR"],
        "GERMANY": ["BER", "KIE", "MUN"], "ITALY": ["NAP", "ROM", "VEN"], "RUSSIA": ["MOS", "SEV", "STP", "WAR"],
        "TURKEY": ["ANK", "CON", "SMY"],
    },
    "orders": {
        "AUSTRIA": ["A GAL - RUM", "A SER S A GAL - RUM", "F ALB - GRE"],
        "ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY", "F NWG S A YOR - NWY"],
        "FRANCE": ["A BUR - BEL", "A SPA - POR", "F MAO S A SPA - POR"],
        "GERMANY": ["A KIE - HOL", "A MUN - BUR", "F DEN H"],
        "ITALY": ["A APU - TUN", "F ION C A APU - TUN", "A VEN H"],
        "RUSSIA": ["A WAR - GAL", "A UKR S A WAR - GAL", "F SEV - RUM", "F BOT - SWE"],
        "TURKEY": ["A BUL - SER", "F BLA S F SEV - RUM", "A ARM H"],
    },
}  # fmt: skip


def _mid_game(variant: str, phases: int) -> str:
    game_map = load_map(variant)
    maker = RandomOrders(game_map, random.Random(28))
    position = Position(variant, game_map.first_phase, game_map.opening_units, game_map.starting_centers)
    options: dict[Unit, tuple[str, ...]] = {}
    svg = ""
    for _ in range(phases):
        kind = position.phase.type
        orders = maker.orders(position, options)
        result = adjudicate(position, orders, Rules(), game_map)
        if kind is PhaseType.MOVEMENT:
            svg = render_svg(game_map, position, result)
        options = dict(result.retreats)
        position = result.position
    return svg


def main() -> None:
    result = rule_on(FALL_1901)
    assert result.get("dislodged"), "the Fall 1901 picture shows a dislodgement"
    (IMAGES / "map-standard-f1901m.png").write_bytes(svg_to_png(svg_from_contract(FALL_1901, result)))
    (IMAGES / "map-standard-f1901m-fr.png").write_bytes(svg_to_png(svg_from_contract(FALL_1901, result, language="fr")))
    # The retreat that follows: Austria's army retreats to Bohemia, and the centres change hands
    # (the legend after the phase, as the mail's table says: Russia 6 where the Fall's picture said 4).
    retreat = {
        "variant": "standard",
        "phase": result["next_phase"],
        "units": result["units"],
        "centers": result["centers"],
        "dislodged": result["dislodged"],
        "orders": {"AUSTRIA": ["A GAL R BOH"]},
    }
    retreated = rule_on(retreat)
    counts = {power: len(owned) for power, owned in retreated["centers"].items()}
    assert counts == {"AUSTRIA": 5, "ENGLAND": 4, "FRANCE": 5, "GERMANY": 5, "ITALY": 4, "RUSSIA": 6, "TURKEY": 4}, counts
    (IMAGES / "map-standard-f1901r.png").write_bytes(svg_to_png(svg_from_contract(retreat, retreated)))
    (IMAGES / "map-standard-f1901r-fr.png").write_bytes(svg_to_png(svg_from_contract(retreat, retreated, language="fr")))
    fixtures = ROOT / "tests" / "maps"
    position = json.loads((fixtures / "standard_f1902_position.json").read_text())
    ruled = json.loads((fixtures / "standard_f1902_result.json").read_text())
    (IMAGES / "map-standard-f1902m.png").write_bytes(svg_to_png(svg_from_contract(position, ruled)))
    (IMAGES / "map-ancmed.png").write_bytes(svg_to_png(_mid_game("ancmed", 1)))
    for variant in ("world", "youngstown"):
        (IMAGES / f"map-{variant}.png").write_bytes(svg_to_png(_mid_game(variant, 12)))


if __name__ == "__main__":
    main()
