"""The "Game Starting" mail: your power, who plays what, the starting units, the first deadline.

Every player gets it in their own language, observers and masters too (with
no "you are" line). In a gunboat game the player table hides addresses, as
the Judge did (``someone@somewhere``), so nobody learns who plays whom.
"""

from __future__ import annotations

from collections.abc import Sequence
from zoneinfo import ZoneInfo

from judge.app.audience.blind_view import view_of
from judge.app.audience.council_members import seat_readers
from judge.app.game_state.boards import opening_position
from judge.app.game_state.game_facts import is_gunboat, mailed_observers, power_name
from judge.app.game_state.setting_table import bot_seat_level
from judge.app.game_state.variant_rules import game_map_of, opening_neutral_units
from judge.app.hooks.game_hooks import hooks_for
from judge.app.mail_out.results_maps import map_language, map_off_addresses
from judge.app.mail_out.wording import phase_name
from judge.app.session.mail_session import MailSession, Outgoing
from judge.app.session.readers import reader_language, reader_zone
from judge.core.names import province_display_name
from judge.core.phase import Phase, Season
from judge.core.units import UnitType
from judge.db.enums import SeatStatus
from judge.db.models import Game, Person, Seat
from judge.i18n import translation
from judge.mail.compose import game_subject
from judge.maps.art import has_art
from judge.timekeeping.dates import tell_date

HIDDEN_ADDRESS = "someone@somewhere"


def game_starting_body(game: Game, seat: Seat | None, language: str, zone: ZoneInfo) -> str:
    """The body for one reader: the player of ``seat``, or an observer/master when None."""
    _ = translation(language).gettext
    the_map = game_map_of(game)
    lines: list[str] = []
    lines.append(_("Game '{game}' has started.").format(game=game.name))
    if seat is not None and seat.power is not None:
        lines.append(_("You are playing {power}.").format(power=power_name(seat.power, language)))
    lines += ["", _("The powers have been assigned as follows:"), ""]
    seats = {s.power: s for s in game.seats if s.power is not None}
    width = max(len(power_name(p, language)) for p in the_map.powers) + 1
    for power in the_map.powers:
        holder = seats.get(power)
        if holder is not None and holder.status is SeatStatus.BOT:
            who = _("the {level} bot").format(level=bot_seat_level(game))
        elif holder is None or holder.person is None:
            who = _("(open for takeover)")
        elif is_gunboat(game):
            who = HIDDEN_ADDRESS
        else:
            who = ", ".join(r.address for r in seat_readers(game, holder)) or HIDDEN_ADDRESS
        lines.append(f"   {power_name(power, language) + ':':<{width}} {who}")
    own = hooks_for(game).parameter_lines(game, _)  # the variant's own settings (the Machiavelli options)
    if own:
        lines += ["", *own]
    opening = opening_position(the_map, neutral_units=opening_neutral_units(game, the_map))
    phase = Phase.parse(game.current_phase) if game.current_phase else opening.phase
    if phase.season is Season.SPRING:
        lines += ["", _("Starting position for Spring of {year}:").format(year=phase.year), ""]
    else:  # a variant starting in the fall, or with builds (Chaos)
        lines += ["", _("Starting position, {phase}:").format(phase=phase_name(phase, _)), ""]
    own_board = hooks_for(game).starting_lines(game, the_map, language)  # the Renaissance garrisons
    if own_board is not None:
        lines += own_board
    for unit in opening.units if own_board is None else ():
        kind = _("Army") if unit.type is UnitType.ARMY else _("Fleet")
        where = province_display_name(unit.location, "fr" if language == "fr" else "en", the_map)
        lines.append(f"   {power_name(unit.power, language)}: {kind} {where}.")
    lines.append("")
    if game.deadline_at is not None:
        lines.append(
            _("The deadline for the first orders ({phase}) is {deadline}.").format(
                phase=game.current_phase, deadline=tell_date(game.deadline_at, zone, _)
            )
        )
    if game.earliest_at is not None:
        lines.append(
            _("Once all orders are in, the phase may be processed early, but not before {start}.").format(
                start=tell_date(game.earliest_at, zone, _)
            )
        )
    return "\n".join(lines).rstrip() + "\n"


def _language(person: Person | None, game: Game) -> str:
    return reader_language(person, game)


def _zone(person: Person | None, judge_zone: ZoneInfo) -> ZoneInfo:
    return reader_zone(person.time_zone if person is not None else None, judge_zone)


def queue_game_starting(session: MailSession, game: Game) -> int:
    """Queue the Game Starting mail to every player, master and observer; returns how many mails.

    Each carries the opening board in its reader's language (drawn by the sender when it delivers
    the mail, as a results mail's map), unless the reader said SET MAP OFF.
    """
    config = session.services.config
    subject = game_subject(config.code, game.name, "Game Starting", game.current_phase)
    game_map = game_map_of(game)
    mails: list[tuple[Sequence[str], str, str]] = []
    for seat in game.seats:
        if seat.person is None:
            continue
        bodies: dict[tuple[str, str], str] = {}
        for reader in seat_readers(game, seat):  # a council's members each alone, in his language
            key = (reader.language, reader.time_zone)
            if key not in bodies:
                zone = reader_zone(reader.time_zone or None, config.timezone)
                bodies[key] = game_starting_body(game, seat, reader.language, zone)
            # Fog of War: each power's opening board as it sees it (judge.app.audience.blind_view)
            mails.append(([reader.address], bodies[key], map_language(reader.language, view_of(game, power=seat.power), game_map)))
    for master in game.masters:
        if master.person.primary_address:
            language = _language(master.person, game)
            body = game_starting_body(game, None, language, _zone(master.person, config.timezone))
            mails.append(([master.person.primary_address], body, map_language(language, view_of(game, master=True), game_map)))
    for observer in mailed_observers(game):
        language = _language(observer.person, game)
        body = game_starting_body(game, None, language, _zone(observer.person, config.timezone))
        mails.append(([observer.address], body, map_language(language, view_of(game, observer=True), game_map)))
    opening = session.uow.phases.current(game)
    no_map = map_off_addresses(game)
    sent: set[str] = set()
    count = 0
    for to, body, language in mails:
        fresh = tuple(a for a in to if a.lower() not in sent)
        if fresh:
            sent.update(a.lower() for a in fresh)
            drawn = opening is not None and has_art(game.variant) and not any(a.lower() in no_map for a in fresh)
            board = opening.id if drawn and opening is not None else None
            session.send(Outgoing(fresh, subject, body, game_id=game.id, map_phase_id=board, map_language=language))
            count += 1
    hooks_for(game).announce_start(session, game)  # councils: each member's place, each spy's secret...
    return count
