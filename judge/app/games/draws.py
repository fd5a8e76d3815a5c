"""Draw and concession votes: who votes, what a vote accepts, and when a game ends by agreement.

The Judge's rules (its draws and concessions files, judge-conventions §7):

* a vote lasts one phase: votes are cleared when a phase is processed, at
  RESUME and when DIAS is switched; each power has one standing vote (a
  draw vote, a no-draw vote or a concession);
* votes are secret until a draw or concession passes; they are counted as
  soon as one is cast, and a draw needs every voter's agreement;
* **DIAS** games (Draws Include All Survivors, the default): ``SET DRAW``
  accepts the draw of all survivors, ``SET NO DRAW`` withdraws;
* **NoDIAS** games: ``SET DRAW AEF`` names a draw. With the voter's own
  letter in the list, it accepts any part of the list that includes the
  voter; without it, any part of the list, with or without the voter.
  ``SET NO DRAW`` accepts only the voter's own win. The largest set every
  voter accepts passes (that set is unique: each voter accepts a family of
  sets closed under union, so the union of all the sets everyone accepts is
  itself accepted); a set of one power is a concession to it;
* **concessions** (DIAS games with concessions allowed): ``SET CONCEDE F``
  names the power with strictly the most centres; the game is conceded
  when every other voter concedes to it.

Who is a survivor: a power with a unit or a supply centre on the board
(the processing eliminates powers with neither). The voters are the
survivors someone plays: a power in civil disorder or abandoned has nobody
to vote for it, so its vote is not waited for — in a DIAS draw it is still
one of the survivors the draw includes.

The counting here is pure; :func:`voter` (who is voting, from the mail's
session), :func:`standing_votes` (the database's votes) and :func:`settle`
(count after a vote, end the game if it passed) join it to the SET DRAW and
SET CONCEDE handlers and :mod:`judge.app.games.endgame`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from judge.app.game_state.agreements import Agreement, Passed
from judge.app.game_state.boards import current
from judge.app.game_state.game_facts import power_name
from judge.app.game_state.variant_rules import game_map_of
from judge.app.games.endgame import end_by_agreement
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.core.position import Position
from judge.db.database import UnitOfWork
from judge.db.enums import DrawVoteKind, GameState, SeatStatus
from judge.db.models import Game, Seat
from judge.lang.powers import power_letters

MAX_DRAW_LETTERS = 20
"""The Judge's limit on a SET DRAW list."""

VOTING = (SeatStatus.PLAYING, SeatStatus.WAITING)
"""Seats whose player votes (civil disorder, abandoned and resigned powers have nobody to)."""


@dataclass(frozen=True)
class Vote:
    """One power's standing vote: a draw (``powers``: the NoDIAS list), no draw, or a concession."""

    power: str
    kind: DrawVoteKind
    powers: frozenset[str] = frozenset()


def survivors(position: Position, powers_in_order: Sequence[str]) -> tuple[str, ...]:
    """Powers with a unit (dislodged ones count) or a supply centre, in the map's order."""
    alive = {unit.power for unit in position.units} | {d.unit.power for d in position.dislodged}
    alive |= {power for power, centres in position.centers.items() if centres}
    return tuple(power for power in powers_in_order if power in alive)


def voters(game: Game, alive: Iterable[str]) -> tuple[str, ...]:
    """The survivors whose seat has a player to vote, in the order of ``alive``."""
    playing = {seat.power for seat in game.seats if seat.power is not None and seat.status in VOTING}
    return tuple(power for power in alive if power in playing)


def strictly_largest(position: Position) -> str | None:
    """The power with strictly more supply centres than any other, or None on a tie."""
    counts = sorted(((len(c), p) for p, c in position.centers.items() if c), reverse=True)
    if not counts or (len(counts) > 1 and counts[1][0] == counts[0][0]):
        return None
    return counts[0][1]


def accepts(vote: Vote, proposal: frozenset[str]) -> bool:
    """Whether a NoDIAS vote accepts a draw between ``proposal`` (one power: a concession to it)."""
    if not proposal:
        return False
    if vote.kind is DrawVoteKind.NO_DRAW:
        return proposal == {vote.power}
    if vote.kind is not DrawVoteKind.DRAW:
        return False
    if vote.power in vote.powers:
        return vote.power in proposal and proposal <= vote.powers
    return proposal <= vote.powers | {vote.power}


