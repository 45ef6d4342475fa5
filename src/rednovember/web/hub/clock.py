"""The turn timer's clock of a live game (issue 8): when the seat to move runs out of time. The
clock counts from the game's last change (stored, so it survives a restart); bot seats are not
timed. The driver (web/hub/driver.py) acts on it; the views (web/hub/views.py) show it."""

from __future__ import annotations

import time
from typing import Any

from .live import LiveGame


def mark(lg: LiveGame) -> None:
    """A new version is a change: the clock of the decision in play starts now. (Called before
    the change is broadcast as well as when it is scheduled.)"""
    if lg.version != lg.clock_version:
        lg.clock_version = lg.version
        lg.changed_at = time.time()


def deadline(lg: LiveGame) -> float | None:
    """When the seat to move runs out of time (time.time() seconds), or None: no clock."""
    mark(lg)
    timer = lg.settings.turn_timer
    if not timer or lg.status != "playing":
        return None
    seat = lg.game.player_to_move
    if seat < 0 or lg.seats[seat].kind != "human":
        return None
    return lg.changed_at + timer


def clock_info(lg: LiveGame) -> dict[str, Any] | None:
    """The clock of the decision in play, as sent in ``state`` and the summary."""
    end = deadline(lg)
    if end is None:
        return None
    return {"seat": lg.game.player_to_move, "seconds": lg.settings.turn_timer,
            "remaining": round(max(0.0, end - time.time()), 2)}


__all__ = ["clock_info", "deadline", "mark"]
