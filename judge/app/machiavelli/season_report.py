"""The results of a phase of the Renaissance game, in the Judge's manner, as one reader may read them.

Everyone reads what happened on the board: each move, siege and conversion with its outcome,
the garrisons that fell, the units disbanded, what money did there (a unit bought or disbanded
by a bribe, a rebellion raised or pacified, a famine relieved, a defaulter or a leader
assassinated, a province rising), the disasters (where famine, plague and storms struck, and the
units they took), the adjustments' builds and removals, and the board after. Who paid is never
told. A power's books (its treasury before and after, each ducat in or out and why, its money
orders with their outcome, its loans, its assassination chits when they changed) are added for
the readers allowed to see them: :func:`judge.app.audience.machiavelli_books.books_readable`
decides, this module only writes. The dice of the phase (each roll, for what, and its outcome,
the payer of an assassination attempt among them) are added for the readers
:func:`judge.app.audience.machiavelli_books.dice_readable` allows: the masters.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from judge.app.machiavelli.verdict_reasons import shown_reason
from judge.core.adjudicator import Outcome
from judge.core.errors import N_
from judge.core.geography import GameMap
from judge.core.machiavelli.adjustments import Dismiss, Maintain, Raise
from judge.core.machiavelli.board import AUTONOMOUS
from judge.core.machiavelli.campaign import CITY_MARK, MachiavelliPosition, Verdict
from judge.core.machiavelli.disasters import Stricken
from judge.core.machiavelli.money import Entry, MoneyAdjustmentResult
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
    PacifyRebellion,
    PayBank,
    ToGarrison,
)
from judge.core.machiavelli.season import SeasonOrder, SeasonResult
from judge.core.machiavelli.special_units import SpecialKind, Specials, special_of
from judge.core.machiavelli.victory import Standing
from judge.core.orders import Disband, Hold, Retreat, SupportHold, SupportMove
from judge.core.phase import PhaseType
from judge.core.units import UnitRef
from judge.i18n import Gettext


@dataclass(frozen=True, slots=True)
class SeasonTexts:
    """The results of one phase in one language: the lines everyone reads, and each power's books
    (its own lines, under their title)."""

    title: str
    public: tuple[str, ...]
    books: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    book_titles: Mapping[str, str] = field(default_factory=dict)
    dice: tuple[str, ...] = ()
    """The phase's rolls, under their title: the master's audit."""

    def for_reader(self, readable: Iterable[str], *, dice: bool = False) -> str:
        """The results mail's text for a reader who may see the books of ``readable`` powers
        (and, ``dice``, the phase's rolls)."""
        lines = [self.title, "", *self.public]
        for power in sorted(readable):
            if power in self.books:
                lines += ["", self.book_titles[power], *self.books[power]]
        if dice and self.dice:
            lines += ["", *self.dice]
        return "\n".join(lines).rstrip() + "\n"


def phase_title(result: SeasonResult, _: Gettext) -> str:
    phase = result.before.phase
    if phase.type is PhaseType.ADJUSTMENT:
        return _("Adjustment results for the winter of {year}.").format(year=phase.year)
    seasons = {"SPRING": _("spring"), "SUMMER": _("summer"), "FALL": _("fall")}
    season = seasons.get(phase.season.name, phase.season.name.lower())
    if phase.type is PhaseType.RETREAT:
        return _("Retreat results for the {season} of {year}.").format(
            season=season, year=phase.year
        )
    return _("Campaign results for the {season} of {year}.").format(season=season, year=phase.year)


class _Writer:
    """The phrases of one language: power names, outcomes, the public effects of money."""

    def __init__(self, game_map: GameMap, language: str, _: Gettext) -> None:
        self.game_map, self.language, self._ = game_map, language, _

    def name(self, power: str) -> str:
        _ = self._
        if power == AUTONOMOUS:
            return _("Autonomous")
        return self.game_map.power_display_name(power, self.language)

    def named(self, value: str) -> str:
        """A value of a reason: a power by its name, anything else as it is."""
        return self.name(value) if value in self.game_map.powers else value

    def reason(self, reason: str) -> str:
        """The core's ``reason`` in this language (:mod:`judge.app.machiavelli.verdict_reasons`)."""
        return shown_reason(reason, self._, self.named, self.language)

    def outcome(self, value: Outcome, reason: str) -> str:
        _ = self._
        said = {
            Outcome.SUCCEEDS: _("succeeds"),
            Outcome.FAILS: _("fails"),
            Outcome.INVALID: _("invalid"),
        }[value]
        why = self.reason(reason)
        return said + (f" ({why})" if why else "")

    def special(self, power: str, order: SeasonOrder, specials: Specials) -> str:
        """The kind of the special unit ``order`` names, before it ("elite mercenaries "), as the
        Judge writes "Elite Mercenary Army Arezzo -> Siena"; "" for an ordinary unit."""
        if isinstance(order, GarrisonHold | GarrisonSupport | GarrisonConvert | GarrisonDisband):
            kind = special_of(specials, power, order.province, True)
        else:
            ref = getattr(order, "unit", None)
            kind = special_of(specials, power, ref.province, False) if isinstance(ref, UnitRef) else None
        return "" if kind is None else f"{self._(SPECIAL_NAMES[kind])} "

    def unordered(self, verdict: Verdict) -> str:
        """A unit or garrison no order named: "Florence: A ARE: no order, holds"."""
        order = verdict.order
        if isinstance(order, GarrisonHold):
            unit = f"G {order.province}"
        elif isinstance(order, Hold | Disband):  # held in a campaign, disbanded in the retreats
            unit = _unit(order.unit)
        else:
            unit = order_text(order)
        return f"  {self.name(verdict.power)}: {unit}: {self.reason(verdict.reason)}"

    def effect(self, action: ExpenseAction | None) -> str:
        """What a successful expense did on the board, said without its payer (a counter-bribe
        leaves no mark)."""
        _ = self._
        if isinstance(action, Bribe):
            kinds = {
                BribeKind.DISBAND: _("disbanded by a bribe"),
                BribeKind.BUY: _("bought by a bribe"),
                BribeKind.TO_AUTONOMOUS: _("made autonomous by a bribe"),
            }
            target = action.target
            if target.garrison:
                return _("The garrison of {province} is {what}.").format(
                    province=target.province, what=kinds[action.kind]
                )
            return _("The unit in {province} is {what}.").format(
                province=target.province, what=kinds[action.kind]
            )
        if isinstance(action, CauseRebellion):
            return _("A rebellion breaks out in {province}.").format(province=action.province)
        if isinstance(action, PacifyRebellion):
            return _("The rebellion in {province} is pacified.").format(province=action.province)
        if isinstance(action, FamineRelief):
            return _("The famine in {province} is relieved.").format(province=action.province)
        return ""  # an assassination is told once for its victim, whoever paid

    def disaster(self, event: Stricken) -> list[str]:
        """Where a disaster struck and what it took, said for everyone (its dice are not)."""
        _ = self._
        places = ", ".join(sorted(event.places))
        lines: list[str] = []
        if event.rolls and places:  # thrown this phase (the spring's famine toll throws nothing)
            strikes = {
                "famine": _("Famine strikes {places}."),
                "plague": _("The plague strikes {places}."),
                "storm": _("Storms strike {places}."),
            }
            lines.append(strikes[event.disaster].format(places=places))
        took = {
            "famine": _("{power}: {unit} is lost to the famine."),
            "plague": _("{power}: {unit} is lost to the plague."),
            "storm": _("{power}: {unit} is lost in the storm."),
        }[event.disaster]
        for unit in event.lost:
            lines.append(took.format(power=self.name(unit.power), unit=f"{unit.type._value_} {unit.location}"))
        for city, owner in event.garrisons_lost:
            lines.append(took.format(power=self.name(owner), unit=f"G {city}"))
        return lines


def season_texts(
    result: SeasonResult,
    game_map: GameMap,
    language: str,
    _: Gettext,
    unread: Mapping[str, Sequence[str]] | None = None,
    *,
    winner: tuple[str, Standing] | None = None,
) -> SeasonTexts:
    """The texts of ``result`` in ``language``; ``unread``: each power's sheet lines the reader
    refused (shown in its books only: a sheet is secret, money orders most of all); ``winner``:
    the power that has won and its standing (:mod:`judge.core.machiavelli.victory`), told to everyone."""
    write = _Writer(game_map, language, _)
    public: list[str] = []
    books: dict[str, list[str]] = {}
    if result.money is not None:
        for defaulter in result.money.defaulted:
            public.append(
                _("{power} defaulted on the bank and was assassinated.").format(
                    power=write.name(defaulter)
                )
            )
        for victim in result.money.assassinated:
            if victim not in result.money.defaulted:
                public.append(
                    _("The leader of {power} is assassinated.").format(power=write.name(victim))
                )
        for city in result.money.garrisons_lost:
            public.append(
                _("The garrison of {province}, its power assassinated, surrenders.").format(
                    province=city
                )
            )
        for roll in result.money.rebellion_rolls:
            if roll.rose:
                public.append(
                    _("{province} rises in rebellion against {power}.").format(
                        province=roll.province, power=write.name(roll.power)
                    )
                )
        for verdict in result.money.verdicts:
            paid = _(" (paid {ducats} ducats)").format(ducats=verdict.paid) if verdict.paid else ""
            books.setdefault(verdict.power, []).append(
                f"{order_text(verdict.order)}: {write.outcome(verdict.outcome, verdict.reason)}{paid}"
            )
            if isinstance(verdict.order, Expense) and verdict.outcome is Outcome.SUCCEEDS:
                effect = write.effect(verdict.order.action)
                if effect:
                    public.append(effect)
    played = result.campaign or result.retreat
    if played is not None and (played.verdicts or played.unordered):
        public += [*([""] if public else []), _("Orders:")]
        public += _order_lines(played.verdicts, played.unordered, result.before.specials, write)
    if result.campaign is not None:
        for city in result.campaign.sieges_completed:
            public.append(
                _("The siege of {province} is complete: its garrison is gone.").format(
                    province=city
                )
            )
        for unit in result.campaign.disbanded:
            public.append(_("{unit} is disbanded.").format(unit=unit))
        for dislodged, places in sorted(
            result.position.retreats.items(), key=lambda item: str(item[0])
        ):
            public.append(
                _("{power}: {unit} is dislodged; it may retreat to {places}.").format(
                    power=write.name(dislodged.power),
                    unit=f"{dislodged.type._value_} {dislodged.location}",
                    places=", ".join(places) or "-",
                )
            )
    if result.income is not None:
        for report in result.income.reports:
            books.setdefault(report.power, []).append(
                _(
                    "Income: {total} ducats ({provinces} from provinces, {cities} from cities, {fleets} from fleets at sea,"
                    " {variable} from the dice {rolls})."
                ).format(
                    total=report.total, provinces=report.provinces, cities=report.cities, fleets=report.fleets,
                    variable=report.variable, rolls=list(report.rolls),
                )
            )  # fmt: skip
    if result.adjustments is not None:
        changes: list[str] = []
        for adjusted in result.adjustments.verdicts:
            text = f"{order_text(adjusted.order) if adjusted.order else '-'}: {write.outcome(adjusted.outcome, adjusted.reason)}"
            if isinstance(adjusted.order, Maintain):
                books.setdefault(adjusted.power, []).append(
                    text
                )  # what a power pays to keep is its own
            else:
                changes.append(f"  {write.name(adjusted.power)}: {text}")
        if changes:
            public += [*([""] if public else []), _("Adjustments:"), *changes]
    for power, order in result.misplaced:
        books.setdefault(power, []).append(
            _("{order}: not an order of this phase, ignored.").format(order=order_text(order))
        )
    for power, lines in (unread or {}).items():
        books.setdefault(power, []).extend(
            _("{order}: not read, ignored.").format(order=line) for line in lines
        )
    struck = [line for event in result.disasters for line in write.disaster(event)]
    if struck:
        public += [*([""] if public else []), *struck]
    for power in result.eliminated:
        public.append(_("{power} is eliminated.").format(power=write.name(power)))
    if winner is not None:
        power, standing = winner
        public.append(
            _("{power} has won: {cities} cities and {countries} home countries.").format(
                power=write.name(power), cities=standing.cities, countries=len(standing.countries)
            )
        )
    public += [*([""] if public else []), *board_lines(result.position, write)]
    _books_of_money(result, books, _)
    titles = {
        power: _("{power}'s books (private):").format(power=write.name(power)) for power in books
    }
    dice = [
        _("{rule}, {subject}: {dice} -> {outcome}").format(
            rule=_(DICE_RULES.get(roll.rule, roll.rule)), subject=roll.subject,
            dice=" ".join(map(str, roll.dice)), outcome=roll.outcome,
        )
        for roll in result.rolls
    ]  # fmt: skip
    return SeasonTexts(
        phase_title(result, _),
        tuple(public),
        {power: tuple(lines) for power, lines in books.items()},
        titles,
        tuple([_("The dice of this phase (for the masters only):"), *dice]) if dice else (),
    )


def _order_lines(
    verdicts: Sequence[Verdict], unordered: Sequence[Verdict], specials: Specials, write: _Writer
) -> list[str]:
    """Each power's orders of a campaign or its retreats as given, with their outcome, then its
    units no order named (the Judge's "no order, holds", or in the retreats "no order, disbanded"),
    the powers in the map's order."""
    rank = {power: index for index, power in enumerate(write.game_map.powers)}
    ordered = [
        (
            verdict.power,
            f"  {write.name(verdict.power)}: {write.special(verdict.power, verdict.order, specials)}"
            f"{order_text(verdict.order)}: {write.outcome(verdict.outcome, verdict.reason)}",
        )
        for verdict in verdicts
    ] + [(verdict.power, write.unordered(verdict)) for verdict in unordered]
    return [line for _power, line in sorted(ordered, key=lambda line: rank.get(line[0], len(rank)))]


DICE_RULES: Final = {
    "income": N_("variable income"), "famine": N_("famine"), "plague": N_("plague"), "storm": N_("storm"),
    "assassination": N_("assassination"), "rebellion": N_("rebellion"),
}  # fmt: skip
"""The rules that throw dice (:attr:`judge.core.machiavelli.dice.Roll.rule`) as the master's audit names them."""

LEDGER_KINDS: Final = {
    "income": N_("income"), "upkeep": N_("upkeep"), "build": N_("build"), "repay": N_("repaid to the bank"),
    "gift": N_("gift"), "borrow": N_("borrowed"), "collect": N_("loan due"), "seized": N_("seized by the bank"),
    "expense": N_("expense"),
}  # fmt: skip
"""The ledger's kinds of entry (:class:`judge.core.machiavelli.money.Entry`) as a power's books name them."""


def _books_of_money(result: SeasonResult, books: dict[str, list[str]], _: Gettext) -> None:
    """Each power's treasury before and after, the ducats moved and why, and its loans."""
    ledgers = _ledger(result)
    before, after = result.before.money, result.position.money
    if before is None or after is None:
        return
    for power in sorted({*before.treasuries, *after.treasuries}):
        lines = books.setdefault(power, [])
        moved = ", ".join(
            f"{_(LEDGER_KINDS.get(entry.kind, entry.kind))} {entry.ducats:+d}"
            for entry in ledgers.get(power, ())
        )
        lines.append(
            _("Treasury: {before} ducats before, {after} after").format(
                before=before.treasury(power), after=after.treasury(power)
            )
            + (f" ({moved})." if moved else ".")
        )
        for loan in after.loans.get(power, ()):
            lines.append(
                _("Loan: {principal} ducats and {interest} of interest, due in {due}.").format(
                    principal=loan.principal, interest=loan.interest, due=loan.due
                )
            )
        if after.chits is not None and after.chits != before.chits:
            held = after.chits.get(power, ())
            lines.append(
                _("Assassination chits: {victims}.").format(victims=", ".join(held) or "-")
            )


SPECIAL_NAMES: Final = {
    SpecialKind.MILITIA: N_("citizens' militia"),
    SpecialKind.MERCENARIES: N_("elite mercenaries"),
    SpecialKind.PROFESSIONALS: N_("elite professionals"),
}
"""The special units as the board lines name them, after the unit: ``A ARE (elite mercenaries)``."""


def board_lines(position: MachiavelliPosition, write: _Writer) -> list[str]:
    """The board after the phase: the next phase, each power's units and the garrisons (a special
    unit with its kind)."""
    _ = write._
    lines = [_("Next phase: {phase}.").format(phase=position.phase)]
    owners = sorted(
        {unit.power for unit in position.units} | {o for o in position.garrisons.values()}
    )

    def named(text: str, owner: str, province: str, garrison: bool) -> str:
        kind = special_of(position.specials, owner, province, garrison)
        return text if kind is None else f"{text} ({_(SPECIAL_NAMES[kind])})"

    for owner in owners:
        units = [
            named(f"{u.type._value_} {u.location}", owner, u.province, False)
            for u in sorted(position.units, key=str)
            if u.power == owner
        ]
        units += [
            named(f"G {city}", owner, city, True)
            for city, held in sorted(position.garrisons.items())
            if held == owner
        ]
        lines.append(f"{write.name(owner)}: {', '.join(units)}.")
    for province, rebellion in sorted(position.unrest.rebellions.items()):
        lines.append(
            _("{province} rebels against {power}.").format(
                province=province, power=write.name(rebellion.against)
            )
        )
    for province in sorted(position.unrest.famine):
        lines.append(_("Famine in {province}.").format(province=province))
    return lines


def _ledger(result: SeasonResult) -> dict[str, list[Entry]]:
    entries: list[Entry] = []
    if result.income is not None:
        entries += result.income.ledger
    if isinstance(result.adjustments, MoneyAdjustmentResult):
        entries += result.adjustments.ledger
    if result.money is not None:
        entries += result.money.ledger
    by_power: dict[str, list[Entry]] = {}
    for entry in entries:
        by_power.setdefault(entry.power, []).append(entry)
    return by_power


def _unit(unit: UnitRef) -> str:
    """A unit as the Judge writes it: ``A FLO``, ``F PSA``, and a garrison ``G GEN`` (never its
    city's inner space name)."""
    if unit.type is None:
        return f"G {unit.location.removesuffix(CITY_MARK)}"
    return f"{unit.type._value_} {unit.location}"


def order_text(order: SeasonOrder) -> str:
    """An order as the Judge writes it back."""
    match order:
        case Besiege(unit):
            return f"{_unit(unit)} BESIEGE"
        case LiftSiege(unit):
            return f"{_unit(unit)} LIFT SIEGE"
        case ToGarrison(unit):
            return f"{_unit(unit)} CONVERT TO GARRISON"
        case GarrisonHold(province):
            return f"G {province} H"
        case GarrisonSupport(province, supported, None):
            return f"G {province} S {_unit(supported)}"
        case GarrisonSupport(province, supported, destination):
            return f"G {province} S {_unit(supported)} - {destination}"
        case GarrisonConvert(province, to):
            return f"G {province} CONVERT TO {to._value_}"
        case GarrisonDisband(province):
            return f"G {province} DISBAND"
        case Disband(unit):
            return f"{_unit(unit)} DISBAND"
        case Retreat(unit, destination):
            return f"{_unit(unit)} - {destination}"
        case SupportHold(unit, supported) if supported.type is None:
            return f"{_unit(unit)} S {_unit(supported)}"
        case SupportMove(unit, supported, destination) if supported.type is None:
            return f"{_unit(unit)} S {_unit(supported)} - {destination}"
        case PayBank(ducats):
            return f"PAY {ducats} DUCATS TO BANK"
        case Give(ducats, power):
            return f"GIVE {ducats} DUCATS TO {power}"
        case GiveChit(victim, power):
            return f"GIVE {victim} CHIT TO {power}"
        case Borrow(ducats, years):
            return f"BORROW {ducats} DUCATS FOR {years} YEAR{'S' if years > 1 else ''}"
        case Expense(number, _, None):
            return f"EXPENSE {number}: NONE"
        case Expense(number, ducats, action):
            return f"EXPENSE {number}: {ducats} DUCATS {_action_text(action)}"
        case Raise(province, kind, garrison, special):
            what = f"{'G' if garrison else kind._value_ if kind else 'A'} {province}"
            return f"BUILD {SPECIAL_ORDER_WORDS[special]} {what}" if special else f"BUILD {what}"
        case Dismiss(province, garrison):
            return f"REMOVE {'G ' if garrison else ''}{province}"
        case Maintain(province, garrison):
            return f"MAINTAIN {'G ' if garrison else ''}{province}"
    return str(order)


SPECIAL_ORDER_WORDS: Final = {
    SpecialKind.MILITIA: "CITIZEN'S MILITIA",
    SpecialKind.MERCENARIES: "ELITE MERCENARIES",
    SpecialKind.PROFESSIONALS: "ELITE PROFESSIONALS",
}
"""A special unit's kind in a build order written back (the words the order reader takes)."""


def _action_text(action: ExpenseAction | None) -> str:
    match action:
        case FamineRelief(province):
            return f"FAMINE RELIEF {province}"
        case PacifyRebellion(province):
            return f"PACIFY REBELLION {province}"
        case CauseRebellion(province):
            return f"CAUSE REBELLION {province}"
        case CounterBribe(target):
            return f"COUNTER-BRIBE {'G' if target.garrison else 'UNIT'} {target.province}"
        case Bribe(kind, target):
            return f"{kind.value.upper()} {'G' if target.garrison else 'UNIT'} {target.province}"
        case Assassinate(power):
            return f"ASSASSINATE {power}"
    return ""
