"""SET CONCEDE p / SET NO CONCEDE: concede the game to the largest power (judge-conventions §7).

Only in DIAS games that allow concessions (in NoDIAS games a one-power
``SET DRAW`` list is the concession), only to the power with strictly the
most supply centres, named to be sure the voter knows whom he concedes to.
The game is conceded when every other voter concedes; like draw votes, a
concession lasts one phase and is secret until it passes.
"""

from __future__ import annotations

from judge.app.game_state.game_facts import power_letter, power_name
from judge.app.games.draws import settle, strictly_largest, voter
from judge.app.hooks.game_hooks import hooks_for
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import DrawVoteKind
from judge.lang.commands import SetConcede


@handles(SetConcede)
def handle(command: SetConcede, session: MailSession) -> Next:
    hooks_for(session.game).check_concede(session)  # councils: the General alone (no query in other games)
    _ = session.gettext
    ballot = voter(session, "SET CONCEDE" if command.power is not None else "SET NO CONCEDE")
    game, language = ballot.game, session.language
    if command.power is None:
        votes = {vote.seat_id: vote for vote in session.uow.press.votes(game)}
        standing = votes.get(ballot.seat.id)
        if standing is None or standing.kind is not DrawVoteKind.CONCEDE:
            session.reply.ok(command.line, _("You had not conceded this phase: nothing to withdraw."))
            return Next.CONTINUE
        session.uow.press.withdraw_vote(game, ballot.seat)
        session.reply.ok(command.line, _("Your concession is withdrawn."))
        return Next.CONTINUE
    if not game.dias:
        raise CommandRefused(
            _("This is a NoDIAS game: concede with a draw vote naming one power, e.g. SET DRAW F. "
              "The concession was not recorded.")
        )
    if not game.concessions:
        raise CommandRefused(_("Concessions are not allowed in this game. The concession was not recorded."))
    largest = strictly_largest(ballot.position)
    if largest is None:
        raise CommandRefused(
            _("No power has strictly more supply centres than every other: a game can be conceded only "
              "to the largest power. The concession was not recorded.")
        )
    if command.power != largest:
        raise CommandRefused(
            _("A game can be conceded only to the largest power, which is {largest}, not {power}. "
              "The concession was not recorded.").format(
                largest=power_name(largest, language), power=power_name(command.power, language)
            )
        )
    if ballot.power == largest:
        raise CommandRefused(
            _("You cannot concede the game to yourself. The concession was not recorded.")
        )
    letter = power_letter(game, largest)
    session.uow.press.vote(game, ballot.seat, DrawVoteKind.CONCEDE, session.now, powers=letter)
    session.reply.ok(
        command.line,
        _("Recorded: you concede the game to {power}. Votes are secret and last until this phase "
          "is processed.").format(power=power_name(largest, language)),
    )
    if settle(session, ballot) is not None:
        session.reply.ok(
            command.line,
            _("The game has been conceded to {power}: it is over. Everyone has been sent the final "
              "summary.").format(power=power_name(largest, language)),
        )
    return Next.CONTINUE

