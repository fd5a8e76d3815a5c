"""The checks every sign-on shares: passwords, who may take a power over, the impersonation alarm.

A wrong power sign-on never says which part was wrong (no such game, no
such power, wrong password all raise :class:`InvalidSignon`), so the reply
cannot be used to probe for games or powers. A power whose player has gone
under the game's rules (resigned, ejected, abandoned: see
:mod:`judge.app.people.takeover`) is the exception the Judge makes: any registered
person not already in the game may take it over with any password. A power
in civil disorder is not open: only its own password opens it.

The impersonation rule (the Judge's): the right password from an address
that is not the player's own is accepted, but the player of record gets a
copy of the reply and the judge keeper an alarm, and the event is kept in
the audit trail.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.app.game_state.game_facts import OPEN_FOR_TAKEOVER
from judge.app.game_state.variant_rules import game_map_of
from judge.app.games.lifecycle import StartedGame, ready_to_start, start_game
from judge.app.people.takeover import BACK_TO_PLAY
from judge.app.reports.game_start import queue_game_starting
from judge.app.session.mail_session import MailSession, Outgoing, Role
from judge.app.session.readers import ACTIVE
from judge.db.database import UnitOfWork
from judge.db.enums import GameState
from judge.db.models import Game, GameMaster, Person, Seat
from judge.db.repositories.people import normalise_address
from judge.i18n import translation
from judge.lang.powers import power_letters
from judge.mail.compose import game_subject
from judge.timekeeping.dedication import PlayerRecord, SignOnThresholds, check_sign_on


class InvalidSignon(Exception):
    """No such game, no such power in it, or the wrong password: deliberately one error for all."""


class NotInvited(Exception):
    """The game's master denied this address, or only allows listed ones."""


@dataclass(frozen=True)
class PowerSignon:
    """The seat a power sign-on opens, and how."""

    seat: Seat
    takeover: bool = False  # an open power taken by a newcomer (any password)
    returning: bool = False  # the seat was open and its own password was given


def power_signon(uow: UnitOfWork, game: Game | None, letter: str, password: str) -> PowerSignon:
    """Which seat ``SIGNON <letter><game> <password>`` opens, or InvalidSignon.

    For an open power (resigned, ejected, abandoned) the seat's own
    password signs its player back on; any other password means a takeover,
    whose conditions (registered, not in the game, the master's approval)
    the caller checks. A power in civil disorder opens only to its password.
    """
    if game is None or game.state is GameState.FORMING:
        raise InvalidSignon
    power = power_letters(game_map_of(game)).get(letter.upper())
    if power is None:
        raise InvalidSignon
    seat = uow.seats.by_power(game, power, players=False)  # loaded by the handler as it needs them
    if seat is None:
        raise InvalidSignon
    right = uow.seats.check_password(seat, password)
    if seat.status in OPEN_FOR_TAKEOVER:
        return PowerSignon(seat, takeover=not right, returning=right)
    if not right:
        raise InvalidSignon
    return PowerSignon(seat, returning=seat.status in BACK_TO_PLAY)


def master_signon(uow: UnitOfWork, game: Game | None, password: str) -> GameMaster:
    """The master whose password this is (``SIGNON M<game>``), or InvalidSignon."""
    if game is None:
        raise InvalidSignon
    for master in game.masters:
        if uow.games.check_master_password(master, password):
            return master
    raise InvalidSignon


def check_access(game: Game, person: Person, address: str) -> None:
    """The game's gates for a newcomer: invitation lists, then dedication and ratios.

    Raises NotInvited or one of judge.timekeeping's SignOnRefused errors.
    """
    addresses = {a.address for a in person.addresses} | {normalise_address(address)}
    denied = {normalise_address(a) for a in game.denied_players}
    allowed = {normalise_address(a) for a in game.allowed_players}
    if addresses & denied or (allowed and not addresses & allowed):
        raise NotInvited
    record = PlayerRecord(
        dedication=person.dedication,
        turns_due=person.turns_due,
        turns_on_time=person.turns_on_time,
        games_started=person.games_started,
        takeovers=person.takeovers,
        civil_disorders=person.civil_disorders,
        abandonments=person.abandonments,
    )
    check_sign_on(
        record,
        SignOnThresholds(
            min_dedication=game.min_dedication,
            min_on_time_ratio=game.min_ontime_ratio,
            max_civil_disorder_ratio=game.max_resignation_ratio,
        ),
    )


