"""PRESS / BROADCAST: white press between the players, observers and masters of a game.

``BROADCAST`` (or ``PRESS`` with no TO) reaches everyone in the game but the
sender; ``PRESS TO EG`` (``+EG``) the players of those powers, ``O`` the
observers and ``M`` the masters; ``PRESS TO ALL BUT F`` (``-F``) everyone a
broadcast reaches except those named. Every copy names its sender (white
press): grey and fake press, postal press and the finer press settings are
refused here with a reason until the full press modes exist. Each message
is stored for the game's history; the sender's reply echoes it.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.app.errors import CommandRefused
from judge.app.games import audience, game_map, is_gunboat, power_letter, power_name
from judge.app.notify import seat_addresses
from judge.app.registry import Next, handles
from judge.app.session import MailSession, Outgoing, Role
from judge.core.phase import Phase, PhaseType
from judge.db.enums import GameState, PressKind
from judge.db.models import Game, Seat
from judge.i18n import translation
from judge.lang.commands import Press
from judge.lang.powers import MASTER_LETTER, OBSERVER_LETTER, power_letters
from judge.mail.compose import game_subject


@dataclass(frozen=True)
class Targets:
    """Who a press message goes to: powers (full names), observers, masters; None = broadcast."""

    powers: tuple[str, ...]
    observers: bool
    masters: bool
    all_but: tuple[str, ...] | None = None  # the letters named in TO ALL BUT, for the header

    @property
    def master_only(self) -> bool:
        return self.masters and not self.powers and not self.observers


@handles(Press)
def handle(command: Press, session: MailSession) -> Next:
    _ = session.gettext
    game = session.game
    if game is None or session.role is None:
        raise CommandRefused(_("Press needs a SIGNON first: to which game? The press was not sent."))
    if command.postal:
        raise CommandRefused(_("POSTAL PRESS is not available on this judge yet. The press was not sent."))
    if command.grey:
        raise CommandRefused(
            _("Grey (anonymous) press is not allowed in this game: send it white. The press was not sent.")
        )
    if command.fake:
        raise CommandRefused(_("Fake press is not allowed in this game. The press was not sent."))
    targets = None if command.recipients is None else _targets(command, session, game)
    _check_allowed(session, game, targets)
    if not command.body.strip() and not game.blank_press:
        raise CommandRefused(_("This press has no text; it was not sent."))
    seat = _sender_seat(session, game)
    sender_power = seat.power if seat is not None else None
    own = [session.sender, *(seat_addresses(seat) if seat is not None and session.role is Role.POWER else [])]
    if targets is None:
        readers = audience(game, broadcast=True, exclude=own)
    else:
        readers = audience(
            game, powers=targets.powers, masters=targets.masters, observers=targets.observers, exclude=own
        )
    subject = game_subject(session.services.config.code, game.name, _subject_event(game, sender_power, targets),
                           game.current_phase)
    for language, to in readers.items():
        text = _header(session, game, sender_power, targets, language) + "\n\n" + command.body.rstrip() + "\n"
        session.send(Outgoing(tuple(to), subject, text, game_id=game.id))
    session.uow.press.post(
        game, command.body, session.now,
        kind=PressKind.BROADCAST if targets is None else PressKind.PRESS,
        sender_seat=seat,
        sender_role=session.role.value,
        sender_address=session.sender,
        recipients=() if targets is None else _stored_recipients(targets),
        mail_in_id=session.mail_id,
    )
    if targets is None:
        echo = _("Broadcast sent to everyone in game '{game}':").format(game=game.name)
    else:
        echo = _("Press sent to {recipients}:").format(recipients=_names(game, targets, session.language))
    session.reply.ok(command.line, echo, "", command.body.rstrip())
    return Next.CONTINUE


def _targets(command: Press, session: MailSession, game: Game) -> Targets:
    _ = session.gettext
    assert command.recipients is not None
    letters = power_letters(game_map(game))
    named = command.recipients.letters.upper()
    for letter in named:
        if letter not in letters and letter not in (OBSERVER_LETTER, MASTER_LETTER):
            raise CommandRefused(
                _("{letter} is not a power of this game; the letters are {letters} (O observers, M master). "
                  "The press was not sent.").format(letter=letter, letters="".join(letters))
            )
    own = session.acting_power
    if command.recipients.all_but:
        powers = [p for letter, p in letters.items() if letter not in named]
        observers = OBSERVER_LETTER not in named
        masters = MASTER_LETTER not in named
        all_but: tuple[str, ...] | None = tuple(named)
    else:
        powers = [letters[letter] for letter in named if letter in letters]
        observers = OBSERVER_LETTER in named
        masters = MASTER_LETTER in named
        all_but = None
    order = list(game_map(game).powers)
    chosen = tuple(sorted({p for p in powers if p != own}, key=order.index))
    targets = Targets(chosen, observers, masters, all_but)
    if not (targets.powers or targets.observers or targets.masters):
        raise CommandRefused(_("Nobody would receive this press. The press was not sent."))
    return targets


def _check_allowed(session: MailSession, game: Game, targets: Targets | None) -> None:
    """The game's press settings this judge already applies."""
    _ = session.gettext
    master_only = targets is not None and targets.master_only
    if master_only:
        return
    if game.press_mode == "none":
        raise CommandRefused(
            _("This game has no press, except to the master (PRESS TO M). The press was not sent.")
        )
    if game.state is GameState.PAUSED:
        raise CommandRefused(
            _("The game is paused: press may only go to the master (PRESS TO M). The press was not sent.")
        )
    if session.role is Role.OBSERVER and game.observer_press == "none":
        raise CommandRefused(_("Observers may not send press in this game. The press was not sent."))
    if targets is not None and not game.partial_press:
        raise CommandRefused(
            _("Partial press is not allowed in this game: use BROADCAST. The press was not sent.")
        )
    if (
        not game.minor_press
        and game.current_phase is not None
        and Phase.parse(game.current_phase).type is not PhaseType.MOVEMENT
    ):
        raise CommandRefused(
            _("Press is allowed only during movement phases in this game. The press was not sent.")
        )


