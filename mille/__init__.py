"""mille: Mille Bornes in a terminal (BSD's game, classic Mille Bornes and Mile by
Mile), against the computer."""

__version__ = "2.0.0"
