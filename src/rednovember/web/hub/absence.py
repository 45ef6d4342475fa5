"""An absent player (issue 18): the seat to move whose player has no connection open on any server
process. Everyone sees it at once: the summary, every ``state`` and every ``seats`` message carry
``away`` (:func:`away_info`): the seat, its player's name, the seconds until anyone seated (or the
creator) may give the seat to a bot (the game's takeover grace since the player left:
``handover_in``) and, under the table setting ``away_bot``, until the server does so by itself
(``bot_in``, web/hub/away.py). Both count from when the message was made, so a page counts down
from the server's clocks."""

from __future__ import annotations

import math
import time
from typing import Any

from .clock import mark
from .live import LiveGame


def _up(seconds: float) -> float:
    """Seconds left, rounded up to a tenth (a page never counts down before the server does)."""
    return max(0.0, math.ceil(seconds * 10) / 10)


def unconnected(lg: LiveGame) -> int | None:
    """The human seat to move if its player has no connection open on any process, at any pace
    (its email notice goes then: web/hub/notices.py), else None."""
    seat = lg.game.player_to_move
    if lg.status != "playing" or seat < 0 or lg.seats[seat].kind != "human" \
            or lg.connected(seat):
        return None
    return seat


def absent(lg: LiveGame) -> int | None:
    """The seat to move if its player is gone (no connection on any process), else None. At a
    turn-based table nobody is expected to stay (web/hub/deadline.py)."""
    return None if lg.settings.turn_based else unconnected(lg)


def seen(lg: LiveGame, seat: int) -> None:
    """The seat's player just acted with no connection open (over HTTP, maybe on another
    process): they are at the table, and the grace before anyone may give their seat to a bot
    counts from now (audit, stop 64: an HTTP player's seat could be taken between two moves)."""
    if 0 <= seat < len(lg.seats) and lg.seats[seat].kind == "human" and not lg.connected(seat):
        lg.gone_since[seat] = time.monotonic()


def gone_for(lg: LiveGame, seat: int) -> float:
    """Seconds since the seat's player left (as Seating.hand_to_bot counts them)."""
    return time.monotonic() - lg.gone_since.get(seat, 0.0)


def handover_in(lg: LiveGame, seat: int) -> float | None:
    """Seconds until anyone seated (or the creator) may give a person's seat to a bot: 0 once
    its player has been gone for the grace; None while they are connected (then only they may),
    for a free seat and for a bot's."""
    if lg.seats[seat].kind != "human" or lg.connected(seat):
        return None
    return _up(lg.grace - gone_for(lg, seat))


def bot_at(lg: LiveGame, seat: int) -> float | None:
    """When (time.time()) the server gives the absent seat to a bot, or None: it never does. The
    seat's decision must have waited ``away_bot`` seconds (counted from the game's last change,
    which is stored: it survives a restart) and its player been gone for the grace."""
    wait = lg.settings.away_bot
    if not wait:
        return None
    mark(lg)
    left = time.time() - gone_for(lg, seat)
    return max(lg.changed_at + wait, left + lg.grace)


def away_info(lg: LiveGame) -> dict[str, Any] | None:
    """``away`` as sent in the summary, ``state`` and ``seats`` (null: nobody to wait for)."""
    seat = absent(lg)
    if seat is None:
        return None
    at = bot_at(lg, seat)
    return {"seat": seat, "name": lg.seats[seat].name,
            "handover_in": handover_in(lg, seat),
            "bot_in": None if at is None else _up(at - time.time())}


def takes_over(lg: LiveGame) -> bool:
    """Whether a bot takes the seat to move now that its turn timer ran out: the table gives
    absent players' seats to bots and this player has been gone for the grace."""
    seat = absent(lg)
    return (seat is not None and bool(lg.settings.away_bot)
            and gone_for(lg, seat) >= lg.grace)


__all__ = ["absent", "away_info", "bot_at", "gone_for", "handover_in", "seen", "takes_over",
           "unconnected"]
