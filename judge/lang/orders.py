"""Reading order text into the core's order values.

An order line goes through three steps, each with one job:

1. :func:`_words` cuts the text into raw pieces (words, dashes, slashes,
   brackets) and remembers where each starts, for error columns;
2. :class:`_Tokenizer` turns those pieces into the abstract tokens of
   ``grammar/orders.lark``. This is where the map comes in: the longest run of
   words that the name tables know becomes one ``PLACE`` ("mer du Nord",
   "Mid-Atlantic Ocean"), a hyphenated word that is no name is cut at its
   hyphens ("LON-ENG-BRE"), and every synonym of a keyword becomes one token;
3. the LALR parser checks the shape and :func:`_build` makes the order,
   settling what depends on the phase ("F TRI - ALB" is a retreat in a retreat
   phase, "DISBAND" a removal in an adjustment phase).

Errors are :class:`OrderSyntaxError` values with a Judge-style message, the
1-based column and the offending fragment, so a reply can point at the word.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Final, Self, TypeVar

from judge.core.errors import (
    AmbiguousProvinceError,
    CoastError,
    CoreError,
    Listing,
    OrderError,
    UnknownProvinceError,
)
from judge.core.geography import GameMap
from judge.core.names import NameReading, name_key, name_table, resolve_location, suggest_provinces
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
from judge.core.units import UnitRef, UnitType, province_of
from judge.lang.errors import N_, Message, Wording, english
from judge.lang.nations import nation_named
from judge.lang.substitution import other_readings

__all__ = ["OrderSyntaxError", "ReadOrder", "clear_reading_cache", "read_order", "read_order_line"]


class OrderSyntaxError(OrderError):
    """An order that cannot be read.

    ``message`` is what the Judge would answer ("Unrecognized source province
    -> Xyz (did you mean ...?)"), ``column`` the 1-based column in the text
    given (the line, for :func:`read_order_line`), ``text`` the fragment at
    fault. ``unit`` is the unit the order names when that part could be read,
    so a caller can still say which unit got no order.
    """

    def __init__(
        self, message: Wording, column: int, text: str, *, unit: UnitRef | None = None
    ) -> None:
        super().__init__(message)
        self.message = english(message)
        self.column = column
        self.text = text
        self.unit = unit

    def shifted(self, offset: int) -> OrderSyntaxError:
        """The same error with its column moved right by ``offset`` (an order inside a line)."""
        return OrderSyntaxError(self.translatable or self.message, self.column + offset, self.text, unit=self.unit)


@dataclass(frozen=True, slots=True)
class ReadOrder:
    """One order read from text.

    ``readings`` are the name readings that a rule had to settle (a name with
    more than one possible meaning), so that a reply can say which was taken.
    """

    order: Order
    text: str
    readings: tuple[NameReading, ...] = ()
    column: int = 1  # where ``text`` starts (1-based) in the text or line given
    nationalities: tuple[tuple[str, str], ...] = ()
    """(location, power) for each unit whose nationality was written ("S ALLEMAGNE A RUH")."""
    origins: tuple[str, ...] = ()
    """Locations written in brackets after a unit type ("retirer F(HOL)"): where the unit comes from."""
    preferences: tuple[Order, ...] = ()
    """A postal preference list ("A VIE R BUD, TRI, GAL"; "BUILD F BRE, A PAR"): every
    choice in the order written, ``order`` being the first; empty for a plain order."""


# A frozen dataclass's __init__ sets each field through object.__setattr__, which costs more than
# the rest of reading a plain order; the fast path makes its readings with the slots filled
# directly. Same object, same invariants: every field set once, before anyone sees the reading.
_NEW: Final = object.__new__
_READ_ORDER_SETTERS: Final[tuple[Any, ...]] = tuple(
    ReadOrder.__dict__[name].__set__
    for name in ("order", "text", "readings", "column", "nationalities", "origins", "preferences")
)


def _plain_reading(order: Order, text: str, readings: tuple[NameReading, ...], column: int) -> ReadOrder:
    """``ReadOrder(order, text, readings, column)``, without the frozen-init overhead."""
    read: ReadOrder = _NEW(ReadOrder)
    set_order, set_text, set_readings, set_column, set_nationalities, set_origins, set_preferences = (
        _READ_ORDER_SETTERS
    )
    set_order(read, order)
    set_text(read, text)
    set_readings(read, readings)
    set_column(read, column)
    set_nationalities(read, ())
    set_origins(read, ())
    set_preferences(read, ())
    return read


# --------------------------------------------------------------------------
# Keywords. Each maps a run of lower-case, accent-free words to a token type.

_ENGLISH_KEYWORDS: Final[dict[str, str]] = {
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
_FRENCH_KEYWORDS: Final[dict[str, str]] = {
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
_COAST_WORDS: Final[dict[str, str]] = {
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
_PHRASE_STARTS: Final = frozenset(
    phrase.split()[0] for phrase in (*_ENGLISH_KEYWORDS, *_FRENCH_KEYWORDS) if " " in phrase
)
# Seed 001 writes support, convoy and hold as "(S)", "(C)", "(H)".
_BRACKETED_KEYWORDS: Final[dict[str, str]] = {"s": "SUPPORT", "c": "CONVOY", "h": "HOLD"}
# Words that may follow a coast in brackets, never a supported unit: after them "(S)" is a coast.
_VERBS: Final = frozenset(
    {"HOLD", "_MOVE", "SUPPORT", "CONVOY", "VIA_CONVOY", "DISBAND", "BUILD", "REMOVE", "RETREAT", "R", "WAIVE", "PROXY", "COAST"}
)
_LONGEST_NAME = 6  # words in the longest province name ("mer de Groenland et de Norvège")


def _fold(word: str) -> str:
    """Lower case without accents or a trailing full stop: how keywords are looked up."""
    word = word.lower().rstrip(".")
    if word.isascii():
        return word
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=4)
def _keywords(french: bool, retreat_phase: bool) -> dict[str, str]:
    table = dict(_ENGLISH_KEYWORDS)
    if french:
        table.update(_FRENCH_KEYWORDS)
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
        folded = _fold(piece) if kind == "word" else ""
        pieces.append(_Piece(kind, piece, start, spaced or start != match.start(), folded))
        spaced = False
    return pieces


# --------------------------------------------------------------------------
# Step 2: abstract tokens.


class Token(str):
    """A grammar token: the text as written, its ``type`` (``PLACE``, ``_MOVE``...) and offset.

    The reader's own, in place of Lark's: Lark is needed only to build the
    LALR tables (:func:`_tables`), so ``judge adjudicate`` and the fast path
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


class _PlaceToken(Token):
    """A ``PLACE`` token that carries the name reading it was read as.

    ``origin`` is set (True) on a place written in brackets after a unit type
    ("F(HOL)"): the province the unit comes from (seed 000).
    """

    __slots__ = ("origin", "reading")
    reading: NameReading
    origin: bool


class _WordToken(Token):
    """A word that is neither keyword nor known name; keeps why it is unknown."""

    __slots__ = ("error",)
    error: CoreError | None


_T = TypeVar("_T", bound=Token)


def _subtoken(cls: type[_T], kind: str, value: str, start: int) -> _T:
    return cls(kind, value, start)


def _token(kind: str, piece: _Piece, text: str | None = None) -> Token:
    value = piece.text if text is None else text
    return Token(kind, value, piece.start)


class _Tokenizer:
    """Turns raw pieces into grammar tokens, asking the map about names."""

    def __init__(self, game_map: GameMap, *, french: bool, retreat_phase: bool) -> None:
        self._map = game_map
        self._french = french
        self._keywords = _keywords(french, retreat_phase)
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
                out.append(_token("COAST", first, _COAST_WORDS[_fold_phrase(pieces[i : i + used])]))
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
                ambiguous = _subtoken(_WordToken, "WORD", name, first.start)
                ambiguous.error = reading
                out.append(ambiguous)
            else:
                token = _subtoken(_PlaceToken, "PLACE", name, first.start)
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
        word = _subtoken(_WordToken, "WORD", piece.text, piece.start)
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
            *_split_hyphens(_Piece("word", head, piece.start, piece.spaced, _fold(head))),
            _Piece("dash", "-", tail_start - 1, False),
            _Piece("word", tail, tail_start, False, _fold(tail)),
        ]

    def _known_word(self, word: str) -> bool:
        return _lookup(self._map, word, self._french) is not None or _fold(word) in self._keywords

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
            if _lookup(self._map, name, self._french) is not None:
                return 100.0
            close = extractOne(name_key(name), keys, scorer=fuzz.ratio, score_cutoff=_CLOSE_NAME)
            if close is not None:
                best = max(best, float(close[1]))
        return best

    def _keyword_at(self, pieces: list[_Piece], i: int) -> tuple[str, int] | None:
        first = pieces[i].folded
        if first in _PHRASE_STARTS:
            for length in range(_LONGEST_KEYWORD, 1, -1):
                run = _word_run(pieces, i, length)
                if run is not None:
                    kind = self._keywords.get(_fold_phrase(run))
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
                reading = _lookup(self._map, name, self._french)
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
        if not out or out[-1].type not in ("ARMY", "FLEET") or inner.folded in _COAST_WORDS:
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
            and pieces[close + 1].folded in _COAST_WORDS
        ):
            coast = _token("COAST", pieces[close], _COAST_WORDS[pieces[close + 1].folded])
            close += 2
        if close >= len(pieces) or pieces[close].kind != "close":
            return None
        last = pieces[i + used]
        token = _subtoken(_PlaceToken, "PLACE", self._text[inner.start : last.start + len(last.text)], inner.start)
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
            if run is not None and _fold_phrase(run) in _COAST_WORDS:
                out.append(_token("COAST", mark, _COAST_WORDS[_fold_phrase(run)]))
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


