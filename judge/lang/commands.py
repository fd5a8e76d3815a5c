"""The typed commands a mail is read into: one frozen dataclass per command.

The command handlers (one module per command) dispatch on the type, so each
command that does something different is its own class, and each SET family
with its own arguments too. Every command carries ``line``, the 1-based line
of the mail it was read from, so that a reply can quote it. ``KIND`` is the
name the JSON form (``judge parse``) uses.

Nothing here checks the game: whether the sender may give a command, or is
signed on, is the handlers' business. What is checked is what can be checked
from the text and the variant's map: syntax, province names, power letters,
dates, numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from judge.core.phase import Phase, PhaseType
from judge.lang.conditions import Condition
from judge.lang.dates import DateSpec
from judge.lang.orders import ReadOrder


@dataclass(frozen=True, slots=True)
class Command:
    """Base of every command: the line it was read from."""

    KIND: ClassVar[str] = "command"

    # What the dispatch of a mail's commands (judge.app.mail_in.dispatch) may rely on, said
    # where each command is defined; a subclass keeps its base's answers.
    CONSTANT_ANSWER: ClassVar[bool] = False
    """The answer is the same every time (HELP, GET, VERSION): asked again in the same mail
    with the same words, it is answered once."""
    READ_ONLY_ANSWER: ClassVar[bool] = False
    """It changes nothing, but its answer follows the games (LIST, SUMMARY, WHOIS...): asked
    again with the same words, it is answered once until a command that may change something."""
    WRITES_NOTHING_BEFORE_REFUSING: ClassVar[bool] = False
    """It changes nothing in the database while it runs (an order is merged into the mail's
    sheet in memory and stored once at its end): a refusal has nothing to undo, so it runs
    without a savepoint of its own (two statements less per command, issue 14)."""
    OWN_SAVEPOINTS: ClassVar[bool] = False
    """Its handler takes a savepoint itself around what may refuse after writing (a power's
    sign-on, the most common command, needs none), so the dispatch takes none for it."""
    READS_NO_PLAYER: ClassVar[bool] = False
    """It reads no player of the game but the one signed on as: a mail of such commands alone
    has its sign-on load the seats without their players (``MailSession.players_wanted``)."""

    line: int


# ---------------------------------------------------------------- identity


@dataclass(frozen=True, slots=True)
class RegisterField:
    """One ``Keyword: value`` line of the REGISTER form."""

    name: str
    value: str
    line: int


@dataclass(frozen=True, slots=True)
class Register(Command):
    """``REGISTER`` followed by ``Keyword: value`` lines, up to ``END``.

    Fields are kept in order and as written; which are required, and what a
    Level or Package value means, is the registration handler's business.
    """

    KIND: ClassVar[str] = "register"
    fields: tuple[RegisterField, ...] = ()

    def value(self, name: str) -> str | None:
        """The value of the last field called ``name`` (case-insensitive), if any."""
        wanted = name.lower()
        for field in reversed(self.fields):
            if field.name.lower() == wanted:
                return field.value
        return None


@dataclass(frozen=True, slots=True)
class IAmAlso(Command):
    KIND: ClassVar[str] = "iamalso"
    address: str = ""


@dataclass(frozen=True, slots=True)
class Confirm(Command):
    """CONFIRM code: carry out the change a mailed code stands for (sent from the claimed address)."""

    KIND: ClassVar[str] = "confirm"
    token: str = ""


UNLOCK_CODE = re.compile(r"[A-Za-z0-9]{4}(?:-[A-Za-z0-9]{4}){3}")
"""The shape of a sign-on's unlock code (four groups of four, as judge.app.people.claims makes codes):
no variant or option name has it."""


class SignonRole(StrEnum):
    POWER = "power"  # SIGNON Fgame pw
    MASTER = "master"  # SIGNON Mgame pw
    OBSERVER = "observer"  # SIGNON Ogame pw, OBSERVE/WATCH game pw
    JOIN = "join"  # SIGNON ?game pw [variant] [options], SIGNON ? pw


@dataclass(frozen=True, slots=True)
class Signon(Command):
    """A sign-on (SIGNON, HELLO, LOGIN, OBSERVE, WATCH); one per mail.

    ``game`` is None for ``SIGNON ? pw`` (the next forming game).
    ``variant`` is the first word after the password when it names a
    variant the judge has, ``options`` the other words (``gunboat``...).
    ``unlock``: a word after the password in the shape of the one-time
    code the judge mails a player shut out of his own power
    (``K7QF-2MZD-9XWP-HT4R``, :data:`UNLOCK_CODE`).
    """

    KIND: ClassVar[str] = "signon"
    OWN_SAVEPOINTS: ClassVar[bool] = True
    READS_NO_PLAYER: ClassVar[bool] = True
    role: SignonRole = SignonRole.POWER
    power_letter: str | None = None
    game: str | None = None
    password: str = ""
    variant: str | None = None
    options: tuple[str, ...] = ()
    unlock: str | None = None


@dataclass(frozen=True, slots=True)
class Create(Command):
    """``CREATE ?game pw [variant] [options]``: create a game and join it."""

    KIND: ClassVar[str] = "create"
    game: str = ""
    password: str = ""
    variant: str | None = None
    options: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Signoff(Command):
    """SIGNOFF, or a ``--`` signature line: the rest of the mail is not read."""

    KIND: ClassVar[str] = "signoff"
    WRITES_NOTHING_BEFORE_REFUSING: ClassVar[bool] = True
    READS_NO_PLAYER: ClassVar[bool] = True
    signature: bool = False


@dataclass(frozen=True, slots=True)
class IgnoredText(Command):
    """A line of prose after the last command ("Thanks for the game"): not read, not an error."""

    KIND: ClassVar[str] = "ignored_text"
    WRITES_NOTHING_BEFORE_REFUSING: ClassVar[bool] = True
    READS_NO_PLAYER: ClassVar[bool] = True
    text: str = ""


@dataclass(frozen=True, slots=True)
class SenderHeader(Command):
    """A ``Reply-To:``/``From:`` line in the body before SIGNON: who the mail is from.

    The classic Judge honoured these (the documented way for a master to sign
    a player on); the handler decides whether to.
    """

    KIND: ClassVar[str] = "sender_header"
    header: str = ""
    address: str = ""


# ---------------------------------------------------------------- information


@dataclass(frozen=True, slots=True)
class Help(Command):
    KIND: ClassVar[str] = "help"
    CONSTANT_ANSWER: ClassVar[bool] = True
    topic: str | None = None


@dataclass(frozen=True, slots=True)
class Get(Command):
    """GET / SEND [ME] file...: send help files."""

    KIND: ClassVar[str] = "get"
    CONSTANT_ANSWER: ClassVar[bool] = True
    files: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ListGames(Command):
    """LIST [FULL | game]."""

    KIND: ClassVar[str] = "list"
    READ_ONLY_ANSWER: ClassVar[bool] = True
    game: str | None = None
    full: bool = False


@dataclass(frozen=True, slots=True)
class Summary(Command):
    KIND: ClassVar[str] = "summary"
    READ_ONLY_ANSWER: ClassVar[bool] = True
    game: str | None = None


@dataclass(frozen=True, slots=True)
class History(Command):
    """HISTORY [game] [FROM d] [TO d] [LINES n], or HISTORY [game] EXCLSTART p [EXCLEND p] [BROAD]."""

    KIND: ClassVar[str] = "history"
    READ_ONLY_ANSWER: ClassVar[bool] = True
    game: str | None = None
    from_: DateSpec | None = None
    to: DateSpec | None = None
    lines: int | None = None
    exclude_start: Phase | None = None
    exclude_end: Phase | None = None
    broad: bool = False


@dataclass(frozen=True, slots=True)
class Whois(Command):
    """WHOIS / WHO IS / WHO prefix...: registration records whose address starts so."""

    KIND: ClassVar[str] = "whois"
    READ_ONLY_ANSWER: ClassVar[bool] = True
    prefixes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Whogame(Command):
    KIND: ClassVar[str] = "whogame"
    READ_ONLY_ANSWER: ClassVar[bool] = True
    game: str | None = None
    full: bool = False


@dataclass(frozen=True, slots=True)
class InfoPlayer(Command):
    KIND: ClassVar[str] = "infoplayer"
    READ_ONLY_ANSWER: ClassVar[bool] = True
    address: str = ""


@dataclass(frozen=True, slots=True)
class Version(Command):
    KIND: ClassVar[str] = "version"
    CONSTANT_ANSWER: ClassVar[bool] = True
    level: str | None = None


@dataclass(frozen=True, slots=True)
class MapRequest(Command):
    """MAP [game] [phase] [SVG]: a picture of the board (issue 16); ``phase`` as written (``S1901M``)."""

    KIND: ClassVar[str] = "map"
    game: str | None = None
    phase: str | None = None
    svg: bool = False


@dataclass(frozen=True, slots=True)
class SetMap(Command):
    """SET MAP ON|OFF: whether the sender's results mails carry the map (on unless turned off)."""

    KIND: ClassVar[str] = "set_map"
    enabled: bool = True


