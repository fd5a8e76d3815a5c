"""docs/commands.md cannot drift from the grammar.

The page lists each command with three machine-read lines:
``Keywords: `A`, `B` ``, ``Reads into: `Class` `` and ``Example: `text` ``.
This test fails when

* a word a command line may start with (:func:`judge.lang.grammar.command_words`,
  derived from ``grammar/mail.lark``) is not the first word of a documented keyword;
* a SET keyword of the grammar (the keywords that open a ``set_item`` or
  ``set_tail`` alternative) is not documented as ``SET <keyword>``;
* a command class of :mod:`judge.lang.commands` is named in no "Reads into" line;
* the page names a keyword the judge does not read as that command, or a
  class that does not exist;
* an example does not read, without error, as the command it illustrates.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from lark.lexer import PatternStr

from judge.lang import commands
from judge.lang.grammar import command_parser, command_words
from judge.lang.mail import parse_mail

PAGE = Path(__file__).resolve().parents[2] / "docs" / "commands.md"
CODE = re.compile(r"`([^`]+)`")
NOT_READ = ("Unknown command", "Unknown SET option")


@dataclass
class Entry:
    heading: str
    keywords: list[str] = field(default_factory=list)
    classes: list[str] = field(default_factory=list)
    refused: bool = False
    examples: list[str] = field(default_factory=list)


def entries() -> list[Entry]:
    """The page's entries, in order, each with its machine-read lines."""
    found: list[Entry] = []
    current = Entry("(top)")
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            current = Entry(line.lstrip("# ").strip())
            found.append(current)
        elif line.startswith("Keywords:"):
            current.keywords += CODE.findall(line)
        elif line.startswith("Reads into:"):
            current.classes += CODE.findall(line)
            current.refused = "none" in line.split(":", 1)[1].split("(")[0]
        elif line.startswith("Example:"):
            current.examples += [code.replace("\\n", "\n") for code in CODE.findall(line)]
    return [entry for entry in found if entry.keywords or entry.classes]


def documented_keywords() -> list[str]:
    return [" ".join(keyword.lower().split()) for entry in entries() for keyword in entry.keywords]


def command_classes() -> dict[str, type[commands.Command]]:
    return {
        name: value
        for name, value in vars(commands).items()
        if isinstance(value, type) and issubclass(value, commands.Command) and value is not commands.Command
    }


def grammar_set_keywords() -> set[str]:
    """The keyword phrases that open each SET alternative of the grammar (``no wait``, ``max``, ``move``...)."""
    parser = command_parser()
    phrases: set[str] = set()
    for rule in parser.rules:
        if rule.origin.name not in ("set_item", "set_tail"):
            continue
        choices: list[list[str]] = []
        for symbol in rule.expansion:
            if not symbol.is_term or symbol.name in ("WORD", "REST", "GRACE_REST"):
                break
            pattern = parser.get_terminal(symbol.name).pattern
            if isinstance(pattern, PatternStr):
                choices.append([pattern.value.lower()])
            else:
                group = pattern.value[pattern.value.index("(") + 1 : pattern.value.index(")")]
                choices.append(group.split("|"))
        phrases.update(" ".join(words) for words in itertools.product(*choices) if words)
    return phrases


def test_the_page_has_entries() -> None:
    assert len(entries()) >= 40


@pytest.mark.parametrize("word", sorted(command_words()))
def test_every_first_word_of_the_grammar_is_documented(word: str) -> None:
    firsts = {keyword.split()[0].rstrip(":") for keyword in documented_keywords()}
    assert word in firsts, f"the command keyword {word!r} of grammar/mail.lark is not in docs/commands.md"


@pytest.mark.parametrize("phrase", sorted(grammar_set_keywords()))
def test_every_set_keyword_of_the_grammar_is_documented(phrase: str) -> None:
    wanted = "set " + phrase
    documented = documented_keywords()
    assert any(k == wanted or k.startswith(wanted + " ") for k in documented), (
        f"SET {phrase.upper()} (grammar/mail.lark) is not in docs/commands.md"
    )


@pytest.mark.parametrize("name", sorted(command_classes()))
def test_every_command_class_is_documented(name: str) -> None:
    named = {cls for entry in entries() for cls in entry.classes}
    assert name in named, f"judge.lang.commands.{name} is in no 'Reads into' line of docs/commands.md"


def test_every_documented_class_exists() -> None:
    known = set(command_classes())
    for entry in entries():
        assert set(entry.classes) <= known, f"{entry.heading}: unknown classes {set(entry.classes) - known}"


def _read(text: str) -> bool:
    """Whether the judge reads ``text`` as a command (errors about its arguments are fine)."""
    return not any(e.message.startswith(NOT_READ) for e in parse_mail(text + "\n").errors)


@pytest.mark.parametrize(
    ("keyword", "entry"),
    [(k, e) for e in entries() for k in e.keywords],
    ids=[k for e in entries() for k in e.keywords],
)
def test_every_documented_keyword_is_read_by_the_judge(keyword: str, entry: Entry) -> None:
    """A keyword alone, or one of its entry's example lines that starts with it, reads as a command."""
    first = keyword.split()[0].lower().rstrip(":")
    assert first in command_words(), f"docs/commands.md documents {keyword!r}, which is no command keyword"
    wanted = " ".join(keyword.lower().split())
    lines = [
        line for example in entry.examples for line in example.splitlines()
        if " ".join(line.lower().split()).startswith(wanted)
    ]  # fmt: skip
    assert _read(keyword) or any(_read(line) for line in lines), (
        f"docs/commands.md documents {keyword!r}, which the judge does not read"
        " (alone or in an example of its entry)"
    )


@pytest.mark.parametrize("entry", entries(), ids=lambda e: e.heading)
def test_every_example_reads_as_its_command(entry: Entry) -> None:
    assert entry.examples, f"{entry.heading}: no example"
    for example in entry.examples:
        result = parse_mail(example + "\n")
        if entry.refused:
            assert result.errors, f"{entry.heading}: {example!r} should be refused by the reader"
            continue
        assert not result.errors, f"{entry.heading}: {example!r} -> {[e.message for e in result.errors]}"
        companions = {"Signon", "OrderCommand"} - set(entry.classes)  # an example may sign on and order
        kinds = {type(command).__name__ for command in result.commands} - companions
        assert kinds and kinds <= set(entry.classes), f"{entry.heading}: {example!r} reads as {kinds}"