def _fold_phrase(run: Sequence[_Piece]) -> str:
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
            parts.append(_Piece("word", part, offset, False, _fold(part)))
        offset += len(part)
    return parts


def _lookup(game_map: GameMap, name: str, french: bool) -> NameReading | None:
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
    if _may_be_a_name(game_map, name, french):
        try:
            reading = resolve_location(name, game_map, french=french)
        except UnknownProvinceError:
            reading = None
    if len(cache) < 20_000:
        cache[key] = reading
    return reading


def _may_be_a_name(game_map: GameMap, name: str, french: bool) -> bool:
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
        _fold(words[-1]) in _COAST_WORDS or " ".join(_fold(w) for w in words[-2:]) in _COAST_WORDS
    )


# id(map) -> (map, {(name, french): reading}); the map is kept so its id stays its own.
_READINGS: dict[int, tuple[GameMap, dict[tuple[str, bool], NameReading | None]]] = {}


# --------------------------------------------------------------------------
# Step 3: shape and meaning.


# A parse node: (rule or alias name, children). Tokens are the leaves.
_Node = tuple[str, tuple[Any, ...]]


class _Inline(list[Any]):
    """Children of one of Lark's helper rules (``x+``, ``x*``), spliced into the parent."""


@dataclass(frozen=True, slots=True, eq=False)
class _Reduction:
    """What the parser does when it reduces by one rule of the grammar."""

    size: int  # symbols popped
    goto: str  # the rule's own name, to find the next state
    node: str  # the name the node gets (its alias, if any)
    inline: bool  # a helper rule: splice its children into the parent
    top: bool  # the start rule: its one child is the result


