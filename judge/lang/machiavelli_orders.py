"""Reading the Renaissance game's own orders, in English and French.

The game's orders are Diplomacy's (read by :func:`judge.lang.orders.read_order`) plus those of
its garrisons and sieges, written as the classic Judge reads them:

* ``A SIE BESIEGE`` (``B``, ``SIEGE``, the misspellings ``BESEIGE``/``SEIGE``; French
  ``ASSIÈGE``), ``A SIE LIFT SIEGE`` (``L``, ``LS``, ``LIFT``; ``LÈVE LE SIÈGE``);
* ``A PAV CONVERT TO GARRISON`` (``A PAV C G``; ``A PAV SE CONVERTIT EN GARNISON``) and, for a
  garrison, ``G GEN C A`` / ``G PSA CONVERT TO FLEET`` (``G GEN C ARMÉE``);
* a garrison's hold and support: ``G FLO H``, ``G FLO S A ARE - FLO`` (``G FLO T``,
  ``G FLO SOUTIENT A ARE - FLO``), and a support of a garrison's conversion,
  ``A FOR S G GEN - GEN``;
* ``A SAV DISBAND`` / ``G SAV DISBAND`` (under SET DISBAND; ``DISPERSE``).

In this game ``C`` converts (the classic Judge writes convoys ``T`` or ``CONVOY``): ``C``
followed by a unit type alone is a conversion, followed by a unit and its move a convoy, as in
Diplomacy. Names are the board's, in English or (``french``) in French too.
"""

from __future__ import annotations

import re
from typing import Final

from judge.core.errors import N_, CoreError, Message
from judge.core.geography import GameMap
from judge.core.machiavelli.campaign import city_space
from judge.core.machiavelli.orders import (
    Besiege,
    GarrisonConvert,
    GarrisonDisband,
    GarrisonHold,
    GarrisonSupport,
    LiftSiege,
    MachiavelliOrder,
    ToGarrison,
)
from judge.core.names import resolve_location
from judge.core.orders import Disband, SupportHold, SupportMove
from judge.core.units import UnitRef, UnitType
from judge.lang.order_tokens import fold
from judge.lang.order_values import OrderSyntaxError
from judge.lang.orders import read_order

_ARMY_WORDS: Final = {"a": UnitType.ARMY, "army": UnitType.ARMY, "armee": UnitType.ARMY}
_FLEET_WORDS: Final = {"f": UnitType.FLEET, "fleet": UnitType.FLEET, "flotte": UnitType.FLEET}
_GARRISON_WORDS: Final = frozenset({"g", "garrison", "garnison"})
_TYPE_WORD: Final = "|".join(sorted({*_ARMY_WORDS, *_FLEET_WORDS, *_GARRISON_WORDS}, key=len, reverse=True))

_BESIEGE: Final = r"(?:besieges?|beseiges?|sieges?|seiges?|lays? siege|b|assiegent|assieger|assiege|met le siege)"
_LIFT: Final = r"(?:lifts? (?:the )?siege|lift|lifts|ls|l|leve le siege|lever le siege|leve siege|leve)"
_CONVERT: Final = r"(?:converts? (?:in)?to|converts?|conversion|c|se convertit en|convertit en|convertir en|devient)"
_DISBAND: Final = r"(?:disbands?|d|disperse|dispersion|debande|debander)"
_HOLD: Final = r"(?:holds?|h|stands?|t|tient|defend)"
_SUPPORT: Final = r"(?:supports?|s|soutient|soutien|supporte)"
_MOVE: Final = r"(?:->|-|moves? to|moves?|m|va a|va en|va|vers|attaque)"

_SUBJECT: Final = rf"^(?P<type>{_TYPE_WORD})\s+(?P<place>.+?)\s+"
_FIELD_VERB: Final = re.compile(
    _SUBJECT + rf"(?:(?P<besiege>{_BESIEGE})|(?P<lift>{_LIFT})|(?P<disband>{_DISBAND})"
    rf"|(?P<convert>{_CONVERT})\s+(?P<target>{_TYPE_WORD}))$"
)
_GARRISON_VERB: Final = re.compile(
    _SUBJECT + rf"(?:(?P<hold>{_HOLD})|(?P<disband>{_DISBAND})|(?P<convert>{_CONVERT})\s+(?P<target>{_TYPE_WORD})"
    rf"|(?P<support>{_SUPPORT})\s+(?P<rest>.+))$"
)
_SUPPORTED: Final = re.compile(rf"^(?P<type>{_TYPE_WORD})\s+(?P<place>.+?)(?:\s*(?:{_MOVE})\s*(?P<to>.+))?$")