# ---------------------------------------------------------------- orders


@dataclass(frozen=True, slots=True)
class OrderCommand(Command):
    """One order (a line may hold several, split by ``,`` or ``;``); ``column`` is where it starts."""

    KIND: ClassVar[str] = "order"
    WRITES_NOTHING_BEFORE_REFUSING: ClassVar[bool] = True
    READS_NO_PLAYER: ClassVar[bool] = True
    read: ReadOrder | None = None
    column: int = 1


@dataclass(frozen=True, slots=True)
class SheetLineCommand(Command):
    """A whole order line of a variant whose orders are kept as the text sent (the Renaissance
    game's): read by the variant's own reader (``SignonReading.line_reader``) and read again by
    it at the deadline."""

    KIND: ClassVar[str] = "order"
    WRITES_NOTHING_BEFORE_REFUSING: ClassVar[bool] = True
    READS_NO_PLAYER: ClassVar[bool] = True
    text: str = ""


@dataclass(frozen=True, slots=True)
class Branch:
    """``IF``/``ELSE IF`` condition and the orders under it."""

    line: int
    condition: Condition
    body: tuple[OrderCommand | Conditional, ...]


@dataclass(frozen=True, slots=True)
class Conditional(Command):
    """An IF ... ELSE IF ... ELSE ... ENDIF block; blocks nest in bodies.

    ``otherwise`` is the ELSE body (empty without ELSE). ``closed`` is False
    when the mail ended (or a PHASE line came) before ENDIF, which the Judge
    accepted silently.
    """

    KIND: ClassVar[str] = "conditional"
    WRITES_NOTHING_BEFORE_REFUSING: ClassVar[bool] = True
    READS_NO_PLAYER: ClassVar[bool] = True
    branches: tuple[Branch, ...] = ()
    otherwise: tuple[OrderCommand | Conditional, ...] = ()
    closed: bool = True


