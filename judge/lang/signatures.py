"""What ends a player's commands besides SIGNOFF and ``-- ``: sign-offs, client footers, prose.

Players end a mail as they end any mail: "Thanks!", "Cordialement, Jeanne",
"- Bob", or their phone adds "Sent from my iPhone" / "Envoyé de mon iPhone".
None of that is an order, and reading it as one ("Unrecognized source
province -> Thanks") would set the error flag on a correct mail. So:

* a line that is a *sign-off* (:func:`is_sign_off`: a closing word or a
  mail client's footer, in English or French, or a dash and a name) ends the
  commands as a ``-- `` signature line does, unless a command or an order
  still follows it (then it is text the judge did not read: a sign-off never
  hides the orders after it);
* a line of *prose* (:func:`looks_like_prose`: no unit type, no order word,
  no move sign, no province at its start) that comes after the last command
  is reported as text the judge did not read, not as a bad order. Prose
  *between* commands is still a bad order: the judge cannot tell that it was
  not meant as one.

Lines that really are orders gone wrong keep their errors: anything with an
order's shape (``A Burgandy - Paris``, ``Par hold``) is never prose.
"""

from __future__ import annotations

import difflib
import re
import unicodedata

from judge.core.errors import CoreError
from judge.core.geography import GameMap
from judge.core.names import resolve_location
from judge.lang.grammar import command_words

_CLOSINGS = (
    # English
    "thanks", "thank you", "thank you very much", "many thanks", "thanks a lot", "thx", "ty", "tia",
    "cheers", "regards", "best regards", "kind regards", "warm regards", "best wishes", "best",
    "all the best", "sincerely", "yours", "yours truly", "yours sincerely", "bye", "ciao", "cya",
    "see you", "good luck", "good game", "gg", "have fun", "love",
    # French (accents folded)
    "merci", "merci beaucoup", "merci bien", "mille mercis", "cordialement", "bien cordialement",
    "tres cordialement", "salutations", "sincères salutations", "bien a vous", "a bientot", "a plus",
    "a+", "amities", "amicalement", "bises", "bisous", "bonne journee", "bonne soiree",
    "bonne partie", "bonne chance", "salut", "au revoir",
)  # fmt: skip
_CLOSING = re.compile(
    r"^(?:" + "|".join(re.escape(word) for word in sorted(_CLOSINGS, key=len, reverse=True)) + r")"
    r"(?:[\s,.!;:)(~-]+[^\s,.!;:]+(?:\s+[^\s,.!;:]+){0,2})?[\s,.!:;)(^~-]*$"
)
"""A closing word or phrase, alone or with up to three words after it (a name: "Thanks, Jeanne")."""
_FOOTER = re.compile(
    r"^(?:sent (?:from|with|via|using|by) \S"
    r"|get outlook\b|get the \S+ app\b"
    r"|envoye (?:de|depuis|a partir d|avec|par|via)\b"
    r"|(?:telechargez|telecharger|obtenez|obtenir) outlook\b"
    r"|this (?:e-?mail|message) (?:was sent|has been)\b)"
)
"""A mail client's or phone's footer ("Sent from my iPhone", "Envoyé de mon iPhone", "Get Outlook for iOS")."""
_NAMED = re.compile(r"^(?:-{1,2}|~)\s*[^\W\d_][\w.'-]*(?:\s+[^\W\d_][\w.'-]*){0,2}$")
"""A dash or a tilde and a name: "- Jeanne", "--Bob", "~ J. Martin"."""

_UNIT_WORDS = frozenset({"a", "f", "army", "fleet", "armee", "flotte"})
_ORDER_WORDS = frozenset({
    "h", "s", "c", "t", "r", "d", "b", "m", "w", "xxx",
    "hold", "holds", "stand", "stands", "support", "supports", "convoy", "convoys", "transport",
    "move", "moves", "retreat", "retreats", "disband", "disbands", "build", "builds",
    "remove", "removes", "debuild", "waive", "waives",
    "tient", "soutien", "soutient", "convoi", "convoie", "construit", "construire", "supprime",
    "supprimer", "renonce", "retraite", "dissous", "dissoudre",
})  # fmt: skip
_ORDER_SIGNS = re.compile(r"[-=>/()]")
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?", re.UNICODE)


def _folded(text: str) -> str:
    """Lower case without accents, blanks squeezed: how the rules above are written."""
    decomposed = unicodedata.normalize("NFKD", text.lower().replace("’", "'"))
    return " ".join("".join(ch for ch in decomposed if not unicodedata.combining(ch)).split())


def is_sign_off(line: str) -> bool:
    """Whether ``line`` ends a mail the way people end mail (see the module's docstring)."""
    folded = _folded(line)
    if not folded:
        return False
    return bool(_CLOSING.match(folded) or _FOOTER.match(folded) or _NAMED.match(folded))


def looks_like_prose(line: str, game_map: GameMap, *, french: bool = False) -> bool:
    """Whether ``line`` (which did not read as orders) has nothing of an order's shape.

    No unit type first, no order word or abbreviation anywhere, no move,
    support or coast sign, its first words name no province and its first
    word is no near miss of a command: ``Thanks for the game`` is prose,
    ``Burgandy - Paris``, ``Par hold`` and ``sett wait`` are not.
    """
    folded = _folded(line)
    if _ORDER_SIGNS.search(folded):
        return False
    words = _WORD.findall(folded)
    if not words or words[0] in _UNIT_WORDS or any(word in _ORDER_WORDS for word in words):
        return False
    if len(words[0]) >= 3 and difflib.get_close_matches(words[0], command_words(), n=1, cutoff=0.8):
        return False  # a mistyped command ("sett wait", "presss") is a mistake to report
    for count in range(1, min(3, len(words)) + 1):
        try:
            resolve_location(" ".join(words[:count]), game_map, french=french)
        except CoreError:
            continue
        return False
    return True
