"""Throttled guessing: failed sign-ons are counted in the database, and guessers are shut out.

Two limits, both over the last hour and both kept in the database (a
restart forgives nothing):

* per power: after :data:`POWER_LIMIT` failed sign-ons to one power of one
  game (whoever sent them), sign-ons to it are refused for
  :data:`FIRST_LOCKOUT`, doubled at each new lockout of that power, at
  most :data:`LONGEST_LOCKOUT`. The power's player is not shut out: a
  sign-on from one of the addresses of the seat's own player (their
  registration's, or those they set with SET ADDRESS) is still checked
  normally. The game's masters and the power's player are told once per
  lockout. Master sign-ons are counted the same way (as the power
  ``master``), the masters' own addresses excepted.
* per sender: after :data:`SENDER_LIMIT` failed sign-ons from one address
  in all games, every sign-on from it is refused. This limit has no
  exception (a forged From line must not give unlimited guesses at that
  person's own password): at worst it shuts a player out for an hour.

A refused sign-on gets exactly the answer of a wrong password, checked or
not, so a guesser cannot tell a lockout from a miss, or a right password
given during a lockout.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from judge.app.game_facts import power_letter, power_name
from judge.app.session import MailSession, Outgoing
from judge.db.enums import AuditKind
from judge.db.models import Game
from judge.db.repositories.people import normalise_address
from judge.i18n import translation
from judge.mail.compose import game_subject, judge_date

WINDOW = timedelta(hours=1)
POWER_LIMIT = 5
SENDER_LIMIT = 10
FIRST_LOCKOUT = timedelta(hours=1)
LONGEST_LOCKOUT = timedelta(days=2)
MASTER = "master"
KEPT = timedelta(days=1)


def window_start(session: MailSession) -> datetime:
    """Failed sign-ons after then count: a failure made at ``now - WINDOW`` has just left the window."""
    return session.now - WINDOW


def refused(
    session: MailSession, game: Game | None, power: str | None, holders: Iterable[str],
    known: tuple[int, datetime | None] | None = None,
) -> bool:
    """Whether this sign-on is refused unchecked: the one gate of every sign-on path (power,
    master, council member, rejoin, unknown game or power).

    Refused when the sender has :data:`SENDER_LIMIT` failures or more in the window (in every
    game), or when ``power`` of ``game`` is locked and the sender is not one of ``holders``
    (the player's addresses). ``game``/``power`` None: no such game or power (or a seat not
    dealt yet), only the sender's failures count. ``known``: both figures as read already in
    this transaction (``SeatRepository.by_power_and_throttle``): no query."""
    sender = normalise_address(session.sender)
    if known is None:
        known = session.uow.seats.failures_and_lockout(sender, window_start(session), game, power)
    failures, until = known
    if failures >= SENDER_LIMIT:
        return True
    if game is None or power is None or until is None or until <= session.now:
        return False
    return sender not in {normalise_address(a) for a in holders}


def count_failure(
    session: MailSession,
    game: Game | None,
    power: str | None,
    told: Iterable[tuple[str, str]] = (),
) -> None:
    """Record a failed sign-on; lock the power when it has failed too often.

    ``told``: (address, language) of the power's player, who hears of a
    lockout with the game's masters.
    """
    uow = session.uow
    sender = normalise_address(session.sender)
    uow.seats.purge_failures(session.now - KEPT)  # the counts look back an hour; a day is plenty
    uow.seats.record_failure(sender, session.now, game=game, power=power)
    if game is None or power is None:
        return
    if uow.seats.failures_for_power(game, power, window_start(session)) < POWER_LIMIT:
        return
    lock = uow.seats.lockout(game, power)
    if lock is not None and lock.until > session.now:
        return
    lock = uow.seats.lock(game, power, session.now, FIRST_LOCKOUT, LONGEST_LOCKOUT)
    uow.audit.record(
        AuditKind.SETTING, session.now, game=game, actor=sender, setting="signon_lockout",
        new_value=power, detail=f"until {lock.until.isoformat()} after {POWER_LIMIT} failures in an hour",
    )  # fmt: skip
    _tell(session, game, power, lock.until, told)


def _tell(
    session: MailSession, game: Game, power: str, until: datetime, told: Iterable[tuple[str, str]]
) -> None:
    config = session.services.config
    letter = "M" if power == MASTER else power_letter(game, power)
    subject = game_subject(config.code, game.name, f"Sign-on Lockout: {letter}", game.current_phase)
    readers: dict[str, str] = {}
    for master in game.masters:
        if master.person is not None and master.person.primary_address:
            readers.setdefault(master.person.primary_address, master.person.language)
    for address, language in told:
        readers.setdefault(address, language)
    for address, language in readers.items():
        _ = translation(language).gettext
        who = _("the master") if power == MASTER else power_name(power, language)
        body = _(
            "Sign-ons as {who} in game '{game}' are refused until {date}: {count} wrong passwords "
            "were given in an hour. The player's own addresses can still sign on. If the password "
            "may be known, change it with SET PASSWORD."
        ).format(
            who=who, game=game.name, date=judge_date(until, config.timezone), count=POWER_LIMIT
        )
        session.send(Outgoing((address,), subject, body + "\n", game_id=game.id))
