"""Headers that depend on the reader's place in a game, added as a mail goes out (issue 30).

A mail about a game carries a ``List-Id`` for that game (RFC 2919), so players
can filter it: ``List-Id: XPY game demo <demo.xpy.example.org>``. A mail to one
of the game's observers also carries ``List-Unsubscribe`` (RFC 2369): a mailto
to the judge's bounce address with a token that stops that observer's mail
(judge.mail.verp; the worker carries it out, judge.app.mail_out.bounces), and,
when the web role is on and reached over HTTPS (``web_base_url``), the RFC
8058 one-click address first, with ``List-Unsubscribe-Post``. Players' mail
carries none: a player leaves a game with RESIGN, not by a click.

The outbox row keeps the mail as rendered for its one reader; these headers
are written by the sender (like the VERP envelope and the map), from the
row's game and reader, in one read.
"""

from __future__ import annotations

import re

from sqlalchemy import and_, select

from judge.app.session.services import Services
from judge.db.models import Game, GameObserver
from judge.db.repositories.people import normalise_address
from judge.mail.compose import header_lines

_LABEL = re.compile(r"[^a-z0-9-]+")


def list_headers(services: Services, game_id: int, reader: str) -> bytes:
    """The ``List-*`` headers of a mail about game ``game_id`` to ``reader``, in wire form
    (empty when the game is gone)."""
    address = normalise_address(reader)
    with services.db.unit_of_work(readonly=True) as uow:
        row = uow.session.execute(
            select(Game.name, GameObserver.id)
            .outerjoin(GameObserver, and_(GameObserver.game_id == Game.id, GameObserver.address == address))
            .where(Game.id == game_id)
            .order_by(GameObserver.id)
            .limit(1)
        ).first()
    if row is None:
        return b""
    name, observer_id = row
    config = services.config
    verp = services.verp
    label = _LABEL.sub("-", name.lower()).strip("-") or f"game{game_id}"
    headers = [("List-Id", f"{config.code} game {name} <{label}.{config.code.lower()}.{verp.domain}>")]
    if observer_id is not None:
        mailto = f"<mailto:{verp.unsubscribe_address(observer_id, address)}?subject=unsubscribe>"
        base = config.web_base_url
        if config.web_port and base.startswith("https://"):
            one_click = f"<{base}/unsubscribe/{verp.unsubscribe_token(observer_id, address)}>"
            headers += [("List-Unsubscribe", f"{one_click}, {mailto}"),
                        ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")]  # fmt: skip
        else:
            headers.append(("List-Unsubscribe", mailto))
    return header_lines(headers)
