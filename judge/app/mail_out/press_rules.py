"""Press: who may send what to whom in a game, what each recipient is shown, and postal press.

The rules are the classic Judge's press file (judge-conventions §8):

* the game's mode: ``none`` (press only to and from the master), ``white``
  (every copy names its sender), ``grey`` (anonymous only), ``white/grey``
  (white unless the sender says GREY), ``grey/white`` (grey unless WHITE);
* partial press (``PRESS TO EG``, ``TO ALL BUT R``, ``+EG``, ``-R``; ``O`` the
  observers, ``M`` the master) allowed or not;
* fakes: none; "partial may be faked" (the sender may say FAKE: a partial
  message shown as a broadcast, or any message shown as sent to another
  list: ``PRESS FAKE TO FRG`` is a broadcast shown as sent to F, R and G,
  ``PRESS TO FRG FAKE`` goes to F, R and G shown as a broadcast); "partial
  fakes broadcast by default" (partial press is shown as a broadcast unless
  the sender says NO FAKE); "partial fakes broadcast" (every message is shown
  as a broadcast);
* observers: like players (``any``), white only, or none;
* press to the master alone is always allowed, always white and never
  faked; the master may always send press (the game's limits are for the
  players), white unless he asks for GREY, and his copy of anything he gets
  shows the true sender and recipients;
* limits on when: no press in retreat and adjustment phases (NoMinorPress),
  after the deadline (NoGracePress), from a power whose orders are late
  (NoLatePress) or who has not ordered yet (MustOrder), and only to the
  master while the game is paused;
* postal press (``POSTAL PRESS``), in games that allow it: a signed
  broadcast held until the phase is processed and sent out right after the
  results (:func:`release_postal_press`, called by the phase processing); it
  is kept in ``extra_settings["postal_press"]`` until then, so that nobody
  (HISTORY included) sees it early.

Every message sent is stored (:meth:`PressRepository.post`) with its true
sender and recipients, ``grey``, and the recipients it was shown with when
faked, so that HISTORY can show what the observers received. A real
broadcast shown as partial press is stored as press to everyone, shown to
the named list.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from judge.app.game_state import order_sheets as kept
from judge.app.game_state.boards import current
from judge.app.game_state.game_facts import (
    audience,
    is_gunboat,
    mailed_observers,
    power_letter,
    power_name,
)
from judge.app.game_state.setting_table import (
    ALL_PRESS,
    FAKE_BROADCAST,
    FAKE_BROADCAST_DEFAULT,
    FAKE_NONE,
    NO_BROADCAST,
)
from judge.app.game_state.variant_rules import game_map_of
from judge.app.mail_out import outbox
from judge.app.mail_out.touch_press import touching_powers
from judge.app.session.mail_session import MailSession, Outgoing, Role
from judge.app.session.readers import person_address, seat_addresses
from judge.app.session.refusals import CommandRefused
from judge.app.session.services import Services
from judge.core.councils.roles import GENERAL
from judge.core.phase import Phase, PhaseType
from judge.db.database import UnitOfWork
from judge.db.enums import GameState, PressKind
from judge.db.models import Game, Seat
from judge.i18n import translation
from judge.lang.commands import Press, Recipients
from judge.lang.powers import MASTER_LETTER, OBSERVER_LETTER, power_letters
from judge.mail.compose import game_subject

POSTAL_KEY = "postal_press"
"""``extra_settings`` key: postal press held until the phase is processed (a list of dicts)."""

GREY_MODES = frozenset({"grey", "white/grey", "grey/white"})
WHITE_MODES = frozenset({"white", "white/grey", "grey/white"})
GREY_BY_DEFAULT = frozenset({"grey", "grey/white"})


@dataclass(frozen=True)
class Targets:
    """Who a press message goes to (or is shown as going to): powers, observers, masters.

    ``all_but`` keeps the letters of a ``TO ALL BUT`` list, so the header can
    say "all but England" as the sender wrote it.
    """

    powers: tuple[str, ...]
    observers: bool
    masters: bool
    all_but: tuple[str, ...] | None = None

    @property
    def master_only(self) -> bool:
        return self.masters and not self.powers and not self.observers

    def same_people(self, other: Targets | None) -> bool:
        return other is not None and (self.powers, self.observers, self.masters) == (
            other.powers, other.observers, other.masters,
        )  # fmt: skip


@dataclass(frozen=True)
class Sender:
    """Who sent a message: the address, the power it speaks for (if any) and the role signed on as."""

    address: str
    power: str | None
    role: Role
    seat: Seat | None


@dataclass(frozen=True)
class Plan:
    """One press message, decided: real recipients (None: everyone), what they are shown, grey or not.

    ``shown`` is what the recipients are told the recipients were (None: a
    broadcast); ``faked`` says whether that differs from the truth.
    """

    sender: Sender
    real: Targets | None
    shown: Targets | None
    faked: bool
    grey: bool


# -- deciding ----------------------------------------------------------------------------------------


def sender_of(session: MailSession, game: Game) -> Sender:
    seat: Seat | None = None
    if session.role is Role.POWER:
        seat = session.seat
    elif session.role is Role.MASTER and session.acting_power is not None:
        seat = session.uow.seats.by_power(game, session.acting_power)
    assert session.role is not None
    return Sender(session.sender, seat.power if seat is not None else None, session.role, seat)


def resolve(recipients: Recipients, session: MailSession, game: Game, *, drop_own: bool) -> Targets:
    """A letter list (``EG``, ``ALL BUT R``) as the powers, observers and masters it names.

    ``drop_own`` leaves the sender's own power out (it does not mail itself);
    a fake's shown list keeps it, since it is only a header.
    """
    _ = session.gettext
    letters = power_letters(game_map_of(game))
    named = recipients.letters.upper()
    for letter in named:
        if letter not in letters and letter not in (OBSERVER_LETTER, MASTER_LETTER):
            raise CommandRefused(
                _("{letter} is not a power of this game; the letters are {letters} (O observers, M master). "
                  "The press was not sent.").format(letter=letter, letters="".join(letters))
            )
    if recipients.all_but:
        powers = [p for letter, p in letters.items() if letter not in named]
        observers = OBSERVER_LETTER not in named
        masters = MASTER_LETTER not in named
        all_but: tuple[str, ...] | None = tuple(named)
    else:
        powers = [letters[letter] for letter in named if letter in letters]
        observers = OBSERVER_LETTER in named
        masters = MASTER_LETTER in named
        all_but = None
    own = session.acting_power if drop_own else None
    order = list(game_map_of(game).powers)
    chosen = tuple(sorted({p for p in powers if p != own}, key=order.index))
    return Targets(chosen, observers, masters, all_but)


def plan_press(command: Press, session: MailSession) -> Plan:
    """Check a PRESS/BROADCAST against the game's rules and decide what its recipients see.

    Raises :class:`CommandRefused` with the reason when the game does not
    allow it; nothing has been sent or stored then.
    """
    _ = session.gettext
    game = session.game
    if game is None or session.role is None:
        raise CommandRefused(_("Press needs a SIGNON first: to which game? The press was not sent."))
    sender = sender_of(session, game)
    real = None if command.recipients is None else resolve(command.recipients, session, game, drop_own=True)
    if real is not None and not (real.powers or real.observers or real.masters):
        raise CommandRefused(_("Nobody would receive this press. The press was not sent."))
    from_master = sender.role is Role.MASTER
    to_master = real is not None and real.master_only
    if not (from_master or to_master):
        _check_allowed(session, game, sender, partial=real is not None)
        if game.touch_press:
            _check_touch(session, game, sender, real)
    if not command.body.strip() and not game.blank_press:
        raise CommandRefused(_("This press has no text; it was not sent."))
    grey = _grey(command, session, game, from_master=from_master, to_master=to_master)
    shown = _shown(command, session, game, real, from_master=from_master, to_master=to_master)
    faked = not (shown is None and real is None) and not (real is not None and real.same_people(shown))
    return Plan(sender, real, shown if faked else real, faked, grey)


def _check_allowed(session: MailSession, game: Game, sender: Sender, *, partial: bool) -> None:
    """The game's limits on press from players and observers (not for press to or from the master)."""
    _ = session.gettext
    if game.press_mode == "none":
        raise CommandRefused(
            _("This game has no press, except to the master (PRESS TO M). The press was not sent.")
        )
    if game.state is GameState.PAUSED or game.paused_at is not None:
        raise CommandRefused(
            _("The game is paused: press may only go to the master (PRESS TO M). The press was not sent.")
        )
    if sender.role is Role.OBSERVER and game.observer_press == "none":
        raise CommandRefused(_("Observers may not send press in this game. The press was not sent."))
    if partial and not game.partial_press:
        raise CommandRefused(
            _("Partial press is not allowed in this game: use BROADCAST. The press was not sent.")
        )
    if game.state is not GameState.ACTIVE or game.current_phase is None:
        return
    if not game.minor_press and Phase.parse(game.current_phase).type is not PhaseType.MOVEMENT:
        raise CommandRefused(
            _("Press is allowed only during movement phases in this game. The press was not sent.")
        )
    past_deadline = game.deadline_at is not None and session.now >= game.deadline_at
    if past_deadline and not game.grace_press:
        raise CommandRefused(
            _("The deadline has passed: this game allows no press until the phase is processed, "
              "except to the master (PRESS TO M). The press was not sent.")
        )
    if sender.role is not Role.POWER or sender.power is None:
        return
    checked = game.must_order or (past_deadline and not game.late_press)
    if checked and _owes_orders_not_sent(session, game, sender.power):
        if game.must_order:
            raise CommandRefused(
                _("In this game you must send your orders before sending press "
                  "(press to the master is always allowed). The press was not sent.")
            )
        raise CommandRefused(
            _("Your orders are late: in this game late powers may send press only to the master "
              "(PRESS TO M). The press was not sent.")
        )


