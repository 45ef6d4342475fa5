"""The live server: every game in play on this process, split into parts that depend on each other
one way (the order is in web/hub/hub.py)."""

from __future__ import annotations

from .hub import Hub
from .live import Connection, LiveGame, Seat

__all__ = ["Connection", "Hub", "LiveGame", "Seat"]
