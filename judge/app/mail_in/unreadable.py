"""What of a mail could not be read, said at the top of the reply (rather than silence).

:mod:`judge.mail.decode` records each kind of damage it met as an
:class:`~judge.mail.decode.Unreadable`; this module turns them into sentences
in the reader's language, so a player whose phone sent a 1,000-deep
multipart or broken base64 learns what happened instead of getting nothing
or a puzzling "no commands found".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from judge.app.session.reply import Reply
from judge.mail.decode import MAX_LINE_LENGTH, MAX_MIME_NESTING, Unreadable


def unreadable_sentences(kinds: Sequence[Unreadable], gettext: Callable[[str], str]) -> list[str]:
    """One sentence per kind of damage, in the order met."""
    _ = gettext
    sentences = {
        Unreadable.UNPARSABLE: _("The judge could not read your mail: it is not a valid mail."),
        Unreadable.TOO_DEEP: _(
            "The judge could not read the text of your mail: its parts are nested more than "
            "{levels} levels deep. Send your commands as plain text."
        ).format(levels=MAX_MIME_NESTING),
        Unreadable.DAMAGED_ENCODING: _(
            "Part of your mail was damaged (broken base64 or quoted-printable encoding); "
            "the judge read what it could."
        ),
        Unreadable.NO_TEXT: _(
            "Your mail has no text the judge can read (only attachments). "
            "Send your commands as plain text."
        ),
        Unreadable.LONG_LINES: _(
            "Lines longer than {length} characters were cut to that length."
        ).format(length=MAX_LINE_LENGTH),
    }
    return [sentences[kind] for kind in kinds if kind in sentences]


def note_unreadable(
    reply: Reply, kinds: Sequence[Unreadable], gettext: Callable[[str], str]
) -> None:
    """Put the sentences for ``kinds`` at the top of ``reply``."""
    reply.preamble.extend(unreadable_sentences(kinds, gettext))
