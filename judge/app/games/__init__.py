"""A game's life: creation, joining, dealing the powers and the first phase, the masters' powers, draws
and the end of the game.
"""
