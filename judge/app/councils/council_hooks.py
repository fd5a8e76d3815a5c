"""The councils' game hooks (seed 003): where the council variant takes part in the flow.

The implementation of :class:`judge.app.hooks.game_hooks.GameHooks` that
:func:`judge.app.hooks.game_hooks.hooks_for` gives a game played by councils;
each method hands over to the councils' module that keeps that rule
(elections, releases, replacements, formation, press routing, permissions).
The house rules (END YEAR, CD AFTER) apply to council games as to any.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from judge.app.councils import elections, permissions, releases, replacements
from judge.app.councils.council_story import council_summary_lines
from judge.app.councils.formation import form_councils, queue_council_notices
from judge.app.councils.press_routing import send_council_press, send_observer_press
from judge.app.game_state.assignment import Preference
from judge.app.game_state.plain_hooks import PlainHooks
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.services import Services
from judge.core.phase import Phase
from judge.db.database import UnitOfWork
from judge.db.models import CouncilMember, Game, Seat
from judge.i18n import Gettext
from judge.lang.commands import Press
from judge.timekeeping.deadlines import PhaseTimes

COMMANDS = frozenset({"ACCUSE", "COUNCIL", "ESCAPE", "READY", "TRIBUNAL", "VOTE"})
"""The councils' own commands: a game not played by councils refuses them."""


class CouncilHooks(PlainHooks):
    """A game played by councils: elections, releases of orders, members, spies."""

    def before_due(self, uow: UnitOfWork, services: Services, game: Game, now: datetime) -> None:
        elections.close_due(uow, services, game, now)
        releases.end_of_grace(uow, game, now)  # before the orders are read: unreleased drafts set aside

    def holds_processing(self, uow: UnitOfWork, services: Services, game: Game, now: datetime) -> bool:
        return releases.hold_processing(uow, services, game, now)  # a General's orders are drafts until released

    def wake_at(self, uow: UnitOfWork, game: Game, planned: datetime | None) -> datetime | None:
        return elections.wake_at(uow, game, planned)  # an open election closes at its own deadline

    def after_eliminations(
        self, uow: UnitOfWork, services: Services, game: Game, now: datetime, eliminated: Sequence[str]
    ) -> None:
        replacements.after_eliminations(uow, services, game, now, eliminated)  # rule 7: fallen councils, unmasked spies

    def next_phase_times(
        self, game: Game, times: PhaseTimes, now: datetime, phase: Phase, next_phase: Phase
    ) -> PhaseTimes:
        return elections.held_for_elections(game, times, now, phase, next_phase)  # the deadline the elections hold

    def after_phase_opened(
        self, uow: UnitOfWork, services: Services, game: Game, now: datetime, phase: Phase, next_phase: Phase
    ) -> None:
        super().after_phase_opened(uow, services, game, now, phase, next_phase)  # the house rules' (SET BOTS)
        elections.after_phase_opened(uow, services, game, now, phase, next_phase)

    def deal_powers(
        self, uow: UnitOfWork, game: Game, seats: Sequence[Seat], preferences: Mapping[int, Preference],
        powers: Sequence[str], seed: int, now: datetime, first_year: int,
    ) -> dict[int, str]:
        return form_councils(uow, game, seats, preferences, powers, seed, now, first_year=first_year)

    def on_game_started(self, uow: UnitOfWork, game: Game, now: datetime, first_year: int) -> None:
        super().on_game_started(uow, game, now, first_year)  # the house rules' (SET BOTS)
        elections.open_first_elections(uow, game, now, first_year)  # rule 4: before the first turn

    def announce_start(self, session: MailSession, game: Game) -> None:
        queue_council_notices(session, game)  # each member's place, each spy's secret, the master's full list
        elections.queue_first_election_notices(session, game)

    def final_summary_lines(
        self, uow: UnitOfWork, game: Game, outcome: Mapping[str, Any] | None, language: str, _: Gettext
    ) -> list[str]:
        return council_summary_lines(uow, game, outcome, language, _)  # every spy revealed, the winners named

    @property
    def own_commands(self) -> frozenset[str]:
        return COMMANDS

    @property
    def members_sign_on(self) -> bool:
        return True  # each council member's own password

    def join_refusal(self, game: Game, _: Gettext) -> str | None:
        return _(
            "Game '{game}' is played by councils: a member signs on with SIGNON <letter>{game} and "
            "his own password; newcomers are placed by the master."
        ).format(game=game.name)

    def member(self, session: MailSession) -> CouncilMember | None:
        return session.council_member

    def send_press(self, session: MailSession, command: Press) -> bool:
        if session.role is Role.POWER:  # Ambassadors to Ambassadors
            send_council_press(session, command)
            return True
        if session.role is Role.OBSERVER and not command.postal:
            send_observer_press(session, command)  # powers read by their Ambassadors, never a General
            return True
        return False

    def check_order(self, session: MailSession) -> None:
        permissions.check_order(session)

    def check_draw(self, session: MailSession) -> None:
        permissions.check_draw(session)

    def check_wait(self, session: MailSession) -> None:
        permissions.check_wait(session)

    def check_concede(self, session: MailSession) -> None:
        permissions.check_concede(session)

