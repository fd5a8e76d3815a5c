"""Press in a council game: who reads what a council member writes (seed 003, rules 1 and 3).

``PRESS TO <own letter>`` is the council's private room (the General and
his Ambassadors); ``PRESS TO <other letters>`` goes from an Ambassador to
the Ambassadors of those powers (all of them for one power; for several,
one Ambassador per nation in the multi-party room: the one of each nation
who last wrote in that room, the first by rank until one has, so that a
nation's Ambassadors share the rooms out among themselves);
``BROADCAST`` reaches every Ambassador (the seed's common room) and the
observers who take broadcasts. A General may write only to his own
council; the master may always be written to, and gets a copy of
everything. Generals never read other powers' press, but for the member
of a council of one, its General and its Ambassador at once
(:func:`judge.core.councils.roles.negotiators`). The game's press
settings (no press, no partial press...) apply to press between powers.

Every reader gets his own mail, to him alone and in his language
(:mod:`judge.app.audience.council_members`); the sender gets only his reply.
"""

from __future__ import annotations

from collections.abc import Callable

from judge.app.audience.council_members import (
    Reader,
    master_readers,
    member_addresses,
    person_of,
    readers_of,
    rule_member,
)
from judge.app.councils.permissions import press_refusal
from judge.app.game_state.game_facts import audience, power_letter
from judge.app.game_state.variant_rules import game_map_of
from judge.app.mail_out.press_rules import (
    council_header_text,
    echo_lines,
    header,
    plan_press,
    resolve,
    stored_recipients,
)
from judge.app.session.mail_session import MailSession, Outgoing
from judge.app.session.refusals import CommandRefused
from judge.core.councils.roles import Member, PressRequest, negotiators, press_readers, room_key
from judge.db.enums import PressKind
from judge.db.models import CouncilMember, Game
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
    member = session.council_member
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
        councils.setdefault(row.power, []).append(rule_member(row))
    multi_party = not request.broadcast and len(request.powers) > 1
    room = room_key(member.power, request.powers) if multi_party else None
    readers = press_readers(rule_member(member), request, councils, _holders(game, room))
    if room is not None:
        _take_seat(game, room, member)
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
    everyone = readers_of(game, [rows[reader.id] for reader in readers])
    if request.broadcast:
        everyone += [
            Reader(address, language)
            for language, addresses in audience(game, powers=(), masters=False, broadcast=True).items()
            for address in addresses
        ]  # the observers who take broadcasts
    everyone += master_readers(game)
    _mail_each(session, game, everyone, subject, lambda language: _header(member, request, language), body)
    uow.press.post(
        game, command.body, session.now,
        kind=PressKind.BROADCAST if request.broadcast else PressKind.PRESS,
        sender_seat=session.seat, sender_role="power", sender_address=session.sender,
        recipients=_recipients(member, request), mail_in_id=session.mail_id,
        council_role=member.role, council_rank=member.rank,
    )  # fmt: skip
    session.reply.ok(command.line, _delivered(session, game, request, len(readers)), "", body)


ROOMS_KEY = "council_rooms"
"""``games.extra_settings`` key: each multi-party room's seat holders, ``{"ENGLAND,FRANCE,GERMANY":
{"ENGLAND": member id, ...}}`` (the Ambassador of each nation who last wrote there)."""


def _holders(game: Game, room: str | None) -> dict[str, int]:
    rooms = (game.extra_settings or {}).get(ROOMS_KEY)
    if room is None or not isinstance(rooms, dict) or not isinstance(rooms.get(room), dict):
        return {}
    return {str(power): int(member) for power, member in rooms[room].items()}


