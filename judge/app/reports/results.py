"""The results mail: what happened to every order of a phase, in the Judge's form (conventions §4).

    Movement results for Spring of 1901.  (game.001)

    Austria: Army Budapest -> Serbia.
    Austria: Army Vienna -> Galicia.  (*bounce*)
    ...
    The Austrian Fleet in Trieste can retreat to Albania or Venice.

After a Fall phase (when supply centres change hands) come the ownership of
the centres and each power's count of centres, units and adjustments; then
what the next phase is and its deadline, or that the game is over. Sent to
every player, master and observer in their own language, and stored with
the phase so HISTORY can show it again.
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from zoneinfo import ZoneInfo

from judge.app.audience.blind_view import View
from judge.app.mail_out.wording import (
    game_reference,
    label_width,
    order_phrase,
    phase_heading,
    phase_name,
    place,
    places,
    power_adjective,
    power_label,
    power_name,
    unordered_phrase,
)
from judge.core.adjudicator import AdjudicationResult, OrderResult, Outcome
from judge.core.geography import GameMap
from judge.core.phase import PhaseType, Season
from judge.core.position import Position
from judge.core.units import UnitType
from judge.i18n import Gettext
from judge.timekeeping.dates import tell_date

CIVIL_DISORDER = "cd"
BLIND_REPORTS = "blind_reports"
"""In a Fog of War game's stored results: {view key: {language: text}}, what HISTORY tells each
power (its key) and everyone else (``-``) until the game ends (the full text is ``report``)."""
ABANDONED = "abandoned"
BOT = "bot"
"""A practice game's bot seat (SET BOTS): marked in the centre table, and named under the orders."""


@dataclass(frozen=True, slots=True)
class ResultsReport:
    """Everything the results mail says about one processed phase."""

    game: str
    turn: int
    position: Position
    """The board before the phase."""
    result: AdjudicationResult
    statuses: Mapping[str, str] = field(default_factory=dict)
    """power -> ``cd``, ``abandoned`` or ``bot`` (shown in the centre table; the bots also under the orders)."""
    winner: str | None = None
    next_deadline: datetime | None = None
    zone: ZoneInfo = field(default_factory=lambda: ZoneInfo("UTC"))
    game_over: bool = False
    sight: frozenset[str] | None = None
    """Fog of War (:mod:`judge.app.audience.blind_view`): the provinces the reader sees after the
    phase (None: all). Given, the centre table has the reader's own line alone (``viewer``) and the
    ownership names the centres it sees, its own always; ``position`` and ``result`` are then the
    reader's view of them already."""
    viewer: str | None = None
    """The power whose sight ``sight`` is (None with a ``sight``: a reader who sees nothing)."""


def report_for(report: ResultsReport, view: View, game_map: GameMap) -> ResultsReport:
    """``report`` as a reader with ``view`` is told it (Fog of War): the orders and results of the
    units it sees, its own in full, the board after the phase that it sees, its own centre count."""
    if view.everything:
        return report
    before, result = view.results(game_map, report.position, report.result)
    sight = view.seen(game_map, report.result.position)
    return replace(report, position=before, result=result, sight=sight, viewer=view.power)


def render_results(report: ResultsReport, game_map: GameMap, language: str, _: Gettext) -> str:
    result = report.result
    lines = [
        f"{phase_heading('results', result.phase, _)}  {game_reference(report.game, report.turn)}",
        "",
    ]
    lines += _order_lines(report, game_map, language, _)
    if report.sight is not None and report.viewer is None:
        lines.append(_("This is a Fog of War game: what happened is shown to observers when the game is over."))
    bots = _power_order(game_map, [power for power, status in report.statuses.items() if status == BOT])
    if bots:
        lines += ["", _("Played by the judge's bots: {powers}.").format(
            powers=", ".join(power_name(power, language) for power in bots)
        )]  # fmt: skip
    if result.phase.type is PhaseType.MOVEMENT and result.dislodged:
        lines.append("")
        lines += _dislodged_lines(report, game_map, language, _)
    if _centres_changed(report) and not (report.sight is not None and report.viewer is None):
        lines.append("")
        lines += _ownership(report, game_map, language, _)
        lines.append("")
        lines += _table(report, game_map, language, _)
    lines.append("")
    lines += _footer(report, language, _)
    return "\n".join(lines).rstrip() + "\n"


def _power_order(game_map: GameMap, powers: Sequence[str]) -> list[str]:
    rank = {power: index for index, power in enumerate(game_map.powers)}
    return sorted(set(powers), key=lambda p: (rank.get(p, len(rank)), p))


