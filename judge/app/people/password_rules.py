"""The rules a new password meets: long enough, and not among the most common.

Checked where a password is chosen (CREATE, joining a game with SIGNON ?game, taking a power
over, SET PASSWORD of a power, a master or a council member); passwords already set are kept as
they are, so existing games go on. The common passwords are zxcvbn's ranked list (30,000
passwords from public leaks, most common first; MIT licence): a password whose rank is within
``password_common_refused`` is refused, compared in lower case, as a guesser would try it.
Observers' passwords only open what the game shows anyone following it: they are not checked.
"""

from __future__ import annotations

import functools

from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused


@functools.cache
def _common_ranks() -> dict[str, int]:
    """zxcvbn's common passwords with their rank (1: the most common), read once."""
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return {word: rank for rank, word in enumerate(FREQUENCY_LISTS["passwords"], start=1)}


def is_common(password: str, among: int) -> bool:
    """Whether ``password`` is among the ``among`` most common passwords (0: none is; the list is
    then not read)."""
    if among <= 0:
        return False
    rank = _common_ranks().get(password.lower())
    return rank is not None and rank <= among


def check_new_password(session: MailSession, password: str, *, stop: bool = False) -> None:
    """Refuse ``password`` as a new password (CommandRefused, the reason in the sender's
    language) when it is too short or too common; ``stop``: the rest of the mail is not read."""
    _ = session.gettext
    config = session.services.config
    if len(password) < config.password_min_length:
        raise CommandRefused(
            _("A new password needs at least {count} characters. Nothing was changed.").format(
                count=config.password_min_length
            ),
            stop=stop,
        )
    if is_common(password, config.password_common_refused):
        raise CommandRefused(
            _("This password is one of the most common ones, the first a guesser tries: choose "
              "another. Nothing was changed."),
            stop=stop,
        )
