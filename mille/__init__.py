"""mille: BSD's Mille Bornes, you against the computer, in a terminal."""

__version__ = "1.0.0"
