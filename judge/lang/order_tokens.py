"""The order reader's first two steps: raw pieces, then the grammar's tokens.

1. :func:`pieces` cuts the text into raw pieces (words, dashes, slashes,
   brackets) and remembers where each starts, for error columns;
2. :class:`Tokenizer` turns those pieces into the abstract tokens of
   ``grammar/orders.lark``. This is where the map comes in: the longest run of
   words that the name tables know becomes one ``PLACE`` ("mer du Nord",
   "Mid-Atlantic Ocean"), a hyphenated word that is no name is cut at its
   hyphens ("LON-ENG-BRE"), and every synonym of a keyword becomes one token.

Also the tables both readers ask alike (keywords in both languages, coast
words, the cached name readings, how a name and a coast join into a
location): the fast path (:mod:`judge.lang.order_fast_path`) asks them the
way the tokenizer does, which is what lets it answer as the grammar would.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Self, TypeVar

from judge.core.errors import (
    AmbiguousProvinceError,
    CoastError,
    CoreError,
    UnknownProvinceError,
)
from judge.core.geography import GameMap
from judge.core.names import NameReading, name_key, name_table, resolve_location
from judge.lang.errors import N_, Message
from judge.lang.nations import nation_named
from judge.lang.order_values import OrderSyntaxError

# --------------------------------------------------------------------------
# Keywords. Each maps a run of lower-case, accent-free words to a token type.

ENGLISH_KEYWORDS: Final[dict[str, str]] = {
    "a": "ARMY", "army": "ARMY",
    "f": "FLEET", "fleet": "FLEET",
    "h": "HOLD", "hold": "HOLD", "holds": "HOLD", "stand": "HOLD", "stands": "HOLD", "xxx": "HOLD",
    "m": "_MOVE", "move": "_MOVE", "moves": "_MOVE", "to": "_MOVE",
    "move to": "_MOVE", "moves to": "_MOVE",
    "s": "SUPPORT", "support": "SUPPORT", "supports": "SUPPORT",
    "c": "CONVOY", "convoy": "CONVOY", "convoys": "CONVOY",
    "t": "CONVOY", "transport": "CONVOY", "transports": "CONVOY",
    "via convoy": "VIA_CONVOY", "by convoy": "VIA_CONVOY", "via": "VIA_CONVOY",
    "d": "DISBAND", "disband": "DISBAND", "disbands": "DISBAND",
    "b": "BUILD", "build": "BUILD", "builds": "BUILD",
    "remove": "REMOVE", "removes": "REMOVE", "debuild": "REMOVE",
    "r": "R",
    "retreat": "RETREAT", "retreats": "RETREAT", "retreat to": "RETREAT", "retreats to": "RETREAT",
    "w": "WAIVE", "waive": "WAIVE", "waives": "WAIVE",
    "p": "PROXY", "proxy": "PROXY", "proxy to": "PROXY",
    "nc": "COAST", "sc": "COAST", "ec": "COAST", "wc": "COAST",
    "north coast": "COAST", "south coast": "COAST", "east coast": "COAST", "west coast": "COAST",
}  # fmt: skip

# French forms (seed 002 and the French help files): T / xxx for hold, S for
# soutien, C for convoi (and "A Espagne C Toscane" for a convoyed attack),
# "par convoi", coasts "cn"/"cs"/"ce" and "côte nord".
FRENCH_KEYWORDS: Final[dict[str, str]] = {
    "armee": "ARMY", "flotte": "FLEET",
    "t": "HOLD", "tient": "HOLD", "defend": "HOLD", "defense": "HOLD", "xxx": "HOLD",
    "va": "_MOVE", "attaque": "_MOVE", "va a": "_MOVE", "vers": "_MOVE",
    "soutien": "SUPPORT", "soutient": "SUPPORT", "supporte": "SUPPORT",
    "convoi": "CONVOY", "convoie": "CONVOY", "convoyer": "CONVOY",
    "par convoi": "VIA_CONVOY", "via convoi": "VIA_CONVOY",
    "disperse": "DISBAND", "dispersion": "DISBAND", "debande": "DISBAND", "debander": "DISBAND",
    "construit": "BUILD", "construction": "BUILD", "construire": "BUILD", "construis": "BUILD",
    "supprime": "REMOVE", "suppression": "REMOVE", "retirer": "REMOVE", "retire": "REMOVE", "retrait": "REMOVE",
    # Seed 000: "A VIE fait retraite à BUD, TRI" ("à" would otherwise be an army).
    "retraite": "RETREAT", "retraite a": "RETREAT", "fait retraite": "RETREAT", "fait retraite a": "RETREAT",
    "renonce": "WAIVE",
    "delegue": "PROXY",
    "cn": "COAST", "cs": "COAST", "ce": "COAST", "co": "COAST",
    "cote nord": "COAST", "cote sud": "COAST", "cote est": "COAST", "cote ouest": "COAST",
}  # fmt: skip

# The coast a coast keyword names.
COAST_WORDS: Final[dict[str, str]] = {
    "nc": "NC", "sc": "SC", "ec": "EC", "wc": "WC",
    "cn": "NC", "cs": "SC", "ce": "EC", "co": "WC",
    "n": "NC", "s": "SC", "e": "EC", "w": "WC", "o": "WC",
    "north": "NC", "south": "SC", "east": "EC", "west": "WC",
    "nord": "NC", "sud": "SC", "est": "EC", "ouest": "WC",
    "north coast": "NC", "south coast": "SC", "east coast": "EC", "west coast": "WC",
    "cote nord": "NC", "cote sud": "SC", "cote est": "EC", "cote ouest": "WC",
}  # fmt: skip

_LONGEST_KEYWORD = 3  # words in the longest keyword phrase
# First words of the keyword phrases, so single words skip the phrase lookup.
PHRASE_STARTS: Final = frozenset(
    phrase.split()[0] for phrase in (*ENGLISH_KEYWORDS, *FRENCH_KEYWORDS) if " " in phrase
)
# Seed 001 writes support, convoy and hold as "(S)", "(C)", "(H)".
_BRACKETED_KEYWORDS: Final[dict[str, str]] = {"s": "SUPPORT", "c": "CONVOY", "h": "HOLD"}
# Words that may follow a coast in brackets, never a supported unit: after them "(S)" is a coast.
_VERBS: Final = frozenset(
    {"HOLD", "_MOVE", "SUPPORT", "CONVOY", "VIA_CONVOY", "DISBAND", "BUILD", "REMOVE", "RETREAT", "R", "WAIVE", "PROXY", "COAST"}
)
_LONGEST_NAME = 6  # words in the longest province name ("mer de Groenland et de Norvège")


def fold(word: str) -> str:
    """Lower case without accents or a trailing full stop: how keywords are looked up."""
    word = word.lower().rstrip(".")
    if word.isascii():
        return word
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=4)
def keywords_for(french: bool, retreat_phase: bool) -> dict[str, str]:
    table = dict(ENGLISH_KEYWORDS)
    if french:
        table.update(FRENCH_KEYWORDS)
    if retreat_phase:
        table["r"] = "RETREAT"
    return table


# --------------------------------------------------------------------------
# Step 1: raw pieces.


@lru_cache(maxsize=1)
def _pieces_pattern() -> re.Pattern[str]:
    """One piece per match, with the white space before it: group 1 is that space,
    the group that matched next says the kind (see _KINDS).

    Compiled on first use: the fast path reads the usual orders without it, and compiling it
    at import was a share of every start-up (``judge adjudicate`` among others).
    """
    return re.compile(
        r"""
        (\s*)
        (?:
          (->|=>|→)                                  # arrow
        | ([-–—])                                    # dash
        | (/)                                        # slash
        | (\()                                       # open
        | (\))                                       # close
        | ([^\W_][\w'’]*(?:[-.][^\W_][\w'’]*)*\.?)    # word
        | (\S)                                       # other
        )
        """,
        re.VERBOSE,
    )


_KINDS: Final = ("", "", "arrow", "dash", "slash", "open", "close", "word", "other")


@dataclass(slots=True, eq=False)
class _Piece:
    """A piece of an order's text: a word, a dash, a slash, a bracket..."""

    kind: str  # arrow, dash, slash, open, close, word, other
    text: str
    start: int  # 0-based offset in the text being read
    spaced: bool  # white space before it
    folded: str = ""  # the word as keywords are looked up (words only)


