"""Reading the province and location names players type, in English or French.

Players write ``STP/NC``, ``St Petersburg north coast``, ``Saint-Pétersbourg
cn`` or ``stp (nc)`` for the same place, so every name the map knows (codes,
English names and aliases, the French names and abbreviations of the French
rule books) is folded to one key: lower case, accents and œ/æ undone, every
space, hyphen, apostrophe and full stop dropped. Lookup is one dict access
on a table built once per map; results are cached, since the order reader
asks about every word of every order.

Some abbreviations mean two places: ``MAR`` is Marseilles as a standard code
but North Africa in the French table, ``TYR`` Tyrolia but also the French
abbreviation of the Tyrrhenian Sea. The rule here, where no board is known:
the standard code wins unless the reader asked for French, in which case the
French reading wins. Either way the :class:`NameReading` says which reading
was taken and lists the other place, so that the board can settle it first
where it is known (:mod:`judge.lang.board`: the reading under which the
order is legal wins, issue 18) and a reply can tell the player; nothing is
guessed silently. A name
that several places share with no rule to settle it raises
:class:`AmbiguousProvinceError`.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

from judge.core.errors import AmbiguousProvinceError, CoastError, UnknownProvinceError
from judge.core.geography import GameMap
from judge.core.units import coast_of, province_of

ReadingKind = Literal["code", "english", "french"]
Language = Literal["en", "fr"]

_MAX_SUGGESTIONS: Final = 4
_SUGGESTION_CUTOFF: Final = 60.0  # rapidfuzz ratio (0-100) below which a misspelling is not "close"
_SUGGESTION_SPREAD: Final = 12.0  # misspellings: keep only those this close to the best one
_MAX_TEXT: Final = 120  # longer text is no place name; do not spend time on it


@dataclass(frozen=True, slots=True)
class NameReading:
    """How a typed name was read.

    ``reading`` says which table matched: ``"code"`` (a standard three-letter
    code), ``"english"`` (an English name) or ``"french"`` (a French name or
    abbreviation). ``alternatives`` lists the other provinces the text could
    have meant; it is non-empty only when the code-versus-French rule settled
    an ambiguity, so that the player can be told.
    """

    text: str
    province: str
    coast: str | None
    reading: ReadingKind
    alternatives: tuple[str, ...] = ()

    @property
    def location(self) -> str:
        """``"STP/NC"`` or ``"PAR"``: the province with the coast, if one was given."""
        return self.province if self.coast is None else f"{self.province}/{self.coast}"


def resolve_location(text: str, game_map: GameMap, *, french: bool = False) -> NameReading:
    """Read ``text`` as a province, possibly with a coast.

    Raises :class:`UnknownProvinceError` (with up to three suggestions) for a
    name the map does not know, :class:`AmbiguousProvinceError` for a name
    several places share with no rule to settle it, and :class:`CoastError`
    for a coast the province does not have (``Paris north coast``).
    """
    return _resolve_cached(text, game_map, french)


def province_display_name(code: str, language: Language = "en", game_map: GameMap | None = None) -> str:
    """The name of a province or location for a report in ``language``.

    ``"STP/NC"`` gives ``"St Petersburg (north coast)"`` in English and
    ``"Saint-Pétersbourg (côte nord)"`` in French. ``game_map`` defaults to
    the Standard map.
    """
    if game_map is None:
        from judge.core.variants import load_map

        game_map = load_map()
    province = game_map.province(province_of(code))
    name = province.french_name if language == "fr" else province.name
    coast = coast_of(code)
    if coast is None:
        return name
    words = _COAST_DISPLAY["fr" if language == "fr" else "en"]
    return f"{name} ({words.get(coast, coast)})"


# --------------------------------------------------------------------------
# Folding: one key for every way of writing a name.

_LIGATURES: Final = str.maketrans({"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE"})
_NOT_KEY: Final = re.compile(r"[^0-9a-z]+")


def _fold(text: str) -> str:
    """Lower case, no accents, ligatures spelled out."""
    text = text.translate(_LIGATURES)
    if not text.isascii():
        decomposed = unicodedata.normalize("NFKD", text)
        text = "".join(c for c in decomposed if not unicodedata.combining(c))
    return text.casefold()


def name_key(text: str) -> str:
    """The lookup key of a name: folded, with everything but letters and digits dropped.

    ``"Saint-Pétersbourg"``, ``"saint petersbourg"`` and ``"SAINTPETERSBOURG"``
    share one key, which is what makes the tables tolerant of spacing,
    hyphens, apostrophes and accents.
    """
    folded = _fold(text)
    if folded.isalnum() and folded.isascii():  # letters and digits only (most names): nothing to drop
        return folded
    return _NOT_KEY.sub("", folded)


# --------------------------------------------------------------------------
# Coasts.

_COAST_DISPLAY: Final[Mapping[str, Mapping[str, str]]] = {
    "en": {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"},
    "fr": {"NC": "côte nord", "SC": "côte sud", "EC": "côte est", "WC": "côte ouest"},
}

# Coast words that may follow a name after a space ("STP NC", "Espagne cn",
# "St Petersburg north coast"). Single letters and bare directions are left
# out: "BUL S" or "mer du Nord" must not lose their last word to a coast.
_SPACED_COASTS: Final[Mapping[str, str]] = {
    "nc": "NC", "sc": "SC", "ec": "EC", "wc": "WC",
    "cn": "NC", "cs": "SC", "ce": "EC", "co": "WC",
    "north coast": "NC", "south coast": "SC", "east coast": "EC", "west coast": "WC",
    "cote nord": "NC", "cote sud": "SC", "cote est": "EC", "cote ouest": "WC",
}  # fmt: skip

# After a slash or inside brackets anything that names a coast is clear.
_MARKED_COASTS: Final[Mapping[str, str]] = {
    **_SPACED_COASTS,
    "n": "NC", "s": "SC", "e": "EC", "w": "WC", "o": "WC",
    "north": "NC", "south": "SC", "east": "EC", "west": "WC",
    "nord": "NC", "sud": "SC", "est": "EC", "ouest": "WC",
    "cote n": "NC", "cote s": "SC", "cote e": "EC", "cote o": "WC",
}  # fmt: skip

@functools.cache
def _coast_patterns() -> tuple[re.Pattern[str], tuple[tuple[re.Pattern[str], Mapping[str, str]], ...]]:
    """The separators and the three ways of writing a coast after a name, compiled on first use.

    Only a name not found as written needs them, which most runs never meet: compiling them at
    import was a share of every start-up (``judge adjudicate`` among others).
    """
    separators = re.compile(r"[\s\-‐‑–—'’`´._,;:]+")
    slash = re.compile(r"^(?P<name>[^/()]+?)\s*/\s*(?P<coast>[a-z ]+?)\s*$")
    bracket = re.compile(r"^(?P<name>[^/()]+?)\s*\(\s*(?P<coast>[a-z ]+?)\s*\)\s*$")
    spaced = re.compile(
        r"^(?P<name>.+?)\s+(?P<coast>"
        + "|".join(re.escape(w) for w in sorted(_SPACED_COASTS, key=len, reverse=True))
        + r")$"
    )
    return separators, ((slash, _MARKED_COASTS), (bracket, _MARKED_COASTS), (spaced, _SPACED_COASTS))


def _split_coast(text: str) -> tuple[str, str] | None:
    """``"stp / north coast"`` -> ``("stp", "NC")``; None when no coast is written."""
    separators, patterns = _coast_patterns()
    spaced = separators.sub(" ", _fold(text)).strip()
    for pattern, words in patterns:
        match = pattern.match(spaced)
        if match is not None:
            coast = words.get(match.group("coast").strip())
            if coast is not None:
                return match.group("name"), coast
    return None


# --------------------------------------------------------------------------
# The per-map name table.


@dataclass(frozen=True, slots=True, eq=False)
class _Outcome:
    """What a key means in one reading mode: a province, or an unsettled ambiguity."""

    province: str | None
    reading: ReadingKind
    alternatives: tuple[str, ...]  # settled: the others; unsettled: all candidates


# The order in which readings are preferred, per mode. A level with exactly one
# province settles the key; a level with several makes it ambiguous.
_PREFERENCE: Final[Mapping[bool, tuple[ReadingKind, ...]]] = {
    False: ("code", "english", "french"),
    True: ("french", "code", "english"),
}


@dataclass(frozen=True, slots=True)
class NameTable:
    """Every key of a map, with what it means when read in English and in French."""

    english: Mapping[str, _Outcome]
    french: Mapping[str, _Outcome]
    keys: tuple[str, ...]

    def outcome(self, key: str, french: bool) -> _Outcome | None:
        return (self.french if french else self.english).get(key)

    def ambiguous_keys(self) -> dict[str, tuple[str, ...]]:
        """Keys that mean more than one province, with every province they may mean."""
        found: dict[str, tuple[str, ...]] = {}
        for table in (self.english, self.french):
            for key, outcome in table.items():
                if outcome.alternatives:
                    places = outcome.alternatives if outcome.province is None else (outcome.province, *outcome.alternatives)
                    found[key] = tuple(sorted(places))
        return found


@functools.lru_cache(maxsize=16)
def name_table(game_map: GameMap) -> NameTable:
    """The name table of ``game_map``, built once per map (maps are cached singletons)."""
    kinds: dict[str, dict[str, set[ReadingKind]]] = {}

    def add(name: str | None, code: str, kind: ReadingKind) -> None:
        if not name:
            return
        key = name_key(name)
        if key:
            kinds.setdefault(key, {}).setdefault(code, set()).add(kind)

    for code, province in game_map.provinces.items():
        add(code, code, "code")
        add(province.name, code, "english")
        for alias in province.english_aliases:
            add(alias, code, "english")
        add(province.french_name, code, "french")
        add(province.french_abbreviation, code, "french")
        for french_name in province.french_names:
            add(french_name, code, "french")
        for abbreviation in province.french_abbreviations:
            add(abbreviation, code, "french")

    tables: dict[bool, dict[str, _Outcome]] = {False: {}, True: {}}
    shared: dict[tuple[str, ReadingKind], _Outcome] = {}
    for key, by_province in kinds.items():
        for mode, table in tables.items():
            table[key] = _settle(by_province, _PREFERENCE[mode], shared)
    return NameTable(english=tables[False], french=tables[True], keys=tuple(sorted(kinds)))


def _settle(
    by_province: Mapping[str, set[ReadingKind]],
    preference: tuple[ReadingKind, ...],
    shared: dict[tuple[str, ReadingKind], _Outcome],
) -> _Outcome:
    if len(by_province) == 1:
        # Nearly every key names one province: it wins, read as the most preferred kind it has.
        # Such outcomes are alike for every key of a province read as one kind: made once each
        # (``shared``), they make the table a map's start-up builds cheaper.
        for code, held in by_province.items():
            for kind in preference:
                if kind in held:
                    outcome = shared.get((code, kind))
                    if outcome is None:
                        outcome = shared[code, kind] = _Outcome(code, kind, ())
                    return outcome
    everyone = tuple(sorted(by_province))
    for kind in preference:
        holders = [code for code, kinds in by_province.items() if kind in kinds]
        if len(holders) == 1:
            winner = holders[0]
            return _Outcome(winner, kind, tuple(c for c in everyone if c != winner))
        if len(holders) > 1:
            return _Outcome(None, kind, everyone)
    raise AssertionError("a key always has at least one reading")  # pragma: no cover


# --------------------------------------------------------------------------
# Resolution.


@functools.lru_cache(maxsize=65536)
def _resolve_cached(text: str, game_map: GameMap, french: bool) -> NameReading:
    table = name_table(game_map)
    if len(text) <= _MAX_TEXT:
        outcome = table.outcome(name_key(text), french)
        if outcome is not None:
            return _reading(text, outcome, None, game_map)
        split = _split_coast(text)
        if split is not None:
            name, coast = split
            outcome = table.outcome(name_key(name), french)
            if outcome is not None:
                return _reading(text, outcome, coast, game_map)
            raise UnknownProvinceError(text, _suggest(name_key(name), game_map, french))
    raise UnknownProvinceError(text, _suggest(name_key(text[:_MAX_TEXT]), game_map, french))


def _reading(text: str, outcome: _Outcome, coast: str | None, game_map: GameMap) -> NameReading:
    if outcome.province is None:
        raise AmbiguousProvinceError(text, outcome.alternatives)
    if coast is not None:
        coast = _coast_of_province(text, outcome.province, coast, game_map)
    return NameReading(text, outcome.province, coast, outcome.reading, outcome.alternatives)


def _coast_of_province(text: str, code: str, coast: str, game_map: GameMap) -> str:
    coasts = game_map.provinces[code].coasts
    if coast in coasts:
        return coast
    # The French rules name Bulgaria's east coast "côte nord ou côte est" (cn, n, nc too).
    if coast == "NC" and "EC" in coasts and "NC" not in coasts:
        return "EC"
    name = game_map.provinces[code].name
    if not coasts:
        raise CoastError(f"{name} has no separate coasts -> {text}")
    raise CoastError(f"{name} has no {_COAST_DISPLAY['en'].get(coast, coast)} (coasts: {', '.join(coasts)}) -> {text}")


def suggest_provinces(
    text: str, game_map: GameMap, *, french: bool = False, near: frozenset[str] = frozenset()
) -> tuple[str, ...]:
    """Up to four province codes a player may have meant by the unknown name ``text``.

    ``near`` lists the provinces the order makes plausible (those next to the
    ordered unit): among equally good matches they come first, so that
    ``F Bar - Nor`` suggests Norway and the Norwegian Sea before the North
    Sea and North Africa.
    """
    return _suggest(name_key(text[:_MAX_TEXT]), game_map, french, near)


# How a name matches what was typed, best first: the typed letters begin the
# name ("Nor" for Norway), are an abbreviation of it (its letters in order,
# from the first: "Nrth" for North Sea, "Mid Atl O"), or are a misspelling
# of it (edit distance, rapidfuzz's normalised Indel ratio: "Livnia").
_PREFIX: Final = 0
_ABBREVIATION: Final = 1
_MISSPELLING: Final = 2


def _is_abbreviation(typed: str, name: str) -> bool:
    """Whether ``typed`` is ``name``'s letters in order, starting with its first."""
    if not typed or typed[0] != name[0]:
        return False
    position = 0
    for letter in typed:
        position = name.find(letter, position) + 1
        if not position:
            return False
    return True