def read_machiavelli_order(text: str, game_map: GameMap, *, french: bool = False) -> MachiavelliOrder:
    """One order of a campaign; raises :class:`OrderSyntaxError` as :func:`read_order` does."""
    folded = " ".join(fold(word) for word in text.split())
    if not folded:
        raise OrderSyntaxError(Message(N_("Empty order")), 1, text)
    found = _GARRISON_VERB.match(folded)
    if found is not None and found["type"] in _GARRISON_WORDS:
        return _garrison_order(found, text, game_map, french)
    found = _FIELD_VERB.match(folded)
    if found is not None and found["type"] not in _GARRISON_WORDS:
        unit = UnitRef(_unit_type(found["type"]), _location(found["place"], text, game_map, french))
        if found["besiege"]:
            return Besiege(unit)
        if found["lift"]:
            return LiftSiege(unit)
        if found["disband"]:
            return Disband(unit)
        if found["target"] in _GARRISON_WORDS:
            return ToGarrison(unit)
        raise OrderSyntaxError(
            Message(N_("An army or fleet converts only into a garrison -> {text}"), text=text.strip()), 1, text
        )
    supported_garrison = _support_of_a_garrison(folded, text, game_map, french)
    if supported_garrison is not None:
        return supported_garrison
    return read_order(text, game_map, french=french).order


def _garrison_order(found: re.Match[str], text: str, game_map: GameMap, french: bool) -> MachiavelliOrder:
    city = _location(found["place"], text, game_map, french)
    if found["hold"]:
        return GarrisonHold(city)
    if found["disband"]:
        return GarrisonDisband(city)
    if found["convert"]:
        target = found["target"]
        if target in _GARRISON_WORDS:
            raise OrderSyntaxError(Message(N_("A garrison converts into an army or a fleet -> {text}"), text=text.strip()), 1, text)
        return GarrisonConvert(city, _unit_type(target))
    supported = _SUPPORTED.match(found["rest"])
    if supported is None:
        raise OrderSyntaxError(Message(N_("Cannot read the supported unit -> {text}"), text=text.strip()), 1, text)
    ref = _supported_ref(supported, text, game_map, french)
    destination = supported["to"]
    return GarrisonSupport(city, ref, _location(destination, text, game_map, french) if destination else None)


def _support_of_a_garrison(folded: str, text: str, game_map: GameMap, french: bool) -> MachiavelliOrder | None:
    """``A FOR S G GEN - GEN``: a support of a garrison, to hold or to convert into its province."""
    found = re.match(_SUBJECT + rf"(?:{_SUPPORT})\s+(?P<rest>(?:{'|'.join(_GARRISON_WORDS)})\s+.+)$", folded)
    if found is None or found["type"] in _GARRISON_WORDS:
        return None
    supporter = UnitRef(_unit_type(found["type"]), _location(found["place"], text, game_map, french))
    supported = _SUPPORTED.match(found["rest"])
    if supported is None:
        return None
    ref = _supported_ref(supported, text, game_map, french)
    if supported["to"]:
        return SupportMove(supporter, ref, _location(supported["to"], text, game_map, french))
    return SupportHold(supporter, ref)


def _supported_ref(found: re.Match[str], text: str, game_map: GameMap, french: bool) -> UnitRef:
    place = _location(found["place"], text, game_map, french)
    if found["type"] in _GARRISON_WORDS:
        return UnitRef(None, city_space(place))
    return UnitRef(_unit_type(found["type"]), place)


def _unit_type(word: str) -> UnitType:
    return _ARMY_WORDS.get(word) or _FLEET_WORDS[word]


def _location(name: str, text: str, game_map: GameMap, french: bool) -> str:
    try:
        return resolve_location(name.strip(), game_map, french=french).location
    except CoreError as error:
        raise OrderSyntaxError(error.translatable or str(error), max(1, text.lower().find(name.split()[0]) + 1), name) from None
