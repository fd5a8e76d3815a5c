"""Where a mail's signature starts: the one rule, read by the decoder and the command reader alike.

The convention (RFC 3676 §4.3, from Usenet) is a line of two dashes and a space, ``-- ``,
above the signature. Clients and people type it with the space lost or with blanks around it,
so the judge takes any line that is two dashes once the blanks around them are gone. Whatever
follows is not read: :func:`judge.mail.decode.clean_body` drops it from a mail it decodes, and
:mod:`judge.lang.mail` ends the commands there (a ``Signoff``), inside a press text too, for a
body that reaches the reader without the decoder (``judge parse``, the console).
"""

from __future__ import annotations


def is_signature_line(line: str) -> bool:
    """Whether ``line`` starts the signature: ``-- ``, ``--``, blanks around them or not."""
    return line.strip() == "--"
