"""The results of a phase of the Renaissance game, in the Judge's manner, as one reader may read them.

Everyone reads what happened on the board: each move, siege and conversion with its outcome,
the garrisons that fell, the units disbanded, what money did there (a unit bought or disbanded
by a bribe, a rebellion raised or pacified, a famine relieved, a defaulter assassinated, a
province rising), the adjustments' builds and removals, and the board after. Who paid is never
told. A power's books (its treasury before and after, each ducat in or out and why, its money
orders with their outcome, its loans) are added for the readers allowed to see them:
:func:`judge.app.audience.machiavelli_books.books_readable` decides, this module only writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from judge.core.adjudicator import Outcome
from judge.core.machiavelli.adjustments import Dismiss, Maintain, Raise
from judge.core.machiavelli.board import AUTONOMOUS
from judge.core.machiavelli.campaign import MachiavelliPosition
from judge.core.machiavelli.money import Entry, MoneyAdjustmentResult
from judge.core.machiavelli.orders import (
    Besiege,
    Borrow,
    Bribe,
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
    LiftSiege,
    PacifyRebellion,
    PayBank,
    Target,
    ToGarrison,
)
from judge.core.machiavelli.season import SeasonOrder, SeasonResult
from judge.core.phase import PhaseType
from judge.core.units import UnitRef


@dataclass(frozen=True, slots=True)
class SeasonTexts:
    """The results of one phase: the lines everyone reads, and each power's books (its own lines)."""

    title: str
    public: tuple[str, ...]
    books: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def for_reader(self, readable: Iterable[str]) -> str:
        """The results mail's text for a reader who may see the books of ``readable`` powers."""
        lines = [self.title, "", *self.public]
        for power in sorted(readable):
            if power in self.books:
                lines += ["", f"{power.title()}'s books (private):", *self.books[power]]
        return "\n".join(lines).rstrip() + "\n"


def phase_title(result: SeasonResult) -> str:
    phase = result.before.phase
    kind = {
        PhaseType.MOVEMENT: "Campaign",
        PhaseType.RETREAT: "Retreats",
        PhaseType.ADJUSTMENT: "Adjustments",
    }
    season = "Winter" if phase.type is PhaseType.ADJUSTMENT else phase.season.name.title()
    return f"{kind[phase.type]} results for {season} {phase.year}."


def season_texts(
    result: SeasonResult, unread: Mapping[str, Sequence[str]] | None = None
) -> SeasonTexts:
    """The texts of ``result``; ``unread``: each power's sheet lines the reader refused (shown in
    its books only: a sheet is secret, money orders most of all)."""
    public: list[str] = []
    books: dict[str, list[str]] = {}
    if result.money is not None:
        for defaulter in result.money.defaulted:
            public.append(f"{defaulter.title()} defaulted on the bank and was assassinated.")
        for city in result.money.garrisons_lost:
            public.append(f"The garrison of {city}, its power assassinated, surrenders.")
        for roll in result.money.rebellion_rolls:
            if roll.rose:
                public.append(f"{roll.province} rises in rebellion against {roll.power.title()}.")
        for verdict in result.money.verdicts:
            books.setdefault(verdict.power, []).append(
                f"{order_text(verdict.order)}: {_outcome(verdict.outcome, verdict.reason)}"
                + (f" (paid {verdict.paid} ducats)" if verdict.paid else "")
            )
            if isinstance(verdict.order, Expense) and verdict.outcome is Outcome.SUCCEEDS:
                effect = _effect(verdict.order.action)
                if effect:
                    public.append(effect)
    if result.campaign is not None:
        public += ["", "Orders:"] if public else ["Orders:"]
        for move in result.campaign.verdicts:
            public.append(
                f"  {move.power.title()}: {order_text(move.order)}: {_outcome(move.outcome, move.reason)}"
            )
        for city in result.campaign.sieges_completed:
            public.append(f"The siege of {city} is complete: its garrison is gone.")
        for unit in result.campaign.disbanded:
            public.append(f"{unit} is disbanded.")
        for dislodged, places in sorted(
            result.position.retreats.items(), key=lambda item: str(item[0])
        ):
            public.append(
                f"{dislodged.power.title()}'s {dislodged.type._value_} {dislodged.location} is dislodged;"
                f" it may retreat to {', '.join(places) or 'nowhere'}."
            )
    if result.income is not None:
        for report in result.income.reports:
            books.setdefault(report.power, []).append(
                f"Income: {report.total} ducats ({report.provinces} from provinces, {report.cities} from cities, "
                f"{report.fleets} from fleets at sea, {report.variable} from the dice {list(report.rolls)})."
            )
    if result.adjustments is not None:
        changes: list[str] = []
        for adjusted in result.adjustments.verdicts:
            text = f"{order_text(adjusted.order) if adjusted.order else 'nothing'}: {_outcome(adjusted.outcome, adjusted.reason)}"
            if isinstance(adjusted.order, Maintain):
                books.setdefault(adjusted.power, []).append(
                    text
                )  # what a power pays to keep is its own
            else:
                changes.append(f"  {adjusted.power.title()}: {text}")
        if changes:
            public += ["", "Adjustments:", *changes] if public else ["Adjustments:", *changes]
    for power, order in result.misplaced:
        books.setdefault(power, []).append(
            f"{order_text(order)}: not an order of this phase, ignored."
        )
    for power, lines in (unread or {}).items():
        books.setdefault(power, []).extend(f"{line}: not read, ignored." for line in lines)
    for power in result.eliminated:
        public.append(f"{power.title()} is eliminated.")
    public += ["", *board_lines(result.position)]
    ledgers = _ledger(result)
    before, after = result.before.money, result.position.money
    if before is not None and after is not None:
        for power in sorted({*before.treasuries, *after.treasuries}):
            lines = books.setdefault(power, [])
            moved = ", ".join(f"{entry.kind} {entry.ducats:+d}" for entry in ledgers.get(power, ()))
            lines.append(
                f"Treasury: {before.treasury(power)} ducats before, {after.treasury(power)} after"
                + (f" ({moved})." if moved else ".")
            )
            for loan in after.loans.get(power, ()):
                lines.append(
                    f"Loan: {loan.principal} ducats and {loan.interest} of interest due in {loan.due}."
                )
    return SeasonTexts(
        phase_title(result), tuple(public), {power: tuple(lines) for power, lines in books.items()}
    )


