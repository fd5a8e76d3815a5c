"""An error of the mail reader or of the game core, written in the reader's language.

The reader (:mod:`judge.lang`) and the core (:mod:`judge.core`) stay free of
gettext: each error keeps its English ``message`` (what ``judge parse`` and
``judge adjudicate`` print) and, for the errors a player may read, the same
sentence as a :class:`~judge.core.errors.Message`: a template marked for
the catalogs and its arguments. This is the one place where such a message
meets a reader: the template goes through the reader's catalog, and the
provinces and powers it names are written in the reader's language, from the
game's map (``Paris n'est pas adjacent à Moscou.``, not ``Paris is not
adjacent to Moscow.``). An error without a template is shown in English, as
before.
"""

from __future__ import annotations

from judge.core.errors import Message, Place, PowerName, render
from judge.core.geography import GameMap
from judge.core.names import province_display_name
from judge.core.units import province_of
from judge.core.variants import load_map
from judge.i18n import translation
from judge.lang.errors import MailError


def error_text(error: MailError | BaseException, language: str, game_map: GameMap | None = None) -> str:
    """``error`` as a sentence in ``language`` (``"en"``, ``"fr"``; others read English).

    ``game_map`` names the provinces and powers (the Standard map by
    default); a place the map does not know keeps the name the error gave it.
    """
    wording = getattr(error, "translatable", None)
    if not isinstance(wording, Message):
        return _english(error)
    french = language == "fr"
    known = game_map if game_map is not None else load_map()

    def place(value: Place) -> str:
        if not french or province_of(value.code) not in known.provinces:
            return value.name
        return province_display_name(value.code, "fr", known)

    def power(value: PowerName) -> str:
        if not french or value.code not in known.powers:
            return value.name
        return known.power_display_name(value.code, "fr")

    return render(wording, translation(language).gettext, place, power)


def _english(error: MailError | BaseException) -> str:
    message = getattr(error, "message", None)
    return message if isinstance(message, str) else str(error)
