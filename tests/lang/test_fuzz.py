"""A mutation fuzzer over the golden corpus: real-looking mails, damaged in every way a mail can be.

Each mutant is parsed; the reader must return a result (never raise, never
hit its internal-error fallback) whose JSON form can be written. The random
generator is seeded, so a failure names a mutant that can be replayed.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from judge.lang.mail import INTERNAL_ERROR_MESSAGE, parse_mail
from judge.lang.serialize import result_to_json

CORPUS = Path(__file__).resolve().parents[1] / "data" / "mail"
SEEDS = [mail.read_text(encoding="utf-8") for mail in sorted(CORPUS.glob("*.txt"))]
MUTANTS_PER_SEED = 60
JUNK = ["\x00", "\x1b", "\u202e", "\ufeff", "é", "ß", "中", "🙂", "(", ")", "[", "]", ",", ";", "-", "--",
        "->", "/", ":", "?", "*", "+", "\t", "\r", "\n", " ", "if ", "endif", "else ", "not ", "press ",
        "signoff", "set ", "to ", "all but ", "fake ", "(nc)", "/sc", "xxx", "via convoy", "par convoi"]  # fmt: skip


def mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 6)):
        choice = rng.randrange(9)
        if not lines:
            lines = [""]
        i = rng.randrange(len(lines))
        line = lines[i]
        if choice == 0 and line:  # delete a character
            j = rng.randrange(len(line))
            lines[i] = line[:j] + line[j + 1 :]
        elif choice == 1:  # insert junk
            j = rng.randint(0, len(line))
            lines[i] = line[:j] + rng.choice(JUNK) + line[j:]
        elif choice == 2:  # duplicate a line
            lines.insert(i, line)
        elif choice == 3:  # drop a line
            del lines[i]
        elif choice == 4:  # swap two lines
            k = rng.randrange(len(lines))
            lines[i], lines[k] = lines[k], lines[i]
        elif choice == 5:  # truncate the mail
            lines = lines[: i + 1]
            lines[-1] = line[: rng.randint(0, len(line))]
        elif choice == 6:  # change case
            lines[i] = line.upper() if rng.random() < 0.5 else line.swapcase()
        elif choice == 7:  # repeat a word
            words = line.split()
            if words:
                k = rng.randrange(len(words))
                words.insert(k, words[k] * rng.randint(1, 3))
                lines[i] = " ".join(words)
        else:  # splice in a line from another mail
            other = rng.choice(SEEDS).split("\n")
            lines.insert(i, rng.choice(other))
    return "\n".join(lines)


@pytest.mark.parametrize("seed", range(len(SEEDS)))
def test_mutants_of_real_mails_are_read_without_raising(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(MUTANTS_PER_SEED):
        mutant = mutate(SEEDS[seed], rng)
        result = parse_mail(mutant, french=rng.random() < 0.3)
        assert all(error.message != INTERNAL_ERROR_MESSAGE for error in result.errors), mutant
        json.dumps(result_to_json(result), ensure_ascii=False)


def test_the_fuzzer_does_change_the_results() -> None:
    """Guard against a fuzzer that silently stopped mutating."""
    rng = random.Random(1)
    base = result_to_json(parse_mail(SEEDS[6]))
    changed = sum(result_to_json(parse_mail(mutate(SEEDS[6], rng))) != base for _ in range(30))
    assert changed > 15


def test_huge_mails_are_cut_not_fatal() -> None:
    ten_megabytes = ("A Par - Bur, F Bre - Mao; signon Fdt pw\n" * 260_000)[:10_000_000]
    result = parse_mail(ten_megabytes)
    assert result.errors and result.errors[-1].message.startswith(("The mail is too long", "Too many errors"))
    hundred_thousand_lines = "set wait\n" * 100_000
    result = parse_mail(hundred_thousand_lines)
    assert result.errors[-1].message.startswith("The mail is too long")
