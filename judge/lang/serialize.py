"""The parse result as plain JSON data: what `judge parse` prints and the golden tests compare.

``{"commands": [{"line": 3, "kind": "order", ...}, ...], "errors": [{"line":
5, "column": 7, "text": "...", "message": "..."}]}``. Every command becomes an
object with its ``line`` and ``kind`` first, then its fields; orders are
written in the judge's canonical notation (``A PAR - BUR``) and conditions
as text (``NOT FRANCE A RUH AND (RUSSIA PRU OR RUSSIA SIL)``), which is what
a player or a test wants to read.
"""

from __future__ import annotations

import dataclasses
import re
from enum import Enum
from typing import Any

from judge.core.phase import Phase
from judge.lang import commands as c
from judge.lang.conditions import And, Not, Or, UnitPresent
from judge.lang.dates import DateSpec
from judge.lang.errors import MailError
from judge.lang.mail import ParseResult
from judge.lang.orders import ReadOrder

JSONValue = Any


def result_to_json(result: ParseResult) -> dict[str, JSONValue]:
    """The whole result, ready for :func:`json.dumps`."""
    return {
        "commands": [command_to_json(command) for command in result.commands],
        "errors": [error_to_json(error) for error in result.errors],
    }


def error_to_json(error: MailError) -> dict[str, JSONValue]:
    return {"line": error.line, "column": error.column, "text": error.text, "message": error.message}


def command_to_json(command: c.Command) -> dict[str, JSONValue]:
    data: dict[str, JSONValue] = {"line": command.line, "kind": command.KIND}
    if isinstance(command, c.OrderCommand):
        data["column"] = command.column
        if command.read is not None:
            data.update(_read_order(command.read))
        return data
    for field in dataclasses.fields(command):
        if field.name == "line":
            continue
        data[field.name.rstrip("_")] = _value(getattr(command, field.name))
    return data


def _read_order(read: ReadOrder) -> dict[str, JSONValue]:
    data: dict[str, JSONValue] = {
        "order": str(read.order),
        "order_type": _snake(type(read.order).__name__),
        "text": read.text,
    }
    if read.readings:
        data["readings"] = [
            {"text": r.text, "province": r.province, "reading": r.reading, "alternatives": list(r.alternatives)}
            for r in read.readings
        ]
    if read.nationalities:  # issue 18: "S ALLEMAGNE A RUH", kept as information
        data["nationalities"] = [{"location": location, "power": power} for location, power in read.nationalities]
    if read.preferences:  # issue 18: a postal preference list, best first
        data["preferences"] = [str(choice) for choice in read.preferences]
    return data


def _value(value: object) -> JSONValue:
    if value is None or (isinstance(value, bool | int | float | str) and not isinstance(value, Enum)):
        return value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Phase):
        return str(value)
    if isinstance(value, tuple | list):
        return [_value(item) for item in value]
    if isinstance(value, c.Command):
        return command_to_json(value)
    if isinstance(value, UnitPresent | Not | And | Or):
        return str(value)
    if isinstance(value, DateSpec):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value) if getattr(value, f.name) is not None}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _value(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return str(value)


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
