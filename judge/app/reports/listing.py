"""LIST and WHOGAME: the games one line each, one game in full, and who plays in a game.

The layout follows the Judge's (conventions §4 "LIST game"): the game's
state and times, who is still to order, the parameter block (the three
schedule lines, access and flags, press), the player table, the units and
the supply centres. Parameter and flag words are the SET keywords (``NoNMR``,
``DIAS``...), as in the Judge and in every language, because they are what a
master types to change them; the sentences around them are translated.

Where the Judge is silent we chose:

* a player's status is worked out from the orders on file: ``orders`` when a
  submission covers every unit that owes one (by count), ``partial`` when it
  covers fewer, ``late`` when none came and the deadline has passed,
  ``no orders`` before it; CD/abandoned/resigned/eliminated from the seat;
  ``-`` when the power owes nothing this phase;
* in a gunboat game only the game's master sees addresses; others see
  ``someone@somewhere``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from judge.app.audience.blind_view import EVERYTHING, OBSERVERS_SEE_ALL, View
from judge.app.audience.council_members import seat_readers
from judge.app.game_state.boards import NoOpenPhase, current
from judge.app.game_state.clock_store import phase_schedule
from judge.app.game_state.game_facts import (
    describe_variant,
    is_gunboat,
    players_needed,
    power_name,
    unseated_bots,
)
from judge.app.game_state.house_rules import house_rule_words
from judge.app.game_state.setting_table import bot_seat_level
from judge.app.game_state.variant_rules import game_map_of
from judge.app.hooks.game_hooks import hooks_for
from judge.app.reports.person import registration_lines
from judge.core.adjudicator.phases import build_sites
from judge.core.geography import GameMap
from judge.core.names import province_display_name
from judge.core.phase import Phase, PhaseType
from judge.core.position import Position
from judge.core.special_rules import NEUTRAL
from judge.db.database import UnitOfWork
from judge.db.enums import GameState, OrderBlockKind, SeatStatus
from judge.db.models import Game, Seat
from judge.db.repositories.councils import council_settings
from judge.i18n import N_, Gettext, Language
from judge.lang.powers import fold
from judge.timekeeping.dates import tell_date

HIDDEN_ADDRESS = "someone@somewhere"
SHOWN_IN_BRIEF_LIST = (GameState.FORMING, GameState.ACTIVE, GameState.PAUSED)

_PHASE_TEXT: dict[tuple[str, PhaseType], str] = {
    ("S", PhaseType.MOVEMENT): N_("Spring {year}, movement ({phase})"),
    ("S", PhaseType.RETREAT): N_("Spring {year}, retreats ({phase})"),
    ("F", PhaseType.MOVEMENT): N_("Fall {year}, movement ({phase})"),
    ("F", PhaseType.RETREAT): N_("Fall {year}, retreats ({phase})"),
    ("W", PhaseType.ADJUSTMENT): N_("Winter {year}, adjustments ({phase})"),
}
# Short words are translated together, one message per set, so that no other part of the
# judge can give the same one-word message a different French (gender, number).
_STATE_WORDS = N_("forming|active|paused|finished|terminated")
_STATE_KEYS = (GameState.FORMING, GameState.ACTIVE, GameState.PAUSED, GameState.FINISHED, GameState.TERMINATED)
_STATUS_WORDS = N_("orders|partial|no orders|late|CD|abandoned|resigned|eliminated|open|bot")
_STATUS_KEYS = ("orders", "partial", "none", "late", "cd", "abandoned", "resigned", "eliminated", "open", "bot")
_BRIEF_HEADINGS = N_("Game|Phase|Variant|Press|Players")
_TABLE_HEADINGS = N_("Power|Status|Units|Centres|Late|Dedication|Player")
_PRESS_LETTERS = {"none": "-", "white": "W", "grey": "G", "white/grey": "WG", "grey/white": "GW"}


# -- small pieces ---------------------------------------------------------------------------


def words(message: str, count: int, _: Gettext) -> list[str]:
    """The ``|``-separated words of a message, translated (English if a translation is malformed)."""
    translated = _(message).split("|")
    return translated if len(translated) == count else message.split("|")


def state_word(state: GameState, _: Gettext) -> str:
    return dict(zip(_STATE_KEYS, words(_STATE_WORDS, len(_STATE_KEYS), _), strict=True))[state]


def status_word(key: str, _: Gettext) -> str:
    return dict(zip(_STATUS_KEYS, words(_STATUS_WORDS, len(_STATUS_KEYS), _), strict=True))[key]



def phase_text(phase: str | None, _: Gettext) -> str:
    """``Spring 1902, movement (S1902M)`` in the reader's language."""
    if not phase:
        return "-"
    parsed = Phase.parse(phase)
    template = _PHASE_TEXT.get((parsed.season.value, parsed.type))
    if template is None:
        return phase
    return _(template).format(year=parsed.year, phase=phase)


