"""Where each province stands: approximate latitude and longitude (degrees) of the
place or sea a province stands for, as general geographic knowledge gives them.

A province without an entry is placed at the average of its neighbours
(``mapgen.place_seeds``); the growth and the repair rounds then adjust.
"""

from __future__ import annotations

import math

# Europe, the codes of the Standard map (also 1898, Chaos, Fleet Rome; most of Youngstown).
# fmt: off
STANDARD: dict[str, tuple[float, float]] = {
    "NAO": (57, -24), "NWG": (68, 2), "BAR": (73, 38), "NTH": (56, 3), "IRI": (51.5, -7),
    "ENG": (49.8, -3), "MAO": (44, -17), "SKA": (57.9, 9.3), "HEL": (54.6, 7.2), "BAL": (56, 17.5),
    "BOT": (62, 20), "WES": (38.5, 3), "LYO": (42.3, 5.5), "TYS": (39.8, 12), "ION": (36.5, 18.5),
    "ADR": (43, 15.5), "AEG": (38.5, 25), "EAS": (34.5, 30), "BLA": (43.5, 34),
    "CLY": (57.2, -5.5), "EDI": (56.5, -2.8), "LVP": (54, -3.2), "YOR": (54, -0.8), "WAL": (52, -4.2),
    "LON": (51.4, 0.2), "NWY": (62, 8.5), "SWE": (61, 15.5), "FIN": (62.5, 26), "STP": (61, 36),
    "DEN": (56, 9.5), "MOS": (55, 39), "LVN": (57, 25), "WAR": (52, 21), "UKR": (49.5, 30),
    "SEV": (46.5, 36), "PRU": (54, 19), "BER": (52.7, 13.4), "KIE": (53.8, 10), "MUN": (48.7, 10.5),
    "SIL": (51, 17), "RUH": (51, 7.2), "HOL": (52.4, 5.3), "BEL": (50.6, 4.6), "PIC": (50, 1.8),
    "BRE": (48, -3), "PAR": (48.5, 2.3), "BUR": (47, 5.2), "GAS": (44, 0), "MAR": (43.7, 5.3),
    "SPA": (40, -3.7), "POR": (39.5, -8.2), "NAF": (33.5, -1), "TUN": (35, 9.5), "PIE": (45, 7.7),
    "VEN": (45.6, 11.6), "TUS": (43.4, 11), "ROM": (41.9, 12.8), "APU": (41.2, 16.2), "NAP": (39.8, 15.8),
    "TYR": (47, 12), "BOH": (50, 14.5), "VIE": (48.2, 16.8), "GAL": (49.3, 22.3), "BUD": (46.8, 20.3),
    "TRI": (45, 15.5), "SER": (43.2, 21.3), "RUM": (45.5, 26.5), "BUL": (42.7, 25.5), "GRE": (40, 22),
    "ALB": (41.2, 19.9), "CON": (41, 28.8), "ANK": (40, 33), "ARM": (40, 42), "SMY": (38.5, 29),
    "SYR": (35, 38),
}
# fmt: on

# More seeds for provinces whose shape one point cannot give (long coasts, wide oceans).
EXTRA_STANDARD: dict[str, list[tuple[float, float]]] = {
    "STP": [(67.5, 36)],
    "NAO": [(56.5, -11)],
    "NWG": [(61.5, -3)],
    "NWY": [(69.3, 17)],
    "FIN": [(67.5, 25.5)],
}

# Standard's Britain (issue 28: Liverpool was a sliver between Yorkshire's and Wales's seeds):
# the board's shapes, not the towns' points: Clyde the west and the Highlands, Edinburgh the east of
# Scotland, Liverpool the north-west of England from the Scottish border to Wales, Yorkshire the
# north-east, Wales, London the south-east. Britain is also drawn larger (``MAGNIFIERS``).
BRITAIN_STANDARD: dict[str, tuple[float, float]] = {
    "CLY": (56.9, -4.9), "EDI": (56.3, -3.0), "LVP": (54.3, -2.8), "YOR": (53.9, -1.0),
    "WAL": (52.3, -3.7), "LON": (51.6, -0.2),
}  # fmt: skip
EXTRA_BRITAIN: dict[str, list[tuple[float, float]]] = {"CLY": [(58.0, -5.0)], "EDI": [(57.2, -2.4)]}

SHARED_STANDARD = {"standard", "1898", "chaos", "fleet_rome", "france_austria", "germany_italy", "england_turkey"}

TABLES: dict[str, dict[str, tuple[float, float]]] = {}


def extra(variant: str) -> dict[str, list[tuple[float, float]]]:
    if variant in SHARED_STANDARD:
        return {**EXTRA_STANDARD, **EXTRA_BRITAIN}
    if variant == "youngstown":
        return {**EXTRA_STANDARD, "SIB": [(63, 140)], "SCS": [(9, 112)]}
    return dict(EXTRAS.get(variant, {}))


EXTRAS: dict[str, dict[str, list[tuple[float, float]]]] = {
    "modern": {
        "MUR": [(68, 50)],
        "NWG": [(62, -3)],
        "CAS": [(45.5, 50.5)],
        "NAO": [(56.5, -11)],
        "URA": [(67, 62)],
    },
    "colonial": {"YEL": [(38.8, 120.5)]},
    "world": {
        "NPO": [(50, -150)],
        "PIS": [(-15, -170)],
        "NWA": [(8, -45)],
        "WAO": [(-33, -45)],
        "NEA": [(30, -35)],
    },
}

# Seas the land mask counts as land (below sea level or endorheic): boxes of (lat, lat, lon, lon).
LAKES: list[tuple[float, float, float, float]] = [
    (37.0, 42.5, 49.0, 54.0),  # Caspian, south
    (42.5, 46.8, 47.0, 53.5),  # Caspian, north
]


def no_province(variant: str) -> list[tuple[float, float, float, float]]:
    """Land that is no province, kept void (lat, lat, lon, lon boxes; only land cells count)."""
    if variant in SHARED_STANDARD:
        return [(51.3, 55.5, -10.7, -5.9)]  # Ireland
    if variant == "machiavelli":  # beyond the board: Greece, Serbia, Algeria and Libya, Languedoc
        return [(30.0, 41.6, 20.4, 30.0), (41.6, 45.0, 19.6, 30.0), (30.0, 38.5, -10.0, 8.6), (30.0, 35.6, 8.6, 20.0), (40.0, 48.0, 0.0, 4.3)]
    return []


def positions(variant: str, provinces: dict) -> dict[str, tuple[float, float]]:
    if variant == "pure":
        return {code: STANDARD[code] for code in provinces}
    table = dict(TABLES.get(variant, {}))
    if variant in SHARED_STANDARD:
        return {**STANDARD, **BRITAIN_STANDARD}
    return table