def _pieces(text: str) -> list[_Piece]:
    pieces: list[_Piece] = []
    spaced = True
    for match in _pieces_pattern().finditer(text):
        index = match.lastindex or 1
        kind = _KINDS[index]
        piece = match.group(index)
        if not kind:  # trailing white space
            continue
        if kind == "other" and piece in ".:!":
            spaced = True
            continue
        start = match.start(index)
        folded = fold(piece) if kind == "word" else ""
        pieces.append(_Piece(kind, piece, start, spaced or start != match.start(), folded))
        spaced = False
    return pieces


# --------------------------------------------------------------------------
# Step 2: abstract tokens.


class Token(str):
    """A grammar token: the text as written, its ``type`` (``PLACE``, ``_MOVE``...) and offset.

    The reader's own, in place of Lark's: Lark is needed only to build the
    LALR tables (:mod:`judge.lang.order_grammar`), so ``judge adjudicate`` and the fast path
    never import it (start-up is most of a short batch). Same attribute
    names as ``lark.Token`` (``type``, ``value``, ``start_pos``).
    """

    __slots__ = ("start_pos", "type", "value")
    type: str
    value: str
    start_pos: int | None

    def __new__(cls, type: str, value: str, start_pos: int | None = None) -> Self:
        token = str.__new__(cls, value)
        token.type = type
        token.value = value
        token.start_pos = start_pos
        return token

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r})"


