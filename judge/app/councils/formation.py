"""Forming the councils at the start of a council game, and drawing the spies (seed 003, rules 1-2).

The players join a council game like any other (``SIGNON ?game pw``), the
game wanting ``size`` players per power (SET COUNCILS). At the start:

1. **Councils** are dealt with the judge's own power assignment
   (:func:`judge.app.game_state.assignment.assign_powers`), each power offered as
   ``size`` places: a player's preference list ranks the places of a power
   as it ranks the power, and players without a preference are placed at
   random. With no preferences at all (the seed's "réunis au hasard") the
   councils are a pure random draw.
2. In each council the members are put in a random order: the first is the
   provisional General-in-chief (rank 0) until the council's first
   election, the others its Ambassadors (ranks 1, 2...).
3. **Spies** are drawn (:func:`judge.core.councils.spies.draw_spies`): one
   per council, each secretly working for another power.

Everything comes from one seed drawn from the start's random generator and
recorded in ``games.extra_settings["councils"]["seed"]``, so
:func:`form_councils` replays the very same councils and spies from it.

Each member keeps the password they joined with as their own council
password. One :class:`~judge.db.models.Seat` per power stays: the power's
seat for orders and the game's bookkeeping, first held by the provisional
General; its mail goes to no seat address but to each member who may read
it, each alone (:mod:`judge.app.audience.council_members`). The other members'
joining seats are removed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from judge.app.audience.council_members import Reader, master_readers, member_readers
from judge.app.game_state.assignment import Preference, assign_powers
from judge.app.game_state.game_facts import power_letter, power_name
from judge.app.game_state.setting_table import END_YEAR_KEY
from judge.app.mail_out.press_rules import council_role_text
from judge.app.session.mail_session import MailSession, Outgoing
from judge.app.session.readers import person_address
from judge.core.councils.roles import AMBASSADOR, GENERAL
from judge.core.councils.spies import draw_spies
from judge.db.database import UnitOfWork
from judge.db.models import CouncilMember, Game, Person, Seat
from judge.db.repositories.councils import SETTINGS_KEY, council_settings
from judge.i18n import N_, translation
from judge.mail.compose import game_subject

SLOT_SEPARATOR = "#"
SCORING_KEY = "scoring"
"""``extra_settings`` key of the scoring system (as judge.app.games.endgame reads it)."""


@dataclass(frozen=True)
class FormedCouncils:
    """What the formation did: each power's members (seat ids, General first) and the seed."""

    councils: dict[str, tuple[int, ...]]
    seed: int


def _slots(powers: Sequence[str], size: int) -> list[str]:
    return [f"{power}{SLOT_SEPARATOR}{k}" for power in powers for k in range(size)]


def _expand(preference: Preference, size: int, powers: Sequence[str]) -> Preference:
    """A player's wishes for powers as wishes for the places of those powers.

    The powers a player named keep their order, every place of each; the
    others (all of them for a player without wishes) follow in layers, the
    first places of every council before the second ones, so that with
    fewer players than places (FORCE BEGIN) the councils fill evenly.
    """
    groups = [] if preference.random_order else [
        frozenset(f"{power}{SLOT_SEPARATOR}{k}" for power in group for k in range(size))
        for group in preference.groups
    ]  # fmt: skip
    named = {
        power for group in ([] if preference.random_order else preference.groups) for power in group
    }
    rest = [power for power in powers if power not in named]
    for k in range(size):
        if rest:
            groups.append(frozenset(f"{power}{SLOT_SEPARATOR}{k}" for power in rest))
    return Preference(groups=tuple(groups))


def deal_councils(
    preferences: Mapping[int, Preference], powers: Sequence[str], size: int, seed: int
) -> FormedCouncils:
    """Which seat sits on which council, General first; a pure function of its arguments."""
    rng = random.Random(seed)
    slots = _slots(powers, size)
    deal = assign_powers(
        {seat: _expand(preferences[seat], size, powers) for seat in sorted(preferences)}, slots, rng
    )
    councils: dict[str, list[int]] = {}
    for seat_id, slot in sorted(deal.items()):
        councils.setdefault(slot.split(SLOT_SEPARATOR)[0], []).append(seat_id)
    ordered: dict[str, tuple[int, ...]] = {}
    for power in powers:
        members = sorted(councils.get(power, []))
        rng.shuffle(members)
        if members:
            ordered[power] = tuple(members)
    return FormedCouncils(ordered, seed)


