"""Throttled guessing: failed sign-ons are counted in the database, and guessers are shut out.

Two limits, kept in the database (a restart forgives nothing), set in
:class:`judge.config.Config`:

* per power: after ``signon_power_failures`` failed sign-ons to one power
  of one game in an hour, or ``signon_power_failures_per_day`` in a day
  (whoever sent them, the player's own addresses included: anyone can
  forge those), sign-ons to it are refused for
  ``signon_first_lockout_minutes``, doubled at each new lockout of that
  power, at most ``signon_longest_lockout_hours``. The game's masters and
  the power's player are told once per lockout. Master sign-ons are
  counted the same way (as the power ``master``).
* per sender: after ``signon_sender_failures`` failed sign-ons from one
  address in all games, every sign-on from it is refused.

The player is never shut out by someone else's failures: a refused sign-on
to a power from one of its own player's addresses (his registration's, or
those he set with SET ADDRESS; a master's, for ``master``) gets a one-time
code mailed to that address (:func:`_offer_unlock`), and the same sign-on
sent again with the code after the password passes both limits once. The
mail goes to the address itself, never to a ``Reply-To``, so a forger of
the address never reads it; one code waits at a time per power, so a
forger cannot flood the player with them. A seat not dealt yet (a forming
game's ``SIGNON ?game``) has no unlock: there only the sender's limit holds.

A refused sign-on gets exactly the answer of a wrong password, checked or
not, so a guesser cannot tell a lockout from a miss, or a right password
given during a lockout.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from judge.app.game_state.game_facts import power_letter, power_name
from judge.app.people.claims import new_token, token_hash
from judge.app.session.mail_session import MailSession, Outgoing
from judge.config import Config
from judge.db.enums import AuditKind
from judge.db.models import Game
from judge.db.repositories.people import normalise_address
from judge.i18n import translation
from judge.mail.compose import game_subject, judge_date

WINDOW = timedelta(hours=1)
DAY = timedelta(days=1)
MASTER = "master"
KEPT = DAY  # the longest a failure counts
UNLOCK_LIFETIME = timedelta(days=1)


def power_limit(config: Config) -> int:
    """Failures to one power in :data:`WINDOW` that lock it."""
    return config.signon_power_failures


def power_daily_limit(config: Config) -> int:
    """Failures to one power in :data:`DAY` that lock it."""
    return config.signon_power_failures_per_day


def sender_limit(config: Config) -> int:
    """Failures from one address in :data:`WINDOW` that shut it out."""
    return config.signon_sender_failures


def first_lockout(config: Config) -> timedelta:
    return timedelta(minutes=config.signon_first_lockout_minutes)


def longest_lockout(config: Config) -> timedelta:
    return timedelta(hours=config.signon_longest_lockout_hours)


def window_start(session: MailSession) -> datetime:
    """Failed sign-ons after then count: a failure made at ``now - WINDOW`` has just left the window."""
    return session.now - WINDOW


def refused(
    session: MailSession, game: Game | None, power: str | None, holders: Iterable[str],
    known: tuple[int, datetime | None] | None = None, unlock: str | None = None,
) -> bool:
    """Whether this sign-on is refused unchecked: the one gate of every sign-on path (power,
    master, council member, rejoin, unknown game or power).

    Refused when the sender has ``signon_sender_failures`` failures or more in the window (in
    every game), or when ``power`` of ``game`` is locked, unless the sender is one of
    ``holders`` (the addresses of the power's player) and gives the power's unlock code: then
    the code is used up and the password checked. A holder without the code is mailed one.
    ``game``/``power`` None: no such game or power (or a seat not dealt yet), only the
    sender's failures count. ``known``: both figures as read already in this transaction
    (``SeatRepository.by_power_and_throttle``): no query."""
    sender = normalise_address(session.sender)
    if known is None:
        known = session.uow.seats.failures_and_lockout(sender, window_start(session), game, power)
    failures, until = known
    shut_out = failures >= sender_limit(session.services.config)
    locked = game is not None and power is not None and until is not None and until > session.now
    if not shut_out and not locked:
        return False
    if game is None or power is None or sender not in {normalise_address(a) for a in holders}:
        return True
    if unlock is not None and _use_unlock(session, game, power, unlock):
        return False
    _offer_unlock(session, game, power, sender)
    return True


def _use_unlock(session: MailSession, game: Game, power: str, code: str) -> bool:
    """Whether ``code`` is the power's waiting unlock code; it is used up if so."""
    waiting = session.uow.seats.unlock_waiting(game, power, session.now)
    if waiting is None or waiting.token_hash != token_hash(code):
        return False
    waiting.used_at = session.now
    session.uow.flush()
    return True


def _offer_unlock(session: MailSession, game: Game, power: str, address: str) -> None:
    """Mail a one-time unlock code to ``address`` (one of the power's player's), unless one waits."""
    uow = session.uow
    if uow.seats.unlock_waiting(game, power, session.now) is not None:
        return
    uow.seats.purge_unlocks(session.now - KEPT)
    code = new_token()
    unlock = uow.seats.add_unlock(game, power, token_hash(code), address, session.now, UNLOCK_LIFETIME)
    config = session.services.config
    _ = session.gettext
    letter = "M" if power == MASTER else power_letter(game, power)
    who = _("the master") if power == MASTER else power_name(power, session.language)
    lines = [
        _(
            "A sign-on as {who} in game '{game}' came from this address while sign-ons there are "
            "refused: too many wrong passwords were given, maybe by someone who forged this address. "
            "If it was you, send your sign-on again from this address with this code after the "
            "password; it works once, until {date}:"
        ).format(who=who, game=game.name, date=judge_date(unlock.expires_at, config.timezone)),
        "",
        f"SIGNON {letter}{game.name} <password> {code}",
        "",
        _("If it was not you, do nothing; if your password may be known, change it with SET PASSWORD."),
    ]
    subject = game_subject(config.code, game.name, f"Sign-on Unlock: {letter}", game.current_phase)
    session.send(Outgoing((address,), subject, "\n".join(lines) + "\n", game_id=game.id))


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
    config = session.services.config
    sender = normalise_address(session.sender)
    uow.seats.purge_failures(session.now - KEPT)  # the counts look back an hour; a day is plenty
    uow.seats.record_failure(sender, session.now, game=game, power=power)
    if game is None or power is None:
        return
    if (
        uow.seats.failures_for_power(game, power, window_start(session)) < power_limit(config)
        and uow.seats.failures_for_power(game, power, session.now - DAY) < power_daily_limit(config)
    ):
        return
    lock = uow.seats.lockout(game, power)
    if lock is not None and lock.until > session.now:
        return
    lock = uow.seats.lock(game, power, session.now, first_lockout(config), longest_lockout(config))
    uow.audit.record(
        AuditKind.SETTING, session.now, game=game, actor=sender, setting="signon_lockout",
        new_value=power, detail=f"until {lock.until.isoformat()} after too many failures",
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
            "Sign-ons as {who} in game '{game}' are refused until {date}: too many wrong passwords "
            "were given. The player can still sign on: a sign-on from one of his own addresses is "
            "mailed a one-time code that lets it through. If the password may be known, change it "
            "with SET PASSWORD."
        ).format(who=who, game=game.name, date=judge_date(until, config.timezone))
        session.send(Outgoing((address,), subject, body + "\n", game_id=game.id))