def publicly_listed(game: Game) -> bool:
    """Whether anyone may come across ``game`` without being told its name: in the brief LIST of
    someone who is not in it, and on the web pages (:mod:`judge.web`), which show nothing at all
    of a game the master made private with SET NOLIST."""
    return game.listed


def press_code(game: Game) -> str:
    """The brief list's press column: mode letters, then P (partial press) and F (fakes allowed)."""
    mode = game.press_mode.lower().replace("gray", "grey")
    code = _PRESS_LETTERS.get(mode, mode[:2].upper() or "?")
    if code == "-":
        return code
    if game.partial_press:
        code += "P"
    if game.fake_press.lower() not in ("", "none", "no"):
        code += "F"
    return code


def press_legend(_: Gettext) -> str:
    return _(
        "Press: W = white, G = grey, WG = white with grey allowed, GW = grey with white "
        "allowed, - = no press; P = partial press allowed, F = fake press allowed."
    )


def player_address(seat: Seat, *, hide: bool) -> str:
    if hide:
        return HIDDEN_ADDRESS
    return ", ".join(r.address for r in seat_readers(seat.game, seat)) or HIDDEN_ADDRESS


def _join(items: Iterable[str]) -> str:
    return ", ".join(items)


# -- the brief list -------------------------------------------------------------------------


def brief_list(games: Sequence[Game], own: set[int], _: Gettext) -> list[str]:
    """LIST without argument: one line per game, own games marked with ``*``."""
    if not games:
        return [_("There are no games to list at present.")]
    game_h, phase_h, variant_h, press_h, players_h = words(_BRIEF_HEADINGS, 5, _)
    lines = [f"  {game_h:<12} {phase_h:<8} {variant_h:<20} {press_h:<5} {players_h}"]
    for game in games:
        mark = "*" if game.id in own else " "
        variant = describe_variant(game)
        if game.state is GameState.FORMING:
            wanted = game.players_count or len(game_map_of(game).powers)
            players = f"{wanted - players_needed(game)}/{wanted}"
            phase = state_word(GameState.FORMING, _)
        else:
            active = [s for s in game.seats if s.power is not None]
            players = str(len(active))
            phase = game.current_phase or state_word(game.state, _)
            if game.state is not GameState.ACTIVE:
                phase = state_word(game.state, _)
        line = f"{mark} {game.name:<12} {phase:<8} {variant:<20} {press_code(game):<5} {players:<8}"
        if game.comment:
            line += f" {game.comment}"
        lines.append(line.rstrip())
    lines += ["", press_legend(_)]
    if own:
        lines.append(_("* = a game you play in, observe or master."))
    return lines


# -- one game in full ---------------------------------------------------------------------------


def schedule_lines(game: Game) -> list[str]:
    """The three schedule lines, in the form SET MOVE/RETREAT/ADJUST reads."""
    return [
        f"  {label:<8}{phase_schedule(game, kind).format()}"
        for label, kind in (
            ("Move", PhaseType.MOVEMENT),
            ("Retreat", PhaseType.RETREAT),
            ("Adjust", PhaseType.ADJUSTMENT),
        )
    ]


