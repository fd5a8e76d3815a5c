"""The Renaissance game's opening board as the Game Starting mail lists it to every reader.

Its field units as an ordinary game's, then each power's garrisons, then the autonomous
garrisons together: what the scenario sets up and every player sees on the board. The
treasuries, kept in the same opening, are a power's secret and are never listed here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.app.mail_out.wording import power_name
from judge.core.geography import GameMap
from judge.core.names import province_display_name
from judge.i18n import translation

AUTONOMOUS = "AUTONOMOUS"


def opening_lines(opening: Mapping[str, Any], game_map: GameMap, language: str) -> list[str]:
    """``opening`` is the kept JSON of the scenario's first phase (units and garrisons)."""
    _ = translation(language).gettext
    def place(code: str) -> str:
        return province_display_name(code, "fr" if language == "fr" else "en", game_map)

    lines = []
    for unit in opening.get("units", []):
        kind = _("Army") if unit["type"] == "A" else _("Fleet")
        lines.append(f"   {power_name(unit['power'], language)}: {kind} {place(unit['loc'])}.")
    garrisons: Mapping[str, str] = opening.get("garrisons", {})
    for power in game_map.powers:
        for city in sorted(c for c, owner in garrisons.items() if owner == power):
            lines.append(f"   {power_name(power, language)}: {_('Garrison')} {place(city)}.")
    autonomous = sorted((place(c) for c, owner in garrisons.items() if owner == AUTONOMOUS), key=str.casefold)
    if autonomous:
        lines.append("   " + _("Autonomous garrisons: {cities}.").format(cities=", ".join(autonomous)))
    return lines