def _order_lines(report: ResultsReport, game_map: GameMap, language: str, _: Gettext) -> list[str]:
    by_power: dict[str, list[OrderResult]] = {}
    for entry in report.result.results:
        by_power.setdefault(entry.power, []).append(entry)
    powers = _power_order(game_map, list(by_power))
    width = label_width(powers, language)
    lines: list[str] = []
    for power in powers:
        label = power_label(power, language, width)
        for entry in by_power[power]:
            text = _entry_text(entry, report.position, game_map, language, _)
            tag = _tag(entry.outcome, entry.reason, _, game_map, language)
            lines.append(f"{label} {text}.{'  ' + tag if tag else ''}")
    return lines


def _entry_text(entry: OrderResult, position: Position, game_map: GameMap, language: str, _: Gettext) -> str:
    if entry.order is not None:
        return order_phrase(entry.order, entry.power, position, language, game_map, _)
    unit = entry.unit
    if unit is None:
        return _("No Order Processed")
    if entry.reason == "removed in civil disorder":
        if unit.type is UnitType.FLEET:
            return _("Removes the fleet in {place}").format(place=place(unit.location, language, game_map))
        return _("Removes the army in {place}").format(place=place(unit.location, language, game_map))
    if entry.reason == "neutral unit raised again":  # neutral_units with rebuild (Known World 901)
        if unit.type is UnitType.FLEET:
            return _("Raises the neutral fleet in {place} again").format(place=place(unit.location, language, game_map))
        return _("Raises the neutral army in {place} again").format(place=place(unit.location, language, game_map))
    return unordered_phrase(unit, position, language, game_map, _)


@functools.lru_cache(maxsize=1024)
def _tag(outcome: Outcome, reason: str, _: Gettext, game_map: GameMap, language: str) -> str:
    """``(*bounce*)``, ``(*cut, dislodged*)``: why an order failed (its ``outcome`` and the engine's
    ``reason``), in the Judge's words. Kept by all of them: a few dozen outcomes and reasons make
    every tag of a map's results (a retreat by the master names a place of the map)."""
    if outcome is Outcome.INVALID:
        return f"(*{_('invalid')}*)"
    if reason.startswith("no order:") or reason.startswith("no valid order:"):
        reason = reason.split(":", 1)[1]
        parts = [p.strip() for p in reason.split(",") if p.strip() not in ("holds", "disbanded")]
    elif outcome is Outcome.SUCCEEDS and not reason.startswith("completed"):
        return ""  # most orders: nothing to say, and no message translated for it
    else:
        parts = [p.strip() for p in reason.split(",")]
    if not parts:
        return ""
    words = {
        "holds (invalid order)": _("holds (invalid order)"),
        "bounce": _("bounce"),
        "cut": _("cut"),
        "void": _("void"),
        "no convoy": _("no convoy"),
        "disrupted": _("disrupted"),
        "dislodged": _("dislodged"),
        "destroyed": _("destroyed"),
        "removed in civil disorder": _("civil disorder"),
        "completed": _("completed from its power's support or convoy"),
    }
    parts = [words.get(p) or _retreated_by_master(p, game_map, language, _) or p for p in parts if p]
    return f"(*{', '.join(parts)}*)" if parts else ""


def _retreated_by_master(reason: str, game_map: GameMap, language: str, _: Gettext) -> str | None:
    """The engine's "retreated to Spain (north coast) by the game master" in the reader's words, or None."""
    prefix, suffix = "retreated to ", " by the game master"
    if not (reason.startswith(prefix) and reason.endswith(suffix)):
        return None
    name = reason[len(prefix) : -len(suffix)]
    for code, province in game_map.provinces.items():
        for location in (code, *(f"{code}/{coast}" for coast in province.coasts)):
            if place(location, "en", game_map) == name:
                return _("retreated to {place} by the game master").format(
                    place=place(location, language, game_map)
                )
    return None


def _dislodged_lines(report: ResultsReport, game_map: GameMap, language: str, _: Gettext) -> list[str]:
    result = report.result
    lines: list[str] = []
    for dislodged in sorted(result.dislodged, key=lambda d: (d.unit.power, d.unit.location)):
        unit = dislodged.unit
        options = result.retreats.get(unit, ())
        values = {
            "adjective": power_adjective(unit.power, language),
            "place": place(unit.location, language, game_map),
            "places": places(options, language, game_map, _),
        }
        fleet = unit.type is UnitType.FLEET
        if options:
            text = (_("The {adjective} Fleet in {place} can retreat to {places}.") if fleet
                    else _("The {adjective} Army in {place} can retreat to {places}."))
        else:
            text = (_("The {adjective} Fleet in {place} with no valid retreats was destroyed.") if fleet
                    else _("The {adjective} Army in {place} with no valid retreats was destroyed."))
        lines.append(text.format(**values))
    return lines


