"""SET LANGUAGE fr|en: the one command of ours the classic Judge did not have."""

from __future__ import annotations

import pytest

from judge.lang.commands import SetLanguage, SetWait
from judge.lang.mail import parse_mail


@pytest.mark.parametrize(
    ("line", "language"),
    [
        ("SET LANGUAGE fr", "fr"),
        ("set language FR", "fr"),
        ("SET LANGUAGE French", "fr"),
        ("SET LANGUAGE Français", "fr"),
        ("SET LANGUE francais", "fr"),
        ("SET LANGUAGE en", "en"),
        ("SET LANGUAGE English", "en"),
        ("set langue anglais", "en"),
    ],
)
def test_every_spelling_names_a_language(line: str, language: str) -> None:
    result = parse_mail(line + "\n")
    assert result.errors == ()
    assert result.commands == (SetLanguage(1, language),)


def test_language_is_one_item_of_a_set_line() -> None:
    result = parse_mail("SET WAIT, LANGUAGE fr\n")
    assert result.commands == (SetWait(1, True), SetLanguage(1, "fr"))


def test_a_missing_language_is_an_error_at_the_end_of_the_keyword() -> None:
    result = parse_mail("SET LANGUAGE\n")
    assert result.commands == ()
    assert "needs a language" in result.errors[0].message


def test_an_unknown_language_is_an_error_at_its_column() -> None:
    result = parse_mail("SET LANGUAGE de\n")
    assert result.commands == ()
    error = result.errors[0]
    assert error.column == len("SET LANGUAGE ") + 1
    assert "de" in error.message and "FR or EN" in error.message


def test_language_is_a_whole_word() -> None:
    """``SET LANGUAGES`` is no option: the keyword is not read out of a longer word."""
    result = parse_mail("SET LANGUAGES fr\n")
    assert result.commands == ()
    assert "Unknown SET option" in result.errors[0].message


def test_a_game_may_be_called_language() -> None:
    """The keyword is a keyword only after SET: a game named 'language' still signs on."""
    result = parse_mail("SIGNON Flanguage secret\n")
    assert result.errors == ()
