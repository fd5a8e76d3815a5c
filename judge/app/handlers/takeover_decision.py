"""APPROVE power / REFUSE power: a moderated game's master decides a pending takeover.

Who may run it: a master signed on to the game (SIGNON Mgame). What it
reveals: to the master, whose request was decided; to the newcomer, by
mail, the decision (and, when approved, that they now play the power with
the password they gave); to the previous player, that the power has a new
player; to the game, the usual New Player Signon. Each step is in the
game's audit trail (AuditKind.TAKEOVER).

A request whose power is no longer open (its player came back with their
password, or someone else took it) is withdrawn, and the master told so.
"""

from __future__ import annotations

from judge.app.game_state.game_facts import power_letter, power_name
from judge.app.games.lifecycle import AlreadyInGame, take_over
from judge.app.people.takeover import announce_takeover, is_open, tell_previous_player
from judge.app.session.mail_session import MailSession, Outgoing, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import AuditKind
from judge.db.models import Game, Person, TakeoverRequest
from judge.i18n import translation
from judge.lang.commands import TakeoverDecision
from judge.mail.compose import game_subject

APPROVED = "approved"
REFUSED = "refused"
WITHDRAWN = "withdrawn"


@handles(TakeoverDecision)
def handle(command: TakeoverDecision, session: MailSession) -> Next:
    _ = session.gettext
    game = session.game
    keyword = "APPROVE" if command.approved else "REFUSE"
    if game is None or session.role is not Role.MASTER:
        raise CommandRefused(
            _("{keyword} is for the master of a game: sign on with SIGNON Mgame password first.").format(
                keyword=keyword
            )
        )
    uow = session.uow
    power = power_name(command.power, session.language)
    request = uow.seats.pending_takeover(game, command.power)
    if request is None:
        raise CommandRefused(
            _("No takeover of {power} waits for your decision in game '{game}'.").format(
                power=power, game=game.name
            )
        )
    person = uow.people.get(request.person_id)
    seat = uow.seats.by_power(game, command.power)
    if seat is None or not is_open(seat) or any(s.person_id == person.id for s in game.seats):
        uow.seats.decide_takeover(request, WITHDRAWN, session.now)
        session.reply.error(
            command.line,
            _("{power} is no longer open for takeover in game '{game}': the request is withdrawn.").format(
                power=power, game=game.name
            ),
        )
        return Next.CONTINUE
    if not command.approved:
        uow.seats.decide_takeover(request, REFUSED, session.now)
        uow.audit.record(
            AuditKind.TAKEOVER, session.now, game=game, person=person, actor=session.sender,
            setting="power", new_value=command.power, detail=f"refused by the master ({request.requester})",
        )  # fmt: skip
        session.reply.ok(
            command.line,
            _("Refused: {name} <{address}> does not take over {power}; they have been told.").format(
                name=person.name, address=request.requester, power=power
            ),
        )
        _tell_newcomer(session, game, request, person, approved=False)
        return Next.CONTINUE
    previous = seat.person
    try:
        fresh_deadline = take_over(
            uow, game, seat, person, "", session.now,
            zone=session.services.config.timezone, actor=request.requester,
        )  # fmt: skip
    except AlreadyInGame:  # checked above; kept for safety
        raise CommandRefused(_("That player already plays in this game.")) from None
    seat.password_hash = request.password_hash  # the password the newcomer chose
    uow.seats.decide_takeover(request, APPROVED, session.now)
    uow.audit.record(
        AuditKind.TAKEOVER, session.now, game=game, person=person, actor=session.sender,
        setting="power", new_value=command.power, detail=f"approved by the master ({request.requester})",
    )  # fmt: skip
    session.reply.ok(
        command.line,
        _("Approved: {name} <{address}> now plays {power}; they, the previous player and the game have been told.").format(
            name=person.name, address=request.requester, power=power
        ),
    )
    _tell_newcomer(session, game, request, person, approved=True)
    tell_previous_player(session, game, seat, previous)
    announce_takeover(session, game, seat, fresh_deadline, request.requester)
    return Next.CONTINUE


def _tell_newcomer(
    session: MailSession, game: Game, request: TakeoverRequest, person: Person, *, approved: bool
) -> None:
    _ = translation(person.language).gettext
    config = session.services.config
    power = power_name(request.power, person.language)
    if approved:
        body = _(
            "The master of game '{game}' approved your takeover: you now play {power}, with the "
            "password you gave. WAIT is set for you. Sign on with SIGNON {letter}{game} and that password."
        ).format(game=game.name, power=power, letter=power_letter(game, request.power))
    else:
        body = _("The master of game '{game}' refused your takeover of {power}.").format(
            game=game.name, power=power
        )
    subject = game_subject(config.code, game.name, "Takeover", game.current_phase)
    session.send(Outgoing((request.requester,), subject, body + "\n", game_id=game.id))
