"""From the grammar's parse tree of one command line to typed commands.

One method per rule of ``grammar/mail.lark``. Each returns a list of
commands (a SET line holds several), or, for conditions, a
:class:`~judge.lang.conditions.Condition`. Anything the grammar lets through
but the command does not accept (a password missing, a date that is no
date, a power letter the variant does not have) raises
:class:`~judge.lang.errors.CommandError` with the column of the word at
fault; the mail reader turns it into a :class:`~judge.lang.errors.MailError`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from lark import Token
from lark.visitors import Transformer

from judge.core.bots import LEVELS
from judge.core.geography import GameMap
from judge.core.phase import PhaseType
from judge.core.variants import offered_variants
from judge.lang import commands as c
from judge.lang.conditions import And, Condition, Not, Or, UnitPresent, Word, read_term
from judge.lang.dates import DateSpec, read_date, read_phase
from judge.lang.errors import N_, CommandError, Message
from judge.lang.powers import (
    MASTER_LETTER,
    OBSERVER_LETTER,
    fold,
    power_by_letter_or_name,
    power_letters,
)
from judge.lang.set_options import Choice, Flag, Special, read_option

MAX_GAME_NAME = 19
MAX_PASSWORD = 32
MAX_PREFERENCE_GROUPS = 40
MAX_CONDITION_DEPTH = 16

_GAME_NAME = re.compile(r"^[A-Za-z0-9_-]+$")
_MAP_PHASE = re.compile(r"[SUFW]\d{4}[MRBA]", re.IGNORECASE)
_SCHEDULE_PHASES = {
    "move": PhaseType.MOVEMENT, "moves": PhaseType.MOVEMENT, "movement": PhaseType.MOVEMENT,
    "retreat": PhaseType.RETREAT, "retreats": PhaseType.RETREAT,
    "adjust": PhaseType.ADJUSTMENT, "adjusts": PhaseType.ADJUSTMENT,
    "adjustment": PhaseType.ADJUSTMENT, "build": PhaseType.ADJUSTMENT, "builds": PhaseType.ADJUSTMENT,
}  # fmt: skip
_NUMERIC_OPTIONS = {
    "dedication": ("DEDICATION", int), "ded": ("DEDICATION", int),
    "ontimerat": ("ONTIMERAT", float), "resrat": ("RESRAT", float),
    "centers": ("CENTERS", int), "centres": ("CENTERS", int),
    "players": ("PLAYERS", int), "powers": ("PLAYERS", int),
}  # fmt: skip
_LEVELS = ("ANY", "NOVICE", "AMATEUR", "INTERMEDIATE", "ADVANCED", "EXPERT")
COUNCIL_ACTIONS_FR = {
    "remplacer": "replace", "exclure": "expel", "attente": "waitlist", "véto": "veto", "placer": "seat",
    "clore": "close", "fermer": "close", "abreger": "shorten", "abréger": "shorten",
}
"""The master's COUNCIL actions under their French keywords (CONSEIL REMPLACER F ...)."""
_ACCESS = {"any": "ANY", "same": "SAME", "different": "DIFFERENT"}
LANGUAGE_NAMES = {
    "en": "en", "eng": "en", "english": "en", "anglais": "en",
    "fr": "fr", "fra": "fr", "fre": "fr", "french": "fr", "francais": "fr",
}  # fmt: skip
"""SET LANGUAGE words (folded: lower case, no accents) -> the language code the judge writes in."""
_DAYS = re.compile(r"^[-Ss][-MmXx][-Tt][-Ww][-Tt][-Ff][-Ss]$")


def _column(token: Token) -> int:
    return token.column if token.column is not None else 0