def _check_touch(session: MailSession, game: Game, sender: Sender, real: Targets | None) -> None:
    """SET TOUCH PRESS: partial press only to the powers the sender touches, one broadcast per phase.

    Only a power's press is limited (observers have no units); press to the
    master is never limited (it does not come here).
    """
    _ = session.gettext
    if sender.role is not Role.POWER or sender.power is None or game.current_phase is None:
        return
    if real is None:
        if _broadcasts_this_phase(session, game, sender.power):
            raise CommandRefused(
                _("This game has touch press: one broadcast per phase, and you have sent this phase's. "
                  "The press was not sent.")
            )
        return
    _record, position = current(session.uow, game)
    touching = touching_powers(position, game_map_of(game), sender.power)
    far = [power for power in real.powers if power not in touching]
    if far:
        raise CommandRefused(
            _("This game has touch press: partial press goes only to the powers whose units or centres "
              "touch yours at the start of the phase, and {powers} does not. The press was not sent.").format(
                powers=", ".join(power_name(power, session.language) for power in far)
            )
        )


def _broadcasts_this_phase(session: MailSession, game: Game, power: str) -> int:
    """How many broadcasts ``power`` has sent in the current phase (faked partial ones are broadcasts)."""
    everyone = {*game_map_of(game).powers, OBSERVER_LETTER, MASTER_LETTER}
    return sum(
        1
        for message in session.uow.press.for_game(game)
        if message.phase == game.current_phase
        and message.sender_power == power
        and message.sender_role == Role.POWER.value
        and (message.kind is PressKind.BROADCAST or set(message.recipients) >= everyone)
    )


