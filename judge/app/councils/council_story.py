"""The councils in the final summary: every member, every spy revealed, the winners named (seed 003, rule 9).

"Seront déclarés vainqueurs : les joueurs loyalistes de la puissance
victorieuse ; l'espion(ne) travaillant pour le compte de la nation
victorieuse (même si ... l'espion(ne) aurait dû cesser de jouer)."

The victorious power(s) are those with the best score of the game's
scoring system (C-Diplo for council games), or, without scores, those the
game ended for. Only the final summary (after the end) says who spied.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from judge.app.game_state.game_facts import power_name
from judge.app.session.readers import person_address
from judge.db.database import UnitOfWork
from judge.db.models import CouncilMember, Game
from judge.i18n import Gettext


def victorious_powers(outcome: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The power(s) with the best score; the outcome's powers when there are no scores."""
    if not outcome:
        return ()
    scores = outcome.get("scores") or {}
    if scores:
        values = {power: Fraction(str(points)) for power, points in scores.items()}
        best = max(values.values())
        if best > 0:
            return tuple(power for power, points in values.items() if points == best)
    return tuple(outcome.get("powers") or ())


def winners(members: list[CouncilMember], victorious: tuple[str, ...]) -> list[CouncilMember]:
    """Loyal members of a victorious power, and every spy working for one (wherever they sat)."""
    chosen = []
    for member in members:
        if member.true_power is not None:
            if member.true_power in victorious:
                chosen.append(member)
        elif member.power in victorious:
            chosen.append(member)
    return chosen


def council_summary_lines(
    uow: UnitOfWork, game: Game, outcome: Mapping[str, Any] | None, language: str, _: Gettext
) -> list[str]:
    """The councils as they ended, spies revealed, and the winners."""
    from judge.app.councils.formation import role_text

    members = uow.councils.members(game)
    if not members:
        return []

    def who(member: CouncilMember) -> str:
        person = uow.councils.person_of(member)
        return person_address(person) or "-"

    lines = ["", _("The councils, spies revealed:")]
    for member in members:
        note = ""
        if member.true_power is not None:
            note = " - " + _("spy working for {power}").format(
                power=power_name(member.true_power, language)
            )
        lines.append(
            f"   {power_name(member.power, language)}, {role_text(member, language)}: {who(member)}{note}"
        )
    victorious = victorious_powers(outcome)
    if victorious:
        lines += ["", _("Winners (the loyal members of {powers} and the spies working for it):").format(
            powers=", ".join(power_name(p, language) for p in victorious)
        )]  # fmt: skip
        for member in winners(members, victorious):
            lines.append(f"   {who(member)}")
    return lines
