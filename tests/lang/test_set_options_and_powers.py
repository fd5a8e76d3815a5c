"""SET option words (blanks optional, as the Judge matched them) and how powers are named."""

from __future__ import annotations

import pytest

from judge.core.variants import load_map
from judge.lang import commands as c
from judge.lang.mail import parse_mail
from judge.lang.powers import assign_letters, power_by_letter_or_name, power_letters, power_named
from judge.lang.set_options import OPTIONS, Flag, Special, option_names, read_option

STANDARD = load_map("standard")


def test_every_flag_has_a_no_form() -> None:
    for key, meaning in OPTIONS.items():
        if isinstance(meaning, Flag) and meaning.enabled and not key.startswith("no") and key != "public":
            assert OPTIONS["no" + key] == Flag(meaning.option, False), key


def test_the_longest_run_of_words_wins() -> None:
    assert read_option(["strict", "grace"]) == (Flag("STRICT GRACE", True), 2)
    assert read_option(["no", "strict", "grace"]) == (Flag("STRICT GRACE", False), 3)
    assert read_option(["maxabsence", "10"]) == (Special("MAX ABSENCE"), 1)
    assert read_option(["bogus"]) is None


@pytest.mark.parametrize("spelling", ["set nowait", "set no wait", "set NO WAIT", "set NoWait"])
def test_blanks_inside_options_are_optional(spelling: str) -> None:
    result = parse_mail(f"signon Fdt pw\n{spelling}\n")
    assert result.commands[1] == c.SetWait(2, False)


@pytest.mark.parametrize("option", option_names())
def test_every_flag_reads_on_and_off(option: str) -> None:
    result = parse_mail(f"signon Mdt pw\nset {option}, no {option}\n")
    assert result.errors == ()
    assert result.commands[1:] == (c.SetFlag(2, option, True), c.SetFlag(2, option, False))


def test_standard_letters() -> None:
    assert dict(power_letters(STANDARD)) == {
        "A": "AUSTRIA", "E": "ENGLAND", "F": "FRANCE", "G": "GERMANY", "I": "ITALY", "R": "RUSSIA", "T": "TURKEY",
    }  # fmt: skip


def test_a_taken_letter_moves_to_the_next_letter_of_the_name() -> None:
    assert assign_letters(["ITALY", "INDIA", "MOROCCO", "OTTOMAN"]) == {
        "I": "ITALY", "N": "INDIA", "R": "MOROCCO", "T": "OTTOMAN",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("word", "power"),
    [("fr", "FRANCE"), ("French", "FRANCE"), ("française", "FRANCE"), ("russe", "RUSSIA"), ("Tu", "TURKEY"),
     ("german", "GERMANY"), ("allemand", "GERMANY"), ("e", None), ("xx", None)],
)  # fmt: skip
def test_power_names_and_adjectives(word: str, power: str | None) -> None:
    assert power_named(word, STANDARD) == power


def test_letter_or_name() -> None:
    assert power_by_letter_or_name("g", STANDARD) == "GERMANY"
    assert power_by_letter_or_name("Germany", STANDARD) == "GERMANY"
    assert power_by_letter_or_name("Q", STANDARD) is None


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("set bots", c.SetBots(2, None, True)),
        ("SET BOTS SENSIBLE", c.SetBots(2, "sensible", True)),
        ("set bots normal", c.SetBots(2, "normal", True)),
        ("SET NO BOTS", c.SetBots(2, None, False)),
        ("set nobots", c.SetBots(2, None, False)),
        ("SET BOT IT", c.SetBot(2, "IT", True)),
    ],
)
def test_set_bots_and_set_bot_read_apart(line: str, command: c.Command) -> None:
    result = parse_mail(f"signon Mdt pw\n{line}\n")
    assert result.errors == ()
    assert result.commands[1] == command


def test_set_bots_refuses_an_unknown_level() -> None:
    result = parse_mail("signon Mdt pw\nSET BOTS CLEVER\n")
    assert [e.message for e in result.errors] == ["Unknown bot level -> CLEVER (the levels are SENSIBLE and NORMAL)"]


def test_set_bot_with_the_letter_s_is_set_bot_not_set_bots() -> None:
    """Some variants have a power lettered S: ``SET BOT S`` gives it to the bot (on Standard, which has
    none, the letter is refused as SET BOT's letters are), it never fills seats."""
    result = parse_mail("signon Mdt pw\nSET BOT S\n")
    assert [e.message for e in result.errors] == ["Unknown power letter -> S (this variant has AEFGIRT)"]
    assert not any(isinstance(command, c.SetBots) for command in result.commands)
