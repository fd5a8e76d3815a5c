"""Election phases of a council game (seed 003, rule 4): opening, ballots, counting, results.

* :func:`open_first_elections` opens the first election of every council
  before the first turn; :func:`after_phase_opened` (one line in
  :func:`judge.app.phases.processing.process_phase`) opens the yearly one when the
  game leaves the fall (between the fall retreats and the adjustments). An
  election has its own deadline (``election_hours`` of the game's council
  settings, 24 by default), and the phase it precedes starts only then:
  its start, deadline and grace move back by as much, so the elected
  General has the phase's whole time to order.
* :func:`cast` records a ``VOTE`` (a member, or ABSTAIN with an optional
  anonymous influence vote in another power's election).
* :func:`close_due` (called by the scheduler) and :func:`close` count an
  election with :mod:`judge.core.councils.elections`, seat the General,
  and mail the result to each member of the council and to the masters.
  Influence votes are never attributed: a result says only that influence
  decided, never who cast it nor how many.
* :func:`wake_at` tells the scheduler when the next election closes.

The flow reaches these entry points through the councils' game hooks
(:mod:`judge.app.councils.council_hooks`), only for games played by
councils, so ordinary games read no council table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy.orm.attributes import flag_modified

from judge.app.audience.council_members import (
    Reader,
    council_readers,
    master_readers,
    member_readers,
    rule_member,
)
from judge.app.audience.results_readers import results_audience
from judge.app.game_state.game_facts import power_name
from judge.app.mail_out import outbox
from judge.app.mail_out.wording import phase_name
from judge.app.session.mail_session import MailSession
from judge.app.session.readers import reader_zone
from judge.app.session.services import Services
from judge.core.councils import elections as rules
from judge.core.councils.roles import Channel
from judge.core.phase import Phase, PhaseType, Season
from judge.db.database import UnitOfWork
from judge.db.enums import SeatStatus
from judge.db.models import CouncilElection, CouncilMember, Game, Person
from judge.db.repositories.councils import council_settings
from judge.i18n import N_, translation
from judge.mail.compose import game_subject
from judge.timekeeping.dates import tell_date
from judge.timekeeping.deadlines import PhaseTimes

RELEASE_KEY = "council_release"
"""``games.extra_settings`` key of the open phase's release state (:mod:`judge.app.councils.releases`)."""
INFLUENCE_KEY = "influence_candidate"
"""``council_votes.extra`` key: the candidate an abstaining voter's influence vote names."""
ELECTION_EVENT = "Election"
COUNCIL_EVENT = "Council"
DEADLINE_EVENT = "Deadline Adjustment"


def current_phase(game: Game) -> Phase:
    """The game's open phase: the moment the seed's delays are counted from and to."""
    return Phase.parse(game.current_phase or "S1901M")


def refusal_sentence(session: MailSession, reason: str, fields: dict[str, str]) -> str:
    """A council rule's refusal (an English id with ``{...}`` fields) in the reader's language.

    ``power`` is a power's name and ``phase`` a phase (``S1902M``): both are
    written out in that language.
    """
    _ = session.gettext
    shown = dict(fields)
    if "power" in shown:
        shown["power"] = power_name(shown["power"], session.language)
    if "phase" in shown:
        shown["phase"] = phase_name(Phase.parse(shown["phase"]), _)
    return _(reason).format(**shown)


def person_of(uow: UnitOfWork, member: CouncilMember) -> Person | None:
    return uow.people.get(member.person_id) if member.person_id is not None else None


def member_label(uow: UnitOfWork, member: CouncilMember) -> str:
    """How a member is named to his council: his registered name and the number VOTE takes."""
    person = person_of(uow, member)
    name = (person.name if person is not None else None) or f"#{member.id}"
    return f"{name} ({member.id})"


# ------------------------------------------------------------------ opening


def _powers_with_councils(uow: UnitOfWork, game: Game) -> list[str]:
    return sorted({m.power for m in uow.councils.seated(game)})