class PlaceToken(Token):
    """A ``PLACE`` token that carries the name reading it was read as.

    ``origin`` is set (True) on a place written in brackets after a unit type
    ("F(HOL)"): the province the unit comes from (seed 000).
    """

    __slots__ = ("origin", "reading")
    reading: NameReading
    origin: bool


class WordToken(Token):
    """A word that is neither keyword nor known name; keeps why it is unknown."""

    __slots__ = ("error",)
    error: CoreError | None


_T = TypeVar("_T", bound=Token)


def _subtoken(cls: type[_T], kind: str, value: str, start: int) -> _T:
    return cls(kind, value, start)


def _token(kind: str, piece: _Piece, text: str | None = None) -> Token:
    value = piece.text if text is None else text
    return Token(kind, value, piece.start)


class Tokenizer:
    """Turns raw pieces into grammar tokens, asking the map about names."""

    def __init__(self, game_map: GameMap, *, french: bool, retreat_phase: bool) -> None:
        self._map = game_map
        self._french = french
        self._keywords = keywords_for(french, retreat_phase)
        self._text = ""

    def tokens(self, text: str) -> list[Token]:
        self._text = text
        pieces = _pieces(text)
        out: list[Token] = []
        i = 0
        while i < len(pieces):
            piece = pieces[i]
            if piece.kind in ("arrow", "dash"):
                out.append(_token("_MOVE", piece))
                i += 1
            elif piece.kind == "open" and (bracketed := self._bracketed(pieces, i, out)) is not None:
                i = bracketed
            elif piece.kind in ("slash", "open"):
                i = self._coast_after_mark(pieces, i, out)
            elif piece.kind == "word":
                i = self._word(pieces, i, out)
            else:
                raise OrderSyntaxError(
                    Message(N_("Unexpected character -> {text}"), text=piece.text), piece.start + 1, piece.text
                )
        return out

    def _word(self, pieces: list[_Piece], i: int, out: list[Token]) -> int:
        keyword = self._keyword_at(pieces, i)
        if keyword is not None:
            kind, used = keyword
            first, last = pieces[i], pieces[i + used - 1]
            phrase = self._text[first.start : last.start + len(last.text)]
            if kind == "COAST":
                out.append(_token("COAST", first, COAST_WORDS[fold_phrase(pieces[i : i + used])]))
            elif kind == "CONVOY" and first.folded == "t" and i + used == len(pieces):
                # Seed 002 writes a hold "A Paris T": a T that ends the order convoys nothing.
                out.append(_token("HOLD", first, phrase))
            else:
                out.append(_token(kind, first, phrase))
            return i + used
        place = self._place_at(pieces, i)
        if place is not None:
            reading, used = place
            first, last = pieces[i], pieces[i + used - 1]
            name = self._text[first.start : last.start + len(last.text)]
            if isinstance(reading, (AmbiguousProvinceError, CoastError)):
                ambiguous = _subtoken(WordToken, "WORD", name, first.start)
                ambiguous.error = reading
                out.append(ambiguous)
            else:
                token = _subtoken(PlaceToken, "PLACE", name, first.start)
                token.reading = reading
                out.append(token)
            return i + used
        piece = pieces[i]
        if nation_named(self._map, piece.text) is not None:
            out.append(_token("NATION", piece))
            return i + 1
        if "-" in piece.text.strip("-"):
            cut = self._cut_hyphens(pieces, i)
            if cut is not None:
                # "LON-ENG-MAO-BRE" is no name: read it as names joined by dashes.
                pieces[i : i + 1] = cut
                return i
        word = _subtoken(WordToken, "WORD", piece.text, piece.start)
        word.error = None
        out.append(word)
        return i + 1

    def _cut_hyphens(self, pieces: list[_Piece], i: int) -> list[_Piece] | None:
        """How to cut a hyphenated word that is no name, or None to keep it whole.

        Names joined by dashes are cut at every dash ("LON-ENG-MAO-BRE",
        "Par-Bur"); names followed by a hyphenated name only before it
        ("Bre-Mid-Atlantic Ocean": Brest, then Mid-Atlantic Ocean). A word
        that is a close misspelling of one hyphenated name is kept whole
        ("Mid-Atlantc Ocean", "St-Petrsburg"), so that the reply quotes it
        and suggests the right place; anything else is cut at every dash.
        """
        piece = pieces[i]
        parts = piece.text.split("-")
        if all(self._known_word(part) for part in parts if part):
            return _split_hyphens(piece)
        following = self._spaced_words(pieces, i + 1)
        best_score, best_cut = self._place_score(piece.text, following), 0
        for k in range(1, len(parts)):
            head, tail = "-".join(parts[:k]), "-".join(parts[k:])
            if head and tail and all(self._known_word(part) for part in parts[:k] if part):
                score = self._place_score(tail, following)
                if score > best_score:
                    best_score, best_cut = score, k
        if not best_score:
            return _split_hyphens(piece)
        if not best_cut:
            return None
        head, tail = "-".join(parts[:best_cut]), "-".join(parts[best_cut:])
        tail_start = piece.start + len(head) + 1
        return [
            *_split_hyphens(_Piece("word", head, piece.start, piece.spaced, fold(head))),
            _Piece("dash", "-", tail_start - 1, False),
            _Piece("word", tail, tail_start, False, fold(tail)),
        ]

    def _known_word(self, word: str) -> bool:
        return name_reading(self._map, word, self._french) is not None or fold(word) in self._keywords

    @staticmethod
    def _spaced_words(pieces: list[_Piece], start: int) -> list[str]:
        words: list[str] = []
        for piece in pieces[start : start + _LONGEST_NAME - 1]:
            if piece.kind != "word" or not piece.spaced:
                break
            words.append(piece.text)
        return words

    def _place_score(self, text: str, following: list[str]) -> float:
        """How well ``text``, alone or with words after it, names a place: 100 for a name, else
        its closest misspelling's rapidfuzz ratio (0 when none is within ``_CLOSE_NAME``)."""
        from rapidfuzz import fuzz
        from rapidfuzz.process import extractOne

        keys = name_table(self._map).keys
        best = 0.0
        for count in range(len(following) + 1):
            name = " ".join([text, *following[:count]])
            if name_reading(self._map, name, self._french) is not None:
                return 100.0
            close = extractOne(name_key(name), keys, scorer=fuzz.ratio, score_cutoff=_CLOSE_NAME)
            if close is not None:
                best = max(best, float(close[1]))
        return best

    def _keyword_at(self, pieces: list[_Piece], i: int) -> tuple[str, int] | None:
        first = pieces[i].folded
        if first in PHRASE_STARTS:
            for length in range(_LONGEST_KEYWORD, 1, -1):
                run = _word_run(pieces, i, length)
                if run is not None:
                    kind = self._keywords.get(fold_phrase(run))
                    if kind is not None:
                        return kind, length
        kind = self._keywords.get(first)
        return None if kind is None else (kind, 1)

    def _is_keyword(self, piece: _Piece) -> bool:
        return piece.folded in self._keywords

    def _place_at(
        self, pieces: list[_Piece], i: int
    ) -> tuple[NameReading | AmbiguousProvinceError | CoastError, int] | None:
        """The longest run of words from ``i`` that is a name; keywords end a run."""
        end = i + 1
        while (
            end < len(pieces)
            and end - i < _LONGEST_NAME
            and pieces[end].kind == "word"
            and pieces[end].spaced
            and not self._is_keyword(pieces[end])
        ):
            end += 1
        for stop in range(end, i, -1):
            name = " ".join(p.text for p in pieces[i:stop])
            try:
                reading = name_reading(self._map, name, self._french)
            except (AmbiguousProvinceError, CoastError) as error:
                return error, stop - i
            if reading is not None:
                return reading, stop - i
        return None

    def _bracketed(self, pieces: list[_Piece], i: int, out: list[Token]) -> int | None:
        """Seed 001's "(S)", "(C)", "(H)" and a unit's origin in brackets ("F(HOL)").

        Returns the index after the ")" when the brackets hold one of those,
        else None (a coast in brackets, read by :meth:`_coast_after_mark`).
        "(S)" is the support when more words follow ("A Bur (S) A Tyr-Mun")
        and the south coast otherwise ("F Spa (s) - Mao").
        """
        if i + 2 >= len(pieces) or pieces[i + 1].kind != "word":
            return None
        inner = pieces[i + 1]
        if pieces[i + 2].kind == "close":
            after = pieces[i + 3] if i + 3 < len(pieces) else None
            kind = _BRACKETED_KEYWORDS.get(inner.folded)
            if kind == "SUPPORT" and (
                after is None or after.kind != "word" or self._keywords.get(after.folded) in _VERBS
            ):
                kind = None  # "F Spa (s) - Mao", "F Bul (s) S A Rum - Bla": the south coast
            if kind is not None:
                out.append(_token(kind, inner))
                return i + 3
        if not out or out[-1].type not in ("ARMY", "FLEET") or inner.folded in COAST_WORDS:
            return None
        place = self._place_at(pieces, i + 1)
        if place is None:
            return None
        reading, used = place
        if isinstance(reading, (AmbiguousProvinceError, CoastError)):
            return None
        close = i + 1 + used
        coast: Token | None = None
        if (  # "F(STP/NC)"
            close + 2 < len(pieces)
            and pieces[close].kind == "slash"
            and pieces[close + 1].kind == "word"
            and pieces[close + 1].folded in COAST_WORDS
        ):
            coast = _token("COAST", pieces[close], COAST_WORDS[pieces[close + 1].folded])
            close += 2
        if close >= len(pieces) or pieces[close].kind != "close":
            return None
        last = pieces[i + used]
        token = _subtoken(PlaceToken, "PLACE", self._text[inner.start : last.start + len(last.text)], inner.start)
        token.reading = reading
        token.origin = True
        out.append(token)
        if coast is not None:
            out.append(coast)
        return close + 1

    def _coast_after_mark(self, pieces: list[_Piece], i: int, out: list[Token]) -> int:
        """``/nc``, ``(nc)``, ``/north coast``, ``(côte nord)`` after a place."""
        mark = pieces[i]
        j = i + 1
        for used in (2, 1):
            run = _word_run(pieces, j, used)
            if run is not None and fold_phrase(run) in COAST_WORDS:
                out.append(_token("COAST", mark, COAST_WORDS[fold_phrase(run)]))
                j += used
                if mark.kind == "open":
                    if j < len(pieces) and pieces[j].kind == "close":
                        return j + 1
                    raise OrderSyntaxError(Message(N_("Missing ')' after the coast")), mark.start + 1, mark.text)
                return j
        fragment = pieces[j].text if j < len(pieces) else mark.text
        column = pieces[j].start + 1 if j < len(pieces) else mark.start + 1
        raise OrderSyntaxError(
            Message(N_("Unrecognized coast -> {fragment} (use /nc, /sc, /ec or /wc)"), fragment=fragment), column, fragment
        )