def flag_words(game: Game) -> list[str]:
    """The game's on/off settings as the SET keywords that would set them."""
    flags = [
        "Moderated" if game.moderated else "Unmoderated",
        "Rated" if game.rated else "Unrated",
        "NMR" if game.nmr else "NoNMR",
        "DIAS" if game.dias else "NoDIAS",
        "Concessions" if game.concessions else "NoConcessions",
    ]
    optional = [
        (game.strict_grace, "StrictGrace"),
        (game.strict_wait, "StrictWait"),
        (game.late_count, "LateCount"),
        (game.manual_process, "ManualProcess"),
        (game.manual_start, "ManualStart"),
        (not game.players_may_resume, "NoResume"),
        (game.quiet, "Quiet"),
        (not game.show_setter, "NoShow"),
        (not game.reveal, "NoReveal"),
        (game.secret, "Secret"),
        (game.proxy, "Proxy"),
        (game.any_disband, "AnyDisband"),
        (game.auto_disband, "AutoDisband"),
        (game.approval, "Approval"),
        (bool((game.extra_settings or {}).get(OBSERVERS_SEE_ALL)), "ObserversSeeAll"),
    ]
    flags += [word for on, word in optional if on]
    flags.append("Listed" if game.listed else "Unlisted")
    flags.append(f"{_build_centres(game).capitalize()}Centres")
    flags.append(f"MaxAbsence {game.max_absence_days}")
    return flags


def press_words(game: Game) -> list[str]:
    mode = game.press_mode.replace("gray", "grey")
    press = ["/".join(part.capitalize() for part in mode.split("/")) if mode != "none" else "NoPress"]
    press.append("Partial" if game.partial_press else "NoPartial")
    fake = game.fake_press.lower()
    press.append("NoFake" if fake in ("", "none", "no") else f"Fake: {game.fake_press}")
    press.append(f"Observer{game.observer_press.capitalize()}")
    optional = [
        (game.watch_all_press, "WatchAllPress"),
        (game.blank_press, "BlankPress"),
        (not game.minor_press, "NoMinorPress"),
        (game.postal_press, "PostalPress"),
        (game.touch_press, "TouchPress"),
        (not game.late_press, "NoLatePress"),
        (not game.grace_press, "NoGracePress"),
        (game.must_order, "MustOrder"),
    ]
    return press + [word for on, word in optional if on]


def parameter_lines(game: Game, _: Gettext) -> list[str]:
    the_map = game_map_of(game)
    players = game.players_count or len(the_map.powers)
    lines = [_("Game parameters:"), *schedule_lines(game)]
    lines.append(
        "  "
        + _(
            "Access: {access}, Level: {level}, "
            "Dedication: {dedication}, On-time ratio: {ontime:.2f}, CD ratio: {cd:.2f}."
        ).format(
            access=game.access.capitalize(),
            level=game.level.capitalize(),
            dedication=game.min_dedication,
            ontime=game.min_ontime_ratio,
            cd=game.max_resignation_ratio,
        )
    )
    variant = " ".join([describe_variant(game), *hooks_for(game).option_words(game)])  # Machiavelli: NoDice...
    lines.append("  " + _("Variant and options: {variant}.").format(variant=variant))
    lines.append("  " + _("Flags: {flags}.").format(flags=_join(flag_words(game))))
    lines.append("  " + _("Press settings: {press}.").format(press=_join(press_words(game))))
    lines.append(
        "  "
        + _("Powers assigned by: {method}. Centres to win: {centres}. Players: {players}.").format(
            method=game.assignment.upper(), centres=game.winning_centers, players=players
        )
    )
    lines += ["  " + line for line in hooks_for(game).parameter_lines(game, _)]  # the variant's own (Machiavelli)
    house = house_rule_words(game, _)
    if house:
        lines.append("  " + " ".join(house))
    councils = council_settings(game)  # seed 003 (no query: the game's settings)
    if councils is not None:
        lines.append("  " + _("Played by councils of {size} players per power: a General-in-chief and "
                              "Ambassadors, one of them secretly working for another power.").format(size=councils["size"]))
    if game.comment:
        lines.append("  " + _("Game comment: {comment}").format(comment=game.comment))
    if game.comment_full:
        lines += ["", *game.comment_full.rstrip().splitlines()]
    return lines