def _owes_orders_not_sent(session: MailSession, game: Game, power: str) -> bool:
    _record, position = current(session.uow, game)
    if not kept.owes_orders(position, power, game_map_of(game)):
        return False
    return power not in kept.current_submissions(session.uow, game, position.phase)


def _grey(command: Press, session: MailSession, game: Game, *, from_master: bool, to_master: bool) -> bool:
    """Whether the message goes out anonymous: the sender's word, else the game's default."""
    _ = session.gettext
    if to_master:
        return False  # press to the master is always white
    if from_master:
        return bool(command.grey)
    if session.role is Role.OBSERVER and game.observer_press == "white":
        if command.grey:
            raise CommandRefused(_("Observers may not send grey press in this game. The press was not sent."))
        return False  # in a grey game, observers' press shows as white
    if command.grey is True:
        if game.press_mode not in GREY_MODES:
            raise CommandRefused(
                _("Grey (anonymous) press is not allowed in this game: send it white. The press was not sent.")
            )
        return True
    if command.grey is False:
        if game.press_mode not in WHITE_MODES:
            raise CommandRefused(
                _("Only grey (anonymous) press is allowed in this game: leave out WHITE. The press was not sent.")
            )
        return False
    return game.press_mode in GREY_BY_DEFAULT


def _shown(
    command: Press, session: MailSession, game: Game, real: Targets | None, *, from_master: bool, to_master: bool
) -> Targets | None:
    """Whom the recipients are told the message went to (None: everyone)."""
    _ = session.gettext
    if to_master:
        if command.fake:
            raise CommandRefused(_("Press to the master cannot be faked. The press was not sent."))
        return real

    def fake_target() -> Targets | None:
        if command.shown_to is None:
            return None
        return resolve(command.shown_to, session, game, drop_own=False)

    if from_master:
        return fake_target() if command.fake else real
    mode = game.fake_press
    if mode == FAKE_NONE:
        if command.fake:
            raise CommandRefused(_("Fake press is not allowed in this game. The press was not sent."))
        return real
    if mode == FAKE_BROADCAST:
        if command.fake is False:
            raise CommandRefused(
                _("In this game all press is shown as a broadcast: NO FAKE is not possible. "
                  "The press was not sent.")
            )
        if command.fake and command.shown_to is not None:
            raise CommandRefused(
                _("In this game all press is shown as a broadcast: it cannot be shown as sent to "
                  "some powers. The press was not sent.")
            )
        return None
    if command.fake:
        return fake_target()
    if mode == FAKE_BROADCAST_DEFAULT and command.fake is None and real is not None:
        return None
    return real


