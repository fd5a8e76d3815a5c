"""An email judge for the game of Diplomacy."""

__version__ = "0.1.0"
