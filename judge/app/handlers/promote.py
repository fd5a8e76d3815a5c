"""PROMOTE address: the master makes an observer of the game a co-master.

The observer must be registered (a master is a person the judge knows,
whose absences count) and must not play in the game. The observer's
password becomes the co-master's (``SIGNON M<game>``); the observer record
goes, a master hears everything anyway. Announced ("Promotion of address").
"""

from __future__ import annotations

from judge.app.games.masters import announce_to_game, require_master
from judge.app.session.mail_session import MailSession, Outgoing
from judge.app.session.readers import reader_language
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import AuditKind
from judge.db.repositories.people import normalise_address
from judge.i18n import Gettext, translation
from judge.lang.commands import Promote
from judge.mail.compose import game_subject


@handles(Promote)
def handle(command: Promote, session: MailSession) -> Next:
    _ = session.gettext
    game = require_master(session, "PROMOTE")
    address = normalise_address(command.address)
    observers = [o for o in game.observers if o.address == address]
    if not observers:
        raise CommandRefused(
            _("{address} does not observe game '{game}': only an observer can be promoted.").format(
                address=address, game=game.name
            )
        )
    uow = session.uow
    person = uow.people.by_address(address)
    if person is None:
        raise CommandRefused(
            _("{address} is not registered: a master must be registered (REGISTER) first.").format(address=address)
        )
    if any(m.person_id == person.id for m in game.masters):
        raise CommandRefused(_("{address} is already a master of game '{game}'.").format(
            address=address, game=game.name
        ))
    if any(s.person_id == person.id for s in game.seats):
        raise CommandRefused(_("{address} plays in game '{game}' and cannot also be its master.").format(
            address=address, game=game.name
        ))
    master = uow.games.add_master(game, person, "-", session.now)
    master.password_hash = observers[0].password_hash  # the observer's password signs on as M
    for observer in observers:
        game.observers.remove(observer)
    uow.flush()
    uow.audit.record(
        AuditKind.ADMIN, session.now, game=game, person=session.person, actor=session.sender,
        setting="promote", new_value=address,
    )
    session.reply.ok(command.line, _("{address} is now a master of game '{game}'.").format(
        address=address, game=game.name
    ))
    _ = translation(reader_language(person, game)).gettext
    session.send(Outgoing(
        (address,),
        game_subject(session.services.config.code, game.name, "Promotion", game.current_phase),
        _("You are now a master of game '{game}'. Sign on with SIGNON M{game} and your observer's "
          "password.").format(game=game.name) + "\n",
        game_id=game.id,
    ))

    def body(_: Gettext, language: str) -> str:
        return _("{address} is now a master of game '{game}'.").format(address=address, game=game.name)

    announce_to_game(session, game, f"Promotion of {address}", body, exclude=[session.sender, address])
    return Next.CONTINUE
