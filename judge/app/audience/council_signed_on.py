"""Which council member a mail speaks for, once its sign-on opened one (kept on the mail's session).

Apart from :mod:`judge.app.councils.permissions` so that the audience
(:mod:`judge.app.audience.council_members`), which every output goes through, can
ask it without importing the game's facts.
"""

from __future__ import annotations

from judge.app.session.mail_session import MailSession
from judge.db.models import CouncilMember

AREA = "councils"
"""Key of this area's per-mail state in ``MailSession.area_state``."""


def remember_member(session: MailSession, member: CouncilMember) -> None:
    """The sign-on found ``member``: later commands of the mail act for this member."""
    session.area_state[AREA] = member


def signed_on_member(session: MailSession) -> CouncilMember | None:
    found = session.area_state.get(AREA)
    return found if isinstance(found, CouncilMember) else None