@dataclass(frozen=True, slots=True, eq=False)
class _Tables:
    """Lark's LALR(1) tables for grammar/orders.lark, in a form a small loop can run fast.

    Lark builds and checks the tables from the grammar (the grammar stays the
    one source of truth); this module only runs them. Running them here
    rather than through ``Lark.parse`` skips per-call objects and parse
    trees: a node is a plain tuple, which is what makes reading an order
    take tens of microseconds.
    """

    # state -> token or rule name -> (shift?, next state or reduction)
    actions: dict[int, dict[str, tuple[bool, Any]]]
    start: int
    end: int


@lru_cache(maxsize=1)
def _tables() -> _Tables:
    """The tables, built once on first use (no on-disk cache: installs may be read-only)."""
    from importlib.resources import files

    from lark import Lark
    from lark.lexer import Lexer
    from lark.parsers.lalr_analysis import Shift

    class _ListLexer(Lexer):
        """Lets Lark build the tables of a grammar whose tokens come from elsewhere."""

        def __init__(self, lexer_conf: Any) -> None:
            del lexer_conf

        def lex(self, data: Any) -> Iterator[Any]:  # type: ignore[override]
            return iter(data)

    grammar = files("judge").joinpath("grammar", "orders.lark").read_text(encoding="utf-8")
    lark = Lark(grammar, parser="lalr", lexer=_ListLexer)
    table = lark.parser.parser._parse_table
    reductions: dict[int, _Reduction] = {}
    actions: dict[int, dict[str, tuple[bool, Any]]] = {}
    for state, row in table.states.items():
        actions[state] = {}
        for symbol, (action, arg) in row.items():
            if action is Shift:
                actions[state][symbol] = (True, arg)
                continue
            reduction = reductions.get(id(arg))
            if reduction is None:
                origin = arg.origin.name
                reduction = _Reduction(
                    size=len(arg.expansion),
                    goto=origin,
                    node=str(arg.alias or origin),
                    inline=origin.startswith("__"),
                    top=origin == "start",
                )
                reductions[id(arg)] = reduction
            actions[state][symbol] = (False, reduction)
    return _Tables(actions, table.start_states["start"], table.end_states["start"])


class _ParseFailure(Exception):
    """The token the parser could not take, and the token types it expected there."""

    def __init__(self, token: Token, expected: frozenset[str]) -> None:
        super().__init__(token.type)
        self.token = token
        self.expected = expected


