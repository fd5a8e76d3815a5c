"""How a game's reports name what its victory counts: supply centres in an ordinary game, cities in
the Renaissance game. Each is a message of the catalogs, translated for each reader by the report
(:mod:`judge.app.reports.final_summary`, :mod:`judge.app.reports.summary_text`); a game's hooks
say which (``centre_words``), so no report asks which variant a game plays."""

from __future__ import annotations

from dataclasses import dataclass

from judge.i18n import N_


@dataclass(frozen=True, slots=True)
class CentreWords:
    """``won``: the final summary's first sentence for a solo win (``{game}``, ``{power}``,
    ``{count}``); ``by_year``: the title of SUMMARY's table of counts by year; ``column``: the
    head of the score table's column of counts."""

    won: str
    by_year: str
    column: str


SUPPLY_CENTRES = CentreWords(
    won=N_("Game '{game}' is over: {power} has won with {count} supply centres."),
    by_year=N_("Supply centres at the end of each year:"),
    column=N_("Centres"),
)
"""An ordinary game's words."""
