"""Limits per client (its IP address, or the proxy's X-Forwarded-For when the proxy is trusted):
how many games it may create and seats it may take per minute, how many of its games may wait for
players at once, how many messages one connection may send, and how many connections one game
takes. Every refusal is ``rate_limited`` (HTTP 429) with the seconds to wait. 0 means no limit.

Counts live in this process's memory: a restart forgets them, which is harmless, and their memory
is bounded (the least recently seen clients are dropped first)."""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from .protocol import ProtocolError

MAX_CLIENTS = 10_000  # clients remembered per limit


@dataclass(frozen=True)
class Limits:
    """Each limit, 0 for none (the defaults of ``rednovember serve``: web/options.LIMITS)."""

    games_per_minute: int
    seats_per_minute: int
    waiting_games_per_client: int
    messages_per_10s: int
    connections_per_game: int

    @classmethod
    def none(cls) -> Limits:
        return cls(0, 0, 0, 0, 0)


@dataclass
class Window:
    """At most ``limit`` events per ``seconds`` for each key (sliding windows)."""

    limit: int
    seconds: float
    what: str
    keys: OrderedDict[str, deque[float]] = field(default_factory=OrderedDict)

    def wait(self, key: str, now: float | None = None) -> int:
        """0 when the event is admitted (and counted), else the whole seconds until it would be."""
        if self.limit <= 0:
            return 0
        now = time.monotonic() if now is None else now
        times = self.keys.pop(key, None) or deque()
        while times and now - times[0] > self.seconds:
            times.popleft()
        self.keys[key] = times  # most recently seen last
        if len(self.keys) > MAX_CLIENTS:
            self.keys.popitem(last=False)
        if len(times) >= self.limit:
            return max(1, math.ceil(self.seconds - (now - times[0])))
        times.append(now)
        return 0

    def check(self, key: str, now: float | None = None) -> None:
        wait = self.wait(key, now)
        if wait:
            raise ProtocolError("rate_limited", f"too many {self.what}: at most {self.limit} in "
                                                f"{self.seconds:g} s; try again in {wait} s",
                                "rate", limit=self.limit, seconds=wait)


class ClientLimits:
    """The limits of one server process."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.games = Window(limits.games_per_minute, 60.0, "new games")
        self.seats = Window(limits.seats_per_minute, 60.0, "seats taken")
        # a lesson's play or solution (/api/learn): as many as one connection's messages
        self.learn = Window(limits.messages_per_10s, 10.0, "lesson requests")
        self.waiting: dict[str, set[str]] = {}  # client -> its games still waiting

    def new_game(self, client: str, waiting: Callable[[str], bool]) -> None:
        """Before ``client`` creates a game; ``waiting(id)``: that game still waits for players."""
        cap = self.limits.waiting_games_per_client
        mine = {gid for gid in self.waiting.get(client, ()) if waiting(gid)}
        self.waiting[client] = mine
        if cap > 0 and len(mine) >= cap:
            raise ProtocolError("rate_limited", f"you have {len(mine)} games waiting for players "
                                                f"(at most {cap}): start or finish one first",
                                "waiting_games", limit=cap)
        self.games.check(client)

    def created(self, client: str, game_id: str) -> None:
        if self.limits.waiting_games_per_client > 0:
            self.waiting.setdefault(client, set()).add(game_id)

    def connection(self, count: int) -> None:
        cap = self.limits.connections_per_game
        if cap > 0 and count >= cap:
            raise ProtocolError("rate_limited", f"this game has {count} connections (at most "
                                                f"{cap})", "connections", limit=cap)


def message_window(limits: Limits) -> Window:
    """The limit of one connection's messages."""
    return Window(limits.messages_per_10s, 10.0, "messages")


__all__ = ["ClientLimits", "Limits", "Window", "message_window"]