_END: Final = Token("$END", "")

# A parse tree whose leaves are token positions: the shape of every order
# written with the same token types ("A LON - BEL" and "F BRE - MAO").
_Template = tuple[str, tuple[Any, ...]]


def _parse(tokens: Sequence[Token]) -> _Node:
    """Run the LALR tables over ``tokens``; raises :class:`_ParseFailure`.

    The parse depends on the token types alone, so it runs once per sequence
    of types (:func:`_shape`) and the tree is then filled with these tokens.
    """
    shape = _shape(tuple(token.type for token in tokens))
    if isinstance(shape, _ShapeFailure):
        token = tokens[shape.position] if shape.position < len(tokens) else _END
        raise _ParseFailure(token, shape.expected)
    return _fill(shape, tokens)


def _fill(template: _Template, tokens: Sequence[Token]) -> _Node:
    name, children = template
    return name, tuple([tokens[c] if type(c) is int else _fill(c, tokens) for c in children])


@dataclass(frozen=True, slots=True, eq=False)
class _ShapeFailure:
    """Where a sequence of token types stops parsing, and the types expected there."""

    position: int  # index of the token refused; len(types) for the end
    expected: frozenset[str]


@lru_cache(maxsize=4096)
def _shape(types: tuple[str, ...]) -> _Template | _ShapeFailure:
    """Run the LALR tables over token types; leaves are positions in ``types``."""
    tables = _tables()
    actions = tables.actions
    states = [tables.start]
    values: list[Any] = []
    for position, kind in enumerate((*types, "$END")):
        while True:
            row = actions[states[-1]]
            try:
                shift, arg = row[kind]
            except KeyError:
                expected = frozenset(s for s in row if s.isupper() or s == "$END")
                return _ShapeFailure(position, expected)
            if shift:
                states.append(arg)
                values.append(position)
                break
            reduction: _Reduction = arg
            size = reduction.size
            popped = values[len(values) - size :] if size else []
            if size:
                del states[-size:]
                del values[-size:]
            children: list[Any] = []
            for child in popped:
                if type(child) is _Inline:
                    children.extend(child)
                elif not (type(child) is int and types[child][0] == "_"):
                    children.append(child)
            if reduction.top:
                return children[0]  # type: ignore[no-any-return]
            value: Any = (
                _Inline(children) if reduction.inline else (reduction.node, tuple(children))
            )
            states.append(actions[states[-1]][reduction.goto][1])
            values.append(value)
    raise AssertionError("the parser ended without reaching its end state")  # pragma: no cover


_UNIT_TREES: Final = frozenset({"army", "fleet", "untyped"})
_PLACE_TREES: Final = frozenset({"known_place", "unknown_place"})

# How a token is named in "Unexpected ..." messages.
_TOKEN_WORDS: Final[dict[str, str]] = {
    "PLACE": N_("a province"),
    "WORD": N_("a province"),
    "COAST": N_("a coast"),
    "ARMY": N_("a unit type"),
    "FLEET": N_("a unit type"),
}


