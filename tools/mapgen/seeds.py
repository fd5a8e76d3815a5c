"""Where each province stands: approximate latitude and longitude (degrees) of the
place or sea a province stands for, as general geographic knowledge gives them.

A province without an entry is placed at the average of its neighbours
(``mapgen.place_seeds``); the growth and the repair rounds then adjust.
"""

from __future__ import annotations

# Europe, the codes of the Standard map (also 1898, Chaos, Fleet Rome; most of Youngstown).
# fmt: off
STANDARD: dict[str, tuple[float, float]] = {
    "NAO": (57, -24), "NWG": (68, 2), "BAR": (73, 38), "NTH": (56, 3), "IRI": (51.5, -8.5),
    "ENG": (49.8, -3), "MAO": (44, -17), "SKA": (57.9, 9.3), "HEL": (54.6, 7.2), "BAL": (56, 17.5),
    "BOT": (62, 20), "WES": (38.5, 3), "LYO": (42.3, 5.5), "TYS": (39.8, 12), "ION": (36.5, 18.5),
    "ADR": (43, 15.5), "AEG": (38.5, 25), "EAS": (34.5, 30), "BLA": (43.5, 34),
    "CLY": (57.3, -5), "EDI": (56.3, -2.6), "LVP": (54, -3.2), "YOR": (54, -0.8), "WAL": (52, -4.2),
    "LON": (51.4, 0.2), "NWY": (62, 8.5), "SWE": (61, 15.5), "FIN": (63.5, 27), "STP": (61, 36),
    "DEN": (56, 9.5), "MOS": (55, 39), "LVN": (57, 25), "WAR": (52, 21), "UKR": (49, 30),
    "SEV": (46, 40), "PRU": (54, 19), "BER": (52.7, 13.4), "KIE": (53.8, 10), "MUN": (48.7, 10.5),
    "SIL": (51, 17), "RUH": (51, 7.2), "HOL": (52.4, 5.3), "BEL": (50.6, 4.6), "PIC": (50, 1.8),
    "BRE": (48, -3), "PAR": (48.5, 2.3), "BUR": (47, 5.2), "GAS": (44, 0), "MAR": (43.7, 5.3),
    "SPA": (40, -3.7), "POR": (39.5, -8.2), "NAF": (33.5, -1), "TUN": (35, 9.5), "PIE": (45, 7.7),
    "VEN": (45.6, 11.6), "TUS": (43.4, 11), "ROM": (41.9, 12.8), "APU": (41.2, 16.2), "NAP": (39.8, 15.8),
    "TYR": (47, 12), "BOH": (50, 14.5), "VIE": (48, 16.3), "GAL": (49.5, 23.5), "BUD": (47, 20),
    "TRI": (45, 15.5), "SER": (43.8, 20.8), "RUM": (45.3, 26), "BUL": (42.7, 25.5), "GRE": (39.5, 22),
    "ALB": (41.2, 19.9), "CON": (41, 28.8), "ANK": (40, 33), "ARM": (40, 42), "SMY": (38.5, 29),
    "SYR": (35, 38),
}
# fmt: on

SHARED_STANDARD = {"standard", "1898", "chaos", "fleet_rome"}

TABLES: dict[str, dict[str, tuple[float, float]]] = {}


def positions(variant: str, provinces: dict) -> dict[str, tuple[float, float]]:
    if variant == "pure":
        return {}
    table = dict(TABLES.get(variant, {}))
    if variant in SHARED_STANDARD:
        return dict(STANDARD)
    return table


def weight(variant: str, code: str, entry: dict) -> float:
    return 1.15 if entry.get("terrain") == "water" else 1.0


def canvas(variant: str) -> dict[str, int]:
    if variant in ("world", "youngstown", "modern", "colonial"):
        return {"target_width": 1600, "cell": 5}
    if variant == "pure":
        return {"target_width": 600, "cell": 5}
    return {"target_width": 1200, "cell": 5}