def uses_land_mask(variant: str) -> bool:
    """Pure has no seas: its seven capitals share the continent among themselves."""
    return variant != "pure"


def weight(variant: str, code: str, entry: dict) -> float:
    if variant == "machiavelli" and code == "VEN":
        return 0.3  # Venice is its islands in the lagoon, no more
    return 1.15 if entry.get("terrain") == "water" else 1.0


# A fisheye for the Standard board (as the published board does, Central Europe gets the room
# the Atlantic, the Arctic and Russia do not need) and for Modern's: on the Mercator plane, a
# point at elliptic distance r from the centre (radii RX, RY, in radians) moves along its ray to
# r (1 + A) / (1 + A r).
# Smooth and monotone along every ray, so it keeps every border and every contact; the centre is
# enlarged 1 + A times, the edges shrunk.
FISHEYE: dict[str, tuple[float, float, float, float, float]] = {
    # variant: (centre latitude, centre longitude, RX, RY, A)
    **{name: (50.0, 12.0, 0.8, 0.5, 1.2) for name in SHARED_STANDARD},
    "modern": (46.0, 16.0, 0.9, 0.5, 1.0),
    # Known World 901: Europe, the Mediterranean and the Near East get the room Siberia does not need.
    "known_world_901": (45.0, 15.0, 1.0, 0.55, 1.0),
}


def _fisheye(variant: str, lat: float, lon: float, inverse: bool) -> tuple[float, float]:
    lat0, lon0, rx, ry, a = FISHEYE[variant]

    def merc(phi: float) -> float:
        phi = max(-89.0, min(89.0, phi))
        return math.log(math.tan(math.pi / 4 + math.radians(phi) / 2))

    x0, y0 = math.radians(lon0), merc(lat0)
    dx, dy = math.radians(lon) - x0, merc(lat) - y0
    r = math.hypot(dx / rx, dy / ry)
    if r == 0:
        return lat, lon
    if inverse:
        # r = r' / (1 + A - A r'); beyond r' = (1 + A) / A lies nothing: a far point
        den = 1 + a - a * r
        scale = 1 / den if den > 1e-3 else 1e3
    else:
        scale = (1 + a) / (1 + a * r)
    x, y = x0 + dx * scale, max(-10.0, min(10.0, y0 + dy * scale))  # a far point stays finite
    return math.degrees(2 * math.atan(math.exp(y)) - math.pi / 2), math.degrees(x)


# Places the board must show beyond its outermost seeds (the canvas is fitted to the seeds and
# these, 5% margin round): Standard's Armenia and Syria reach to about 46 E, past Armenia's seed.
EXTENT: dict[str, list[tuple[float, float]]] = {
    **{name: [(40.0, 46.0), (34.0, 44.0)] for name in SHARED_STANDARD},
}


def extent(variant: str) -> list[tuple[float, float]]:
    return list(EXTENT.get(variant, []))


# Youngstown's board gives Europe and the Far East more room than inner Asia, as the published
# board does, and halves the far north: each axis is bent by a monotone piecewise-linear map (so
# no border or contact changes), in degrees before the projection (each piece's start and slope;
# Greenwich and the equator stay put). Issue 28 (half the picture was empty ocean): the Atlantic
# west of 12 W and everything south of the equator (southern Africa, the off-board spaces, the
# southern oceans) are drawn 0.4 as wide or tall, so the rest is 10% larger on a board 60 px less
# tall. Bent harder (Europe 1.5-1.9 times wider), the regions grown lost contacts (32 to 35
# crossings, some in Europe: Denmark and the North Sea, Rome and Venice, Rumania and Sevastopol) and
# squeezed India and Indochina until their units and labels covered one another.
YOUNGSTOWN_LON: list[tuple[float, float]] = [(-180.0, 0.4), (-12.0, 1.0), (35.0, 0.45), (100.0, 0.8)]
YOUNGSTOWN_LAT: list[tuple[float, float]] = [(-90.0, 0.4), (0.0, 1.0), (55.0, 0.5)]


def _bend(pieces: list[tuple[float, float]], value: float, inverse: bool) -> float:
    """``pieces``' monotone map, fixed at 0 (the equator, Greenwich), or its inverse."""

    def forward(v: float) -> float:
        out = 0.0
        for index, (at, slope) in enumerate(pieces):
            end = pieces[index + 1][0] if index + 1 < len(pieces) else math.inf
            out += (min(v, end) - at) * slope
            if v <= end:
                return out
        return out

    zero = forward(0.0)
    if not inverse:
        return forward(value) - zero
    low, high = -1000.0, 1000.0
    for _ in range(80):
        middle = (low + high) / 2
        low, high = (middle, high) if forward(middle) - zero < value else (low, middle)
    return (low + high) / 2


# Local magnifiers, applied after the fisheye (issue 28: Britain's six provinces were slivers, as
# Liverpool and Wales): on the warped Mercator plane, a point at distance r < R (radians) from the
# centre moves along its ray to r (1 + A (1 - r/R)^2); beyond R nothing moves. Monotone along every
# ray for A < 3 (so it keeps every border and contact): the centre is 1 + A times larger, the ring
# near 2R/3 (the seas round it) 1 - A/3 times narrower.
MAGNIFIERS: dict[str, list[tuple[float, float, float, float]]] = {
    # variant: [(centre latitude, centre longitude, R, A)]
    **{name: [(54.5, -3.0, 0.25, 0.7)] for name in SHARED_STANDARD},
}


def _merc(phi: float) -> float:
    phi = max(-89.0, min(89.0, phi))
    return math.log(math.tan(math.pi / 4 + math.radians(phi) / 2))


def _unmerc(y: float) -> float:
    return math.degrees(2 * math.atan(math.exp(y)) - math.pi / 2)


def _magnify(variant: str, lat: float, lon: float, inverse: bool) -> tuple[float, float]:
    lenses = MAGNIFIERS.get(variant, [])
    for lat0, lon0, radius, a in reversed(lenses) if inverse else lenses:
        clat, clon = _fisheye(variant, lat0, lon0, inverse=False) if variant in FISHEYE else (lat0, lon0)
        x0, y0 = math.radians(clon), _merc(clat)
        dx, dy = math.radians(lon) - x0, _merc(lat) - y0
        r = math.hypot(dx, dy)
        if r == 0 or r >= radius:
            continue

        def out(q: float, radius: float = radius, a: float = a) -> float:
            return q * (1 + a * (1 - q / radius) ** 2)

        if inverse:
            low, high = 0.0, radius
            for _ in range(60):
                middle = (low + high) / 2
                low, high = (middle, high) if out(middle) < r else (low, middle)
            scale = (low + high) / 2 / r
        else:
            scale = out(r) / r
        lat, lon = _unmerc(y0 + dy * scale), math.degrees(x0 + dx * scale)
    return lat, lon