def open_elections(
    uow: UnitOfWork,
    services: Services | None,
    game: Game,
    now: datetime,
    *,
    year: int,
    kind: str,
) -> list[CouncilElection]:
    """Open an election of ``kind`` for every seated council (none twice for the same year and kind).

    With ``services`` None (the game's start, which mails through the
    session) nothing is mailed: :func:`queue_first_election_notices` does it.
    """
    settings = council_settings(game)
    if settings is None:
        return []
    deadline = now + timedelta(hours=int(settings.get("election_hours") or 24))
    existing = {(e.power, e.year, e.kind) for e in uow.councils.elections(game)}
    opened = [
        uow.councils.open_election(game, power, year, kind, now, deadline)
        for power in _powers_with_councils(uow, game)
        if (power, year, kind) not in existing
    ]
    if opened:
        _hold_phase(game, now, deadline)
        if services is not None:
            for election in opened:
                announce(uow, services, game, election, now)
    return opened


def open_first_elections(uow: UnitOfWork, game: Game, now: datetime, year: int) -> None:
    """The first election of every council, before the first turn (the game's start calls this).

    Nothing is mailed here: the start's notices go through the mail's
    session (:func:`queue_first_election_notices`). The game is due again
    at the elections' deadline at the latest.
    """
    if open_elections(uow, None, game, now, year=year, kind=rules.FIRST):
        uow.games.set_next_due(game, wake_at(uow, game, game.next_due_at))


def queue_first_election_notices(session: MailSession, game: Game) -> None:
    """Mail each council the announcement of its first election (with the start's other notices)."""
    for election in session.uow.councils.open_elections(game):
        if election.kind == rules.FIRST:
            announce(session.uow, session.services, game, election, session.now)


def is_yearly_election_point(before: Phase, after: Phase) -> bool:
    """True when the game leaves the fall: the adjustments open, or the next year if they are skipped."""
    if after.year > before.year:
        return True
    return before.season is Season.FALL and after.type is PhaseType.ADJUSTMENT


def after_phase_opened(uow: UnitOfWork, services: Services, game: Game, now: datetime, before: Phase, after: Phase) -> None:
    """Called when processing opens ``after``: open the yearly elections when the fall is over."""
    if not is_yearly_election_point(before, after):
        return
    open_elections(uow, services, game, now, year=before.year, kind=rules.REGULAR)


HOLD_KEY = "council_hold"
"""``games.extra_settings`` key: the phase held for the elections (``phase``, ``until``: their deadline)."""
HOLDING_KINDS = (rules.FIRST, rules.REGULAR)
"""The elections the next phase waits for; an early election runs inside its phase's grace."""


def held_for_elections(game: Game, times: PhaseTimes, now: datetime, before: Phase, after: Phase) -> PhaseTimes:
    """``after``'s times as the yearly elections will hold them, known before the results are written.

    The results announce the deadline the phase will have once the elections
    opening with it have held it for their whole time; if every vote is in
    sooner, :func:`close` brings the phase forward and says so to everyone.
    """
    settings = council_settings(game)
    if settings is None or not is_yearly_election_point(before, after):
        return times
    election_deadline = now + timedelta(hours=int(settings.get("election_hours") or 24))
    shift = election_deadline - times.start
    if shift <= timedelta(0):
        return times
    return PhaseTimes(times.start + shift, times.deadline + shift, times.grace + shift)


def _hold_phase(game: Game, now: datetime, election_deadline: datetime) -> None:
    """Move the open phase's start, deadline and grace back so it starts when the election closes."""
    start = _aware(game.earliest_at or now)
    game.extra_settings = {
        **(game.extra_settings or {}),
        HOLD_KEY: {"phase": game.current_phase, "until": max(start, election_deadline).isoformat()},
    }
    flag_modified(game, "extra_settings")
    shift = election_deadline - start if election_deadline > start else timedelta(0)
    if shift <= timedelta(0):
        return
    game.earliest_at = start + shift
    if game.deadline_at is not None:
        game.deadline_at = game.deadline_at + shift
    if game.grace_at is not None:
        game.grace_at = game.grace_at + shift


