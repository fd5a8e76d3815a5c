"""Command handlers, one module per command (or per tight family of SET commands).

Importing this package registers every handler (see judge.app.registry); a new
handler module must be imported here, in the one place that lists them.
"""

from judge.app.handlers import (  # noqa: F401
    signoff,
    version,
)