def warp(variant: str, lat: float, lon: float) -> tuple[float, float]:
    """Youngstown's board gives Europe and the Far East more room than inner Asia
    (``YOUNGSTOWN_LON``, ``YOUNGSTOWN_LAT``); the Standard and Modern boards enlarge Central
    Europe (``FISHEYE``) and Standard's Britain (``MAGNIFIERS``)."""
    if variant in FISHEYE:
        return _magnify(variant, *_fisheye(variant, lat, lon, inverse=False), inverse=False)
    if variant != "youngstown":
        return lat, lon
    return _bend(YOUNGSTOWN_LAT, lat, False), _bend(YOUNGSTOWN_LON, lon, False)


def unwarp(variant: str, lat: float, lon: float) -> tuple[float, float]:
    if variant in FISHEYE:
        return _fisheye(variant, *_magnify(variant, lat, lon, inverse=True), inverse=True)
    if variant != "youngstown":
        return lat, lon
    return _bend(YOUNGSTOWN_LAT, lat, True), _bend(YOUNGSTOWN_LON, lon, True)


def projection(variant: str) -> str:
    """Mercator for the regional maps; plate carree for the world (Antarctica stays a strip)."""
    return "plate" if variant == "world" else "mercator"


def canvas(variant: str) -> dict[str, float]:
    # Widths keep a board near 1.2 million pixels: the PNG's time and size grow with its pixels.
    if variant == "world":  # grown as wide as before (its contacts), written at 1512 wide
        return {"target_width": 1800, "cell": 5, "rounds": 1, "scale": 0.84}
    if variant == "youngstown":  # grown as wide as before (its contacts), written at 1400 wide
        return {"target_width": 1800, "cell": 5, "rounds": 1, "scale": 7 / 9}
    # (a finer grid where the width shrank, to keep room for the small provinces' contacts)
    if variant == "modern":
        return {"target_width": 1200, "cell": 4, "rounds": 6}
    if variant == "colonial":  # grown as wide as before (its contacts), written at 1280 wide
        return {"target_width": 1600, "cell": 5, "rounds": 4, "scale": 0.8}
    if variant == "known_world_901":  # Europe's small provinces need the width; written at 1350 wide
        return {"target_width": 1800, "cell": 5, "rounds": 4, "scale": 0.8}
    if variant == "pure":
        return {"target_width": 600, "cell": 5}
    if variant == "machiavelli":
        return {"target_width": 1100, "cell": 4, "rounds": 6}
    return {"target_width": 1200, "cell": 5}


# fmt: off
TABLES["ancmed"] = {
    "ADR": (43, 15.5), "AEG": (38.8, 25), "ALE": (30.8, 29.5), "ANT": (36.2, 36.6), "APU": (41, 16),
    "ARA": (29, 40), "ARM": (40, 42), "ATH": (38.2, 23.2), "AUS": (37.5, 16.5), "BAL": (39.6, 2.9),
    "BAY": (18.5, 33), "BER": (37.5, 5), "BIT": (40.8, 30.5), "BLA": (43.5, 34), "BYZ": (41.3, 27.5),
    "CAP": (38.7, 35.5), "CAR": (36.2, 9.8), "CHE": (45.2, 34), "CIL": (35.8, 32), "CIR": (36.2, 5.2),
    "COR": (42.1, 9.1), "CRE": (35.2, 24.8), "CYP": (35.1, 33.2), "CYR": (32.2, 21.5), "DAC": (45.5, 25),
    "DAL": (43.8, 17.5), "DAM": (33.5, 37.5), "EGY": (33.2, 28.5), "EPI": (39.7, 20.6), "ETR": (43.2, 11.3),
    "GAL": (39.5, 33), "GAU": (46.5, 3), "GOP": (31.8, 32.5), "GOS": (31.8, 18.5), "GOT": (34.3, 13),
    "IBE": (36.7, -1), "ILL": (44.8, 19.5), "ION": (38.3, 19.2), "ISA": (37.2, 32.6), "JER": (31.8, 35.2),
    "LEP": (31.2, 13.5), "LIB": (33.5, 22.5), "LIG": (42.5, 6.5), "LUS": (39.5, -8), "MAC": (40.9, 22.5),
    "MAR": (30, 25.5), "MAS": (43.8, 5), "MAU": (34.5, -4), "MEM": (28, 31), "MES": (36, 20.5),
    "MIL": (37.8, 27.8), "MIN": (34.5, 26.3), "NAB": (30, 36.5), "NEA": (40.5, 15.2), "NUM": (33.5, 8),
    "PET": (27.5, 35.5), "PHA": (26.5, 14.5), "PUN": (38, 10.5), "RAV": (44.4, 12.2), "REE": (24, 36.5),
    "RHA": (47, 10), "ROM": (41.9, 12.8), "SAD": (40.1, 9), "SAG": (39.7, -0.6), "SAH": (27.5, 3),
    "SAM": (47.5, 31), "SIC": (37.5, 14.2), "SID": (34.2, 36.3), "SIN": (29.8, 33.8), "SIP": (41.5, 35),
    "SPA": (37.1, 22.4), "SYR": (33.8, 34.5), "TAR": (42, -1.5), "THA": (35.5, 10.7), "THB": (25.7, 32.6),
    "TYE": (33.2, 35.7), "TYN": (40.3, 12.2), "VEN": (45.5, 12), "VIN": (47.8, 16.5),
}

