"""What a passed draw or concession vote is: the value the draw code hands to the endgame.

Kept apart from :mod:`judge.app.games.draws` (which counts votes and calls the
endgame) so that :mod:`judge.app.games.endgame` can name these types without
importing the vote counting that imports it back.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Agreement(StrEnum):
    DRAW = "draw"
    CONCESSION = "concession"


@dataclass(frozen=True)
class Passed:
    """A vote that passed: a draw between ``powers``, or a concession to the one power in it."""

    agreement: Agreement
    powers: tuple[str, ...]
