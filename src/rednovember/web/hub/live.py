"""What the server holds of a live game: its seats, the connections (browser tabs) watching it,
and the engine state they share (the hub's writer, web/hub/writer.py, changes them)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ...bots import Bot
from ...rules import Config, Game
from .. import security
from ..chat import RateLimit
from ..limits import Window
from ..protocol import ProtocolError
from ..store import DeadlineRow, SeatRow
from ..tables import TableSettings

OUTBOX_LIMIT = 256  # unsent messages per connection before it is dropped (close 4008)
PRESENCE_FRESH = 15.0  # seconds another node's word on who is connected stays true


class Clock:
    """The time of the turn-based deadlines (web/hub/deadline.py): the wall clock; a test gives
    the hub another, to move days on without waiting."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


@dataclass
class Seat:
    seat: int
    gnomes: list[int]
    colours: list[str]
    kind: str = "free"  # free / human / bot
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None

    def row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.name, self.bot, self.token_hash)


class Connection:
    """One WebSocket (one browser tab): the seats it holds and its queue of outgoing messages."""

    def __init__(self, send: Callable[[str], Awaitable[None]], client: str = "") -> None:
        self._send = send  # the WebSocket's send_text
        self.client = client  # who opened it (web/limits.client_key)
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.seats: dict[int, str] = {}  # seat -> token hash it was authenticated with
        self.owned: dict[int, str] = {}  # the same for bot seats its players may take back
        self.creator = False
        self.hello = False
        self.watching = False  # counted among the game's spectators (web/watchers.py)
        self.log_sent: dict[int | None, int] = {}
        self.close_code: int | None = None
        self.chat_limit = RateLimit()
        self.limit = Window(0, 10.0, "messages")  # all its messages (set by the server)
        # the messages of all its client's connections in this process (one Window, shared)
        self.client_limit = Window(0, 10.0, "messages")
        self.ping_limit = RateLimit(name="ping")

    @property
    def views(self) -> list[int | None]:
        if not self.seats:
            return [None]
        return [*sorted(self.seats)]

    def push(self, text: str) -> None:
        if self.close_code is not None:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.close_code = 4008  # too slow: drop what is queued and close (it may reconnect)
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(text)

    def push_obj(self, obj: dict[str, Any]) -> None:
        self.push(json.dumps(obj, separators=(",", ":")))

    async def writer(self) -> None:
        while True:
            item = await self.outbox.get()
            if item is None:
                return
            await self._send(item)


