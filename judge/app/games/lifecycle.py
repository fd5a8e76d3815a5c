"""A game's life before and at its start: creation, joining, dealing the powers, the first phase.

These functions change the database through a unit of work and return what
happened; they write no reply and send no mail (the handlers do, in the
reader's language), so the master's FORCE BEGIN, the scheduler or a test can
start a game the same way a sign-on does.

The Judge's rules followed here (judge-conventions §1, §5, §10):

* a game is created forming, with its creator seated (no power yet);
* players join with ``SIGNON ?game``; the variant and options they name
  must be the game's (so nobody joins a variant by mistake);
* when the seats reach the game's player count (default: one per power) the
  powers are dealt from the preference lists, ties at random, with a seed
  drawn from the caller's generator and recorded in
  ``extra_settings["assignment_seed"]`` so the deal can be replayed;
* the first phase opens on the variant's starting position; its deadline
  is computed with ``next`` doubled (time to talk) unless the game has no
  press.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from judge.app.game_state.assignment import Preference
from judge.app.game_state.boards import from_json, opening_position
from judge.app.game_state.clock_store import phase_schedule
from judge.app.game_state.game_facts import (
    OPEN_FOR_TAKEOVER,
    describe_variant,
    players_needed,
    unseated_bots,
    waiting_seats,
)
from judge.app.game_state.setting_table import BOT_KEY
from judge.app.game_state.variant_rules import game_map_of
from judge.app.hooks.game_hooks import hooks_for
from judge.core.phase import Phase, PhaseType
from judge.core.variants import offered_variants
from judge.db.database import UnitOfWork
from judge.db.enums import GameState, SeatStatus
from judge.db.models import Game, Person, Seat
from judge.lang.powers import power_letters
from judge.timekeeping.absences import Absence, counting_absences
from judge.timekeeping.deadlines import PhaseTimes, next_phase_times
from judge.timekeeping.lateness import PowerStatus, begin_phase, next_wakeup

GAME_OPTIONS: tuple[str, ...] = ("gunboat", "blind")
"""Option words CREATE and SIGNON ?game accept after the variant (lower case)."""

ASSIGNMENT_SEED = "assignment_seed"


# -- errors ----------------------------------------------------------------------------


class GameError(Exception):
    """A game could not be created, joined or started; subclasses say why."""


class GameNameTaken(GameError):
    def __init__(self, name: str) -> None:
        super().__init__(f"a game called {name!r} already exists")
        self.name = name


class UnknownVariantOrOption(GameError):
    """CREATE named a variant or option this judge does not have."""

    def __init__(self, words: Sequence[str]) -> None:
        super().__init__(f"unknown variant or option: {', '.join(words)}")
        self.words = tuple(words)


class VariantMismatch(GameError):
    """SIGNON ?game named another variant or other options than the game's."""

    def __init__(self, game: Game) -> None:
        super().__init__(f"game {game.name!r} is {describe_variant(game)}")
        self.game = game


class NotForming(GameError):
    """The game has started (or ended): nobody joins it as a new player any more."""

    def __init__(self, game: Game) -> None:
        super().__init__(f"game {game.name!r} is {game.state.value}")
        self.game = game


class AlreadyInGame(GameError):
    def __init__(self, game: Game) -> None:
        super().__init__(f"already a player of {game.name!r}")
        self.game = game


class GameFull(GameError):
    def __init__(self, game: Game) -> None:
        super().__init__(f"game {game.name!r} has all its players")
        self.game = game


# -- looking games up --------------------------------------------------------------------


def find_game(uow: UnitOfWork, name: str, *, lock: bool = False) -> Game | None:
    """The game called ``name`` (any case), or None; with ``lock``, its row locked to the commit.

    A mail that signs on to a game acts on it under the game's row lock, taken
    before anything of the game is read: two mails for one game (two players'
    last orders, two joins filling the last seats) or a mail and the
    scheduler then follow one another instead of interleaving, so neither
    sees a stale game nor overwrites the other's change to its settings
    (``extra_settings`` is rewritten as a whole). Mails for different games
    still run side by side. On SQLite the writing transaction already
    serialises everything and the lock is a plain read.
    """
    game = uow.games.by_name(name)
    if game is not None and lock:
        game = uow.games.lock(game.id)
    return game





