"""Per-game rule options of the adjudicator.

Houses, tournaments and rulebook editions disagree on a handful of points that
the rulebook leaves open or that changed between editions. Each point is one
named option here, so a game records exactly which reading it is played under
and two games on one server can differ. Every default is the preference of the
DATC v3.1 (which follows the 2023 rulebook), except ``duplicate_orders`` whose
default is the classic Judge's own behaviour, because players of an email
judge expect it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from judge.core.errors import RulesError

PARADOX_CHOICES = ("szykman", "descartes")
CIVIL_DISORDER_CHOICES = ("distance_to_owned", "distance_to_home", "seed000")
MISSING_RETREATS_CHOICES = ("disband", "seed000")
MISSING_COAST_CHOICES = ("fail", "first")
DUPLICATE_ORDERS_CHOICES = ("last", "first", "hold")
ADJACENT_CONVOY_CHOICES = ("intent", "explicit")
SURPLUS_ADJUSTMENTS_CHOICES = ("last", "first")
FOREIGN_COAST_SUPPORT_CHOICES = ("any", "named")
BOOLEAN_OPTIONS = ("retreat_to_convoy_origin", "complete_from_support")

_CHOICES: dict[str, tuple[str, ...]] = {
    "paradox": PARADOX_CHOICES,
    "civil_disorder_removals": CIVIL_DISORDER_CHOICES,
    "missing_retreats": MISSING_RETREATS_CHOICES,
    "missing_coast": MISSING_COAST_CHOICES,
    "duplicate_orders": DUPLICATE_ORDERS_CHOICES,
    "adjacent_convoy": ADJACENT_CONVOY_CHOICES,
    "surplus_adjustments": SURPLUS_ADJUSTMENTS_CHOICES,
    "foreign_coast_support": FOREIGN_COAST_SUPPORT_CHOICES,
}


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options of one game.

    paradox
        What to do when a convoy makes the simultaneous resolution of the
        orders impossible (no consistent outcome, or two). ``"szykman"``
        (DATC 4.A.2 preference): the convoying fleets of the paradox do not
        convoy, as if they held. ``"descartes"`` (the 1994 Descartes rulebook
        as the French championship rules, seed 002, use it): "maritime
        conflicts concerning a convoying fleet are resolved before convoys" --
        the supports that decide whether the convoying fleets hold are counted
        without the attacks of the armies those fleets convoy, and those armies
        then move (or bounce) without cutting them. When there are two
        consistent outcomes and one of them lets every convoy of the paradox
        go through, that one is simply taken (seed 002, example B).
    civil_disorder_removals
        Which units go when a power owes removals and ordered too few.
        ``"distance_to_owned"`` (2023 rulebook, DATC 4.D.8): units on supply
        centres last, then the farthest from any supply centre the power owns
        (counting provinces whatever their terrain), fleets before armies,
        then alphabetical by province name. ``"distance_to_home"`` (2000
        rulebook): farthest from the nearest home centre, fleets before
        armies, alphabetical. ``"seed000"`` (the Vortigern rules, seed 000
        section 3.5.3): largest sum of distances to all home centres,
        ordinary provinces before centres, fleets before armies, alphabetical.
    missing_retreats
        A dislodged unit without a retreat order: ``"disband"`` (every
        rulebook) or ``"seed000"``: the game master retreats it, to the
        province nearest the home centres (sum of distances), a supply centre
        before an ordinary province, then alphabetical (seed 000 section 3.5.3).
    missing_coast
        A fleet sent to a split-coast province without a coast when both
        coasts could be reached: ``"fail"`` (DATC 4.B.1: the order is
        ambiguous and illegal) or ``"first"`` (the historical Judge takes the
        first coast its map table lists). With one reachable coast the fleet
        goes there under both options (DATC 4.B.2). Also applies to fleet
        builds in a split-coast centre.
    duplicate_orders
        Two different legal orders to one unit in one order set: ``"last"``
        (the Judge: the later order replaces the earlier, our default),
        ``"first"``, or ``"hold"`` (DATC 4.D.3 preference and the French
        tournament rule of seed 002: neither is used and the unit holds).
    adjacent_convoy
        When an army ordered to an adjacent province travels by convoy.
        ``"intent"`` (2000/2023 rulebooks, DATC 4.A.3 v3.1 preference): when
        the order says "via convoy" (or lists the route), or a fleet of the
        same power is legally ordered to convoy it there; then only the convoy
        is considered, with no fall-back to the land route. ``"explicit"``
        (the DPTG): only when the order says so.
    retreat_to_convoy_origin
        Whether a unit dislodged by a convoyed army may retreat to the
        province the army came from (2023 rulebook and DATC 4.A.5: yes).
    surplus_adjustments
        More builds (or removals) written than a power may make. ``"last"``
        (the Judge: "the last build orders override the first ones", so the
        mail layer keeps only the latest ones as they arrive) or ``"first"``
        (seed 002, "Ajustements surnuméraires": only the first *legal* ones
        written count, until the number owed is reached). The adjudicator
        itself always takes the first legal ones among the orders it is
        given (DATC 4.D.4); under ``"last"`` the orders it is given are
        already cut down to the latest.
    foreign_coast_support
        A support to a fleet's move into a province with several coasts,
        when the moving fleet could reach more than one of them. ``"any"``
        (DATC 4.B.4, test case 6.B.15): a support naming no coast is valid.
        ``"named"`` (seed 002, "Autres éléments sur la rédaction des
        soutiens", as Conspiracy, Backstabbr and the 2023 Renegade rules):
        a support given by a unit of another nationality than the fleet is
        valid only if it names the attacked coast. Under both, a coast that
        is named must be the one of the move (DATC 6.B.9).
    complete_from_support
        Seed 002, "Ordre manquant ou incomplet". When true, a unit with no
        order, or whose only orders lack a coast to be legal, executes the
        order that a support or convoy order of another unit of the same
        power spells out for it (``F Por S F Mid - Spa/nc`` completes a
        missing or coastless ``F Mid - Spa``), provided those orders agree
        and the completed order is legal; a legal order of the unit itself
        always wins. Likewise a fleet of the same power with no order
        convoys an army of its power when it is the only way to make that
        army's convoyed move possible. Default false (the Judge and the
        DATC: a unit without a legal order holds).
    """

    paradox: str = "szykman"
    civil_disorder_removals: str = "distance_to_owned"
    missing_retreats: str = "disband"
    missing_coast: str = "fail"
    duplicate_orders: str = "last"
    adjacent_convoy: str = "intent"
    retreat_to_convoy_origin: bool = True
    surplus_adjustments: str = "last"
    foreign_coast_support: str = "any"
    complete_from_support: bool = False

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise RulesError(name, value, allowed)
        for name in BOOLEAN_OPTIONS:
            if not isinstance(getattr(self, name), bool):
                raise RulesError(name, getattr(self, name), ("true", "false"))

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Rules:
        """Build from stored or user-given options; unknown names and bad values raise RulesError."""
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name not in known:
                raise RulesError(name, value)
            if name in BOOLEAN_OPTIONS:
                values[name] = _read_bool(name, value)
            elif isinstance(value, str):
                values[name] = value.strip().lower()
            else:
                values[name] = value
        return cls(**values)

    def to_mapping(self) -> dict[str, Any]:
        """Every option with its value, suitable for JSON and for ``from_mapping``."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _read_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "on", "1"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("false", "no", "off", "0"):
        return False
    raise RulesError(name, value, ("true", "false"))


DEFAULT_RULES = Rules()
