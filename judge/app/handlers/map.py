"""MAP [game] [phase] [SVG]: the board as a picture, attached to the reply (issue 16).

Anyone may ask, before or after a sign-on, as for HISTORY: a processed
phase's picture shows what its results mail told every player, master and
observer. The phase being played is drawn without orders (nobody's orders
are shown before the phase is processed, not even the asker's own); a
picture names powers, never players, so gunboat games stay anonymous. In a Fog of War
game the picture is the asker's view (judge.app.audience.blind_view). PNG by
default, SVG on request; one picture per mail.
"""

from __future__ import annotations

from judge.app.audience.blind_view import session_view
from judge.app.handlers.summary import requested_game
from judge.app.mail_out.results_maps import file_name, phase_svg
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.models import Game, PhaseRecord
from judge.lang.commands import MapRequest
from judge.mail.compose import Attachment
from judge.maps.png import svg_to_png


@handles(MapRequest)
def handle(command: MapRequest, session: MailSession) -> Next:
    _ = session.gettext
    game = requested_game(session, command.game, "MAP")
    if session.reply_attachment is not None:
        raise CommandRefused(_("One map per mail: this mail already has one. Send another mail for another map."))
    record, previous = _record(session, game, command.phase)
    svg = phase_svg(game, record, previous, view=session_view(session, game))  # Fog of War: what the asker sees
    if command.svg:
        attachment = Attachment(file_name(game, record.name, "svg"), "image/svg+xml", svg.encode("utf-8"))
    else:
        attachment = Attachment(file_name(game, record.name, "png"), "image/png", svg_to_png(svg))
    session.reply_attachment = attachment
    if record.processed_at is not None:
        what = _("The map of {game}, {phase}, with its orders and results, is attached ({file}).")
    else:
        what = _("The map of {game}, {phase}, is attached ({file}); orders are shown once the phase is processed.")
    session.reply.ok(command.line, what.format(game=game.name, phase=record.name, file=attachment.filename))
    return Next.CONTINUE


def _record(session: MailSession, game: Game, phase: str | None) -> tuple[PhaseRecord, PhaseRecord | None]:
    """The phase asked for (by name, the latest of that name), else the latest; and the one before it."""
    _ = session.gettext
    records = session.uow.phases.history(game)
    if not records:
        raise CommandRefused(_("{game} has not started: there is no board to draw yet.").format(game=game.name))
    if phase is None:
        return records[-1], records[-2] if len(records) > 1 else None
    matching = [k for k, r in enumerate(records) if r.name.upper() == phase.upper()]
    if not matching:
        raise CommandRefused(
            _("{game} has no phase {phase}: it has {first} to {last}.").format(
                game=game.name, phase=phase, first=records[0].name, last=records[-1].name
            )
        )
    index = matching[-1]
    return records[index], records[index - 1] if index > 0 else None
