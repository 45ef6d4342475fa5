"""The hub: every live game of this server process, assembled from its parts, each in its own
module and depending on the ones before it only:

runtime (store, threads, games held) → live (a table in memory), clock and absence → views (the
fan-out) → games (loading) → talk (chat) → writer (compare-and-set writes) → seats → away (absent
players' seats) → follower (the other processes) → deadline (turn-based tables) → driver (bots
and turn clocks) → expiry → hints → hub (this facade, and connections).

The endpoints (web/app.py, web/endpoints/) talk to the hub alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from ...rules import GameData
from ..limits import Limits
from ..mail import Mailer
from ..protocol import ProtocolError
from ..push import Pusher
from ..rates import Rates
from ..store import Store
from ..tables import DEFAULT_WAITING_EXPIRY, MIN_TURN_TIMER
from ..watchers import REFRESH, Watchers
from .away import Away
from .cluster import Nodes
from .deadline import Deadlines
from .driver import Driver
from .expiry import Expiry
from .follower import Follower
from .games import GameCache
from .hints import Hints
from .live import Clock, Connection, LiveGame, Seat
from .notices import MAIL_AFTER, Notices
from .runtime import Runtime, cancel_all
from .seats import Seating
from .talk import Talk
from .views import presence, send_states, state, summary
from .writer import Writer

log = logging.getLogger("rednovember.web")


class Hub:
    """All live games of this server process."""

    def __init__(self, store: Store, data: GameData, bot_delay: float = 0.6,
                 takeover_grace: float = 30.0, waiting_expiry: float = DEFAULT_WAITING_EXPIRY,
                 min_turn_timer: float = MIN_TURN_TIMER, nodes: Nodes | None = None,
                 limits: Limits | None = None, clock: Clock | None = None,
                 mailer: Mailer | None = None, mail_after: float = MAIL_AFTER,
                 pusher: Pusher | None = None) -> None:
        self.rt = rt = Runtime(store, data, nodes, takeover_grace, clock)
        self.store, self.data, self.games = store, data, rt.games
        self.min_turn_timer = min_turn_timer
        self.rates = Rates(store, limits or Limits.none())  # per client, in the database
        self.watchers = Watchers(store.engine, limits or Limits.none())  # in the database
        self.cache = GameCache(rt, self._kick)
        self.talk = Talk(rt)
        self.writer = Writer(rt, self.talk, self._kick)
        self.seating = Seating(rt, self.cache, self.writer, self.talk, self.rates)
        self.notices = Notices(rt, mailer, mail_after, pusher)  # emails, pushes (hub/notices.py)
        self.away = Away(rt, self.seating, self.talk, self.notices)  # absent players' seats
        self.follower = Follower(rt, self.cache, self.writer, self.talk, self.away)
        self.deadlines = Deadlines(rt, self.cache, self.writer, self.talk, self.seating,
                                   self.notices)
        self.driver = Driver(rt, self.writer, self.talk, self.away, self.deadlines, self.rates,
                             bot_delay)
        self.expiry = Expiry(rt, waiting_expiry)
        self.hints = Hints(rt, self.rates.hints)  # the advisor (web/hub/hints.py)
        self._claimer: asyncio.Task[None] | None = None
        self._watching: asyncio.Task[None] | None = None
        # what the endpoints ask of the hub
        self.db, self.spawn = rt.db, rt.spawn
        self.find, self.get, self.release = self.cache.find, self.cache.get, self.cache.release
        self.create_game, self.act, self.undo = self.writer.create_game, self.writer.act, \
            self.writer.undo
        self.apply_for = self.writer.apply_for
        self.take_seat, self.hand_to_bot = self.seating.take_seat, self.seating.hand_to_bot
        self.rematch, self.reclaim = self.seating.rematch, self.seating.reclaim
        self.rename = self.seating.rename
        self.chat, self.ping = self.talk.chat, self.talk.ping
        self.note_timeout = self.talk.note_timeout
        self.summary, self.state, self.send_states = summary, state, send_states

    def _kick(self, lg: LiveGame) -> None:
        self.driver.kick(lg)

    @property
    def closing(self) -> bool:
        return self.rt.closing

    # --- life cycle -------------------------------------------------------------------------------
    async def start(self) -> None:
        """Listen to the other processes (PostgreSQL) and delete the expired waiting tables (and
        keep doing so). Nothing is rebuilt up front: a game is rebuilt from its stored seed and
        actions when first asked for (``find``), and its bots and clock resume then, so the server
        starts in bounded time however many games the database holds (issue 9). The exception: the
        turn-based games whose deadline passed or comes within minutes (web/hub/deadline.py)."""
        await self.rt.nodes.start(self.follower.hear, self.follower.missed)
        await self.expiry.start()
        await self.deadlines.start()  # (at once: the deadlines that passed while none ran)
        if self.rt.nodes.shared:
            self._claimer = asyncio.get_running_loop().create_task(self.follower.claim_loop())
        self._watching = asyncio.get_running_loop().create_task(self._refresh_watchers())

    async def _refresh_watchers(self) -> None:
        """Keeps this process's spectators counted (web/watchers.py)."""
        while True:
            await asyncio.sleep(REFRESH)
            try:
                await self.rt.db(self.watchers.refresh, time.time())
            except Exception:  # a database hiccup: the rows live a TTL; try again next time
                log.exception("refreshing the spectators' count failed")

    async def stop(self) -> None:
        self.rt.closing = True
        await self.expiry.stop()
        await self.away.stop()
        await self.deadlines.stop()
        await self.notices.stop()
        tasks: list[asyncio.Task[None]] = self.driver.stop()
        await cancel_all([*tasks, *self.rt.background(), self._claimer, self._watching])
        with contextlib.suppress(Exception):  # else its rows lapse after a TTL
            await self.rt.db(self.watchers.forget)
        await self.rt.nodes.stop()
        self.rt.shutdown()

    def held_seat(self, lg: LiveGame, c: Connection, seat: int) -> int:
        return lg.held_seat(c, seat)

    # --- connections ------------------------------------------------------------------------------
    async def hello(self, lg: LiveGame, c: Connection, tokens: tuple[str, ...],
                    creator: str | None) -> list[int]:
        """Authenticate a connection's tokens; returns the indices of rejected tokens."""
        chat = await self.talk.history(lg)
        before = set(c.seats)
        c.seats, c.owned = {}, {}
        rejected: list[int] = []
        reclaimable: list[dict[str, int]] = []
        for i, token in enumerate(tokens):
            seat = lg.seat_for_token(token)
            if seat is not None:
                c.seats[seat] = lg.seats[seat].token_hash or ""
                continue
            bot_seat = lg.owned_bot_seat(token)
            if bot_seat is None:
                rejected.append(i)
            else:
                reclaimable.append({"token": i, "seat": bot_seat})
                c.owned[bot_seat] = lg.seats[bot_seat].token_hash or ""
        c.creator = lg.is_creator(creator)
        # a spectator is counted once, also one that said hello before with a seat's token
        # (audit, stop 64); one that now holds a seat no longer counts (holders always get in)
        spectator = not (c.seats or c.creator or reclaimable)
        if spectator and not c.watching and self.watchers.capped:
            try:
                await self.rt.db(self.watchers.join, lg.id, c.client, time.time())
            except ProtocolError:
                c.hello = False  # refused: the socket closes (4429), as a first hello's would
                self.detach(lg, c)
                raise
            c.watching = True
        elif not spectator and c.watching:
            self.detach_watcher(lg, c)
        c.hello = True
        lg.conns.add(c)
        await self.expiry.touch(lg)
        now = time.monotonic()
        for seat in before - set(c.seats):
            if not lg.connected(seat):
                lg.gone_since[seat] = now
        c.push_obj({"type": "welcome", "protocol": 1, "game": summary(lg),
                    "seats": sorted(c.seats), "spectator": not c.seats, "creator": c.creator,
                    "rejected": rejected, "chat": chat, "reclaimable": reclaimable})
        send_states(lg, c)
        if set(c.seats) != before:
            presence(lg)
            self.away.schedule(lg)
            self.rt.spawn(self.follower.announce(lg))
        return rejected

    def detach_watcher(self, lg: LiveGame, c: Connection) -> None:
        """The connection no longer counts as one of the game's spectators."""
        if c.watching:
            c.watching = False
            self.rt.spawn(self.rt.db(self.watchers.leave, lg.id, c.client))

    def detach(self, lg: LiveGame, c: Connection) -> None:
        lg.conns.discard(c)
        self.detach_watcher(lg, c)
        self.rt.spawn(self.expiry.touch(lg))
        self.cache.release(lg)
        now = time.monotonic()
        changed = False
        for seat in c.seats:
            if not lg.connected(seat):
                lg.gone_since[seat] = now
                changed = True
        if changed:
            presence(lg)
            self.away.schedule(lg)
        if c.seats:
            self.rt.spawn(self.follower.announce(lg))


__all__ = ["Connection", "Hub", "LiveGame", "Seat"]