def _end_hold(uow: UnitOfWork, services: Services, game: Game, now: datetime) -> None:
    """The last election the phase waited for has closed: the phase starts now, told to everyone.

    Its start, deadline and grace come forward by the time the elections
    did not use, so the new Generals keep the phase's whole time and no
    announced deadline moves without a mail saying so.
    """
    hold = (game.extra_settings or {}).get(HOLD_KEY)
    if not isinstance(hold, dict) or hold.get("phase") != game.current_phase:
        return
    if any(e.kind in HOLDING_KINDS for e in uow.councils.open_elections(game)):
        return
    settings = dict(game.extra_settings or {})
    settings.pop(HOLD_KEY, None)
    game.extra_settings = settings
    flag_modified(game, "extra_settings")
    start = _aware(game.earliest_at) if game.earliest_at is not None else None
    if start is None or start <= now:
        return
    shift = start - now
    game.earliest_at = now
    if game.deadline_at is not None:
        game.deadline_at = _aware(game.deadline_at) - shift
    if game.grace_at is not None:
        game.grace_at = _aware(game.grace_at) - shift
    if game.deadline_at is not None:
        tell_players(uow, services, game, now, PHASE_STARTS, deadline=_aware(game.deadline_at))


PHASE_STARTS = N_(
    "Every council's election is over: {phase} starts now, and its deadline comes forward to {deadline} "
    "(councils, rule 4)."
)


def tell_players(uow: UnitOfWork, services: Services, game: Game, now: datetime, message: str,
                 **fields: datetime | str) -> None:  # fmt: skip
    """Mail ``message`` (an English id with ``{phase}`` and ``fields``) to everyone who reads the results.

    For what concerns the whole game's timing (a phase starting, a deadline
    moved): each reader in his language, one mail each, its dates in his
    zone (:func:`judge.app.session.readers.reader_zone`) and UTC.
    """
    subject = game_subject(services.config.code, game.name, DEADLINE_EVENT)
    for address, reader in results_audience(uow, game).items():
        _ = translation(reader.language).gettext
        shown = _shown(fields, Reader(address, reader.language, reader.time_zone), services, _)
        body = _(message).format(phase=game.current_phase or "", **shown) + "\n"
        outbox.queue(uow, services, [address], subject, body, now, game_id=game.id)


# ------------------------------------------------------------------ ballots