@dataclass
class LiveGame:
    id: str
    config: Config
    game: Game
    seats: list[Seat]
    version: int
    status: str
    created: float
    creator_hash: str
    actors: list[int] = field(default_factory=list)  # who made each action (hub/standins.py)
    texts: list[str] = field(default_factory=list)  # each action as stored
    conns: set[Connection] = field(default_factory=set)
    bots: dict[int, tuple[str, Bot]] = field(default_factory=dict)  # seat -> (name, bot)
    gone_since: dict[int, float] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    chat: list[dict[str, Any]] | None = None  # the last chat messages, loaded when first asked
    # seat -> its player's name when the seat last went to a bot (the chat's to_bot notes): the
    # name the seat's owner chats under, takes it back with and plays the rematch under
    owners: dict[int, str] = field(default_factory=dict)
    log_marks: list[int] | None = None  # the log's length before each action (hub/standins.py)
    rematch: str | None = None  # the id of the game that follows this one (same seats)
    settings: TableSettings = field(default_factory=TableSettings)  # listed, turn timer
    changed_at: float = 0.0  # time.time() of the last change (the turn timer counts from it)
    clock_version: int = -1  # the version changed_at belongs to
    # changed_at before each of the last actions (web/hub/writer.py): an undo puts the clock
    # back to when the position it restores began, so a move and its undo buy no time
    clock_before: list[float] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one change at a time
    grace: float = 30.0  # seconds a player must be gone before another may give their seat away
    remote: dict[str, tuple[frozenset[int], float]] = field(default_factory=dict)
    # ^ other nodes' connected seats, with when they said so (web/hub/cluster.py)
    # a turn-based table's deadline (web/hub/clock.py: stamp): when the decision of the game at
    # due_version (due_actions actions long) must be made; the seats' deadlines missed in a row;
    # the version the server's own decision for a seat made (not the player's: no reset)
    clock: Clock = field(default_factory=Clock)
    due: float | None = None
    due_version: int = -1
    due_actions: int = 0
    due_stored: bool = False
    misses: dict[int, int] = field(default_factory=dict)
    timeout_version: int = -1
    # (what, seat) -> the seat's own limit of chat lines, board pings and hints, shared by all
    # its connections in this process: a player who opens more tabs gets no more of them
    seat_limits: dict[tuple[str, int], RateLimit] = field(default_factory=dict)
    client: str = ""  # who created it (web/limits.client_key): its bots' budget alone (driver.py)

    def deadline_row(self) -> DeadlineRow | None:
        """The deadline as stored (None: no decision has one)."""
        if self.due is None:
            return None
        return DeadlineRow(self.due_version, self.due_actions, self.due, dict(self.misses))

    def check_seat(self, seat: int) -> None:
        """``not_found`` unless this game has a seat ``seat``."""
        if not 0 <= seat < len(self.seats):
            raise ProtocolError("not_found", f"no seat {seat}: this game has {len(self.seats)}",
                                "no_seat", seat=seat, count=len(self.seats))

    def connected(self, seat: int) -> bool:
        s = self.seats[seat]
        if s.kind == "bot":
            return True
        return seat in self.local_seats() or seat in self.remote_seats()

    def local_seats(self) -> frozenset[int]:
        """The seats held by this node's connections."""
        return frozenset(seat for c in self.conns for seat in c.seats)

    def remote_seats(self, now: float | None = None) -> frozenset[int]:
        """The seats other nodes said (recently) their connections hold."""
        if not self.remote:
            return frozenset()
        now = time.monotonic() if now is None else now
        return frozenset(seat for seats, at in self.remote.values()
                         if now - at < PRESENCE_FRESH for seat in seats)

    def holds(self, c: Connection, seat: int) -> bool:
        """Whether the connection holds the seat with the seat's current (human) token."""
        s = self.seats[seat] if 0 <= seat < len(self.seats) else None
        return s is not None and s.kind == "human" and c.seats.get(seat) == s.token_hash

    def seat_limit(self, what: str, seat: int, burst: int, window: float) -> RateLimit:
        """The limit of a seat's chat lines, pings or hints (all its connections together)."""
        lim = self.seat_limits.get((what, seat))
        if lim is None:
            lim = self.seat_limits[(what, seat)] = RateLimit(burst, window, what)
        return lim

    def held_seat(self, c: Connection, seat: int) -> int:
        """The seat, if this connection holds it (its token still valid)."""
        if self.holds(c, seat):
            return seat
        c.seats.pop(seat, None)
        if not c.seats:
            raise ProtocolError("unauthorised", "this connection holds no seat token (spectator): "
                                                "take a seat first", "spectator")
        raise ProtocolError("forbidden", f"this connection holds no token for seat {seat}",
                            "no_token_for_seat", seat=seat)

    def held_seats(self, c: Connection) -> set[int]:
        """The seats this connection holds with their current tokens."""
        return {seat for seat in list(c.seats) if self.holds(c, seat)}

    def owned_seats(self, c: Connection) -> set[int]:
        """The bot seats this connection's players handed over and may still take back."""
        return {seat for seat, digest in list(c.owned.items())
                if self.seats[seat].kind == "bot" and self.seats[seat].token_hash == digest}

    def owned_bot_seat(self, token: str | None) -> int | None:
        """The bot seat this token's player handed over (or lost) to a bot, if any."""
        if not token or not security.plausible_token(token):
            return None
        digest = security.hash_token(token)
        for s in self.seats:
            if s.kind == "bot" and s.token_hash == digest:
                return s.seat
        return None

    def seat_for_token(self, token: str | None) -> int | None:
        if not token or not security.plausible_token(token):
            return None
        digest = security.hash_token(token)
        for s in self.seats:
            if s.kind == "human" and s.token_hash == digest:
                return s.seat
        return None

    def is_creator(self, token: str | None) -> bool:
        return bool(token) and security.matches(token or "", self.creator_hash)


__all__ = ["OUTBOX_LIMIT", "Clock", "Connection", "LiveGame", "Seat"]
