"""What the master's commands and the SET commands share: who may act, changes and their announcement.

* :func:`require_master` / :func:`require_moderator`: the Judge's "mas" and
  "mod" checks, refusing with a reason the sender can act on;
* :func:`change_setting`: one setting changed through the audited
  repository call, and remembered for the mail's one Parameter Change
  announcement (several SETs in one mail make one announcement, as the
  Judge's parameter block lists them together);
* :func:`become`: the BECOME state — the master acts as a power for the
  rest of the mail, and that power's player gets a copy of what was done
  in their name (the part of the reply after BECOME, as the Judge has done
  since 2003, not the master's earlier commands);
* :func:`announce_to_game`: one mail per reader language to everyone in a
  game.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from judge.app.audience.council_members import group_by_language, seat_readers
from judge.app.game_state.game_facts import audience, by_zone, power_letter, power_name
from judge.app.game_state.setting_table import Setting, When, Who, current_value
from judge.app.reports.listing import parameter_lines
from judge.app.session.mail_session import MailSession, Outgoing, Role
from judge.app.session.refusals import CommandRefused
from judge.core.councils.roles import Channel
from judge.db.enums import GameState
from judge.db.models import Game, Seat
from judge.i18n import Gettext, translation
from judge.mail.compose import game_subject
from judge.timekeeping.dates import tell_date

# -- who may act ---------------------------------------------------------------------------------


def signed_on_game(session: MailSession, command: str) -> Game:
    """The game the sender signed on to, or a refusal naming the command."""
    _ = session.gettext
    if session.game is None or session.role is None:
        raise CommandRefused(
            _("{command} needs a SIGNON to a game first.").format(command=command)
        )
    return session.game


def is_master(session: MailSession) -> bool:
    return session.role is Role.MASTER and session.master is not None and session.game is not None


def is_creator(session: MailSession, game: Game) -> bool:
    """Whether the sender signed on as the game's creator: the player seated first (SET COUNCILS, SET BOTS)."""
    if session.role is not Role.POWER or session.seat is None or not game.seats:
        return False
    first = min(game.seats, key=lambda seat: (seat.joined_at, seat.id))
    return first.id == session.seat.id


def require_master(session: MailSession, command: str) -> Game:
    """The game, if the sender signed on as one of its masters (``SIGNON M<game>``)."""
    _ = session.gettext
    game = signed_on_game(session, command)
    if not is_master(session):
        raise CommandRefused(
            _("Only a master of game '{game}' may use {command} (sign on with SIGNON M{game}).").format(
                game=game.name, command=command
            )
        )
    return game


def require_moderator(session: MailSession, command: str) -> Game:
    """The Judge's "mod": the master of a moderated game, any player of an unmoderated one."""
    _ = session.gettext
    game = signed_on_game(session, command)
    if is_master(session):
        return game
    if game.moderated:
        raise CommandRefused(
            _("Game '{game}' is moderated: only the master may do that.").format(game=game.name)
        )
    if session.role is not Role.POWER:
        raise CommandRefused(_("Observers cannot do that: only the players and the master."))
    return game


def check_may_set(session: MailSession, setting: Setting, label: str) -> Game:
    """The game whose ``setting`` the sender may change now, or a refusal that says why not."""
    _ = session.gettext
    game = signed_on_game(session, "SET")
    if game.state is GameState.FINISHED:
        raise CommandRefused(
            _("Game '{game}' is over: its settings can no longer be changed.").format(game=game.name)
        )
    if setting.who is Who.MASTER and not is_master(session):
        raise CommandRefused(
            _("Only a master of game '{game}' may change that ({setting}).").format(
                game=game.name, setting=label
            )
        )
    if setting.who is Who.MODERATOR and not is_master(session):
        if game.moderated:
            raise CommandRefused(
                _("Game '{game}' is moderated: only the master may change that ({setting}).").format(
                    game=game.name, setting=label
                )
            )
        if session.role is not Role.POWER:
            raise CommandRefused(_("Observers cannot change the game's settings."))
    if setting.when is When.BEFORE_START and game.state is not GameState.FORMING:
        raise CommandRefused(
            _("{setting} can only be changed before the game starts.").format(setting=label)
        )
    return game


# -- changes and the Parameter Change announcement ---------------------------------------------------------


@dataclass(frozen=True)
class Change:
    label: str  # untranslated (an N_ message)
    old: str
    new: str


@dataclass
class _MailState:
    """What this area remembers while one mail is read."""

    changes: list[Change] = field(default_factory=list)
    announced: bool = False
    became: Seat | None = None
    became_line: int = 0


def _state(session: MailSession) -> _MailState:
    state = session.state_of(_MailState)
    if state is None:
        state = _MailState()
        session.keep_state(state)
    return state


def change_setting(
    session: MailSession, game: Game, setting: Setting, value: Any, *, column: str | None = None
) -> str | None:
    """Set ``setting`` to ``value`` (audited), announced when the mail ends.

    Returns the old value as shown (``NoNMR``), or None if the setting already had that value.
    """
    where = column or setting.column
    old = current_value(game, where)
    event = session.uow.games.change_setting(
        game, where, value, session.now, actor=session.sender, person=session.person
    )
    if event is None:
        return None
    if setting.announce:
        note_change(session, game, Change(setting.label, setting.shown(old), setting.shown(value)))
    return setting.shown(old)


