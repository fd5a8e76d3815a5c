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

With money, :func:`read_money_order` reads the orders to pay, give, borrow and spend, and
:func:`read_campaign_order` reads any line of a campaign's orders; :func:`read_adjustment_order`
reads the builds, upkeep and removals of the adjustments.
"""

from __future__ import annotations

import re
from typing import Final

from judge.core.errors import N_, CoreError, Message
from judge.core.geography import GameMap
from judge.core.machiavelli.adjustments import Dismiss, Maintain, Raise
from judge.core.machiavelli.campaign import city_space
from judge.core.machiavelli.orders import (
    Assassinate,
    Besiege,
    Borrow,
    Bribe,
    BribeKind,
    CauseRebellion,
    CounterBribe,
    Expense,
    ExpenseAction,
    FamineRelief,
    GarrisonConvert,
    GarrisonDisband,
    GarrisonHold,
    GarrisonSupport,
    Give,
    GiveChit,
    LiftSiege,
    MachiavelliOrder,
    MoneyOrder,
    PacifyRebellion,
    PayBank,
    Target,
    ToGarrison,
)
from judge.core.machiavelli.special_units import SpecialKind
from judge.core.names import resolve_location
from judge.core.orders import Disband, SupportHold, SupportMove
from judge.core.units import UnitRef, UnitType
from judge.lang.order_tokens import fold
from judge.lang.order_values import OrderSyntaxError
from judge.lang.orders import read_order
from judge.lang.powers import power_named

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


# ----------------------------------------------------------------------------- money

_DUCATS: Final = r"(?P<ducats>\d{1,4})\s*(?:ducats?|ducati|d)?"
_PAY: Final = re.compile(
    r"^(?P<verb>pay|pays|give|gives|loan|loans|lend|lends|paie|paye|payer|donne|donner|prete|preter)\s+"
    + _DUCATS
    + r"\s+(?:to|a|au|aux)\s+(?:the\s+|la\s+)?(?P<to>.+)$"
)
_CHIT: Final = re.compile(
    r"^(?:give|gives|donne|donner)\s+(?:the\s+|le\s+)?(?:chit\s+|jeton\s+)?(?P<victim>.+?)"
    r"(?:\s+(?:assassination\s+)?chit|\s+jeton(?:\s+d'?assassinat)?)?\s+(?:to|a|au|aux)\s+(?:the\s+|la\s+)?(?P<to>.+)$"
)
_BORROW: Final = re.compile(
    r"^(?:borrow|borrows|emprunte|emprunter)\s+"
    + _DUCATS
    + r"(?:\s+(?:for|pour|sur))?\s+(?P<years>\d)\s*(?:years?|yrs?|y|ans?|annees?)?$"
)
_EXPENSE: Final = re.compile(r"^(?:expense|expenses|exp|depense|depenses)\s*(?P<number>\d)\s*[:.]?\s*(?P<rest>.*)$")
_NONE: Final = re.compile(r"^(?:none|cancel|aucune|rien|annule)$")
_SPEND: Final = re.compile(r"^" + _DUCATS + r"\s+(?P<action>.+)$")
_BANK: Final = frozenset({"bank", "banque", "banker", "bankers", "banquiers", "banquier"})
_TARGET: Final = rf"(?P<type>{_TYPE_WORD})\s+(?P<place>.+)"
_ACTIONS: Final = (
    ("relief", re.compile(r"^(?:famine relief|relief|relieve famine|secours(?: contre la)? famine|secours)\s+(?P<place>.+)$")),
    ("pacify", re.compile(r"^(?:pacify rebellion|pacify|pacifie la revolte|pacifie|apaise la revolte|apaise)\s+(?P<place>.+)$")),
    (
        "rebel",
        re.compile(
            r"^(?:cause rebellion|incite rebellion|rebellion|rebel|incite|souleve|fait revolter|revolte)(?: in| a| en)?\s+(?P<place>.+)$"
        ),
    ),
    ("counter", re.compile(rf"^(?:counter-?bribe|counter bribe|contre-corruption|contre corruption|contre-pot-de-vin|protege)\s+{_TARGET}$")),
    (
        "autonomous",
        re.compile(
            r"^(?:bribe\s+|corrompt\s+)?(?:(?:g|garrison|garnison)\s+(?P<place>.+?)\s+(?:to|en)\s+(?:autonomous|autonome)"
            r"|(?:garrison to autonomous|garnison en autonome|rend autonome(?: (?:la )?(?:g|garnison))?)\s+(?P<place2>.+))$"
        ),
    ),
    ("assassinate", re.compile(r"^(?:assassinate|assassination|assassinat|assassine|a)\s+(?:of\s+|de\s+|du\s+|la\s+|le\s+)?(?P<power>.+)$")),
    ("disband", re.compile(rf"^(?:bribe\s+|corrompt\s+)?(?:disband|disbands|disperse|debande)\s+{_TARGET}$")),
    ("buy", re.compile(rf"^(?:bribe\s+|corrompt\s+)?(?:buy|buys|achete|acheter)\s+{_TARGET}$")),
)


def read_money_order(text: str, game_map: GameMap, *, french: bool = False) -> MoneyOrder:
    """One order of a campaign's money: pay the bank or a power, borrow, or an expense.

    ``PAY 14 DUCATS TO BANK``, ``GIVE 6 D TO MILAN`` (``LOAN``, ``LEND``; French ``PAIE 14
    DUCATS À LA BANQUE``, ``DONNE``, ``PRÊTE``), ``BORROW 25 DUCATS FOR 2 YEARS`` (``EMPRUNTE 25
    DUCATS POUR 2 ANS``), and ``EXPENSE 1: 12 DUCATS DISBAND A BOL`` (``DÉPENSE 1 : ...``) with
    one of: ``FAMINE RELIEF MIL``, ``PACIFY REBELLION RME``, ``CAUSE REBELLION SLZ``,
    ``COUNTER-BRIBE A ARE``, ``[BRIBE] DISBAND G TRT``, ``[BRIBE] BUY F MAR``, ``GARRISON TO
    AUTONOMOUS BOL`` (French ``SECOURS FAMINE``, ``PACIFIE``, ``SOULÈVE``,
    ``CONTRE-CORRUPTION``, ``DISPERSE``, ``ACHÈTE``, ``GARNISON EN AUTONOME``), ``ASSASSINATE
    PAPACY`` (``ASSASSINE``), or ``NONE`` (``AUCUNE``) to cancel the expense of that number;
    ``GIVE TURKEY TO NAPLES`` (``GIVE TURKEY CHIT TO NAPLES``; ``DONNE TURQUIE À NAPLES``) gives
    the assassination chit against Turkey.
    """
    folded = " ".join(fold(word) for word in text.split())
    if not folded:
        raise OrderSyntaxError(Message(N_("Empty order")), 1, text)
    found = _PAY.match(folded)
    if found is not None:
        to = found["to"].strip()
        if to in _BANK:
            return PayBank(int(found["ducats"]))
        power = power_named(to, game_map)
        if power is None:
            raise OrderSyntaxError(Message(N_("No such power -> {text}"), text=to), 1, text)
        return Give(int(found["ducats"]), power)
    found = _CHIT.match(folded)
    if found is not None:
        victim, to = power_named(found["victim"].strip(), game_map), power_named(found["to"].strip(), game_map)
        if victim is None or to is None:
            named = found["victim"] if victim is None else found["to"]
            raise OrderSyntaxError(Message(N_("No such power -> {text}"), text=named.strip()), 1, text)
        return GiveChit(victim, to)
    found = _BORROW.match(folded)
    if found is not None:
        return Borrow(int(found["ducats"]), int(found["years"]))
    found = _EXPENSE.match(folded)
    if found is None:
        raise OrderSyntaxError(Message(N_("Cannot read the money order -> {text}"), text=text.strip()), 1, text)
    number = int(found["number"])
    if not 1 <= number <= 4:
        raise OrderSyntaxError(Message(N_("Expenses are numbered 1 to 4 -> {text}"), text=text.strip()), 1, text)
    rest = found["rest"]
    if _NONE.match(rest):
        return Expense(number, 0, None)
    spent = _SPEND.match(rest)
    if spent is None:
        raise OrderSyntaxError(Message(N_("An expense gives its ducats, then what they buy -> {text}"), text=text.strip()), 1, text)
    return Expense(number, int(spent["ducats"]), _expense_action(spent["action"], text, game_map, french))


def _expense_action(action: str, text: str, game_map: GameMap, french: bool) -> ExpenseAction:
    for kind, pattern in _ACTIONS:
        found = pattern.match(action)
        if found is None:
            continue
        if kind == "assassinate":
            victim = power_named(found["power"].strip(), game_map)
            if victim is None:
                raise OrderSyntaxError(Message(N_("No such power -> {text}"), text=found["power"].strip()), 1, text)
            return Assassinate(victim)
        if kind == "autonomous":
            place = _location(found["place"] or found["place2"], text, game_map, french)
            return Bribe(BribeKind.TO_AUTONOMOUS, Target(place, garrison=True))
        if kind in ("relief", "pacify", "rebel"):
            place = _location(found["place"], text, game_map, french)
            return FamineRelief(place) if kind == "relief" else PacifyRebellion(place) if kind == "pacify" else CauseRebellion(place)
        target = Target(_location(found["place"], text, game_map, french), found["type"] in _GARRISON_WORDS)
        if kind == "counter":
            return CounterBribe(target)
        return Bribe(BribeKind.DISBAND if kind == "disband" else BribeKind.BUY, target)
    raise OrderSyntaxError(Message(N_("Cannot read the expense -> {text}"), text=text.strip()), 1, text)


def read_campaign_order(text: str, game_map: GameMap, *, french: bool = False) -> MachiavelliOrder | MoneyOrder:
    """Any order of a campaign with money: a money order when it starts as one, else a move."""
    first = re.sub(r"[\d:.]+$", "", fold(text.split()[0])) if text.split() else ""
    if first in _MONEY_WORDS:
        return read_money_order(text, game_map, french=french)
    return read_machiavelli_order(text, game_map, french=french)


_MONEY_WORDS: Final = frozenset(
    {
        *("pay", "pays", "give", "gives", "loan", "loans", "lend", "lends", "borrow", "borrows", "expense", "expenses", "exp"),
        *("paie", "paye", "payer", "donne", "donner", "prete", "preter", "emprunte", "emprunter", "depense", "depenses"),
    }
)


# ----------------------------------------------------------------------------- adjustments

_SPECIAL: Final = (
    r"(?:(?P<militia>citizen'?s'? militia|citizens militia|militia|cm|milice(?: citoyenne| bourgeoise)?)"
    r"|(?P<mercenaries>elite mercenar(?:y|ies)|mercenar(?:y|ies)|em|mercenaires? d'elite|mercenaires?)"
    r"|(?P<professionals>elite professionals?|professionals?|ep|professionnels? d'elite|professionnels?))"
)
_ADJUSTMENT: Final = re.compile(
    r"^(?:(?P<build>build|builds|b|construit|construire|leve|lever)"
    r"|(?P<remove>remove|removes|r|disband|disbands|d|retire|retirer|dissout|disperse|licencie)"
    r"|(?P<maintain>maintain|maintains|m|keep|keeps|entretient|entretenir|garde|garder))"
    rf"\s+(?:{_SPECIAL}\s+)?(?:(?P<type>{_TYPE_WORD})\s+)?(?P<place>.+)$"
)


def read_adjustment_order(text: str, game_map: GameMap, *, french: bool = False) -> Raise | Dismiss | Maintain:
    """One order of the adjustments: ``BUILD A FLO``, ``BUILD G FLO`` (a garrison in the city),
    ``MAINTAIN F PSA``, ``REMOVE G SIE`` (``DISBAND``; French ``CONSTRUIT``, ``ENTRETIENT``,
    ``RETIRE``). With no unit type a build is an army, a removal or upkeep the army or fleet.

    A special unit is built with its kind before the unit type, as the classic Judge reads it:
    ``BUILD CITIZEN'S MILITIA A FLO`` (``MILITIA``, ``CM``), ``BUILD ELITE MERCENARIES F NAP``
    (``MERCENARY``, ``EM``), ``BUILD ELITE PROFESSIONALS G VEN`` (``PROFESSIONAL``, ``EP``);
    French ``CONSTRUIT MILICE A FLO``, ``MERCENAIRES D'ÉLITE``, ``PROFESSIONNELS D'ÉLITE``."""
    folded = " ".join(fold(word) for word in text.split())
    found = _ADJUSTMENT.match(folded)
    if found is None:
        raise OrderSyntaxError(Message(N_("Cannot read the adjustment -> {text}"), text=text.strip()), 1, text)
    place = _location(found["place"], text, game_map, french)
    kind = found["type"]
    garrison = kind in _GARRISON_WORDS
    if found["build"]:
        special = next((SpecialKind(name) for name in ("militia", "mercenaries", "professionals") if found[name]), None)
        return Raise(place, None if garrison else _unit_type(kind) if kind else UnitType.ARMY, garrison, special)
    if any(found[name] for name in ("militia", "mercenaries", "professionals")):
        raise OrderSyntaxError(
            Message(N_("A special unit's kind is written only when it is built -> {text}"), text=text.strip()), 1, text
        )
    if found["remove"]:
        return Dismiss(place, garrison)
    return Maintain(place, garrison)
