"""SIGNON / HELLO / LOGIN / OBSERVE / WATCH: who the rest of the mail speaks for.

The four forms (the parser's roles):

* ``SIGNON Fgame pw``: a power, by its password; an open power (its player
  resigned, was ejected or abandoned it: :mod:`judge.app.people.takeover`) is
  taken over by anyone registered who is not in the game yet, with any
  password, which becomes the power's; in a moderated game the takeover
  waits for the master's APPROVE (unless SET APPROVED named the power). A
  power in civil disorder is not open: only its own password opens it;
* ``SIGNON Mgame pw``: a master;
* ``SIGNON Ogame pw``, ``OBSERVE game pw``, ``WATCH game pw``: an observer
  (a new password makes a new observer; no registration needed);
* ``SIGNON ?game pw [variant] [options]`` / ``SIGNON ? pw``: join a forming
  game (the next one, without a name), which starts when its seats are
  full; on a started game, take over its first open power.

A refused sign-on stops the reading of the mail: what follows would be
orders or settings for a game the sender is not signed on to. Failed power
and master sign-ons are counted and guessers locked out
(:mod:`judge.app.people.throttle`); a locked-out sign-on gets the very answer of a
wrong password.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from typing import TypeVar

from judge.app.game_state.game_facts import audience, describe_variant, players_needed, power_name
from judge.app.game_state.variant_rules import game_map_of
from judge.app.games.lifecycle import (
    AlreadyInGame,
    GameFull,
    NotForming,
    VariantMismatch,
    find_game,
    join,
    next_forming_game,
    ready_to_start,
    take_over,
)
from judge.app.hooks.game_hooks import hooks_for
from judge.app.orders import error_flag, order_mail
from judge.app.people import throttle
from judge.app.people.council_signon import council_signon, signon_message
from judge.app.people.password_rules import check_new_password
from judge.app.people.signon_checks import (
    InvalidSignon,
    NotInvited,
    check_access,
    check_impersonation,
    master_signon,
    power_signon,
    start_if_ready,
)
from judge.app.people.takeover import (
    BACK_TO_PLAY,
    announce_takeover,
    ask_masters,
    needs_approval,
    open_seats,
    tell_previous_player,
)
from judge.app.session.mail_session import MailSession, Outgoing, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import AuditKind, GameState, SeatStatus
from judge.db.models import Game, Person, Seat
from judge.db.repositories.people import normalise_address
from judge.i18n import translation
from judge.lang.commands import Signon, SignonRole
from judge.lang.powers import power_letters
from judge.mail.compose import game_subject
from judge.timekeeping.errors import (
    CivilDisorderRatioTooHighError,
    DedicationTooLowError,
    OnTimeRatioTooLowError,
    SignOnRefused,
)

_T = TypeVar("_T")

@handles(Signon)
def handle(command: Signon, session: MailSession) -> Next:
    _ = session.gettext
    if session.signed_on:
        raise CommandRefused(_("Only one sign-on per mail: this one was ignored."))
    if command.role is SignonRole.POWER:
        return _power(command, session)  # takes its own savepoints (see judge.app.mail_in.dispatch)
    with session.uow.session.begin_nested():
        if command.role is SignonRole.MASTER:
            return _master(command, session)
        if command.role is SignonRole.OBSERVER:
            _observer(command, session)
        else:
            return _join(command, session)
    return Next.CONTINUE


def _invalid(session: MailSession) -> CommandRefused:
    _ = session.gettext
    return CommandRefused(
        _("Invalid password or power, or no such game. The rest of this mail was not read."),
        stop=True,
    )


def _refused(session: MailSession, command: Signon) -> Next:
    """The wrong-password answer, given without raising so that the failure's record is kept."""
    session.reply.error(command.line, _invalid(session).message)
    return Next.STOP


def _player_addresses(seat: Seat | None) -> list[str]:
    """Every address of the seat's player: their registration's and those they set with SET ADDRESS."""
    if seat is None or seat.person is None:
        return []
    addresses = [a.address for a in seat.person.addresses]
    if seat.report_address:
        addresses += seat.report_address.split(",")
    return addresses


