"""Press in a council game: who reads what a council member writes (seed 003, rules 1 and 3).

``PRESS TO <own letter>`` is the council's private room (the General and
his Ambassadors); ``PRESS TO <other letters>`` goes from an Ambassador to
the Ambassadors of those powers (all of them for one power, the first of
each for several: one Ambassador per nation in a multi-party room);
``BROADCAST`` reaches every Ambassador (the seed's common room) and the
observers who take broadcasts. A General may write only to his own
council; the master may always be written to, and gets a copy of
everything. Generals never read other powers' press. The game's press
settings (no press, no partial press...) apply to press between powers.
"""

from __future__ import annotations

from judge.app.councils.permissions import as_rule_member, press_refusal, signed_on_member
from judge.app.errors import CommandRefused
from judge.app.game_facts import audience, power_letter, power_name
from judge.app.notify import person_address
from judge.app.press import plan_press, resolve
from judge.app.session import MailSession, Outgoing
from judge.core.councils.roles import Member, PressRequest, press_readers
from judge.db.enums import PressKind
from judge.db.models import CouncilMember, Game
from judge.i18n import translation
from judge.lang.commands import Press
from judge.lang.powers import MASTER_LETTER
from judge.mail.compose import game_subject


def _request(
    session: MailSession, game: Game, member: CouncilMember, command: Press
) -> PressRequest:
    if command.recipients is None:
        return PressRequest(broadcast=True)
    targets = resolve(command.recipients, session, game, drop_own=False)
    others = tuple(p for p in targets.powers if p != member.power)
    return PressRequest(
        own_council=member.power in targets.powers,
        powers=others,
        observers=targets.observers,
        masters=targets.masters,
    )


def send_council_press(session: MailSession, command: Press) -> None:
    """Check and deliver one press from a council member; the reply says who read it."""
    _ = session.gettext
    game = session.game
    member = signed_on_member(session)
    if game is None or member is None:
        raise CommandRefused(
            _("Press needs a SIGNON first: to which game? The press was not sent.")
        )
    if command.postal:
        raise CommandRefused(
            _("Postal press is not played in a council game. The press was not sent.")
        )
    request = _request(session, game, member, command)
    refusal = press_refusal(session, member, request)
    if refusal is not None:
        raise CommandRefused(refusal)
    if request.powers or request.broadcast:
        plan_press(command, session)  # the game's press settings, as between ordinary powers
    if not command.body.strip() and not game.blank_press:
        raise CommandRefused(_("This press has no text; it was not sent."))
    uow = session.uow
    councils: dict[str, list[Member]] = {}
    rows = {m.id: m for m in uow.councils.seated(game)}
    for row in rows.values():
        councils.setdefault(row.power, []).append(as_rule_member(row))
    readers = press_readers(as_rule_member(member), request, councils)
    sender_letter = power_letter(game, member.power)
    to_letters = "".join(power_letter(game, p) for p in request.powers)
    if request.own_council:
        to_letters = sender_letter + to_letters
    event = (
        "Broadcast"
        if request.broadcast
        else f"Press from {sender_letter} to {to_letters or MASTER_LETTER}"
    )
    subject = game_subject(session.services.config.code, game.name, event, game.current_phase)
    body = command.body.rstrip()
    mails: dict[str, list[str]] = {}
    sent: set[str] = {session.sender.lower()}
    for reader in readers:
        person = uow.councils.person_of(rows[reader.id])
        address = person_address(person)
        if person is None or not address or address.lower() in sent:
            continue
        sent.add(address.lower())
        mails.setdefault(person.language, []).append(address)
    if request.broadcast:
        for language, addresses in audience(game, powers=(), masters=False, broadcast=True).items():
            for address in addresses:
                if address.lower() not in sent:
                    sent.add(address.lower())
                    mails.setdefault(language, []).append(address)
    for master in game.masters:
        address = person_address(master.person)
        if address and address.lower() not in sent:
            sent.add(address.lower())
            mails.setdefault(master.person.language if master.person else "en", []).append(address)
    for language, addresses in mails.items():
        text = _header(game, member, request, language) + "\n\n" + body + "\n"
        session.send(Outgoing(tuple(addresses), subject, text, game_id=game.id))
    uow.press.post(
        game, command.body, session.now,
        kind=PressKind.BROADCAST if request.broadcast else PressKind.PRESS,
        sender_seat=session.seat, sender_role="power", sender_address=session.sender,
        recipients=[] if request.broadcast else [
            *([member.power] if request.own_council else []), *request.powers,
            *([MASTER_LETTER] if request.masters else []),
        ],
        mail_in_id=session.mail_id,
    )  # fmt: skip
    session.reply.ok(command.line, _delivered(session, game, request, len(readers)), "", body)


