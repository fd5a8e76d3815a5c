"""`judge game ...`: the judgekeeper's view of the games, and a master's powers over them.

``list`` and ``show`` read; ``process``, ``pause``, ``resume``, ``terminate``,
``rollback``, ``eject`` and ``set`` run the very mail command a master would
send (``PROCESS``, ``SET DEADLINE ...``) through the mail's handlers
(:mod:`judge.app.console.game_actions`), so the checks, the replies, the announcements to
the players and the audit records are those of mail; ``master`` makes a
registered person a master of the game. Every change is audited with the
operator's name (``--as NAME``, default the Unix user).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from judge.commands._console import (
    add_common,
    add_operator,
    load_services,
    operator_name,
    safe,
    sub,
)

NAME = "game"
HELP = "list and show games; process, pause, resume, terminate, roll back, eject, set, add a master"

_EPILOG = """\
examples:
  judge game list --state active          the games being played
  judge game show mygame --json           settings, phase, deadlines, seats, orders, press
  judge game process mygame --as alice    process the current phase now (audited as alice)
  judge game set mygame DEADLINE 2026-12-01 18:00
  judge game eject mygame F               France's player leaves the game
  judge game master mygame ann@example.org
"""

STATES = ("forming", "active", "paused", "finished", "terminated")

_ORDERS_WORDS = {
    "complete": "orders complete", "incomplete": "orders incomplete", "none": "no orders",
    "not owed": "no orders owed", "received": "orders received",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common(parser, _EPILOG)
    actions = parser.add_subparsers(dest="game_action", required=True)
    listing = sub(actions, "list", "the games, by name", "judge game list --state active --json")
    listing.add_argument("--state", action="append", choices=STATES,
                         help="only games in this state (repeatable; 'paused': active games paused)")
    listing.add_argument("--json", action="store_true", help="one JSON object per line")
    show = sub(actions, "show", "one game: settings, phase, deadline and grace, seats with players and "
               "addresses, orders received this phase, press counts, the dice of each phase (Machiavelli)",
               "judge game show mygame")
    show.add_argument("name")
    show.add_argument("--json", action="store_true", help="as one JSON object")
    for action, text, example in (
        ("process", "process the current phase now, as the master's PROCESS", "judge game process mygame"),
        ("pause", "stop the game's clock (PAUSE)", "judge game pause mygame --as alice"),
        ("resume", "restart a paused game's clock with a fresh deadline (RESUME)", "judge game resume mygame"),
        ("terminate", "end the game for good (TERMINATE)", "judge game terminate mygame"),
    ):
        one = sub(actions, action, text, example)
        one.add_argument("name")
        add_operator(one)
    rollback = sub(actions, "rollback", "take the game back to the start of turn TURN (default: the "
                   "previous turn), as ROLLBACK", "judge game rollback mygame 3")
    rollback.add_argument("name")
    rollback.add_argument("turn", nargs="?", type=int, help="turn number, 1 = the first movement phase")
    add_operator(rollback)
    eject = sub(actions, "eject", "remove a power's player from the game (EJECT)", "judge game eject mygame F")
    eject.add_argument("name")
    eject.add_argument("power", help="the power's letter or name")
    add_operator(eject)
    setting = sub(actions, "set", "change a setting as the master's SET would (any master SET)",
                  "judge game set mygame NMR")
    setting.add_argument("name")
    setting.add_argument("setting", nargs="+", help="the words after SET, e.g. DEADLINE 2026-12-01 18:00")
    add_operator(setting)
    master = sub(actions, "master", "make the registered person at ADDRESS a master of the game "
                 "(a password is made and printed once)", "judge game master mygame ann@example.org")
    master.add_argument("name")
    master.add_argument("address")
    add_operator(master)


def run(args: argparse.Namespace) -> int:
    from judge.app.console.game_actions import ConsoleRefusal
    from judge.config import ConfigError
    from judge.mail.addresses import AddressError

    try:
        services = load_services(args)
    except (ConfigError, Exception) as error:
        print(f"judge game: cannot open the judge: {error}", file=sys.stderr)
        return 1
    action = args.game_action
    try:
        if action == "list":
            return _list(services, args)
        if action == "show":
            return _show(services, args)
        if action == "master":
            return _master(services, args)
        return _act(services, args)
    except (ConsoleRefusal, AddressError, LookupError) as error:
        print(f"judge game {action}: {error}", file=sys.stderr)
        return 1
    except Exception as error:  # an operator command: report, do not dump a trace
        print(f"judge game {action}: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    finally:
        services.db.dispose()


def _game(uow: Any, name: str, *, lock: bool = False) -> Any:
    """The game; with ``lock``, under its row lock as a mail signing on to it would be
    (a change from the console then never interleaves with a mail or the scheduler)."""
    from judge.app.games.lifecycle import find_game

    game = find_game(uow, name, lock=lock)
    if game is None:
        raise LookupError(f"there is no game {name!r}")
    return game


def _list(services: Any, args: argparse.Namespace) -> int:
    from judge.app.console.views import game_summary
    from judge.db.enums import GameState

    wanted = set(args.state or [])
    with services.db.unit_of_work(readonly=True) as uow:
        rows = [game_summary(game) for game in uow.games.list()]
    if wanted:
        rows = [r for r in rows if r["state"] in wanted
                or ("paused" in wanted and r["state"] == GameState.ACTIVE.value and r["paused"])]
    if args.json:
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
        return 0
    if not rows:
        print("no games")
        return 0
    print(f"{'GAME':<12} {'STATE':<10} {'VARIANT':<12} {'PHASE':<8} {'PLAYERS':>7}  DEADLINE (UTC)")
    for row in rows:
        state = "paused" if row["paused"] else row["state"]
        print(f"{row['name']:<12} {state:<10} {row['variant']:<12} {row['phase'] or '-':<8} "
              f"{row['players']:>7}  {(row['deadline'] or '-')[:16]}")
    return 0


def _show(services: Any, args: argparse.Namespace) -> int:
    from judge.app.console.views import game_details

    with services.db.unit_of_work(readonly=True) as uow:
        view = game_details(uow, _game(uow, args.name))
    if args.json:
        print(json.dumps(view, ensure_ascii=False, indent=2))
        return 0
    state = "paused" if view["paused"] else view["state"]
    variant = " ".join([view["variant"], *view["options"]])  # gunboat, and a variant's own (Machiavelli: NoDice...)
    print(f"game {view['name']}: {state}, {variant}, phase {view['phase'] or '-'}")
    for label, key in (("deadline", "deadline"), ("grace until", "grace"), ("start not before", "earliest"),
                       ("next due", "next_due"), ("paused since", "paused_at")):
        if view[key]:
            print(f"{label}: {view[key]}")
    masters = ", ".join(f"{m['name']} <{m['address']}>" for m in view["masters_list"]) or "none"
    print(f"masters: {masters}")
    print("\nseats:")
    for seat in view["seats"]:
        orders = _ORDERS_WORDS.get(seat["orders_state"], seat["orders_state"])
        bot = f", played by the {seat['bot']} bot" if seat.get("bot") else ""
        print(f"  {seat['power'] or '?':<10} {seat['status']:<15} {safe(seat['player'] or '-'):<24} "
              f"{', '.join(seat['addresses']) or '-'}  ({orders}{bot})")
    if view["observers"]:
        print("observers: " + ", ".join(view["observers"]))
    print(f"\norders received this phase: {', '.join(view['orders_received']) or 'none'}")
    press = view["press"]
    print("press this phase: " + (_counts(press["this_phase"]) or "none")
          + "; in all: " + (_counts(press["total"]) or "none"))
    print("\nsettings:")
    for line in view["settings"]:
        print(f"  {line}")
    if view["dice"]:
        print("\ndice thrown:")
        for phase in view["dice"]:
            for roll in phase["rolls"]:
                dice = " ".join(str(die) for die in roll["dice"])
                print(f"  {phase['phase']}  {roll['rule']}, {safe(str(roll['for']))}: {dice} -> {safe(str(roll['outcome']))}")
    return 0


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{count} {kind}" for kind, count in sorted(counts.items()))


def _act(services: Any, args: argparse.Namespace) -> int:
    from judge.app.console.game_actions import CONSOLE_ACTIONS, master_line, run_as_master

    action = args.game_action
    operator = operator_name(args)
    if action == "set":
        line, expected = master_line("set", *args.setting), None
    else:
        words = []
        if action == "rollback" and args.turn is not None:
            words = [str(args.turn)]
        elif action == "eject":
            words = [args.power]
        line, expected = master_line(action, *words), (CONSOLE_ACTIONS[action],)
    now = services.clock.now()
    with services.db.unit_of_work() as uow:
        game = _game(uow, args.name, lock=True)
        outcome = run_as_master(uow, services, game, line, operator, now, expected=expected)
    print(outcome.reply.rstrip("\n"))
    told = f"; {outcome.queued} mail(s) queued for the players" if outcome.queued else ""
    if outcome.done:
        print(f"judge game {action} {args.name}: done (audited as {operator}{told})")
        return 0
    print(f"judge game {action} {args.name}: refused, nothing changed by it", file=sys.stderr)
    return 1


def _master(services: Any, args: argparse.Namespace) -> int:
    import secrets

    from judge.db.enums import AuditKind
    from judge.mail.addresses import canonical_address

    operator = operator_name(args)
    address = canonical_address(args.address)
    now = services.clock.now()
    password = secrets.token_urlsafe(9)
    with services.db.unit_of_work() as uow:
        game = _game(uow, args.name, lock=True)
        person = uow.people.by_address(address)
        if person is None:
            raise LookupError(f"nobody registered writes from {address}: a master must be registered")
        if any(master.person_id == person.id for master in game.masters):
            raise LookupError(f"{address} is already a master of {game.name}")
        if any(seat.person_id == person.id and seat.power is not None for seat in game.seats):
            raise LookupError(f"{address} plays in {game.name}: a master plays no power")
        uow.games.add_master(game, person, password, now)
        uow.audit.record(
            AuditKind.ADMIN, now, game=game, person=person, actor=operator, setting="master",
            new_value=address, detail=f"judge game master {game.name} {address}",
        )
        name = game.name
    print(f"{address} is now a master of {name} (audited as {operator}).")
    print(f"Their password, to sign on with SIGNON M{name} {password}: {password}")
    print("It is shown once and stored only as a hash: give it to them; they can change it with SET PASSWORD.")
    return 0
