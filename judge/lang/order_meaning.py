"""The general order reader: tokens, the grammar's parse, and the order it means.

:func:`read_general` reads any order the grammar knows: the map-aware tokens
(:mod:`judge.lang.order_tokens`), the LALR parse (:mod:`judge.lang.order_grammar`),
then :class:`Builder` makes the core order from the tree, settling what depends
on the phase ("F TRI - ALB" is a retreat in a retreat phase, "DISBAND" a removal
in an adjustment phase). Errors are :class:`~judge.lang.order_values.OrderSyntaxError`
values with a Judge-style message, the 1-based column and the offending fragment.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from judge.core.errors import (
    AmbiguousProvinceError,
    CoastError,
    CoreError,
    Listing,
    UnknownProvinceError,
)
from judge.core.geography import GameMap
from judge.core.names import NameReading, resolve_location, suggest_provinces
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
from judge.lang.errors import N_, Message, Wording
from judge.lang.nations import nation_named
from judge.lang.order_grammar import Node, ParseFailure, parse_tokens
from judge.lang.order_tokens import PlaceToken, Token, Tokenizer, coasts_of, location_of
from judge.lang.order_values import OrderSyntaxError, ReadOrder

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

    def build(self, node: Node) -> Order:
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

    def _build_order(self, unit: UnitRef, where: Node) -> Build:
        if unit.type is None:
            raise self._fail(
                Message(N_("Unit type missing for the build in {location}: write A or F"), location=unit.location), where
            )
        return Build(unit.type, unit.location)

    def _unit(self, node: Node, role: str) -> UnitRef:
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

    def _place(self, node: Node, role: str) -> str:
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
        location = location_of(self._map, reading, given)
        if location is not None:
            return location
        if reading.coast is not None and given is not None and given != reading.coast:
            raise OrderSyntaxError(
                Message(N_("Two different coasts given -> {written}"), written=written), start + 1, written, unit=self.unit
            )
        chosen = given or reading.coast
        assert chosen is not None  # without a coast, _location always joins
        coasts = coasts_of(self._map, reading.province)
        coast_name = Message(_COAST_NAMES[chosen])
        message = (
            Message(N_("Invalid coast -> {written} has no {coast} (coasts: {coasts})"),
                    written=written, coast=coast_name, coasts=", ".join(coasts))
            if coasts
            else Message(N_("Invalid coast -> {written} has no {coast}"), written=written, coast=coast_name)
        )
        raise OrderSyntaxError(message, start + 1, written, unit=self.unit)

    def _fail(self, message: Wording, where: Node) -> OrderSyntaxError:
        """The error to raise for ``where``, pointing at its first word."""
        tokens = list(_leaves(where))
        if tokens:
            start = tokens[0].start_pos or 0
            last = tokens[-1]
            end = (last.start_pos or 0) + len(last.value)
        else:
            start, end = 0, len(self._text)
        return OrderSyntaxError(message, start + 1, self._text[start:end], unit=self.unit)


def _leaves(node: Node) -> Iterator[Token]:
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


def _leading_unit(tokens: Sequence[Token]) -> UnitRef | None:
    """The unit an unreadable order starts with, when that much can be read."""
    i = 0
    if i < len(tokens) and tokens[i].type in ("BUILD", "REMOVE", "R", "DISBAND"):
        i += 1
    unit_type: UnitType | None = None
    if i < len(tokens) and tokens[i].type in ("ARMY", "FLEET"):
        unit_type = UnitType.ARMY if tokens[i].type == "ARMY" else UnitType.FLEET
        i += 1
    if i < len(tokens) and isinstance(tokens[i], PlaceToken):
        reading: NameReading = tokens[i].reading  # type: ignore[attr-defined]
        location = reading.province
        if i + 1 < len(tokens) and tokens[i + 1].type == "COAST":
            location = f"{location}/{tokens[i + 1].value}"
        elif reading.coast:
            location = f"{location}/{reading.coast}"
        return UnitRef(unit_type, location)
    return None


def _syntax_error(failure: ParseFailure, text: str, tokens: Sequence[Token]) -> OrderSyntaxError:
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


def read_general(
    text: str, game_map: GameMap, phase_type: PhaseType | None, french: bool
) -> ReadOrder:
    """The general reader: pieces, map-aware tokens, the LALR grammar, the builder."""
    tokenizer = Tokenizer(game_map, french=french, retreat_phase=phase_type is PhaseType.RETREAT)
    tokens = tokenizer.tokens(text)
    if not tokens:
        raise OrderSyntaxError(Message(N_("Empty order")), 1, text)
    try:
        node = parse_tokens(tokens)
    except ParseFailure as failure:
        raise _syntax_error(failure, text, tokens) from None
    builder = _Builder(text, game_map, phase_type, french)
    order = builder.build(node)
    column = len(text) - len(text.lstrip()) + 1
    return ReadOrder(
        order, text.strip(), tuple(builder.readings), column, tuple(builder.nationalities), origins=tuple(builder.origins)
    )
