"""The facts the dispatch relies on about each command are class-level flags on the command's
class (``judge.lang.commands``), and each flag is set on exactly the commands it was set on when
the facts were five tuples in ``judge/app/mail_in/dispatch.py``: moving them changed nothing.

A new command gets every flag False (its base's), the safe answer: answered every time, a
savepoint of its own around its handler, its game's players loaded. Setting a flag on one is a
decision this test makes visible."""

from __future__ import annotations

import inspect

import pytest

from judge.lang import commands as c

FLAGS = ("CONSTANT_ANSWER", "READ_ONLY_ANSWER", "WRITES_NOTHING_BEFORE_REFUSING", "OWN_SAVEPOINTS", "READS_NO_PLAYER")

#: The tuples of judge/app/mail_in/dispatch.py before the flags (issue 27), by flag.
TODAY: dict[str, tuple[type[c.Command], ...]] = {
    "CONSTANT_ANSWER": (c.Help, c.Get, c.Version),
    "READ_ONLY_ANSWER": (c.ListGames, c.Summary, c.History, c.Whois, c.Whogame, c.InfoPlayer),
    "WRITES_NOTHING_BEFORE_REFUSING": (c.OrderCommand, c.Conditional, c.Signoff, c.IgnoredText, c.SheetLineCommand),
    "OWN_SAVEPOINTS": (c.Signon,),
    "READS_NO_PLAYER": (
        c.Signon, c.Signoff, c.OrderCommand, c.Conditional, c.PhaseCommand, c.Clear, c.IgnoredText,
        c.SheetLineCommand,  # a Machiavelli order line (issue 33): kept in memory, stored at the mail's end
    ),
}  # fmt: skip


def _every_command() -> list[type[c.Command]]:
    found = [
        value
        for value in vars(c).values()
        if inspect.isclass(value) and issubclass(value, c.Command) and value is not c.Command
    ]
    assert len(found) > 50  # the scan sees the module's commands
    return sorted(found, key=lambda kind: kind.__name__)


@pytest.mark.parametrize("flag", FLAGS)
def test_each_flag_is_set_on_the_commands_the_dispatch_tuple_named(flag: str) -> None:
    flagged = {kind for kind in _every_command() if getattr(kind, flag)}
    assert flagged == {kind for kind in _every_command() if issubclass(kind, TODAY[flag])}


def test_the_base_says_no_to_everything() -> None:
    assert not any(getattr(c.Command, flag) for flag in FLAGS)


def test_an_instance_reads_its_class_s_flags() -> None:
    assert c.Help(line=1).CONSTANT_ANSWER
    assert not c.Help(line=1).READ_ONLY_ANSWER
    assert c.OrderCommand(line=1).WRITES_NOTHING_BEFORE_REFUSING and c.OrderCommand(line=1).READS_NO_PLAYER
    assert not c.Press(line=1).READS_NO_PLAYER


def test_a_flag_is_no_field_of_the_command() -> None:
    """The flags are of the class: not in a command's fields, its equality or its JSON form."""
    import dataclasses

    names = {field.name for kind in _every_command() for field in dataclasses.fields(kind)}
    assert not names & set(FLAGS)


def test_the_dispatch_keeps_no_tuple_of_commands() -> None:
    from judge.app.mail_in import dispatch

    tuples = [
        name for name, value in vars(dispatch).items()
        if isinstance(value, tuple) and value and all(inspect.isclass(v) and issubclass(v, c.Command) for v in value)
    ]  # fmt: skip
    assert tuples == []