TABLES["modern"] = {
    "ADA": (37, 35.3), "ADL": (37.5, -4.5), "ADR": (43, 15.5), "AEG": (38.8, 25), "ALB": (41.2, 20),
    "ALE": (30.8, 29.5), "ALG": (31, 2), "ALS": (48.3, 7.4), "ANA": (39, 31), "ANK": (40.3, 33.5),
    "APU": (41, 16.2), "ARA": (15, 62), "ARC": (73, 12), "ARM": (40.2, 44.8), "ASW": (24, 32.8),
    "AUS": (47.5, 14.5), "AUV": (45.5, 3), "AZE": (40.4, 48), "BAL": (58, 20), "BAR": (41.5, 1.8),
    "BEL": (50.7, 4.6), "BER": (52.5, 13.4), "BHM": (55, 15.5), "BIE": (53.7, 28), "BIS": (45.5, -5.5),
    "BOR": (44.5, -0.5), "BOS": (44, 18), "BRI": (48.2, -3), "BRN": (71, 42), "BUL": (42.7, 25.3),
    "CAI": (30, 31.2), "CAS": (42, 51), "CAU": (43.5, 43.5), "CLY": (57.2, -5.2), "CRO": (45.5, 16),
    "CRP": (52, 37), "CZE": (49.8, 15.4), "DEN": (56, 9.5), "DON": (48, 38), "EBS": (43, 37),
    "EDI": (56.5, -2.8), "EME": (34, 30), "ENG": (49.8, -3), "ESA": (26, 27), "EST": (58.7, 25.5),
    "FIN": (63, 26), "FRA": (50.1, 8.7), "GDA": (54.3, 18.8), "GEO": (42, 43.5), "GIB": (36, -5.5),
    "GOB": (62, 20), "GOL": (42.5, 5), "GOR": (58.5, 45), "GRE": (39.5, 22), "HAM": (53.5, 10),
    "HEL": (54.5, 7.5), "HOL": (52.3, 5.3), "HUN": (47.2, 19.5), "ICE": (64.9, -18.5), "ION": (37, 18.5),
    "IRE": (53.2, -8), "IRI": (52.5, -5.5), "IRK": (33, 43.7), "IRN": (33, 53), "ISR": (31.5, 34.9),
    "IST": (41.1, 28.5), "IZM": (38.4, 27.8), "JOR": (31, 36.5), "KAZ": (47, 58), "KHA": (50, 36.2),
    "KIE": (50.4, 30.5), "KRA": (50.1, 20), "LAP": (68, 24), "LAT": (56.9, 24.6), "LBN": (33.5, 20),
    "LIB": (27, 13), "LIG": (43.5, 8.7), "LIT": (55, 23.5), "LIV": (53.8, -2.7), "LON": (51.5, 0),
    "LYO": (45.8, 4.8), "MAC": (41.5, 21.7), "MAD": (40.4, -3.7), "MAL": (35.5, 14.5), "MAR": (43.5, 5.5),
    "MID": (43, -15), "MIL": (45.5, 9.2), "MOL": (47.6, 28), "MON": (43.7, 7.4), "MOR": (32, -6),
    "MOS": (55.8, 37.6), "MUN": (48.1, 11.6), "MUR": (67.5, 33.5), "NAO": (57, -25), "NAP": (40.9, 15.2),
    "NAV": (42.8, -1.6), "NTH": (56, 3), "NWG": (67, 3), "NWY": (62, 9), "ODE": (46.3, 30.3),
    "PAR": (48.9, 2.3), "PER": (27, 51), "PIC": (50, 2.3), "PIE": (45, 7.7), "POD": (49, 27),
    "POR": (39.5, -8.2), "PRU": (53.6, 16), "RED": (20, 39), "ROM": (41.9, 12.8), "ROS": (47.2, 40),
    "RUH": (51.4, 7.2), "RUM": (45.3, 25.5), "SAO": (30, -15), "SAU": (24, 45), "SAX": (51.2, 12.8),
    "SER": (44, 20.8), "SEV": (44.7, 34), "SIB": (62, 68), "SIL": (51, 17), "SIN": (29.5, 33.8),
    "SKA": (57.9, 9.3), "SLK": (48.7, 19.5), "SOG": (36, -6.5), "STP": (59.9, 30.3), "SVE": (37.4, -6),
    "SWE": (61, 15.5), "SWI": (46.8, 8.2), "SYR": (35, 38.5), "TUN": (34.5, 9.5), "TUS": (43.4, 11),
    "TYR": (39.8, 12), "URA": (58, 56), "VEN": (45.5, 12), "VOL": (51.5, 46.5), "WAL": (52.3, -3.6),
    "WAR": (52.2, 21), "WBS": (43.3, 30.5), "WHI": (66, 38.5), "WME": (38.5, 4), "WSA": (25, -10),
    "YOR": (54, -1),
}

TABLES["colonial"] = {
    "ABY": (9, 39), "ADE": (13, 45), "AFG": (34, 66), "AKI": (39.7, 140.1), "AKM": (51, 71.5),
    "AND": (11, 96), "ANG": (39.9, 32.9), "ANN": (16, 107.5), "ARB": (24, 47), "ARM": (40.2, 44.5),
    "ARS": (15, 63), "ASS": (26.2, 92.5), "BAG": (33.3, 44.4), "BAK": (40.4, 49.9), "BAN": (13.8, 100.5),
    "BEN": (23, 88.5), "BLA": (43.5, 34), "BOB": (15, 88), "BOK": (39.8, 64.4), "BOM": (19, 73),
    "BOR": (-1, 114), "BUR": (24, 96), "CAM": (12, 105), "CAN": (23.1, 113.3), "CEB": (10.3, 123.9),
    "CEL": (-2, 120.5), "CEY": (7.9, 80.7), "CHU": (29.6, 106.5), "CLS": (3, 124), "COC": (10, 106.5),
    "CON": (41, 28.9), "DAV": (7.1, 125.6), "DEL": (28.6, 77.2), "ECS": (29, 125), "EGY": (27, 30),
    "EIO": (-3, 85), "ERI": (15.3, 39), "FOR": (23.7, 121), "FUS": (35.1, 129), "GOA": (12.5, 49),
    "GOM": (8.5, 79), "GOS": (10, 102), "HON": (22.3, 114.2), "HYD": (17.4, 78.5), "IRK": (54, 104),
    "JAV": (-7.5, 110), "JVS": (-5, 110), "KAG": (39.5, 76), "KAM": (34.1, 75.5), "KAR": (25, 67.5),
    "KIR": (46, 62), "KRA": (58, 93), "KYO": (35.2, 135.8), "KYU": (33, 131), "LAN": (36, 103.8),
    "LOW": (-10, 140), "LUC": (26.8, 81), "LUZ": (20, 121.5), "MAC": (45.5, 126.5), "MAD": (13, 80),
    "MAL": (4, 101.5), "MAY": (21.9, 96), "MEC": (21.4, 39.8), "MED": (34, 28), "MID": (15, 140),
    "MNA": (15, 121), "MON": (47, 103), "MOS": (55.8, 37.6), "MYS": (12.3, 76.6), "NAG": (21.1, 79),
    "NAN": (28.7, 115.9), "NEP": (28, 84), "NEW": (-5, 141), "ODE": (46.5, 30.7), "OKH": (54, 148),
    "OMA": (21, 57), "OMS": (55, 73.4), "ORE": (51.8, 55.1), "OTA": (43.2, 141), "PEK": (39.9, 116.4),
    "PER": (33, 56), "PGF": (27, 51), "POR": (38.8, 121.3), "PRM": (58, 56.2), "PUN": (31, 73),
    "RAJ": (26.5, 73.5), "RAN": (16.8, 96.2), "RED": (20, 38.5), "RUM": (45.3, 25.5), "SAK": (50, 142.7),
    "SAR": (2, 112.5), "SCS": (14, 114), "SEM": (50.4, 80.2), "SEO": (37.5, 127), "SHA": (31.2, 121.5),
    "SHI": (30.5, 49.5), "SIA": (18.8, 99), "SIK": (42, 86), "SIN": (1.35, 103.8), "SIO": (-25, 100),
    "SOJ": (40, 135), "SOM": (6, 46), "SUD": (15, 30), "SUL": (8, 120), "SUM": (0, 101.5),
    "SUN": (-6, 125), "SYR": (34, 38), "TAB": (38.1, 46.3), "TAS": (41.3, 69.2), "TIB": (31, 89),
    "TIM": (-11, 125), "TOK": (35.7, 139.7), "TON": (21, 105.8), "UPP": (40, 160), "URU": (43.8, 87.6),
    "VLA": (43.1, 131.9), "WIO": (0, 62), "YEL": (35.5, 123.5), "YUN": (25, 102.7),
}
# fmt: on