def _player_to_tell(seat: Seat | None) -> list[tuple[str, str]]:
    if seat is None or seat.person is None or seat.person.primary_address is None:
        return []
    return [(seat.person.primary_address, seat.person.language)]


def _signed_on(session: MailSession, game: Game, seat: Seat | None, role: Role) -> None:
    session.game, session.seat, session.role = game, seat, role
    session.acting_power = seat.power if seat is not None else None
    if role is Role.POWER and seat is not None and seat.power is not None:
        error_flag.settle_when_the_mail_ends(session, game, seat.power)
        if not hooks_for(game).orders_kept_as_text:  # the Renaissance game's sheet has its own receipt
            order_mail.confirm_when_the_mail_ends(session)  # after the flag is settled: the reply shows it


# -- SIGNON Fgame pw ------------------------------------------------------------------------------


def _power(command: Signon, session: MailSession) -> Next:
    """A power's sign-on. Run without the dispatcher's savepoint (issue 14: the most common
    command): until the password is checked it only reads, a failure is recorded and answered
    without raising, and past the check nothing refuses; the takeover and council paths, which
    may refuse after writing, take a savepoint of their own."""
    _ = session.gettext
    game = find_game(session.uow, command.game or "", lock=True)
    if game is not None and hooks_for(game).members_sign_on:  # seed 003: each council member's own password
        with session.uow.session.begin_nested():
            return _council_member(command, session, game)
    target, known = _target_seat(session, game, command.power_letter or "")
    counted = game if target is not None else None
    counted_power = target.power if target is not None else None
    # The player's addresses are read only when the throttle looks at them (a lockout in force, or
    # one starting): the seats may have been loaded without their players (see _target_seat).
    holders = _Later(lambda: _player_addresses(target))
    if throttle.refused(session, counted, counted_power, holders, known, command.unlock):
        throttle.count_failure(session, counted, counted_power)
        return _refused(session, command)
    try:
        found = power_signon(session.uow, game, command.power_letter or "", command.password)
    except InvalidSignon:
        throttle.count_failure(session, counted, counted_power, _Later(lambda: _player_to_tell(target)))
        return _refused(session, command)
    assert game is not None
    seat = found.seat
    power = power_name(seat.power or "", session.language)
    if found.takeover:
        with session.uow.session.begin_nested():  # may refuse after writing
            return _take_over(command, session, game, seat)
    if found.returning:
        session.uow.seats.set_status(seat, SeatStatus.PLAYING)
    _signed_on(session, game, seat, Role.POWER)
    if seat.person_id is not None and (session.person is None or seat.person_id != session.person.id):
        session.uow.seats.of_game(game)  # the holder is not the sender: the players, in one query
    check_impersonation(session, game, seat.person, power_name(seat.power or ""), seat=seat)
    messages = [_("Signed on as {power} in game '{game}'.").format(power=power, game=game.name)]
    if found.returning:
        messages.append(_("Welcome back: {power} is no longer left without a player.").format(power=power))
    session.reply.ok(command.line, *messages)
    return Next.CONTINUE


def _council_member(command: Signon, session: MailSession, game: Game) -> Next:
    member = council_signon(session, game, command.power_letter or "", command.password, command.unlock)
    if member is None:
        return _refused(session, command)
    if member.role == "general" and session.seat is not None:
        _signed_on(session, game, session.seat, Role.POWER)
    session.reply.ok(command.line, signon_message(session, game, member))
    return Next.CONTINUE


def _target_seat(
    session: MailSession, game: Game | None, letter: str
) -> tuple[Seat | None, tuple[int, datetime | None] | None]:
    """The seat a power sign-on names, if the game and power exist (for counting failures), and
    the throttle's figures for it when read with the seats (see :func:`throttle.refused`).

    The game's seats are loaded here, with their players only when the mail goes on to
    something that reads them (``MailSession.players_wanted``): a mail that only
    gives orders reads no player but the sender, already loaded (issue 14). The throttle's
    figures come in the same query."""
    if game is None or game.state is GameState.FORMING:
        return None, None
    power = power_letters(game_map_of(game)).get(letter.upper())
    if power is None:
        return None, None
    return session.uow.seats.by_power_and_throttle(
        game, power, normalise_address(session.sender), throttle.window_start(session),
        players=session.players_wanted,
    )


