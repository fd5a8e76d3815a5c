"""Reading ``.po`` catalogs and compiling them to ``.mo`` bytes, without msgfmt.

Only what our catalogs use: ``msgid``/``msgstr`` pairs with C escapes, strings
continued on following lines, ``#`` comments, and ``#, fuzzy`` entries (which
are skipped, as msgfmt does). Plural forms are not used by the judge.
"""

from __future__ import annotations

import ast
import struct


class CatalogError(ValueError):
    """A ``.po`` file that cannot be read."""


def _unquote(token: str, line_number: int) -> str:
    token = token.strip()
    if len(token) < 2 or token[0] != '"' or token[-1] != '"':
        raise CatalogError(f"line {line_number}: expected a quoted string, got {token!r}")
    value = ast.literal_eval(token)
    if not isinstance(value, str):
        raise CatalogError(f"line {line_number}: not a string")
    return value


def parse_po(text: str) -> dict[str, str]:
    """msgid -> msgstr for every translated, non-fuzzy entry (the header included under "")."""
    entries: dict[str, str] = {}
    msgid: list[str] | None = None
    msgstr: list[str] | None = None
    current: list[str] | None = None
    fuzzy = False
    pending_fuzzy = False

    def flush() -> None:
        nonlocal msgid, msgstr, fuzzy
        if msgid is not None and msgstr is not None and not fuzzy:
            translated = "".join(msgstr)
            if translated:
                entries["".join(msgid)] = translated
        msgid = msgstr = None
        fuzzy = False

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                pending_fuzzy = True
            continue
        if line.startswith("msgid "):
            flush()
            fuzzy, pending_fuzzy = pending_fuzzy, False
            msgid = [_unquote(line[6:], number)]
            current = msgid
        elif line.startswith("msgstr "):
            if msgid is None:
                raise CatalogError(f"line {number}: msgstr without msgid")
            msgstr = [_unquote(line[7:], number)]
            current = msgstr
        elif line.startswith('"'):
            if current is None:
                raise CatalogError(f"line {number}: string outside an entry")
            current.append(_unquote(line, number))
        else:
            raise CatalogError(f"line {number}: cannot read {line!r}")
    flush()
    return entries


def compile_mo(entries: dict[str, str]) -> bytes:
    """The GNU ``.mo`` form of ``entries`` (little-endian, no hash table)."""
    keys = sorted(entries)
    ids = [k.encode("utf-8") for k in keys]
    strs = [entries[k].encode("utf-8") for k in keys]
    count = len(keys)
    header_size = 7 * 4
    ids_table = header_size
    strs_table = ids_table + count * 8
    data_start = strs_table + count * 8
    offsets: list[tuple[int, int]] = []
    data = bytearray()
    for blob in ids:
        offsets.append((len(blob), data_start + len(data)))
        data += blob + b"\0"
    str_offsets: list[tuple[int, int]] = []
    for blob in strs:
        str_offsets.append((len(blob), data_start + len(data)))
        data += blob + b"\0"
    out = bytearray(struct.pack("<7I", 0x950412DE, 0, count, ids_table, strs_table, 0, 0))
    for length, offset in offsets:
        out += struct.pack("<2I", length, offset)
    for length, offset in str_offsets:
        out += struct.pack("<2I", length, offset)
    out += data
    return bytes(out)