def largest_accepted(votes: Mapping[str, Vote], alive: Sequence[str], voting: Sequence[str]) -> frozenset[str]:
    """The largest set of survivors every voter accepts (empty if there is none).

    Each vote bounds the draw from above (its list, with the voter when the
    voter left himself out; only himself for NO DRAW) and may require the
    voter in it (when he named himself, and for NO DRAW). The sets everyone
    accepts are those between the required powers and the intersection of
    the bounds, so the largest is that intersection, when it holds them.
    """
    upper = frozenset(alive)
    required: set[str] = set()
    for power in voting:
        vote = votes.get(power)
        if vote is None or vote.kind is DrawVoteKind.CONCEDE:
            return frozenset()
        if vote.kind is DrawVoteKind.NO_DRAW:
            upper &= {power}
            required.add(power)
        elif power in vote.powers:
            upper &= vote.powers
            required.add(power)
        else:
            upper &= vote.powers | {power}
    if upper and required <= upper:
        return upper
    return frozenset()


def count_votes(
    votes: Mapping[str, Vote],
    alive: Sequence[str],
    voting: Sequence[str],
    *,
    dias: bool,
    largest: str | None,
) -> Passed | None:
    """Whether the standing votes end the game, and how (None: the game goes on).

    ``alive`` are the survivors in the map's order, ``voting`` the survivors
    with a player, ``largest`` the power with strictly the most centres
    (concessions go only to it).
    """
    if not voting:
        return None
    if dias:
        if all(votes.get(p) is not None and votes[p].kind is DrawVoteKind.DRAW for p in voting):
            return Passed(Agreement.DRAW, tuple(alive))
        others = [p for p in voting if p != largest]
        conceded = largest is not None and others and all(
            votes.get(p) is not None
            and votes[p].kind is DrawVoteKind.CONCEDE
            and votes[p].powers == frozenset({largest})
            for p in others
        )
        if conceded and largest is not None:
            return Passed(Agreement.CONCESSION, (largest,))
        return None
    chosen = largest_accepted(votes, alive, voting)
    if not chosen:
        return None
    ordered = tuple(p for p in alive if p in chosen)
    if len(ordered) == 1:
        return Passed(Agreement.CONCESSION, ordered)
    return Passed(Agreement.DRAW, ordered)


def standing_votes(uow: UnitOfWork, game: Game) -> dict[str, Vote]:
    """The game's standing votes by power (the letters of a list read back as powers)."""
    letters = power_letters(game_map_of(game))
    seats = {seat.id: seat for seat in game.seats}
    out: dict[str, Vote] = {}
    for row in uow.press.votes(game):
        seat = seats.get(row.seat_id)
        if seat is None or seat.power is None:
            continue
        powers = frozenset(letters[c] for c in row.powers.upper() if c in letters)
        out[seat.power] = Vote(seat.power, row.kind, powers)
    return out


# -- the mail's side -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ballot:
    """Who is voting in this mail: the game, the power's seat, the board, the survivors and voters."""

    game: Game
    seat: Seat
    power: str
    position: Position
    alive: tuple[str, ...]
    voting: tuple[str, ...]


def voter(session: MailSession, command: str) -> Ballot:
    """The power voting (a player, or a master who BECAME the power), or a refusal saying why not."""
    _ = session.gettext
    game = session.game
    if game is None or session.role is None:
        raise CommandRefused(_("{command} needs a SIGNON to a game first.").format(command=command))
    seat: Seat | None = None
    if session.role is Role.POWER:
        seat = session.seat
    elif session.role is Role.MASTER and session.acting_power is not None:
        seat = session.uow.seats.by_power(game, session.acting_power)
    if seat is None or seat.power is None:
        raise CommandRefused(
            _("Only the powers of a game vote on draws and concessions: observers and masters do not "
              "(a master may BECOME a power first).")
        )
    if game.state not in (GameState.ACTIVE, GameState.PAUSED):
        raise CommandRefused(
            _("Game '{game}' is not being played: there is nothing to vote on.").format(game=game.name)
        )
    _record, position = current(session.uow, game)
    alive = survivors(position, game_map_of(game).powers)
    if seat.power not in alive:
        raise CommandRefused(
            _("{power} has no unit and no supply centre left: only surviving powers vote.").format(
                power=power_name(seat.power, session.language)
            )
        )
    return Ballot(game, seat, seat.power, position, alive, voters(game, alive))


def letters_to_powers(game: Game, letters: str) -> tuple[str, ...]:
    """``AEF`` as powers, in the order written, each once (unknown letters are left out)."""
    known = power_letters(game_map_of(game))
    return tuple(dict.fromkeys(known[c] for c in letters.upper() if c in known))


def settle(session: MailSession, ballot: Ballot) -> Passed | None:
    """Count the votes after one was cast; if they end the game, end it (notices queued with the reply)."""
    game = ballot.game
    passed = count_votes(
        standing_votes(session.uow, game), ballot.alive, ballot.voting,
        dias=game.dias, largest=strictly_largest(ballot.position),
    )  # fmt: skip
    if passed is not None:
        end_by_agreement(session, game, ballot.position, passed)
    return passed
