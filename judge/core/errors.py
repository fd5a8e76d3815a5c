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


# --- Adjudication: rule options and order legality -------------------------
#
# Each error below is raised (or returned) by judge.core.adjudicator.validation
# when an order cannot be carried out on the board as it stands. The message is
# a sentence for the player; the attributes let a reply builder or a translation
# say the same thing differently.


class RulesError(CoreError):
    """A per-game rule option that does not exist, or a value it cannot take."""

    def __init__(self, option: str, value: object, allowed: tuple[str, ...] = ()) -> None:
        self.option = option
        self.value = value
        self.allowed = allowed
        if allowed:
            message = f"Rule option {option} cannot be {value!r}: choose one of {', '.join(allowed)}."
        else:
            message = f"There is no rule option called {option!r}."
        super().__init__(message)


class NoSuchUnitError(OrderError):
    """The order names a province where there is no unit (or no unit that may act now)."""

    def __init__(self, location: str, message: str | None = None) -> None:
        self.location = location
        super().__init__(message or f"There is no unit in {location}.")


class NotYourUnitError(OrderError):
    """The order names a unit that belongs to another power."""

    def __init__(self, location: str, owner: str) -> None:
        self.location = location
        self.owner = owner
        super().__init__(f"The unit in {location} belongs to {owner.title()}, not to you.")


class NotAdjacentError(OrderError):
    """A move, retreat or support towards a province the unit cannot reach."""

    def __init__(self, source: str, destination: str, message: str | None = None) -> None:
        self.source = source
        self.destination = destination
        super().__init__(message or f"{source} is not adjacent to {destination}.")


class AmbiguousCoastError(CoastError, OrderError):
    """A fleet sent to (or built in) a split-coast province without saying which coast."""

    def __init__(self, province: str, coasts: tuple[str, ...]) -> None:
        self.province = province
        self.coasts = coasts
        choices = " or ".join(f"{province}/{coast}" for coast in coasts)
        super().__init__(f"Say which coast of {province}: {choices}.")


class ArmyToSeaError(OrderError):
    """An army ordered into (or built in) a sea province."""

    def __init__(self, province: str) -> None:
        self.province = province
        super().__init__(f"An army cannot go to {province}: it is a sea province.")


class FleetInlandError(OrderError):
    """A fleet ordered into (or built in) an inland province."""

    def __init__(self, province: str) -> None:
        self.province = province
        super().__init__(f"A fleet cannot go to {province}: it has no coast.")


class WrongPhaseError(OrderError):
    """An order of a kind the current phase does not take (a support in a retreat phase...)."""

    def __init__(self, order_text: str, phase_kind: str) -> None:
        self.order_text = order_text
        self.phase_kind = phase_kind
        super().__init__(f"The order {order_text} cannot be given in a {phase_kind} phase.")


class NoConvoyRouteError(OrderError):
    """An army move that needs a convoy, with no chain of fleets at sea that could carry it."""

    def __init__(self, source: str, destination: str) -> None:
        self.source = source
        self.destination = destination
        super().__init__(f"No chain of fleets at sea could convoy an army from {source} to {destination}.")


class IllegalConvoyError(OrderError):
    """A convoy order that can never take part in a convoy (wrong unit, fleet off the route...)."""


class IllegalSupportError(OrderError):
    """A support order that can never be given (to itself, to an impossible move...)."""


class NotDislodgedError(OrderError):
    """A retreat or disband order for a unit that is not waiting to retreat."""

    def __init__(self, location: str) -> None:
        self.location = location
        super().__init__(f"The unit in {location} was not dislodged: it has no retreat to make.")


class BuildNotHomeCentreError(OrderError):
    """A build outside the power's home supply centres."""

    def __init__(self, province: str) -> None:
        self.province = province
        super().__init__(f"{province} is not one of your home supply centres.")


class BuildNotOwnedError(OrderError):
    """A build in a home centre the power does not own at the moment."""

    def __init__(self, province: str) -> None:
        self.province = province
        super().__init__(f"You do not own {province} at the moment, so you cannot build there.")


class BuildOccupiedError(OrderError):
    """A build in a centre where a unit stands (or was just built)."""

    def __init__(self, province: str) -> None:
        self.province = province
        super().__init__(f"{province} is occupied, so you cannot build there.")


class TooManyBuildsError(OrderError):
    """More builds (or waives) than the power is owed."""

    def __init__(self, allowed: int) -> None:
        self.allowed = allowed
        super().__init__(
            "You may not build any units." if allowed == 0 else f"You may build only {allowed} unit(s)."
        )


class TooManyRemovalsError(OrderError):
    """More removals than the power owes."""

    def __init__(self, owed: int) -> None:
        self.owed = owed
        super().__init__(
            "You do not have to remove any units." if owed == 0 else f"You have to remove only {owed} unit(s)."
        )


class IllegalRetreatError(OrderError):
    """A retreat to a place the dislodged unit may not go (occupied, a standoff, the attacker's origin...)."""