# fmt: off
TABLES["world"] = {
    "AFG": (34, 66), "AHU": (47.5, 17), "ALA": (64, -152), "ALB": (54, -115), "ALG": (28, 3),
    "AMA": (-4, -62), "ANG": (-12, 17.5), "AOC": (82, 0), "APE": (-68, -64), "ARM": (40.2, 44.8),
    "ASE": (15, 63), "BAI": (-34.6, -60), "BAL": (43, 22), "BAN": (24, 90), "BAR": (73, 40),
    "BAS": (57, 19), "BAT": (-78, -50), "BCO": (54, -125), "BEI": (39.9, 116.4), "BEL": (53.7, 28),
    "BFS": (72, -140), "BHO": (-19.9, -44), "BIS": (70, -72), "BLA": (43.5, 34), "BOB": (15, 88),
    "BOL": (-17, -64), "BOM": (19, 74), "BOT": (-22, 24), "BRA": (-14, -48), "BRS": (64, -172),
    "BST": (56.5, 24), "BUR": (21, 96), "CAM": (5, 12), "CAR": (6.5, 20.5), "CAS": (-66.3, 110.5),
    "CEN": (14, -87), "CHA": (15, 19), "CHI": (-33, -71), "CIS": (19, -72), "CLC": (22.6, 88.4),
    "CLF": (37, -121), "COL": (4, -73), "CON": (-1, 15.5), "CPO": (15, -160), "CSE": (15, -75),
    "DEL": (28.6, 77.2), "DMV": (-66.7, 140), "DSO": (33, -86), "EAO": (5, -12), "EGY": (26.5, 30),
    "EPA": (-10, -100), "ESI": (63, 105), "ESS": (75, 165), "ETH": (8.5, 39.5), "FLO": (29, -82),
    "FRA": (46.5, 2.5), "GBR": (53, -1.5), "GER": (51, 10), "GHA": (7.5, -1), "GOD": (64, -45),
    "GOM": (25, -90), "GUA": (23.1, 113.3), "GUI": (10, -11), "GUY": (5, -58.5), "HBA": (60, -85),
    "HEI": (47.5, 128), "IMO": (42, 112), "IND": (-3, 115), "IRA": (32.5, 53.5), "IRK": (55, 108),
    "IRQ": (33, 44), "ITA": (42.5, 12.5), "ITE": (47, -120), "JAP": (36, 138.5), "JSE": (-5, 110),
    "KAM": (58, 160), "KAZ": (48, 67), "KEN": (0.5, 38), "KOR": (37, 127.5), "KYR": (41.5, 74.5),
    "LAN": (36, 103.8), "LEN": (-69.5, 159), "LIB": (27, 17), "LSE": (57, -55), "MAD": (-19, 46.7),
    "MAL": (17.5, -4), "MAN": (55, -97), "MAU": (20, -10.5), "MAW": (-67.6, 62.9), "MBL": (-78, -130),
    "MCH": (-18, 41), "MED": (36, 18), "MEN": (-34, -68.5), "MEX": (22, -102), "MID": (42, -94),
    "MNG": (47, 103), "MNT": (29, -108), "MOR": (31.8, -7), "MOS": (53, 40), "MOZ": (-18, 35.5),
    "NAM": (-22, 17), "NDE": (-80, 40), "NEA": (45, -25), "NEI": (0, 85), "NEP": (15, -112),
    "NEV": (38, -111), "NEW": (49, -56.5), "NGA": (9, 8), "NGR": (17, 9.5), "NOV": (-70.8, 11.8),
    "NPO": (42, 170), "NSU": (17, 31), "NSW": (-32, 147), "NTE": (-19.5, 133), "NTH": (56, 3),
    "NWA": (25, -55), "NWG": (66, -8), "NWI": (0, 60), "NWP": (32, 150), "NWT": (65, -120),
    "NZE": (-41, 174), "OMS": (55, 73.4), "ONT": (50, -85), "PAK": (30, 70), "PER": (-10, -75.5),
    "PHI": (12, 122), "PIS": (-5, 170), "POL": (52, 19.5), "QBC": (52, -72), "QSL": (-22, 145),
    "RDJ": (-22.9, -43.2), "REC": (-8, -35), "RIS": (-82, -175), "RSE": (20, 38.5), "SAF": (-30, 24),
    "SAL": (-13, -38.5), "SAN": (-72, -2.8), "SAO": (-23.5, -46.6), "SAR": (24, 45), "SAS": (54, -106),
    "SAU": (-30, 135), "SCA": (63, 15), "SCR": (-49, -69), "SCS": (14, 114), "SEA": (-45, 0),
    "SEI": (-50, 115), "SEP": (-52, -95), "SHA": (31.2, 121.5), "SHO": (-69, 39.6), "SIO": (-50, 70),
    "SOJ": (40, 135), "SOM": (5, 46), "SOO": (53, 150), "SOP": (-88, 0), "SPA": (40, -3.7),
    "SPO": (-50, -140), "SSU": (7.5, 30), "STP": (59.9, 30.3), "SWA": (-45, -45), "SWI": (-35, 50),
    "SWP": (-55, 165), "SYR": (34.8, 38.5), "TAJ": (38.8, 71), "TAN": (-6.5, 35), "TEX": (31, -99),
    "THA": (15, 101), "THU": (77.5, -69), "TIB": (31.5, 88), "TKM": (39, 59.5), "TRK": (39, 35),
    "TSE": (-38, 158), "UGA": (1.5, 32.3), "UKR": (49, 32), "UNI": (40, -77), "URA": (-32.5, -56),
    "VEN": (7, -66), "VIC": (-37.5, 144.5), "VIE": (16, 107.5), "VLA": (50, 135), "VOS": (-78.5, 106.8),
    "WAO": (-15, -28), "WAU": (-25, 121), "WCH": (38, 85), "WPO": (12, 135), "WSI": (60, 70),
    "YAK": (63, 130), "YSE": (36, 123), "YTE": (63, -135), "ZAI": (-4, 24), "ZAM": (-14, 28),
    "ZIM": (-19, 30), "UZB": (41.5, 64),
}