# -- sending -----------------------------------------------------------------------------------------


Readers = dict[str, list[str]]
"""language -> addresses."""


def _own_addresses(sender: Sender) -> list[str]:
    own = [sender.address]
    if sender.role is Role.POWER and sender.seat is not None:
        own += seat_addresses(sender.seat)
    return own


def _merge(into: Readers, more: Readers, seen: set[str]) -> None:
    for language, addresses in more.items():
        for address in addresses:
            if address.lower() not in seen:
                seen.add(address.lower())
                into.setdefault(language, []).append(address)


def readers(game: Game, plan: Plan) -> tuple[Readers, Readers]:
    """Who gets the recipients' copy, and which masters get the true copy, by language."""
    own = _own_addresses(plan.sender)
    seen = {address.lower() for address in own}
    real = plan.real
    masters: Readers = {}
    everyone_all_press = {a.lower() for a in game.extra_settings.get(ALL_PRESS, [])}
    no_broadcast = {a.lower() for a in game.extra_settings.get(NO_BROADCAST, [])}
    for master in game.masters:
        address = person_address(master.person)
        if not address or address.lower() in seen:
            continue
        wanted = (
            (real is None and address.lower() not in no_broadcast)
            or (real is not None and real.masters)
            or address.lower() in everyone_all_press
        )
        if wanted:
            seen.add(address.lower())
            masters.setdefault(master.person.language, []).append(address)
    copies: Readers = {}
    if real is None:
        _merge(copies, audience(game, broadcast=True, masters=False), seen)
    else:
        _merge(copies, audience(game, powers=real.powers, masters=False, observers=real.observers), seen)
        if game.watch_all_press:
            watchers = [o for o in mailed_observers(game) if o.address.lower() in everyone_all_press]
            for observer in watchers:
                language = observer.person.language if observer.person else "en"
                _merge(copies, {language: [observer.address]}, seen)
    return copies, masters


def send_press(session: MailSession, command: Press, plan: Plan) -> None:
    """Mail the message to its recipients (and masters), store it, and echo it in the reply."""
    _ = session.gettext
    game = session.game
    assert game is not None
    body = command.body.rstrip()
    code = session.services.config.code
    copies, masters = readers(game, plan)
    mails: dict[tuple[str, str], list[str]] = {}  # one mail per distinct (subject, text)
    shown_subject = game_subject(code, game.name, subject_event(game, plan, truth=False), game.current_phase)
    for language, to in copies.items():
        text = header(game, plan, language, truth=False) + "\n\n" + body + "\n"
        mails.setdefault((shown_subject, text), []).extend(to)
    true_subject = game_subject(code, game.name, subject_event(game, plan, truth=True), game.current_phase)
    for language, to in masters.items():
        text = "\n".join(true_lines(game, plan, language)) + "\n\n" + body + "\n"
        mails.setdefault((true_subject, text), []).extend(to)
    for (subject, text), to in mails.items():
        session.send(Outgoing(tuple(to), subject, text, game_id=game.id))
    _store(session, game, command.body, plan)
    session.reply.ok(command.line, *echo_lines(game, plan, session.language), "", body)


