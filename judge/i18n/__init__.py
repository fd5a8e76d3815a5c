"""Messages in the reader's language, through gettext catalogs.

English is the source language: every message is written in English in the
code, wrapped in ``_()`` where ``_`` is the translation function of the
reader's language (``_ = translation(language).gettext``). The French catalog
is every ``.po`` file in ``judge/locale/fr/LC_MESSAGES/`` (one per area of
the judge, so that work on one area never edits another's file), merged and
compiled in memory when
first needed, so an installed judge needs no build step and no ``msgfmt``.
``tests/i18n`` extracts every ``_()`` message from the code and fails when one
has no French translation.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Literal, TypeGuard

from judge.i18n.catalog import compile_mo, parse_po

Language = Literal["en", "fr"]
LANGUAGES: tuple[Language, ...] = ("en", "fr")
DOMAIN = "judge"

Gettext = Callable[[str], str]
"""A reader's ``gettext``: an English message in, the message in the reader's language out."""


def is_language(text: str) -> TypeGuard[Language]:
    return text in LANGUAGES


def catalog_files(language: Language) -> dict[str, dict[str, str]]:
    """File name -> its msgid -> msgstr pairs, for every ``.po`` file of a language."""
    if language == "en":
        return {}
    folder = resources.files("judge") / "locale" / language / "LC_MESSAGES"
    return {
        entry.name: parse_po(entry.read_text(encoding="utf-8"))
        for entry in sorted(folder.iterdir(), key=lambda e: e.name)
        if entry.name.endswith(".po")
    }


def read_catalog(language: Language) -> dict[str, str]:
    """The msgid -> msgstr pairs of a language's catalog (empty for English, the source)."""
    merged: dict[str, str] = {}
    for entries in catalog_files(language).values():
        merged.update(entries)
    return merged


@cache
def translation(language: str) -> gettext.NullTranslations:
    """The translations for ``language``; unknown languages fall back to English."""
    if not is_language(language) or language == "en":
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(compile_mo(read_catalog(language))))


def N_(message: str) -> str:
    """Mark a message for extraction where it is defined but translated elsewhere."""
    return message