# Known World 901: the places of the year 901 (Europe, Africa, Asia), by their present-day positions.
# fmt: off
TABLES["known_world_901"] = {
    "MUN": (52.3, -8.6), "DUB": (53.6, -6.6), "CLD": (57.2, -4.4), "JOR": (54.2, -1.4), "WLS": (52.3, -3.7),
    "WSX": (51.2, -1.4), "ICS": (63.5, -12), "WSS": (53.8, -5), "NGS": (57, 3), "SGS": (53.6, 3.8),
    "BRC": (50, -2.5), "NOS": (47, -12), "CAS": (44.6, -5), "SWO": (40, -24), "STA": (35, -10.5),
    "TAS": (22, -21), "WTS": (3, -24), "SOS": (-1, 2), "ATS": (-38, 22), "GOS": (-26, 38.5),
    "MES": (-9, 45), "GAD": (12.5, 51), "SUS": (-22, 80), "MAS": (8, 69), "ARS": (20, 62.5),
    "MIS": (-4, 94), "ANS": (10, 94.5), "CIB": (15, 86.5), "KRS": (-2.5, 107.5), "JAS": (-5.5, 113),
    "SCH": (12, 112), "STP": (20, 118.5), "LUS": (15, 128), "EAS": (29, 125), "YES": (36, 123.3),
    "SNI": (40, 134), "NOR": (62, 8), "UPP": (60.5, 17), "VIK": (59.3, 10.5), "GOT": (57.6, 14.5),
    "SCA": (55.9, 13.6), "KAT": (57, 11.2), "ABS": (54.8, 12.5), "LES": (56.5, 19), "FIS": (60.3, 23.5),
    "WHS": (72, 48), "SAA": (68, 24), "KAR": (63, 32), "EST": (58.8, 25.5), "LIV": (57, 25),
    "BOR": (54.5, 21), "POM": (53.8, 15.5), "JLN": (56.1, 9.2), "BRE": (53.1, 8.8), "FRI": (52.9, 6.3),
    "NOV": (58.5, 31.3), "LOT": (50.5, 5.5), "PAR": (49, 2.3), "BRI": (48.1, -3), "AQT": (46, 0.3),
    "BJA": (64, 42), "KOR": (63, 54), "YUG": (63, 68), "TUN": (63, 95), "MER": (50, 112),
    "SAX": (51.5, 11.6), "POL": (52.3, 17), "MAZ": (52.3, 21), "DRE": (53, 28), "SMO": (54.8, 32),
    "FRA": (50, 9.6), "SWA": (48.5, 9), "BAV": (48.3, 12.5), "MOR": (49.3, 17), "ROS": (57.2, 39.4),
    "KRI": (56.3, 35), "KIE": (50.5, 30.5), "VOL": (50.8, 25.5), "VLA": (45, 26), "ONO": (47, 19.8),
    "SLA": (45.5, 17.2), "MAC": (41.8, 22), "THR": (42.5, 27), "CON": (41, 29), "DAL": (43.8, 17.5),
    "EPI": (39.7, 20.8), "AQU": (45.8, 13.4), "SPO": (42.7, 13), "TAR": (40.5, 17), "SLR": (40.6, 15.5),
    "LOM": (45.4, 9.5), "HEL": (46.8, 8), "UBU": (47, 6), "AUT": (46.9, 4.3), "NAR": (43.2, 3),
    "LBU": (44, 5.3), "TOU": (43.6, 1.4), "GAS": (43.8, -0.5), "SPM": (41.6, 1.8), "VAL": (39.5, -0.6),
    "CRS": (42.1, 9.1), "SAR": (40.1, 9), "SIC": (37.5, 14.2), "CRE": (35.2, 24.8), "CYP": (35.1, 33.2),
    "PAM": (42.8, -1.6), "AST": (43.3, -5.8), "GAL": (42.6, -8.3), "ZAR": (41.6, -1), "TOL": (39.9, -4),
    "GRA": (37, -3.6), "COR": (37.9, -4.8), "SAL": (41, -6), "CAD": (38.5, -8.3), "CHS": (44.8, 34),
    "STB": (60, 59), "UDM": (57, 53), "BUL": (55, 49), "CHE": (57, 46), "MAU": (34.5, -4.5),
    "KUT": (36, 5.5), "VYA": (54, 37), "SEV": (52, 34), "MRD": (54, 44), "WES": (43.5, 30.5),
    "EES": (43, 37), "AES": (38.8, 25), "CIS": (35.8, 30), "STY": (33.5, 34.3), "EGS": (33, 27),
    "IOS": (37, 19), "ILS": (42.5, 16.3), "TYS": (39.8, 12), "LIS": (34, 16), "SJT": (37.3, 2),
    "BLS": (40.5, 5), "LGS": (43.3, 7.8), "KOT": (5, 16), "KON": (-4, 14), "NAM": (-22, 15),
    "IFR": (36, 10), "TAH": (32, 2), "TKA": (28.3, -15.5), "BRG": (33, -7.5), "SIJ": (30.5, -4),
    "SAN": (23, -14), "TRI": (32.3, 13.5), "BAR": (32, 20.5), "FAZ": (27, 12.5), "ASS": (18, 8),
    "KAN": (14, 15), "ZAW": (23, 18), "DAJ": (13, 25), "ALE": (31, 29.5), "AQA": (28, 31),
    "NRS": (25.5, 36), "BER": (24, 34.5), "MAK": (18.5, 31.5), "BAS": (54, 57), "ATI": (46.5, 48),
    "NKS": (44.5, 50.5), "SKS": (39, 51), "SRK": (48, 42), "TAM": (45.2, 37.5), "ABK": (43, 41),
    "BAL": (43.5, 46.3), "DER": (42, 48.3), "GEO": (41.7, 44), "BUC": (41, 33), "ATT": (37, 30.7),
    "CAP": (38.7, 35.5), "DAM": (33.5, 36.8), "KAK": (41.5, 46), "ARM": (40, 44), "MOS": (36.3, 43),
    "BAG": (33.3, 44.4), "AZE": (39.2, 47.5), "GHU": (45, 55.5), "ARD": (38, 48.5), "ALI": (36.8, 52),
    "URG": (40.5, 57), "KIP": (49, 58), "ISF": (32.6, 51.7), "KHO": (36, 58), "KYR": (52, 88),
    "KYK": (43, 64), "QAR": (44, 76), "ORB": (47.5, 102.5), "KHI": (44, 118), "CHN": (40, 108),
    "YAN": (39.9, 116.4), "SIL": (35.8, 128.5), "UYG": (42, 89), "SAM": (40.5, 70), "BUK": (40, 62),
    "SOG": (38.5, 72.5), "SRS": (17, 40.5), "ROM": (41.9, 12.6), "PEC": (47, 31.5), "VEL": (53.6, 12.5),
    "ADU": (15.6, 39.5), "AXU": (14.1, 38.7), "ROH": (11.5, 38.8), "MAL": (10.4, 45), "ZEI": (11.3, 43.3),
    "AZA": (2, 45.3), "MRO": (18.5, 36.5), "SUD": (8, 30), "LUO": (3, 32), "LUB": (-8, 26),
    "RHA": (-6, 39), "PHE": (-14, 40.5), "MAH": (-15, 47.5), "ZIM": (-20, 31), "SOC": (12.5, 54),
    "YEM": (15, 44.5), "MEC": (21.4, 39.8), "JER": (31.8, 35.2), "NEF": (28, 41), "OMA": (21, 57),
    "BSR": (30.5, 47.8), "SJS": (31, 61.5), "HER": (34.3, 62.2), "BLK": (36.7, 67), "MAN": (25.5, 68.5),
    "KAS": (34.1, 75), "SHA": (33, 71), "IND": (28.6, 77.2), "KNJ": (27, 80), "NEP": (28, 84),
    "TIB": (31, 89), "AMD": (35, 100), "CHA": (34.3, 108.9), "HEN": (35, 114.5), "NAN": (32, 118.8),
    "SAI": (33, 131), "UJJ": (22, 71.5), "RAS": (17, 75), "CHL": (16.5, 81), "VAR": (25.3, 83),
    "PAL": (23.5, 89.5), "CHO": (11, 79), "SER": (7.9, 80.7), "PAG": (21.2, 94.9), "NNZ": (25, 100.5),
    "SIH": (30.6, 104), "JIA": (28, 115.9), "GUA": (23.1, 113.3), "ANN": (21, 105.8), "CHM": (14, 108.5),
    "KAM": (12, 104.5), "DVA": (14.5, 100), "CAH": (5, 101.5), "JAM": (0, 101), "PLM": (-4, 104.5),
    "KAL": (-1, 113), "SAB": (5.5, 117), "BUT": (8.9, 125.5), "BLH": (43, 129),
    "AWL": (18, -16), "AWD": (19.5, -11.5), "KUS": (16.5, -8.5), "WAL": (19.5, -5), "BUR": (11, -13),
    "NIO": (13, -8.5), "KNG": (7, -8), "BSK": (14, -3), "TIR": (17, 2), "JEJ": (11, 0),
}
# fmt: on

