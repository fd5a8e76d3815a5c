"""SET ADDRESS [a[,b]]: where the player's mail about this game goes (empty: the sender's address).

Who may run it: the player signed on to a power. Only addresses of the
seat's player's registration are accepted: the game's mail (private press,
results) never goes to an address its owner has not proved, and no
address gets mail it did not ask for. A new address is first added to the
registration with REGISTER Email:, which needs a code confirmed from the
registration's primary address and one confirmed from the new address
(:mod:`judge.app.people.claims`). The change is announced to the game (not in
gunboat games, where it would tell who plays whom) and kept in the audit
trail. What it reveals: the addresses to the game, as before. A council
member's SET ADDRESS is his own: only his registration's addresses, it
routes his mail alone and is announced to nobody
(:mod:`judge.app.councils.membership`).
"""

from __future__ import annotations

from judge.app.councils import membership
from judge.app.game_state.game_facts import audience, is_gunboat, power_letter, power_name
from judge.app.hooks.game_hooks import hooks_for
from judge.app.people.address_text import read_address, reason, shown
from judge.app.session.mail_session import MailSession, Outgoing, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import AuditKind
from judge.db.models import Game, Seat
from judge.db.repositories.people import normalise_address
from judge.i18n import translation
from judge.lang.commands import SetAddress
from judge.mail.addresses import AddressError
from judge.mail.compose import game_subject

MAX_ADDRESSES = 2


@handles(SetAddress)
def handle(command: SetAddress, session: MailSession) -> Next:
    _ = session.gettext
    seat, game = session.seat, session.game
    if seat is None or game is None or session.role is not Role.POWER:
        raise CommandRefused(_("SET ADDRESS is for a player signed on to a game."))
    given = [a for a in command.addresses if a.strip()]
    if len(given) > MAX_ADDRESSES:
        raise CommandRefused(_("SET ADDRESS takes at most two addresses, separated by a comma."))
    try:
        addresses = [read_address(a) for a in given] or [normalise_address(session.sender)]
    except AddressError as error:
        raise CommandRefused(
            _("This is not a mail address: {address} ({reason}). Nothing was changed.").format(
                address=shown(error), reason=reason(error, _)
            )
        ) from None
    addresses = list(dict.fromkeys(addresses))
    member = hooks_for(game).member(session)
    owner_id = member.person_id if member is not None else seat.person_id  # a council member's own
    holder = session.uow.people.get(owner_id) if owner_id is not None else None
    own = {a.address for a in holder.addresses} if holder is not None else set()
    strangers = [a for a in addresses if a not in own]
    if strangers:
        raise CommandRefused(
            _(
                "SET ADDRESS takes only addresses of your registration: {addresses} is not one. "
                "Add it first with REGISTER and an Email: line (your registration's primary "
                "address and the new address each confirm it). Nothing was changed."
            ).format(addresses=", ".join(strangers))
        )
    if member is not None:  # his own mail only, announced to nobody
        membership.set_address(session, game, member, addresses)
        session.reply.ok(command.line, _("Your mail about game '{game}' will now go to {addresses}.").format(
            game=game.name, addresses=", ".join(addresses)))  # fmt: skip
        return Next.CONTINUE
    old = seat.report_address
    seat.report_address = ",".join(addresses)
    session.uow.audit.record(
        AuditKind.SETTING, session.now, game=game, person=session.person, actor=session.sender,
        setting="report_address", old_value=old, new_value=seat.report_address,
    )
    session.reply.ok(
        command.line,
        _("Mail about game '{game}' will now go to {addresses}.").format(
            game=game.name, addresses=", ".join(addresses)
        ),
    )
    if seat.power is not None and not is_gunboat(game):
        _announce(session, game, seat, addresses)
    return Next.CONTINUE


def _announce(session: MailSession, game: Game, seat: Seat, addresses: list[str]) -> None:
    """``Player Address Change: F`` to everyone else in the game."""
    config = session.services.config
    subject = game_subject(
        config.code, game.name, f"Player Address Change: {power_letter(game, seat.power or '')}",
        game.current_phase,
    )
    readers = audience(game, exclude=[session.sender, *addresses])
    for language, to in readers.items():
        _ = translation(language).gettext
        body = _("The address of {power} in game '{game}' is now {addresses}.").format(
            power=power_name(seat.power or "", language), game=game.name, addresses=", ".join(addresses)
        )
        session.send(Outgoing(tuple(to), subject, body + "\n", game_id=game.id))
