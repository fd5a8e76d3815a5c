"""Errors of the game core, precise enough to build a player-facing message from.

All are ``ValueError`` subclasses (as python-chess does for moves): the input
was wrong, the program was not. ``str(error)`` is already a sentence a player
can read, in English; attributes carry the parts for reports.

Translations: an error that a player may read also carries its sentence as a
:class:`Message`, a template marked with :func:`N_` and its arguments, in
``error.translatable``. The English text is that message rendered with the
template as written, so the two can never disagree; the app layer
(``judge.app.session.error_text``) renders the same message in the reader's language,
naming each :class:`Place` and :class:`PowerName` in that language. The core
stays pure: no gettext here, only the marks and the data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass


def N_(message: str) -> str:
    """Mark a message template for extraction into the catalogs; it is translated where it is shown."""
    return message


@dataclass(frozen=True, slots=True)
class Place:
    """A province or location in a message: its code, to name it in the reader's language, and its English name."""

    code: str
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class PowerName:
    """A power in a message: its code (``"ENGLAND"``) and its English name as the sentence writes it."""

    code: str
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Listing:
    """Several values written as one: ``"A or B"``, ``"A, B, C"``.

    ``separator`` goes between the items; when it is a marked message
    (``N_(" or ")``) it is translated like any template.
    """

    items: tuple[object, ...]
    separator: str

    def __str__(self) -> str:
        return render(self)


class Message:
    """A sentence for a player: a template (marked with :func:`N_`) and the values of its fields.

    A value is written as is (text the player typed, a number, a keyword),
    unless it is a :class:`Place`, a :class:`PowerName`, a :class:`Listing`
    or another :class:`Message`, which are rendered in the reader's language.
    ``str(message)`` is the English sentence.
    """

    __slots__ = ("args", "template")

    def __init__(self, template: str, /, **args: object) -> None:
        self.template = template
        self.args: Mapping[str, object] = args

    def __str__(self) -> str:
        return render(self)

    def __repr__(self) -> str:
        return f"Message({self.template!r}, {dict(self.args)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and (self.template, dict(self.args)) == (other.template, dict(other.args))

    def __hash__(self) -> int:
        return hash(self.template)


def _english_place(place: Place) -> str:
    return place.name


def _english_power(power: PowerName) -> str:
    return power.name


def _as_is(message: str) -> str:
    return message


def render(
    value: object,
    gettext: Callable[[str], str] = _as_is,
    place: Callable[[Place], str] = _english_place,
    power: Callable[[PowerName], str] = _english_power,
) -> str:
    """``value`` as text: templates through ``gettext``, places and powers named by ``place`` and ``power``.

    With the defaults, the English sentence the core writes.
    """
    return str(_rendered(value, gettext, place, power))


def _rendered(
    value: object,
    gettext: Callable[[str], str],
    place: Callable[[Place], str],
    power: Callable[[PowerName], str],
) -> object:
    """Rendered text for the kinds of value above; any other value unchanged, for ``format`` to write."""
    if isinstance(value, Message):
        fields = {name: _rendered(arg, gettext, place, power) for name, arg in value.args.items()}
        return gettext(value.template).format(**fields) if fields else gettext(value.template)
    if isinstance(value, Place):
        return place(value)
    if isinstance(value, PowerName):
        return power(value)
    if isinstance(value, Listing):
        separator = gettext(value.separator)
        return separator.join(str(_rendered(item, gettext, place, power)) for item in value.items)
    return value


class CoreError(ValueError):
    """Base of every error the core raises.

    Built from a plain string (English only) or from a :class:`Message`,
    which is then kept in ``translatable`` and rendered in English for
    ``str(error)``.
    """

    translatable: Message | None = None

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], Message):
            self.translatable = args[0]
            args = (str(args[0]), *args[1:])
        super().__init__(*args)


class PhaseError(CoreError):
    """A phase name that cannot be read, or a phase that does not exist."""


class VariantError(CoreError):
    """An unknown variant, or a variant data file that is not consistent."""


class UnknownProvinceError(CoreError):
    """A province name that the map does not know."""

    def __init__(self, text: str, suggestions: tuple[str, ...] = ()) -> None:
        self.text = text
        self.suggestions = suggestions
        if suggestions:
            hint = Listing(tuple(suggestions), N_(" or "))
            super().__init__(Message(N_("Unrecognized province -> {text} (did you mean {suggestions}?)"),
                                     text=text, suggestions=hint))
        else:
            super().__init__(Message(N_("Unrecognized province -> {text}"), text=text))


class AmbiguousProvinceError(CoreError):
    """A name that means two or more places and that nothing in the context settles."""

    def __init__(self, text: str, candidates: tuple[str, ...]) -> None:
        self.text = text
        self.candidates = candidates
        super().__init__(Message(N_("Ambiguous province -> {text} (could be {candidates})"),
                                 text=text, candidates=Listing(tuple(candidates), N_(" or "))))


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


def _name(place: str | Place) -> str:
    """The English name of a place given as a name or as a :class:`Place`: what the attributes keep."""
    return str(place)


class RulesError(CoreError):
    """A per-game rule option that does not exist, or a value it cannot take."""

    def __init__(self, option: str, value: object, allowed: tuple[str, ...] = ()) -> None:
        self.option = option
        self.value = value
        self.allowed = allowed
        if allowed:
            message = Message(N_("Rule option {option} cannot be {value!r}: choose one of {allowed}."),
                              option=option, value=value, allowed=", ".join(allowed))
        else:
            message = Message(N_("There is no rule option called {option!r}."), option=option)
        super().__init__(message)


