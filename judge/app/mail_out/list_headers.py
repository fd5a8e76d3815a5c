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
row's game and reader: a batch of mails in two reads.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection

from sqlalchemy import Connection, Select, bindparam, select

from judge.app.session.services import Services
from judge.db.models import Game, GameObserver
from judge.db.repositories.people import normalise_address
from judge.mail.compose import header_lines

_LABEL = re.compile(r"[^a-z0-9-]+")


def list_headers(services: Services, game_id: int, reader: str) -> bytes:
    """The ``List-*`` headers of a mail about game ``game_id`` to ``reader``, in wire form
    (empty when the game is gone)."""
    with services.db.unit_of_work(readonly=True) as uow:
        return list_headers_on(uow.session.connection(), services, [(game_id, reader)])[(game_id, reader)]


def list_headers_on(
    connection: Connection, services: Services, mails: Collection[tuple[int, str]]
) -> dict[tuple[int, str], bytes]:
    """:func:`list_headers` of several mails (game, reader) in two reads on ``connection`` (in
    Core: the statements are made once, no ORM objects read): the sender's batch, read in its claim."""
    wanted = {(game_id, reader, normalise_address(reader)) for game_id, reader in mails}
    games = {game_id for game_id, _reader, _address in wanted}
    names: dict[int, str] = dict(
        connection.execute(_names_statement(), {"list_games": list(games)}).tuples().all()
    ) if games else {}  # fmt: skip
    observers: dict[tuple[int, str], int] = {}
    addresses = {address for _game, _reader, address in wanted}
    if names and addresses:
        found = connection.execute(
            _observers_statement(), {"list_named": list(names), "list_addresses": list(addresses)}
        ).tuples()
        for game_id, address, observer_id in found:
            observers[(game_id, address)] = observer_id  # the first of the game's rows wins, as before
    list_ids = {game_id: header_lines([_list_id(services, game_id, name)]) for game_id, name in names.items()}
    headers: dict[tuple[int, str], bytes] = {}
    for game_id, reader, address in wanted:  # a game's List-Id written once, for all its readers
        watcher = observers.get((game_id, address))
        lines = list_ids.get(game_id, b"")
        if lines and watcher is not None:
            lines += header_lines(_unsubscribe(services, address, watcher))
        headers[(game_id, reader)] = lines
    return headers


@functools.cache
def _names_statement() -> Select[tuple[int, str]]:
    return select(Game.id, Game.name).where(Game.id.in_(bindparam("list_games", expanding=True)))


@functools.cache
def _observers_statement() -> Select[tuple[int, str, int]]:
    return (
        select(GameObserver.game_id, GameObserver.address, GameObserver.id)
        .where(
            GameObserver.game_id.in_(bindparam("list_named", expanding=True)),
            GameObserver.address.in_(bindparam("list_addresses", expanding=True)),
        )
        .order_by(GameObserver.id.desc())
    )


def _list_id(services: Services, game_id: int, name: str) -> tuple[str, str]:
    config = services.config
    label = _LABEL.sub("-", name.lower()).strip("-") or f"game{game_id}"
    return "List-Id", f"{config.code} game {name} <{label}.{config.code.lower()}.{services.verp.domain}>"


def _unsubscribe(services: Services, address: str, observer_id: int) -> list[tuple[str, str]]:
    """An observer's ``List-Unsubscribe`` (and RFC 8058's ``List-Unsubscribe-Post`` when one click can do it)."""
    config = services.config
    verp = services.verp
    mailto = f"<mailto:{verp.unsubscribe_address(observer_id, address)}?subject=unsubscribe>"
    base = config.web_base_url
    if config.web_port and base.startswith("https://"):
        one_click = f"<{base}/unsubscribe/{verp.unsubscribe_token(observer_id, address)}>"
        return [("List-Unsubscribe", f"{one_click}, {mailto}"), ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")]
    return [("List-Unsubscribe", mailto)]
