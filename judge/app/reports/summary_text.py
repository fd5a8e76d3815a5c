"""SUMMARY: who played which power when, and how many supply centres each held at each year's end.

The Judge's SUMMARY told the story of a game in one page: the players of
each power with the phases they held it from and to (takeovers included),
the masters, and the supply-centre counts year by year. It is built here
from what the database already keeps for other reasons, so it can never
disagree with the game:

* the seat tenures (:class:`judge.db.models.SeatTenure`), opened at the
  start and at each takeover, closed at a resignation or an abandonment;
* the positions of the phase records of the current timeline (a ROLLBACK
  leaves the abandoned phases out): the centres at the end of year ``Y``
  are those of the first position of Winter ``Y`` or of any later phase of
  spring, since ownership only changes at the end of the fall.

Hidden identities (conventions §4): in a gunboat game the players are
``someone@somewhere`` until the game is over, and for ever if the game is
NoReveal — except to the game's masters, who get the full report, as the
Judge's master did.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from judge.app.audience.blind_view import EVERYTHING, View
from judge.app.game_state.boards import from_json
from judge.app.game_state.centre_words import SUPPLY_CENTRES
from judge.app.game_state.game_facts import describe_variant, is_gunboat, power_name
from judge.app.game_state.variant_rules import game_map_of
from judge.app.hooks.game_hooks import hooks_for
from judge.core.phase import Phase, Season
from judge.core.position import Position
from judge.db.database import UnitOfWork
from judge.db.enums import GameState
from judge.db.models import Game, Person, PhaseRecord, SeatTenure
from judge.i18n import Gettext
from judge.mail.compose import judge_date

HIDDEN = "someone@somewhere"
ENDED = (GameState.FINISHED, GameState.TERMINATED)


@dataclass(frozen=True)
class YearCentres:
    """The centre count of every power at the end of ``year`` (``year`` before the first: the start)."""

    year: int
    counts: dict[str, int]


def identities_hidden(game: Game, *, viewer_is_master: bool) -> bool:
    """Whether the players' names and addresses are withheld from this reader."""
    if viewer_is_master or not is_gunboat(game):
        return False
    return game.state not in ENDED or not game.reveal


def positions_in_order(records: Sequence[PhaseRecord]) -> list[Position]:
    """Every position the current timeline went through, oldest first (the last one after processing)."""
    positions = [from_json(record.position_before) for record in records]
    if records and records[-1].position_after is not None:
        positions.append(from_json(records[-1].position_after))
    return positions


def year_end_of(phase: Phase) -> int:
    """The year whose end-of-year centres a position of ``phase`` shows.

    Winter shows the centres just taken in the fall of its year; every
    spring and fall phase still shows those of the year before.
    """
    return phase.year if phase.season is Season.WINTER else phase.year - 1


def centres_by_year(positions: Iterable[Position]) -> list[YearCentres]:
    """One row per year end reached, in order: the first position seen for each year end decides."""
    rows: dict[int, YearCentres] = {}
    for position in positions:
        year = year_end_of(position.phase)
        if year not in rows:
            rows[year] = YearCentres(
                year, {power: len(centres) for power, centres in position.centers.items()}
            )
    return [rows[year] for year in sorted(rows)]


def _who(person: Person | None, *, hidden: bool, _: Gettext) -> str:
    if hidden:
        return HIDDEN
    if person is None:
        return _("(nobody)")
    address = person.primary_address or HIDDEN
    return f"{person.name} <{address}>" if person.name else address


def _when(tenure: SeatTenure, zone: ZoneInfo, _: Gettext) -> str:
    start = tenure.started_phase or judge_date(tenure.started_at, zone)
    if tenure.ended_at is None:
        text = _("from {start}").format(start=start)
    else:
        end = tenure.ended_phase or judge_date(tenure.ended_at, zone)
        text = _("from {start} to {end}").format(start=start, end=end)
    if tenure.how == "takeover":
        text += " " + _("(took over)")
    return text


