"""Draw the Renaissance game's picture of the docs (``docs/images/map-machiavelli.png``, and
``map-machiavelli-fr.png``) with the judge's renderer (:mod:`judge.maps.machiavelli_layer`).

The position is the summer of 1455 of a game written for the picture, read and checked by the
core (:func:`judge.core.machiavelli.serialization.position_from_json`): Florence besieges the
autonomous garrison of Siena and Turkey that of Ragusa; Austria has come down into Friuli and
Treviso; the Bosnians rebel against Turkey and Perugia (province and city) against the Papacy;
Mantua and Capua starve. The summer's campaign is played by the core's one step
(:func:`judge.core.machiavelli.season.play_phase`) with the orders below, and drawn as a results
mail draws it: Austria dislodges Venice from Vicenza with support, Florence's second BESIEGE
takes Siena, Milan's army of Montferrat converts into its city's garrison, Naples sends no orders.

    .venv/bin/python tools/mapgen/doc_image_machiavelli.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judge.core.machiavelli.board import load_board  # noqa: E402
from judge.core.machiavelli.options import MachiavelliOptions  # noqa: E402
from judge.core.machiavelli.season import play_phase  # noqa: E402
from judge.core.machiavelli.serialization import position_from_json  # noqa: E402
from judge.core.phase import PhaseType  # noqa: E402
from judge.lang.machiavelli_sheet import read_sheet  # noqa: E402
from judge.maps.machiavelli_layer import render_machiavelli_svg, season_drawing  # noqa: E402
from judge.maps.png import svg_to_png  # noqa: E402

IMAGES = ROOT / "docs" / "images"


def _units(power: str, *units: str) -> list[dict[str, str]]:
    return [{"power": power, "type": unit[0], "loc": unit[2:]} for unit in units]


SUMMER_1455 = {
    "variant": "machiavelli",
    "phase": "U1455M",
    "units": [
        *_units("AUSTRIA", "A FRI", "A TRV", "A TYR", "A HUN"),
        *_units("FLORENCE", "A SIE", "A ARE", "F PSA", "A PST"),
        *_units("FRANCE", "A TUR", "A SAV", "F WGL", "A SWI"),
        *_units("MILAN", "A BER", "A PIA", "A PAR", "A MON"),
        *_units("NAPLES", "A AQU", "F GON", "A BAR", "F PAL"),
        *_units("PAPACY", "A URB", "A SPO", "F ANC", "A BOL"),
        *_units("TURKEY", "A RAG", "F LAS", "F TUN", "A HER"),
        *_units("VENICE", "F UAS", "A VIC", "A FER", "A VER"),
    ],
    "garrisons": {
        "SIE": "AUTONOMOUS", "RAG": "AUTONOMOUS", "GEN": "AUTONOMOUS", "LUC": "AUTONOMOUS", "PIO": "AUTONOMOUS",
        "SLZ": "AUTONOMOUS", "TRT": "AUTONOMOUS",
        "VEN": "VENICE", "PAD": "VENICE", "MIL": "MILAN", "CRE": "MILAN", "FLO": "FLORENCE", "RME": "PAPACY",
        "NAP": "NAPLES", "DUR": "TURKEY", "AVI": "FRANCE", "AUS": "AUSTRIA", "MAN": "MILAN",
    },
    "sieges": {
        "SIE": {"power": "FLORENCE", "type": "A", "loc": "SIE"},
        "RAG": {"power": "TURKEY", "type": "A", "loc": "RAG"},
    },
    "control": {
        "provinces": {
            "AUS": "AUSTRIA", "HUN": "AUSTRIA", "TYR": "AUSTRIA", "CRI": "AUSTRIA", "FRI": "AUSTRIA", "CRN": "AUSTRIA",
            "SLA": "AUSTRIA", "TRV": "AUSTRIA",
            "FLO": "FLORENCE", "ARE": "FLORENCE", "PSA": "FLORENCE", "PST": "FLORENCE", "SIE": "FLORENCE",
            "AVI": "FRANCE", "MAR": "FRANCE", "PRO": "FRANCE", "SWI": "FRANCE", "TUR": "FRANCE", "SAV": "FRANCE",
            "MIL": "MILAN", "PAV": "MILAN", "CRE": "MILAN", "COM": "MILAN", "FOR": "MILAN", "PIA": "MILAN",
            "PAR": "MILAN", "BER": "MILAN", "MON": "MILAN", "MAN": "MILAN",
            "NAP": "NAPLES", "CAP": "NAPLES", "SLR": "NAPLES", "OTR": "NAPLES", "BAR": "NAPLES", "AQU": "NAPLES",
            "MES": "NAPLES", "PAL": "NAPLES",
            "RME": "PAPACY", "PER": "PAPACY", "PAT": "PAPACY", "SPO": "PAPACY", "URB": "PAPACY", "ANC": "PAPACY",
            "RMA": "PAPACY", "BOL": "PAPACY",
            "ALB": "TURKEY", "DUR": "TURKEY", "HER": "TURKEY", "BOS": "TURKEY", "TUN": "TURKEY", "RAG": "TURKEY",
            "VEN": "VENICE", "PAD": "VENICE", "VIC": "VENICE", "VER": "VENICE", "BRE": "VENICE",
            "IST": "VENICE", "DAL": "VENICE", "FER": "VENICE",
            "GEN": "AUTONOMOUS", "LUC": "AUTONOMOUS", "PIO": "AUTONOMOUS", "SLZ": "AUTONOMOUS", "TRT": "AUTONOMOUS",
        },
        "cities": {
            "AUS": "AUSTRIA", "HUN": "AUSTRIA", "TYR": "AUSTRIA", "TRV": "AUSTRIA",
            "FLO": "FLORENCE", "ARE": "FLORENCE", "PSA": "FLORENCE",
            "AVI": "FRANCE", "MAR": "FRANCE", "SWI": "FRANCE", "TUR": "FRANCE", "SAV": "FRANCE",
            "MIL": "MILAN", "PAV": "MILAN", "CRE": "MILAN", "MON": "MILAN", "MAN": "MILAN",
            "NAP": "NAPLES", "BAR": "NAPLES", "MES": "NAPLES", "PAL": "NAPLES",
            "RME": "PAPACY", "PER": "PAPACY", "ANC": "PAPACY", "BOL": "PAPACY",
            "ALB": "TURKEY", "DUR": "TURKEY", "TUN": "TURKEY",
            "VEN": "VENICE", "PAD": "VENICE", "DAL": "VENICE", "FER": "VENICE",
            "SIE": "AUTONOMOUS", "RAG": "AUTONOMOUS", "GEN": "AUTONOMOUS", "LUC": "AUTONOMOUS", "PIO": "AUTONOMOUS",
            "SLZ": "AUTONOMOUS", "TRT": "AUTONOMOUS",
        },
    },
    "rebellions": {
        "BOS": {"against": "TURKEY"},
        "PER": {"against": "PAPACY", "city": True},
    },
    "famine": ["MAN", "CAP"],
}  # fmt: skip


SHEETS = {
    "AUSTRIA": ["A FRI - VIC", "A TRV S A FRI - VIC", "A TYR H"],
    "VENICE": ["A VIC H", "A VER - BRE", "A FER - PAD"],
    "FLORENCE": ["A SIE BESIEGE", "A ARE H", "F PSA H", "A PST - LUC"],
    "TURKEY": ["A RAG BESIEGE", "A HER S A RAG", "F LAS H", "F TUN H"],
    "MILAN": ["A BER - TRT", "A PIA - CRE", "A PAR S A PIA - CRE", "A MON C G"],
    "PAPACY": ["A BOL - MOD", "A SPO H", "A URB H", "F ANC H"],
    "FRANCE": ["A SAV - GEN", "A TUR H", "F WGL H", "A SWI H"],
}


def main() -> None:
    board = load_board()
    position = position_from_json(board, SUMMER_1455)
    orders = {
        power: read_sheet(lines, board.game_map, PhaseType.MOVEMENT).orders for power, lines in SHEETS.items()
    }
    options = MachiavelliOptions(money=False)
    result = play_phase(board, position, orders, options, seed="docs")
    drawn = season_drawing(result)
    for language, suffix in (("en", ""), ("fr", "-fr")):
        svg = render_machiavelli_svg(board, position, language=language, orders=drawn, after=result.position)
        png = svg_to_png(svg)
        (IMAGES / f"map-machiavelli{suffix}.png").write_bytes(png)
        print(f"map-machiavelli{suffix}.png: {len(png) / 1024:.0f} KB")


if __name__ == "__main__":
    main()