class _Builder:
    """Makes one core order from a parse tree, in the light of the phase."""

    def __init__(
        self, text: str, game_map: GameMap, phase_type: PhaseType | None, french: bool
    ) -> None:
        self._text = text
        self._map = game_map
        self._phase = phase_type
        self._french = french
        self.readings: list[NameReading] = []
        self.nationalities: list[tuple[str, str]] = []
        self.origins: list[str] = []
        self.unit: UnitRef | None = None

    def build(self, node: _Node) -> Order:
        kind, children = node
        units = [c for c in children if type(c) is tuple and c[0] in _UNIT_TREES]
        places = [c for c in children if type(c) is tuple and c[0] in _PLACE_TREES]
        keywords = [c for c in children if isinstance(c, Token)]
        via = any(type(c) is tuple and c[0] == "via" for c in children)
        if kind == "waive":
            if len(children) > 1:
                extra = children[1]
                raise self._fail(Message(N_("WAIVE takes nothing after it")), extra)
            return Waive()

        unit = self._unit(units[0], "source")
        self.unit = unit
        if kind == "hold":
            return Hold(unit)
        if kind == "bare":
            if self._phase is PhaseType.ADJUSTMENT:
                return self._build_order(unit, units[0])
            raise self._fail(Message(N_("No order given for {unit}"), unit=unit), units[0])
        if kind == "move":
            route = next(c for c in children if type(c) is tuple and c[0] == "route")
            hops = [places[0], *(c for c in route[1] if type(c) is tuple)]
            locations = [self._place(hop, "destination" if k == len(hops) - 1 else "convoy route")
                         for k, hop in enumerate(hops)]  # fmt: skip
            if self._phase is PhaseType.RETREAT:
                if len(locations) > 1 or via:
                    raise self._fail(
                        Message(N_("A retreat goes to one adjacent province, never by convoy")), node
                    )
                return Retreat(unit, locations[0])
            return Move(unit, locations[-1], via_convoy=via, route=tuple(locations[:-1]))
        if kind == "convoyed_move":
            if not self._french:
                raise self._fail(
                    Message(N_("A convoy order names the convoyed unit and its move, e.g. F NTH C A LON - BEL")),
                    node,
                )
            return Move(unit, self._place(places[0], "destination"), via_convoy=True)
        if kind == "support_hold":
            return SupportHold(unit, self._unit(units[1], "supported unit's"))
        if kind == "support_move":
            supported = self._unit(units[1], "supported unit's")
            return SupportMove(unit, supported, self._place(places[0], "destination"))
        if kind == "convoy":
            convoyed = self._unit(units[1], "convoyed unit's")
            return Convoy(unit, convoyed, self._place(places[0], "destination"))
        if kind == "retreat":
            return Retreat(unit, self._place(places[0], "destination"))
        if kind in ("disband_after", "disband_before"):
            return Remove(unit) if self._phase is PhaseType.ADJUSTMENT else Disband(unit)
        if kind in ("remove_after", "remove_before"):
            if self._phase is PhaseType.RETREAT and keywords[0].type == "RETREAT":
                raise self._fail(Message(N_("Missing destination for the retreat of {unit}"), unit=unit), node)
            return Remove(unit)
        if kind in ("build_after", "build_before"):
            return self._build_order(unit, units[0])
        if kind == "proxy":
            raise self._fail(Message(N_("Proxy orders are not supported by this judge")), node)
        raise AssertionError(f"grammar rule without a meaning: {kind}")

    def _build_order(self, unit: UnitRef, where: _Node) -> Build:
        if unit.type is None:
            raise self._fail(
                Message(N_("Unit type missing for the build in {location}: write A or F"), location=unit.location), where
            )
        return Build(unit.type, unit.location)

    def _unit(self, node: _Node, role: str) -> UnitRef:
        kind, children = node
        place = children[-1]
        location = self._place(place, role)
        if getattr(place[1][0], "origin", False):
            self.origins.append(location)
        for child in children:
            if isinstance(child, Token) and child.type == "NATION":
                power = nation_named(self._map, str(child.value))
                if power is not None:
                    self.nationalities.append((location, power))
        if kind == "army":
            return UnitRef(UnitType.ARMY, location)
        if kind == "fleet":
            return UnitRef(UnitType.FLEET, location)
        return UnitRef(None, location)

    def _place(self, node: _Node, role: str) -> str:
        tokens: list[Token] = list(node[1])
        coast = tokens[-1] if tokens[-1].type == "COAST" else None
        names = tokens[:-1] if coast is not None else tokens
        first, last = names[0], names[-1]
        start = first.start_pos or 0
        end = (last.start_pos or 0) + len(last.value)
        written = self._text[start:end]
        if node[0] == "unknown_place":
            error = getattr(first, "error", None)
            message: Wording
            if isinstance(error, AmbiguousProvinceError):
                candidates = Listing(tuple(error.candidates), N_(" or "))
                message = Message(_ROLE_MESSAGES[role][2], written=written, candidates=candidates)
            elif isinstance(error, CoastError):
                message = Message(N_("Invalid coast -> {error}"), error=error.translatable or str(error))
            else:
                near = frozenset() if self.unit is None else self._map.province_neighbours(province_of(self.unit.location))
                suggestions = _suggestions(self._map, written, self._french, near)
                if suggestions:
                    message = Message(_ROLE_MESSAGES[role][1], written=written, suggestions=suggestions)
                else:
                    message = Message(_ROLE_MESSAGES[role][0], written=written)
            raise OrderSyntaxError(message, start + 1, written, unit=self.unit)
        reading: NameReading = getattr(first, "reading")  # noqa: B009 - set by the tokenizer
        if reading.alternatives:
            self.readings.append(reading)
        return self._with_coast(reading, coast, written, start)

    def _with_coast(
        self, reading: NameReading, coast: Token | None, written: str, start: int
    ) -> str:
        given = coast.value if coast is not None else None
        location = _location(self._map, reading, given)
        if location is not None:
            return location
        if reading.coast is not None and given is not None and given != reading.coast:
            raise OrderSyntaxError(
                Message(N_("Two different coasts given -> {written}"), written=written), start + 1, written, unit=self.unit
            )
        chosen = given or reading.coast
        assert chosen is not None  # without a coast, _location always joins
        coasts = _coasts(self._map, reading.province)
        coast_name = Message(_COAST_NAMES[chosen])
        message = (
            Message(N_("Invalid coast -> {written} has no {coast} (coasts: {coasts})"),
                    written=written, coast=coast_name, coasts=", ".join(coasts))
            if coasts
            else Message(N_("Invalid coast -> {written} has no {coast}"), written=written, coast=coast_name)
        )
        raise OrderSyntaxError(message, start + 1, written, unit=self.unit)

    def _fail(self, message: Wording, where: _Node) -> OrderSyntaxError:
        """The error to raise for ``where``, pointing at its first word."""
        tokens = list(_leaves(where))
        if tokens:
            start = tokens[0].start_pos or 0
            last = tokens[-1]
            end = (last.start_pos or 0) + len(last.value)
        else:
            start, end = 0, len(self._text)
        return OrderSyntaxError(message, start + 1, self._text[start:end], unit=self.unit)