YOUNGSTOWN_EAST = {
    "ADE": (12.5, 48), "AFG": (34, 66), "AKI": (39.7, 140.1), "AND": (8, 95), "ANN": (16, 107.5),
    "ARA": (15, 63), "BAG": (33.3, 44.4), "BEN": (15, 88), "BRM": (21, 96), "BRU": (4.9, 114.9),
    "BOR": (0, 114), "CAL": (22.6, 88.4), "CAM": (12, 105), "CAN": (23.1, 113.3), "CEL": (3, 124),
    "CEY": (7.9, 80.7), "DAN": (13.5, 41.5), "DEC": (18, 77), "DEL": (28.6, 77.2), "EAF": (1, 36),
    "ECS": (28, 124), "EGY": (27, 30), "EIO": (-3, 85), "ETH": (8.5, 39.5), "FEZ": (27, 16),
    "FOR": (23.7, 121), "FUJ": (35.4, 138.7), "HAN": (30.6, 114.3), "HOK": (43.2, 142.5),
    "IMO": (43, 111), "IRA": (32.5, 53.5), "JAP": (40, 135), "JAV": (-7.5, 110), "JOH": (2, 103.5),
    "JOR": (31, 36.5), "KAN": (36, 103.8), "KAR": (50, 142.7), "KAS": (34.1, 75.5), "KLU": (46.8, 23.6),
    "KOR": (38.5, 127), "KYO": (35.2, 135.8), "KYU": (33, 131), "LAO": (19, 102.5), "LIB": (30, 17),
    "MAD": (13, 80), "MAL": (0, 108), "MAN": (44, 124), "MOG": (2, 45.3), "NEJ": (24, 45),
    "NEP": (28, 84), "NPO": (35, 160), "OKH": (54, 148), "OMO": (47, 103), "OMS": (55, 73.4),
    "OSA": (34.7, 135.5), "PEK": (39.9, 116.4), "PEN": (31.5, 22), "PER": (27, 51), "PHI": (12, 122),
    "RAJ": (26.5, 73.5), "RED": (20, 38.5), "SAH": (24, 0), "SAI": (10.8, 106.7), "SAK": (52, 143),
    "SCS": (15, 116), "SHA": (21.5, 98), "SIA": (8, 104), "SIB": (60, 95), "SIK": (30, 100),
    "SIN": (42, 86), "SND": (25.5, 68.5), "SOM": (0, 55), "SPO": (-15, 150), "SUD": (12, 30),
    "SUE": (31, 32.4), "SUM": (0, 101.5), "THA": (15, 101), "TIB": (31.5, 88), "TIM": (-10, 125),
    "TOK": (35.7, 139.7), "TON": (20, 107.5), "TUR": (41, 64), "VLA": (46, 136), "VTN": (21, 105.8),
    "WIO": (-5, 62), "YEL": (36, 123), "YEM": (15.5, 44.2), "SYR": (34.8, 38.5), "ALG": (34.5, 3),
    "MOR": (32, -6), "TUN": (34.5, 9.5), "IRE": (53.2, -8), "MON": (42.5, 19.3), "POS": (52.4, 16.9),
    "SAX": (51.2, 12.8), "SAO": (5, -20), "ALB": (41.2, 20),
    # the board's off-board spaces, round its southern and western edges
    "OBA": (52, -35), "OBB": (35, -35), "OBC": (-8, -20), "OBD": (12, -10), "OBE": (8, 6),
    "OBF": (5, 22), "OBG": (-12, 34), "OBH": (-18, 50), "OBI": (-22, 66), "OBJ": (-22, 118),
    "OBK": (-25, 150), "OBL": (45, 172),
}
# fmt: on


