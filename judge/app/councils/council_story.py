"""The story of the councils in the final summary (seed 003, rule 9; issue 26): told once, to everyone, at the end.

A council game is a game of secrets: during the game nobody but the spy
and the master knows who spied, who voted how, who was arrested for what.
When the game is over, the final summary tells each council's story to
everyone who reads it (:func:`judge.app.audience.council_members.game_end_readers`:
every member who ever sat, those who left too, the masters, the observers):

* its members, first to last: name and address, rank at the end, the
  spies with the power each really worked for, the ONR each counted as
  General, who left (resigned, escaped, expelled, eliminated) and when,
  who came from the waiting list;
* its Generals: every election, year by year (first, yearly, early), with
  its outcome: elected, a tie that kept the outgoing General, civil
  disorder, an early election cancelled or annulled by the incumbent;
* treason: each accusation that took effect, its accusers, and how it
  ended (rehabilitated, escaped, still under arrest);
* the spies the judge unmasked when their true nation fell;

then the winners: "les joueurs loyalistes de la puissance victorieuse ;
l'espion(ne) travaillant pour le compte de la nation victorieuse (même si
... l'espion(ne) aurait dû cesser de jouer)".

Two secrets stay kept even then, because the seed makes them so: the
anonymous influence votes ("ce vote anonyme") and who voted for whom; and a
first accusation that never found its second accuser (it was told to its
author and the master only, and never acted on).

The victorious power(s) are those with the best score of the game's
scoring system (C-Diplo for council games), or, without scores, those the
game ended for.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from judge.app.councils.delays import LEFT_PHASE, TRUE_NATION_FELL_PHASE, WAITLIST_KEY, phase_in
from judge.app.councils.elections import KIND_NAMES
from judge.app.councils.formation import role_text
from judge.app.councils.treason import ACCUSED_BY
from judge.app.game_state.game_facts import power_name
from judge.app.mail_out.wording import phase_name
from judge.app.session.readers import person_address
from judge.core.councils import elections as election_rules
from judge.db.database import UnitOfWork
from judge.db.models import CouncilAccusation, CouncilElection, CouncilMember, Game
from judge.i18n import N_, Gettext


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


ELECTION_ENDS = {
    election_rules.ELECTED: N_("{winner} elected"),
    election_rules.RE_ELECTED_TIE: N_("a tie: {winner}, the outgoing General, stayed"),
    election_rules.CIVIL_DISORDER_TIE: N_("a tie with no General to keep: civil disorder"),
}
EARLY_CANCELLED = N_("cancelled: the General released his orders during the grace")
EARLY_ANNULLED = N_("{winner} named substitute, then annulled: the incumbent came back during the grace")
BY_MASTER = N_("called by the master")
LABELLED = N_("{label}: {text}")
"""A line of the story: its label and what it says (French puts a space before the colon)."""
STILL_OPEN = N_("still open when the game ended")


class _Story:
    """One reader's telling: his language, and the members' names."""

    def __init__(self, uow: UnitOfWork, members: list[CouncilMember], language: str, _: Gettext) -> None:
        self.uow = uow
        self.language = language
        self._ = _
        self.members = {m.id: m for m in members}

    def who(self, member: CouncilMember | None) -> str:
        """``Name (address)``; the address alone for a person without a name."""
        if member is None:
            return "-"
        person = self.uow.councils.person_of(member)
        address = person_address(person) or "-"
        name = person.name if person is not None else None
        return f"{name} ({address})" if name and name != address else address

    def name(self, member_id: int | None) -> str:
        return self.who(self.members.get(member_id)) if member_id is not None else "-"

    def phase(self, extra: dict[str, Any] | None, key: str) -> str:
        found = phase_in(extra, key)
        return phase_name(found, self._) if found is not None else ""

    def power(self, power: str) -> str:
        return power_name(power, self.language)


def _member_line(story: _Story, member: CouncilMember) -> str:
    _ = story._
    notes: list[str] = []
    if member.true_power is not None:
        notes.append(_("spy working for {power}").format(power=story.power(member.true_power)))
    replaced = (member.extra or {}).get("replaces_member")
    if replaced is not None:
        former = story.members.get(int(replaced))
        notes.append(_("came from the waiting list (formerly of {power}'s council)").format(
            power=story.power(former.power) if former is not None else "?"))  # fmt: skip
    if member.onr_count:
        notes.append(_("{count} ONR as General").format(count=member.onr_count))
    notes += _departure(story, member)
    role = role_text(member, story.language) if member.status in ("active", "accused") else _("member")
    line = "      " + _(LABELLED).format(label=role, text=story.who(member))
    return line + (" - " + "; ".join(notes) if notes else "")


def _departure(story: _Story, member: CouncilMember) -> list[str]:
    _ = story._
    when = story.phase(member.extra, LEFT_PHASE)
    extra = member.extra or {}
    if member.status == "accused":
        return [_("under arrest at the end")]
    if member.status == "eliminated":
        return [_("his power was eliminated ({phase})").format(phase=when)]
    if member.status != "left":
        return []
    waitlist = extra.get(WAITLIST_KEY) if isinstance(extra.get(WAITLIST_KEY), dict) else None
    if extra.get("resigned"):
        said = _("resigned ({phase})").format(phase=when)
    elif waitlist is not None and waitlist.get("reason") == "escape":
        said = _("escaped from arrest ({phase})").format(phase=when)
    elif phase_in(extra, TRUE_NATION_FELL_PHASE) is not None and waitlist is None:
        said = _("expelled by his council ({phase})").format(phase=when)
    else:
        said = _("left the council ({phase})").format(phase=when)
    notes = [said]
    if waitlist is not None:
        seated = waitlist.get("seated_as")
        if seated is not None and int(seated) in story.members:
            notes.append(_("seated again on {power}'s council").format(
                power=story.power(story.members[int(seated)].power)))  # fmt: skip
        else:
            notes.append(_("on the waiting list"))
    return notes


def _election_line(story: _Story, election: CouncilElection) -> str:
    _ = story._
    kind = _(KIND_NAMES.get(election.kind, election.kind))
    extra = election.extra or {}
    if election.state == "open":
        ending = _(STILL_OPEN)
    elif election.state == "cancelled" and election.winner_member_id is not None:
        ending = _(EARLY_ANNULLED).format(winner=story.name(election.winner_member_id))
    elif election.state == "cancelled":
        ending = _(EARLY_CANCELLED)
    else:
        ending = _(ELECTION_ENDS.get(election.outcome or "", "{winner}")).format(
            winner=story.name(election.winner_member_id))  # fmt: skip
    when = phase_in(extra, "phase")
    head = f"{election.year}, {kind}"
    if when is not None:
        head += f" ({phase_name(when, _)})"
    if extra.get("by_master"):
        head += f", {_(BY_MASTER)}"
    return "      " + _(LABELLED).format(label=head, text=ending)


def _accusation_line(story: _Story, accusation: CouncilAccusation) -> str | None:
    _ = story._
    extra = accusation.extra or {}
    if not extra.get("effective"):
        return None  # a first accusation never acted on stays its author's secret
    endings = {
        "withdrawn": _("rehabilitated"),
        "escaped": _("escaped"),
        "open": _("still under arrest at the end"),
    }
    ever = [int(i) for i in extra.get(ACCUSED_BY) or []]
    ids = ever + [i for i in accusation.accuser_member_ids if i not in ever]
    accusers = ", ".join(story.name(i) for i in ids) or "-"
    return "      " + _("{phase}: {accused} accused by {accusers}: {ending}").format(
        phase=story.phase(extra, "phase"),
        accused=story.name(accusation.accused_member_id),
        accusers=accusers,
        ending=endings.get(accusation.state, accusation.state),
    )


def _unmasked_line(story: _Story, member: CouncilMember) -> str | None:
    _ = story._
    when = phase_in(member.extra, TRUE_NATION_FELL_PHASE)
    if when is None or member.true_power is None:
        return None
    return "      " + _("{phase}: the judge unmasked {spy}, spy working for {power}, which had fallen").format(
        phase=phase_name(when, _), spy=story.who(member), power=story.power(member.true_power)
    )


def council_summary_lines(
    uow: UnitOfWork, game: Game, outcome: Mapping[str, Any] | None, language: str, _: Gettext
) -> list[str]:
    """The story of every council, spies revealed, and the winners, for one reader."""
    members = uow.councils.members(game)
    if not members:
        return []
    story = _Story(uow, members, language, _)
    elections = uow.councils.elections(game)
    accusations = uow.councils.accusations(game)
    lines = ["", _("The councils, spies revealed:")]
    for power in sorted({m.power for m in members}):
        council = [m for m in members if m.power == power]
        council.sort(key=lambda m: (m.status not in ("active", "accused"), m.rank, m.id))
        lines += ["", f"   {story.power(power)}", "   " + _("Members:")]
        lines += [_member_line(story, m) for m in council]
        chosen = [e for e in elections if e.power == power]
        if chosen:
            lines += ["   " + _("Elections of the General-in-chief:")]
            lines += [_election_line(story, e) for e in chosen]
        treason = [t for t in (_accusation_line(story, a) for a in accusations if a.power == power) if t]
        if treason:
            lines += ["   " + _("Accusations of treason:"), *treason]
        unmasked = [u for u in (_unmasked_line(story, m) for m in council) if u]
        if unmasked:
            lines += ["   " + _("Spies unmasked:"), *unmasked]
    victorious = victorious_powers(outcome)
    if victorious:
        lines += ["", _("Winners (the loyal members of {powers} and the spies working for it):").format(
            powers=", ".join(power_name(p, language) for p in victorious)
        )]  # fmt: skip
        for member in winners(members, victorious):
            lines.append(f"   {story.who(member)}")
    return lines