def _centres_changed(report: ResultsReport) -> bool:
    """After the Fall phases (the moment centres change hands), or when the game ends."""
    result = report.result
    if report.game_over:
        return True
    return result.phase.season is Season.FALL and result.next_phase.season is not Season.FALL


def _ownership(report: ResultsReport, game_map: GameMap, language: str, _: Gettext) -> list[str]:
    centers = report.result.position.centers
    powers = _power_order(game_map, [p for p, owned in centers.items() if owned])
    unowned_label = _("Unowned:")
    width = max(label_width(powers, language), len(unowned_label))
    lines = [_("Ownership of supply centers:"), ""]
    owned_all: set[str] = set()
    for power in powers:
        owned = centers[power]
        owned_all |= owned
        lines += _wrapped(power_label(power, language, width), owned, game_map, language)
    unowned = set(game_map.supply_centers) - owned_all
    if report.sight is not None:
        unowned &= report.sight
    if unowned:
        lines += _wrapped(unowned_label.ljust(width), unowned, game_map, language)
    return lines


def _wrapped(label: str, provinces: set[str] | frozenset[str], game_map: GameMap, language: str) -> list[str]:
    names = sorted(place(p, language, game_map) for p in provinces)
    return wrap_under_label(label, ", ".join(names) + ".")


WIDTH = 78
"""The longest line of a wrapped list (the centres a power owns)."""


def wrap_under_label(label: str, text: str) -> list[str]:
    """``text`` after ``label`` and a space, wrapped at :data:`WIDTH` with the lines after the
    first indented under it: :func:`textwrap.wrap`'s lines, which a text that fits on the first
    line whole (as most powers' centres do) is given without textwrap's splitting it into words:
    printable (no tab nor line break for textwrap to turn into spaces, no other space than
    ' '), not empty and not ending with a blank (which textwrap drops), it is that one line as it is."""
    first = label + " "
    if text and len(first) + len(text) <= WIDTH and text.isprintable() and not text.endswith(" "):
        return [first + text]
    return textwrap.wrap(text, width=WIDTH, initial_indent=first, subsequent_indent=" " * len(first))


def _table(report: ResultsReport, game_map: GameMap, language: str, _: Gettext) -> list[str]:
    after = report.result.position
    units: dict[str, int] = {}
    for unit in after.units:
        units[unit.power] = units.get(unit.power, 0) + 1
    for dislodged in after.dislodged:
        units[dislodged.unit.power] = units.get(dislodged.unit.power, 0) + 1
    powers = _power_order(game_map, [*units, *(p for p, c in after.centers.items() if c)])
    if report.sight is not None:  # a blind reader is told its own count alone
        powers = [p for p in powers if p == report.viewer]
    width = label_width(powers, language)
    lines = []
    for power in powers:
        centres = len(after.centers.get(power, frozenset()))
        count = units.get(power, 0)
        owed = centres - count
        if owed < 0:
            text = _("{centers:2d} Supply centers, {units:2d} Units:  Removes {count:2d} unit(s).")
        else:
            text = _("{centers:2d} Supply centers, {units:2d} Units:  Builds  {count:2d} unit(s).")
        line = f"{power_label(power, language, width)} " + text.format(centers=centres, units=count, count=abs(owed))
        if power == report.winner:
            line += "  " + _("(* VICTORY!! *)")
        elif report.statuses.get(power) == CIVIL_DISORDER:
            line += "  " + _("(* CD *)")
        elif report.statuses.get(power) == ABANDONED:
            line += "  " + _("(* ABANDONED *)")
        elif report.statuses.get(power) == BOT:
            line += "  " + _("(* BOT *)")
        lines.append(line)
    return lines


def _footer(report: ResultsReport, language: str, _: Gettext) -> list[str]:
    if report.game_over:
        lines = []
        if report.winner is not None:
            centres = len(report.result.position.centers.get(report.winner, frozenset()))
            lines.append(
                _("{power} has won the game with {count} supply centers.").format(
                    power=power_name(report.winner, language), count=centres
                )
            )
        lines.append(_("The game is over. Thank you for playing."))
        return lines
    lines = [
        _("The next phase of '{game}' will be {phase}.").format(
            game=report.game, phase=phase_name(report.result.next_phase, _)
        )
    ]
    if report.next_deadline is not None:
        lines.append(
            _("The deadline for orders is {date}.").format(date=tell_date(report.next_deadline, report.zone, _))
        )
    return lines
