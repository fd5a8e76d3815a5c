"""SIGNON / HELLO / LOGIN / OBSERVE / WATCH: who the rest of the mail speaks for.

The four forms (the parser's roles):

* ``SIGNON Fgame pw``: a power, by its password; an open power (abandoned,
  civil disorder, resigned) is taken over by anyone registered who is not
  in the game yet, with any password, which becomes the power's;
* ``SIGNON Mgame pw``: a master;
* ``SIGNON Ogame pw``, ``OBSERVE game pw``, ``WATCH game pw``: an observer
  (a new password makes a new observer; no registration needed);
* ``SIGNON ?game pw [variant] [options]`` / ``SIGNON ? pw``: join a forming
  game (the next one, without a name), which starts when its seats are
  full; on a started game, take over its first open power.

A refused sign-on stops the reading of the mail: what follows would be
orders or settings for a game the sender is not signed on to.
"""

from __future__ import annotations

from judge.app.errors import CommandRefused
from judge.app.games import (
    OPEN_FOR_TAKEOVER,
    AlreadyInGame,
    GameFull,
    NotForming,
    VariantMismatch,
    audience,
    describe_variant,
    find_game,
    is_gunboat,
    join,
    next_forming_game,
    open_seats,
    players_needed,
    power_letter,
    power_name,
    take_over,
)
from judge.app.registry import Next, handles
from judge.app.session import MailSession, Outgoing, Role
from judge.app.signon import (
    InvalidSignon,
    NotInvited,
    check_access,
    check_impersonation,
    master_signon,
    power_signon,
    start_if_ready,
)
from judge.db.enums import GameState, SeatStatus
from judge.db.models import Game, Person, Seat
from judge.i18n import translation
from judge.lang.commands import Signon, SignonRole
from judge.mail.compose import game_subject, judge_date
from judge.timekeeping.errors import (
    CivilDisorderRatioTooHighError,
    DedicationTooLowError,
    OnTimeRatioTooLowError,
    SignOnRefused,
)


@handles(Signon)
def handle(command: Signon, session: MailSession) -> Next:
    _ = session.gettext
    if session.signed_on:
        raise CommandRefused(_("Only one sign-on per mail: this one was ignored."))
    if command.role is SignonRole.POWER:
        _power(command, session)
    elif command.role is SignonRole.MASTER:
        _master(command, session)
    elif command.role is SignonRole.OBSERVER:
        _observer(command, session)
    else:
        _join(command, session)
    return Next.CONTINUE


def _invalid(session: MailSession) -> CommandRefused:
    _ = session.gettext
    return CommandRefused(
        _("Invalid password or power, or no such game. The rest of this mail was not read."),
        stop=True,
    )


def _signed_on(session: MailSession, game: Game, seat: Seat | None, role: Role) -> None:
    session.game, session.seat, session.role = game, seat, role
    session.acting_power = seat.power if seat is not None else None


# -- SIGNON Fgame pw ------------------------------------------------------------------------------


def _power(command: Signon, session: MailSession) -> None:
    _ = session.gettext
    game = find_game(session.uow, command.game or "", lock=True)
    try:
        found = power_signon(session.uow, game, command.power_letter or "", command.password)
    except InvalidSignon:
        raise _invalid(session) from None
    assert game is not None
    seat = found.seat
    power = power_name(seat.power or "", session.language)
    if found.takeover:
        _take_over(command, session, game, seat)
        return
    if found.returning:
        session.uow.seats.set_status(seat, SeatStatus.PLAYING)
    _signed_on(session, game, seat, Role.POWER)
    check_impersonation(session, game, seat.person, power_name(seat.power or ""), seat=seat)
    messages = [_("Signed on as {power} in game '{game}'.").format(power=power, game=game.name)]
    if found.returning:
        messages.append(_("Welcome back: {power} is no longer left without a player.").format(power=power))
    session.reply.ok(command.line, *messages)


def _take_over(command: Signon, session: MailSession, game: Game, seat: Seat) -> None:
    _ = session.gettext
    person = _registered(session, _("Only registered players may take over a power: send REGISTER first (see HELP)."))
    _check_access(session, game, person)
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
    _announce_takeover(session, game, seat, fresh_deadline)