def orders_owed(position: Position, the_map: GameMap, power: str) -> int:
    """How many orders ``power`` owes in the phase of ``position`` (0: nothing to do).

    ``the_map`` is the game's map with its rules (:func:`game_map_of`): builds count as far as
    the core's :func:`build_sites` allows (home centres, or any owned centre in Chaos and under
    SET ANY CENTRES), the one count of build sites."""
    kind = position.phase.type
    if kind is PhaseType.MOVEMENT:
        return sum(1 for unit in position.units if unit.power == power)
    if kind is PhaseType.RETREAT:
        return sum(1 for d in position.dislodged if d.unit.power == power)
    units = [unit for unit in position.units if unit.power == power]
    owned = position.centers.get(power, frozenset())
    difference = len(owned) - len(units)
    if difference < 0:
        return -difference
    return min(difference, len(build_sites(position, power, the_map)))


def seat_status(
    seat: Seat,
    owed: int,
    submitted: int | None,
    deadline_passed: bool,
    _: Gettext,
) -> str:
    """The status column: from the seat's standing, else from the orders on file."""
    standing = {
        SeatStatus.CIVIL_DISORDER: "cd",
        SeatStatus.ABANDONED: "abandoned",
        SeatStatus.RESIGNED: "resigned",
        SeatStatus.ELIMINATED: "eliminated",
        SeatStatus.BOT: "bot",
    }.get(seat.status)
    if standing is not None:
        return status_word(standing, _)
    if owed == 0:
        return "-"
    if submitted is None:
        return status_word("late" if deadline_passed else "none", _)
    return status_word("partial" if submitted < owed else "orders", _)


def game_report(
    uow: UnitOfWork,
    game: Game,
    *,
    language: str,
    zone: ZoneInfo,
    now: datetime,
    show_addresses: bool,
    _: Gettext,
    view: View = EVERYTHING,
) -> list[str]:
    """LIST game: everything about one game a player may know (in a Fog of War game, the board
    its ``view`` sees: :mod:`judge.app.audience.blind_view`)."""
    the_map = game_map_of(game)
    variant = describe_variant(game)
    lines: list[str] = []
    if game.state is GameState.FORMING:
        needed = players_needed(game)
        joined = sum(1 for s in game.seats if s.power is None and s.status is SeatStatus.WAITING)
        lines.append(
            _("Game '{game}' ({variant}) is forming: {joined} joined, {needed} more needed.").format(
                game=game.name, variant=variant, joined=joined, needed=needed
            )
        )
        bots = len(unseated_bots(game))
        if bots:
            lines.append(
                _("Seats played by {level} bots (SET BOTS): {count}.").format(level=bot_seat_level(game), count=bots)
            )
    else:
        lines.append(
            _("Game '{game}' ({variant}), {state}: {phase}.").format(
                game=game.name,
                variant=variant,
                state=state_word(game.state, _),
                phase=phase_text(game.current_phase, _),
            )
        )
    position: Position | None = None
    if game.state is GameState.ACTIVE:
        try:
            _record, position = current(uow, game)
        except NoOpenPhase:
            position = None
    if game.deadline_at is not None and game.state in (GameState.ACTIVE, GameState.PAUSED):
        lines.append(_("Deadline of the phase: {date}").format(date=tell_date(game.deadline_at, zone, _)))
        if game.grace_at is not None:
            lines.append(_("End of the grace period: {date}").format(date=tell_date(game.grace_at, zone, _)))
        if game.earliest_at is not None:
            lines.append(
                _("Earliest processing: {date}").format(date=tell_date(game.earliest_at, zone, _))
            )
    seen: frozenset[str] | None = None
    if position is not None and not view.everything:
        seen = view.seen(the_map, position)
        position = view.position(the_map, position)
    table, missing = _player_table(uow, game, the_map, position, language, now, show_addresses, _, view)
    if missing:
        lines.append(_("Waiting for orders from: {powers}.").format(powers=_join(missing)))
    lines += ["", *parameter_lines(game, _), ""]
    for master in game.masters:
        address = master.person.primary_address or HIDDEN_ADDRESS
        lines.append(_("Game master: {address}").format(address=address))
    lines += table
    if game.observers:
        lines.append(_("Observers of the game: {count}").format(count=len(game.observers)))
    if position is not None:
        lines += ["", *board_lines(position, the_map, language, _, seen)]
    return lines


