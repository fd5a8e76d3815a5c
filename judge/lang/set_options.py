"""The on/off and one-of-several SET options, by the words players write.

The Judge matched SET options with inner blanks optional (``SET NOWAIT`` =
``SET NO WAIT``, ``SET STRICTGRACE`` = ``SET STRICT GRACE``), so options are
looked up here by their words run together, lower case. The grammar gives
the words of one comma-separated SET item; :func:`read_option` says what
they mean. Options with arguments (dates, lists, numbers) have their own
rules in ``grammar/mail.lark``; a few also arrive here run together
(``SET MAXABSENCE 10``, ``SET NOABSENCE 5 Jan``) and are recognised as such.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class Flag:
    """An on/off option; ``enabled`` is what these words ask for."""

    option: str
    enabled: bool


@dataclass(frozen=True, slots=True)
class Choice:
    """One value of a several-valued option."""

    option: str
    value: str


@dataclass(frozen=True, slots=True)
class Special:
    """An option that has its own command (WAIT, DRAW, CONCEDE) or takes an argument."""

    name: str
    enabled: bool = True


Meaning = Flag | Choice | Special

# On/off options: canonical name -> the spellings (words run together). Each
# also exists with "no" in front (SET NO NMR, SET NONMR).
_FLAGS: Mapping[str, tuple[str, ...]] = {
    "NMR": ("nmr", "cd"),
    "DIAS": ("dias",),
    "STRICT GRACE": ("strictgrace",),
    "STRICT WAIT": ("strictwait",),
    "RESUME": ("resume",),
    "LATE COUNT": ("latecount",),
    "LATE PRESS": ("latepress",),
    "GRACE PRESS": ("gracepress",),
    "MUST ORDER": ("mustorder",),
    "LIST": ("list", "listed"),
    "QUIET": ("quiet",),
    "SHOW": ("show",),
    "REVEAL": ("reveal",),
    "OBSERVERS SEE ALL": ("observersseeall", "observerseeall"),
    "SECRET": ("secret",),
    "APPROVAL": ("approval",),
    "CONCESSIONS": ("concessions", "concession"),
    "PROXY": ("proxy",),
    "AUTO DISBAND": ("autodisband",),
    "DISBAND": ("disband",),
    "WATCH ALL PRESS": ("watchallpress",),
    "BLANK PRESS": ("blankpress",),
    "MINOR PRESS": ("minorpress",),
    "POSTAL PRESS": ("postalpress",),
    "TOUCH PRESS": ("touchpress",),
    "BROADCAST": ("broadcast", "broadcastpress", "normalbroadcast"),
    "PARTIAL PRESS": ("partial", "partialpress"),
    "MODERATED": ("moderate", "moderated"),
    "RATED": ("rated",),
    "AUTO CREATE": ("autocreate",),
    # rule options
    "COASTAL CONVOYS": ("coastalconvoys", "coastalconvoy"),
    "STRICT CONVOY": ("strictconvoy", "strictconvoys"),
    "TRANSFORM": ("transform",),
    "ATTACK TRANSFORM": ("attacktransform",),
    "SUMMER": ("summer",),
    "BLANK BOARD": ("blankboard",),
    "ALLIED WIN": ("alliedwin",),
    "HOME TRANSFER": ("hometransfer",),
    "PORTAGE": ("portage",),
    "DUALITY": ("duality",),
    "GATEWAYS": ("gateways", "gateway"),
    "RAILWAYS": ("railways", "railway"),
    "HONG KONG": ("hongkong",),
    "AIR LIFT": ("airlift",),
    "BCENTRES": ("bcentres", "bcenters"),
    "NEUTRALS": ("neutrals", "neutral"),
    "CAPTURE WIN": ("capturewin",),
    # Machiavelli
    "ADJACENCY": ("adjacency", "adjacent"),
    "ASSASSINATIONS": ("assassinations", "assassination", "assassins", "assassin"),
    "LOANS": ("loans", "loan"),
    "DICE": ("dice",),
    "FAMINE": ("famine",),
    "FORTRESSES": ("fortresses", "fortress"),
    "GARRISONS": ("garrisons", "garrison"),
    "MONEY": ("money",),
    "PLAGUE": ("plague",),
    "SPECIAL": ("special",),
    "STORMS": ("storms", "storm"),
    "MACH2": ("mach2",),
}

# Words that switch a flag off without "no".
_NEGATIVE_FLAGS: Mapping[str, str] = {
    "unmoderate": "MODERATED", "unmoderated": "MODERATED",
    "unrated": "RATED",
    "unlist": "LIST", "unlisted": "LIST", "private": "LIST",
    "public": "LIST",  # positive, listed here for the table below
}  # fmt: skip

_CHOICES: Mapping[str, tuple[str, str]] = {
    # press mode
    "white": ("PRESS", "WHITE"), "whitepress": ("PRESS", "WHITE"),
    "nogrey": ("PRESS", "WHITE"), "nogreypress": ("PRESS", "WHITE"),
    "nogray": ("PRESS", "WHITE"), "nograypress": ("PRESS", "WHITE"),
    "grey": ("PRESS", "GREY"), "greypress": ("PRESS", "GREY"),
    "gray": ("PRESS", "GREY"), "graypress": ("PRESS", "GREY"),
    "nowhite": ("PRESS", "GREY"), "nowhitepress": ("PRESS", "GREY"),
    "white/grey": ("PRESS", "WHITE/GREY"), "white/greypress": ("PRESS", "WHITE/GREY"),
    "white/gray": ("PRESS", "WHITE/GREY"), "white/graypress": ("PRESS", "WHITE/GREY"),
    "grey/white": ("PRESS", "GREY/WHITE"), "grey/whitepress": ("PRESS", "GREY/WHITE"),
    "gray/white": ("PRESS", "GREY/WHITE"), "gray/whitepress": ("PRESS", "GREY/WHITE"),
    "nopress": ("PRESS", "NONE"), "none": ("PRESS", "NONE"), "pressnone": ("PRESS", "NONE"),
    # fakes
    "nofake": ("FAKE", "NONE"), "nofakebroadcast": ("FAKE", "NONE"), "nofakes": ("FAKE", "NONE"),
    "partialmay": ("FAKE", "PARTIAL MAY BE FAKED"),
    "partialmaybefaked": ("FAKE", "PARTIAL MAY BE FAKED"),
    "partialfakes": ("FAKE", "PARTIAL FAKES BROADCAST"),
    "partialfakesbroadcast": ("FAKE", "PARTIAL FAKES BROADCAST"),
    "partialfakesbydefault": ("FAKE", "PARTIAL FAKES BROADCAST BY DEFAULT"),
    "partialfakesbroadcastbydefault": ("FAKE", "PARTIAL FAKES BROADCAST BY DEFAULT"),
    # observers' press
    "observerany": ("OBSERVER PRESS", "ANY"), "observeranypress": ("OBSERVER PRESS", "ANY"),
    "observerwhite": ("OBSERVER PRESS", "WHITE"), "observerwhitepress": ("OBSERVER PRESS", "WHITE"),
    "observerno": ("OBSERVER PRESS", "NONE"), "observernopress": ("OBSERVER PRESS", "NONE"),
    "observernone": ("OBSERVER PRESS", "NONE"),
    # master's copy of partial press
    "allpress": ("MASTER PRESS", "ALL"), "normalpress": ("MASTER PRESS", "NORMAL"),
    # what a power in civil disorder plays (issue 31): holds, or the sensible bot's orders
    "cdhold": ("CD", "HOLD"), "cdsensible": ("CD", "SENSIBLE"),
    # processing and starting
    "manualprocess": ("PROCESS", "MANUAL"), "autoprocess": ("PROCESS", "AUTO"),
    "manualstart": ("START", "MANUAL"), "autostart": ("START", "AUTO"),
    # power assignment
    "prflist": ("ASSIGNMENT", "PRFLIST"), "prfboth": ("ASSIGNMENT", "PRFBOTH"),
    "prfrand": ("ASSIGNMENT", "PRFRAND"),
    # where builds may go, and which disbands
    "anycentre": ("BUILD CENTRES", "ANY"), "anycentres": ("BUILD CENTRES", "ANY"),
    "anycenter": ("BUILD CENTRES", "ANY"), "anycenters": ("BUILD CENTRES", "ANY"),
    "homecentre": ("BUILD CENTRES", "HOME"), "homecentres": ("BUILD CENTRES", "HOME"),
    "homecenter": ("BUILD CENTRES", "HOME"), "homecenters": ("BUILD CENTRES", "HOME"),
    "onecentre": ("BUILD CENTRES", "ONE"), "onecentres": ("BUILD CENTRES", "ONE"),
    "onecenter": ("BUILD CENTRES", "ONE"), "onecenters": ("BUILD CENTRES", "ONE"),
    "anydisband": ("DISBAND RULE", "ANY"), "normaldisband": ("DISBAND RULE", "NORMAL"),
    # issue 33: a Renaissance game's named set of options (judge.core.machiavelli.option_sets)
    **{f"machiavelli{word}": ("MACHIAVELLI", value) for word, value in {
        "first": "FIRST", "firstedition": "FIRST", "1": "FIRST", "premiere": "FIRST",
        "second": "SECOND", "secondedition": "SECOND", "2": "SECOND", "seconde": "SECOND",
        "basic": "BASIC", "basicgame": "BASIC", "base": "BASIC",
    }.items()},
    # how a finished game is scored (the keys of judge.app.game_state.scoring.SYSTEMS)
    **{f"scoring{spelling}": ("SCORING", key) for key, spellings in {
        "DRAW-SIZE": ("draw-size", "drawsize", "dss"),
        "SUM-OF-SQUARES": ("sum-of-squares", "sumofsquares", "sos"),
        "C-DIPLO": ("c-diplo", "cdiplo"),
        "C-DIPLO-73": ("c-diplo-73", "cdiplo73", "c-diplo73"),
    }.items() for spelling in spellings},
}  # fmt: skip

_SPECIALS: Mapping[str, Special] = {
    "wait": Special("WAIT", True), "nowait": Special("WAIT", False),
    "draw": Special("DRAW", True), "nodraw": Special("DRAW", False),
    "noconcede": Special("CONCEDE", False), "noconc": Special("CONCEDE", False),
    "maxabsence": Special("MAX ABSENCE"),
    "noabsence": Special("NO ABSENCE"), "noabsences": Special("NO ABSENCE"),
    "noholiday": Special("NO ABSENCE"), "noholidays": Special("NO ABSENCE"),
    "novacation": Special("NO ABSENCE"), "novacations": Special("NO ABSENCE"),
    "notvariant": Special("NOT VARIANT"),
    # issue 32: Fog of War, the Judge's Blind modifier (a game option, as gunboat: SET VARIANT BLIND)
    "blind": Special("BLIND", True), "noblind": Special("BLIND", False),
    "notapprove": Special("NOT APPROVED"), "notapproved": Special("NOT APPROVED"),
    # house rules of seeds 000 and 002: a number follows (0 turns them off)
    "endyear": Special("END YEAR"), "cdafter": Special("CD AFTER"),
    # issue 31: an abandoned power played by the normal bot until a player takes it over
    "bot": Special("BOT", True), "nobot": Special("BOT", False),
    # issue 31: a practice game's empty seats filled with bots before the start (SET BOTS [level])
    "bots": Special("BOTS", True), "nobots": Special("BOTS", False),
    # councils of seed 003 (issue 17): SET COUNCILS [size] [YEARS n], SET NO COUNCILS
    "councils": Special("COUNCILS", True), "nocouncils": Special("COUNCILS", False),
    "conseils": Special("COUNCILS", True), "noconseils": Special("COUNCILS", False),
}  # fmt: skip


def _rule_choices() -> dict[str, Choice]:
    """The adjudicator's rule options as SET words: ``SET RULE paradox=descartes``, ``SET DESCARTES``.

    Each ``name=value`` the adjudicator accepts (with or without ``RULE`` in
    front, blanks around ``=`` allowed since words are run together), and the
    paradox rules by their names. The value is the ``name=value`` text.
    """
    from judge.core.adjudicator import rules

    choices = {
        "paradox": rules.PARADOX_CHOICES,
        "civil_disorder_removals": rules.CIVIL_DISORDER_CHOICES,
        "missing_retreats": rules.MISSING_RETREATS_CHOICES,
        "missing_coast": rules.MISSING_COAST_CHOICES,
        "duplicate_orders": rules.DUPLICATE_ORDERS_CHOICES,
        "adjacent_convoy": rules.ADJACENT_CONVOY_CHOICES,
        "retreat_to_convoy_origin": ("true", "false"),
        "surplus_adjustments": rules.SURPLUS_ADJUSTMENTS_CHOICES,
        "foreign_coast_support": rules.FOREIGN_COAST_SUPPORT_CHOICES,
        "complete_from_support": ("true", "false"),
    }
    table: dict[str, Choice] = {}
    for name, values in choices.items():
        for value in values:
            meaning = Choice("RULE", f"{name}={value}")
            table[f"{name}={value}"] = table[f"rule{name}={value}"] = meaning
    for value in rules.PARADOX_CHOICES:
        table[value] = Choice("RULE", f"paradox={value}")
    return table


def _table() -> Mapping[str, Meaning]:
    table: dict[str, Meaning] = {}
    for option, spellings in _FLAGS.items():
        for spelling in spellings:
            table[spelling] = Flag(option, True)
            table["no" + spelling] = Flag(option, False)
    for word, option in _NEGATIVE_FLAGS.items():
        table[word] = Flag(option, word == "public")
    for word, (option, value) in _CHOICES.items():
        table[word] = Choice(option, value)
    table.update(_rule_choices())
    table.update(_SPECIALS)
    return MappingProxyType(table)


OPTIONS: Mapping[str, Meaning] = _table()
_LONGEST = max(len(key) for key in OPTIONS)


def read_option(words: list[str]) -> tuple[Meaning, int] | None:
    """The meaning of the longest leading run of ``words`` that is an option, and its length.

    ``["strict", "grace"]`` -> (Flag("STRICT GRACE", True), 2);
    ``["maxabsence", "10"]`` -> (Special("MAX ABSENCE"), 1). None if no run is an option.
    """
    keys: list[str] = []
    joined = ""
    for word in words:
        joined += word.lower()
        if len(joined) > _LONGEST:
            break
        keys.append(joined)
    for length in range(len(keys), 0, -1):
        meaning = OPTIONS.get(keys[length - 1])
        if meaning is not None:
            return meaning, length
    return None


def option_names() -> tuple[str, ...]:
    """Every on/off option's canonical name, for help texts and error suggestions."""
    return tuple(sorted(_FLAGS))
