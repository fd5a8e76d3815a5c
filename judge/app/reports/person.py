"""A person as WHOIS, INFOPLAYER and WHOGAME show them: the registration and the dedication record.

The registration is written with the REGISTER keywords (``Name:``,
``Country:``...), in English whatever the reader's language, because they are
the form's keywords: a player can put ``REGISTER`` above their own WHOIS
record and ``END`` below it, change a line and send it back, as with the
Judge.

Privacy (our choice, the Judge showed everything): the phone number, the
postal address, the birth date, the sex and any extra keywords are shown only
to the person themself. Everyone sees the name, addresses, site, country,
time zone, level and language: what is needed to know who one plays with.

The dedication record is the Judge's reliability record (§6): points, turns
due, on time and late, games started and taken over, abandonments, civil
disorders, and the two ratios games may require at sign-on, computed by
:class:`judge.timekeeping.dedication.PlayerRecord` so that they are the very
figures a sign-on is checked against.
"""

from __future__ import annotations

from judge.app.game_state.game_facts import is_gunboat, power_name
from judge.db.database import UnitOfWork
from judge.db.enums import GameState, SeatStatus
from judge.db.models import Person
from judge.i18n import Gettext
from judge.timekeeping.dedication import PlayerRecord

LEVELS: tuple[str, ...] = ("novice", "amateur", "intermediate", "advanced", "expert")
"""The Judge's player levels, lower case as stored."""


def player_record(person: Person) -> PlayerRecord:
    """The person's counters as the dedication rules read them."""
    return PlayerRecord(
        dedication=person.dedication,
        turns_due=person.turns_due,
        turns_on_time=person.turns_on_time,
        games_started=person.games_started,
        takeovers=person.takeovers,
        civil_disorders=person.civil_disorders,
        abandonments=person.abandonments,
    )


def addresses_of(person: Person) -> list[str]:
    """The person's addresses, the primary one first."""
    primary = person.primary_address
    others = [a.address for a in person.addresses if a.address != primary]
    return ([primary] if primary else []) + others


def registration_lines(person: Person, *, private: bool) -> list[str]:
    """The REGISTER form of ``person``; ``private`` adds what only they may see."""
    lines = [f"Name:      {person.name}", f"Email:     {', '.join(addresses_of(person))}"]
    if private and person.phone:
        lines.append(f"Phone:     {person.phone}")
    if person.site:
        lines.append(f"Site:      {person.site}")
    if private and person.postal_address:
        lines.append(f"Address:   {person.postal_address}")
    if person.country:
        lines.append(f"Country:   {person.country}")
    if person.time_zone:
        lines.append(f"Timezone:  {person.time_zone}")
    lines.append(f"Level:     {person.level.capitalize()}")
    if private and person.birth_date is not None:
        lines.append(f"Birthdate: {person.birth_date.isoformat()}")
    if private and person.sex:
        lines.append(f"Sex:       {person.sex}")
    lines.append(f"Language:  {person.language}")
    if private:
        lines.append(f"Package:   {'yes' if person.wants_package else 'no'}")
        for key, value in sorted((person.extra or {}).items()):
            if ":" not in key:  # the judge's own notes (judge.app.session.readers.LANGUAGE_CHOSEN), not the form's
                lines.append(f"{key}: {value}")
    return lines


def dedication_lines(person: Person, _: Gettext) -> list[str]:
    """The dedication record, in the reader's language."""
    record = player_record(person)
    return [
        _("Dedication: {points} points.").format(points=record.dedication),
        _("Turns due: {due}, on time: {on_time}, late: {late}.").format(
            due=person.turns_due, on_time=person.turns_on_time, late=person.turns_late
        ),
        _(
            "Games started: {started}, taken over: {takeovers}, abandoned: {abandoned}, "
            "civil disorders: {cd}, resigned: {resigned}."
        ).format(
            started=person.games_started,
            takeovers=person.takeovers,
            abandoned=person.abandonments,
            cd=person.civil_disorders,
            resigned=person.resignations,
        ),
        _("On-time ratio: {ontime:.2f}   CD ratio: {cd:.2f}").format(
            ontime=record.on_time_ratio, cd=record.civil_disorder_ratio
        ),
    ]


def current_games_lines(uow: UnitOfWork, person: Person, language: str, _: Gettext) -> list[str]:
    """The games the person plays now, power by power; gunboat games are left out (no one may know)."""
    lines: list[str] = []
    for seat in uow.seats.for_person(person):
        game = seat.game
        if is_gunboat(game) or game.state in (GameState.FINISHED, GameState.TERMINATED):
            continue
        if seat.status not in (SeatStatus.PLAYING, SeatStatus.WAITING):
            continue
        if seat.power is None:
            lines.append(_("  {game}: waiting for the game to start").format(game=game.name))
        else:
            lines.append(
                _("  {game}: {power}").format(game=game.name, power=power_name(seat.power, language))
            )
    if not lines:
        return [_("Playing in no game at present.")]
    return [_("Playing now:"), *lines]


def whois_record(person: Person, _: Gettext, *, private: bool) -> list[str]:
    """What WHOIS shows of one person: the form, then the dedication record."""
    return [*registration_lines(person, private=private), *dedication_lines(person, _)]
