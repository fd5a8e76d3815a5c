"""Messages of the core's errors: one template, rendered in English by the core and in other languages by the app."""

from __future__ import annotations

from judge.core.errors import (
    N_,
    AmbiguousCoastError,
    CoreError,
    Listing,
    Message,
    NotYourUnitError,
    Place,
    PowerName,
    RulesError,
    TooManyBuildsError,
    UnknownProvinceError,
    render,
)


def test_a_message_reads_as_its_english_sentence() -> None:
    message = Message(N_("{source} is not adjacent to {destination}."), source=Place("PAR", "Paris"),
                      destination=Place("MOS", "Moscow"))
    assert str(message) == "Paris is not adjacent to Moscow."


def test_rendering_translates_every_level_and_names_places_and_powers() -> None:
    catalog = {"{unit} belongs to {owner}.": "{unit} est à {owner}.", "the army in {place}": "l'armée de {place}",
               " or ": " ou "}
    message = Message("{unit} belongs to {owner}.",
                      unit=Message("the army in {place}", place=Place("MUN", "Munich")),
                      owner=Listing((PowerName("GERMANY", "Germany"), PowerName("AUSTRIA", "Austria")), " or "))
    text = render(message, lambda s: catalog.get(s, s), lambda p: p.code.lower(), lambda p: p.code.title())
    assert text == "l'armée de mun est à Germany ou Austria."
    assert str(message) == "the army in Munich belongs to Germany or Austria."


def test_plain_values_keep_their_format_and_templates_without_fields_are_not_formatted() -> None:
    assert str(Message("{value!r} and {count:03d}", value="x", count=7)) == "'x' and 007"
    assert str(Message("Missing '{' here")) == "Missing '{' here"


def test_an_error_built_from_a_message_keeps_it_and_reads_in_english() -> None:
    error = CoreError(Message(N_("Only fleets can convoy.")))
    assert str(error) == "Only fleets can convoy."
    assert error.translatable == Message(N_("Only fleets can convoy."))
    assert CoreError("plain").translatable is None


def test_the_english_texts_of_the_errors_are_those_the_judge_always_wrote() -> None:
    assert str(UnknownProvinceError("Pqr", ("PAR", "POR"))) == "Unrecognized province -> Pqr (did you mean PAR or POR?)"
    assert str(UnknownProvinceError("Pqr")) == "Unrecognized province -> Pqr"
    assert str(NotYourUnitError("Munich", "GERMANY")) == "The unit in Munich belongs to Germany, not to you."
    assert str(AmbiguousCoastError("Spain", ("NC", "SC"))) == "Say which coast of Spain: Spain/NC or Spain/SC."
    assert str(RulesError("missing_coast", "x", ("fail", "first"))) == (
        "Rule option missing_coast cannot be 'x': choose one of fail, first."
    )
    assert str(TooManyBuildsError(0)) == "You may not build any units."
    assert str(TooManyBuildsError(2)) == "You may build only 2 unit(s)."
    assert NotYourUnitError(Place("MUN", "Munich"), "GERMANY").location == "Munich"