@dataclass(frozen=True, slots=True)
class PhaseCommand(Command):
    """PHASE season year phase: the orders that follow are for that phase."""

    KIND: ClassVar[str] = "phase"
    READS_NO_PLAYER: ClassVar[bool] = True
    phase: Phase | None = None


@dataclass(frozen=True, slots=True)
class Clear(Command):
    """CLEAR: drop the pending orders for future phases.

    CLEAR IF (``blocks``): withdraw the IF blocks in force instead, every one,
    or only the one that orders the unit in ``province`` (a province code).
    """

    KIND: ClassVar[str] = "clear"
    READS_NO_PLAYER: ClassVar[bool] = True
    blocks: bool = False
    province: str | None = None


@dataclass(frozen=True, slots=True)
class ShowOrders(Command):
    """ORDERS: the power's orders as the judge holds them, with those kept for later phases."""

    KIND: ClassVar[str] = "show_orders"


# ---------------------------------------------------------------- press


@dataclass(frozen=True, slots=True)
class Recipients:
    """Power letters (``O`` observers, ``M`` master); ``all_but`` reverses the list."""

    letters: str
    all_but: bool = False


@dataclass(frozen=True, slots=True)
class Press(Command):
    """PRESS / BROADCAST / POSTAL PRESS with its body, kept verbatim.

    ``recipients`` None is a broadcast. ``grey`` None is the game's default.
    ``fake`` None means not said, True/False FAKE/NO FAKE; ``shown_to`` is
    whom a fake press pretends to be for (None: a broadcast).
    ``ended_by`` is the line that ended the body: ``endpress``,
    ``endbroadcast``, ``signoff`` or ``end`` (end of the mail).
    """

    KIND: ClassVar[str] = "press"
    broadcast: bool = False
    postal: bool = False
    grey: bool | None = None
    recipients: Recipients | None = None
    fake: bool | None = None
    shown_to: Recipients | None = None
    body: str = ""
    ended_by: str = "end"


