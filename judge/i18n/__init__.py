"""Messages in the reader's language, through gettext catalogs.

English is the source language: every message is written in English in the
code, wrapped in ``_()`` where ``_`` is the translation function of the
reader's language (``_ = translation(language).gettext``). The French catalog
is ``judge/locale/fr/LC_MESSAGES/judge.po``; it is compiled in memory when
first needed, so an installed judge needs no build step and no ``msgfmt``.
``tests/i18n`` extracts every ``_()`` message from the code and fails when one
has no French translation.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from importlib import resources
from typing import Literal, TypeGuard

from judge.i18n.catalog import compile_mo, parse_po

Language = Literal["en", "fr"]
LANGUAGES: tuple[Language, ...] = ("en", "fr")
DOMAIN = "judge"


def is_language(text: str) -> TypeGuard[Language]:
    return text in LANGUAGES


def read_catalog(language: Language) -> dict[str, str]:
    """The msgid -> msgstr pairs of a language's catalog (empty for English, the source)."""
    if language == "en":
        return {}
    source = resources.files("judge") / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    return parse_po(source.read_text(encoding="utf-8"))


@cache
def translation(language: str) -> gettext.NullTranslations:
    """The translations for ``language``; unknown languages fall back to English."""
    if not is_language(language) or language == "en":
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(compile_mo(read_catalog(language))))


def N_(message: str) -> str:
    """Mark a message for extraction where it is defined but translated elsewhere."""
    return message