def next_forming_game(uow: UnitOfWork, person: Person) -> Game | None:
    """``SIGNON ? pw``: the oldest forming Standard game still short of players that ``person`` is not in."""
    for game in sorted(uow.games.list(states=[GameState.FORMING]), key=lambda g: (g.created_at, g.id)):
        if game.variant != "standard" or game.rule_options or game.manual_start:
            continue
        if any(seat.person_id == person.id for seat in game.seats):
            continue
        if players_needed(game) > 0:
            return game
    return None


def open_seats(game: Game) -> list[Seat]:
    """Powers that anyone may take over, in the map's order of powers."""
    order = {power: index for index, power in enumerate(game_map_of(game).powers)}
    seats = [s for s in game.seats if s.power is not None and s.status in OPEN_FOR_TAKEOVER]
    return sorted(seats, key=lambda seat: order.get(seat.power or "", len(order)))


# -- creating and joining ------------------------------------------------------------------


def check_variant_words(variant: str | None, options: Iterable[str]) -> tuple[str, tuple[str, ...]]:
    """The variant (default Standard) and options of a CREATE, or UnknownVariantOrOption."""
    words = tuple(option.lower() for option in options)
    unknown = [word for word in words if word not in GAME_OPTIONS]
    chosen = (variant or "standard").lower()
    if chosen not in offered_variants():
        unknown.insert(0, chosen)
    if unknown:
        raise UnknownVariantOrOption(unknown)
    return chosen, tuple(dict.fromkeys(words))


def create_game(
    uow: UnitOfWork,
    name: str,
    creator: Person,
    password: str,
    now: datetime,
    *,
    variant: str | None = None,
    options: Iterable[str] = (),
) -> tuple[Game, Seat]:
    """A new forming game with its creator seated (no power yet)."""
    chosen, words = check_variant_words(variant, options)
    if find_game(uow, name) is not None:
        raise GameNameTaken(name)
    game = uow.games.create(name, now, variant=chosen, rule_options=words)
    game.winning_centers = game_map_of(game).win_centers  # the variant's threshold (SET CENTERS may change it)
    seat = uow.seats.join(game, creator, password, now)
    return game, seat


def matches_variant(game: Game, variant: str | None, options: Iterable[str]) -> bool:
    """Whether a SIGNON ?game's words name the game's variant and options.

    Standard games may be joined without naming the variant; other variants
    must be named (the Judge's guard against joining a variant by mistake).
    Options must be named exactly (in any order).
    """
    if variant is None and game.variant != "standard":
        return False
    if variant is not None and variant.lower() != game.variant:
        return False
    return {o.lower() for o in options} == {o.lower() for o in game.rule_options}


def join(
    uow: UnitOfWork,
    game: Game,
    person: Person,
    password: str,
    now: datetime,
    *,
    variant: str | None = None,
    options: Iterable[str] = (),
) -> Seat:
    """Seat ``person`` in the forming ``game`` (no power yet)."""
    if game.state is not GameState.FORMING:
        raise NotForming(game)
    if not matches_variant(game, variant, options):
        raise VariantMismatch(game)
    if any(seat.person_id == person.id for seat in game.seats):
        raise AlreadyInGame(game)
    if players_needed(game) == 0:
        raise GameFull(game)
    return uow.seats.join(game, person, password, now)


def ready_to_start(game: Game) -> bool:
    """The seats are full and nobody has to start the game by hand."""
    return game.state is GameState.FORMING and players_needed(game) == 0 and not game.manual_start


# -- preferences -------------------------------------------------------------------------------


def preference_text(groups: Sequence[str]) -> str:
    """How a preference list is stored on a seat: ``F[EG]R``, or ``*``."""
    out = []
    for group in groups:
        if group == "*":
            out.append("*")
        elif len(group) == 1:
            out.append(group.upper())
        else:
            out.append(f"[{group.upper()}]")
    return "".join(out)