class BallotRefused(Exception):
    """A ballot the rules refuse; ``reason`` is an English message (gettext id) with ``{...}`` fields."""

    def __init__(self, reason: str, **fields: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.fields = fields


REFUSALS: dict[rules.VoteRefusal, str] = {
    rules.VoteRefusal.NOT_A_VOTER: N_(
        "You have no vote in this election: only members sitting on the council vote, and an accused "
        "member loses his vote (councils, rules 4 and 6). Nothing was recorded."
    ),
    rules.VoteRefusal.NOT_A_CANDIDATE: N_(
        "{candidate} is not a member of your council who may be elected (councils, rule 4). "
        "Nothing was recorded."
    ),
    rules.VoteRefusal.INFLUENCE_NEEDS_ABSTENTION: N_(
        "An influence vote in another country needs you to abstain at home: VOTE ABSTAIN <power> <member> "
        "(councils, rule 4). Nothing was recorded."
    ),
    rules.VoteRefusal.INFLUENCE_OWN_COUNCIL: N_(
        "An influence vote goes to another country's election, not your own (councils, rule 4). "
        "Nothing was recorded."
    ),
    rules.VoteRefusal.INFLUENCE_NOT_OPEN: N_(
        "{power} holds no open election for you to influence. Nothing was recorded."
    ),
    rules.VoteRefusal.INFLUENCE_ONLY_REGULAR: N_(
        "{power}'s early election names a substitute: it takes no influence vote. Nothing was recorded."
    ),
}


@dataclass(frozen=True, slots=True)
class Cast:
    """What :func:`cast` recorded."""

    election: CouncilElection
    candidate: CouncilMember | None
    influence: CouncilElection | None
    influence_candidate: CouncilMember | None
    closed: bool
    replaced: bool = False
    """The voter had voted in this election before: this ballot replaces his earlier one."""


def open_election_of(uow: UnitOfWork, game: Game, power: str) -> CouncilElection | None:
    """The open election of ``power``'s council (the newest one)."""
    elections = uow.councils.open_elections(game, power=power)
    return elections[-1] if elections else None


def find_member(uow: UnitOfWork, game: Game, power: str, word: str) -> CouncilMember | None:
    """The seated member of ``power``'s council that ``word`` names: his number, name or address."""
    wanted = word.strip().lstrip("#").casefold()
    seated = uow.councils.seated(game, power=power)
    for member in seated:
        if wanted == str(member.id):
            return member
    matches = []
    for member in seated:
        person = person_of(uow, member)
        names = {person.name or "", person.primary_address or ""} if person is not None else set()
        if wanted in {n.casefold() for n in names if n}:
            matches.append(member)
    return matches[0] if len(matches) == 1 else None


def cast(
    uow: UnitOfWork,
    services: Services,
    game: Game,
    voter: CouncilMember,
    candidate_word: str | None,
    now: datetime,
    *,
    influence_power: str | None = None,
    influence_word: str | None = None,
) -> Cast:
    """Record ``voter``'s ballot (``candidate_word`` None: abstain), with an optional influence vote.

    Raises :class:`BallotRefused` with the rule's reason. A second ballot
    replaces the first. The election closes when every vote is in
    (:func:`close_complete`).
    """
    election = open_election_of(uow, game, voter.power)
    if election is None:
        raise BallotRefused(N_("Your council holds no election now. Nothing was recorded."))
    council = uow.councils.seated(game, power=voter.power)
    candidate = None
    if candidate_word is not None:
        candidate = find_member(uow, game, voter.power, candidate_word)
        if candidate is None:
            raise BallotRefused(REFUSALS[rules.VoteRefusal.NOT_A_CANDIDATE], candidate=candidate_word)
    refusal = rules.vote_refusal(
        rule_member(voter), rule_member(candidate) if candidate else None, [rule_member(m) for m in council]
    )
    if candidate is not None and candidate.id in ((election.extra or {}).get("excluded") or []):
        refusal = rules.VoteRefusal.NOT_A_CANDIDATE
    if refusal is not None:
        raise BallotRefused(REFUSALS[refusal], candidate=candidate_word or "")
    influence = influence_candidate = None
    if influence_power is not None:
        influence = open_election_of(uow, game, influence_power)
        refusal = rules.influence_refusal(
            rule_member(voter),
            candidate.id if candidate else None,
            influence_power,
            influence is not None,
            influence.kind if influence is not None else rules.REGULAR,
        )
        if refusal is not None:
            raise BallotRefused(REFUSALS[refusal], power=influence_power, candidate=influence_word or "")
        assert influence is not None
        influence_candidate = find_member(uow, game, influence_power, influence_word or "")
        if influence_candidate is None or influence_candidate.status != "active":
            raise BallotRefused(
                N_("{candidate} is not a member of {power}'s council who may be elected. Nothing was recorded."),
                candidate=influence_word or "",
                power=influence_power,
            )
    replaced = any(v.voter_member_id == voter.id for v in uow.councils.votes(election))
    vote = uow.councils.cast_vote(election, voter, candidate, now, influence=influence)
    extra = dict(vote.extra or {})
    if influence_candidate is not None:
        extra[INFLUENCE_KEY] = influence_candidate.id
    else:
        extra.pop(INFLUENCE_KEY, None)
    vote.extra = extra
    uow.flush()
    closed = election.id in close_complete(uow, services, game, now)
    return Cast(election, candidate, influence, influence_candidate, closed, replaced)


def _all_in(uow: UnitOfWork, game: Game, election: CouncilElection) -> bool:
    council = uow.councils.seated(game, power=election.power)
    return rules.everyone_voted(
        [rule_member(m) for m in council], (v.voter_member_id for v in uow.councils.votes(election))
    )


def close_complete(uow: UnitOfWork, services: Services, game: Game, now: datetime) -> set[int]:
    """Close the open elections whose every vote is in; returns their ids.

    An election without a tie closes as soon as its council has voted. A tie
    in a yearly (or first) election waits, for the anonymous influence votes
    of other councils that may break it, until every voter of every open
    election has voted (no influence vote can come any more) or its
    deadline. An early election takes no influence vote: it closes when
    its council has voted, tie or not.
    """
    elections = uow.councils.open_elections(game)
    complete = {e.id for e in elections if _all_in(uow, game, e)}
    everyone = len(complete) == len(elections)
    closed: set[int] = set()
    for election in elections:
        if election.id not in complete:
            continue
        tied = _count(uow, election, uow.councils.seated(game, power=election.power)).tied
        if everyone or election.kind == rules.EARLY or not tied:
            close(uow, services, game, election, now)
            closed.add(election.id)
    return closed


# ------------------------------------------------------------------ counting


def _count(uow: UnitOfWork, election: CouncilElection, council: Sequence[CouncilMember]) -> rules.Result:
    ballots = [rules.Ballot(v.voter_member_id, v.candidate_member_id) for v in uow.councils.votes(election)]
    influence = [
        int(v.extra[INFLUENCE_KEY])
        for v in uow.councils.influence_votes(election)
        if isinstance(v.extra, dict) and v.extra.get(INFLUENCE_KEY) is not None and _still_abstains(v)
    ]
    outgoing = election.extra.get("outgoing") if isinstance(election.extra, dict) else None
    if outgoing is None and election.kind != rules.FIRST:
        general = next((m for m in council if m.role == "general"), None)
        outgoing = general.id if general is not None else None
    excluded = set((election.extra or {}).get("excluded") or [])
    return rules.count(
        [rule_member(m) for m in council],
        ballots,
        influence,
        outgoing=outgoing,
        first=election.kind == rules.FIRST,
        excluded=excluded,
    )


def _still_abstains(vote: object) -> bool:
    return getattr(vote, "candidate_member_id", None) is None


def close(uow: UnitOfWork, services: Services, game: Game, election: CouncilElection, now: datetime) -> rules.Result:
    """Count ``election``, seat the General it names, and mail the result to the council and masters."""
    council = uow.councils.seated(game, power=election.power)
    result = _count(uow, election, council)
    winner = next((m for m in council if m.id == result.winner), None)
    uow.councils.close_election(election, now, outcome=result.outcome, winner=winner)
    _seat_general(uow, game, election.power, council, winner, civil_disorder=result.civil_disorder)
    _mail_result(uow, services, game, election, council, result, now)
    if election.kind in HOLDING_KINDS:
        _end_hold(uow, services, game, now)
    return result


LAST_RANK = 1_000_000
"""A rank placing an Ambassador after all others until :func:`renumber` numbers them again."""


def renumber(uow: UnitOfWork, game: Game, power: str) -> None:
    """Number ``power``'s seated council again: the General 0, its Ambassadors 1, 2, ... in their order.

    Ranks only order the members ("General, Ambassador 1, Ambassador 2"):
    after an election, a departure or a replacement they are numbered again
    from 1, so they never drift to "Ambassador 3" in a council of three.
    """
    seated = uow.councils.seated(game, power=power)
    ambassadors = sorted((m for m in seated if m.role != "general"), key=lambda m: (m.rank, m.id))
    for rank, member in enumerate(ambassadors, start=1):
        if member.rank != rank:
            uow.councils.set_role(member, member.role, rank)
    for member in seated:
        if member.role == "general" and member.rank != 0:
            uow.councils.set_role(member, "general", 0)


def _seat_general(
    uow: UnitOfWork,
    game: Game,
    power: str,
    council: Sequence[CouncilMember],
    winner: CouncilMember | None,
    *,
    civil_disorder: bool,
) -> None:
    """The winner becomes General (rank 0); the outgoing General takes the winner's Ambassador rank."""
    outgoing = next((m for m in council if m.role == "general"), None)
    if winner is not None and outgoing is not winner:
        old_rank = winner.rank
        uow.councils.set_role(winner, "general", 0)
        if outgoing is not None:
            uow.councils.set_role(outgoing, "ambassador", old_rank)
    elif winner is None and outgoing is not None:
        uow.councils.set_role(outgoing, "ambassador", LAST_RANK)
    renumber(uow, game, power)
    seat = next((s for s in game.seats if s.power == power), None)
    if seat is None:
        return
    if civil_disorder and seat.status is SeatStatus.PLAYING:
        uow.seats.set_status(seat, SeatStatus.CIVIL_DISORDER)
    elif winner is not None and seat.status is SeatStatus.CIVIL_DISORDER:
        uow.seats.set_status(seat, SeatStatus.PLAYING)


def close_due(uow: UnitOfWork, services: Services, game: Game, now: datetime) -> int:
    """Close every open election whose deadline has come (the scheduler calls this); returns how many."""
    due = [e for e in uow.councils.open_elections(game) if _aware(e.deadline_at) <= now]
    for election in due:
        close(uow, services, game, election, now)
    return len(due)


def wake_at(uow: UnitOfWork, game: Game, planned: datetime | None) -> datetime | None:
    """``planned``, or the next election deadline if it comes first."""
    deadlines = [_aware(e.deadline_at) for e in uow.councils.open_elections(game)]
    hold = (game.extra_settings or {}).get(RELEASE_KEY)
    if isinstance(hold, dict) and hold.get("phase") == game.current_phase and hold.get("until"):
        deadlines.append(_aware(datetime.fromisoformat(str(hold["until"]))))
    if not deadlines:
        return planned
    first = min(deadlines)
    return first if planned is None or first < planned else planned


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


# ------------------------------------------------------------------ mail


def _recipients(game: Game, power: str) -> list[Reader]:
    """The members who may read ``power``'s council mail now, and the masters: each address once."""
    seen: set[str] = set()
    out: list[Reader] = []
    for reader in [*council_readers(game, power, Channel.COUNCIL), *master_readers(game)]:
        if reader.address.lower() not in seen:
            seen.add(reader.address.lower())
            out.append(reader)
    return out


def announce(uow: UnitOfWork, services: Services, game: Game, election: CouncilElection, now: datetime) -> None:
    """Mail the council and the masters that ``election`` is open, with the candidates and how to vote."""
    council = uow.councils.seated(game, power=election.power)
    candidates = ", ".join(member_label(uow, m) for m in council if m.status == "active")
    for reader in _recipients(game, election.power):
        language = reader.language
        _ = translation(language).gettext
        body = _(
            "{power}'s council elects its General-in-chief ({kind}, year {year}).\n"
            "Vote by mail before {deadline}: VOTE <number or name>, or VOTE ABSTAIN.\n"
            "A member who abstains may add an anonymous influence vote in another country, counted only "
            "to break a tie there: VOTE ABSTAIN <power> <number or name>.\n"
            "Candidates: {candidates}.\n"
        ).format(
            power=power_name(election.power, language),
            kind=_(KIND_NAMES[election.kind]),
            year=election.year,
            deadline=_shown({"deadline": _aware(election.deadline_at)}, reader, services, _)["deadline"],
            candidates=candidates,
        )
        subject = game_subject(services.config.code, game.name, ELECTION_EVENT)
        outbox.queue(uow, services, [reader.address], subject, body, now, game_id=game.id)


KIND_NAMES = {
    rules.FIRST: N_("first election"),
    rules.REGULAR: N_("yearly election"),
    rules.EARLY: N_("early election"),
}
OUTCOMES = {
    rules.ELECTED: N_("{winner} is elected General-in-chief."),
    rules.RE_ELECTED_TIE: N_("Tie: the outgoing General-in-chief, {winner}, stays in office."),
    rules.CIVIL_DISORDER_TIE: N_(
        "Tie with no General to keep: {power} has no General-in-chief and stays in civil disorder "
        "until the next election."
    ),
}


def result_text(
    uow: UnitOfWork,
    language: str, game: Game, election: CouncilElection, council: Sequence[CouncilMember], result: rules.Result
) -> str:
    """The result as the council and the masters read it: home votes per member, never who influenced."""
    _ = translation(language).gettext
    names = {m.id: member_label(uow, m) for m in council}
    winner = names.get(result.winner, "") if result.winner is not None else ""
    lines = [
        _("Result of {power}'s {kind} (year {year}):").format(
            power=power_name(election.power, language), kind=_(KIND_NAMES[election.kind]), year=election.year
        )
    ]
    for member_id, votes in sorted(result.counts.items(), key=lambda item: (-item[1], item[0])):
        lines.append(_("  {member}: {votes} vote(s)").format(member=names.get(member_id, f"#{member_id}"), votes=votes))
    lines.append(_(OUTCOMES[result.outcome]).format(winner=winner, power=power_name(election.power, language)))
    if result.influence_decided:
        lines.append(_("The tie was broken by anonymous influence votes from other councils."))
    return "\n".join(lines) + "\n"


def _mail_result(
    uow: UnitOfWork,
    services: Services,
    game: Game,
    election: CouncilElection,
    council: Sequence[CouncilMember],
    result: rules.Result,
    now: datetime,
) -> None:
    subject = game_subject(services.config.code, game.name, ELECTION_EVENT + " result")
    for reader in _recipients(game, election.power):
        body = result_text(uow, reader.language, game, election, council, result)
        outbox.queue(uow, services, [reader.address], subject, body, now, game_id=game.id)


def mail_member(
    uow: UnitOfWork, services: Services, game: Game, member: CouncilMember, now: datetime, message: str,
    *, channel: Channel = Channel.OWN, **fields: datetime | str,
) -> None:
    """Mail ``message`` (an English id, with ``{power}`` and ``fields``) to ``member`` alone, in his language.

    What happens to one member himself (elimination, seat, leaving) is his
    to read: nobody else gets this mail. The audience decides where it goes
    and whether he may be given it (``channel``: :attr:`Channel.OWN` by
    default, anything about himself; a warning about his power's orders is
    :attr:`Channel.COUNCIL`, for a member who sits as an active member).
    Dates are told in his zone and UTC.
    """
    subject = game_subject(services.config.code, game.name, COUNCIL_EVENT)
    for reader in member_readers(game, member, channel):  # his own addresses (SET ADDRESS), his language
        _ = translation(reader.language).gettext
        shown = _shown(fields, reader, services, _)
        body = _(message).format(power=power_name(member.power, reader.language), **shown) + "\n"
        outbox.queue(uow, services, [reader.address], subject, body, now, game_id=game.id)


def _shown(fields: dict[str, datetime | str], reader: Reader, services: Services, _: Callable[[str], str]) -> dict[str, str]:
    """``fields`` as ``reader`` reads them: each date in his zone (his registration's, else the judge's) and UTC."""
    zone = reader_zone(reader.time_zone, services.config.timezone)
    return {k: (tell_date(v, zone, _) if isinstance(v, datetime) else v) for k, v in fields.items()}


def mail_council(
    uow: UnitOfWork, services: Services, game: Game, power: str, now: datetime, message: str, **fields: datetime | str
) -> None:
    """Mail ``message`` (an English id, with ``{power}`` and ``fields``) to the council's active members and masters,
    each alone, in his language, its dates in his zone and UTC."""
    subject = game_subject(services.config.code, game.name, ELECTION_EVENT)
    for reader in _recipients(game, power):
        _ = translation(reader.language).gettext
        shown = _shown(fields, reader, services, _)
        body = _(message).format(power=power_name(power, reader.language), **shown) + "\n"
        outbox.queue(uow, services, [reader.address], subject, body, now, game_id=game.id)
