"""Application use cases of the councils variant (seed 003, issue 17).

``formation`` turns the players who joined a council game into councils at
the start (seeded, recorded) and draws the spies; ``permissions`` is what
the order, draw, concede and press handlers ask before acting for a council
member; ``press_routing`` delivers press between council members. Modules
of the elections and treason rules live here too.

The flow reaches them through ``council_hooks``, the councils' implementation
of the game hooks (:mod:`judge.app.hooks.game_hooks`), which a game has only
when its settings say councils play it: ordinary games pay no query.
"""