def parse_preference(text: str, letters: dict[str, str]) -> Preference:
    """The stored form back as an assignment Preference (letters mapped to powers).

    A list that is only ``*`` is the Judge's "any power, at random"; a ``*``
    after letters adds nothing (the powers left off a list are equal anyway).
    """
    groups: list[frozenset[str]] = []
    star = False
    index = 0
    while index < len(text):
        char = text[index]
        if char == "*":
            star = True
            index += 1
        elif char == "[":
            end = text.index("]", index)
            groups.append(frozenset(letters[c] for c in text[index + 1 : end] if c in letters))
            index = end + 1
        else:
            if char in letters:
                groups.append(frozenset({letters[char]}))
            index += 1
    groups = [group for group in groups if group]
    return Preference(groups=tuple(groups), random_order=star and not groups)


# -- starting ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StartedGame:
    """What start_game did: who got which power, with the seed that reproduces the deal."""

    powers: dict[int, str]  # seat id -> power
    seed: int
    times: PhaseTimes
    dummies: tuple[str, ...]  # powers nobody was dealt, left open for takeover


def start_game(
    uow: UnitOfWork, game: Game, now: datetime, rng: random.Random, *, zone: ZoneInfo
) -> StartedGame:
    """Deal the powers, open the first phase and set its deadline; the game becomes active.

    Seats still waiting get powers from their preference lists; the bots a
    master seated (SET BOTS) take the powers left over, in the map's order;
    if fewer players and bots than powers have joined (a master's FORCE
    BEGIN), the powers left over are seated empty and abandoned, open for takeover.
    """
    if game.state is not GameState.FORMING:
        raise NotForming(game)
    the_map = game_map_of(game)
    hooks = hooks_for(game)  # seed 003's councils: several players per power; the Renaissance game's opening
    kept = hooks.opening_position(game, the_map)
    position = from_json(kept)
    letters = dict(power_letters(the_map))
    seats = waiting_seats(game)
    seed = rng.getrandbits(63)
    preferences = {seat.id: parse_preference(seat.preferences, letters) for seat in seats}
    deal = hooks.deal_powers(uow, game, seats, preferences, the_map.powers, seed, now, position.phase.year)
    by_id = {seat.id: seat for seat in seats}
    for seat_id, power in sorted(deal.items()):
        seat = by_id[seat_id]
        uow.seats.assign(seat, power, now, phase=str(position.phase))
        if seat.person is not None:
            uow.people.add_to_record(seat.person, games_started=1)
    left = [p for p in the_map.powers if p not in deal.values()]
    bots = unseated_bots(game)
    for bot, power in zip(bots, left, strict=False):
        bot.power = power  # a bot's seat (SET BOTS): no password, no tenure, its orders given by the hooks
    for bot in bots[len(left):]:
        game.seats.remove(bot)
    bot_powers = frozenset(left[: len(bots)])
    dummies = tuple(p for p in left if p not in bot_powers)
    for power in dummies:
        # Nobody's seat: no password (only a takeover opens it), no tenure.
        game.seats.append(
            Seat(power=power, person=None, password_hash=None, status=SeatStatus.ABANDONED, joined_at=now)
        )
    uow.flush()

    game.extra_settings = {**game.extra_settings, ASSIGNMENT_SEED: seed}
    times = first_phase_times(uow, game, now, zone, first=position.phase.type)
    uow.phases.open(game, str(position.phase), kept, now, deadline_at=times.deadline)
    game.state = GameState.ACTIVE
    game.started_at = now
    game.deadline_at = times.deadline
    game.grace_at = times.grace
    game.earliest_at = times.start
    clock = begin_phase(
        times,
        [PowerStatus(power, owes_orders=power not in bot_powers, abandoned=power in dummies)
         for power in the_map.powers],
        delay=phase_schedule(game, position.phase.type).delay,
        nmr=game.nmr,
        strict_wait=game.strict_wait,
    )
    uow.games.set_next_due(game, next_wakeup(clock, now))
    hooks.on_game_started(uow, game, now, position.phase.year)
    return StartedGame(powers=dict(deal), seed=seed, times=times, dummies=dummies)