def _announce_takeover(session: MailSession, game: Game, seat: Seat, fresh_deadline: bool) -> None:
    """``New Player Signon: F`` to the game (only the masters in a Quiet game)."""
    config = session.services.config
    letter = power_letter(game, seat.power or "")
    subject = game_subject(config.code, game.name, f"New Player Signon: {letter}", game.current_phase)
    readers = audience(
        game, powers=() if game.quiet else None, observers=not game.quiet, exclude=[session.sender]
    )
    for language, addresses in readers.items():
        _ = translation(language).gettext
        who = "" if is_gunboat(game) else f" ({session.sender})"
        lines = [
            _("{power} has been taken over by a new player{who} in game '{game}'.").format(
                power=power_name(seat.power or "", language), who=who, game=game.name
            )
        ]
        if fresh_deadline and game.deadline_at is not None:
            lines.append(
                _("No power is left without a player: the new deadline is {deadline}, and WAIT is set for everyone.").format(
                    deadline=judge_date(game.deadline_at, config.timezone)
                )
            )
        session.send(Outgoing(tuple(addresses), subject, "\n".join(lines) + "\n", game_id=game.id))


# -- SIGNON Mgame pw ---------------------------------------------------------------------------------


def _master(command: Signon, session: MailSession) -> None:
    _ = session.gettext
    game = find_game(session.uow, command.game or "", lock=True)
    try:
        master = master_signon(session.uow, game, command.password)
    except InvalidSignon:
        raise _invalid(session) from None
    assert game is not None
    _signed_on(session, game, None, Role.MASTER)
    session.master = master
    check_impersonation(session, game, master.person, "master")
    session.reply.ok(command.line, _("Signed on as master of game '{game}'.").format(game=game.name))


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


def _join(command: Signon, session: MailSession) -> None:
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
        _rejoin(command, session, game, own)
        return
    if game.state in (GameState.ACTIVE, GameState.PAUSED):
        _join_started(command, session, game)
        return
    _check_access(session, game, person)
    try:
        seat = join(
            uow, game, person, command.password, session.now,
            variant=command.variant if command.game is not None else game.variant,
            options=command.options if command.game is not None else game.rule_options,
        )
    except VariantMismatch:
        words = " ".join([game.variant, *game.rule_options])
        raise CommandRefused(
            _("Game '{game}' is {variant}: sign on with SIGNON ?{game} password {words}").format(
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
    started = start_if_ready(session, game)
    if started is not None:
        session.acting_power = seat.power
        messages.append(
            _("The game has started: you are playing {power}. See the Game Starting mail.").format(
                power=power_name(seat.power or "", session.language)
            )
        )
    elif players_needed(game) == 0:
        messages.append(_("The game has all its players; its master will start it."))
        _tell_masters_ready(session, game)
    else:
        messages.append(
            _("Players still needed before the game can start: {count}.").format(count=players_needed(game))
        )
        messages.append(_("You may now send SET PREFERENCE with the powers you would like, best first."))
    session.reply.ok(command.line, *messages)


def _rejoin(command: Signon, session: MailSession, game: Game, seat: Seat) -> None:
    """A player already in the game signs on with ``SIGNON ?game``: their own password opens their seat."""
    _ = session.gettext
    if not session.uow.seats.check_password(seat, command.password):
        raise _invalid(session)
    returning = seat.power is not None and seat.status in OPEN_FOR_TAKEOVER
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


def _join_started(command: Signon, session: MailSession, game: Game) -> None:
    """``SIGNON ?game`` on a started game: take over its first open power."""
    _ = session.gettext
    seats = open_seats(game)
    if not seats:
        raise CommandRefused(
            _("Game '{game}' has started and no power is open for takeover. You may OBSERVE it.").format(
                game=game.name
            ),
            stop=True,
        )
    _take_over(command, session, game, seats[0])


def _tell_masters_ready(session: MailSession, game: Game) -> None:
    """``Ready to Start``: a game that its master starts by hand has all its players."""
    config = session.services.config
    subject = game_subject(config.code, game.name, "Ready to Start", game.current_phase)
    for language, addresses in audience(game, powers=(), observers=False).items():
        _ = translation(language).gettext
        body = _("Game '{game}' has all its players and is ready to start.").format(game=game.name)
        session.send(Outgoing(tuple(addresses), subject, body + "\n", game_id=game.id))
