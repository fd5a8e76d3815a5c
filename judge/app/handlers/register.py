"""REGISTER ... END: who a player is, for the judge and for the other players.

The Judge's form (conventions §1): ``Keyword: value`` lines. We read Name,
Phone, Site, Address (postal), Country, Timezone, Email, Level, Birthdate,
Sex, Package, and Language (ours: ``en`` or ``fr``, the language of every mail
the judge sends the person); French keywords are read too (Nom, Pays,
Courriel, Langue...). Other keywords are kept as written, as the Judge did.

Choices where the Judge's documents and code disagree or are silent:

* required for a first registration: Name and Country; Email may be left
  out, and then the sender's address is the registration's address;
* the sender's own address is the registration's. Nothing of an existing
  registration changes on a form alone, whoever seems to send it (a From
  line is easily forged): every change (fields, primary address, a new
  address) waits for ``CONFIRM`` from the registration's primary address,
  to which the judge mails a code (:data:`judge.app.people.claims.UPDATE`); a new
  Email address is then linked only when a code mailed to it comes back
  from it too, and becomes the primary one if it came first on the line.
  One new address per form (and one code per mail: :mod:`judge.app.people.claims`);
* an address that belongs to another registration is never taken over;
  a form from an unregistered address that names someone's registered
  address changes nothing: the judge mails a code to that address, and
  CONFIRM from there applies the form and links the sender
  (:mod:`judge.app.people.claims`); nothing of the registration is shown before;
* an unknown Level is read as Amateur, as the Judge did; a Birthdate that
  cannot be read is left out (day before month in numeric dates, as in
  Europe); every such correction is reported under the field's line;
* a registration that only changes things is an update; nothing is required.

Who may run it: anyone. What it reveals: to the sender, the registration
that holds the sender's address (their own); nothing of anyone else's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from judge.app.game_state import helpfiles
from judge.app.people.address_text import read_address, reason, shown
from judge.app.people.claims import (
    LIFETIME,
    UPDATE,
    ClaimRefused,
    open_claim,
    refusal,
    update_summary,
)
from judge.app.people.claims import REGISTER as REGISTER_CLAIM
from judge.app.reports.person import LEVELS, whois_record
from judge.app.session.mail_session import MailSession
from judge.app.session.readers import choose_language
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import AuditKind
from judge.db.models import Person
from judge.db.repositories.people import Registration, normalise_address
from judge.i18n import Gettext
from judge.lang.commands import Register, RegisterField
from judge.lang.powers import fold
from judge.mail.addresses import AddressError
from judge.timekeeping.dates import zone_named

# Keyword (folded: lower case, no accents, no blanks) -> the field it fills.
KEYWORDS: dict[str, str] = {
    "name": "name", "nom": "name",
    "phone": "phone", "telephone": "phone", "tel": "phone",
    "site": "site",
    "address": "address", "adresse": "address", "postaladdress": "address",
    "country": "country", "pays": "country",
    "timezone": "timezone", "tz": "timezone", "fuseau": "timezone", "fuseauhoraire": "timezone",
    "email": "email", "e-mail": "email", "mail": "email", "courriel": "email",
    "level": "level", "niveau": "level",
    "birthdate": "birthdate", "birthday": "birthdate", "datedenaissance": "birthdate",
    "naissance": "birthdate",
    "sex": "sex", "sexe": "sex", "gender": "sex",
    "package": "package", "kit": "package",
    "language": "language", "langue": "language", "lang": "language",
}  # fmt: skip

# Field -> (Person column, longest value the column holds).
TEXT_COLUMNS: dict[str, tuple[str, int]] = {
    "name": ("name", 200),
    "phone": ("phone", 64),
    "site": ("site", 200),
    "address": ("postal_address", 500),
    "country": ("country", 100),
    "sex": ("sex", 16),
}
REQUIRED = ("name", "country")
OPTIONAL_SHOWN = ("phone", "site", "address", "timezone", "birthdate", "sex")
LABELS = {
    "name": "Name", "phone": "Phone", "site": "Site", "address": "Address",
    "country": "Country", "timezone": "Timezone", "email": "Email", "level": "Level",
    "birthdate": "Birthdate", "sex": "Sex", "package": "Package", "language": "Language",
}  # fmt: skip

LEVEL_WORDS: dict[str, str] = {
    "novice": "novice", "debutant": "novice", "beginner": "novice",
    "amateur": "amateur",
    "intermediate": "intermediate", "intermediaire": "intermediate",
    "advanced": "advanced", "avance": "advanced",
    "expert": "expert",
}  # fmt: skip
LANGUAGE_WORDS: dict[str, str] = {
    "en": "en", "english": "en", "anglais": "en",
    "fr": "fr", "french": "fr", "francais": "fr",
}  # fmt: skip
YES = frozenset({"yes", "y", "oui", "o", "true", "1"})
NO = frozenset({"no", "n", "non", "false", "0"})
MONTHS: dict[str, int] = {
    "jan": 1, "feb": 2, "fev": 2, "mar": 3, "apr": 4, "avr": 4, "may": 5, "mai": 5,
    "jun": 6, "jui": 7, "jul": 7, "aug": 8, "aou": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
MAX_EXTRA_FIELDS = 20
MAX_EXTRA_KEY = 40
MAX_EXTRA_VALUE = 200


@dataclass
class _Reading:
    """What the form says, field by field, and what is wrong with it."""

    values: dict[str, Any] = field(default_factory=dict)  # Person column -> value
    emails: list[str] = field(default_factory=list)
    extra: dict[str, str] = field(default_factory=dict)
    given: set[str] = field(default_factory=set)
    notes: list[tuple[int, str, bool]] = field(default_factory=list)  # line, message, is_error

    def note(self, line: int, message: str) -> None:
        self.notes.append((line, message, False))

    def problem(self, line: int, message: str) -> None:
        self.notes.append((line, message, True))


def read_birthdate(text: str, today: date) -> date | None:
    """A birth date as people write it: ``Dec 25, 1907``, ``25 décembre 1907``, ``25/12/1907``, ISO."""
    cleaned = fold(text).replace(",", " ").strip()
    iso = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", cleaned)
    numeric = re.fullmatch(r"(\d{1,2})[/.](\d{1,2})[/.](\d{4})", cleaned)
    found: date | None
    try:
        if iso:
            found = date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3)))
        elif numeric:
            found = date(int(numeric.group(3)), int(numeric.group(2)), int(numeric.group(1)))
        else:
            found = _date_from_words(cleaned.replace(".", " ").split())
    except ValueError:
        return None
    if found is None or not 1900 <= found.year <= today.year or found > today:
        return None
    return found


def _date_from_words(words: list[str]) -> date | None:
    day = month = year = None
    for word in words:
        if word.isdigit() and len(word) == 4:
            year = int(word)
        elif word.isdigit() and len(word) <= 2:
            day = int(word)
        elif word.rstrip("stndrh").isdigit():  # 25th, 1st
            day = int(word.rstrip("stndrh"))
        elif word[:3] in MONTHS and len(word) >= 3:
            month = MONTHS[word[:3]]
        elif word == "1er":
            day = 1
        else:
            return None
    if day is None or month is None or year is None:
        return None
    return date(year, month, day)


def _read_field(item: RegisterField, reading: _Reading, today: date, _: Gettext) -> None:
    kind = _kind(item.name)
    value = " ".join(item.value.split())
    if kind is None:
        _read_extra(item, value, reading, _)
        return
    reading.given.add(kind)
    if kind in TEXT_COLUMNS:
        column, longest = TEXT_COLUMNS[kind]
        if not value:
            reading.problem(item.line, _("This field is empty; it was left out."))
        elif len(value) > longest:
            reading.problem(
                item.line,
                _("Too long (at most {count} characters); it was left out.").format(count=longest),
            )
        else:
            reading.values[column] = value
    elif kind == "email":
        _read_emails(item, value, reading, _)
    elif kind == "level":
        level = LEVEL_WORDS.get(fold(value))
        if level is None:
            reading.values["level"] = "amateur"
            reading.problem(
                item.line,
                _("Unknown level: Amateur assumed. Levels are {levels}.").format(
                    levels=", ".join(level.capitalize() for level in LEVELS)
                ),
            )
        else:
            reading.values["level"] = level
    elif kind == "birthdate":
        born = read_birthdate(value, today)
        if born is None:
            reading.problem(
                item.line,
                _("This date could not be read (write e.g. Dec 25, 1980 or 25/12/1980); it was left out."),
            )
        else:
            reading.values["birth_date"] = born
    elif kind == "package":
        answer = fold(value)
        if answer in YES or answer in NO:
            reading.values["wants_package"] = answer in YES
        else:
            reading.problem(item.line, _("Answer yes or no; this field was left out."))
    elif kind == "timezone":
        zone = zone_named(value) if value else None
        if not value:
            reading.problem(item.line, _("This field is empty; it was left out."))
        elif zone is None:
            reading.problem(
                item.line,
                _("'{zone}' is not a time zone: give its IANA name, e.g. Europe/Paris or America/New_York "
                  "(UTC for none); this field was left out.").format(zone=value[:64]),
            )
        else:
            reading.values["time_zone"] = zone.key
    elif kind == "language":
        language = LANGUAGE_WORDS.get(fold(value))
        if language is None:
            reading.problem(item.line, _("The judge writes in en (English) or fr (French); this field was left out."))
        else:
            reading.values["language"] = language


def _read_emails(item: RegisterField, value: str, reading: _Reading, _: Gettext) -> None:
    for word in re.split(r"[\s,;]+", value):
        if not word:
            continue
        try:
            address = read_address(word)
        except AddressError as error:
            reading.problem(
                item.line,
                _("'{address}' is not a mail address ({reason}); it was left out.").format(
                    address=shown(error), reason=reason(error, _)
                ),
            )
            continue
        if address not in reading.emails:
            reading.emails.append(address)


def _read_extra(item: RegisterField, value: str, reading: _Reading, _: Gettext) -> None:
    name = item.name.strip()
    if len(reading.extra) >= MAX_EXTRA_FIELDS or len(name) > MAX_EXTRA_KEY or len(value) > MAX_EXTRA_VALUE:
        reading.problem(
            item.line,
            _("Too many or too long extra fields; this one was left out."),
        )
        return
    reading.extra[name] = value
    reading.note(item.line, _("Not a field the judge knows; kept with your registration as written."))


def _kind(keyword: str) -> str | None:
    """The field a keyword names (None: a keyword of the player's own)."""
    return KEYWORDS.get(fold(keyword).replace(" ", "").replace("_", ""))


def requested_language(command: Register) -> str | None:
    """The language the form asks for, if it names one the judge writes in."""
    for item in reversed(command.fields):
        if _kind(item.name) == "language":
            return LANGUAGE_WORDS.get(fold(" ".join(item.value.split())))
    return None


def read_form(command: Register, today: date, _: Gettext) -> _Reading:
    reading = _Reading()
    for item in command.fields:
        _read_field(item, reading, today, _)
    return reading


@handles(Register)
def handle(command: Register, session: MailSession) -> Next:
    # The whole answer is in the language the form asks for, when it names one.
    session.language = requested_language(command) or session.language
    _ = session.gettext
    reading = read_form(command, session.now.date(), _)
    uow = session.uow
    person = session.person
    sender = normalise_address(session.sender)
    owners = {address: uow.people.by_address(address) for address in reading.emails}
    taken = [a for a, owner in owners.items() if owner is not None and (person is None or owner.id != person.id)]
    if person is None and taken:
        _claim_existing(command, session, reading, taken, owners, _)
        return Next.CONTINUE
    email_line = next((f.line for f in command.fields if _kind(f.name) == "email"), command.line)
    for address in taken:
        reading.problem(
            email_line,
            _("{address} belongs to another registration; it was left out.").format(address=address),
        )
    emails = [a for a in reading.emails if a not in taken]
    first_time = person is None
    if person is None:
        person = _register(session, reading, sender, _)
        headline = _("Registration recorded for {name} <{address}>.").format(
            name=person.name, address=person.primary_address
        )
        uow.audit.record(
            AuditKind.REGISTRATION, session.now, person=person, actor=sender,
            new_value={**reading.values, "addresses": [a.address for a in person.addresses]},
            detail="registered",
        )  # fmt: skip
        if requested_language(command) is not None:
            choose_language(person, person.language)
        session.person = person
        session.language = person.language
        update = _update_payload(person, reading, emails, email_line, _, fields=False)
    else:
        update = _update_payload(person, reading, emails, email_line, _, fields=True)
        headline = _("Registration unchanged: it already said all this.")
    if update:
        headline = _ask_owner(session, person, update, headline, first_time, session.gettext)
    _write_reply(command, session, person, reading, headline, first_time, session.gettext)
    return Next.CONTINUE


def _update_payload(
    person: Person, reading: _Reading, emails: list[str], line: int, _: Gettext, *, fields: bool
) -> dict[str, Any]:
    """What the form would change in ``person`` (``fields`` False: its addresses only), JSON-ready.

    Values are kept as the form gives them; the owner's confirmation
    applies them. One new address per form: the others are reported and
    left out (each would need codes of its own).
    """
    payload: dict[str, Any] = {}
    if fields:
        values = {
            key: value.isoformat() if isinstance(value, date) else value
            for key, value in reading.values.items()
            if getattr(person, key) != value
        }
        extra = {k: v for k, v in reading.extra.items() if (person.extra or {}).get(k) != v}
        if values:
            payload["values"] = values
        if extra:
            payload["extra"] = extra
    known = {a.address for a in person.addresses}
    if emails and emails[0] in known and emails[0] != person.primary_address:
        payload["primary"] = emails[0]
    new = [a for a in emails if a not in known]
    if new:
        payload["new_address"] = new[0]
        payload["new_primary"] = new[0] == emails[0]
    if len(new) > 1:
        reading.problem(
            line,
            _("One new address per form: {addresses} left out; send it in a form of its own once "
              "the first is linked.").format(addresses=", ".join(new[1:])),
        )
    return payload


def _ask_owner(
    session: MailSession, person: Person, update: dict[str, Any], headline: str, first_time: bool,
    _: Gettext,
) -> str:
    """Mail the registration's primary address a code for ``update``; returns the reply's headline.

    Whoever the form seems to come from, only the reader of the primary
    address can make the change (a forged From line changes nothing).
    """
    primary = person.primary_address or normalise_address(session.sender)
    lines = [headline] if first_time else []
    try:
        open_claim(session, kind=UPDATE, confirm_address=primary, person=person, payload=update)
    except ClaimRefused as error:
        lines.append(_("Nothing else was changed.") if first_time else _("Nothing was changed."))
        told = refusal(session, error, _)
        return "\n".join([*lines, told] if told else lines)
    if not first_time:
        lines.append(_("Nothing was changed yet."))
    lines.append(
        _(
            "A confirmation code has been mailed to {address}, the registration's primary address. "
            "Nothing of this changes before CONFIRM <code> comes back from {address}, within {days} "
            "days: {changes}."
        ).format(address=primary, days=LIFETIME.days, changes=update_summary(update, _))
    )
    return "\n".join(lines)


def _claim_existing(
    command: Register,
    session: MailSession,
    reading: _Reading,
    taken: list[str],
    owners: dict[str, Person | None],
    _: Gettext,
) -> None:
    """A form from an unknown address names someone's registered address: ask that address first.

    Nothing is recorded, and nothing of the registration is shown: the form
    is kept with a claim whose code goes to the registered address
    (:mod:`judge.app.people.claims`); CONFIRM from there applies it and links the
    sender. Addresses of two different registrations are refused outright.
    """
    address = taken[0]
    owner = owners[address]
    assert owner is not None
    if any(owners[other] is not owner for other in taken):
        raise CommandRefused(
            _(
                "The addresses of this form belong to different registrations. Nothing was "
                "recorded."
            )
        )
    values = {
        key: value.isoformat() if isinstance(value, date) else value
        for key, value in reading.values.items()
    }
    payload = {"values": values, "extra": dict(reading.extra)}
    try:
        open_claim(session, kind=REGISTER_CLAIM, confirm_address=address, person=owner, payload=payload)
    except ClaimRefused as error:
        told = refusal(session, error, _)
        raise CommandRefused(
            _("Nothing was recorded.") + ("\n" + told if told else "")
        ) from None
    session.reply.ok(
        command.line,
        _(
            "Nothing was recorded yet: {address} belongs to a registration, so a confirmation "
            "code has been mailed to it. This form will change that registration, and {sender} "
            "will be linked to it, only when CONFIRM <code> is sent back from {address}, within "
            "{days} days. If nobody does, nothing changes."
        ).format(address=address, sender=normalise_address(session.sender), days=LIFETIME.days),
    )


def _register(
    session: MailSession, reading: _Reading, sender: str, _: Gettext
) -> Person:
    missing = [LABELS[f] for f in REQUIRED if TEXT_COLUMNS[f][0] not in reading.values]
    if missing:
        raise CommandRefused(
            _("Registration refused: the form must give {fields}. Nothing was recorded.").format(
                fields=", ".join(missing)
            )
        )
    values = dict(reading.values)
    registration = Registration(
        name=values.pop("name"),
        phone=values.pop("phone", ""),
        site=values.pop("site", ""),
        postal_address=values.pop("postal_address", ""),
        country=values.pop("country"),
        level=values.pop("level", "amateur"),
        birth_date=values.pop("birth_date", None),
        sex=values.pop("sex", ""),
        time_zone=values.pop("time_zone", ""),
        language=values.pop("language", session.language),
        wants_package=values.pop("wants_package", False),
        extra=reading.extra,
    )
    return session.uow.people.register(registration, sender, session.now)


def _write_reply(
    command: Register,
    session: MailSession,
    person: Person,
    reading: _Reading,
    headline: str,
    first_time: bool,
    _: Gettext,
) -> None:
    reply = session.reply
    messages = [headline]
    if first_time and "email" not in reading.given:
        messages.append(
            _("No Email field: your address {address} is the registration's address.").format(
                address=person.primary_address
            )
        )
    if first_time:
        not_given = [LABELS[f] for f in OPTIONAL_SHOWN if f not in reading.given]
        if not_given:
            messages.append(_("Not given (optional): {fields}.").format(fields=", ".join(not_given)))
    messages += ["", _("The judge now has (send it back between REGISTER and END to change it):")]
    messages += whois_record(person, _, private=True)
    reply.ok(command.line, "\n".join(messages))
    notes: dict[int, list[tuple[str, bool]]] = {}
    for line, message, is_error in reading.notes:
        notes.setdefault(line, []).append((message, is_error))
    # A field line is echoed only with something to say under it (issue 13: the form echoed
    # bare after the summary said nothing); the summary above shows what was recorded.
    for item in command.fields:
        for message, is_error in notes.pop(item.line, []):
            if is_error:
                reply.error(item.line, message)
            else:
                reply.ok(item.line, message)
    if reading.values.get("wants_package"):
        reply.epilogue += _package_text(session.language, _)


def _package_text(language: str, _: Gettext) -> list[str]:
    lines = [_("You asked for the new player's package: the files {files} follow.").format(
        files=", ".join(helpfiles.PACKAGE)
    )]
    for name in helpfiles.PACKAGE:
        found = helpfiles.find(name, language)
        lines += ["", f"----- {found.name} -----", found.text.rstrip()]
    return [*lines, ""]
