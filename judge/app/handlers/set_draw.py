"""SET DRAW [letters] / SET NO DRAW: a power's draw vote for this phase (judge-conventions §7).

In a DIAS game the vote is for a draw of all survivors and takes no list; in
a NoDIAS game it names the powers of the draw the voter accepts. The vote
is kept secret; when every voter agrees the game ends at once, announced to
everyone with the final summary (:mod:`judge.app.games.endgame`).
"""

from __future__ import annotations

from judge.app.game_state.agreements import Agreement
from judge.app.game_state.game_facts import power_letter
from judge.app.games.draws import MAX_DRAW_LETTERS, letters_to_powers, settle, voter
from judge.app.hooks.game_hooks import hooks_for
from judge.app.reports.final_summary import names
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import DrawVoteKind
from judge.lang.commands import SetDraw


@handles(SetDraw)
def handle(command: SetDraw, session: MailSession) -> Next:
    hooks_for(session.game).check_draw(session)  # councils: the General alone (no query in other games)
    _ = session.gettext
    ballot = voter(session, "SET NO DRAW" if not command.vote else "SET DRAW")
    game, language = ballot.game, session.language
    if not command.vote:
        session.uow.press.vote(game, ballot.seat, DrawVoteKind.NO_DRAW, session.now)
        if game.dias:
            session.reply.ok(command.line, _("Recorded: you do not accept a draw this phase."))
        else:
            session.reply.ok(command.line, _("Recorded: you accept no draw this phase, only your own win."))
    elif game.dias:
        if command.powers:
            raise CommandRefused(
                _("This is a DIAS game: a draw includes every surviving power, so SET DRAW takes no list. "
                  "The vote was not recorded.")
            )
        session.uow.press.vote(game, ballot.seat, DrawVoteKind.DRAW, session.now)
        session.reply.ok(
            command.line,
            _("Recorded: you accept a draw between all the surviving powers. Votes are secret and last "
              "until this phase is processed."),
        )
    else:
        if not command.powers:
            raise CommandRefused(
                _("This is a NoDIAS game: name the powers of the draw you accept, e.g. SET DRAW AEF. "
                  "The vote was not recorded.")
            )
        if len(command.powers) > MAX_DRAW_LETTERS:
            raise CommandRefused(
                _("A draw list has at most {count} letters. The vote was not recorded.").format(
                    count=MAX_DRAW_LETTERS
                )
            )
        powers = letters_to_powers(game, command.powers)
        gone = [p for p in powers if p not in ballot.alive]
        if gone or not powers:
            raise CommandRefused(
                _("{powers}: not a surviving power; a draw can include only powers still in the game. "
                  "The vote was not recorded.").format(powers=names(gone or [command.powers], language, _))
            )
        letters = "".join(power_letter(game, p) for p in powers)
        session.uow.press.vote(game, ballot.seat, DrawVoteKind.DRAW, session.now, powers=letters)
        if ballot.power in powers:
            message = _("Recorded: you accept a draw between {powers}, or any part of them that includes you.")
        else:
            message = _("Recorded: you accept a draw between {powers}, or any part of them, with or without you.")
        session.reply.ok(
            command.line,
            message.format(powers=names(powers, language, _)),
            _("Votes are secret and last until this phase is processed."),
        )
    passed = settle(session, ballot)
    if passed is not None:
        if passed.agreement is Agreement.DRAW:
            ended = _("The draw has passed: the game is over. Everyone has been sent the final summary.")
        else:
            ended = _("The votes concede the game to {power}: the game is over. Everyone has been sent "
                      "the final summary.").format(power=names(passed.powers, language, _))
        session.reply.ok(command.line, ended)
    return Next.CONTINUE