def _player_table(
    uow: UnitOfWork,
    game: Game,
    the_map: GameMap,
    position: Position | None,
    language: str,
    now: datetime,
    show_addresses: bool,
    _: Gettext,
    view: View = EVERYTHING,
) -> tuple[list[str], list[str]]:
    """The player table, and the powers still owing orders (for the 'waiting for' line)."""
    hide = is_gunboat(game) and not show_addresses
    if game.state is GameState.FORMING:
        waiting = [s for s in game.seats if s.power is None and s.status is SeatStatus.WAITING]
        rows = [_("Players who have joined:")] if waiting else []
        for joined in waiting:
            dedication = joined.person.dedication if joined.person is not None else 0
            rows.append(
                "  "
                + _("{address} (dedication {points})").format(
                    address=player_address(joined, hide=hide), points=dedication
                )
            )
        return rows, []
    on_file = (
        uow.orders.current(game, game.current_phase)
        if position is not None and game.current_phase
        else {}
    )
    deadline_passed = game.deadline_at is not None and now > game.deadline_at
    headings = words(_TABLE_HEADINGS, 7, _)
    cells: list[list[str]] = []
    missing: list[str] = []
    seats = {s.power: s for s in game.seats if s.power is not None}
    for power in the_map.powers:
        seat = seats.get(power)
        units = sum(1 for u in position.units if u.power == power) if position else 0
        centres = len(position.centers.get(power, frozenset())) if position else 0
        counted = view.everything or power == view.power  # Fog of War: another power's counts are not told
        name = power_name(power, language)
        if seat is None:
            cells.append([name, status_word("open", _), *((str(units), str(centres)) if counted else ("?", "?")), "", "", ""])
            continue
        owed = orders_owed(position, the_map, power) if position is not None else 0
        submission = on_file.get(power)
        given: int | None = None
        if submission is not None:
            # A conditional or PHASE block is only settled when the phase is processed: it counts as given.
            given = len(submission.canonical) if submission.kind is OrderBlockKind.CURRENT else owed
        status = seat_status(seat, owed, given, deadline_passed, _)
        if owed and seat.status is SeatStatus.PLAYING and (given or 0) < owed:
            missing.append(name)
        dedication = seat.person.dedication if seat.person is not None else 0
        who = (
            _("the {level} bot").format(level=bot_seat_level(game)) if seat.status is SeatStatus.BOT
            else player_address(seat, hide=hide)
        )  # fmt: skip
        cells.append([
            name, status, *((str(units), str(centres)) if counted else ("?", "?")), str(seat.late_count), str(dedication),
            who,
        ])  # fmt: skip
    widths = [max(len(row[i]) for row in [headings, *cells]) for i in range(6)]
    rows = [_table_row(row, widths) for row in [headings, *cells]]
    return rows, missing


def _table_row(cells: Sequence[str], widths: Sequence[int]) -> str:
    """Power and status left-aligned, the numbers right-aligned, the address last."""
    left = [f"{cells[i]:<{widths[i]}}" for i in (0, 1)]
    right = [f"{cells[i]:>{widths[i]}}" for i in (2, 3, 4, 5)]
    return ("  " + " ".join([*left, *right]) + "  " + cells[6]).rstrip()


