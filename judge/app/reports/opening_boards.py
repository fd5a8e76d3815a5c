"""A variant's opening board as a picture (`judge map --variant`), and the boards a sender draws before its first deadline.

The parts of a board that never change (land, sea, borders, labels, the unit symbols) are drawn
once per map and language and kept by :mod:`judge.maps` (:mod:`judge.maps.layers`,
:mod:`judge.maps.sprites`); a phase's picture then composes only what changed. A process of the
outbound role that has just started has kept nothing, so its first results mail of each variant
would pay for that drawing inside the deadline's minute, when a thousand games may fall due
together. :func:`warm_boards` draws the opening of every variant in play, in every language of the
maps, when the role starts: the kept parts are ready before any deadline.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from judge.app.game_state.boards import opening_position
from judge.core.errors import PositionError
from judge.core.variants import load_map
from judge.db.database import Database
from judge.i18n import LANGUAGES
from judge.maps.machiavelli_layer import has_a_board_of_its_own, render_machiavelli_svg
from judge.maps.png import svg_to_png
from judge.maps.render import render_svg

log = logging.getLogger(__name__)

_WARMED: set[tuple[str, str]] = set()
"""The (variant, language) boards :func:`warm_boards` drew in this process: drawn once."""


def opening_svg(variant: str, phase: str | None = None, title: str | None = None, language: str = "en") -> str:
    """The opening board of ``variant`` as a game of it starts (Chaos: its first builds; the
    Renaissance game: the adjustments of 1453, with its garrisons and control).

    ``phase``, when given, must be the variant's first phase (a :class:`PositionError` says which it is)."""
    if has_a_board_of_its_own(variant):
        from judge.app.machiavelli.stored_phase import opening_json
        from judge.core.machiavelli.board import load_board
        from judge.core.machiavelli.serialization import position_from_json

        board = load_board(variant.lower())
        start = position_from_json(board, opening_json(board))
        if phase is not None and phase.upper() != str(start.phase):
            raise PositionError(f"the opening of {board.game_map.name} is {start.phase}, not {phase.upper()}")
        return render_machiavelli_svg(board, start, title=title, language=language)

    game_map = load_map(variant.lower())
    opening = opening_position(game_map)
    if phase is not None and phase.upper() != str(opening.phase):
        raise PositionError(f"the opening of {game_map.name} is {opening.phase}, not {phase.upper()}")
    return render_svg(game_map, opening, title=title, language=language)


def warm_boards(db: Database, stop: Callable[[], bool] = lambda: False) -> int:
    """Draw, once per process, the opening of each variant of the games not over in each language
    of the maps (the picture is thrown away: what is kept is each board's unchanging parts);
    ``stop()`` is asked before each board (a judge shutting down does not wait for them all).

    Returns how many boards were drawn now. A board that cannot be drawn is logged and skipped:
    warming only saves time, and the results mail of that variant will say why it has no map.
    """
    with db.unit_of_work(readonly=True) as uow:
        variants = uow.games.variants_in_play()
    drawn = 0
    for variant in variants:
        for language in LANGUAGES:
            if stop():
                return drawn
            if (variant, language) in _WARMED:
                continue
            _WARMED.add((variant, language))
            try:
                svg_to_png(opening_svg(variant, title=variant, language=language))
            except Exception:
                log.exception("could not draw the %s opening board (%s) ahead of the deadlines", variant, language)
                continue
            drawn += 1
    return drawn