def owns_address(person: Person, address: str, seat: Seat | None = None) -> bool:
    """Whether ``address`` is one of ``person``'s (or the seat's report addresses, which its player set)."""
    key = normalise_address(address)
    if any(a.address == key for a in person.addresses):
        return True
    if seat is not None and seat.report_address:
        return key in {normalise_address(a) for a in seat.report_address.split(",")}
    return False


def signed_on_from_own_address(session: MailSession) -> bool:
    """Whether the mail signed on, from one of its player's own addresses, to a seat still held in a
    game in play, or as a master of such a game: what makes a mail past the flood limit read.

    The password proves the mail is the player's, the address that it is
    from where the player reads the answers: a forged From line without the
    password, or the password sent from elsewhere (an impersonation), is not
    enough, so neither can make the judge answer a flood, and neither can
    keep the player's own mail from being read.
    """
    game = session.game
    if game is None or game.state not in (GameState.ACTIVE, GameState.PAUSED):
        return False
    if session.role is Role.POWER and session.seat is not None:
        seat = session.seat
        return seat.person is not None and seat.status in ACTIVE and owns_address(seat.person, session.sender, seat)
    if session.role is Role.MASTER and session.master is not None:
        return owns_address(session.master.person, session.sender)
    return False


def check_impersonation(
    session: MailSession, game: Game, holder: Person | None, role: str, *, seat: Seat | None = None
) -> bool:
    """Apply the impersonation rule; True when the sender is not ``holder``.

    ``role`` is how the keeper's alarm names what was signed on to
    (``France``, ``master``). The sender's reply gets a note (with the
    IAMALSO hint when the address is unknown to the judge).
    """
    if holder is None or owns_address(holder, session.sender, seat):
        return False
    _ = session.gettext
    uow = session.uow
    config = session.services.config
    sender_person = uow.people.by_address(session.sender)
    uow.audit.record_new_address(
        session.sender,
        session.now,
        person=holder,
        game=game,
        detail=f"sign-on as {role} of {game.name} from an address of "
        + (f"person #{sender_person.id}" if sender_person is not None else "nobody registered"),
    )
    if holder.primary_address:
        session.reply_copies.append(holder.primary_address)
    note = _(
        "This address is not the one registered for this player: the player gets a copy "
        "of this reply and the judge keeper has been told."
    )
    if sender_person is None:
        note += " " + _(
            "If this address is yours, send IAMALSO <your registered address> from it."
        )
    session.reply.preamble.append(note)
    if config.admin:
        _alarm(session, game, holder, role)
    return True


def _alarm(session: MailSession, game: Game, holder: Person, role: str) -> None:
    """The judge keeper's alarm, in English (the keeper's language)."""
    _ = translation("en").gettext
    config = session.services.config
    body = _(
        "Sign-on alarm in game '{game}': {sender} signed on as {role} with the right "
        "password, but the player of record is {holder}."
    ).format(
        game=game.name,
        sender=session.sender,
        role=role,
        holder=holder.primary_address or f"#{holder.id}",
    )
    session.send(
        Outgoing(
            (config.admin,),
            game_subject(config.code, game.name, _("Sign-on Alarm"), game.current_phase),
            body + "\n",
            game_id=game.id,
        )
    )


def start_if_ready(session: MailSession, game: Game) -> StartedGame | None:
    """Start ``game`` if its seats are full (and it starts by itself); mail everyone if it did.

    The deal's random generator comes from the services (seeded per start,
    the seed recorded on the game); the Game Starting mail goes to each
    reader in their language.
    """
    if not ready_to_start(game):
        return None
    services = session.services
    started = start_game(
        session.uow, game, session.now, services.rng_factory(), zone=services.config.timezone
    )
    queue_game_starting(session, game)
    return started
