"""The pure rules of the Renaissance variant with money, garrisons and sieges (issue 33).

Its board is a variant file like any other (``judge/variants/machiavelli/``) read as a
:class:`~judge.core.geography.GameMap`, plus what only this game has: cities (fortified or
not, ports, their income), fortresses, home countries that include provinces without a
city, garrisons and autonomous garrisons, treasuries and the straits a fleet holds
(:mod:`judge.core.machiavelli.board`). Functions of data only, like
:mod:`judge.core.councils`: nothing here touches the database, the clock or mail.
"""