def board_lines(position: MachiavelliPosition) -> list[str]:
    """The board after the phase: the next phase, each power's units and the garrisons."""
    lines = [f"Next phase: {position.phase}."]
    owners = sorted(
        {unit.power for unit in position.units} | {o for o in position.garrisons.values()}
    )
    for owner in owners:
        units = [
            f"{u.type._value_} {u.location}"
            for u in sorted(position.units, key=str)
            if u.power == owner
        ]
        units += [f"G {city}" for city, held in sorted(position.garrisons.items()) if held == owner]
        name = "Autonomous" if owner == AUTONOMOUS else owner.title()
        lines.append(f"{name}: {', '.join(units)}.")
    for province, rebellion in sorted(position.unrest.rebellions.items()):
        lines.append(f"{province} rebels against {rebellion.against.title()}.")
    for province in sorted(position.unrest.famine):
        lines.append(f"Famine in {province}.")
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


def _outcome(outcome: Outcome, reason: str) -> str:
    return outcome.value + (f" ({reason})" if reason else "")


def _target(target: Target) -> str:
    return (
        f"the garrison of {target.province}"
        if target.garrison
        else f"the unit in {target.province}"
    )


def _effect(action: ExpenseAction | None) -> str:
    """What a successful expense did on the board, said without its payer."""
    if isinstance(action, Bribe):
        return f"Bribe: {_target(action.target)} ({action.kind.value})."
    if isinstance(action, CauseRebellion):
        return f"A rebellion breaks out in {action.province}."
    if isinstance(action, PacifyRebellion):
        return f"The rebellion in {action.province} is pacified."
    if isinstance(action, FamineRelief):
        return f"The famine in {action.province} is relieved."
    return ""  # a counter-bribe leaves no mark


def _unit(unit: UnitRef) -> str:
    return unit.location if unit.type is None else f"{unit.type._value_} {unit.location}"


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
        case PayBank(ducats):
            return f"PAY {ducats} DUCATS TO BANK"
        case Give(ducats, power):
            return f"GIVE {ducats} DUCATS TO {power}"
        case Borrow(ducats, years):
            return f"BORROW {ducats} DUCATS FOR {years} YEAR{'S' if years > 1 else ''}"
        case Expense(number, _, None):
            return f"EXPENSE {number}: NONE"
        case Expense(number, ducats, action):
            return f"EXPENSE {number}: {ducats} DUCATS {_action_text(action)}"
        case Raise(province, kind, garrison):
            return f"BUILD {'G' if garrison else kind._value_ if kind else 'A'} {province}"
        case Dismiss(province, garrison):
            return f"REMOVE {'G ' if garrison else ''}{province}"
        case Maintain(province, garrison):
            return f"MAINTAIN {'G ' if garrison else ''}{province}"
    return str(order)


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
    return ""
