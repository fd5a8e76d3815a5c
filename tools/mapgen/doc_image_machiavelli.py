"""Draw the Renaissance game's picture of the docs (``docs/images/map-machiavelli.png``, and
``map-machiavelli-fr.png``) with the judge's renderer (:mod:`judge.maps.machiavelli_layer`).

The position is the summer of 1455 of a game written for the picture, read and checked by the
core (:func:`judge.core.machiavelli.serialization.position_from_json`): Florence besieges the
autonomous garrison of Siena and Turkey that of Ragusa; Austria has come down into Friuli and
Carniola; the Bosnians rebel against Turkey and Perugia (province and city) against the Papacy;
Mantua and Capua starve.

    .venv/bin/python tools/mapgen/doc_image_machiavelli.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judge.core.machiavelli.board import load_board  # noqa: E402
from judge.core.machiavelli.serialization import position_from_json  # noqa: E402
from judge.maps.machiavelli_layer import render_machiavelli_svg  # noqa: E402
from judge.maps.png import svg_to_png  # noqa: E402

IMAGES = ROOT / "docs" / "images"


def _units(power: str, *units: str) -> list[dict[str, str]]:
    return [{"power": power, "type": unit[0], "loc": unit[2:]} for unit in units]


SUMMER_1455 = {
    "variant": "machiavelli",
    "phase": "U1455M",
    "units": [
        *_units("AUSTRIA", "A FRI", "A CRN", "A TYR", "A HUN"),
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
            "SLA": "AUSTRIA",
            "FLO": "FLORENCE", "ARE": "FLORENCE", "PSA": "FLORENCE", "PST": "FLORENCE", "SIE": "FLORENCE",
            "AVI": "FRANCE", "MAR": "FRANCE", "PRO": "FRANCE", "SWI": "FRANCE", "TUR": "FRANCE", "SAV": "FRANCE",
            "MIL": "MILAN", "PAV": "MILAN", "CRE": "MILAN", "COM": "MILAN", "FOR": "MILAN", "PIA": "MILAN",
            "PAR": "MILAN", "BER": "MILAN", "MON": "MILAN", "MAN": "MILAN",
            "NAP": "NAPLES", "CAP": "NAPLES", "SLR": "NAPLES", "OTR": "NAPLES", "BAR": "NAPLES", "AQU": "NAPLES",
            "MES": "NAPLES", "PAL": "NAPLES",
            "RME": "PAPACY", "PER": "PAPACY", "PAT": "PAPACY", "SPO": "PAPACY", "URB": "PAPACY", "ANC": "PAPACY",
            "RMA": "PAPACY", "BOL": "PAPACY",
            "ALB": "TURKEY", "DUR": "TURKEY", "HER": "TURKEY", "BOS": "TURKEY", "TUN": "TURKEY", "RAG": "TURKEY",
            "VEN": "VENICE", "PAD": "VENICE", "TRV": "VENICE", "VIC": "VENICE", "VER": "VENICE", "BRE": "VENICE",
            "IST": "VENICE", "DAL": "VENICE", "FER": "VENICE",
            "GEN": "AUTONOMOUS", "LUC": "AUTONOMOUS", "PIO": "AUTONOMOUS", "SLZ": "AUTONOMOUS", "TRT": "AUTONOMOUS",
        },
        "cities": {
            "AUS": "AUSTRIA", "HUN": "AUSTRIA", "TYR": "AUSTRIA", "CRN": "AUSTRIA",
            "FLO": "FLORENCE", "ARE": "FLORENCE", "PSA": "FLORENCE",
            "AVI": "FRANCE", "MAR": "FRANCE", "SWI": "FRANCE", "TUR": "FRANCE", "SAV": "FRANCE",
            "MIL": "MILAN", "PAV": "MILAN", "CRE": "MILAN", "MON": "MILAN", "MAN": "MILAN",
            "NAP": "NAPLES", "BAR": "NAPLES", "MES": "NAPLES", "PAL": "NAPLES",
            "RME": "PAPACY", "PER": "PAPACY", "ANC": "PAPACY", "BOL": "PAPACY",
            "ALB": "TURKEY", "DUR": "TURKEY", "TUN": "TURKEY",
            "VEN": "VENICE", "PAD": "VENICE", "TRV": "VENICE", "DAL": "VENICE", "FER": "VENICE",
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


def main() -> None:
    board = load_board()
    position = position_from_json(board, SUMMER_1455)
    for language, suffix in (("en", ""), ("fr", "-fr")):
        png = svg_to_png(render_machiavelli_svg(board, position, language=language))
        (IMAGES / f"map-machiavelli{suffix}.png").write_bytes(png)
        print(f"map-machiavelli{suffix}.png: {len(png) / 1024:.0f} KB")


if __name__ == "__main__":
    main()
