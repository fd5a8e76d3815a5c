"""`judge version`: print the judge's version."""

from __future__ import annotations

import argparse

NAME = "version"
HELP = "print the judge's version"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    del parser


def run(args: argparse.Namespace) -> int:
    del args
    from judge import __version__

    print(f"judge {__version__}")
    return 0