def _leaves(node: _Node) -> Iterator[Token]:
    for child in node[1]:
        if isinstance(child, Token):
            yield child
        else:
            yield from _leaves(child)


_COAST_NAMES: Final = {
    "NC": N_("north coast"),
    "SC": N_("south coast"),
    "EC": N_("east coast"),
    "WC": N_("west coast"),
}

# Role of a place in an order -> the messages for a name that cannot be read there:
# (unrecognized, unrecognized with suggestions, ambiguous). Whole sentences, so that
# a translation can place the role where its language wants it.
_ROLE_MESSAGES: Final[dict[str, tuple[str, str, str]]] = {
    "source": (
        N_("Unrecognized source province -> {written}"),
        N_("Unrecognized source province -> {written} (did you mean {suggestions}?)"),
        N_("Ambiguous source province -> {written} (could be {candidates})"),
    ),
    "destination": (
        N_("Unrecognized destination province -> {written}"),
        N_("Unrecognized destination province -> {written} (did you mean {suggestions}?)"),
        N_("Ambiguous destination province -> {written} (could be {candidates})"),
    ),
    "convoy route": (
        N_("Unrecognized convoy route province -> {written}"),
        N_("Unrecognized convoy route province -> {written} (did you mean {suggestions}?)"),
        N_("Ambiguous convoy route province -> {written} (could be {candidates})"),
    ),
    "supported unit's": (
        N_("Unrecognized supported unit's province -> {written}"),
        N_("Unrecognized supported unit's province -> {written} (did you mean {suggestions}?)"),
        N_("Ambiguous supported unit's province -> {written} (could be {candidates})"),
    ),
    "convoyed unit's": (
        N_("Unrecognized convoyed unit's province -> {written}"),
        N_("Unrecognized convoyed unit's province -> {written} (did you mean {suggestions}?)"),
        N_("Ambiguous convoyed unit's province -> {written} (could be {candidates})"),
    ),
}


def _suggestions(game_map: GameMap, written: str, french: bool, near: frozenset[str]) -> Listing | None:
    """The names suggested for an unknown name ("X or Y"), those ``near`` first, or None.

    A name written with a coast ("Nrth Sea/nc") is matched without it.
    """
    try:
        resolve_location(written, game_map, french=french)
    except UnknownProvinceError as error:
        if not error.suggestions:
            return None
    except CoreError:
        return None
    else:
        return None
    name = re.split(r"[/(]", written, maxsplit=1)[0]
    suggestions = suggest_provinces(name, game_map, french=french, near=near)
    return Listing(suggestions, N_(" or ")) if suggestions else None


def _location(game_map: GameMap, reading: NameReading, given: str | None) -> str | None:
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
    if chosen not in _coasts(game_map, province):
        return None
    return f"{province}/{chosen}"


def _coasts(game_map: GameMap, province: str) -> tuple[str, ...]:
    """The coasts of a province with split coasts ("NC", "SC"), else ()."""
    return game_map.province(province).coasts


def _leading_unit(tokens: Sequence[Token]) -> UnitRef | None:
    """The unit an unreadable order starts with, when that much can be read."""
    i = 0
    if i < len(tokens) and tokens[i].type in ("BUILD", "REMOVE", "R", "DISBAND"):
        i += 1
    unit_type: UnitType | None = None
    if i < len(tokens) and tokens[i].type in ("ARMY", "FLEET"):
        unit_type = UnitType.ARMY if tokens[i].type == "ARMY" else UnitType.FLEET
        i += 1
    if i < len(tokens) and isinstance(tokens[i], _PlaceToken):
        reading: NameReading = tokens[i].reading  # type: ignore[attr-defined]
        location = reading.province
        if i + 1 < len(tokens) and tokens[i + 1].type == "COAST":
            location = f"{location}/{tokens[i + 1].value}"
        elif reading.coast:
            location = f"{location}/{reading.coast}"
        return UnitRef(unit_type, location)
    return None


