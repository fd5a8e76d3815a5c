"""The map art shipped with the variants: one SVG and one JSON sidecar per variant.

The art is data (``judge/variants/maps/<variant>.svg`` and ``.json``), read
through :mod:`importlib.resources` so an installed judge finds it in its
wheel. The SVG gives one ``<path id="p-CODE">`` per province; the sidecar
gives each province its label point, unit anchor, coast anchors and centre
marker point.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any

from judge.core.errors import VariantError

_OUTER = re.compile(r"^\s*<svg\b[^>]*>|</svg>\s*$", re.S)
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Anchors:
    """Where things go in one province: its label, a unit, a unit on each coast, its centre marker."""

    label: Point
    unit: Point
    coasts: MappingProxyType[str, Point]
    centre: Point | None
    city: Point | None = None
    """A fortress's point, where its garrison is drawn (the Renaissance game's; a city that is a
    supply centre is drawn at its centre marker's point)."""


@dataclass(frozen=True, slots=True)
class MapArt:
    """One variant's drawing: the SVG body (provinces, no units) and the anchors by province."""

    variant: str
    width: float
    height: float
    body: str
    provinces: MappingProxyType[str, Anchors]
    wraps: bool = False
    """The east and west edges are one meridian (World): the short way may cross them."""

    def where(self, location: str) -> Point:
        """The anchor of a unit standing on ``location`` (``"STP/NC"`` uses the coast's anchor)."""
        code, _, coast = location.upper().partition("/")
        anchors = self.provinces.get(code)
        if anchors is None:
            raise VariantError(f"the map of {self.variant} has no province {code}")
        if coast and coast in anchors.coasts:
            return anchors.coasts[coast]
        return anchors.unit


def _point(value: Any) -> Point:
    return (float(value[0]), float(value[1]))


@functools.lru_cache(maxsize=64)
def has_art(variant: str) -> bool:
    """Whether ``variant`` has a drawing (its ``.svg`` among the maps' data): a variant without one
    (the Renaissance game's, for now) gets its mails with no map, and no failed drawing."""
    name = variant.lower()
    return bool(re.fullmatch(r"[a-z0-9_]+", name)) and resources.files("judge.variants.maps").joinpath(
        f"{name}.svg"
    ).is_file()


@functools.lru_cache(maxsize=32)
def load_art(variant: str) -> MapArt:
    """The drawing of ``variant`` (case-insensitive); :class:`VariantError` when it has none."""
    name = variant.lower()
    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise VariantError(f"no map drawing for variant {variant!r}")
    folder = resources.files("judge.variants.maps")
    try:
        svg = folder.joinpath(f"{name}.svg").read_text(encoding="utf-8")
        side = json.loads(folder.joinpath(f"{name}.json").read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise VariantError(f"no map drawing for variant {variant!r}") from error
    provinces = {
        code.upper(): Anchors(
            label=_point(entry["label"]),
            unit=_point(entry["unit"]),
            coasts=MappingProxyType({c.upper(): _point(p) for c, p in (entry.get("coasts") or {}).items()}),
            centre=_point(entry["centre"]) if entry.get("centre") else None,
            city=_point(entry["city"]) if entry.get("city") else None,
        )
        for code, entry in side["provinces"].items()
    }
    return MapArt(
        variant=name,
        width=float(side["width"]),
        height=float(side["height"]),
        body=_OUTER.sub("", svg).strip(),
        provinces=MappingProxyType(provinces),
        wraps=bool(side.get("wraps", False)),
    )