class _Later(Iterable[_T]):
    """An iterable worked out when it is first iterated (each time): what the throttle may not read."""

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[], Iterable[_T]]) -> None:
        self._make = make

    def __iter__(self) -> Iterator[_T]:
        return iter(self._make())


def _take_over(command: Signon, session: MailSession, game: Game, seat: Seat) -> Next:
    _ = session.gettext
    session.uow.seats.of_game(game)  # the players, in one query if loaded without (all are told)
    person = _registered(session, _("Only registered players may take over a power: send REGISTER first (see HELP)."))
    _check_access(session, game, person)
    if any(other.person_id == person.id for other in game.seats):
        raise CommandRefused(
            _("You already play in game '{game}': one power per player.").format(game=game.name),
            stop=True,
        )
    check_new_password(session, command.password, stop=True)  # it becomes the power's
    if needs_approval(game, seat):
        return _request_takeover(command, session, game, seat, person)
    previous = seat.person
    try:
        fresh_deadline = take_over(
            session.uow, game, seat, person, command.password, session.now,
            zone=session.services.config.timezone, actor=session.sender,
        )
    except AlreadyInGame:
        raise CommandRefused(
            _("You already play in game '{game}': one power per player.").format(game=game.name),
            stop=True,
        ) from None
    _signed_on(session, game, seat, Role.POWER)
    power = power_name(seat.power or "", session.language)
    messages = [
        _("You have taken over {power} in game '{game}'. The password you gave is now this power's.").format(
            power=power, game=game.name
        ),
        _("WAIT is set for you, so the phase will not be processed before its deadline."),
    ]
    session.reply.ok(command.line, *messages)
    tell_previous_player(session, game, seat, previous)
    announce_takeover(session, game, seat, fresh_deadline, session.sender)
    return Next.CONTINUE


def _request_takeover(command: Signon, session: MailSession, game: Game, seat: Seat, person: Person) -> Next:
    """A moderated game: the takeover waits for the master (one request per power at a time)."""
    _ = session.gettext
    uow = session.uow
    power = power_name(seat.power or "", session.language)
    pending = uow.seats.pending_takeover(game, seat.power or "")
    if pending is not None:
        mine = pending.person_id == person.id
        raise CommandRefused(
            _("Your takeover of {power} in game '{game}' already waits for the master's decision.").format(
                power=power, game=game.name
            )
            if mine
            else _("A takeover of {power} in game '{game}' already waits for the master's decision.").format(
                power=power, game=game.name
            ),
            stop=True,
        )
    uow.seats.request_takeover(game, seat.power or "", person, session.sender, command.password, session.now)
    uow.audit.record(
        AuditKind.TAKEOVER, session.now, game=game, person=person, actor=session.sender,
        setting="power", new_value=seat.power, detail="requested, waiting for the master",
    )  # fmt: skip
    ask_masters(session, game, seat, person)
    session.reply.ok(
        command.line,
        _(
            "Game '{game}' is moderated: your takeover of {power} waits for its master's approval. "
            "You will be told by mail; if the master approves, the password you gave becomes the "
            "power's. The rest of this mail was not read."
        ).format(game=game.name, power=power),
    )
    return Next.STOP


# -- SIGNON Mgame pw ---------------------------------------------------------------------------------


def _master(command: Signon, session: MailSession) -> Next:
    _ = session.gettext
    game = find_game(session.uow, command.game or "", lock=True)
    masters = [] if game is None else [m.person for m in game.masters if m.person is not None]
    own = [a.address for person in masters for a in person.addresses]
    if throttle.refused(session, game, throttle.MASTER, own, unlock=command.unlock):
        throttle.count_failure(session, game, throttle.MASTER if game is not None else None)
        return _refused(session, command)
    try:
        master = master_signon(session.uow, game, command.password)
    except InvalidSignon:
        throttle.count_failure(session, game, throttle.MASTER if game is not None else None)
        return _refused(session, command)
    assert game is not None
    _signed_on(session, game, None, Role.MASTER)
    session.master = master
    check_impersonation(session, game, master.person, "master")
    session.reply.ok(command.line, _("Signed on as master of game '{game}'.").format(game=game.name))
    return Next.CONTINUE


