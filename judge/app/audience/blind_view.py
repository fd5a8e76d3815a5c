"""Fog of War (the Judge's Blind modifier): what each reader of a game may see of its board.

The one place every output of a board asks (the results mails, their maps, HISTORY, SUMMARY,
LIST, MAP and the web pages): :func:`view_of` turns a reader into a :class:`View`, and the view
filters a position or a phase's results through :mod:`judge.core.visibility`.

* A game without the ``blind`` option, a finished or terminated game, its master: everything.
* A power's player in a running blind game: what that power sees (its own units and centres,
  the provinces its units stand in or border; docs/variants.md).
* An observer: what the master allows (SET OBSERVERS SEE ALL: everything); by default nothing.
* Anyone else (a visitor of the web pages, someone who is not signed on) in a running blind
  game: nothing of the board, until the game ends.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.app.session.mail_session import MailSession, Role
from judge.core.adjudicator.results import AdjudicationResult
from judge.core.geography import GameMap
from judge.core.position import Position
from judge.core.visibility import position_seen, result_seen, seen_provinces
from judge.db.enums import GameState
from judge.db.models import Game

BLIND = "blind"
"""The game option (``Game.rule_options``) that makes a game a Fog of War game."""

OBSERVERS_SEE_ALL = "blind_observers"
"""``Game.extra_settings`` key of SET OBSERVERS SEE ALL: the master lets the observers of a running
blind game see the whole board (by default they see nothing of it until the end)."""

_NOBODY = ""
"""The power of the view that sees nothing: no unit and no centre is ever its."""


def is_blind(game: Game) -> bool:
    """Whether ``game`` is played in Fog of War (SET BLIND)."""
    return BLIND in (option.lower() for option in game.rule_options)


def fog_lifted(game: Game) -> bool:
    """At the end everything becomes public: a finished or terminated game hides nothing."""
    return game.state in (GameState.FINISHED, GameState.TERMINATED)


@dataclass(frozen=True, slots=True)
class View:
    """What one reader may see of a game's board: everything, one power's sight, or nothing."""

    everything: bool = True
    power: str | None = None
    """The power whose sight this is (None with ``everything`` False: the view that sees nothing)."""

    @property
    def nothing(self) -> bool:
        return not self.everything and self.power is None

    @property
    def key(self) -> str:
        """A short text naming the view (``*`` everything, ``-`` nothing, else the power)."""
        if self.everything:
            return "*"
        return self.power or "-"

    def seen(self, game_map: GameMap, position: Position) -> frozenset[str] | None:
        """The provinces this reader sees in ``position`` (None: all of them)."""
        if self.everything:
            return None
        if self.power is None:
            return frozenset()
        return seen_provinces(game_map, position, self.power)

    def position(self, game_map: GameMap, position: Position) -> Position:
        """``position`` as this reader sees it."""
        seen = self.seen(game_map, position)
        if seen is None:
            return position
        return position_seen(position, self.power or _NOBODY, seen)

    def results(
        self, game_map: GameMap, before: Position, result: AdjudicationResult
    ) -> tuple[Position, AdjudicationResult]:
        """The board before a phase and the phase's result as this reader is told them."""
        if self.everything:
            return before, result
        return result_seen(game_map, before, result, self.power or _NOBODY)


EVERYTHING = View()
NOTHING = View(everything=False)


def view_of(game: Game, *, power: str | None = None, master: bool = False, observer: bool = False) -> View:
    """The view of a reader of ``game``: its master (``master``), the player of ``power``, one of its
    observers (``observer``: what the master allows, SET OBSERVERS SEE ALL), or anyone else."""
    if master or not is_blind(game) or fog_lifted(game):
        return EVERYTHING
    if observer and power is None and bool((game.extra_settings or {}).get(OBSERVERS_SEE_ALL)):
        return EVERYTHING
    if power is not None:
        return View(everything=False, power=power)
    return NOTHING


def session_view(session: MailSession, game: Game) -> View:
    """The view of the sender of a mail on ``game``: its master or one of its powers when signed on
    to it as such, else an outsider."""
    here = session.signed_on and session.game is not None and session.game.id == game.id
    if here and session.role is Role.MASTER:
        return view_of(game, master=True)
    if here and session.role is Role.POWER and session.seat is not None and session.seat.power is not None:
        return view_of(game, power=session.seat.power)
    return view_of(game, observer=here and session.role is Role.OBSERVER)