class NoSuchUnitError(OrderError):
    """The order names a province where there is no unit (or no unit that may act now)."""

    def __init__(self, location: str | Place, message: str | Message | None = None) -> None:
        self.location = _name(location)
        super().__init__(message or Message(N_("There is no unit in {location}."), location=location))


class NotYourUnitError(OrderError):
    """The order names a unit that belongs to another power."""

    def __init__(self, location: str | Place, owner: str) -> None:
        self.location = _name(location)
        self.owner = owner
        super().__init__(Message(N_("The unit in {location} belongs to {owner}, not to you."),
                                 location=location, owner=PowerName(owner, owner.title())))


class NotAdjacentError(OrderError):
    """A move, retreat or support towards a province the unit cannot reach."""

    def __init__(self, source: str | Place, destination: str | Place, message: str | Message | None = None) -> None:
        self.source = _name(source)
        self.destination = _name(destination)
        super().__init__(message or Message(N_("{source} is not adjacent to {destination}."),
                                            source=source, destination=destination))


class AmbiguousCoastError(CoastError, OrderError):
    """A fleet sent to (or built in) a split-coast province without saying which coast."""

    def __init__(self, province: str | Place, coasts: tuple[str, ...]) -> None:
        self.province = _name(province)
        self.coasts = coasts
        choices = Listing(tuple(Message("{province}/{coast}", province=province, coast=c) for c in coasts), N_(" or "))
        super().__init__(Message(N_("Say which coast of {province}: {choices}."), province=province, choices=choices))


class ArmyToSeaError(OrderError):
    """An army ordered into (or built in) a sea province."""

    def __init__(self, province: str | Place) -> None:
        self.province = _name(province)
        super().__init__(Message(N_("An army cannot go to {province}: it is a sea province."), province=province))


class FleetInlandError(OrderError):
    """A fleet ordered into (or built in) an inland province."""

    def __init__(self, province: str | Place) -> None:
        self.province = _name(province)
        super().__init__(Message(N_("A fleet cannot go to {province}: it has no coast."), province=province))


class WrongPhaseError(OrderError):
    """An order of a kind the current phase does not take (a support in a retreat phase...)."""

    def __init__(self, order_text: str, phase_kind: str) -> None:
        self.order_text = order_text
        self.phase_kind = phase_kind
        super().__init__(Message(N_("The order {order} cannot be given in {phase}."),
                                 order=order_text, phase=Message(_PHASE_KINDS.get(phase_kind, phase_kind))))


# Whole phrases, article included ("an adjustment phase", "en phase d'ajustement"): each language
# chooses its own article and preposition.
_PHASE_KINDS = {
    "movement": N_("a movement phase"), "retreat": N_("a retreat phase"), "adjustment": N_("an adjustment phase"),
}


class NoConvoyRouteError(OrderError):
    """An army move that needs a convoy, with no chain of fleets at sea that could carry it."""

    def __init__(self, source: str | Place, destination: str | Place) -> None:
        self.source = _name(source)
        self.destination = _name(destination)
        super().__init__(Message(N_("No chain of fleets at sea could convoy an army from {source} to {destination}."),
                                 source=source, destination=destination))


class IllegalConvoyError(OrderError):
    """A convoy order that can never take part in a convoy (wrong unit, fleet off the route...)."""


class IllegalSupportError(OrderError):
    """A support order that can never be given (to itself, to an impossible move...)."""


class NotDislodgedError(OrderError):
    """A retreat or disband order for a unit that is not waiting to retreat."""

    def __init__(self, location: str | Place) -> None:
        self.location = _name(location)
        super().__init__(Message(N_("The unit in {location} was not dislodged: it has no retreat to make."),
                                 location=location))


class BuildNotHomeCentreError(OrderError):
    """A build outside the power's home supply centres."""

    def __init__(self, province: str | Place) -> None:
        self.province = _name(province)
        super().__init__(Message(N_("{province} is not one of your home supply centres."), province=province))


class BuildNotOwnedError(OrderError):
    """A build in a home centre the power does not own at the moment."""

    def __init__(self, province: str | Place) -> None:
        self.province = _name(province)
        super().__init__(Message(N_("You do not own {province} at the moment, so you cannot build there."),
                                 province=province))


class BuildOccupiedError(OrderError):
    """A build in a centre where a unit stands (or was just built)."""

    def __init__(self, province: str | Place) -> None:
        self.province = _name(province)
        super().__init__(Message(N_("{province} is occupied, so you cannot build there."), province=province))


class TooManyBuildsError(OrderError):
    """More builds (or waives) than the power is owed."""

    def __init__(self, allowed: int) -> None:
        self.allowed = allowed
        super().__init__(
            Message(N_("You may not build any units.")) if allowed == 0
            else Message(N_("You may build only {count} unit(s)."), count=allowed)
        )


class TooManyRemovalsError(OrderError):
    """More removals than the power owes."""

    def __init__(self, owed: int) -> None:
        self.owed = owed
        super().__init__(
            Message(N_("You do not have to remove any units.")) if owed == 0
            else Message(N_("You have to remove only {count} unit(s)."), count=owed)
        )


class IllegalRetreatError(OrderError):
    """A retreat to a place the dislodged unit may not go (occupied, a standoff, the attacker's origin...)."""
