"""The order reader's fast path: orders written plainly, read without the grammar.

It reads exactly as the grammar does, or gives up: ``tests/lang/test_order_fast_path.py``
proves it, comparing its reading with the general reader's (:func:`judge.lang.order_meaning.read_general`)
on the orders of generated games of every variant, written every way a player writes them,
in every phase and both languages, and ``tests/lang/test_orders.py`` on word soup and the DATC's orders.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from judge.core.errors import (
    AmbiguousProvinceError,
    CoastError,
)
from judge.core.geography import GameMap
from judge.core.names import NameReading
from judge.core.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from judge.core.phase import PhaseType
from judge.core.units import UnitRef, UnitType
from judge.lang.order_tokens import (
    COAST_WORDS,
    PHRASE_STARTS,
    keywords_for,
    location_of,
    name_reading,
)
from judge.lang.order_values import ReadOrder, plain_reading

# --------------------------------------------------------------------------
# Fast path: the canonical notation, read without the general machinery.
#
# Most orders are written the way the judge prints them ("A LON - BEL",
# "F NTH C A LON - BEL", "F TRI S A BUD - SER", "BUILD F STP/NC", "A Par H"):
# words separated by spaces, each one keyword, one dash, or one place name
# with perhaps "/coast". Those are read here with a split, dictionary lookups
# and a match on the token kinds, in a few microseconds. Anything else (a
# name of several words, a hyphenated word, brackets, an unknown or ambiguous
# name, a shape that is an error or needs the grammar) makes the fast path
# give up (None) and the general reader decides. The fast path asks the same
# tables in the same way (keywords first, phrases before single words, the
# same cached name lookups, the same coast joining), so when it answers, its
# answer is the general reader's; tests/lang/test_orders.py compares the two.

# Coast words that can follow "/" and begin no longer coast phrase ("/nc",
# "/sc", "/n", "/nord"; not "/north", which might go on as "north coast").
_SINGLE_COAST_WORDS: Final[dict[str, str]] = {
    word: coast
    for word, coast in COAST_WORDS.items()
    if " " not in word and not any(other.startswith(word + " ") for other in COAST_WORDS)
}

_PLACE: Final = "PLACE"
_GIVE_UP: Final = ""  # the kind of a word the fast path leaves to the general reader


@dataclass(frozen=True, slots=True, eq=False)
class _WordMeaning:
    """What one space-separated word is on its own, for the fast path.

    ``kind`` is a grammar token type, ``PLACE``, or ``_GIVE_UP``; a place has
    its ``location`` ("STP/NC") and, when a rule settled an ambiguity, its
    ``reading`` (to be reported). ``phrase_start`` says the word may begin a
    two-word keyword ("via convoy", "par convoi"), so the next word is looked
    at before this meaning is taken.
    """

    kind: str
    location: str = ""
    reading: NameReading | None = None
    phrase_start: bool = False


_MOVE_WORD: Final = _WordMeaning("_MOVE")
_UNREADABLE_WORD: Final = _WordMeaning(_GIVE_UP)


def _is_plain_word(word: str) -> bool:
    """ASCII letters only: one word piece for the general reader, folded by lower()."""
    return word.isascii() and word.isalpha()


def _word_meaning(
    word: str, game_map: GameMap, keywords: dict[str, str], french: bool
) -> _WordMeaning:
    """The meaning of ``word`` alone, asked of the same tables as the tokenizer asks."""
    if word == "-":
        return _MOVE_WORD
    slash = word.find("/")
    name = word if slash < 0 else word[:slash]
    if not _is_plain_word(name):
        return _UNREADABLE_WORD
    folded = name.lower()
    given: str | None = None
    if slash >= 0:
        mark = word[slash + 1 :]
        if folded in keywords or not _is_plain_word(mark):
            return _UNREADABLE_WORD
        given = _SINGLE_COAST_WORDS.get(mark.lower())
        if given is None:
            return _UNREADABLE_WORD
    phrase_start = slash < 0 and folded in PHRASE_STARTS
    kind = keywords.get(folded) if slash < 0 else None
    if kind is not None:
        return _WordMeaning(_GIVE_UP if kind == "COAST" else kind, phrase_start=phrase_start)
    try:
        reading = name_reading(game_map, name, french)
    except (AmbiguousProvinceError, CoastError):
        return _UNREADABLE_WORD
    if reading is None:
        return _UNREADABLE_WORD
    location = location_of(game_map, reading, given)
    if location is None:
        return _UNREADABLE_WORD
    return _WordMeaning(
        _PLACE, location, reading if reading.alternatives else None, phrase_start=phrase_start
    )


@lru_cache(maxsize=64)
def _word_meanings(game_map: GameMap, french: bool, retreat_phase: bool) -> dict[str, _WordMeaning]:
    """Meanings already worked out, per map and reading mode: a mail uses few distinct words."""
    return {}


_MAX_WORD_MEANINGS: Final = 50_000


def read_canonical(
    text: str, game_map: GameMap, phase_type: PhaseType | None, french: bool
) -> ReadOrder | None:
    """The order in ``text`` when it is written plainly, else None (see above)."""
    words = text.split()
    count = len(words)
    if not count:
        return None
    retreat_phase = phase_type is PhaseType.RETREAT
    keywords = keywords_for(french, retreat_phase)
    meanings = _word_meanings(game_map, french, retreat_phase)
    kinds: list[str] = []
    locations: list[str] = []  # one per PLACE in kinds, in order
    readings: list[NameReading] = []
    i = 0
    while i < count:
        word = words[i]
        meaning = meanings.get(word)
        if meaning is None:
            meaning = _word_meaning(word, game_map, keywords, french)
            if len(meanings) >= _MAX_WORD_MEANINGS:
                meanings.clear()
            meanings[word] = meaning
        if meaning.phrase_start and i + 1 < count:
            following = words[i + 1]
            if following != "-":
                if not _is_plain_word(following):
                    return None
                phrase = keywords.get(f"{word.lower()} {following.lower()}")
                if phrase is not None:
                    if phrase == "COAST":
                        return None
                    kinds.append(phrase)
                    i += 2
                    continue
        kind = meaning.kind
        if kind == _GIVE_UP:
            return None
        kinds.append(kind)
        if kind == _PLACE:
            locations.append(meaning.location)
            if meaning.reading is not None:
                readings.append(meaning.reading)
        i += 1
    recipe = _recipe(tuple(kinds), phase_type)
    if recipe is None:
        return None
    column = len(text) - len(text.lstrip()) + 1
    return plain_reading(recipe(locations), text.strip(), tuple(readings) if readings else (), column)


# Makes the order from the locations of its places, in the order written.
_Recipe = Callable[[Sequence[str]], Order]


@lru_cache(maxsize=1024)
def _recipe(kinds: tuple[str, ...], phase_type: PhaseType | None) -> _Recipe | None:
    """How the grammar and the builder make an order of these token kinds; None if unsure.

    Worked out once per shape (a few dozen shapes cover nearly every order):
    the result only says which order class gets which locations.
    """
    count = len(kinds)
    places = 0  # locations used so far

    def unit_at(j: int) -> tuple[UnitType | None, int, int] | None:
        """(type, location index, next position) of a unit at ``j``."""
        nonlocal places
        if j < count and kinds[j] in ("ARMY", "FLEET"):
            if j + 1 < count and kinds[j + 1] == _PLACE:
                places += 1
                return (UnitType.ARMY if kinds[j] == "ARMY" else UnitType.FLEET), places - 1, j + 2
            return None
        if j < count and kinds[j] == _PLACE:
            places += 1
            return None, places - 1, j + 1
        return None

    first = kinds[0]
    if first == "WAIVE":
        return (lambda _: Waive()) if count == 1 else None
    if first in ("BUILD", "REMOVE", "R", "DISBAND"):
        found = unit_at(1)
        if found is None or found[2] != count:
            return None
        unit_type, at, _ = found
        if first == "BUILD":
            return _build_recipe(unit_type, at)
        unit = _unit_maker(unit_type)
        if first == "DISBAND" and phase_type is not PhaseType.ADJUSTMENT:
            return lambda locs: Disband(unit(locs[at]))
        return lambda locs: Remove(unit(locs[at]))

    found = unit_at(0)
    if found is None:
        return None
    own_type, own, j = found
    own_unit = _unit_maker(own_type)
    if j == count:
        return None  # a bare unit: a build, or an error; the general reader says which
    verb = kinds[j]
    rest = kinds[j + 1 :]
    if verb == "HOLD":
        return None if rest else (lambda locs: Hold(own_unit(locs[own])))
    if verb == "_MOVE":
        via = bool(rest) and rest[-1] == "VIA_CONVOY"
        hops = rest[:-1] if via else rest
        if not hops or len(hops) % 2 == 0:
            return None
        if any(kind != (_PLACE if k % 2 == 0 else "_MOVE") for k, kind in enumerate(hops)):
            return None
        last = places + len(hops) // 2
        if phase_type is PhaseType.RETREAT:
            if last != places or via:
                return None
            return lambda locs: Retreat(own_unit(locs[own]), locs[last])
        route = slice(places, last)
        return lambda locs: Move(own_unit(locs[own]), locs[last], via, tuple(locs[route]))
    if verb in ("SUPPORT", "CONVOY"):
        other = unit_at(j + 1)
        if other is None:
            return None
        other_type, at, k = other
        other_unit = _unit_maker(other_type)
        tail = kinds[k:]
        if verb == "SUPPORT" and tail in ((), ("HOLD",)):
            return lambda locs: SupportHold(own_unit(locs[own]), other_unit(locs[at]))
        if tail in (("_MOVE", _PLACE), ("_MOVE", _PLACE, "VIA_CONVOY")):
            to = places
            order_class = SupportMove if verb == "SUPPORT" else Convoy
            return lambda locs: order_class(own_unit(locs[own]), other_unit(locs[at]), locs[to])
        return None
    if verb in ("RETREAT", "R") and rest == (_PLACE,):
        to = places
        return lambda locs: Retreat(own_unit(locs[own]), locs[to])
    if rest:
        return None
    if verb == "DISBAND" and phase_type is not PhaseType.ADJUSTMENT:
        return lambda locs: Disband(own_unit(locs[own]))
    if verb in ("DISBAND", "REMOVE", "R"):
        return lambda locs: Remove(own_unit(locs[own]))
    if verb == "BUILD":
        return _build_recipe(own_type, own)
    return None


def _build_recipe(unit_type: UnitType | None, at: int) -> _Recipe | None:
    """A build names its unit type; without one the general reader words the error."""
    if unit_type is None:
        return None
    return lambda locs: Build(unit_type, locs[at])


@lru_cache(maxsize=3)
def _unit_maker(unit_type: UnitType | None) -> Callable[[str], UnitRef]:
    """Makes the :class:`UnitRef` of a location, one shared value per location.

    UnitRefs are immutable, and making one costs more than the rest of
    reading a word; the few hundred locations of a map are made once.
    """
    refs: dict[str, UnitRef] = {}

    def unit(location: str) -> UnitRef:
        ref = refs.get(location)
        if ref is None:
            ref = UnitRef(unit_type, location)
            if len(refs) < 10_000:
                refs[location] = ref
        return ref

    return unit