def _syntax_error(failure: _ParseFailure, text: str, tokens: Sequence[Token]) -> OrderSyntaxError:
    unit = _leading_unit(tokens)
    token = failure.token
    if token.type != "$END":
        column = (token.start_pos or 0) + 1
        what = _TOKEN_WORDS.get(token.type)
        message = (
            Message(N_("Invalid order syntax -> unexpected {what} '{value}'"), what=Message(what), value=token.value)
            if what is not None
            else Message(N_("Invalid order syntax -> unexpected '{value}'"), value=token.value)
        )
        return OrderSyntaxError(message, column, str(token.value), unit=unit)
    if failure.expected & {"PLACE", "WORD"}:
        message = Message(N_("Missing province after '{value}'"), value=tokens[-1].value)
    else:
        message = Message(N_("Incomplete order"))
    return OrderSyntaxError(message, len(text.rstrip()) + 1, "", unit=unit)


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
    for word, coast in _COAST_WORDS.items()
    if " " not in word and not any(other.startswith(word + " ") for other in _COAST_WORDS)
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
    phrase_start = slash < 0 and folded in _PHRASE_STARTS
    kind = keywords.get(folded) if slash < 0 else None
    if kind is not None:
        return _WordMeaning(_GIVE_UP if kind == "COAST" else kind, phrase_start=phrase_start)
    try:
        reading = _lookup(game_map, name, french)
    except (AmbiguousProvinceError, CoastError):
        return _UNREADABLE_WORD
    if reading is None:
        return _UNREADABLE_WORD
    location = _location(game_map, reading, given)
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


def _read_canonical(
    text: str, game_map: GameMap, phase_type: PhaseType | None, french: bool
) -> ReadOrder | None:
    """The order in ``text`` when it is written plainly, else None (see above)."""
    words = text.split()
    count = len(words)
    if not count:
        return None
    retreat_phase = phase_type is PhaseType.RETREAT
    keywords = _keywords(french, retreat_phase)
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
    return _plain_reading(recipe(locations), text.strip(), tuple(readings) if readings else (), column)


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


# --------------------------------------------------------------------------
# Public API.


def read_order(
    text: str,
    game_map: GameMap,
    *,
    phase_type: PhaseType | None = None,
    french: bool = False,
) -> ReadOrder:
    """Read one order ("A LON - BEL VIA CONVOY", "F mer du Nord C A Londres - Belgique").

    ``phase_type`` settles the words that mean different things in different
    phases (a move in a retreat phase is a retreat, DISBAND in an adjustment
    phase a removal, a bare "A PAR" a build); ``None`` reads the order as
    written. ``french`` adds the French names and keywords (T/xxx for hold,
    "par convoi", "côte nord"). Raises :class:`OrderSyntaxError`.

    One reading per (text, map, phase type, language): the same orders come
    again and again. Reading is pure and a :class:`ReadOrder` is immutable,
    so a repeated order ("A PAR H", the same convoy every turn) costs one
    dictionary lookup. Errors are not kept: each gets its own exception
    object and its suggestions.
    """
    key = (text, game_map, phase_type, french)
    read = _ORDERS_READ.get(key)
    if read is None:
        read = _read_canonical(text, game_map, phase_type, french)
        if read is None:
            read = _read_general(text, game_map, phase_type, french)
        if len(_ORDERS_READ) >= _MAX_ORDERS_READ:
            _ORDERS_READ.clear()
        _ORDERS_READ[key] = read
    return read


def clear_reading_cache() -> None:
    """Forget the orders read so far (for benchmarks and tests that time or compare the readers)."""
    _ORDERS_READ.clear()


_ORDERS_READ: dict[tuple[str, GameMap, PhaseType | None, bool], ReadOrder] = {}
"""The orders read so far (a pure function's memo: emptied when it reaches ``_MAX_ORDERS_READ``)."""
_MAX_ORDERS_READ: Final = 16_384


def _read_general(
    text: str, game_map: GameMap, phase_type: PhaseType | None, french: bool
) -> ReadOrder:
    """The general reader: pieces, map-aware tokens, the LALR grammar, the builder."""
    tokenizer = _Tokenizer(game_map, french=french, retreat_phase=phase_type is PhaseType.RETREAT)
    tokens = tokenizer.tokens(text)
    if not tokens:
        raise OrderSyntaxError(Message(N_("Empty order")), 1, text)
    try:
        node = _parse(tokens)
    except _ParseFailure as failure:
        raise _syntax_error(failure, text, tokens) from None
    builder = _Builder(text, game_map, phase_type, french)
    order = builder.build(node)
    column = len(text) - len(text.lstrip()) + 1
    return ReadOrder(
        order, text.strip(), tuple(builder.readings), column, tuple(builder.nationalities), origins=tuple(builder.origins)
    )