def _store(session: MailSession, game: Game, body: str, plan: Plan) -> None:
    real, shown = plan.real, plan.shown
    shown_list: list[str] | None = None
    if plan.faked:
        shown_list = [] if shown is None else stored_recipients(shown)
    if real is None and plan.faked:
        kind, recipients = PressKind.PRESS, [*game_map_of(game).powers, OBSERVER_LETTER, MASTER_LETTER]
    elif real is None:
        kind, recipients = PressKind.BROADCAST, []
    else:
        kind, recipients = PressKind.PRESS, stored_recipients(real)
    session.uow.press.post(
        game, body, session.now, kind=kind, sender_seat=plan.sender.seat,
        sender_role=plan.sender.role.value, sender_address=plan.sender.address,
        recipients=recipients, shown_recipients=shown_list, grey=plan.grey, mail_in_id=session.mail_id,
    )  # fmt: skip


def stored_recipients(targets: Targets) -> list[str]:
    """How recipients are stored: power names, then ``O`` and ``M``."""
    return [
        *targets.powers,
        *([OBSERVER_LETTER] if targets.observers else []),
        *([MASTER_LETTER] if targets.masters else []),
    ]


# -- what people read -----------------------------------------------------------------------------------


def subject_event(game: Game, plan: Plan, *, truth: bool) -> str:
    """``Broadcast``, ``Press from F to EG``, grey ``Press to EG`` (the shown list unless ``truth``)."""
    targets = plan.real if truth else plan.shown
    if targets is None:
        return "Broadcast"
    letters = "".join(power_letter(game, p) for p in targets.powers)
    letters += (OBSERVER_LETTER if targets.observers else "") + (MASTER_LETTER if targets.masters else "")
    power = plan.sender.power
    sender = f"from {power_letter(game, power)} " if power and (truth or not plan.grey) else ""
    return f"Press {sender}to {letters}"


def recipient_names(game: Game, targets: Targets, language: str) -> str:
    """``England, Germany``, ``the observers``, ``all but France`` in the reader's language."""
    _ = translation(language).gettext
    if targets.all_but is not None:
        letters = power_letters(game_map_of(game))
        named = [power_name(letters[c], language) for c in targets.all_but if c in letters]
        if OBSERVER_LETTER in targets.all_but:
            named.append(_("the observers"))
        if MASTER_LETTER in targets.all_but:
            named.append(_("the master"))
        return _("all but {names}").format(names=", ".join(named))
    return readers_named(targets.powers, observers=targets.observers, masters=targets.masters, language=language)


def readers_named(powers: Iterable[str], *, observers: bool, masters: bool, language: str) -> str:
    """``England, Germany, the observers, the master``: a press message's readers as a header names
    them, powers in the order given, then the observers, then the master."""
    _ = translation(language).gettext
    names = [power_name(p, language) for p in powers]
    if observers:
        names.append(_("the observers"))
    if masters:
        names.append(_("the master"))
    return ", ".join(names)


def writes_as(power: str | None, role: str | None, language: str) -> str | None:
    """Who a press header says the sender writes as: his power, else ``Master`` or ``Observer``;
    None for a sender known by his address alone."""
    _ = translation(language).gettext
    if power is not None:
        return power_name(power, language)
    if role == Role.MASTER:
        return _("Master")
    if role == Role.OBSERVER:
        return _("Observer")
    return None


