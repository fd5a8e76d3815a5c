"""The judge's help files: finding one by name, in the reader's language, safely.

``GET name`` and ``HELP`` send text files shipped in the package under
``judge/help/<language>/<name>.txt``. A name from a mail is never turned into
a path: it is looked up among the names the folder holds (after lower-casing
and a few of the Judge's aliases, such as ``form`` for ``register``), so no
``../`` or absolute path can reach anything else. A file missing in the
reader's language falls back to English, the language every file exists in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

SUFFIX = ".txt"
FALLBACK = "en"

PACKAGE: tuple[str, ...] = ("info", "index", "syntax")
"""GET PACKAGE and REGISTER's ``Package: yes``: what a new player should read first."""

ALIASES: dict[str, str] = {
    "form": "register",
    "registration": "register",
    "help": "info",
    "commands": "index",
    "orders": "syntax",
    "deadline": "deadlines",
    "draws": "draw",
    "concede": "draw",
    "broadcast": "press",
    "moderator": "master",
    "masters": "master",
    "house.rules": "rules",
    "house-rules": "rules",
    "houserules": "rules",
    "council": "councils",
    "conseil": "councils",
    "conseils": "councils",
}
"""Other names players use for a file (the Judge called the registration file ``form``)."""

_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


class UnknownHelpFile(LookupError):
    """No help file has that name; ``available`` lists those that exist, for the reply."""

    def __init__(self, name: str, available: tuple[str, ...]) -> None:
        super().__init__(name)
        self.name = name
        self.available = available


@dataclass(frozen=True, slots=True)
class HelpFile:
    name: str
    language: str
    text: str


def _folder(language: str) -> Traversable:
    return resources.files("judge") / "help" / language


@cache
def _names(language: str) -> frozenset[str]:
    """The file names (without ``.txt``) a language's folder holds."""
    folder = _folder(language)
    if not folder.is_dir():
        return frozenset()
    return frozenset(
        entry.name.removesuffix(SUFFIX)
        for entry in folder.iterdir()
        if entry.is_file() and entry.name.endswith(SUFFIX) and _NAME.match(entry.name.removesuffix(SUFFIX))
    )


def available() -> tuple[str, ...]:
    """Every help file name, sorted (the English folder has them all)."""
    return tuple(sorted(_names(FALLBACK)))


def canonical_name(requested: str) -> str | None:
    """The file a requested name means (aliases resolved), or None if there is none."""
    key = requested.strip().lower()
    if key.endswith(SUFFIX):
        key = key.removesuffix(SUFFIX)
    key = ALIASES.get(key, key)
    if not _NAME.match(key) or key not in _names(FALLBACK):
        return None
    return key


@cache
def _read(language: str, name: str) -> str:
    return (_folder(language) / f"{name}{SUFFIX}").read_text(encoding="utf-8")


def find(requested: str, language: str) -> HelpFile:
    """The help file ``requested`` in ``language`` (English if that language lacks it).

    Raises :class:`UnknownHelpFile` when no file has that name.
    """
    name = canonical_name(requested)
    if name is None:
        raise UnknownHelpFile(requested, available())
    chosen = language if name in _names(language) else FALLBACK
    return HelpFile(name, chosen, _read(chosen, name))
