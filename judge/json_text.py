"""JSON text read and written by orjson (several times faster), with the standard library as the last word.

Two users: ``judge adjudicate``'s contract reads positions with :func:`loads`, and the
PostgreSQL engine (:mod:`judge.db.engine`) reads and writes every JSON column with
:func:`loads` and :func:`dumps`, where the standard library's encoder and decoder had
been a tenth of the scheduler's time.

Invariants: what either function accepts, it turns into the same values the standard
library would (orjson and :mod:`json` agree on every document both read and every value
both write); whatever orjson refuses goes to the standard library, which then decides
(reads it, writes it, or raises its usual error). Standard library only besides orjson,
so that every layer may use it.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_DUMPS_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
"""Keys that are not strings written as text (as :mod:`json` does); datetimes and dataclasses
left to the standard library, which refuses them as it always has, rather than written."""


def loads(text: str | bytes) -> Any:
    """JSON text decoded by orjson; what orjson refuses, by :mod:`json`.

    The standard library reads a few things orjson does not (NaN, lone
    surrogate escapes, integers past 64 bits) and words its errors as the
    contract's messages always have: it has the last word on anything orjson
    will not read, so the accepted inputs and the error texts are unchanged.
    """
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def dumps(value: Any) -> str:
    """``value`` as JSON text by orjson; what orjson refuses (a lone surrogate, an
    integer past 64 bits, an object it does not know), by :mod:`json`, which writes it as it always
    did or raises its usual TypeError. The text is compact, without :mod:`json`'s blanks and
    ``\\u`` escapes: the same document, which is all a JSON column keeps of it."""
    try:
        return orjson.dumps(value, option=_DUMPS_OPTIONS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value)