def _word_run(pieces: list[_Piece], i: int, length: int) -> list[_Piece] | None:
    """``length`` words from ``i`` separated by spaces only, or None."""
    if i + length > len(pieces):
        return None
    run = pieces[i : i + length]
    for k, piece in enumerate(run):
        if piece.kind != "word" or (k and not piece.spaced):
            return None
    return run


def fold_phrase(run: Sequence[_Piece]) -> str:
    return " ".join(p.folded for p in run)


# A hyphenated word this close (rapidfuzz ratio) to a name is that name misspelt.
_CLOSE_NAME: Final = 85.0


def _split_hyphens(piece: _Piece) -> list[_Piece]:
    parts: list[_Piece] = []
    offset = piece.start
    for k, part in enumerate(piece.text.split("-")):
        if k:
            parts.append(_Piece("dash", "-", offset, False))
            offset += 1
        if part:
            parts.append(_Piece("word", part, offset, False, fold(part)))
        offset += len(part)
    return parts


def name_reading(game_map: GameMap, name: str, french: bool) -> NameReading | None:
    """The reading of ``name``, or None when the tables do not know it as a whole.

    Readings are cached per map: a mail names the same few provinces again and
    again, and the name tables are pure. An ambiguous name raises
    :class:`AmbiguousProvinceError`.
    """
    entry = _READINGS.get(id(game_map))
    if entry is None or entry[0] is not game_map:
        if len(_READINGS) > 16:
            _READINGS.clear()
        entry = (game_map, {})
        _READINGS[id(game_map)] = entry
    cache = entry[1]
    key = (name, french)
    try:
        return cache[key]
    except KeyError:
        pass
    reading: NameReading | None = None
    if may_be_a_name(game_map, name, french):
        try:
            reading = resolve_location(name, game_map, french=french)
        except UnknownProvinceError:
            reading = None
    if len(cache) < 20_000:
        cache[key] = reading
    return reading