class DiaryAction(StrEnum):
    RECORD = "record"
    LIST = "list"
    READ = "read"
    DELETE = "delete"


@dataclass(frozen=True, slots=True)
class Diary(Command):
    """DIARY [RECORD] (text up to ENDDIARY/ENDPRESS), DIARY LIST, DIARY READ n, DIARY DELETE n."""

    KIND: ClassVar[str] = "diary"
    action: DiaryAction = DiaryAction.RECORD
    entry: int | None = None
    body: str = ""


# ---------------------------------------------------------------- SET


@dataclass(frozen=True, slots=True)
class SetWait(Command):
    KIND: ClassVar[str] = "set_wait"
    wait: bool = True


@dataclass(frozen=True, slots=True)
class SetDraw(Command):
    """SET DRAW [letters] / SET NO DRAW; ``powers`` are letters (NoDIAS games)."""

    KIND: ClassVar[str] = "set_draw"
    vote: bool = True
    powers: str | None = None


@dataclass(frozen=True, slots=True)
class SetConcede(Command):
    """SET CONCEDE power / SET NO CONCEDE (``power`` None)."""

    KIND: ClassVar[str] = "set_concede"
    power: str | None = None


@dataclass(frozen=True, slots=True)
class SetCouncils(Command):
    """SET COUNCILS [size] [YEARS n] / SET NO COUNCILS: each power held by a council (issue 17).

    ``size`` (None: keep the default of 3) is the number of players per
    council; ``years`` (None: unchanged) the number of game years played.
    """

    KIND: ClassVar[str] = "set_councils"
    enabled: bool = True
    size: int | None = None
    years: int | None = None


@dataclass(frozen=True, slots=True)
class SetPassword(Command):
    KIND: ClassVar[str] = "set_password"
    password: str = ""


@dataclass(frozen=True, slots=True)
class SetAddress(Command):
    """SET ADDRESS [a[,b]]: where the game's mail goes; empty = the sender's address."""

    KIND: ClassVar[str] = "set_address"
    addresses: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SetPreference(Command):
    """SET PREFERENCE f[ergti]a: groups best first, each group letters ranked equal; ``*`` random."""

    KIND: ClassVar[str] = "set_preference"
    groups: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SetAbsence(Command):
    """SET ABSENCE d1 [TO d2] (also HOLIDAY, VACATION)."""

    KIND: ClassVar[str] = "set_absence"
    start: DateSpec | None = None
    end: DateSpec | None = None


@dataclass(frozen=True, slots=True)
class SetNoAbsence(Command):
    """SET NO ABSENCE d: cancel the absence covering that day."""

    KIND: ClassVar[str] = "set_no_absence"
    date: DateSpec | None = None


class DeadlineKind(StrEnum):
    DEADLINE = "deadline"
    GRACE = "grace"
    START = "start"


@dataclass(frozen=True, slots=True)
class SetDeadline(Command):
    """SET DEADLINE / GRACE / START date: move one time of the current phase."""

    KIND: ClassVar[str] = "set_deadline"
    which: DeadlineKind = DeadlineKind.DEADLINE
    date: DateSpec | None = None


class ScheduleParameter(StrEnum):
    CLOCK = "clock"
    MIN = "min"
    NEXT = "next"
    GRACE = "grace"
    DELAY = "delay"
    DAYS = "days"