def player_lines(game: Game, *, hidden: bool, language: str, zone: ZoneInfo, _: Gettext) -> list[str]:
    """Each power with everyone who held it, in the order they held it."""
    the_map = game_map_of(game)
    seats = {seat.power: seat for seat in game.seats if seat.power is not None}
    width = max(len(power_name(p, language)) for p in the_map.powers) + 2
    lines = [_("Players:")]
    for power in the_map.powers:
        label = f"{power_name(power, language)}:".ljust(width)
        seat = seats.get(power)
        tenures = list(seat.tenures) if seat is not None else []
        if not tenures:
            lines.append(f"  {label}{_('nobody has played this power')}")
            continue
        for index, tenure in enumerate(tenures):
            prefix = label if index == 0 else " " * width
            who = _who(tenure.person, hidden=hidden, _=_)
            lines.append(f"  {prefix}{who}  {_when(tenure, zone, _)}")
    for master in game.masters:
        who = _who(master.person, hidden=False, _=_)
        lines.append("  " + _("Master: {who}").format(who=who))
    return lines


def centre_table(
    rows: Sequence[YearCentres], powers: Sequence[str], language: str, _: Gettext, title: str = SUPPLY_CENTRES.by_year
) -> list[str]:
    """``Year  Aus  Eng ...`` then one line per year end.

    The first row is the starting position, under the year before the
    first phase (1900 for a standard game), as the centres "at the end" of it.
    """
    if not rows:
        return []
    names = [power_name(p, language)[:3] for p in powers]
    lines = [_(title), "  " + f"{_('Year'):<6}" + "".join(f"{n:>5}" for n in names)]
    for row in rows:
        lines.append("  " + f"{row.year:<6}" + "".join(f"{row.counts.get(p, 0):>5}" for p in powers))
    return lines


def summary_lines(
    uow: UnitOfWork,
    game: Game,
    *,
    viewer_is_master: bool,
    language: str,
    zone: ZoneInfo,
    _: Gettext,
    view: View = EVERYTHING,
) -> list[str]:
    """The SUMMARY report of ``game`` for one reader (in a running Fog of War game, the centre
    counts of the reader's own power alone: :mod:`judge.app.audience.blind_view`)."""
    variant = describe_variant(game)
    if game.state is GameState.FORMING:
        return [_("Game '{game}' ({variant}) has not started yet: there is nothing to summarise.").format(
            game=game.name, variant=variant
        )]
    records = uow.phases.history(game)
    lines = [_("Summary of game '{game}' ({variant}).").format(game=game.name, variant=variant)]
    if game.started_at is not None:
        lines.append(_("Started:  {date}").format(date=judge_date(game.started_at, zone)))
    if game.state in ENDED:
        if game.finished_at is not None:
            lines.append(_("Ended:    {date}").format(date=judge_date(game.finished_at, zone)))
    elif game.current_phase:
        lines.append(_("Current phase: {phase}").format(phase=game.current_phase))
    processed = [r for r in records if r.processed_at is not None]
    if processed:
        lines.append(
            _("Phases processed: {count}, the last {phase}.").format(count=len(processed), phase=processed[-1].name)
        )
    hidden = identities_hidden(game, viewer_is_master=viewer_is_master)
    lines += ["", *player_lines(game, hidden=hidden, language=language, zone=zone, _=_)]
    if hidden and game.state in ENDED:
        lines.append(_("This gunboat game does not reveal who played which power (NoReveal)."))
    elif hidden:
        lines.append(_("This is a gunboat game: who played which power is shown when the game is over."))
    powers: Sequence[str] = game_map_of(game).powers
    if not view.everything:
        powers = [p for p in powers if p == view.power]
        lines.append(_("This is a Fog of War game: the other powers' centres are shown when the game is over."))
    title = hooks_for(game).centre_words.by_year  # supply centres; the Renaissance game's cities
    table = centre_table(centres_by_year(positions_in_order(records)), powers, language, _, title) if powers else []
    if table:
        lines += ["", *table]
    return lines
