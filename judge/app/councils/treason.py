"""Accusations of treason, the tribunal channel and escapes (seed 003, rules 6 and 8).

* :func:`accuse`: a council member accuses another Ambassador of his
  council, whatever his rank (never the General). The first accusation is told to its author and the
  masters only; the second, from another member, takes effect: the accused
  is cut off (status ``accused``: no council press, no negotiation, no
  vote), and he, his council and the masters are told, with the tribunal
  channel's command.
* :func:`withdraw`: one accuser taking his accusation back rehabilitates the
  accused (rule 6c); before it took effect, it simply takes it back.
* :func:`tribunal`: the accused pleads with his council, and its members
  answer him: each line goes to the accused, the council's active members
  and the masters, never to anyone else.
* :func:`escape`: after a game year under arrest without rehabilitation the
  accused may leave the game or join the waiting list (rule 8), recorded
  on his member row (``extra["waitlist"]``: the powers he may be placed with
  and the first year he may sit again) for the master's replacements.
"""

from __future__ import annotations

from datetime import datetime

from judge.app.audience.council_members import (
    council_readers,
    master_readers,
    member_addresses,
    rule_member,
)
from judge.app.councils.delays import LEFT_PHASE, WAITLIST_KEY, phase_in, waitlist_entry
from judge.app.councils.elections import current_phase, find_member, person_of
from judge.app.game_state.game_facts import power_name
from judge.app.mail_out import outbox
from judge.app.session.services import Services
from judge.core.councils import treason as rules
from judge.core.councils.roles import Channel
from judge.core.phase import Phase
from judge.db.database import UnitOfWork
from judge.db.models import CouncilAccusation, CouncilMember, Game
from judge.i18n import N_, translation
from judge.mail.compose import game_subject

ACCUSED = "accused"
TRIBUNAL_EVENT = "Tribunal"
TREASON_EVENT = "Treason"


