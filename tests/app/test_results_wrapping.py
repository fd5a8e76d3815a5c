"""A results mail's list of centres after a power's label (judge.app.reports.results.wrap_under_label)
is wrapped as textwrap wraps it, for any label and text: the text that fits on the first line is given
whole without textwrap, and must be the very line textwrap would give."""

from __future__ import annotations

import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.app.reports.results import WIDTH, wrap_under_label
from judge.core.variants import load_map


def textwraps(label: str, text: str) -> list[str]:
    return textwrap.wrap(text, width=WIDTH, initial_indent=label + " ", subsequent_indent=" " * (len(label) + 1))


PIECES = st.sampled_from(["Mer", "d'Irlande", "Saint-Pétersbourg", " ", "  ", ",", ".", "-", "\t", "\n", "\u00a0", "x" * 30, "é"])


@settings(max_examples=3000)
@given(st.text(st.sampled_from("Ab :\t-é"), max_size=12), st.lists(PIECES, max_size=30))
def test_any_label_and_text_are_wrapped_as_textwrap_wraps_them(label: str, pieces: list[str]) -> None:
    text = "".join(pieces)
    assert wrap_under_label(label, text) == textwraps(label, text)


@given(st.integers(0, 20), st.lists(st.sampled_from(sorted(load_map("standard").supply_centers)), max_size=34))
def test_a_list_of_centres_is_wrapped_as_textwrap_wraps_it(padding: int, centres: list[str]) -> None:
    label = "Austria:".ljust(padding)
    text = ", ".join(centres) + "."
    assert wrap_under_label(label, text) == textwraps(label, text)


def test_a_list_that_fits_is_one_line_and_one_that_does_not_is_wrapped() -> None:
    assert wrap_under_label("France:", "Brest, Marseilles, Paris.") == ["France: Brest, Marseilles, Paris."]
    longer = ", ".join(["Saint-Pétersbourg"] * 6) + "."
    assert len(wrap_under_label("Russie:", longer)) == 2