def _take_seat(game: Game, room: str, member: CouncilMember) -> None:
    """The Ambassador who writes in a multi-party room sits in it for his nation (seed 003, rule 3:
    a nation's Ambassadors share the rooms out among themselves)."""
    from sqlalchemy.orm.attributes import flag_modified

    rooms = dict((game.extra_settings or {}).get(ROOMS_KEY) or {})
    rooms[room] = {**_holders(game, room), member.power: member.id}
    game.extra_settings = {**(game.extra_settings or {}), ROOMS_KEY: rooms}
    flag_modified(game, "extra_settings")


def _mail_each(
    session: MailSession, game: Game, readers: list[Reader], subject: str, header: Callable[[str], str], body: str
) -> None:
    """One mail per reader, to him alone, in his language; never back to the sender, nobody twice."""
    sent: set[str] = {session.sender.lower()}
    member = session.council_member
    if member is not None:
        sent |= {a.lower() for a in member_addresses(member, person_of(game, member))}
    texts: dict[str, str] = {}
    for reader in readers:
        if reader.address.lower() in sent:
            continue
        sent.add(reader.address.lower())
        if reader.language not in texts:
            texts[reader.language] = header(reader.language) + "\n\n" + body + "\n"
        session.send(Outgoing((reader.address,), subject, texts[reader.language], game_id=game.id))


def _recipients(member: CouncilMember, request: PressRequest) -> list[str]:
    """The press as stored: empty for a broadcast, else the council's own power (its room), the
    other powers, ``M`` for the master; :func:`council_header_text` reads the header back from it."""
    if request.broadcast:
        return []
    return [
        *([member.power] if request.own_council else []), *request.powers,
        *([MASTER_LETTER] if request.masters else []),
    ]  # fmt: skip


def _header(member: CouncilMember, request: PressRequest, language: str) -> str:
    return council_header_text(
        language, role=member.role, rank=member.rank, power=member.power,
        recipients=None if request.broadcast else _recipients(member, request),
    )  # fmt: skip


def _delivered(session: MailSession, game: Game, request: PressRequest, count: int) -> str:
    _ = session.gettext
    if request.broadcast:
        return _("Broadcast sent to every Ambassador ({count} readers) and the master.").format(
            count=count
        )
    return _("Press sent: {count} council members read it, and the master.").format(count=count)


def send_observer_press(session: MailSession, command: Press) -> None:
    """An observer's press in a council game: the game's rules as usual, but powers are read by
    their Ambassadors only (a General talks to nobody but his own council, seed 003 rule 1; a council
    of one is read by its member, :func:`judge.core.councils.roles.negotiators`)."""
    game = session.game
    assert game is not None
    plan = plan_press(command, session)
    real = plan.real
    powers = tuple(game_map_of(game).powers) if real is None else real.powers
    uow = session.uow
    seated = [m for m in uow.councils.seated(game) if m.power in powers]
    rows = {m.id: m for m in seated}
    by_power: dict[str, list[Member]] = {}
    for row in seated:
        by_power.setdefault(row.power, []).append(rule_member(row))
    ambassadors = [rows[m.id] for power in powers for m in negotiators(by_power.get(power, []))]
    everyone = readers_of(game, ambassadors)
    everyone += [
        Reader(address, language)
        for language, addresses in audience(
            game, powers=(), masters=True, observers=real is None or real.observers, broadcast=real is None
        ).items()
        for address in addresses
    ]
    body = command.body.rstrip()
    subject = game_subject(
        session.services.config.code,
        game.name,
        "Broadcast" if real is None else "Press",
        game.current_phase,
    )
    _mail_each(session, game, everyone, subject, lambda language: header(game, plan, language, truth=False), body)
    uow.press.post(
        game, command.body, session.now,
        kind=PressKind.BROADCAST if real is None else PressKind.PRESS,
        sender_role=session.role.value if session.role else "observer", sender_address=session.sender,
        recipients=[] if real is None else stored_recipients(real), grey=plan.grey, mail_in_id=session.mail_id,
    )  # fmt: skip
    session.reply.ok(command.line, *echo_lines(game, plan, session.language), "", body)