@dataclass(frozen=True, slots=True)
class SetSchedule(Command):
    """SET MOVE|RETREAT|ADJUST CLOCK|MIN|NEXT|GRACE|DELAY|DAYS value ...

    ``settings`` pairs each parameter with its value as written (checked
    here for form); ``text`` is the line from the phase word on, as the
    deadline code reads it.
    """

    KIND: ClassVar[str] = "set_schedule"
    phase_type: PhaseType = PhaseType.MOVEMENT
    settings: tuple[tuple[ScheduleParameter, str], ...] = ()
    text: str = ""


@dataclass(frozen=True, slots=True)
class SetComment(Command):
    """SET COMMENT text (the brief comment) or SET COMMENT BEGIN ... (the full one, to SIGNOFF)."""

    KIND: ClassVar[str] = "set_comment"
    text: str = ""
    full: bool = False


@dataclass(frozen=True, slots=True)
class SetVariant(Command):
    """SET VARIANT v [options] / SET NOT VARIANT option (``remove``)."""

    KIND: ClassVar[str] = "set_variant"
    variant: str | None = None
    options: tuple[str, ...] = ()
    remove: bool = False


@dataclass(frozen=True, slots=True)
class SetNumber(Command):
    """A numeric setting: DEDICATION, ONTIMERAT, RESRAT, CENTERS, PLAYERS, MAX ABSENCE."""

    KIND: ClassVar[str] = "set_number"
    option: str = ""
    value: float = 0


@dataclass(frozen=True, slots=True)
class SetChoice(Command):
    """A setting with one of several values: LEVEL, ACCESS, PRESS mode, FAKE press, ...

    ``option`` and ``value`` are canonical upper-case names
    (``("PRESS", "GREY/WHITE")``, ``("ACCESS", "DIFFERENT")``).
    """

    KIND: ClassVar[str] = "set_choice"
    option: str = ""
    value: str = ""


@dataclass(frozen=True, slots=True)
class SetFlag(Command):
    """An on/off setting: ``SET NMR`` / ``SET NO NMR``; ``option`` is canonical (``"STRICT GRACE"``)."""

    KIND: ClassVar[str] = "set_flag"
    option: str = ""
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class SetInvitation(Command):
    """SET ALLOW|DENY PLAYER [-]address: the game's invitation lists (``remove`` for ``-``)."""

    KIND: ClassVar[str] = "set_invitation"
    allow: bool = True
    address: str = ""
    remove: bool = False


@dataclass(frozen=True, slots=True)
class SetApproved(Command):
    """SET [NOT] APPROVE[D] letters: the master vets the newcomers of these powers."""

    KIND: ClassVar[str] = "set_approved"
    letters: str = ""
    approved: bool = True


@dataclass(frozen=True, slots=True)
class SetBot(Command):
    """SET [NO] BOT letters: the master gives abandoned powers to the normal bot, or takes them back."""

    KIND: ClassVar[str] = "set_bot"
    letters: str = ""
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class SetBots(Command):
    """SET BOTS [level] / SET NO BOTS: before the start, the master (or the creator) fills the game's
    empty seats with bots of ``level`` (None: the default, normal), or takes them out again."""

    KIND: ClassVar[str] = "set_bots"
    level: str | None = None
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class SetIdentifier(Command):
    """SET BN|MN|EP [NUMBER] id: Boardman, Miller or Electronic Protocol number."""

    KIND: ClassVar[str] = "set_identifier"
    scheme: str = ""
    value: str = ""


@dataclass(frozen=True, slots=True)
class SetLanguage(Command):
    """SET LANGUAGE fr|en: the language the judge writes to the sender in (ours; the Judge had none).

    ``language`` is the code (``fr`` or ``en``), whatever spelling was written
    (``French``, ``francais``...). Whose language it is (the sender's own, or a
    master's default for the game) is the handler's business.
    """

    KIND: ClassVar[str] = "set_language"
    language: str = ""


# ---------------------------------------------------------------- playing and mastering


@dataclass(frozen=True, slots=True)
class Resign(Command):
    KIND: ClassVar[str] = "resign"


@dataclass(frozen=True, slots=True)
class BecomeMaster(Command):
    KIND: ClassVar[str] = "become_master"