def _header(game: Game, member: CouncilMember, request: PressRequest, language: str) -> str:
    from judge.app.councils.formation import role_text

    _ = translation(language).gettext
    sender = _("{role} of {power}").format(
        role=role_text(member, language), power=power_name(member.power, language)
    )
    if request.broadcast:
        return _("Broadcast from the {sender} to every Ambassador:").format(sender=sender)
    names = [power_name(p, language) for p in request.powers]
    if request.own_council:
        names.insert(
            0, _("the council of {power}").format(power=power_name(member.power, language))
        )
    if request.masters:
        names.append(_("the master"))
    return _("Press from the {sender} to {readers}:").format(
        sender=sender, readers=", ".join(names)
    )


def _delivered(session: MailSession, game: Game, request: PressRequest, count: int) -> str:
    _ = session.gettext
    if request.broadcast:
        return _("Broadcast sent to every Ambassador ({count} readers) and the master.").format(
            count=count
        )
    return _("Press sent: {count} council members read it, and the master.").format(count=count)


def send_observer_press(session: MailSession, command: Press) -> None:
    """An observer's press in a council game: the game's rules as usual, but powers are read by
    their Ambassadors only (a General talks to nobody but his own council, seed 003 rule 1)."""
    from judge.app.game_facts import game_map
    from judge.app.press import echo_lines, header, stored_recipients

    game = session.game
    assert game is not None
    plan = plan_press(command, session)
    real = plan.real
    powers = tuple(game_map(game).powers) if real is None else real.powers
    uow = session.uow
    mails: dict[str, list[str]] = {}
    sent: set[str] = {session.sender.lower()}

    def add(language: str, address: str | None) -> None:
        if address and address.lower() not in sent:
            sent.add(address.lower())
            mails.setdefault(language, []).append(address)

    for member in uow.councils.seated(game):
        if member.power in powers and member.role != "general" and member.status == "active":
            person = uow.councils.person_of(member)
            if person is not None:
                add(person.language, person_address(person))
    everyone_else = audience(
        game,
        powers=(),
        masters=True,
        observers=real is None or real.observers,
        broadcast=real is None,
    )
    for language, addresses in everyone_else.items():
        for address in addresses:
            add(language, address)
    body = command.body.rstrip()
    subject = game_subject(
        session.services.config.code,
        game.name,
        "Broadcast" if real is None else "Press",
        game.current_phase,
    )
    for language, addresses in mails.items():
        text = header(game, plan, language, truth=False) + "\n\n" + body + "\n"
        session.send(Outgoing(tuple(addresses), subject, text, game_id=game.id))
    uow.press.post(
        game, command.body, session.now,
        kind=PressKind.BROADCAST if real is None else PressKind.PRESS,
        sender_role=session.role.value if session.role else "observer", sender_address=session.sender,
        recipients=[] if real is None else stored_recipients(real), grey=plan.grey, mail_in_id=session.mail_id,
    )  # fmt: skip
    session.reply.ok(command.line, *echo_lines(game, plan, session.language), "", body)