def _sender_seat(session: MailSession, game: Game) -> Seat | None:
    if session.role is Role.POWER:
        return session.seat
    if session.role is Role.MASTER and session.acting_power is not None:
        return session.uow.seats.by_power(game, session.acting_power)
    return None


def _stored_recipients(targets: Targets) -> list[str]:
    return [
        *targets.powers,
        *([OBSERVER_LETTER] if targets.observers else []),
        *([MASTER_LETTER] if targets.masters else []),
    ]


def _subject_event(game: Game, sender_power: str | None, targets: Targets | None) -> str:
    """``Broadcast`` or ``Press from F to EG`` (letters; ``O`` observers, ``M`` masters)."""
    if targets is None:
        return "Broadcast"
    letters = "".join(power_letter(game, p) for p in targets.powers)
    letters += (OBSERVER_LETTER if targets.observers else "") + (MASTER_LETTER if targets.masters else "")
    sender = f"from {power_letter(game, sender_power)} " if sender_power else ""
    return f"Press {sender}to {letters}"


def _names(game: Game, targets: Targets, language: str) -> str:
    """``England, Germany``, ``the observers``, ``all but France`` in the reader's language."""
    _ = translation(language).gettext
    if targets.all_but is not None:
        letters = power_letters(game_map(game))
        named = [power_name(letters[c], language) for c in targets.all_but if c in letters]
        if OBSERVER_LETTER in targets.all_but:
            named.append(_("the observers"))
        if MASTER_LETTER in targets.all_but:
            named.append(_("the master"))
        return _("all but {names}").format(names=", ".join(named))
    names = [power_name(p, language) for p in targets.powers]
    if targets.observers:
        names.append(_("the observers"))
    if targets.masters:
        names.append(_("the master"))
    return ", ".join(names)


def _header(
    session: MailSession, game: Game, sender_power: str | None, targets: Targets | None, language: str
) -> str:
    """The line above the text: who it is from (white press always says) and to whom."""
    _ = translation(language).gettext
    if sender_power is not None:
        as_who = power_name(sender_power, language)
    elif session.role is Role.MASTER:
        as_who = _("Master")
    elif session.role is Role.OBSERVER:
        as_who = _("Observer")
    else:
        as_who = None
    hide_address = is_gunboat(game) and sender_power is not None
    if targets is None:
        if hide_address:
            return _("Broadcast message from {power} in '{game}':").format(power=as_who, game=game.name)
        if as_who is None:
            return _("Broadcast message from {address} in '{game}':").format(
                address=session.sender, game=game.name
            )
        return _("Broadcast message from {address} as {power} in '{game}':").format(
            address=session.sender, power=as_who, game=game.name
        )
    names = _names(game, targets, language)
    if hide_address:
        return _("Message from {power} to {recipients} in '{game}':").format(
            power=as_who, recipients=names, game=game.name
        )
    if as_who is None:
        return _("Message from {address} to {recipients} in '{game}':").format(
            address=session.sender, recipients=names, game=game.name
        )
    return _("Message from {address} as {power} to {recipients} in '{game}':").format(
        address=session.sender, power=as_who, recipients=names, game=game.name
    )
