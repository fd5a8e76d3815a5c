"""libvips (``pyvips`` and the ``pyvips-binary`` wheel: libvips and librsvg inside, no system
library), loaded at the first picture."""

from __future__ import annotations

import logging
from functools import cache
from typing import Any


@cache
def vips() -> Any:
    """The ``pyvips`` module, loaded once: loading it takes a good part of a second on a busy machine,
    and neither ``judge serve``'s start-up nor the commands that draw nothing need it."""
    # pyvips logs at INFO and DEBUG what only its authors need (libvips' thread pools, every
    # operation's arguments): the operator's log keeps its warnings and errors only.
    logging.getLogger("pyvips").setLevel(logging.WARNING)
    import pyvips  # type: ignore[import-untyped]  # no stubs

    # Each picture is drawn once: libvips' cache of operations would only hold old pictures in memory.
    pyvips.cache_set_max(0)
    # One thread: what a picture asks of libvips is small (a page of its new sprites, a few dozen
    # pixels high; a board's base once), and its pool of worker threads cost more CPU than it saved
    # (a page of 28 sprites 3.7 ms of CPU with the default pool, 2.4 ms alone). The pixels are the same.
    pyvips.concurrency_set(1)
    return pyvips