def first_phase_times(
    uow: UnitOfWork, game: Game, now: datetime, zone: ZoneInfo, *, first: PhaseType | None = None
) -> PhaseTimes:
    """Start, deadline and grace of the first phase, from the game's ``next``, ``clock`` and days.

    The same rule as every later phase, so the first deadline is the one the
    schedule shown in LIST announces (issue 13: the Judge's doubling of
    ``next`` for a press game's first phase put the deadline days after it;
    a master who wants more time for the first orders sets SET MOVE NEXT or
    SET DEADLINE).
    """
    if first is None:  # the map's own first phase (``first``: the one the game's hooks open)
        first = opening_position(game_map_of(game)).phase.type
    schedule = phase_schedule(game, first)
    return next_phase_times(
        now,
        schedule,
        zone,
        absences=_absences(uow, game, now),
        strict_grace=game.strict_grace,
    )


def _absences(uow: UnitOfWork, game: Game, now: datetime) -> tuple[Absence, ...]:
    """Declared absences of the game's players and masters that may push the first deadline."""
    spans: list[Absence] = []
    people = [(seat.power or "", seat.person) for seat in game.seats if seat.person is not None]
    people += [("master", master.person) for master in game.masters]
    for owner, person in people:
        if person is None:
            continue
        for absence in uow.people.absences(person, game=game, ending_after=now):
            spans.append(
                Absence(owner, absence.starts_at, absence.ends_at, set_by_master=absence.set_by_master)
            )
    return counting_absences(
        spans,
        owing_orders=frozenset(seat.power for seat in game.seats if seat.power),
        strict_wait=game.strict_wait,
        press_allowed=game.press_mode != "none",
        quiet=game.quiet,
    )


# -- takeover ---------------------------------------------------------------------------------------


def hand_back_from_bot(game: Game, power: str | None) -> None:
    """A player takes ``power``: the bot the master gave it to (SET BOT) stops playing it."""
    bots = game.extra_settings.get(BOT_KEY) or []
    if power in bots:
        game.extra_settings = {**game.extra_settings, BOT_KEY: [p for p in bots if p != power]}


def take_over(
    uow: UnitOfWork, game: Game, seat: Seat, person: Person, password: str, now: datetime, *,
    zone: ZoneInfo, actor: str,
) -> bool:
    """``person`` takes the abandoned ``seat``; returns whether the deadline was set afresh.

    The taker gets WAIT. When no other power is left open, the Judge gives
    everyone a fresh deadline (counted from now, never earlier than the old
    one) and sets WAIT for every active power, so nobody is rushed; the
    scheduler is asked to look at the game again at once to re-plan.
    """
    if any(s.person_id == person.id for s in game.seats):
        raise AlreadyInGame(game)
    uow.seats.take_over(seat, person, password, now, phase=game.current_phase, actor=actor)
    hand_back_from_bot(game, seat.power)
    uow.people.add_to_record(person, takeovers=1)
    if any(other.status in OPEN_FOR_TAKEOVER for other in game.seats if other is not seat):
        return False
    if game.state is not GameState.ACTIVE or game.current_phase is None:
        return False
    if game.deadline_at is None or game.grace_at is None:
        return False
    previous = PhaseTimes(
        start=game.earliest_at or now, deadline=game.deadline_at, grace=game.grace_at
    )
    times = next_phase_times(
        now,
        phase_schedule(game, Phase.parse(game.current_phase).type),
        zone,
        previous=previous,
        strict_grace=game.strict_grace,
        same_phase=True,
    )
    game.deadline_at = times.deadline
    game.grace_at = times.grace
    record = uow.phases.current(game)
    if record is not None:
        record.deadline_at = times.deadline
    for other in game.seats:
        if other.power is not None and other.status is SeatStatus.PLAYING:
            other.wait = True
    uow.games.set_next_due(game, now)
    return True
