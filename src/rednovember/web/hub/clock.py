"""The turn timer's clock of a live game (issue 8): when the seat to move runs out of time. The
clock counts from the game's last change (stored, so it survives a restart); bot seats are not
timed. The driver (web/hub/driver.py) acts on it; the views (web/hub/views.py) show it.

A turn-based table's deadline (issue 20) likewise: each decision of a seat played by a person
must be made within ``move_deadline`` seconds of the change that put it in play, by the game's
own clock (``LiveGame.clock``); an undo buys no time. Web/hub/deadline.py stores it and acts on
it."""

from __future__ import annotations

import time
from typing import Any

from ..store import DeadlineRow
from .live import LiveGame

HANDOVER_AFTER = 3  # deadlines a seat misses in a row before the seat goes to the bot (issue 20)


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


def stamp(lg: LiveGame) -> None:
    """Sets the turn-based deadline of the decision in play, once per version: the seats that
    decided for themselves since the last one missed no deadline in a row any more."""
    if lg.due_version == lg.version:
        return
    done = len(lg.texts)
    if lg.version != lg.timeout_version:
        for actor in set(lg.actors[lg.due_actions:done]):
            lg.misses.pop(actor, None)  # (a stand-in's, -1 - seat, is no seat's own)
    for seat in [s for s in lg.misses if lg.seats[s].kind != "human"]:  # a bot's now: they
        del lg.misses[seat]  # start afresh when they take it back
    undone = done < lg.due_actions
    seat = lg.game.player_to_move
    wait = lg.settings.move_deadline
    if not (lg.settings.turn_based and wait and lg.status == "playing" and seat >= 0
            and lg.seats[seat].kind == "human"):
        lg.due = None
    elif lg.misses.get(seat, 0) >= HANDOVER_AFTER:  # due at once: the seat goes to the bot
        lg.due = lg.clock.now()
    elif lg.due is None or not (undone or done == lg.due_actions):
        # an undo buys no time, nor does a change that decides nothing (a seat handed to a bot
        # or taken back, a seat taken): the decision in play keeps its deadline
        lg.due = lg.clock.now() + wait
    lg.due_version, lg.due_actions, lg.due_stored = lg.version, done, False


def restore(lg: LiveGame, row: DeadlineRow | None) -> None:
    """The stored deadline of a game rebuilt from the database (a restart, another process's
    game taken over): if it belongs to the game's version it holds, even if already past."""
    if row is None or row.version < lg.due_version:  # (this copy knows better)
        return
    lg.misses, lg.due_actions = dict(row.misses), row.actions
    lg.due = row.due
    if row.version == lg.version:
        lg.due_version, lg.due_stored = row.version, True


def deadline_info(lg: LiveGame) -> dict[str, Any] | None:
    """A turn-based table's deadline of the decision in play, as sent in ``state`` and the
    summary: the seat, when (``at``, seconds since 1970), the seconds left, the table's seconds
    per decision and the seat's deadlines missed in a row."""
    stamp(lg)
    if lg.due is None:
        return None
    seat = lg.game.player_to_move
    return {"seat": seat, "at": round(lg.due, 3), "seconds": lg.settings.move_deadline,
            "remaining": round(max(0.0, lg.due - lg.clock.now()), 1),
            "missed": lg.misses.get(seat, 0)}


__all__ = ["HANDOVER_AFTER", "clock_info", "deadline", "deadline_info", "mark", "restore", "stamp"]
