"""Replays: any step of a game rebuilt from its seed and action log (``GET /api/games/{id}/replay/
{step}``), for the replay viewer at ``/g/{id}/replay``. Anyone with the game's link may replay it,
a running game included, with a spectator's rights; once the game is over every hand is shown
(Mad Gnomes hides them only while the game runs). Deck orders are never shown."""

from __future__ import annotations

from typing import Any

from ..rules.serialize import replay
from ..rules.view import log_for
from .hub import LiveGame
from .protocol import ProtocolError, jsonable, result_info
from .seatcode import seat_from


def replay_step(lg: LiveGame, step: int) -> dict[str, Any]:
    """The game after its first ``step`` actions, and what the last of them did (its log)."""
    g = lg.game
    steps = len(g.history)
    if not 0 <= step <= steps:
        raise ProtocolError("not_found", f"this game has steps 0..{steps}, not {step}")
    over = lg.status == "over"
    at = replay(g.data, g.config, g.origin, g.history[:max(0, step - 1)])
    start = 0
    if step:  # the log from here on is what the step's own action did
        start = len(at.log)
        at.apply(g.history[step - 1])
    view = at.view(None)
    if over:
        for gs, gn in zip(view["gnomes"], at.gnomes, strict=True):
            gs["hand"] = [at.data.items[k].id for k in gn.hand]
    return {
        "game": lg.id, "step": step, "steps": steps, "over": over,
        "actor": seat_from(lg.actors[step - 1]) if 0 < step <= len(lg.actors) else None,
        "view": view, "result": result_info(at),
        "log": jsonable(at.log[start:] if over else log_for(at, None, start)),
    }


__all__ = ["replay_step"]
