"""The state of one mail while its commands run: who sent it, who they signed on as.

A :class:`MailSession` lives for one mail and one database transaction. The
handlers read and change it (SIGNON sets the game and seat, BECOME the acting
power, PHASE the phase orders are for) and add to its reply; mail for other
people (broadcasts, notices) goes to ``outgoing`` and is queued with the reply
when the transaction commits.

What the handlers share across a mail's commands is typed here: a field for each fact
(the council member signed on as, the WHOIS and confirmation-code budgets...), and for a
flow whose state's class lives in a room above this one (the order mail, a master's
changes) one value per class (:meth:`MailSession.state_of`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import TypeVar
from zoneinfo import ZoneInfo

from judge.app.session.readers import reader_zone
from judge.app.session.reply import Reply
from judge.app.session.services import Services
from judge.core.phase import Phase
from judge.db.database import UnitOfWork
from judge.db.models import CouncilMember, Game, GameMaster, GameObserver, Person, Seat
from judge.i18n import translation
from judge.mail.compose import Attachment
from judge.mail.decode import DecodedMail
from judge.timekeeping.dates import tell_date

T = TypeVar("T")


class Role(StrEnum):
    POWER = "power"
    MASTER = "master"
    OBSERVER = "observer"


@dataclass(frozen=True)
class Outgoing:
    """A mail to queue when the transaction commits (not the reply itself)."""

    to: tuple[str, ...]
    subject: str
    body: str
    game_id: int | None = None
    generated: bool = True  # Auto-Submitted: auto-generated (else auto-replied)
    map_phase_id: int | None = None
    """A phase whose board the sender attaches when it delivers the mail (the Game Starting mail's)."""
    map_language: str | None = None
    """The language of that board: the reader's, as the text's."""


@dataclass
class MailSession:
    services: Services
    uow: UnitOfWork
    mail_id: int
    decoded: DecodedMail
    sender: str
    now: datetime
    reply: Reply
    body_lines: Sequence[str]
    person: Person | None = None
    language: str = "en"
    game: Game | None = None
    seat: Seat | None = None
    role: Role | None = None
    acting_power: str | None = None
    """The power the sender acts as: its seat's power, or the one a master BECAME."""
    future_phase: Phase | None = None
    """Set by PHASE: the orders that follow are for that phase."""
    master: GameMaster | None = None
    """The master record signed on as (SIGNON M), for SET PASSWORD."""
    observer: GameObserver | None = None
    """The observer record signed on as (SIGNON O, OBSERVE, WATCH)."""
    reply_attachment: Attachment | None = None
    """A file sent with the reply (MAP's picture); the reply's text stays whole without it."""
    reply_copies: list[str] = field(default_factory=list)
    """Other addresses that get a copy of the reply (the real player, on a sign-on from elsewhere)."""
    outgoing: list[Outgoing] = field(default_factory=list)
    after_commit: list[Callable[[], None]] = field(default_factory=list)
    finishers: list[Callable[[], None]] = field(default_factory=list)
    """Run once after the mail's last command, before the reply is written: a summary that
    depends on the whole mail (the order acknowledgement, the error flag) goes here."""
    council_member: CouncilMember | None = None
    """The council member the mail's sign-on opened (judge.app.people.council_signon): its later
    commands act for this member. None outside a council game."""
    players_wanted: bool = True
    """False when no command of the mail reads the game's players (a mail that only gives
    orders), so a sign-on loads the seats without them (issue 14); set by
    judge.app.mail_in.dispatch.run_commands, read by judge.app.people.signon_checks."""
    release_watched: bool = False
    """A General's orders in this mail are watched for a council release they void
    (judge.app.councils.releases.watch_release): the watch is queued once."""
    whois_left: int | None = None
    """WHOIS: how many more registrations this mail may show (None: not counted yet)."""
    whois_bound_told: bool = False
    """WHOIS: the reply already said that the mail reached its bound."""
    codes_mailed: int = 0
    """Confirmation codes this mail had mailed (judge.app.people.claims bounds them per mail)."""
    claim_refusals_told: set[str] = field(default_factory=set)
    """The bounds that refused a code in this mail and were told: each is told once."""
    _flow_state: dict[type, object] = field(default_factory=dict, repr=False)
    """The state of a flow above this room that spans the mail's commands, one value per class
    (the order mail's drafts, a master's changes): see :meth:`state_of`."""
    admit: Callable[[MailSession], bool] | None = None
    """For a mail past the flood limit: whether it may run on once its sign-ons have run
    (judge.app.mail_in.dispatch asks before the first other command); None for any other mail."""
    held: bool = False
    """The mail stopped at the flood limit (``admit`` said no): nothing of it is answered."""
    stop: bool = False
    operator: bool = False
    """The judge's operator runs this line from the console (judge.app.console.game_actions) as the game's
    master: what the game is told names the judgekeeper, not a master."""
    failed_order_lines: int = 0
    """Lines of this mail read as orders that could not be read (see ``MailError.order_line``)."""
    commands: Sequence[object] = ()
    """The mail's commands as read, in order (set by judge.app.mail_in.dispatch before the first
    runs): a handler may look ahead, e.g. a council incumbent's orders written before his READY."""

    @property
    def signed_on(self) -> bool:
        return self.game is not None and self.role is not None

    def gettext(self, message: str) -> str:
        """``message`` in the sender's language."""
        return translation(self.language).gettext(message)

    @property
    def zone(self) -> ZoneInfo:
        """The sender's time zone: their registration's, else the judge's."""
        return reader_zone(self.person.time_zone if self.person is not None else None, self.services.config.timezone)

    def tell_date(self, when: datetime) -> str:
        """``when`` as the sender is told it: their zone named, and UTC, in their language."""
        return tell_date(when, self.zone, self.gettext)

    def send(self, outgoing: Outgoing) -> None:
        self.outgoing.append(outgoing)

    def state_of(self, kind: type[T]) -> T | None:
        """The mail's state of class ``kind`` kept by :meth:`keep_state`, None before it is.

        A flow whose state's type lives in a room above the session (the order mail's
        :class:`judge.app.orders.order_mail.OrderMail`) keeps it here, typed by its class, so
        the session imports nothing from above it."""
        found = self._flow_state.get(kind)
        return found if isinstance(found, kind) else None

    def keep_state(self, value: object) -> None:
        """Keep ``value`` for the rest of the mail, as the state of its class."""
        self._flow_state[type(value)] = value

    def drop_state(self, kind: type[T]) -> T | None:
        """Forget the state of class ``kind``, returning it (None if none was kept)."""
        found = self._flow_state.pop(kind, None)
        return found if isinstance(found, kind) else None
