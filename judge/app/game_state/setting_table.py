"""The table of everything a SET may change in a game: where it is kept, who may change it, when.

One place, as data: each :class:`Setting` names the option as the mail
reader gives it (``SetFlag.option``, ``SetChoice.option``,
``SetNumber.option``), the :class:`~judge.db.models.Game` column (or
``extra:<name>`` for the long tail in ``Game.extra_settings``) that holds it,
who may change it (the Judge's "ply", "mod" and "mas"), whether only before
the game starts, and how it is shown in the Parameter Change announcement.
The SET handlers look options up here and never hard-code a column, so a
new option is a new row.

Who may change what follows the Judge (judge-conventions §2.1):

* ``PLAYER``: anyone signed on to the game, for their own mail (BROADCAST,
  ALL PRESS);
* ``MODERATOR``: the master of a moderated game, any player of an
  unmoderated one ("mod");
* ``MASTER``: a master only (MODERATED, RATED, APPROVED, BN/MN/EP).

The adjudicator's rule options (:class:`judge.core.adjudicator.rules.Rules`)
are game rule options too, kept in ``extra_settings["rules"]`` as a mapping
of the options that differ from the defaults. They are set before the start
with ``SET VARIANT <word>`` (also ``SET DESCARTES``, ``SET RULE
paradox=descartes``); :data:`RULE_WORDS` maps the Judge-style words to them
and :func:`judge.app.game_state.game_rules.game_rules` gives every reader the game's Rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any

from judge.app.game_state.scoring import SYSTEMS
from judge.core.adjudicator.rules import Rules
from judge.core.bots import Level
from judge.core.errors import RulesError
from judge.db.models import Game
from judge.i18n import N_


class Who(Enum):
    """Who may change a setting (the Judge's ply / mod / mas)."""

    PLAYER = "player"
    MODERATOR = "moderator"
    MASTER = "master"


class When(Enum):
    ANYTIME = "anytime"
    BEFORE_START = "before_start"


class Kind(Enum):
    FLAG = "flag"
    CHOICE = "choice"
    NUMBER = "number"
    TEXT = "text"
    LIST = "list"
    MAPPING = "mapping"


@dataclass(frozen=True)
class Setting:
    """One settable option.

    ``option`` is the reader's canonical name; ``column`` the Game attribute
    (or ``extra:<key>``); ``label`` the name shown in announcements (marked
    for translation); ``values`` (choices) maps the reader's value to the
    stored one; ``words`` (flags) the keywords shown for on and off, as LIST
    prints them; ``inverted`` flags store the opposite of what is asked
    (none yet, kept for options whose column reads the other way).
    """

    option: str
    column: str
    kind: Kind
    label: str
    who: Who = Who.MODERATOR
    when: When = When.ANYTIME
    announce: bool = True
    values: Mapping[str, Any] = field(default_factory=dict)
    words: tuple[str, str] = ("", "")
    low: float | None = None
    high: float | None = None

    def shown(self, value: Any) -> str:
        """A stored value as announcements and LIST show it (the SET keyword where there is one)."""
        if self.kind is Kind.FLAG:
            return self.words[0] if value else self.words[1]
        if self.kind is Kind.CHOICE:
            for asked, stored in self.values.items():
                if stored == value:
                    return _capitalised(asked)
            return str(value)
        if self.kind is Kind.NUMBER:
            if value is None:
                return "-"
            if isinstance(value, float) and not value.is_integer():
                return f"{value:g}"
            return str(int(value)) if isinstance(value, float) else str(value)
        if self.kind is Kind.LIST:
            return ", ".join(str(v) for v in value) if value else "-"
        if self.kind is Kind.MAPPING:
            return rules_text(value or {})
        if not value:
            return "-"
        text = str(value)
        first = text.splitlines()[0]
        if len(first) > SHOWN_TEXT or first != text:
            return f"'{first[:SHOWN_TEXT]}...'"
        return f"'{text}'"


SHOWN_TEXT = 40
"""How much of a text setting (a comment) an announcement quotes."""


def _capitalised(word: str) -> str:
    return "/".join(part.capitalize() for part in word.split("/"))


def _flag(
    option: str, column: str, label: str, on: str, off: str, *,
    who: Who = Who.MODERATOR, when: When = When.ANYTIME,
) -> Setting:  # fmt: skip
    return Setting(option, column, Kind.FLAG, label, who=who, when=when, words=(on, off))


# Values stored in Game.fake_press (the press code reads these names).
FAKE_NONE = "none"
FAKE_PARTIAL = "partial"  # partial press may be faked
FAKE_BROADCAST = "broadcast"  # partial fakes broadcast
FAKE_BROADCAST_DEFAULT = "broadcast by default"  # partial fakes broadcast by default

ALL_PRESS = "all_press"
"""``extra_settings`` key: addresses of masters and observers who asked for every partial press."""
NO_BROADCAST = "no_broadcast"
"""``extra_settings`` key: addresses of masters who asked not to get broadcasts."""
RULES = "rules"
"""``extra_settings`` key: the adjudicator rule options that differ from the defaults."""
END_YEAR = "END YEAR"
END_YEAR_KEY = "end_year"
"""``SET END YEAR n`` (seeds 002 and 003: tournament games end after a fixed year): ``extra_settings`` key."""
CD_AFTER = "CD AFTER"
CD_AFTER_KEY = "cd_after_missed_seasons"
"""``SET CD AFTER n`` (seed 000, 3.6: a power with no orders for n consecutive seasons falls into civil disorder)."""
CD_PLAY = "CD"
CD_PLAY_KEY = "civil_disorder_play"
"""``SET CD SENSIBLE`` / ``SET CD HOLD`` (issue 31): what a power in civil disorder plays, the sensible
bot's orders or (unset, the default, the classic Judge) nothing: its units hold."""
CD_SENSIBLE = "sensible"
BOT_KEY = "bot_powers"
"""``SET BOT letters`` (issue 31): the abandoned powers the normal bot plays until a player takes them over."""
BOT_SEATS_KEY = "bot_seat_level"
"""``SET BOTS [level]`` (issue 31, practice games): the level of the bots sitting in the seats the
master (or the creator) filled before the start (seats whose status is ``bot``)."""
APPROVED = "approved_powers"
"""``extra_settings`` key: the powers whose newcomers the master has approved (SET APPROVED)."""

FLAGS: Mapping[str, Setting] = MappingProxyType({s.option: s for s in (
    _flag("NMR", "nmr", N_("Missed orders"), "NMR", "NoNMR"),
    _flag("DIAS", "dias", N_("Draws"), "DIAS", "NoDIAS"),
    _flag("CONCESSIONS", "concessions", N_("Concessions"), "Concessions", "NoConcessions"),
    _flag("STRICT GRACE", "strict_grace", N_("Grace"), "StrictGrace", "NoStrictGrace"),
    _flag("STRICT WAIT", "strict_wait", N_("Wait"), "StrictWait", "NoStrictWait"),
    _flag("RESUME", "players_may_resume", N_("Resume"), "Resume", "NoResume"),
    _flag("LATE COUNT", "late_count", N_("Late count"), "LateCount", "NoLateCount"),
    _flag("LATE PRESS", "late_press", N_("Late press"), "LatePress", "NoLatePress"),
    _flag("GRACE PRESS", "grace_press", N_("Grace press"), "GracePress", "NoGracePress"),
    _flag("MUST ORDER", "must_order", N_("Must order"), "MustOrder", "NoMustOrder"),
    _flag("LIST", "listed", N_("Listing"), "Listed", "Unlisted"),
    _flag("QUIET", "quiet", N_("Quiet"), "Quiet", "NoQuiet"),
    _flag("SHOW", "show_setter", N_("Setter shown"), "Show", "NoShow"),
    _flag("REVEAL", "reveal", N_("Reveal"), "Reveal", "NoReveal"),
    _flag("SECRET", "secret", N_("Secret"), "Secret", "NoSecret"),
    _flag("APPROVAL", "approval", N_("Approval"), "Approval", "NoApproval"),
    _flag("PROXY", "proxy", N_("Proxy"), "Proxy", "NoProxy", when=When.BEFORE_START),
    _flag("AUTO DISBAND", "auto_disband", N_("Auto disband"), "AutoDisband", "NoAutoDisband"),
    # issue 32: in a Fog of War game, the master lets the observers see the whole board (default: nothing)
    _flag("OBSERVERS SEE ALL", "extra:blind_observers", N_("Observers see the whole board"),
          "ObserversSeeAll", "NoObserversSeeAll", who=Who.MASTER),
    _flag("WATCH ALL PRESS", "watch_all_press", N_("Watch all press"), "WatchAllPress", "NoWatchAllPress"),
    _flag("BLANK PRESS", "blank_press", N_("Blank press"), "BlankPress", "NoBlankPress"),
    _flag("MINOR PRESS", "minor_press", N_("Minor press"), "MinorPress", "NoMinorPress"),
    _flag("POSTAL PRESS", "postal_press", N_("Postal press"), "PostalPress", "NoPostalPress"),
    _flag("TOUCH PRESS", "touch_press", N_("Touch press"), "TouchPress", "NoTouchPress"),
    _flag("PARTIAL PRESS", "partial_press", N_("Partial press"), "Partial", "NoPartial"),
    _flag("MODERATED", "moderated", N_("Moderated"), "Moderated", "Unmoderated", who=Who.MASTER),
    _flag("RATED", "rated", N_("Rated"), "Rated", "Unrated", who=Who.MASTER),
)})  # fmt: skip
"""On/off options (``SetFlag``) kept on the game."""

UNSUPPORTED_FLAGS: Mapping[str, str] = MappingProxyType({
    **{name: "variant rule" for name in (
        "STRICT CONVOY", "TRANSFORM", "ATTACK TRANSFORM",
        "BLANK BOARD", "ALLIED WIN", "HOME TRANSFER", "PORTAGE", "DUALITY", "GATEWAYS",
        "RAILWAYS", "HONG KONG", "AIR LIFT", "BCENTRES", "NEUTRALS", "CAPTURE WIN",
    )},
    "AUTO CREATE": "obsolete",
})  # fmt: skip
"""Options the reader knows that this judge does not play: refused with the reason. (The
Machiavelli family, SUMMER and COASTAL CONVOYS among them, are the Renaissance game's own:
:mod:`judge.app.handlers.set_machiavelli_option`.)"""

REFUSED_WHEN_ON: Mapping[str, str] = MappingProxyType({
    "PROXY": N_(
        "SET PROXY is refused: this judge does not play proxy orders (A Lvp P France, a unit "
        "ordered by another power for the turn). Its order reader does not read them and its "
        "adjudicator has no rule for them, so a game with PROXY on would refuse every proxy order "
        "it seemed to allow. SET NO PROXY, the default, is accepted."
    ),
})  # fmt: skip
"""Flags of :data:`FLAGS` that may be switched off but not on, each with the reason given to the master."""

PRESS_MODES = {"WHITE": "white", "GREY": "grey", "WHITE/GREY": "white/grey", "GREY/WHITE": "grey/white", "NONE": "none"}

CHOICES: Mapping[str, Setting] = MappingProxyType({s.option: s for s in (
    Setting("SCORING", "extra:scoring", Kind.CHOICE, N_("Scoring"), when=When.BEFORE_START,
            values={key.upper(): key for key in SYSTEMS}),
    Setting("PRESS", "press_mode", Kind.CHOICE, N_("Press"), values=PRESS_MODES),
    Setting("FAKE", "fake_press", Kind.CHOICE, N_("Fake press"), values={
        "NONE": FAKE_NONE,
        "PARTIAL MAY BE FAKED": FAKE_PARTIAL,
        "PARTIAL FAKES BROADCAST": FAKE_BROADCAST,
        "PARTIAL FAKES BROADCAST BY DEFAULT": FAKE_BROADCAST_DEFAULT,
    }),
    Setting("OBSERVER PRESS", "observer_press", Kind.CHOICE, N_("Observer press"),
            values={"ANY": "any", "WHITE": "white", "NONE": "none"}),
    Setting("PROCESS", "manual_process", Kind.CHOICE, N_("Processing"),
            values={"MANUAL": True, "AUTO": False}),
    Setting("START", "manual_start", Kind.CHOICE, N_("Start"), values={"MANUAL": True, "AUTO": False}),
    Setting("ASSIGNMENT", "assignment", Kind.CHOICE, N_("Power assignment"), when=When.BEFORE_START,
            values={"PRFLIST": "prflist", "PRFBOTH": "prfboth", "PRFRAND": "prfrand"}),
    Setting("BUILD CENTRES", "build_centres", Kind.CHOICE, N_("Build centres"), when=When.BEFORE_START,
            values={"HOME": "home", "ANY": "any", "ONE": "one"}),
    Setting("DISBAND RULE", "any_disband", Kind.CHOICE, N_("Disbands"), when=When.BEFORE_START,
            values={"ANY": True, "NORMAL": False}),
    Setting("LEVEL", "level", Kind.CHOICE, N_("Level"), values={
        "ANY": "any", "NOVICE": "novice", "AMATEUR": "amateur", "INTERMEDIATE": "intermediate",
        "ADVANCED": "advanced", "EXPERT": "expert",
    }),
    Setting("ACCESS", "access", Kind.CHOICE, N_("Access"),
            values={"ANY": "any", "SAME": "same", "DIFFERENT": "different"}),
    Setting(CD_PLAY, "extra:" + CD_PLAY_KEY, Kind.CHOICE, N_("Civil disorder"),
            values={"HOLD": None, "SENSIBLE": CD_SENSIBLE}),
)})  # fmt: skip
"""One-of-several options (``SetChoice``) kept on the game."""

NUMBERS: Mapping[str, Setting] = MappingProxyType({s.option: s for s in (
    Setting("DEDICATION", "min_dedication", Kind.NUMBER, N_("Minimum dedication"),
            low=-10000, high=10000),
    Setting("ONTIMERAT", "min_ontime_ratio", Kind.NUMBER, N_("Minimum on-time ratio"), low=0, high=1),
    Setting("RESRAT", "max_resignation_ratio", Kind.NUMBER, N_("Maximum CD ratio"), low=0, high=1),
    Setting("CENTERS", "winning_centers", Kind.NUMBER, N_("Centres to win"), when=When.BEFORE_START,
            low=1),
    Setting("PLAYERS", "players_count", Kind.NUMBER, N_("Players"), when=When.BEFORE_START, low=1),
    Setting("MAX ABSENCE", "max_absence_days", Kind.NUMBER, N_("Maximum absence"), low=0, high=31),
    Setting(END_YEAR, "extra:" + END_YEAR_KEY, Kind.NUMBER, N_("Last year"), when=When.BEFORE_START,
            low=0, high=9999),
    Setting(CD_AFTER, "extra:" + CD_AFTER_KEY, Kind.NUMBER, N_("Civil disorder after missed seasons"),
            when=When.BEFORE_START, low=0, high=99),
)})  # fmt: skip
"""Numeric options (``SetNumber``); bounds that depend on the map are checked by the handler."""

COMMENT = Setting("COMMENT", "comment", Kind.TEXT, N_("Comment"))
COMMENT_FULL = Setting("COMMENT BEGIN", "comment_full", Kind.TEXT, N_("Full comment"))
COMMENT_LENGTH = 60
"""The brief comment's longest length (the Judge's: it fits a line of the brief LIST)."""

VARIANT = Setting("VARIANT", "variant", Kind.TEXT, N_("Variant"), when=When.BEFORE_START)
OPTIONS = Setting("VARIANT OPTIONS", "rule_options", Kind.LIST, N_("Variant options"), when=When.BEFORE_START)
RULE_OPTIONS = Setting("RULE", "extra:" + RULES, Kind.MAPPING, N_("Rules"), when=When.BEFORE_START)
ALLOWED = Setting("ALLOW PLAYER", "allowed_players", Kind.LIST, N_("Allowed players"))
DENIED = Setting("DENY PLAYER", "denied_players", Kind.LIST, N_("Denied players"))
BOT_POWERS = Setting("BOT", "extra:" + BOT_KEY, Kind.LIST, N_("Powers played by a bot"), who=Who.MASTER)
APPROVED_POWERS = Setting("APPROVED", "extra:" + APPROVED, Kind.LIST, N_("Approved powers"), who=Who.MASTER)
IDENTIFIERS: Mapping[str, Setting] = MappingProxyType({
    "BN": Setting("BN", "extra:boardman_number", Kind.TEXT, N_("Boardman number"), who=Who.MASTER),
    "MN": Setting("MN", "extra:miller_number", Kind.TEXT, N_("Miller number"), who=Who.MASTER),
    "EP": Setting("EP", "extra:ep_number", Kind.TEXT, N_("EP number"), who=Who.MASTER),
})  # fmt: skip


# -- the adjudicator's rule options -----------------------------------------------------------------

RULE_WORDS: Mapping[str, tuple[str, str]] = MappingProxyType({
    "descartes": ("paradox", "descartes"),
    "szykman": ("paradox", "szykman"),
    "firstcoast": ("missing_coast", "first"),
    "duplicatehold": ("duplicate_orders", "hold"),
    "duplicatefirst": ("duplicate_orders", "first"),
    "duplicatelast": ("duplicate_orders", "last"),
    "explicitconvoy": ("adjacent_convoy", "explicit"),
    "cd2000": ("civil_disorder_removals", "distance_to_home"),
    "gmretreats": ("missing_retreats", "seed000"),
    "surplusfirst": ("surplus_adjustments", "first"),
    "surpluslast": ("surplus_adjustments", "last"),
    "namedcoast": ("foreign_coast_support", "named"),
    "completeorders": ("complete_from_support", "true"),
})  # fmt: skip
"""Single words for the commonest rule choices (``SET VARIANT descartes``, ``SET DESCARTES``).

Any option can also be written ``name=value`` (``paradox=descartes``,
``civil_disorder_removals=seed000``), with the names and values of
:class:`~judge.core.adjudicator.rules.Rules`.
"""


class BadRuleOption(ValueError):
    """A rule option word that names no option or a value the option cannot take."""

    def __init__(self, word: str, allowed: tuple[str, ...] = ()) -> None:
        super().__init__(word)
        self.word = word
        self.allowed = allowed


def read_rule_word(word: str) -> tuple[str, str] | None:
    """``(option, value)`` for a rule-option word, None if the word is not one; BadRuleOption if malformed.

    ``descartes`` -> (paradox, descartes); ``paradox=descartes`` -> the same.
    """
    key = word.strip().lower()
    if key in RULE_WORDS:
        return RULE_WORDS[key]
    if "=" not in key:
        return None
    name, _, value = key.partition("=")
    name, value = name.strip().replace("-", "_"), value.strip()
    defaults = Rules().to_mapping()
    if name not in defaults:
        raise BadRuleOption(word, tuple(sorted(defaults)))
    try:
        Rules.from_mapping({name: value})
    except RulesError as error:
        raise BadRuleOption(word, error.allowed) from error
    return name, value


def merged_rules(current: Mapping[str, Any], pairs: list[tuple[str, str]], *, remove: bool = False) -> dict[str, Any]:
    """The game's rule options after setting (or, ``remove``, resetting to default) ``pairs``.

    Only options that differ from the defaults are kept, so a game's stored
    rules read as what is special about it.
    """
    chosen = dict(current)
    for name, value in pairs:
        if remove:
            chosen.pop(name, None)
        else:
            chosen[name] = value
    defaults = Rules().to_mapping()
    return {name: value for name, value in sorted(chosen.items()) if defaults.get(name) != value}


def end_year(game: Game) -> int | None:
    """The game year after whose last phase the game ends (``SET END YEAR``), None if it has none."""
    value = game.extra_settings.get(END_YEAR_KEY)
    return int(value) if value else None


def cd_after_missed_seasons(game: Game) -> int | None:
    """After how many consecutive seasons without orders a power falls into civil disorder (``SET CD AFTER``)."""
    value = game.extra_settings.get(CD_AFTER_KEY)
    return int(value) if value else None


def civil_disorder_plays_sensibly(game: Game) -> bool:
    """Whether a power in civil disorder plays the sensible bot's orders (``SET CD SENSIBLE``)."""
    return game.extra_settings.get(CD_PLAY_KEY) == CD_SENSIBLE


def bot_powers(game: Game) -> frozenset[str]:
    """The powers the normal bot plays until a player takes them over (``SET BOT``)."""
    return frozenset(game.extra_settings.get(BOT_KEY) or ())


def bot_seat_level(game: Game) -> Level:
    """The level of the bots in the game's bot seats (``SET BOTS [level]``; ``normal`` by default)."""
    value = game.extra_settings.get(BOT_SEATS_KEY)
    return "sensible" if value == "sensible" else "normal"


def rules_text(chosen: Mapping[str, Any]) -> str:
    """``paradox=descartes, missing_coast=first`` (``-`` when every option is the default)."""
    return ", ".join(f"{name}={value}" for name, value in sorted(chosen.items())) or "-"


# -- small helpers the handlers share ---------------------------------------------------------------


def current_value(game: Game, column: str) -> Any:
    if column.startswith("extra:"):
        return game.extra_settings.get(column.removeprefix("extra:"))
    return getattr(game, column)

