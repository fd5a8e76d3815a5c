"""The master's hand on a council game's waits (seed 003, rules 4 and 5): COUNCIL CLOSE and COUNCIL SHORTEN.

* :func:`close_now` closes open elections at once (all, or one power's):
  each council is told the master closed it, and gets its result as at a
  deadline; when the last election the next phase waits for closes, the
  phase starts at once and every player is told
  (:func:`judge.app.councils.elections.close`).
* :func:`shorten` brings the end of every wait forward to no later than
  ``hours`` from now: the open elections' deadlines and the grace of a
  missed release (with the phase's deadline, which is the grace's end).
  Every player and the master are told the new times; nothing ever moves
  later.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy.orm.attributes import flag_modified

from judge.app.councils import elections
from judge.app.councils.elections import RELEASE_KEY, mail_council, tell_players
from judge.app.session.services import Services
from judge.db.database import UnitOfWork
from judge.db.models import Game
from judge.i18n import N_

CLOSED_BY_MASTER = N_("The master closes {power}'s election now, before its deadline (councils, rule 4).")
WAIT_SHORTENED = N_(
    "The master shortens the councils' wait in {phase}: the open elections close, and the grace of "
    "orders not released ends, by {until} (councils, rules 4 and 5)."
)


def close_now(uow: UnitOfWork, services: Services, game: Game, now: datetime, power: str | None) -> list[str]:
    """Close the open elections (of ``power`` only, if given) now; returns the powers whose election closed."""
    closed = []
    for election in uow.councils.open_elections(game, power=power):
        mail_council(uow, services, game, election.power, now, CLOSED_BY_MASTER)
        elections.close(uow, services, game, election, now)
        closed.append(election.power)
    return closed


def shorten(uow: UnitOfWork, services: Services, game: Game, now: datetime, hours: int) -> datetime | None:
    """Every wait of the councils ends by ``now + hours``; returns that moment, or None if nothing waited."""
    until = now + timedelta(hours=hours)
    moved = False
    for election in uow.councils.open_elections(game):
        if _aware(election.deadline_at) > until:
            election.deadline_at = until
            moved = True
    state = (game.extra_settings or {}).get(RELEASE_KEY)
    in_grace = isinstance(state, dict) and state.get("grace") and state.get("phase") == game.current_phase
    if in_grace and isinstance(state, dict) and datetime.fromisoformat(str(state["until"])) > until:
        game.extra_settings = {**(game.extra_settings or {}), RELEASE_KEY: {**state, "until": until.isoformat()}}
        flag_modified(game, "extra_settings")
        game.deadline_at = game.grace_at = until
        moved = True
    if not moved:
        return None
    tell_players(uow, services, game, now, WAIT_SHORTENED, until=until)
    uow.flush()
    return until


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
