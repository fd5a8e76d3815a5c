"""A place's name in a report (judge.app.mail_out.wording.place), kept once looked up, is the name its own
map and language give it: maps naming the same code differently, and both languages, looked up in turn."""

from __future__ import annotations

from judge.app.mail_out.wording import place
from judge.core.names import province_display_name
from judge.core.variants import load_map


def test_each_map_and_language_names_its_own_places_however_they_are_asked_in_turn() -> None:
    maps = [load_map(name) for name in ("standard", "world", "modern", "ancmed")]
    assert place("ALB", "en", maps[0]) == "Albania" and place("ALB", "en", maps[1]) == "Alberta"
    for _round in range(2):  # the second round from what the first kept
        for game_map in maps:
            for code, province in game_map.provinces.items():
                for location in (code, *(f"{code}/{coast}" for coast in province.coasts)):
                    for language in ("en", "fr", "de"):
                        expected = province_display_name(location, "fr" if language == "fr" else "en", game_map)
                        assert place(location, language, game_map) == expected, (location, language)