# -- OBSERVE game pw ---------------------------------------------------------------------------------


def _observer(command: Signon, session: MailSession) -> None:
    _ = session.gettext
    game = find_game(session.uow, command.game or "", lock=True)
    if game is None:
        raise CommandRefused(
            _("There is no game called '{game}'. The rest of this mail was not read.").format(
                game=command.game
            ),
            stop=True,
        )
    uow = session.uow
    observer = uow.games.find_observer(game, session.sender, command.password)
    if observer is None:
        observer = uow.games.add_observer(
            game, session.sender, command.password, session.now, person=session.person
        )
        message = _("You are now an observer of game '{game}'.").format(game=game.name)
    else:
        message = _("Signed on as an observer of game '{game}'.").format(game=game.name)
    _signed_on(session, game, None, Role.OBSERVER)
    session.observer = observer
    session.reply.ok(command.line, message)


# -- SIGNON ?game pw ---------------------------------------------------------------------------------


def _registered(session: MailSession, message: str) -> Person:
    if session.person is None:
        raise CommandRefused(message, stop=True)
    return session.person


def _check_access(session: MailSession, game: Game, person: Person) -> None:
    _ = session.gettext
    try:
        check_access(game, person, session.sender)
    except NotInvited:
        raise CommandRefused(
            _("Game '{game}' is open only to players its master has invited.").format(game=game.name),
            stop=True,
        ) from None
    except DedicationTooLowError as error:
        raise CommandRefused(
            _("Game '{game}' requires a dedication of at least {minimum}; yours is {value}.").format(
                game=game.name, minimum=error.minimum, value=error.dedication
            ),
            stop=True,
        ) from error
    except OnTimeRatioTooLowError as error:
        raise CommandRefused(
            _("Game '{game}' requires an on-time ratio of at least {minimum:.2f}; yours is {value:.2f}.").format(
                game=game.name, minimum=error.minimum, value=error.ratio
            ),
            stop=True,
        ) from error
    except CivilDisorderRatioTooHighError as error:
        raise CommandRefused(
            _("Game '{game}' accepts a civil-disorder ratio of at most {maximum:.2f}; yours is {value:.2f}.").format(
                game=game.name, maximum=error.maximum, value=error.ratio
            ),
            stop=True,
        ) from error
    except SignOnRefused as error:  # a threshold this handler does not know yet
        raise CommandRefused(str(error), stop=True) from error


def _join(command: Signon, session: MailSession) -> Next:
    _ = session.gettext
    person = _registered(session, _("Only registered players may join a game: send REGISTER first (see HELP)."))
    uow = session.uow
    if command.game is None:
        game = next_forming_game(uow, person)
        if game is not None:
            game = uow.games.lock(game.id)
        if game is None:
            raise CommandRefused(
                _("No game is waiting for players. Create one with CREATE ?name password."), stop=True
            )
    else:
        found = find_game(uow, command.game, lock=True)
        if found is None:
            raise CommandRefused(
                _("There is no game called '{game}'. To create it: CREATE ?{game} password.").format(
                    game=command.game
                ),
                stop=True,
            )
        game = found
    own = next((seat for seat in game.seats if seat.person_id == person.id), None)
    if own is not None:
        return _rejoin(command, session, game, own)
    if game.state in (GameState.ACTIVE, GameState.PAUSED):
        return _join_started(command, session, game)
    _check_access(session, game, person)
    check_new_password(session, command.password, stop=True)
    try:
        seat = join(
            uow, game, person, command.password, session.now,
            variant=command.variant if command.game is not None else game.variant,
            options=command.options if command.game is not None else game.rule_options,
        )
    except VariantMismatch:
        words = " ".join([game.variant, *game.rule_options])
        raise CommandRefused(
            _("Game '{game}' is {variant}: a game of another variant than Standard, or with options, is joined "
              "by naming them after the password: SIGNON ?{game} password {words}").format(
                game=game.name, variant=describe_variant(game), words=words
            ),
            stop=True,
        ) from None
    except NotForming:
        raise CommandRefused(
            _("Game '{game}' is over; nobody can join it.").format(game=game.name), stop=True
        ) from None
    except GameFull:
        raise CommandRefused(
            _("Game '{game}' has all its players; it is waiting for its master to start it.").format(
                game=game.name
            ),
            stop=True,
        ) from None
    _signed_on(session, game, seat, Role.POWER)
    messages = [
        _("You have joined game '{game}' ({variant}).").format(game=game.name, variant=describe_variant(game))
    ]
    if ready_to_start(game):
        # Dealt once the whole mail has been read, so that a SET PREFERENCE below counts (issue 13).
        session.finishers.append(lambda: _start_when_the_mail_ends(command, session, game, seat))
        messages.append(_("The game has all its players: the powers are dealt once this whole mail has been read."))
    elif players_needed(game) == 0:
        messages.append(_("The game has all its players; its master will start it."))
        _tell_masters_ready(session, game)
    else:
        messages.append(
            _("Players still needed before the game can start: {count}.").format(count=players_needed(game))
        )
        messages.append(_("You may now send SET PREFERENCE with the powers you would like, best first."))
    session.reply.ok(command.line, *messages)
    return Next.CONTINUE


