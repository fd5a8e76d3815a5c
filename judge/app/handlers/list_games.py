"""LIST [FULL | game]: the games, one line each; or one game's full report.

* ``LIST``: before sign-on, the public (listed) games that are forming or
  under way, plus the sender's own games (marked ``*``) whether listed or
  not; after a sign-on, the report of the game signed on to (the Judge's way);
* ``LIST game``: that game's report; an unlisted game is shown to whoever
  knows its name, as in the Judge (unlisting hides a game from the brief
  list, not from those invited to it);
* ``LIST FULL``: the report of every game of the brief list.

In a gunboat game addresses are shown only to the game's master signed on
as master.
"""

from __future__ import annotations

from sqlalchemy import select

from judge.app.audience.blind_view import session_view
from judge.app.reports.listing import SHOWN_IN_BRIEF_LIST, brief_list, game_report, publicly_listed
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.models import Game, GameMaster, GameObserver
from judge.db.repositories.people import normalise_address
from judge.lang.commands import ListGames


def own_game_ids(session: MailSession) -> set[int]:
    """Games the sender plays in, masters or observes."""
    uow = session.uow
    ids: set[int] = set()
    person = session.person
    if person is not None:
        ids.update(seat.game_id for seat in uow.seats.for_person(person))
        ids.update(uow.session.scalars(select(GameMaster.game_id).where(GameMaster.person_id == person.id)))
    ids.update(
        uow.session.scalars(
            select(GameObserver.game_id).where(GameObserver.address == normalise_address(session.sender))
        )
    )
    return ids


def listed_games(session: MailSession, own: set[int]) -> list[Game]:
    """The brief list's games: listed ones and the sender's own, forming or under way, by name."""
    games = session.uow.games.list(states=SHOWN_IN_BRIEF_LIST)
    return [game for game in games if publicly_listed(game) or game.id in own]


def report(session: MailSession, game: Game) -> str:
    master_here = session.role is Role.MASTER and session.game is not None and session.game.id == game.id
    lines = game_report(
        session.uow, game,
        language=session.language, zone=session.zone, now=session.now,
        show_addresses=master_here, _=session.gettext, view=session_view(session, game),
    )  # fmt: skip
    return "\n".join(lines)


@handles(ListGames)
def handle(command: ListGames, session: MailSession) -> Next:
    _ = session.gettext
    if command.game is not None:
        game = session.uow.games.by_name(command.game)
        if game is None:
            raise CommandRefused(_("There is no game named '{game}' on this judge.").format(game=command.game))
        session.reply.ok(command.line, report(session, game))
        return Next.CONTINUE
    if not command.full and session.signed_on and session.game is not None:
        session.reply.ok(command.line, report(session, session.game))
        return Next.CONTINUE
    own = own_game_ids(session)
    games = listed_games(session, own)
    if command.full and games:
        session.reply.ok(command.line, "\n\n".join(report(session, game) for game in games))
    else:
        session.reply.ok(command.line, "\n".join(brief_list(games, own, _)))
    return Next.CONTINUE
