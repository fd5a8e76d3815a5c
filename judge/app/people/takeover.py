"""Takeover as the rules mean it: which powers a newcomer may take, and when the master must agree.

A power is open for takeover only when its player has gone under the
game's rules: they resigned (RESIGN), the master ejected them (EJECT), or
the judge abandoned the power under the grace/abandonment rule (at the end
of grace in a NoNMR game, 24 hours before it in an NMR game; see
:mod:`judge.timekeeping.lateness`). A power merely put in civil disorder
when an NMR game was processed without its orders is *not* open: it is
still its player's, whose password keeps working (and signs them back on);
to anyone else the sign-on is refused like any wrong password. A master who
wants such a power replaced ejects its player first.

In a moderated game, or one with APPROVAL, a newcomer's takeover of a power
the master has not approved in advance (SET APPROVED) waits for the
master's APPROVE or REFUSE (:class:`judge.db.models.TakeoverRequest`). The
previous player is told when their power is taken over; the event is in
the game's audit trail.

This module is the policy and the notices.
"""

from __future__ import annotations

from judge.app.game_state.game_facts import (
    OPEN_FOR_TAKEOVER,
    audience,
    by_zone,
    is_gunboat,
    power_letter,
    power_name,
)
from judge.app.game_state.setting_table import APPROVED
from judge.app.game_state.variant_rules import game_map_of
from judge.app.session.mail_session import MailSession, Outgoing
from judge.db.enums import SeatStatus
from judge.db.models import Game, Person, Seat
from judge.i18n import translation
from judge.mail.compose import game_subject
from judge.timekeeping.dates import tell_date

BACK_TO_PLAY = (SeatStatus.ABANDONED, SeatStatus.RESIGNED, SeatStatus.CIVIL_DISORDER)
"""Statuses from which the seat's own password signs its player back on."""


def is_open(seat: Seat) -> bool:
    """Whether a newcomer may take ``seat`` over (given the game's other checks)."""
    return seat.power is not None and seat.status in OPEN_FOR_TAKEOVER


def open_seats(game: Game) -> list[Seat]:
    """Powers open for takeover, in the map's order of powers."""
    order = {power: index for index, power in enumerate(game_map_of(game).powers)}
    seats = [seat for seat in game.seats if is_open(seat)]
    return sorted(seats, key=lambda seat: order.get(seat.power or "", len(order)))


def needs_approval(game: Game, seat: Seat) -> bool:
    """A moderated (or APPROVAL) game's master decides takeovers of powers not approved in advance."""
    if not (game.moderated or game.approval):
        return False
    approved = (game.extra_settings or {}).get(APPROVED) or []
    return seat.power not in approved


def tell_previous_player(session: MailSession, game: Game, seat: Seat, previous: Person | None) -> None:
    """The player who had the power learns it has a new player (their password no longer opens it)."""
    if previous is None or previous.primary_address is None:
        return
    if previous.primary_address == session.sender:
        return
    _ = translation(previous.language).gettext
    config = session.services.config
    body = _(
        "{power} in game '{game}', which you played, has been taken over by a new player. "
        "Your password no longer opens it."
    ).format(power=power_name(seat.power or "", previous.language), game=game.name)
    subject = game_subject(
        config.code, game.name, f"Takeover: {power_letter(game, seat.power or '')}", game.current_phase
    )
    session.send(Outgoing((previous.primary_address,), subject, body + "\n", game_id=game.id))


def ask_masters(session: MailSession, game: Game, seat: Seat, person: Person) -> None:
    """The masters hear of a takeover request, with who asks and how to answer."""
    config = session.services.config
    letter = power_letter(game, seat.power or "")
    subject = game_subject(config.code, game.name, f"Takeover Request: {letter}", game.current_phase)
    for master in game.masters:
        address = master.person.primary_address if master.person is not None else None
        if not address:
            continue
        language = master.person.language if master.person is not None else "en"
        _ = translation(language).gettext
        lines = [
            _("{name} <{address}> asks to take over {power} in game '{game}'.").format(
                name=person.name, address=session.sender,
                power=power_name(seat.power or "", language), game=game.name,
            ),
            _("Dedication {points}, turns on time {on_time} of {due}, civil disorders {cds}.").format(
                points=person.dedication, on_time=person.turns_on_time, due=person.turns_due,
                cds=person.civil_disorders,
            ),
            _("Sign on as master and send APPROVE {letter} or REFUSE {letter}.").format(letter=letter),
        ]  # fmt: skip
        session.send(Outgoing((address,), subject, "\n".join(lines) + "\n", game_id=game.id))


def announce_takeover(
    session: MailSession, game: Game, seat: Seat, fresh_deadline: bool, newcomer: str
) -> None:
    """``New Player Signon: F`` to the game (only the masters in a Quiet game)."""
    config = session.services.config
    letter = power_letter(game, seat.power or "")
    subject = game_subject(config.code, game.name, f"New Player Signon: {letter}", game.current_phase)
    readers = audience(
        game, powers=() if game.quiet else None, observers=not game.quiet, exclude=[newcomer]
    )
    for language, zone, addresses in by_zone(game, readers, config.timezone):
        _ = translation(language).gettext
        who = "" if is_gunboat(game) else f" ({newcomer})"
        lines = [
            _("{power} has been taken over by a new player{who} in game '{game}'.").format(
                power=power_name(seat.power or "", language), who=who, game=game.name
            )
        ]
        if fresh_deadline and game.deadline_at is not None:
            lines.append(
                _("No power is left without a player: the new deadline is {deadline}, and WAIT is set for everyone.").format(
                    deadline=tell_date(game.deadline_at, zone, _)
                )
            )
        session.send(Outgoing(tuple(addresses), subject, "\n".join(lines) + "\n", game_id=game.id))