def header_text(
    game: Game, language: str, *, recipients: str | None, grey: bool, as_who: str | None, address: str,
    hide_address: bool,
) -> str:
    """The line above a press text, the one wording of it: every copy of a press mail, the
    master's true line, postal press, and HISTORY's copy rebuilt from the stored message
    (:func:`judge.app.reports.history_text.press_header`) all come here.

    ``recipients``: the readers as named (:func:`readers_named`), None for a broadcast; ``grey``
    names no sender; ``as_who`` is :func:`writes_as`; ``hide_address`` (a power's address in a
    gunboat game) names the power alone, and so does a power whose address is not known.
    """
    _ = translation(language).gettext
    by_power_alone = hide_address or (as_who is not None and not address)
    if recipients is None:
        if grey:
            return _("Broadcast message in '{game}':").format(game=game.name)
        if by_power_alone:
            return _("Broadcast message from {power} in '{game}':").format(power=as_who, game=game.name)
        if as_who is None:
            return _("Broadcast message from {address} in '{game}':").format(address=address, game=game.name)
        return _("Broadcast message from {address} as {power} in '{game}':").format(
            address=address, power=as_who, game=game.name
        )
    if grey:
        return _("Message to {recipients} in '{game}':").format(recipients=recipients, game=game.name)
    if by_power_alone:
        return _("Message from {power} to {recipients} in '{game}':").format(
            power=as_who, recipients=recipients, game=game.name
        )
    if as_who is None:
        return _("Message from {address} to {recipients} in '{game}':").format(
            address=address, recipients=recipients, game=game.name
        )
    return _("Message from {address} as {power} to {recipients} in '{game}':").format(
        address=address, power=as_who, recipients=recipients, game=game.name
    )


def council_role_text(role: str, rank: int | None, language: str) -> str:
    """A council member's seat as his readers are told it: "General-in-chief", "Ambassador 2"."""
    _ = translation(language).gettext
    if role == GENERAL:
        return _("General-in-chief")
    return _("Ambassador {rank}").format(rank=rank)


def council_header_text(
    language: str, *, role: str, rank: int | None, power: str, recipients: Sequence[str] | None
) -> str:
    """The line above a council member's press (seed 003), the one wording of it: every reader's
    copy (:mod:`judge.app.councils.press_routing`) and HISTORY's, rebuilt from the stored message
    (:func:`judge.app.reports.history_text.press_header`). It names the member's seat and power,
    never his address (which would tell who sits where, a spy included).

    ``recipients``: None for a broadcast, else the stored list: the sender's own power (his
    council's room), the other powers in the order written to, ``M`` for the master.
    """
    _ = translation(language).gettext
    sender = _("{role} of {power}").format(
        role=council_role_text(role, rank, language), power=power_name(power, language)
    )
    if recipients is None:
        return _("Broadcast from the {sender} to every Ambassador:").format(sender=sender)
    names = [power_name(p, language) for p in recipients if p not in (power, MASTER_LETTER, OBSERVER_LETTER)]
    if power in recipients:
        names.insert(0, _("the council of {power}").format(power=power_name(power, language)))
    if MASTER_LETTER in recipients:
        names.append(_("the master"))
    return _("Press from the {sender} to {readers}:").format(sender=sender, readers=", ".join(names))


def header(game: Game, plan: Plan, language: str, *, truth: bool) -> str:
    """The line above the text: who it is from (unless grey) and to whom (the shown list unless ``truth``)."""
    targets = plan.real if truth else plan.shown
    sender = plan.sender
    return header_text(
        game, language,
        recipients=None if targets is None else recipient_names(game, targets, language),
        grey=plan.grey and not truth,
        as_who=writes_as(sender.power, sender.role, language),
        address=sender.address,
        hide_address=not truth and is_gunboat(game) and sender.power is not None,
    )  # fmt: skip


def disguise_lines(game: Game, plan: Plan, language: str) -> list[str]:
    """What was hidden from the recipients, for the sender's echo and the master's copy."""
    _ = translation(language).gettext
    lines = []
    if plan.grey:
        lines.append(_("Sent as grey press: the recipients are not told who sent it."))
    if plan.faked:
        if plan.shown is None:
            lines.append(_("Fake: the recipients see it as a broadcast."))
        else:
            lines.append(
                _("Fake: the recipients see it as sent to {recipients}.").format(
                    recipients=recipient_names(game, plan.shown, language)
                )
            )
    return lines


