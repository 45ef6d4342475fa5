"""Red November: a faithful digital edition of the cooperative board game."""

__version__ = "0.1.0"
