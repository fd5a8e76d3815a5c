"""A reader for the small subset of YAML that deploy/compose.yaml uses (PyYAML is not a dependency).

Block mappings, block lists of scalars, JSON-style flow values (``[...]``,
``{}``), quoted and plain scalars, ``#`` comments. Anything else (anchors,
multi-line strings, tags, lists of mappings) raises :class:`UnsupportedYaml`,
so compose.yaml cannot drift into YAML this reader would misread.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

_UNSUPPORTED = re.compile(r"^[&*!|>]")
_MAPPING_ITEM = re.compile(r"^[^\s\"'\[{]+:(\s|$)")


class UnsupportedYaml(ValueError):
    """A construct outside the subset, with its line number."""


@dataclass(frozen=True)
class _Line:
    number: int
    indent: int
    text: str


def _strip_comment(line: str) -> str:
    quote: str | None = None
    for index, char in enumerate(line):
        if quote:
            if char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()):
            return line[:index].rstrip()
    return line.rstrip()


def _scalar(text: str, number: int) -> object:
    text = text.strip()
    if _UNSUPPORTED.match(text):
        raise UnsupportedYaml(f"line {number}: unsupported construct {text!r}")
    if text.startswith(("[", "{", '"')):
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise UnsupportedYaml(f"line {number}: not JSON-compatible: {text!r}") from error
    if text.startswith("'") and text.endswith("'") and len(text) >= 2:
        return text[1:-1].replace("''", "'")
    return text


def loads(document: str) -> object:
    lines = []
    for number, raw in enumerate(document.splitlines(), 1):
        if "\t" in raw[: len(raw) - len(raw.lstrip())]:
            raise UnsupportedYaml(f"line {number}: tab in indentation")
        text = _strip_comment(raw)
        if text.strip():
            lines.append(_Line(number, len(text) - len(text.lstrip()), text.strip()))
    value, position = _block(lines, 0, 0)
    if position != len(lines):
        raise UnsupportedYaml(f"line {lines[position].number}: unexpected indentation")
    return value


def _block(lines: list[_Line], position: int, indent: int) -> tuple[object, int]:
    if position >= len(lines):
        return None, position
    if lines[position].text.startswith("- ") or lines[position].text == "-":
        return _list(lines, position, indent)
    return _mapping(lines, position, indent)


def _list(lines: list[_Line], position: int, indent: int) -> tuple[list[object], int]:
    items: list[object] = []
    while position < len(lines) and lines[position].indent == indent:
        line = lines[position]
        if not line.text.startswith("- "):
            break
        if _MAPPING_ITEM.match(line.text[2:]):
            raise UnsupportedYaml(f"line {line.number}: lists of mappings are not supported")
        items.append(_scalar(line.text[2:], line.number))
        position += 1
    return items, position


def _mapping(lines: list[_Line], position: int, indent: int) -> tuple[dict[str, object], int]:
    mapping: dict[str, object] = {}
    while position < len(lines) and lines[position].indent == indent:
        line = lines[position]
        key, colon, rest = line.text.partition(":")
        if not colon or (rest and not rest.startswith(" ")) or line.text.startswith("- "):
            raise UnsupportedYaml(f"line {line.number}: expected 'key: value', got {line.text!r}")
        key = str(_scalar(key, line.number))
        if key in mapping:
            raise UnsupportedYaml(f"line {line.number}: duplicate key {key!r}")
        position += 1
        if rest.strip():
            mapping[key] = _scalar(rest, line.number)
        elif position < len(lines) and lines[position].indent > indent:
            mapping[key], position = _block(lines, position, lines[position].indent)
        else:
            mapping[key] = None
    return mapping, position
