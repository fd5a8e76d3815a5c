"""The words of the pages themselves (headings, labels), in the reader's language.

Written with ``_()`` here, in Python, so that the catalog test (tests/i18n) finds each one
and fails when it has no French; the templates only read this mapping.
"""

from __future__ import annotations

from collections.abc import Callable


def words(_: Callable[[str], str]) -> dict[str, str]:
    return {
        "games": _("Games on this judge"),
        "forming": _("Forming"),
        "active": _("Under way"),
        "finished": _("Finished"),
        "none": _("None."),
        "game": _("Game"),
        "variant": _("Variant"),
        "phase": _("Phase"),
        "deadline": _("Next deadline"),
        "press": _("Press"),
        "open": _("Open powers"),
        "join": _("To join a forming game, mail the judge at {address} a line such as "
                  "'SIGNON ?{game} password'; to take over an open power, 'SIGNON Xgame password' "
                  "with the power's letter. Send HELP for everything else."),
        "some_game": _("mygame"),
        "observe": _("Everything here is what an observer of the game receives by mail, without "
                     "anyone's address; orders are shown once their phase is processed."),
        "times": _("Times are shown in {zone}."),
        "state": _("State"),
        "started": _("Started"),
        "ended": _("Ended"),
        "masters": _("Masters"),
        "powers": _("Powers"),
        "power": _("Power"),
        "players": _("Players"),
        "centres": _("Centres"),
        "units": _("Units"),
        "hidden": _("This is a gunboat game: who plays which power is not shown."),
        "councils": _("Each power is played by a council: its members are named when the game is over."),
        "phases": _("Phases"),
        "not_processed": _("not processed yet"),
        "board": _("The board"),
        "chart": _("Supply centres per power, year by year"),
        "year": _("Year"),
        "settings": _("Settings"),
        "public_press": _("Press and broadcasts the observers received"),
        "no_press": _("No press has reached the observers."),
        "final": _("The end of the game"),
        "diaries": _("Diaries"),
        "map_of": _("Map of {phase}"),
        "results": _("Orders and results"),
        "waiting": _("This phase is being played: its orders are shown once it is processed."),
        "previous": _("Previous phase"),
        "next": _("Next phase"),
        "back": _("Back to the game"),
        "all_games": _("All games"),
        "missing": _("There is no such page here."),
        "missing_hint": _("The game may not exist, or its master has not listed it."),
        "feed": _("Feed"),
        "calendar": _("Deadlines (calendar)"),
        "data": _("JSON"),
    }
