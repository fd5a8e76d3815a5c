"""SET LANGUAGE fr|en: which language the judge writes in (ours; the classic Judge had none).

Two uses, told apart by who is asking, so that one keyword is enough:

* a registered person (before any SIGNON, or signed on as a player or an
  observer) sets their own language: every reply, result and notice they get
  from then on is in it, whatever game it is about;
* a master signed on to a game (``SIGNON M<game>``) sets the game's default
  language: the language of the game's mail for the people who never chose
  one (unregistered observers, players who registered without a Language
  line). A master who wants their own language says SET LANGUAGE before the
  SIGNON line.

The choice is recorded with :func:`judge.app.session.readers.choose_language`, so that
an explicit ``SET LANGUAGE en`` also wins over a French game default.
"""

from __future__ import annotations

from judge.app.game_state.setting_table import Kind, Setting, Who
from judge.app.games.masters import change_setting, check_may_set, is_master
from judge.app.session.mail_session import MailSession
from judge.app.session.readers import GAME_LANGUAGE, choose_language, has_chosen_language
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import AuditKind
from judge.i18n import N_
from judge.lang.commands import SetLanguage

GAME_DEFAULT = Setting("LANGUAGE", "extra:" + GAME_LANGUAGE, Kind.TEXT, N_("Default language"), who=Who.MASTER)
"""The game's default language, kept in ``Game.extra_settings`` and announced as a Parameter Change."""

LANGUAGE_NAMES = {"en": N_("English"), "fr": N_("French")}


@handles(SetLanguage)
def handle(command: SetLanguage, session: MailSession) -> Next:
    if is_master(session):
        return _game_default(command, session)
    return _own_language(command, session)


def _own_language(command: SetLanguage, session: MailSession) -> Next:
    _ = session.gettext
    person = session.person
    if person is None:
        raise CommandRefused(
            _(
                "Only a registered person can choose a language: send REGISTER with a "
                "'Language: {language}' line first."
            ).format(language=command.language)
        )
    if person.language == command.language and has_chosen_language(person):
        session.reply.ok(
            command.line,
            _("The judge already writes to you in {language}.").format(language=_(LANGUAGE_NAMES[command.language])),
        )
        return Next.CONTINUE
    old = person.language
    choose_language(person, command.language)
    person.updated_at = session.now
    session.uow.audit.record(
        AuditKind.REGISTRATION, session.now, person=person, actor=session.sender,
        old_value={"language": old}, new_value={"language": command.language}, detail="language",
    )  # fmt: skip
    session.uow.flush()
    session.language = command.language
    _ = session.gettext  # the answer is already in the new language
    session.reply.ok(
        command.line,
        _("From now on the judge writes to you in {language}.").format(language=_(LANGUAGE_NAMES[command.language])),
    )
    return Next.CONTINUE


def _game_default(command: SetLanguage, session: MailSession) -> Next:
    _ = session.gettext
    game = check_may_set(session, GAME_DEFAULT, _(GAME_DEFAULT.label))
    language = _(LANGUAGE_NAMES[command.language])
    if change_setting(session, game, GAME_DEFAULT, command.language) is None:
        session.reply.ok(
            command.line,
            _("The default language of game '{game}' is already {language}.").format(game=game.name, language=language),
        )
        return Next.CONTINUE
    session.reply.ok(
        command.line,
        _(
            "The default language of game '{game}' is now {language}: the game's mail is written in it "
            "for everyone who has not chosen a language (SET LANGUAGE before SIGNON sets your own)."
        ).format(game=game.name, language=language),
    )
    return Next.CONTINUE
