"""The pure rules of the Renaissance variant with money, garrisons and sieges (issue 33).

Its board is a variant file like any other (``judge/variants/machiavelli/``) read as a
:class:`~judge.core.geography.GameMap`, plus what only this game has (:mod:`.board`: cities,
fortified or not, ports and their income, fortresses, home countries with their cityless
provinces, garrisons and autonomous garrisons, treasuries, the straits). The year
(:mod:`.year`), a campaign's moves with garrisons, sieges, conversions, straits and control,
its retreats and the end of a campaign (:mod:`.campaign`), the basic game's adjustments
(:mod:`.adjustments`), money: income, upkeep, the bank, gifts, expenses and bribes
(:mod:`.money`, what it leaves on the board in :mod:`.treasury`), the fate of an assassinated
power (:mod:`.assassination`), the master's options (:mod:`.options`), the game's own orders
(:mod:`.orders`) and its positions as JSON (:mod:`.serialization`). Functions of data only, like
:mod:`judge.core.councils`: nothing here touches the database, the clock or mail.
"""