def board_lines(
    position: Position, the_map: GameMap, language: str, _: Gettext, seen: frozenset[str] | None = None
) -> list[str]:
    """The units (and units waiting to retreat) and the supply-centre ownership (``seen``, in a Fog
    of War game: the provinces the reader sees; the position given is its view already)."""
    lang: Language = "fr" if language == "fr" else "en"

    def where(location: str) -> str:
        return province_display_name(location, lang, the_map)

    lines = [_("Units on the board:")]
    for power in (*the_map.powers, NEUTRAL):  # neutral units (SET NEUTRALS) last
        units = [f"{u.type.value} {where(u.location)}" for u in position.units if u.power == power]
        if units:
            lines.append(f"  {power_name(power, language)}: {_join(units)}.")
    dislodged = [d for d in position.dislodged]
    if dislodged:
        lines.append(_("Dislodged, to retreat or disband:"))
        for power in the_map.powers:
            mine = [f"{d.unit.type.value} {where(d.unit.location)}" for d in dislodged if d.unit.power == power]
            if mine:
                lines.append(f"  {power_name(power, language)}: {_join(mine)}.")
    lines.append(_("Supply centres owned:"))
    owned: set[str] = set()
    for power in the_map.powers:
        centres = sorted(position.centers.get(power, frozenset()), key=lambda c: fold(where(c)))
        owned.update(centres)
        if centres:
            lines.append(
                f"  {power_name(power, language)} ({len(centres)}): {_join(where(c) for c in centres)}."
            )
    unowned = sorted(
        (c for c in the_map.supply_centers - owned if seen is None or c in seen), key=lambda c: fold(where(c))
    )
    if unowned:
        lines.append(
            "  " + _("Unowned ({count}): {centres}.").format(
                count=len(unowned), centres=_join(where(c) for c in unowned)
            )
        )
    return lines


# -- WHOGAME ------------------------------------------------------------------------------------


def _build_centres(game: Game) -> str:
    """``home``, ``any`` or ``one``: where builds go, the variant's rule (Chaos: any) where SET left the default."""
    if game.build_centres == "home" and game_map_of(game).special.build_any_owned_centre:
        return "any"
    return game.build_centres


def whogame_lines(game: Game, *, full: bool, language: str, _: Gettext) -> list[str]:
    """WHOGAME: the registration of every player and master (FULL: observers too)."""
    lines = [_("People in game '{game}':").format(game=game.name)]
    lines.append(_("Variant and options: {variant}.").format(
        variant=describe_variant(game)
    ))
    order = {power: index for index, power in enumerate(game_map_of(game).powers)}
    for seat in sorted(game.seats, key=lambda s: (order.get(s.power or "", len(order)), s.id)):
        if seat.status is SeatStatus.BOT:  # a practice game's bot (SET BOTS): nobody's registration
            role = power_name(seat.power, language) if seat.power is not None else _("Player (no power yet)")
            lines += ["", f"{role}:", _("the {level} bot").format(level=bot_seat_level(game))]
            continue
        if seat.person is None or seat.status not in (
            SeatStatus.PLAYING,
            SeatStatus.WAITING,
            SeatStatus.ABANDONED,
            SeatStatus.CIVIL_DISORDER,
        ):
            continue
        role = (
            power_name(seat.power, language)
            if seat.power is not None
            else _("Player (no power yet)")
        )
        lines += ["", f"{role}:", *registration_lines(seat.person, private=False)]
    for master in game.masters:
        lines += ["", _("Game master:"), *registration_lines(master.person, private=False)]
    if full:
        for observer in game.observers:
            lines += ["", _("Game observer:")]
            if observer.person is not None:
                lines += registration_lines(observer.person, private=False)
            else:
                lines.append(f"Email:     {observer.address}")
    return lines