@functools.lru_cache(maxsize=4096)
def _suggest(key: str, game_map: GameMap, french: bool, near: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The codes :func:`suggest_provinces` returns, for the folded key of the typed text.

    Every name, French name, alias, abbreviation and code of the map is a
    candidate. Only the best kind of match found is kept (a prefix beats an
    abbreviation, which beats a misspelling), and among misspellings only
    those within ``_SUGGESTION_SPREAD`` of the best: "Pariss" suggests Paris,
    not every name sharing four letters with it.
    """
    if not key:
        return ()
    from rapidfuzz import fuzz  # here, not at the top: only a misspelt name needs it (start-up)

    table = name_table(game_map)
    best: dict[str, tuple[int, float, int]] = {}  # province -> (kind, -score, length)
    for candidate in table.keys:
        if candidate == key:
            continue
        score = fuzz.ratio(key, candidate)
        if len(key) >= 2 and candidate.startswith(key):
            kind = _PREFIX
        elif len(key) >= 2 and _is_abbreviation(key, candidate):
            kind = _ABBREVIATION
        elif score >= _SUGGESTION_CUTOFF:
            kind = _MISSPELLING
        else:
            continue
        outcome = table.outcome(candidate, french)
        if outcome is None:
            continue
        places = (outcome.province,) if outcome.province is not None else outcome.alternatives
        rank = (kind, -score, len(candidate))
        for place in places:
            if place is not None and (place not in best or rank < best[place]):
                best[place] = rank
    if not best:
        return ()
    top_kind = min(rank[0] for rank in best.values())
    kept = {place: rank for place, rank in best.items() if rank[0] == top_kind}
    if top_kind == _MISSPELLING:
        floor = -min(rank[1] for rank in kept.values()) - _SUGGESTION_SPREAD
        kept = {place: rank for place, rank in kept.items() if -rank[1] >= floor}
    ordered = sorted(kept, key=lambda place: (place not in near, kept[place], place))
    return tuple(ordered[:_MAX_SUGGESTIONS])
