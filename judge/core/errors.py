"""Errors of the game core, precise enough to build a player-facing message from.

All are ``ValueError`` subclasses (as python-chess does for moves): the input
was wrong, the program was not. ``str(error)`` is already a sentence a player
can read; attributes carry the parts for reports and translations.
"""

from __future__ import annotations


class CoreError(ValueError):
    """Base of every error the core raises."""


class PhaseError(CoreError):
    """A phase name that cannot be read, or a phase that does not exist."""


class VariantError(CoreError):
    """An unknown variant, or a variant data file that is not consistent."""


class UnknownProvinceError(CoreError):
    """A province name that the map does not know."""

    def __init__(self, text: str, suggestions: tuple[str, ...] = ()) -> None:
        self.text = text
        self.suggestions = suggestions
        hint = f" (did you mean {' or '.join(suggestions)}?)" if suggestions else ""
        super().__init__(f"Unrecognized province -> {text}{hint}")


class AmbiguousProvinceError(CoreError):
    """A name that means two or more places and that nothing in the context settles."""

    def __init__(self, text: str, candidates: tuple[str, ...]) -> None:
        self.text = text
        self.candidates = candidates
        super().__init__(f"Ambiguous province -> {text} (could be {' or '.join(candidates)})")


class CoastError(CoreError):
    """A coast that is missing where one is needed, or given where there is none."""


class PositionError(CoreError):
    """A position that cannot be on the board: a unit in an impossible place, two units in one province, an unknown power."""


class OrderError(CoreError):
    """An order that cannot be read or is not legal; subclasses say which."""