_SEPARATORS: Final = re.compile(r"[,;]")


def read_order_line(
    line: str,
    game_map: GameMap,
    *,
    phase_type: PhaseType | None = None,
    french: bool = False,
) -> list[ReadOrder | OrderSyntaxError]:
    """Read a line of one or more orders separated by "," or ";".

    Each order gives a :class:`ReadOrder` or the :class:`OrderSyntaxError`
    that explains why it could not be read (columns counted in the whole
    line), in the order written; empty pieces between separators are skipped.
    """
    if "," not in line and ";" not in line:  # one order: no need to cut the line
        if not line.strip():
            return []
        try:
            return [read_order(line, game_map, phase_type=phase_type, french=french)]
        except OrderSyntaxError as error:
            return [error]
    from judge.lang.preferences import is_list_head  # here: a line of one order never needs it

    results: list[ReadOrder | OrderSyntaxError] = []
    start = 0
    for match in [*_SEPARATORS.finditer(line), None]:
        end = match.start() if match is not None else len(line)
        piece = line[start:end]
        head = results[-1] if results else None
        if piece.strip() and isinstance(head, ReadOrder) and is_list_head(head.order):
            extended = _extend_list(head, piece, line, end, game_map, french)
            if extended is not None:
                results[-1] = extended
                piece = ""
        if piece.strip():
            try:
                read = read_order(piece, game_map, phase_type=phase_type, french=french)
                results.append(replace(read, column=read.column + start))
            except OrderSyntaxError as error:
                results.append(error.shifted(start))
        if match is not None:
            start = match.end()
    return results


# --------------------------------------------------------------------------
# Postal preference lists (seed 000, 3.4.2): "A VIE R BUD, TRI, GAL",
# "construire F BRE, A PAR, A MAR", "retirer F(HOL), A(MUN)".

_LIST_UNIT_WORD: Final = re.compile(r"[^\W\d_]+")


def _extend_list(
    head: ReadOrder, piece: str, line: str, end: int, game_map: GameMap, french: bool
) -> ReadOrder | None:
    """``head`` with one more choice read from ``piece``, or None when the piece is no choice.

    After a retreat, a piece that is only a province is the next retreat
    choice; after a build or a removal, a piece that starts with a unit type
    ("A PAR", "F(HOL)") is the next build or removal. Anything else is an
    order of its own, read as before.
    """
    first = head.preferences[0] if head.preferences else head.order
    readings = head.readings
    origins = head.origins
    choice: Order
    new_readings: tuple[NameReading, ...] = ()
    if isinstance(first, Retreat):
        name = piece.strip()
        if "/" not in name and "(" not in name and not _may_be_a_name(game_map, name, french):
            return None  # no province: an order of its own (skips the spelling suggestions)
        try:
            reading = resolve_location(name, game_map, french=french)
        except CoreError:
            return None
        location = _location(game_map, reading, None)
        if location is None:
            return None
        choice = Retreat(first.unit, location)
        if reading.alternatives:
            new_readings = (reading,)
    elif isinstance(first, Build | Remove):
        word = _LIST_UNIT_WORD.match(piece.strip())
        if word is None or _keywords(french, False).get(_fold(word.group())) not in ("ARMY", "FLEET"):
            return None
        try:
            read = read_order(piece, game_map, phase_type=PhaseType.ADJUSTMENT, french=french)
        except OrderSyntaxError:
            return None
        if not isinstance(read.order, Build):
            return None
        built = read.order
        choice = built if isinstance(first, Build) else Remove(UnitRef(built.type, built.location))
        new_readings = read.readings
        origins = (*origins, *read.origins)
    else:
        return None
    text = line[head.column - 1 : end].strip()
    # A shared name ("TYR", "MAR") adds its other reading as the next choice:
    # the board of the phase the list is for settles which one is legal.
    before = head.preferences or _with_other_readings(head.order, head.readings)
    choices = tuple(dict.fromkeys((*before, *_with_other_readings(choice, new_readings))))
    return replace(head, text=text, readings=(*readings, *new_readings), preferences=choices, origins=origins)


def _with_other_readings(order: Order, readings: Sequence[NameReading]) -> tuple[Order, ...]:
    return (order, *(other for other, _ in other_readings(order, readings)))
