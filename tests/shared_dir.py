"""Where the project's shared reference material lives, for tests.

CI clones the repository beside ``shared/`` (``<repo>/../shared``); a
developer may point elsewhere with ``JUDGE_SHARED_DIR``. Tests that need it
fail loudly when it is missing rather than skip: the DATC and the seeds are
part of what the judge is tested against.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("JUDGE_SHARED_DIR", REPO.parent / "shared"))
DATC = SHARED / "datc"
SEEDS = SHARED / "seeds"
