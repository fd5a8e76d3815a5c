"""postal and tournament house rules (issue 18).

No schema change: the house rules are game settings kept where the other
per-game options are, in ``games.extra_settings`` (JSON): ``end_year`` (SET
END YEAR), ``cd_after_missed_seasons`` (SET CD AFTER) and the running
``missed_seasons`` counts, and the adjudicator's rule options
(``surplus_adjustments``, ``foreign_coast_support``,
``complete_from_support``) under ``rules``. Games without them read as
before, so nothing needs filling in. The revision stays in the chain so that
0005 keeps its place.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