def may_be_a_name(game_map: GameMap, name: str, french: bool) -> bool:
    """Whether asking the name tables about ``name`` can succeed.

    A cheap screen: a failed :func:`resolve_location` looks for spelling
    suggestions (milliseconds), and the tokenizer tries runs of words that
    are no name ("LON-ENG-MAO-BRE" before cutting it at its hyphens), so
    only names the tables hold, or a name followed by a coast word
    ("Saint-Pétersbourg cs"), go to them.
    """
    if name_table(game_map).outcome(name_key(name), french) is not None:
        return True
    words = name.split()
    return len(words) > 1 and (
        fold(words[-1]) in COAST_WORDS or " ".join(fold(w) for w in words[-2:]) in COAST_WORDS
    )


# id(map) -> (map, {(name, french): reading}); the map is kept so its id stays its own.
_READINGS: dict[int, tuple[GameMap, dict[tuple[str, bool], NameReading | None]]] = {}



def location_of(game_map: GameMap, reading: NameReading, given: str | None) -> str | None:
    """``"STP/NC"`` or ``"PAR"`` from a name reading and the coast written after it.

    None when the two cannot be joined (two different coasts, or a coast the
    province lacks): the builder words that error, the fast path gives up.
    Shared by both so that they place units identically.
    """
    province = reading.province
    if reading.coast is not None and given is not None and given != reading.coast:
        return None
    chosen = given or reading.coast
    if chosen is None:
        return province
    if chosen not in coasts_of(game_map, province):
        return None
    return f"{province}/{chosen}"


def coasts_of(game_map: GameMap, province: str) -> tuple[str, ...]:
    """The coasts of a province with split coasts ("NC", "SC"), else ()."""
    return game_map.province(province).coasts
