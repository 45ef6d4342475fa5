"""Limits per client: how many games it may create and seats it may take per minute, how many of
its games may wait for players at once (and how many may wait on the whole server), how many win-
chance curves it may have computed per hour, how many My-games lookups it may make per minute
(each rebuilds up to 60 games), how many moves per minute the bots of games that no person plays
may make (those one client created, and all on the server: bots alone at a table cost a core
each and never tire), how many advisor hints it may ask for per minute (each costs up
to a second of a core), how many email addresses not yet confirmed it may give per hour (each may
send a confirmation email to a stranger), how many messages one connection and all of a client's
connections together may send, and how
many spectators' connections a game and a client take (a seat's holder always gets in). Every
refusal is ``rate_limited`` (HTTP 429, with ``Retry-After`` where waiting helps). 0: no limit.

A client is its address as uvicorn gives it (a proxy's X-Forwarded-For only when the proxy is in
``--forwarded-allow-ips``), an IPv6 address by its /64 network: one household or server gets a
whole /64, so rotating addresses inside it is still one client (:func:`client_key`).

The per-minute and per-hour counts (hints included) and the waiting tables (web/rates.py) and
the spectators (web/watchers.py) are counted in the database, so they hold however many processes
share it; a connection's messages, and a client's, are counted by the process that holds the
connections (in memory, bounded: the least recently seen clients are dropped first): what they
guard, the process's CPU, is the process's own."""

from __future__ import annotations

import ipaddress
import math
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Iterator
from contextlib import contextmanager
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
    connections_per_game: int  # spectators' connections one game takes (seat holders always)
    spectators_per_client: int = 0  # spectators' connections of one client, per game
    max_waiting_games: int = 0  # games waiting for players on the whole server
    winchances_per_hour: int = 0  # win-chance curves one client may have computed per hour
    lookups_per_minute: int = 0  # My-games lookups (POST /api/me) of one client per minute
    sockets_per_client: int = 0  # WebSockets one client holds open at once in one process
    hints_per_minute: int = 0  # advisor hints one client may ask for per minute (all its seats)
    addresses_per_hour: int = 0  # unconfirmed email addresses one client may give per hour
    client_messages_per_10s: int = 0  # WebSocket messages of all one client's connections
    # the bots' moves per minute in games no person plays (every seat a bot; web/hub/driver.py),
    # those created by one client, and all of them on the server (each move costs up to 2 s)
    bot_table_moves_per_minute: int = 0
    server_bot_table_moves_per_minute: int = 0

    @classmethod
    def none(cls) -> Limits:
        return cls(0, 0, 0, 0, 0)


class OpenSockets:
    """Each client's open WebSockets in this process, at most ``most`` (0: any number). A socket
    takes memory and a file descriptor whether or not it holds a seat, so a client that opened
    this many gets no more until one closes; each process guards its own memory and descriptors,
    so this one limit is counted per process (docs/protocol.md)."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.open: Counter[str] = Counter()

    def refusal(self, who: str) -> ProtocolError | None:
        """Why client ``who`` may not open another socket now (None: it may)."""
        if not 0 < self.most <= self.open[who]:
            return None
        return ProtocolError("rate_limited", f"you have {self.open[who]} connections open "
                             f"(at most {self.most}): close one first", "sockets", limit=self.most)

    @contextmanager
    def held(self, who: str) -> Iterator[None]:
        """Count one socket of ``who`` while the block runs (from before its handshake ends, so
        the client's next socket sees it)."""
        self.open[who] += 1
        try:
            yield
        finally:
            self.open[who] -= 1
            if self.open[who] <= 0:
                del self.open[who]


def client_key(host: str) -> str:
    """The client an address belongs to: an IPv4 address itself, an IPv6 address its /64
    network (an IPv4-mapped one its IPv4 address), anything else as given."""
    try:
        addr = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return host[:64]
    if isinstance(addr, ipaddress.IPv6Address):
        if addr.ipv4_mapped is not None:
            return str(addr.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{addr}/64", strict=False))
    return str(addr)


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
            raise too_many(self.what, self.limit, self.seconds, wait)


def too_many(what: str, limit: int, seconds: float, wait: int) -> ProtocolError:
    """The refusal of one event too many: at most ``limit`` per ``seconds``, ``wait`` to go."""
    return ProtocolError("rate_limited", f"too many {what}: at most {limit} in {seconds:g} s; "
                                         f"try again in {wait} s", "rate", limit=limit,
                         seconds=wait)


def message_window(limits: Limits) -> Window:
    """The limit of one connection's messages."""
    return Window(limits.messages_per_10s, 10.0, "messages")


def client_message_window(limits: Limits) -> Window:
    """The limit of the messages of all a client's connections in one process, whatever their
    games (each may cost a full state: a ``sync``, a ``hello``)."""
    return Window(limits.client_messages_per_10s, 10.0, "messages from your address")


__all__ = ["Limits", "Window", "client_key", "client_message_window", "message_window",
           "too_many"]