def _start_when_the_mail_ends(command: Signon, session: MailSession, game: Game, seat: Seat) -> None:
    """Start the game the mail's sign-on filled, with the preferences the rest of the mail gave."""
    _ = session.gettext
    if start_if_ready(session, game) is None:
        return
    session.acting_power = seat.power
    session.reply.ok(
        command.line,
        _("The game has started: you are playing {power}. See the Game Starting mail.").format(
            power=power_name(seat.power or "", session.language)
        ),
    )


def _rejoin(command: Signon, session: MailSession, game: Game, seat: Seat) -> Next:
    """A player already in the game signs on with ``SIGNON ?game``: their own password opens their seat."""
    _ = session.gettext
    if throttle.refused(session, game, seat.power, _player_addresses(seat), unlock=command.unlock):
        throttle.count_failure(session, game if seat.power else None, seat.power)
        return _refused(session, command)
    if not session.uow.seats.check_password(seat, command.password):
        throttle.count_failure(session, game if seat.power else None, seat.power, _player_to_tell(seat))
        return _refused(session, command)
    returning = seat.power is not None and seat.status in BACK_TO_PLAY
    if returning:
        session.uow.seats.set_status(seat, SeatStatus.PLAYING)
    _signed_on(session, game, seat, Role.POWER)
    if seat.power is None:
        message = _("You are already signed up for game '{game}'. Players still needed: {count}.").format(
            game=game.name, count=players_needed(game)
        )
    else:
        message = _("Signed on as {power} in game '{game}'.").format(
            power=power_name(seat.power, session.language), game=game.name
        )
    messages = [message]
    if returning:
        messages.append(
            _("Welcome back: {power} is no longer left without a player.").format(
                power=power_name(seat.power or "", session.language)
            )
        )
    session.reply.ok(command.line, *messages)
    return Next.CONTINUE


def _join_started(command: Signon, session: MailSession, game: Game) -> Next:
    """``SIGNON ?game`` on a started game: take over its first open power."""
    _ = session.gettext
    refusal = hooks_for(game).join_refusal(game, _)  # seed 003: the master places a council's newcomers
    if refusal is not None:
        raise CommandRefused(refusal, stop=True)
    seats = open_seats(game)
    if not seats:
        raise CommandRefused(
            _("Game '{game}' has started and no power is open for takeover. You may OBSERVE it.").format(
                game=game.name
            ),
            stop=True,
        )
    return _take_over(command, session, game, seats[0])


def _tell_masters_ready(session: MailSession, game: Game) -> None:
    """``Ready to Start``: a game that its master starts by hand has all its players."""
    config = session.services.config
    subject = game_subject(config.code, game.name, "Ready to Start", game.current_phase)
    for language, addresses in audience(game, powers=(), observers=False).items():
        _ = translation(language).gettext
        body = _("Game '{game}' has all its players and is ready to start.").format(game=game.name)
        session.send(Outgoing(tuple(addresses), subject, body + "\n", game_id=game.id))
