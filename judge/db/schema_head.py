"""Is the database already at the newest schema? Answered without Alembic (issue 14: start-up).

``judge serve`` upgrades its database before it starts; on a database already at the head
that is a no-op which still cost importing Alembic and reading every migration script. Here
the head is read from the scripts' ``revision`` and ``down_revision`` lines and compared with
the one row of ``alembic_version``. Anything unexpected (no such table, several heads, a file
that does not read as expected) answers False, and the caller runs Alembic as before.
"""

from __future__ import annotations

import re
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from judge.db.engine import make_engine

VERSIONS_DIR = Path(__file__).resolve().parent.parent / "migrations" / "versions"
_REVISION = re.compile(r"^revision(?:\s*:\s*str)?\s*=\s*['\"]([^'\"]+)['\"]", re.MULTILINE)
_DOWN = re.compile(r"^down_revision(?:\s*:[^=]+)?=\s*(?:None|['\"]([^'\"]+)['\"])", re.MULTILINE)


def script_head() -> str | None:
    """The one revision no script builds on, or None when the scripts do not say plainly."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for script in VERSIONS_DIR.glob("*.py"):
        source = script.read_text(encoding="utf-8")
        revision, down = _REVISION.search(source), _DOWN.search(source)
        if revision is None or down is None:
            return None
        revisions.add(revision.group(1))
        if down.group(1):
            parents.add(down.group(1))
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


def at_head(url: str) -> bool:
    """True when the database at ``url`` records the scripts' head revision."""
    head = script_head()
    if head is None:
        return False
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    except SQLAlchemyError:
        return False
    finally:
        engine.dispose()
    return rows == [head]
