"""Benchmark of the mail reader: how long the judge takes to read a mail.

Prints figures; asserts nothing (timings are not tests). Run with

    .venv/bin/python benchmarks/bench_parse.py

Measured: the one-off cost of building the grammars (first mail after start),
a typical order mail (sign-on, 17 orders, one conditional block, sign-off;
the target is under 1 ms on one core), and a 1,000-line mail mixing orders,
commands, press and conditionals.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

TYPICAL = """\
signon Rgame secret
F StP/SC - Bot
A Mos - StP
A War - Gal
F Sev - Bla
A Ukr S A Mos - Sev
F Ank H
A Con - Bul
A Smy - Arm
F Lon - Nth
A Lvp - Yor
F Edi - Nwg
A Par - Bur
A Mar S A Par - Bur
F Bre - Mao
A Ven H
F Nap - Ion
A Rom - Apu
if not german army ruhr and (english nth or english eng)
  A Bur - Ruh
else
  A Bur H
endif
signoff
"""

BLOCK = """\
A Par - Bur, F Bre - Mao
army marseilles move to spain
F Nth C A Yor - Nwy
A Yor - Nth - Nwy
set wait, no draw
if russian army sev or not turkish fleet bla
  F Ank - Bla
else
  F Ank H
endif
press to EG
Some press text, kept verbatim.
endpress
"""


def thousand_line_mail() -> str:
    lines = ["signon Fdt secret"]
    block = BLOCK.splitlines()
    while len(lines) < 999:
        lines.extend(block)
    return "\n".join([*lines[:999], "signoff"]) + "\n"


def measure(action: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median and best time of one call, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def main() -> None:
    start = time.perf_counter()
    from judge.core.variants import load_map
    from judge.lang.mail import parse_mail

    game_map = load_map("standard")
    first = parse_mail(TYPICAL, game_map)
    cold = time.perf_counter() - start
    assert not first.errors, first.errors
    orders = sum(command.KIND == "order" for command in first.commands)

    typical_median, typical_best = measure(lambda: parse_mail(TYPICAL, game_map), 2_000)
    from judge.lang.orders import clear_reading_cache, read_order_line

    order_lines = [line for line in TYPICAL.splitlines() if line[:2] in ("F ", "A ")]
    orders_median, _ = measure(lambda: [read_order_line(line, game_map) for line in order_lines], 2_000)

    def read_afresh() -> None:
        clear_reading_cache()
        for line in order_lines:
            read_order_line(line, game_map)

    fresh_median, _ = measure(read_afresh, 2_000)

    def mail_afresh() -> None:
        clear_reading_cache()
        parse_mail(TYPICAL, game_map)

    typical_fresh_median, typical_fresh_best = measure(mail_afresh, 2_000)
    big = thousand_line_mail()
    big_result = parse_mail(big, game_map)
    big_median, big_best = measure(lambda: parse_mail(big, game_map), 30)

    print(f"cold start (imports, map, grammars, first mail): {cold * 1000:8.1f} ms")
    print(
        f"typical order mail ({TYPICAL.count(chr(10))} lines, {orders} orders + 1 IF block): "
        f"median {typical_median * 1e6:7.0f} us, best {typical_best * 1e6:7.0f} us"
    )
    print(
        f"  of which the order reader on the {len(order_lines)} plain order lines: median {orders_median * 1e6:7.0f} us"
    )
    print(
        f"typical order mail, orders never seen before (reading cache emptied each time): "
        f"median {typical_fresh_median * 1e6:7.0f} us, best {typical_fresh_best * 1e6:7.0f} us"
    )
    print(
        f"  of which the order reader on the {len(order_lines)} plain order lines: median {fresh_median * 1e6:7.0f} us "
        f"({fresh_median / len(order_lines) * 1e6:.1f} us per order)"
    )
    print(
        f"1,000-line mail ({len(big_result.commands)} commands, {len(big_result.errors)} errors): "
        f"median {big_median * 1000:7.1f} ms, best {big_best * 1000:7.1f} ms "
        f"({big_median / 1000 * 1e6:.0f} us per line)"
    )


if __name__ == "__main__":
    main()