def note_change(session: MailSession, game: Game, change: Change) -> None:
    """Remember a change for the mail's Parameter Change announcement."""
    state = _state(session)
    state.changes.append(change)
    if not state.announced:
        state.announced = True
        session.finishers.append(lambda: _announce_changes(session, game))


def acting_master(session: MailSession, _: Gettext) -> str:
    """Who acts as the game's master in ``session``, as players are told: ``the master``, or
    ``the judgekeeper`` for the operator's console (never passed off as the master's act)."""
    return _("the judgekeeper") if session.operator else _("the master")


def setter_name(session: MailSession, game: Game, language: str) -> str | None:
    """Who made a change, as the game is told (None under NoShow: the setter is not named)."""
    if not game.show_setter:
        return None
    _ = translation(language).gettext
    if session.role is Role.MASTER:
        return acting_master(session, _)
    if session.acting_power is not None:
        return power_name(session.acting_power, language)
    return _("a player")


def _announce_changes(session: MailSession, game: Game) -> None:
    """One Parameter Change mail per reader language: what changed, then the parameter block."""
    changes = _state(session).changes
    if not changes:
        return
    subject = game_subject(session.services.config.code, game.name, "Parameter Change", game.current_phase)
    for language, to in audience(game, exclude=[session.sender]).items():
        _ = translation(language).gettext
        who = setter_name(session, game, language)
        if who is None:
            head = _("The settings of game '{game}' have been changed:").format(game=game.name)
        else:
            head = _("{who} has changed the settings of game '{game}':").format(who=who, game=game.name)
            head = head[:1].upper() + head[1:]
        lines = [head, ""]
        width = max(len(_(c.label)) for c in changes) + 1
        for change in changes:
            lines.append(f"  {_(change.label) + ':':<{width}} {change.old} -> {change.new}")
        lines += ["", *parameter_lines(game, _)]
        session.send(Outgoing(tuple(to), subject, "\n".join(lines).rstrip() + "\n", game_id=game.id))


def announce_to_game(
    session: MailSession,
    game: Game,
    event: str,
    body: Callable[[Gettext, str], str],
    *,
    exclude: Iterable[str] = (),
) -> None:
    """Queue ``event`` to everyone in ``game``, each in their language: ``body(_, language)``."""
    subject = game_subject(session.services.config.code, game.name, event, game.current_phase)
    for language, to in audience(game, exclude=exclude).items():
        text = body(translation(language).gettext, language)
        session.send(Outgoing(tuple(to), subject, text.rstrip() + "\n", game_id=game.id))


def announce_dated_to_game(
    session: MailSession,
    game: Game,
    event: str,
    body: Callable[[Gettext, str, Callable[[datetime], str]], str],
    *,
    exclude: Iterable[str] = (),
) -> None:
    """:func:`announce_to_game` for a text that tells dates: ``body(_, language, tell)``, where
    ``tell(when)`` is the date as the readers of that mail are told it (their zone, and UTC)."""
    subject = game_subject(session.services.config.code, game.name, event, game.current_phase)
    groups = audience(game, exclude=exclude)
    for language, zone, to in by_zone(game, groups, session.services.config.timezone):
        gettext = translation(language).gettext
        text = body(gettext, language, functools.partial(_told, zone=zone, gettext=gettext))
        session.send(Outgoing(tuple(to), subject, text.rstrip() + "\n", game_id=game.id))


def _told(when: datetime, *, zone: ZoneInfo, gettext: Gettext) -> str:
    return tell_date(when, zone, gettext)


# -- BECOME ---------------------------------------------------------------------------------------


def became(session: MailSession) -> Seat | None:
    """The seat whose power the master BECAME in this mail, if any."""
    return _state(session).became


def become(session: MailSession, seat: Seat, line: int) -> None:
    """The master acts as ``seat``'s power from ``line`` on; its player is sent that part of the reply."""
    state = _state(session)
    state.became, state.became_line = seat, line
    session.acting_power = seat.power

    def schedule_copy() -> None:
        # Runs among the finishers; the copy must come after the others (the
        # order acknowledgement goes into the reply in a finisher), so it
        # queues itself once more at the end of the list.
        session.finishers.append(lambda: _send_copy(session))

    session.finishers.append(schedule_copy)


def _send_copy(session: MailSession) -> None:
    state = _state(session)
    seat, game = state.became, session.game
    if seat is None or game is None or seat.person is None or seat.power is None:
        return
    readers = [
        r for r in seat_readers(game, seat, Channel.COUNCIL) if r.address.lower() != session.sender.lower()
    ]  # a council's members each in his language (judge.app.audience.council_members)
    subject = game_subject(
        session.services.config.code, game.name,
        f"Master Acting For: {power_letter(game, seat.power)}", game.current_phase,
    )
    done = session.reply.render_since(state.became_line)
    for language, to in group_by_language(readers).items():
        _ = translation(language).gettext
        intro = _(
            "The master of game '{game}' has acted for {power}. What was done in your name:"
        ).format(game=game.name, power=power_name(seat.power, language))
        session.send(Outgoing(tuple(to), subject, intro + "\n\n" + done, game_id=game.id))