def form_councils(
    uow: UnitOfWork,
    game: Game,
    seats: Sequence[Seat],
    preferences: Mapping[int, Preference],
    powers: Sequence[str],
    seed: int,
    now: datetime,
    *,
    first_year: int | None = None,
) -> dict[int, str]:
    """Create the councils and spies of a starting game; return the seats that hold powers.

    Returns ``{seat id: power}`` for the one seat kept per power (its
    General's); :func:`judge.app.games.lifecycle.start_game` assigns those like any
    deal. Powers nobody sits on are left out (the start leaves them open).
    """
    settings = council_settings(game)
    assert settings is not None
    size = int(settings["size"])
    formed = deal_councils(preferences, powers, size, seed)
    by_id = {seat.id: seat for seat in seats}
    kept: dict[int, str] = {}
    member_ids: dict[str, list[int]] = {}
    for power, seat_ids in formed.councils.items():
        for rank, seat_id in enumerate(seat_ids):
            seat = by_id[seat_id]
            member = uow.councils.add_member(
                game, power, seat.person, now,
                role=GENERAL if rank == 0 else AMBASSADOR, rank=rank,
                password_hash=seat.password_hash, extra={"joined_seat": seat_id},
            )  # fmt: skip
            member_ids.setdefault(power, []).append(member.id)
        general_seat = by_id[seat_ids[0]]
        general_seat.report_address = ""  # a council's mail is each member's (councils.audience)
        kept[general_seat.id] = power
        for seat_id in seat_ids[1:]:
            seat = by_id[seat_id]
            if seat.person is not None:
                uow.people.add_to_record(seat.person, games_started=1)
            game.seats.remove(seat)
    spies_seed = random.Random(seed).getrandbits(63)
    for spy in draw_spies(member_ids, spies_seed):
        spy_member = uow.councils.member(spy.member)
        assert spy_member is not None
        spy_member.true_power = spy.true_power
    extra = {
        **game.extra_settings,
        SETTINGS_KEY: {**game.extra_settings.get(SETTINGS_KEY, {}), "seed": seed, "formed": True},
    }
    extra.setdefault(
        SCORING_KEY, "c-diplo"
    )  # seed 003, rule 9: scored by C-Diplo unless SET SCORING said
    years = settings.get("years")
    if years and first_year is not None and not extra.get(END_YEAR_KEY):
        # seed 003, rule 10: "La partie sera jouée en 7 ans" -- the house rule SET END YEAR ends it
        extra[END_YEAR_KEY] = first_year + int(years) - 1
    game.extra_settings = extra
    uow.flush()
    return kept


# -- telling each member their place, the spies their mission, the master everything ----------------


def role_text(member: CouncilMember, language: str) -> str:
    return council_role_text(member.role, member.rank, language)


ALONE = N_(
    "You sit alone on this council (the game began short of players): you are both its General-in-chief "
    "and its Ambassador. You order for {power} and negotiate with the other powers' Ambassadors; their "
    "press to {power} reaches you."
)


def queue_council_notices(session: MailSession, game: Game) -> None:
    """One private mail per member (their council and role; a spy alone learns their mission),
    and the whole picture, spies included, to each master."""
    uow = session.uow
    members = uow.councils.members(game)
    by_power: dict[str, list[CouncilMember]] = {}
    for member in members:
        by_power.setdefault(member.power, []).append(member)
    people = {
        p.id: p
        for p in (uow.people.get(m.person_id) for m in members if m.person_id)
        if p is not None
    }
    for member in members:
        for reader in member_readers(game, member):  # his own address, his language (the audience decides)
            _queue_own_notice(session, game, member, by_power, people, reader)
    _queue_master_notice(session, game, by_power, people)


def _queue_own_notice(
    session: MailSession, game: Game, member: CouncilMember, by_power: dict[str, list[CouncilMember]],
    people: dict[int, Person], reader: Reader,
) -> None:
    """One member's *Your council* mail: his council and role; a spy alone learns his mission."""
    config = session.services.config
    language = reader.language
    address = reader.address
    _ = translation(language).gettext
    lines = [
        _(
            "Game '{game}' is played by councils. You sit on the council of {power} as its {role}."
        ).format(
            game=game.name,
            power=power_name(member.power, language),
            role=role_text(member, language),
        ),
        "",
        _("Your council:"),
    ]
    for fellow in by_power[member.power]:
        fellow_person = people.get(fellow.person_id or 0)
        lines.append(
            f"   {role_text(fellow, language)}: {person_address(fellow_person) or '-'}"
        )
    lines += [
        "",
        _(
            "Sign on with SIGNON {letter}{game} followed by the password you joined with."
        ).format(letter=power_letter(game, member.power), game=game.name),
    ]
    if len(by_power[member.power]) == 1:
        lines += ["", _(ALONE).format(power=power_name(member.power, language))]
    if member.true_power is not None:
        lines += [
            "",
            _(
                "SECRET: you are a spy. You really play for {true}; your aim is the victory of {true}, "
                "whatever becomes of {power}. Nobody but you and the master knows it."
            ).format(
                true=power_name(member.true_power, language),
                power=power_name(member.power, language),
            ),
        ]
    subject = game_subject(config.code, game.name, _("Your council"), game.current_phase)
    session.send(Outgoing((address,), subject, "\n".join(lines) + "\n", game_id=game.id))


def _queue_master_notice(
    session: MailSession, game: Game, by_power: dict[str, list[CouncilMember]], people: dict[int, Person]
) -> None:
    """The whole picture, spies included, to each master alone."""
    config = session.services.config
    for reader in master_readers(game):  # each master alone, in his language (the audience decides)
        address, language = reader.address, reader.language
        _ = translation(language).gettext
        lines = [
            _("The councils of game '{game}', spies included (for the master only):").format(
                game=game.name
            )
        ]
        for power, council in by_power.items():
            lines += ["", power_name(power, language) + ":"]
            for member in council:
                person = people.get(member.person_id or 0)
                note = ""
                if member.true_power is not None:
                    note = "  " + _("SPY for {true}").format(
                        true=power_name(member.true_power, language)
                    )
                lines.append(
                    f"   {role_text(member, language)}: {person_address(person) or '-'}{note}"
                )
        subject = game_subject(config.code, game.name, _("Councils and spies"), game.current_phase)
        session.send(Outgoing((address,), subject, "\n".join(lines) + "\n", game_id=game.id))