def true_lines(game: Game, plan: Plan, language: str) -> list[str]:
    """The master's header: the true sender and recipients, then what the recipients were shown."""
    return [header(game, plan, language, truth=True), *disguise_lines(game, plan, language)]


def echo_lines(game: Game, plan: Plan, language: str) -> list[str]:
    """The sender's reply: where it went, and how it was disguised."""
    _ = translation(language).gettext
    if plan.real is None:
        first = _("Broadcast sent to everyone in game '{game}':").format(game=game.name)
    else:
        first = _("Press sent to {recipients}:").format(recipients=recipient_names(game, plan.real, language))
    return [first, *disguise_lines(game, plan, language)]


# -- postal press -----------------------------------------------------------------------------------------


def hold_postal_press(command: Press, session: MailSession) -> None:
    """POSTAL PRESS: check it and keep it for the next results (nothing is sent now)."""
    _ = session.gettext
    game = session.game
    if game is None or session.role is None:
        raise CommandRefused(_("Press needs a SIGNON first: to which game? The press was not sent."))
    sender = sender_of(session, game)
    if command.recipients is not None or command.grey is not None or command.fake is not None:
        raise CommandRefused(
            _("POSTAL PRESS takes no options: it goes to everyone, signed. The press was not sent.")
        )
    if not game.postal_press and sender.role is not Role.MASTER:
        raise CommandRefused(_("This game does not allow postal press. The press was not sent."))
    if sender.role is Role.OBSERVER and game.observer_press == "none":
        raise CommandRefused(_("Observers may not send press in this game. The press was not sent."))
    if game.state is not GameState.ACTIVE or game.current_phase is None:
        raise CommandRefused(
            _("Postal press goes out with the next results, and game '{game}' has no phase being played. "
              "The press was not sent.").format(game=game.name)
        )
    if not command.body.strip() and not game.blank_press:
        raise CommandRefused(_("This press has no text; it was not sent."))
    held = list(game.extra_settings.get(POSTAL_KEY, []))
    held.append({
        "body": command.body.rstrip(), "seat_id": sender.seat.id if sender.seat else None,
        "power": sender.power, "role": sender.role.value, "address": sender.address,
        "mail_in_id": session.mail_id, "phase": game.current_phase,
    })  # fmt: skip
    game.extra_settings = {**game.extra_settings, POSTAL_KEY: held}
    session.uow.flush()
    session.reply.ok(
        command.line,
        _("Postal press held: it will go to everyone with the results of {phase}:").format(
            phase=game.current_phase
        ),
        "",
        command.body.rstrip(),
    )


def held_postal_press(game: Game) -> list[dict[str, Any]]:
    return list(game.extra_settings.get(POSTAL_KEY, []))


def release_postal_press(uow: UnitOfWork, services: Services, game: Game, now: datetime) -> int:
    """Send the postal press held for ``game`` (after its results), store it, and forget it; returns how many.

    Called by the phase processing right after it queued the results, in
    the same transaction, so postal press goes out with the results or not
    at all.
    """
    held = held_postal_press(game)
    if not held:
        return 0
    game.extra_settings = {k: v for k, v in game.extra_settings.items() if k != POSTAL_KEY}
    seats = {seat.id: seat for seat in game.seats}
    for item in held:
        seat = seats.get(item["seat_id"]) if item.get("seat_id") is not None else None
        sender = Sender(str(item["address"]), item.get("power"), Role(item["role"]), seat)
        plan = Plan(sender, None, None, faked=False, grey=False)
        copies, masters = readers(game, plan)
        subject = game_subject(services.config.code, game.name, "Postal Press", item.get("phase"))
        body = str(item["body"])
        mails: dict[str, list[str]] = {}
        for group in (copies, masters):
            for language, to in group.items():
                mails.setdefault(header(game, plan, language, truth=False) + "\n\n" + body + "\n", []).extend(to)
        for text, to in mails.items():
            outbox.queue(uow, services, to, subject, text, now, game_id=game.id)
        uow.press.post(
            game, body, now, kind=PressKind.POSTAL, phase=item.get("phase"), sender_seat=seat,
            sender_role=sender.role.value, sender_address=sender.address, mail_in_id=item.get("mail_in_id"),
        )  # fmt: skip
    uow.flush()
    return len(held)