@dataclass(frozen=True, slots=True)
class Become(Command):
    """BECOME power: the master acts as that power for the rest of the mail."""

    KIND: ClassVar[str] = "become"
    power: str = ""


@dataclass(frozen=True, slots=True)
class Eject(Command):
    """EJECT power|address; ``power`` is set when the word names a power."""

    KIND: ClassVar[str] = "eject"
    target: str = ""
    power: str | None = None


@dataclass(frozen=True, slots=True)
class Promote(Command):
    KIND: ClassVar[str] = "promote"
    address: str = ""


@dataclass(frozen=True, slots=True)
class Process(Command):
    """PROCESS [phase]: ignored by the handler if the game is in another phase."""

    KIND: ClassVar[str] = "process"
    phase: Phase | None = None


@dataclass(frozen=True, slots=True)
class Predict(Command):
    KIND: ClassVar[str] = "predict"


@dataclass(frozen=True, slots=True)
class Rollback(Command):
    """ROLLBACK [turn]: turns are numbered from 1 (S1901M); None = the previous one."""

    KIND: ClassVar[str] = "rollback"
    turn: int | None = None


@dataclass(frozen=True, slots=True)
class Unstart(Command):
    KIND: ClassVar[str] = "unstart"


@dataclass(frozen=True, slots=True)
class ForceBegin(Command):
    KIND: ClassVar[str] = "force_begin"


@dataclass(frozen=True, slots=True)
class Pause(Command):
    KIND: ClassVar[str] = "pause"


@dataclass(frozen=True, slots=True)
class Resume(Command):
    KIND: ClassVar[str] = "resume"


@dataclass(frozen=True, slots=True)
class Terminate(Command):
    KIND: ClassVar[str] = "terminate"


@dataclass(frozen=True, slots=True)
class TakeoverDecision(Command):
    """APPROVE power / REFUSE power: the master's answer to a pending takeover request."""

    KIND: ClassVar[str] = "takeover_decision"
    power: str = ""
    approved: bool = True


@dataclass(frozen=True, slots=True)
class Admin(Command):
    """Judge-keeper tools (ADJUST, RECORD, FIXID, NOCONTROL): name and words as written."""

    KIND: ClassVar[str] = "admin"
    name: str = ""
    arguments: tuple[str, ...] = ()


# ---------------------------------------------------------------- councils (issue 17)


@dataclass(frozen=True, slots=True)
class CouncilVote(Command):
    """VOTE <member> / VOTE ABSTAIN [<power> <member>]: a ballot in one's council's election.

    ``candidate`` None is an abstention; ``influence_power`` and
    ``influence_candidate`` are an abstaining voter's anonymous influence
    vote in another power's election.
    """

    KIND: ClassVar[str] = "council_vote"
    candidate: str | None = None
    influence_power: str | None = None
    influence_candidate: str | None = None


@dataclass(frozen=True, slots=True)
class CouncilReady(Command):
    """READY [HOLD]: the General releases his orders (HOLD confirms orders that all hold)."""

    KIND: ClassVar[str] = "council_ready"
    confirm_hold: bool = False


@dataclass(frozen=True, slots=True)
class CouncilAccuse(Command):
    """ACCUSE <member> / ACCUSE WITHDRAW <member>: accuse the second Ambassador of treason, or take it back."""

    KIND: ClassVar[str] = "council_accuse"
    member: str = ""
    withdraw: bool = False


@dataclass(frozen=True, slots=True)
class CouncilEscape(Command):
    """ESCAPE LEAVE / ESCAPE WAITLIST: after a year under arrest, leave the game or join the waiting list."""

    KIND: ClassVar[str] = "council_escape"
    waitlist: bool = False


@dataclass(frozen=True, slots=True)
class CouncilMaster(Command):
    """COUNCIL ONR | REPLACE <power> | EXPEL, WAITLIST, VETO <member> | SEAT <member> <power>: the master's council bookkeeping."""

    KIND: ClassVar[str] = "council_master"
    action: str = ""
    arguments: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CouncilTribunal(Command):
    """TRIBUNAL <text>: one line of the tribunal channel between an accused member and his council."""

    KIND: ClassVar[str] = "council_tribunal"
    text: str = ""