class CommandBuilder(Transformer[Token, Any]):
    """Builds the commands of one line; a new builder per line (it knows the line number)."""

    def __init__(self, line: int, game_map: GameMap, *, french: bool = False, keyword: str = "") -> None:
        # Tokens are not visited (faster); the tree is shallow because the mail reader
        # bounds the nesting of conditions before parsing (see judge.lang.mail).
        super().__init__(visit_tokens=False)
        self.line = line
        self.keyword = keyword
        self.map = game_map
        self.french = french
        self.depth = 0

    # ------------------------------------------------------------ identity

    def register(self, _: list[Token]) -> list[c.Command]:
        return [c.Register(self.line)]

    def iamalso(self, children: list[Token]) -> list[c.Command]:
        return [c.IAmAlso(self.line, str(children[-1]))]

    def confirm(self, words: list[Token]) -> list[c.Command]:
        if not words:
            raise CommandError(Message(N_("CONFIRM needs the code the judge mailed (CONFIRM ABCD-EFGH-JKLM-NPQR).")))
        return [c.Confirm(self.line, "".join(str(w) for w in words))]

    def signon(self, words: list[Token]) -> list[c.Command]:
        if not words:
            raise CommandError(Message(N_("SIGNON needs a power letter and game, and a password (SIGNON Fgame password).")))
        target = str(words[0])
        if len(words) < 2:
            raise CommandError(Message(N_("SIGNON {target}: the password is missing."), target=target), _column(words[0]))
        password = self._password(words[1])
        codes = [str(w) for w in words[2:] if c.UNLOCK_CODE.fullmatch(str(w))]
        unlock = codes[0] if codes else None
        variant, options = self._variant_and_options([w for w in words[2:] if str(w) not in codes])
        first = target[0]
        rest = target[1:]
        if first == "?":
            game = self._game(rest, words[0], offset=1) if rest else None
            return [c.Signon(self.line, c.SignonRole.JOIN, None, game, password, variant, options, unlock)]
        if len(target) < 2:
            raise CommandError(
                Message(N_("SIGNON {target}: give the power letter and the game name together, e.g. SIGNON F{target}."), target=target),
                _column(words[0]),
            )
        game = self._game(rest, words[0], offset=1)
        letter = first.upper()
        if letter == MASTER_LETTER:
            role, power = c.SignonRole.MASTER, None
        elif letter == OBSERVER_LETTER:
            role, power = c.SignonRole.OBSERVER, None
        elif letter.isalpha() or letter.isdigit():  # Chaos's 34 powers use the digits too
            role, power = c.SignonRole.POWER, letter
        else:
            raise CommandError(Message(N_("SIGNON: not a power letter -> {first}"), first=first), _column(words[0]))
        return [c.Signon(self.line, role, power, game, password, variant, options, unlock)]

    def create(self, words: list[Token]) -> list[c.Command]:
        if len(words) < 2:
            raise CommandError(Message(N_("CREATE needs a game name and a password (CREATE ?game password [variant]).")))
        name = str(words[0])
        game = self._game(name[1:] if name.startswith("?") else name, words[0], offset=int(name.startswith("?")))
        variant, options = self._variant_and_options(words[2:])
        return [c.Create(self.line, game, self._password(words[1]), variant, options)]

    def observe(self, words: list[Token]) -> list[c.Command]:
        if len(words) < 2:
            raise CommandError(Message(N_("OBSERVE needs a game name and a password (OBSERVE game password).")))
        game = self._game(str(words[0]), words[0])
        variant, options = self._variant_and_options(words[2:])
        return [c.Signon(self.line, c.SignonRole.OBSERVER, None, game, self._password(words[1]), variant, options)]

    def signoff(self, _: list[Token]) -> list[c.Command]:
        return [c.Signoff(self.line)]

    def header_line(self, children: list[Token]) -> list[c.Command]:
        header = str(children[0]).rstrip(":").strip().lower()
        if len(children) < 2:
            raise CommandError(Message(N_("{header}: the address is missing."), header=header.title()), _column(children[0]))
        address = str(children[1]).strip()
        match = re.search(r"<([^<>\s]+)>", address)
        return [c.SenderHeader(self.line, header, match.group(1) if match else address.split()[0])]

    def register_field(self, children: list[Token]) -> c.RegisterField:
        value = str(children[1]).strip() if len(children) > 1 else ""
        return c.RegisterField(str(children[0]).strip(), value, self.line)

    def _game(self, name: str, token: Token, offset: int = 0) -> str:
        if not name:
            raise CommandError(Message(N_("The game name is missing.")), _column(token) + offset)
        if len(name) > MAX_GAME_NAME or not _GAME_NAME.match(name):
            raise CommandError(
                Message(N_("Not a game name (letters and digits, at most {max_game_name}) -> {name}"), max_game_name=MAX_GAME_NAME, name=name),
                _column(token) + offset,
            )
        return name.lower()

    def _password(self, token: Token) -> str:
        if len(token) > MAX_PASSWORD:
            raise CommandError(Message(N_("Password too long (at most {max_password} characters)."), max_password=MAX_PASSWORD), _column(token))
        return str(token)

    def _variant_and_options(self, words: Sequence[Token]) -> tuple[str | None, tuple[str, ...]]:
        names = [str(word).lower() for word in words]
        if names and names[0] in offered_variants():
            return names[0], tuple(names[1:])
        return None, tuple(names)

    # ------------------------------------------------------------ information

    def help(self, words: list[Token]) -> list[c.Command]:
        return [c.Help(self.line, " ".join(map(str, words)).lower() or None)]

    def get(self, words: list[Token]) -> list[c.Command]:
        files = tuple(str(w).lower() for w in words if str(w).lower() != "me")
        if not files:
            raise CommandError(Message(N_("GET needs a file name (GET INFO, GET PACKAGE ...).")))
        return [c.Get(self.line, files)]

    def list_games(self, children: list[Token]) -> list[c.Command]:
        if children and children[0].type == "FULL":
            return [c.ListGames(self.line, None, True)]
        game = self._game(str(children[0]), children[0]) if children else None
        return [c.ListGames(self.line, game, False)]

    def summary(self, children: list[Token]) -> list[c.Command]:
        return [c.Summary(self.line, self._game(str(children[0]), children[0]) if children else None)]

    def history(self, children: list[Any]) -> list[c.Command]:
        game = None
        if isinstance(children[0], Token):
            game = self._game(str(children[0]), children[0])
        spec: dict[str, Any] = children[-1]
        return [
            c.History(
                self.line, game, spec.get("from"), spec.get("to"), spec.get("lines"),
                spec.get("exclude_start"), spec.get("exclude_end"), bool(spec.get("broad")),
            )
        ]

    def history_excl(self, children: list[Token]) -> dict[str, Any]:
        phases = [t for t in children if t.type == "WORD"]
        return {
            "exclude_start": read_phase(str(phases[0]), _column(phases[0])),
            "exclude_end": read_phase(str(phases[1]), _column(phases[1])) if len(phases) > 1 else None,
            "broad": any(t.type == "BROAD" for t in children),
        }

    def history_range(self, children: list[tuple[str, Any]]) -> dict[str, Any]:
        return dict(children)

    def history_from(self, children: list[DateSpec]) -> tuple[str, Any]:
        return ("from", children[0])

    def history_to(self, children: list[DateSpec]) -> tuple[str, Any]:
        return ("to", children[0])

    def history_lines(self, children: list[Token]) -> tuple[str, Any]:
        lines = str(children[0])
        if not lines.isdigit() or not 0 < int(lines) <= 100_000:
            raise CommandError(Message(N_("LINES needs a number of lines -> {lines}"), lines=lines), _column(children[0]))
        return ("lines", int(lines))

    def date(self, children: list[Token]) -> DateSpec:
        words = [t for t in children if t.type == "WORD"]
        if not words:
            raise CommandError(Message(N_("A date is missing.")))
        start = _column(words[0])
        text = " ".join(str(t) for t in children)
        return read_date(text, start)

    def whois(self, words: list[Token]) -> list[c.Command]:
        if not words:
            raise CommandError(Message(N_("WHOIS needs an address or the start of one.")))
        return [c.Whois(self.line, tuple(str(w).lower() for w in words))]

    def whogame(self, children: list[Token]) -> list[c.Command]:
        game = next((self._game(str(t), t) for t in children if t.type == "WORD"), None)
        return [c.Whogame(self.line, game, any(t.type == "FULL" for t in children))]

    def infoplayer(self, words: list[Token]) -> list[c.Command]:
        if len(words) != 1:
            raise CommandError(Message(N_("INFOPLAYER needs one address.")))
        return [c.InfoPlayer(self.line, str(words[0]))]

    def version(self, words: list[Token]) -> list[c.Command]:
        return [c.Version(self.line, str(words[0]) if words else None)]

    def map_request(self, children: list[Token]) -> list[c.Command]:
        """MAP [game] [phase] [SVG], in any order: a phase is S1901M-like, SVG is the word, the rest a game."""
        game: str | None = None
        phase: str | None = None
        svg = False
        if children:
            rest = children[0]
            offset = 0
            for word in str(rest).split(" "):
                if not word:
                    offset += 1
                    continue
                if word.upper() == "SVG" and not svg:
                    svg = True
                elif phase is None and _MAP_PHASE.fullmatch(word):
                    phase = word.upper()
                elif game is None:
                    game = self._game(word, rest, offset)
                else:
                    raise CommandError(Message(N_("Unexpected words after the option -> {word}"), word=word), _column(rest) + offset)
                offset += len(word) + 1
        return [c.MapRequest(self.line, game, phase, svg)]

    # ------------------------------------------------------------ SET

    def set_line(self, items: list[list[c.Command]]) -> list[c.Command]:
        if not items:
            raise CommandError(Message(N_("SET what? (e.g. SET WAIT, SET DEADLINE Mon 23:30)")))
        return [command for item in items for command in item]

    def set_wait(self, _: list[Token]) -> list[c.Command]:
        return [c.SetWait(self.line, True)]

    def set_nowait(self, _: list[Token]) -> list[c.Command]:
        return [c.SetWait(self.line, False)]

    def set_draw(self, children: list[Token]) -> list[c.Command]:
        letters = self._letters(children[0]) if children else None
        return [c.SetDraw(self.line, True, letters)]

    def set_nodraw(self, _: list[Token]) -> list[c.Command]:
        return [c.SetDraw(self.line, False, None)]

    def set_concede(self, children: list[Token]) -> list[c.Command]:
        if not children:
            raise CommandError(Message(N_("SET CONCEDE needs the power you concede to.")))
        power = power_by_letter_or_name(str(children[0]), self.map)
        if power is None:
            raise CommandError(Message(N_("Unknown power -> {word}"), word=children[0]), _column(children[0]))
        return [c.SetConcede(self.line, power)]

    def set_noconcede(self, _: list[Token]) -> list[c.Command]:
        return [c.SetConcede(self.line, None)]

    def set_password(self, children: list[Token]) -> list[c.Command]:
        if not children:
            raise CommandError(Message(N_("SET PASSWORD needs the new password.")))
        return [c.SetPassword(self.line, self._password(children[0]))]

    def set_schedule(self, children: list[Token]) -> list[c.Command]:
        phase_word, pairs = children[0], children[1:]
        if not pairs:
            raise CommandError(
                Message(N_("SET {phase_word} needs a parameter: CLOCK, MIN, NEXT, GRACE, DELAY or DAYS."), phase_word=str(phase_word).upper()),
                _column(phase_word),
            )
        settings: list[tuple[c.ScheduleParameter, str]] = []
        for name, value in zip(pairs[::2], pairs[1::2], strict=True):
            try:
                parameter = c.ScheduleParameter(str(name).lower())
            except ValueError:
                raise CommandError(
                    Message(N_("Unknown parameter -> {name} (CLOCK, MIN, NEXT, GRACE, DELAY or DAYS)"), name=name), _column(name)
                ) from None
            _check_schedule_value(parameter, value)
            settings.append((parameter, str(value)))
        text = " ".join(str(t) for t in children)
        return [c.SetSchedule(self.line, _SCHEDULE_PHASES[str(phase_word).lower()], tuple(settings), text)]

    def set_max(self, children: list[Token]) -> list[c.Command]:
        if str(children[0]).lower() not in ("absence", "absences") or len(children) < 2:
            raise CommandError(Message(N_("SET MAX ABSENCE needs a number of days.")), _column(children[0]))
        return [self._number("MAX ABSENCE", int, children[1], 0, 31)]

    def set_number(self, children: list[Token]) -> list[c.Command]:
        option, kind = _NUMERIC_OPTIONS[str(children[0]).lower()]
        if len(children) < 2:
            raise CommandError(Message(N_("SET {option} needs a number."), option=option), _column(children[0]))
        return [self._number(option, kind, children[1])]

    def _number(
        self, option: str, kind: type[int] | type[float], token: Token,
        low: float | None = None, high: float | None = None,
    ) -> c.Command:  # fmt: skip
        try:
            value = kind(str(token))
        except ValueError:
            raise CommandError(Message(N_("SET {option} needs a number -> {token}"), option=option, token=token), _column(token)) from None
        if value != value or (low is not None and value < low) or (high is not None and value > high):
            raise CommandError(Message(N_("SET {option}: {token} is out of range ({low} to {high})."), option=option, token=token, low=low, high=high), _column(token))
        if option in ("ONTIMERAT", "RESRAT") and not 0 <= value <= 1:
            raise CommandError(Message(N_("SET {option} is a ratio from 0 to 1 -> {token}"), option=option, token=token), _column(token))
        return c.SetNumber(self.line, option, value)

    def set_level(self, children: list[Token]) -> list[c.Command]:
        word = str(children[0]).upper() if children else ""
        if word not in _LEVELS:
            raise CommandError(Message(N_("SET LEVEL needs one of {levels}."), levels=', '.join(_LEVELS)), _column(children[0]) if children else 0)
        return [c.SetChoice(self.line, "LEVEL", word)]

    def set_access(self, children: list[Token]) -> list[c.Command]:
        word = str(children[0]).lower().removesuffix("-site") if children else ""
        if word not in _ACCESS:
            raise CommandError(
                Message(N_("SET ACCESS needs ANY, SAME or DIFFERENT.")), _column(children[0]) if children else 0
            )
        return [c.SetChoice(self.line, "ACCESS", _ACCESS[word])]

    def set_invite(self, children: list[Token]) -> list[c.Command]:
        allow = children[0].type == "ALLOW"
        words = [str(w) for w in children[1:]]
        if words and words[0].lower() in ("player", "players"):
            words = words[1:]
        if len(words) != 1:
            raise CommandError(
                Message(N_("SET {word} PLAYER needs one address ('-' in front to take it off the list)."), word=children[0].upper()),
                _column(children[0]),
            )
        address = words[0]
        return [c.SetInvitation(self.line, allow, address.lstrip("-"), address.startswith("-"))]

    def set_approve(self, children: list[Token]) -> list[c.Command]:
        return [c.SetApproved(self.line, self._letters(children[0]) if children else "", True)]

    def set_not_approve(self, children: list[Token]) -> list[c.Command]:
        return [c.SetApproved(self.line, self._letters(children[0]) if children else "", False)]

    def set_identifier(self, children: list[Token]) -> list[c.Command]:
        kind = str(children[0]).upper().removesuffix("C")
        words = [str(w) for w in children[1:] if str(w).lower() != "number"]
        if not words:
            raise CommandError(Message(N_("SET {kind} needs the number."), kind=kind), _column(children[0]))
        return [c.SetIdentifier(self.line, kind, " ".join(words))]

    def set_map(self, children: list[Token]) -> list[c.Command]:
        word = str(children[0]).upper() if children else ""
        if word not in ("ON", "OFF", "OUI", "NON"):
            raise CommandError(Message(N_("SET MAP needs ON or OFF.")), _column(children[0]) if children else 0)
        return [c.SetMap(self.line, word in ("ON", "OUI"))]

    def set_language(self, children: list[Token]) -> list[c.Command]:
        if not children:
            raise CommandError(Message(N_("SET LANGUAGE needs a language: FR (francais) or EN (English).")))
        word = children[0]
        language = LANGUAGE_NAMES.get(fold(str(word)))
        if language is None:
            raise CommandError(Message(N_("Unknown language -> {word} (the judge writes FR or EN)"), word=word), _column(word))
        return [c.SetLanguage(self.line, language)]

    def set_flag(self, words: list[Token]) -> list[c.Command]:
        return self._option(words, negated=False)

    def set_noflag(self, words: list[Token]) -> list[c.Command]:
        return self._option(words, negated=True)

    def _option(self, words: list[Token], *, negated: bool) -> list[c.Command]:
        texts = [str(w) for w in words]
        if negated:
            texts[0] = "no" + texts[0]
        found = read_option(texts)
        if found is None:
            shown = ("NO " if negated else "") + " ".join(str(w) for w in words)
            raise CommandError(Message(N_("Unknown SET option -> {shown}"), shown=shown.upper()), _column(words[0]))
        meaning, used = found
        rest = words[used:]
        if isinstance(meaning, Special):
            return self._special(meaning, words[used - 1], rest)
        if rest:
            raise CommandError(Message(N_("Unexpected words after the option -> {word}"), word=rest[0]), _column(rest[0]))
        if isinstance(meaning, Flag):
            return [c.SetFlag(self.line, meaning.option, meaning.enabled)]
        assert isinstance(meaning, Choice)
        return [c.SetChoice(self.line, meaning.option, meaning.value)]

    def _bots(self, enabled: bool, rest: list[Token]) -> c.Command:
        """SET BOTS [SENSIBLE|NORMAL], SET NO BOTS."""
        if len(rest) > 1 or (rest and not enabled):
            raise CommandError(Message(N_("Unexpected words after the option -> {word}"), word=rest[-1]), _column(rest[-1]))
        level = str(rest[0]).lower() if rest else None
        if level is not None and level not in LEVELS:
            raise CommandError(
                Message(N_("Unknown bot level -> {word} (the levels are SENSIBLE and NORMAL)"), word=rest[0]),
                _column(rest[0]),
            )
        return c.SetBots(self.line, level, enabled)

    def _special(self, meaning: Special, last: Token, rest: list[Token]) -> list[c.Command]:
        if meaning.name == "COUNCILS":
            return [self._councils(meaning.enabled, last, rest)]
        if meaning.name in ("END YEAR", "CD AFTER"):
            if len(rest) != 1:
                raise CommandError(Message(N_("SET {option} needs a number."), option=meaning.name), _column(last))
            return [self._number(meaning.name, int, rest[0], 0, 9999)]
        if meaning.name == "BOTS":
            if str(last).lower() in ("s", "nos"):  # SET BOT S: the power whose letter is S, not SET BOTS
                return [c.SetBot(self.line, self._letters(last), meaning.enabled)]
            return [self._bots(meaning.enabled, rest)]
        if meaning.name == "BOT":
            if len(rest) != 1:
                raise CommandError(Message(N_("SET BOT needs the letters of the powers (SET BOT F).")), _column(last))
            return [c.SetBot(self.line, self._letters(rest[0]), meaning.enabled)]
        if meaning.name == "MAX ABSENCE":
            if len(rest) != 1:
                raise CommandError(Message(N_("SET MAX ABSENCE needs a number of days.")), _column(last))
            return [self._number("MAX ABSENCE", int, rest[0], 0, 31)]
        if meaning.name == "NO ABSENCE":
            if not rest:
                raise CommandError(Message(N_("SET NO ABSENCE needs the date of the absence to cancel.")), _column(last))
            text = " ".join(str(t) for t in rest)
            return [c.SetNoAbsence(self.line, read_date(text, _column(rest[0])))]
        if meaning.name == "BLIND":  # SET BLIND = SET VARIANT BLIND; SET NO BLIND = SET NOT VARIANT BLIND
            if rest:
                raise CommandError(Message(N_("Unexpected words after the option -> {word}"), word=rest[0]), _column(rest[0]))
            return [c.SetVariant(self.line, None, ("blind",), not meaning.enabled)]
        if meaning.name == "NOT VARIANT":
            return [c.SetVariant(self.line, None, tuple(str(t).lower() for t in rest), True)]
        if meaning.name == "NOT APPROVED":
            return [c.SetApproved(self.line, self._letters(rest[0]) if rest else "", False)]
        if rest:
            raise CommandError(Message(N_("Unexpected words after the option -> {word}"), word=rest[0]), _column(rest[0]))
        if meaning.name == "WAIT":
            return [c.SetWait(self.line, meaning.enabled)]
        if meaning.name == "DRAW":
            return [c.SetDraw(self.line, meaning.enabled, None)]
        return [c.SetConcede(self.line, None)]

    def _councils(self, enabled: bool, last: Token, rest: list[Token]) -> c.Command:
        """``SET COUNCILS [size] [YEARS|ANS n]``; ``SET NO COUNCILS`` takes nothing."""
        if not enabled:
            if rest:
                raise CommandError(Message(N_("Unexpected words after the option -> {word}"), word=rest[0]), _column(rest[0]))
            return c.SetCouncils(self.line, False)
        size: int | None = None
        years: int | None = None
        words = list(rest)
        if words and str(words[0]).isdigit():
            size = self._bounded("COUNCILS", words.pop(0), 2, 7)
        if words and str(words[0]).lower() in ("years", "year", "ans", "an", "annees", "années"):
            marker = words.pop(0)
            if not words:
                raise CommandError(Message(N_("SET {option} needs a number."), option="COUNCILS YEARS"), _column(marker))
            years = self._bounded("COUNCILS YEARS", words.pop(0), 1, 100)
        if words:
            raise CommandError(Message(N_("Unexpected words after the option -> {word}"), word=words[0]), _column(words[0]))
        return c.SetCouncils(self.line, True, size, years)

    def _bounded(self, option: str, token: Token, low: int, high: int) -> int:
        number = self._number(option, int, token, low, high)
        assert isinstance(number, c.SetNumber)
        return int(number.value)

    def set_deadline(self, children: list[Token]) -> list[c.Command]:
        return [c.SetDeadline(self.line, c.DeadlineKind.DEADLINE, self._date(children, "SET DEADLINE"))]

    def set_grace(self, children: list[Token]) -> list[c.Command]:
        return [c.SetDeadline(self.line, c.DeadlineKind.GRACE, self._date(children, "SET GRACE"))]

    def set_grace_press(self, _: list[Token]) -> list[c.Command]:
        return [c.SetFlag(self.line, "GRACE PRESS", True)]

    def set_start(self, children: list[Token]) -> list[c.Command]:
        return [c.SetDeadline(self.line, c.DeadlineKind.START, self._date(children, "SET START"))]

    def set_absence(self, children: list[Token]) -> list[c.Command]:
        rest = children[1:]
        if not rest:
            raise CommandError(Message(N_("SET ABSENCE needs a date (SET ABSENCE 5 Jan TO 12 Jan).")), _column(children[0]))
        text, column = str(rest[0]), _column(rest[0])
        parts = re.split(r"\s+(?:to|until|-)\s+", text, maxsplit=1, flags=re.IGNORECASE)
        start = read_date(parts[0], column)
        end = read_date(parts[1], column + text.find(parts[1], len(parts[0]))) if len(parts) > 1 else None
        return [c.SetAbsence(self.line, start, end)]

    def set_noabsence(self, children: list[Token]) -> list[c.Command]:
        rest = children[1:]
        if not rest:
            raise CommandError(Message(N_("SET NO ABSENCE needs the date of the absence to cancel.")), _column(children[0]))
        return [c.SetNoAbsence(self.line, read_date(str(rest[0]), _column(rest[0])))]

    def set_comment(self, children: list[Token]) -> list[c.Command]:
        text = str(children[0]).strip() if children else ""
        if text.lower() == "begin":
            return [c.SetComment(self.line, "", True)]
        return [c.SetComment(self.line, text, False)]

    def set_preference(self, children: list[Token]) -> list[c.Command]:
        if not children:
            raise CommandError(Message(N_("SET PREFERENCE needs a list of power letters, best first (e.g. F[ERGTI]A).")))
        return [c.SetPreference(self.line, self._preference(children[0]))]

    def set_address(self, children: list[Token]) -> list[c.Command]:
        text = str(children[0]) if children else ""
        addresses = tuple(a.strip() for a in text.split(",") if a.strip())
        for address in addresses:
            if " " in address:
                raise CommandError(
                    Message(N_("Addresses are separated by commas, without blanks -> {address}"), address=address),
                    _column(children[0]) + text.find(address),
                )
        return [c.SetAddress(self.line, addresses)]

    def set_variant(self, children: list[Token]) -> list[c.Command]:
        words = str(children[0]).lower().replace(",", " ").split() if children else []
        if not words:
            raise CommandError(Message(N_("SET VARIANT needs a variant or an option.")))
        if words[0] in offered_variants():
            return [c.SetVariant(self.line, words[0], tuple(words[1:]), False)]
        return [c.SetVariant(self.line, None, tuple(words), False)]

    def set_not_variant(self, children: list[Token]) -> list[c.Command]:
        words = str(children[0]).lower().replace(",", " ").split() if children else []
        if not words:
            raise CommandError(Message(N_("SET NOT VARIANT needs the option to remove.")))
        return [c.SetVariant(self.line, None, tuple(words), True)]

    def _date(self, children: list[Token], what: str) -> DateSpec:
        if not children:
            raise CommandError(Message(N_("{what} needs a date (e.g. {what} Mon 23:30)."), what=what))
        return read_date(str(children[0]), _column(children[0]))

    def _letters(self, token: Token, *, extra: str = "") -> str:
        """Power letters run together (``FRG``), each checked against the variant."""
        known = power_letters(self.map)
        letters = str(token).upper()
        for offset, letter in enumerate(letters):
            if letter not in known and letter not in extra:
                raise CommandError(
                    Message(N_("Unknown power letter -> {letter} (this variant has {known})"), letter=letter, known=''.join(known)),
                    _column(token) + offset,
                )
        return letters

    def _preference(self, token: Token) -> tuple[str, ...]:
        text = str(token).strip()
        known = power_letters(self.map)
        groups: list[str] = []
        group: list[str] | None = None
        closing = {"[": "]", "(": ")"}
        expected_close = ""
        for offset, char in enumerate(text):
            column = _column(token) + offset
            if char.isspace() or char == ",":
                continue
            if char in closing:
                if group is not None:
                    raise CommandError(Message(N_("Brackets cannot nest in a preference list.")), column)
                group, expected_close = [], closing[char]
            elif char in "])":
                if group is None or char != expected_close:
                    raise CommandError(Message(N_("Unbalanced bracket -> {char}"), char=char), column)
                if group:
                    groups.append("".join(group))
                group = None
            elif char == "*" or char.upper() in known:
                target = group if group is not None else None
                if target is not None:
                    target.append(char.upper())
                else:
                    groups.append(char.upper())
            else:
                raise CommandError(
                    Message(N_("Unknown power letter -> {char} (this variant has {known})"), char=char, known=''.join(known)), column
                )
        if group is not None:
            raise CommandError(Message(N_("Missing '{expected_close}' in the preference list."), expected_close=expected_close), _column(token) + len(text))
        seen: set[str] = set()
        for letter in "".join(groups):
            if letter in seen and letter != "*":
                raise CommandError(Message(N_("Power {letter} appears twice in the preference list."), letter=letter), _column(token))
            seen.add(letter)
        return tuple(groups[:MAX_PREFERENCE_GROUPS])

    # ------------------------------------------------------------ press and diary

    def press(self, options: list[tuple[str, Any]]) -> list[c.Command]:
        """The PRESS/BROADCAST line; the mail reader adds the body and what ended it."""
        seen: dict[str, Any] = {}
        for kind, value in options:
            if kind in seen:
                raise CommandError(Message(N_("Two {kind} options in one press line."), kind=kind.upper()))
            seen[kind] = value
        keyword = self.keyword
        broadcast = keyword != "press"
        recipients = seen.get("to")
        if not broadcast and not seen:
            raise CommandError(
                Message(N_("PRESS needs recipients (PRESS TO FRG, PRESS TO ALL BUT T); use BROADCAST to write to everyone."))
            )
        fake = seen.get("fake")
        return [
            c.Press(
                self.line,
                broadcast=broadcast and recipients is None,
                postal=keyword == "postal",
                grey=seen.get("grey"),
                recipients=recipients,
                fake=None if fake is None else fake[0],
                shown_to=None if fake is None else fake[1],
            )
        ]

    def press_white(self, _: list[Token]) -> tuple[str, Any]:
        return ("grey", False)

    def press_grey(self, _: list[Token]) -> tuple[str, Any]:
        return ("grey", True)

    def press_to(self, children: list[Token]) -> tuple[str, Any]:
        return ("to", c.Recipients(self._press_letters(children[0])))

    def press_to_all(self, _: list[Token]) -> tuple[str, Any]:
        return ("to", None)

    def press_to_all_but(self, children: list[Token]) -> tuple[str, Any]:
        return ("to", c.Recipients(self._press_letters(children[0]), all_but=True))

    def press_no_fake(self, _: list[Token]) -> tuple[str, Any]:
        return ("fake", (False, None))

    def press_fake(self, children: list[c.Recipients | None]) -> tuple[str, Any]:
        return ("fake", (True, children[0] if children else None))

    def fake_broadcast(self, _: list[Token]) -> None:
        return None

    def fake_to(self, children: list[Token]) -> c.Recipients:
        return c.Recipients(self._press_letters(children[0]))

    def fake_to_all_but(self, children: list[Token]) -> c.Recipients:
        return c.Recipients(self._press_letters(children[0]), all_but=True)

    def _press_letters(self, token: Token) -> str:
        text = str(token)
        if text[:1] in "+-":
            token = Token(token.type, text[1:], token.start_pos, token.line, _column(token) + 1)
        if not str(token):
            raise CommandError(Message(N_("Power letters are missing after '+' or '-'.")), _column(token))
        return self._letters(token, extra=OBSERVER_LETTER + MASTER_LETTER)

    def end_press(self, _: list[Token]) -> list[c.Command]:
        raise CommandError(Message(N_("ENDPRESS without PRESS or BROADCAST: nothing to end.")))

    def diary(self, children: list[Token]) -> list[c.Command]:
        if not children:
            return [c.Diary(self.line, c.DiaryAction.RECORD)]
        word = str(children[0]).lower()
        action = c.DiaryAction.DELETE if word == "del" else c.DiaryAction(word)
        entry = None
        if action in (c.DiaryAction.READ, c.DiaryAction.DELETE):
            if len(children) < 2 or not str(children[1]).isdigit():
                raise CommandError(Message(N_("DIARY {value} needs an entry number."), value=action.value.upper()), _column(children[0]))
            entry = int(str(children[1]))
        elif len(children) > 1:
            raise CommandError(Message(N_("Unexpected word -> {word}"), word=children[1]), _column(children[1]))
        return [c.Diary(self.line, action, entry)]

    # ------------------------------------------------------------ phases and conditions

    def phase(self, children: list[Token]) -> list[c.Command]:
        if not children:
            raise CommandError(Message(N_("PHASE needs a season, a year and a phase (PHASE Fall 1905 Movement).")))
        return [c.PhaseCommand(self.line, read_phase(str(children[0]), _column(children[0])))]

    def clear(self, children: list[Any]) -> list[c.Command]:
        if not children:
            return [c.Clear(self.line)]
        return [c.Clear(self.line, blocks=True, province=children[0])]

    def clear_if(self, words: list[Token]) -> str | None:
        """The province of the unit whose block CLEAR IF withdraws (None: every block), read
        as a condition's term is (``A Paris``, ``army Paris``, ``Paris``)."""
        if not words:
            return None
        term = self.unit_term(words)
        if not isinstance(term, UnitPresent) or term.power is not None:
            raise CommandError(
                Message(N_("CLEAR IF names one of your units, as A Paris or Paris (or nothing: every block).")),
                _column(words[0]),
            )
        return term.province

    def show_orders(self, _: list[Token]) -> list[c.Command]:
        return [c.ShowOrders(self.line)]

    def if_line(self, children: list[Any]) -> tuple[str, Condition]:
        return ("if", children[0])

    def elseif_line(self, children: list[Any]) -> tuple[str, Condition]:
        return ("elseif", children[0])

    def else_line(self, _: list[Token]) -> tuple[str, None]:
        return ("else", None)

    def endif_line(self, _: list[Token]) -> tuple[str, None]:
        return ("endif", None)

    def cond_and(self, children: list[Condition]) -> Condition:
        return And(children[0], children[1])

    def cond_or(self, children: list[Condition]) -> Condition:
        return Or(children[0], children[1])

    def cond_not(self, children: list[Condition]) -> Condition:
        return Not(children[0])

    def unit_term(self, words: list[Token]) -> Condition:
        return read_term([Word(str(w), _column(w)) for w in words], self.map, french=self.french)

    # ------------------------------------------------------------ playing and mastering

    def approve(self, children: list[Token]) -> list[c.Command]:
        return [c.TakeoverDecision(self.line, self._takeover_power(children, "APPROVE"), approved=True)]

    def refuse(self, children: list[Token]) -> list[c.Command]:
        return [c.TakeoverDecision(self.line, self._takeover_power(children, "REFUSE"), approved=False)]

    def _takeover_power(self, children: list[Token], keyword: str) -> str:
        if not children:
            raise CommandError(Message(N_("{keyword} needs the power whose takeover you decide ({keyword} F)."), keyword=keyword))
        power = power_by_letter_or_name(str(children[0]), self.map)
        if power is None:
            raise CommandError(Message(N_("Unknown power -> {word}"), word=str(children[0])), _column(children[0]))
        return power

    # ------------------------------------------------------------ councils (issue 17)

    def council_vote(self, children: list[Token]) -> list[c.Command]:
        words = [str(w) for w in children]
        if not words:
            raise CommandError(Message(N_("VOTE needs a member of your council, or ABSTAIN.")))
        if words[0].lower() not in ("abstain", "abstention", "blanc"):
            return [c.CouncilVote(self.line, " ".join(words))]
        if len(words) == 1:
            return [c.CouncilVote(self.line, None)]
        power = power_by_letter_or_name(words[1], self.map)
        if power is None:
            raise CommandError(Message(N_("Unknown power -> {word}"), word=words[1]), _column(children[1]))
        if len(words) < 3:
            raise CommandError(Message(N_("An influence vote names a power and one of its council's members.")))
        return [c.CouncilVote(self.line, None, power, " ".join(words[2:]))]

    def council_ready(self, children: list[Token]) -> list[c.Command]:
        if children and str(children[0]).lower() not in ("hold", "holds", "tenir", "tient"):
            raise CommandError(Message(N_("Unexpected words after the option -> {word}"), word=str(children[0])), _column(children[0]))
        return [c.CouncilReady(self.line, bool(children))]

    def council_accuse(self, children: list[Token]) -> list[c.Command]:
        words = [str(w) for w in children]
        withdraw = bool(words) and words[0].lower() in ("withdraw", "retirer", "retrait")
        if withdraw:
            words = words[1:]
        if not words:
            raise CommandError(Message(N_("ACCUSE needs the member you accuse (ACCUSE <name or number>).")))
        return [c.CouncilAccuse(self.line, " ".join(words), withdraw)]

    def council_escape(self, children: list[Token]) -> list[c.Command]:
        words = [str(w).lower() for w in children]
        leave = words in (["leave"], ["partir"], ["quitter"])
        if not leave and words not in (["waitlist"], ["waiting", "list"], ["attente"], ["liste", "d'attente"]):
            raise CommandError(Message(N_("ESCAPE needs LEAVE or WAITLIST.")))
        return [c.CouncilEscape(self.line, not leave)]

    def council_master(self, children: list[Token]) -> list[c.Command]:
        words = [str(w) for w in children]
        if words:  # the French keywords (CONSEIL REMPLACER F ...) name the same actions
            words[0] = COUNCIL_ACTIONS_FR.get(words[0].lower(), words[0])
        if not words or words[0].lower() not in (
            "onr", "replace", "expel", "waitlist", "veto", "seat", "close", "shorten"
        ):
            raise CommandError(Message(N_("COUNCIL needs ONR, REPLACE <power>, EXPEL, WAITLIST or VETO <member>, "
                                          "SEAT <member> <power>, CLOSE [<power>] or SHORTEN <hours>.")))
        return [c.CouncilMaster(self.line, words[0].lower(), tuple(words[1:]))]

    def council_tribunal(self, children: list[Token]) -> list[c.Command]:
        if not children or not str(children[0]).strip():
            raise CommandError(Message(N_("TRIBUNAL needs the text of your plea or answer.")))
        return [c.CouncilTribunal(self.line, str(children[0]).strip())]

    def resign(self, _: list[Token]) -> list[c.Command]:
        return [c.Resign(self.line)]

    def become(self, children: list[Token]) -> list[c.Command]:
        if not children:
            raise CommandError(Message(N_("BECOME needs MASTER or a power.")))
        word = str(children[0])
        if word.lower() == "master":
            return [c.BecomeMaster(self.line)]
        power = power_by_letter_or_name(word, self.map)
        if power is None:
            raise CommandError(Message(N_("Unknown power -> {word}"), word=word), _column(children[0]))
        return [c.Become(self.line, power)]

    def eject(self, children: list[Token]) -> list[c.Command]:
        if not children:
            raise CommandError(Message(N_("EJECT needs a power or an address.")))
        word = str(children[0])
        power = None if "@" in word else power_by_letter_or_name(word, self.map)
        return [c.Eject(self.line, word, power)]

    def promote(self, children: list[Token]) -> list[c.Command]:
        if not children:
            raise CommandError(Message(N_("PROMOTE needs the address of an observer.")))
        return [c.Promote(self.line, str(children[0]))]

    def process(self, children: list[Token]) -> list[c.Command]:
        phase = read_phase(str(children[0]), _column(children[0])) if children else None
        return [c.Process(self.line, phase)]

    def predict(self, _: list[Token]) -> list[c.Command]:
        return [c.Predict(self.line)]

    def rollback(self, children: list[Token]) -> list[c.Command]:
        if not children:
            return [c.Rollback(self.line, None)]
        text = str(children[0])
        if not text.isdigit() or int(text) < 1:
            raise CommandError(Message(N_("ROLLBACK needs a turn number (001 is S1901M) -> {text}"), text=text), _column(children[0]))
        return [c.Rollback(self.line, int(text))]

    def unstart(self, _: list[Token]) -> list[c.Command]:
        return [c.Unstart(self.line)]

    def force_begin(self, _: list[Token]) -> list[c.Command]:
        return [c.ForceBegin(self.line)]

    def pause(self, _: list[Token]) -> list[c.Command]:
        return [c.Pause(self.line)]

    def resume(self, _: list[Token]) -> list[c.Command]:
        return [c.Resume(self.line)]

    def terminate(self, _: list[Token]) -> list[c.Command]:
        return [c.Terminate(self.line)]

    def admin(self, children: list[Token]) -> list[c.Command]:
        return [c.Admin(self.line, str(children[0]).upper(), tuple(str(w) for w in children[1:]))]


def _check_schedule_value(parameter: c.ScheduleParameter, token: Token) -> None:
    text = str(token)
    if parameter is c.ScheduleParameter.DAYS:
        if not _DAYS.match(text):
            raise CommandError(
                Message(N_("DAYS is seven letters Sunday to Saturday, '-' for no deadline (e.g. -MTWTF-) -> {text}"), text=text),
                _column(token),
            )
        return
    if parameter is c.ScheduleParameter.CLOCK:
        if re.match(r"^-?\d{1,4}$", text) and int(text) < 1440:
            return
        if re.match(r"^\d{1,2}:\d{2}$", text):
            return
        raise CommandError(Message(N_("CLOCK is minutes after midnight (e.g. 1410) or -1 -> {text}"), text=text), _column(token))
    try:
        hours = float(text)
    except ValueError:
        hours = -1.0
    if not 0 <= hours <= 10_000:
        raise CommandError(Message(N_("{value} is a number of hours (e.g. 48 or 0.5) -> {text}"), value=parameter.value.upper(), text=text), _column(token))
