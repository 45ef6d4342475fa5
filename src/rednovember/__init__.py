"""Red November: a faithful digital edition of the cooperative board game."""

from ._engine import choose as _choose_engine

__version__ = "0.1.0"

_choose_engine()  # the compiled rules engine, or the pure one (REDNOVEMBER_PURE=1): _engine.py