class TreasonRefused(Exception):
    """The rules refuse the request; ``reason`` is an English message id with ``{...}`` fields."""

    def __init__(self, reason: str, **fields: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.fields = fields


ACCUSE_REASONS: dict[rules.AccuseRefusal, str] = {
    rules.AccuseRefusal.ACCUSER_NOT_ACTIVE: N_(
        "An accused member may not accuse anyone (councils, rule 6). Nothing was recorded."
    ),
    rules.AccuseRefusal.OTHER_COUNCIL: N_(
        "You may accuse only a member of your own council (councils, rule 6). Nothing was recorded."
    ),
    rules.AccuseRefusal.SELF: N_("You cannot accuse yourself. Nothing was recorded."),
    rules.AccuseRefusal.GENERAL_IMMUNE: N_(
        "The General-in-chief cannot be accused of treason (councils, rule 6a). Nothing was recorded."
    ),
    rules.AccuseRefusal.NOT_SEATED: N_("{member} no longer sits on your council. Nothing was recorded."),
}


ACCUSED_BY = "accused_by"
"""``council_accusations.extra``: every member who accused, in order, those who withdrew too (the final
summary's story names them once the game is over; ``accuser_member_ids`` holds those who still accuse)."""
ARREST_PHASE = "phase"
"""``council_accusations.extra``: the phase in which the accusation took effect (the arrest)."""


def arrest_phase(uow: UnitOfWork, game: Game, accused: CouncilMember) -> Phase | None:
    """When ``accused`` was cut off from his council by his open accusation; None if he is not."""
    accusation = open_accusation(uow, game, accused)
    if accusation is None or not _effective(accusation):
        return None
    extra = accusation.extra or {}
    # an accusation recorded before delays counted in seasons holds its year under "year"
    return phase_in(extra, ARREST_PHASE) or phase_in({"arrest_year": extra.get("year")}, "arrest_phase") or (
        current_phase(game))  # fmt: skip


def open_accusation(uow: UnitOfWork, game: Game, accused: CouncilMember) -> CouncilAccusation | None:
    for accusation in uow.councils.accusations(game, power=accused.power, state="open"):
        if accusation.accused_member_id == accused.id:
            return accusation
    return None


def _effective(accusation: CouncilAccusation) -> bool:
    return bool((accusation.extra or {}).get("effective"))


def _target(uow: UnitOfWork, game: Game, accuser: CouncilMember, word: str) -> CouncilMember:
    target = find_member(uow, game, accuser.power, word)
    if target is None:
        raise TreasonRefused(ACCUSE_REASONS[rules.AccuseRefusal.NOT_SEATED], member=word)
    return target


def accuse(
    uow: UnitOfWork, services: Services, game: Game, accuser: CouncilMember, word: str, now: datetime
) -> tuple[CouncilMember, bool]:
    """Record ``accuser``'s accusation of the member ``word`` names; returns (accused, now in effect)."""
    accused = _target(uow, game, accuser, word)
    refusal = rules.accuse_refusal(rule_member(accuser), rule_member(accused))
    if refusal is not None:
        raise TreasonRefused(ACCUSE_REASONS[refusal], member=word)
    accusation = open_accusation(uow, game, accused)
    if accusation is None:
        accusation = uow.councils.accuse(game, accused.power, accused, [accuser], now)
        accusation.extra = {"effective": False, ACCUSED_BY: [accuser.id]}
    elif accuser.id in accusation.accuser_member_ids:
        raise TreasonRefused(N_("You have already accused {member}. Nothing was recorded."), member=word)
    else:
        accusation.accuser_member_ids = [*accusation.accuser_member_ids, accuser.id]
        ever = list((accusation.extra or {}).get(ACCUSED_BY) or [])
        accusation.extra = {**(accusation.extra or {}), ACCUSED_BY: [*ever, *([accuser.id] if accuser.id not in ever else [])]}
    became_effective = not _effective(accusation) and rules.accusation_effective(accusation.accuser_member_ids)
    if became_effective:
        accusation.extra = {**(accusation.extra or {}), "effective": True, ARREST_PHASE: str(current_phase(game))}
        uow.councils.set_status(accused, ACCUSED)
        _tell(uow, services, game, accused, now, TREASON_EVENT, ACCUSED_NOTICE, include_accused=True)
    else:
        _tell_masters(uow, services, game, now, TREASON_EVENT, FIRST_ACCUSATION_NOTICE, accused)
    uow.flush()
    return accused, became_effective


def withdraw(
    uow: UnitOfWork, services: Services, game: Game, accuser: CouncilMember, word: str, now: datetime
) -> tuple[CouncilMember, bool]:
    """``accuser`` takes his accusation back; returns (accused, rehabilitated)."""
    accused = _target(uow, game, accuser, word)
    accusation = open_accusation(uow, game, accused)
    if accusation is None or accuser.id not in accusation.accuser_member_ids:
        raise TreasonRefused(N_("You have no accusation against {member} to withdraw. Nothing was done."), member=word)
    left, rehabilitated = rules.after_withdrawal(accusation.accuser_member_ids, accuser.id, _effective(accusation))
    accusation.accuser_member_ids = left
    if rehabilitated or not left:
        uow.councils.close_accusation(accusation, "withdrawn", now)
    if rehabilitated:
        uow.councils.set_status(accused, "active")
        _tell(uow, services, game, accused, now, TREASON_EVENT, REHABILITATED_NOTICE, include_accused=True)
    uow.flush()
    return accused, rehabilitated


def tribunal(
    uow: UnitOfWork, services: Services, game: Game, writer: CouncilMember, text: str, now: datetime
) -> CouncilMember:
    """One line of the tribunal channel; returns the accused it concerns."""
    if writer.status == ACCUSED:
        accused = writer
    else:
        on_trial = [m for m in uow.councils.seated(game, power=writer.power) if m.status == ACCUSED]
        if writer.status != "active" or not on_trial:
            raise TreasonRefused(N_("Your council holds no tribunal now. Nothing was sent."))
        accused = on_trial[0]
    author = person_of(uow, writer)
    name = (author.name if author is not None else None) or f"#{writer.id}"
    own = {a.lower() for a in member_addresses(writer, author)}
    for address, language in _audience(uow, game, accused, include_accused=True).items():
        if address.lower() in own:
            continue  # the writer has his reply
        _ = translation(language).gettext
        body = _("Tribunal of {power} ({accused} accused). {writer} writes:\n\n{text}\n").format(
            power=power_name(accused.power, language), accused=_name(uow, accused), writer=name, text=text
        )
        outbox.queue(uow, services, [address], game_subject(services.config.code, game.name, TRIBUNAL_EVENT),
                     body, now, game_id=game.id)  # fmt: skip
    return accused


def escape(
    uow: UnitOfWork, services: Services, game: Game, member: CouncilMember, waitlist: bool, now: datetime
) -> list[str]:
    """The accused escapes (rule 8): leaves the game, or joins the waiting list; returns its powers."""
    accusation = open_accusation(uow, game, member)
    since = arrest_phase(uow, game, member)
    if accusation is None or since is None:
        raise TreasonRefused(N_("Only a member under arrest may escape (councils, rule 8). Nothing was done."))
    refusal = rules.escape_refusal(member.status, since, current_phase(game))
    if refusal is rules.EscapeRefusal.NOT_ARRESTED:
        raise TreasonRefused(N_("Only a member under arrest may escape (councils, rule 8). Nothing was done."))
    if refusal is rules.EscapeRefusal.TOO_SOON:
        raise TreasonRefused(
            N_("You may escape after a full game year under arrest, from the {phase} (councils, rule 8). "
               "Nothing was done."),
            phase=str(rules.a_year_after(since)),
        )
    uow.councils.close_accusation(accusation, "escaped", now)
    member.extra = {**(member.extra or {}), LEFT_PHASE: str(current_phase(game))}
    uow.councils.set_status(member, "left", now)
    powers: list[str] = []
    if waitlist:
        alive = {s.power for s in game.seats if s.power is not None and s.status.value != "eliminated"}
        powers = rules.waitlist_powers(
            former_power=member.power, true_power=member.true_power, reason="escape", alive=alive
        )
        # rule 8: a seat "au minimum un an après son exclusion de l'ancien Conseil", his arrest (rule 6b)
        member.extra = {**(member.extra or {}),
                        WAITLIST_KEY: waitlist_entry(powers, rules.a_year_after(since), "escape", [])}  # fmt: skip
    _tell_masters(uow, services, game, now, TREASON_EVENT,
                  ESCAPED_WAITLIST_NOTICE if waitlist else ESCAPED_LEFT_NOTICE, member)  # fmt: skip
    uow.flush()
    return powers


# ------------------------------------------------------------------ mail

ACCUSED_NOTICE = N_(
    "{accused} is accused of treason by two members of {power}'s council (councils, rule 6b): cut off "
    "from the council and from negotiation, without a vote, until rehabilitated. The accused pleads "
    "with his council by mail: TRIBUNAL <text> (members answer the same way). One accuser taking "
    "his accusation back (ACCUSE WITHDRAW <member>) rehabilitates him."
)
REHABILITATED_NOTICE = N_(
    "{accused} is rehabilitated: an accuser took his accusation back (councils, rule 6c). He sits on "
    "{power}'s council again, with his vote."
)
FIRST_ACCUSATION_NOTICE = N_(
    "A first member of {power}'s council accuses {accused} of treason; a second accuser is needed."
)
ESCAPED_LEFT_NOTICE = N_("{accused} escaped from arrest and left the game (councils, rule 8).")
ESCAPED_WAITLIST_NOTICE = N_(
    "{accused} escaped from arrest and secretly joined the waiting list (councils, rule 8)."
)


def _name(uow: UnitOfWork, member: CouncilMember) -> str:
    person = person_of(uow, member)
    return (person.name if person is not None else None) or f"#{member.id}"


def _masters(game: Game) -> dict[str, str]:
    return {r.address: r.language for r in master_readers(game)}


def _audience(uow: UnitOfWork, game: Game, accused: CouncilMember, *, include_accused: bool) -> dict[str, str]:
    """The council's active members (and the accused, for his tribunal), then the masters."""
    channel = Channel.TRIBUNAL if include_accused else Channel.COUNCIL
    readers = council_readers(game, accused.power, channel, accused=accused.id if include_accused else None)
    audience: dict[str, str] = {}
    for reader in [*readers, *master_readers(game)]:
        audience.setdefault(reader.address, reader.language)
    return audience


def _send(uow: UnitOfWork, services: Services, game: Game, audience: dict[str, str], now: datetime,
          event: str, message: str, accused: CouncilMember) -> None:  # fmt: skip
    subject = game_subject(services.config.code, game.name, event)
    for address, language in audience.items():
        _ = translation(language).gettext
        body = _(message).format(accused=_name(uow, accused), power=power_name(accused.power, language)) + "\n"
        outbox.queue(uow, services, [address], subject, body, now, game_id=game.id)


def _tell(uow: UnitOfWork, services: Services, game: Game, accused: CouncilMember, now: datetime,
          event: str, message: str, *, include_accused: bool) -> None:  # fmt: skip
    _send(uow, services, game, _audience(uow, game, accused, include_accused=include_accused), now, event,
          message, accused)  # fmt: skip


def _tell_masters(uow: UnitOfWork, services: Services, game: Game, now: datetime, event: str, message: str,
                  accused: CouncilMember) -> None:  # fmt: skip
    _send(uow, services, game, _masters(game), now, event, message, accused)