def _youngstown() -> dict[str, tuple[float, float]]:
    table = dict(STANDARD)
    table.update(YOUNGSTOWN_EAST)
    return table


TABLES["youngstown"] = _youngstown()


# Anchors set by hand where the deepest point of the outline misleads (issue 28), in latitude and
# longitude, projected as the seeds are. Skagerrak's deepest point is in its Kattegat arm, east of
# Denmark, where a fleet reads as Denmark's or Sweden's. Greece's label stood between Albania and
# Greece's unit, where it stopped a move from Albania short (an arrow ends at the edge of its
# target's label): the unit goes south, the centre and the label north of it, out of that way.
ANCHOR_OVERRIDES: dict[str, dict[str, dict[str, tuple[float, float]]]] = {
    "standard": {
        "SKA": {"unit": (57.9, 9.0)},
        "GRE": {"unit": (37.6, 22.1), "centre": (39.2, 22.55), "label": (41.0, 21.6)},
        # Picardy's deepest point is by Belgium's border, where its unit stood 54 units from
        # Belgium's: it goes to the Somme, in the province's middle.
        "PIC": {"unit": (50.0, 1.5)},
    },
}


# Machiavelli (issue 33): Renaissance Italy, 1454, each province at the town or region it is
# named after. The board's borders are the game's, not the real ones: a few provinces reach
# where the game makes them touch (Carinthia and Milan meet in the Valtellina, Turin and Tyrol
# across the Alps, Modena on the Ligurian coast at Massa, Otranto down Calabria to the
# Tyrrhenian), so they get extra seeds there.
# fmt: off
TABLES["machiavelli"] = {
    "ALB": (42.1, 19.4), "ANC": (43.55, 13.4), "AQU": (42.25, 13.9), "ARE": (43.45, 11.9),
    "AUS": (47.3, 15.0), "AVI": (43.95, 4.85), "BAR": (41.1, 16.5), "BER": (45.72, 9.67),
    "BOL": (44.45, 11.35), "BOS": (44.1, 17.8), "BOT": (37.3, 11.4), "BRE": (45.54, 10.22),
    "CAP": (41.35, 14.0), "COM": (45.85, 9.08), "COR": (42.1, 9.1), "CRE": (45.13, 10.0),
    "CRI": (46.7, 13.8), "CRN": (46.05, 14.5), "CRO": (45.2, 15.3), "DAL": (43.6, 16.4),
    "DUR": (40.9, 19.7), "EGL": (43.55, 8.4), "ETS": (42.3, 11.0), "FER": (44.84, 11.62),
    "FLO": (43.77, 11.25), "FOR": (44.82, 9.35), "FRI": (46.06, 13.23), "GEN": (44.41, 8.93),
    "GON": (40.2, 14.2), "HER": (43.3, 17.8), "HUN": (47.2, 18.4), "ION": (38.2, 18.0),
    "IST": (45.2, 13.9), "LAG": (45.33, 12.3), "LAS": (42.3, 16.2), "LUC": (43.88, 10.55),
    "MAN": (45.16, 10.79), "MAR": (43.35, 5.45), "MES": (37.9, 14.9), "MIL": (45.46, 9.19),
    "MOD": (44.62, 10.93), "MON": (44.95, 8.35), "NAP": (40.85, 14.35), "OTR": (40.15, 18.2),
    "PAD": (45.4, 11.88), "PAL": (37.9, 13.3), "PAR": (44.8, 10.33), "PAT": (42.35, 11.9),
    "PAV": (45.19, 9.16), "PER": (43.11, 12.39), "PIA": (45.05, 9.7), "PIO": (43.0, 10.6),
    "PON": (44.37, 9.88), "PRO": (43.9, 6.3), "PSA": (43.65, 10.45), "PST": (43.93, 10.92),
    "RAG": (42.65, 18.15), "RMA": (44.2, 12.15), "RME": (42.0, 12.6), "SAR": (40.1, 9.0),
    "SAV": (44.0, 7.6), "SIE": (43.25, 11.33), "SLA": (45.6, 17.4), "SLR": (40.62, 15.25),
    "SLZ": (44.62, 7.45), "SPO": (42.74, 12.8), "SWI": (46.8, 7.6), "TIV": (41.55, 12.95),
    "TRT": (46.07, 11.12), "TRV": (45.67, 12.24), "TUN": (36.7, 10.0), "TUR": (45.07, 7.69),
    "TYR": (47.1, 11.2), "UAS": (44.4, 13.6), "URB": (43.73, 12.64), "VEN": (45.44, 12.34),
    "VER": (45.44, 10.99), "VIC": (45.55, 11.55), "WGL": (42.6, 4.9), "WMS": (38.7, 7.0),
    "WTS": (41.7, 10.0),
}
EXTRAS["machiavelli"] = {
    "OTR": [(39.1, 16.5), (39.8, 16.1)],  # Calabria
    "SLR": [(40.6, 15.9)],  # Basilicata
    "MOD": [(44.08, 10.12)],  # Massa, on the Ligurian coast
    "BOL": [(44.6, 12.15)],  # the coast by Comacchio
    "SIE": [(42.75, 11.15)],  # the Maremma's coast
    "MIL": [(46.3, 9.95)],  # the Valtellina
    "CRI": [(46.5, 11.8), (46.6, 10.45)],  # south of the Alps' crest, west to the Valtellina
    "TYR": [(46.75, 9.4)],
    "SWI": [(46.1, 6.3)],
    "AVI": [(45.0, 5.6)],  # Dauphiné
    "TUR": [(45.75, 7.4)],  # the Aosta valley
    "GEN": [(44.2, 9.5)],  # the Riviera to La Spezia
    "PIO": [(43.15, 10.85)],  # inland, to Siena's border
    "VIC": [(46.15, 11.9)],  # Belluno, to Friuli
    "ETS": [(41.0, 12.2), (39.4, 13.2)],
    "WTS": [(39.2, 11.0)],
    "GON": [(39.2, 15.2)],
    "WGL": [(42.95, 6.3), (41.0, 7.7)],  # off Toulon, to Provence's coast; off Sardinia's west
    "ION": [(36.9, 16.0)],
    "LAS": [(41.6, 17.8)],
    "UAS": [(45.0, 13.0)],
}
# fmt: on
EXTENT["machiavelli"] = [(35.9, 10.5), (47.9, 12.0)]  # Cape Bon's south, the Alps' north
FISHEYE["machiavelli"] = (44.9, 10.9, 0.2, 0.13, 0.9)  # the Po valley's small provinces get the room
