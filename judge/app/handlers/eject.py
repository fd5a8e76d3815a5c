"""EJECT power | address: the master removes a player, an observer or a master from the game.

* a power (``EJECT F``): its player is removed; in a started game the power
  is left abandoned, open for takeover; the player is told;
* an address: the player (a forming game's seat is removed outright), the
  observer or the co-master who writes from it. A master leaves a game by
  ejecting himself (masters do not RESIGN); when the last master goes, the
  game is no longer moderated, so that its players are not stuck.

Announced to the game ("Player Ejected"), except the ejection of an observer.
"""

from __future__ import annotations

from judge.app.game_state.game_facts import power_letter, power_name
from judge.app.game_state.setting_table import FLAGS
from judge.app.games.masters import announce_to_game, change_setting, require_master
from judge.app.session.mail_session import MailSession, Outgoing
from judge.app.session.readers import person_address, reader_language
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import AuditKind, GameState, SeatStatus
from judge.db.models import Game, GameMaster, GameObserver, Seat
from judge.db.repositories.people import normalise_address
from judge.i18n import Gettext, translation
from judge.lang.commands import Eject
from judge.mail.compose import game_subject

# A power in civil disorder is still its player's (judge.app.people.takeover): the master may eject them.
_GONE = (SeatStatus.RESIGNED, SeatStatus.ABANDONED, SeatStatus.ELIMINATED)


@handles(Eject)
def handle(command: Eject, session: MailSession) -> Next:
    _ = session.gettext
    game = require_master(session, "EJECT")
    if command.power is not None:
        seat = session.uow.seats.by_power(game, command.power)
        if seat is None or seat.person is None or seat.status in _GONE:
            raise CommandRefused(
                _("{power} has no player to eject.").format(power=power_name(command.power, session.language))
            )
        _eject_seat(command, session, game, seat)
        return Next.CONTINUE
    address = normalise_address(command.target)
    found = _find(game, address)
    if found is None:
        raise CommandRefused(
            _("Nobody in game '{game}' writes from {address}.").format(game=game.name, address=address)
        )
    if isinstance(found, Seat):
        _eject_seat(command, session, game, found)
    elif isinstance(found, GameObserver):
        game.observers.remove(found)
        session.uow.flush()
        _audit(session, game, "observer", address)
        session.reply.ok(command.line, _("The observer {address} is no longer in game '{game}'.").format(
            address=address, game=game.name
        ))
    else:
        _eject_master(command, session, game, found, address)
    return Next.CONTINUE


def _find(game: Game, address: str) -> Seat | GameObserver | GameMaster | None:
    for seat in game.seats:
        person = seat.person
        if person is not None and seat.status not in _GONE and any(a.address == address for a in person.addresses):
            return seat
    for master in game.masters:
        if any(a.address == address for a in master.person.addresses):
            return master
    for observer in game.observers:
        if observer.address == address:
            return observer
    return None


def _audit(session: MailSession, game: Game, what: str, who: str) -> None:
    session.uow.audit.record(
        AuditKind.ADMIN, session.now, game=game, person=session.person, actor=session.sender,
        setting="eject", old_value=what, new_value=who,
    )


def _eject_seat(command: Eject, session: MailSession, game: Game, seat: Seat) -> None:
    _ = session.gettext
    player = seat.person
    assert player is not None
    address = person_address(player) or ""
    uow = session.uow
    if seat.power is None:  # a forming game: the seat goes
        game.seats.remove(seat)
        uow.flush()
        _audit(session, game, "player", address)
        session.reply.ok(command.line, _("{address} is no longer in game '{game}'.").format(
            address=address, game=game.name
        ))
        _tell_player(session, game, address, reader_language(player, game), None)
        return
    uow.seats.leave(seat, session.now, SeatStatus.ABANDONED, phase=game.current_phase)
    seat.wait = False
    _audit(session, game, seat.power, address)
    power = seat.power
    session.reply.ok(command.line, _("The player of {power} has been ejected; {power} is open for takeover.").format(
        power=power_name(power, session.language)
    ))
    _tell_player(session, game, address, reader_language(player, game), power)

    def body(_: Gettext, language: str) -> str:
        return _(
            "The master has ejected the player of {power} from game '{game}'. {power} may be taken "
            "over by anyone registered: SIGNON {letter}{game} with a password of your choice."
        ).format(power=power_name(power, language), game=game.name, letter=power_letter(game, power))

    if game.state is not GameState.FORMING:
        announce_to_game(
            session, game, f"Player Ejected: {power_letter(game, power)}", body,
            exclude=[session.sender, address],
        )


def _tell_player(session: MailSession, game: Game, address: str, language: str, power: str | None) -> None:
    if not address:
        return
    _ = translation(language).gettext
    if session.operator:
        text = _("The judgekeeper has removed you from game '{game}'.").format(game=game.name)
        if power is not None:
            text += " " + _("You no longer play {power}.").format(power=power_name(power, language))
    elif power is None:
        text = _("The master of game '{game}' has removed you from the game.").format(game=game.name)
    else:
        text = _("The master of game '{game}' has removed you from the game: you no longer play {power}.").format(
            game=game.name, power=power_name(power, language)
        )
    subject = game_subject(session.services.config.code, game.name, "Ejected", game.current_phase)
    session.send(Outgoing((address,), subject, text + "\n", game_id=game.id))


def _eject_master(command: Eject, session: MailSession, game: Game, master: GameMaster, address: str) -> None:
    _ = session.gettext
    himself = master is session.master
    game.masters.remove(master)
    session.uow.flush()
    _audit(session, game, "master", address)
    if himself:
        session.master = None
        session.role = None
        session.acting_power = None
        session.reply.ok(command.line, _("You are no longer a master of game '{game}'.").format(game=game.name))
    else:
        session.reply.ok(command.line, _("{address} is no longer a master of game '{game}'.").format(
            address=address, game=game.name
        ))
    if not game.masters and game.moderated:
        change_setting(session, game, FLAGS["MODERATED"], False)

    def body(_: Gettext, language: str) -> str:
        return _("{address} is no longer a master of game '{game}'.").format(address=address, game=game.name)

    announce_to_game(session, game, "Master Ejected", body, exclude=[session.sender])
