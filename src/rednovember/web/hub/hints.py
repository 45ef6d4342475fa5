"""The advisor on the server (issue 10): a seat's WebSocket ``hint`` request (docs/protocol.md).

- Only the seat to move, at its turn's moves (a hatch just opened included), and only when the
  table's ``hints`` setting is on (web/tables.py ``TableSettings``); spectators and other seats
  are refused.
- The answer goes to the asking connection alone: ``hint`` messages with ``status`` ``thinking``
  (with ``progress`` 0..1, a few times a second) and then ``done`` with the plans; never broadcast.
- One hint at a time per connection, at most :data:`BURST` per :data:`WINDOW` seconds per seat
  (all its connections in the process together) and per connection, at most
  ``--limit-hints-per-minute`` per client (all its games and seats, counted in the database: it
  holds across processes; ``rate_limited``), and at most :data:`THINKERS` computed at once by
  the process (``busy``).
- The thinking runs in a worker thread (``asyncio.to_thread``) on a copy of the game taken under
  the game's lock; the lock is not held while thinking, so the game and every other game go on.
- The first hint of a seat is recorded in the table settings (``hints_used``, stored in the
  settings JSON of ``rn_table_settings``): the end screen says who used hints.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import weakref
from dataclasses import replace
from typing import Any

from sqlalchemy import insert, update

from ...analysis.advisor import DEFAULT_BUDGET_S, Advice, AdvisorError, advise
from ...rules import Game
from ...rules.state import MOVE, OPENED
from ..chat import RateLimit
from ..protocol import ProtocolError, jsonable
from ..rates import SharedWindow
from ..store import Store, settings_table
from .live import Connection, LiveGame
from .runtime import Runtime

log = logging.getLogger("rednovember.web")

BURST = 6  # hints per seat (all its connections) and per connection ...
WINDOW = 60.0  # ... in this many seconds
THINKERS = 2  # hints computed at once by the whole server
PROGRESS_EVERY = 0.2  # seconds between two progress messages


def store_settings(store: Store, game_id: str, listed: bool, settings: dict[str, Any]) -> None:
    """Writes a game's settings JSON (a game created before the settings table gets its row)."""
    text = json.dumps(settings)
    with store.engine.begin() as c:
        done = c.execute(update(settings_table).where(settings_table.c.game_id == game_id)
                         .values(settings=text))
        if not done.rowcount:
            c.execute(insert(settings_table).values(game_id=game_id, listed=listed,
                                                    settings=text))


class Hints:
    """The advisor desk: checks, the worker threads, the per-connection limits."""

    def __init__(self, rt: Runtime, per_client: SharedWindow | None = None,
                 budget_s: float = DEFAULT_BUDGET_S, thinkers: int = THINKERS) -> None:
        self.rt = rt
        self.per_client = per_client  # the hints of a client a minute (web/rates.py)
        self.budget_s = budget_s
        self.thinking = asyncio.Semaphore(thinkers)
        self.waiting = 0
        self.thinkers = thinkers
        self.busy: weakref.WeakSet[Connection] = weakref.WeakSet()  # a hint under way
        self.limits: weakref.WeakKeyDictionary[Connection, RateLimit] = \
            weakref.WeakKeyDictionary()
        self.given = 0  # hints answered (for tests and the curious)

    def _limit(self, c: Connection) -> RateLimit:
        lim = self.limits.get(c)
        if lim is None:
            lim = self.limits[c] = RateLimit(BURST, WINDOW, "hint")
        return lim

    def check(self, lg: LiveGame, c: Connection, seat: int) -> int:
        """The seat, if this connection may ask for its hint now (else a ProtocolError)."""
        if not lg.settings.hints:
            raise ProtocolError("forbidden", "hints are off at this table", "hints_off")
        seat = lg.held_seat(c, seat)
        if lg.status != "playing" or lg.game.result is not None:
            raise ProtocolError("game_over" if lg.game.result is not None else "not_started",
                                "a hint is for a game under way")
        g = lg.game
        if g.player_to_move != seat or g.phase not in (MOVE, OPENED):
            raise ProtocolError("not_your_turn", "a hint is for the seat to move, at its turn's "
                                                 "moves", "not_to_move")
        if c in self.busy:
            raise ProtocolError("rate_limited", "one hint at a time: the last one is still "
                                                "being thought about", "hint_under_way")
        return seat

    def start(self, lg: LiveGame, c: Connection, seat: int, rid: str | int | None) -> None:
        """A ``hint`` request: checked now (a refusal raises, as for any message), then thought
        about in the background, so the connection's other messages go on meanwhile."""
        seat = self.check(lg, c, seat)
        if self.waiting >= 4 * self.thinkers:
            raise ProtocolError("busy", "the advisor is busy with other games: try again soon")
        lg.seat_limit("hint", seat, BURST, WINDOW).check()  # all the seat's connections
        self._limit(c).check()
        self.busy.add(c)
        self.waiting += 1
        self.rt.spawn(self._answer(lg, c, seat, rid))

    async def _answer(self, lg: LiveGame, c: Connection, seat: int,
                      rid: str | int | None) -> None:
        try:
            await self._think_and_send(lg, c, seat, rid)
        except ProtocolError as exc:
            c.push_obj({"type": "error", **exc.to_dict(), "id": rid, "ref": "hint"})
        except Exception:
            log.exception("a hint failed in game %s", lg.id)
            c.push_obj({"type": "error", "code": "internal", "id": rid, "ref": "hint",
                        "message": "the hint could not be computed; nothing changed"})
        finally:
            self.busy.discard(c)
            self.waiting -= 1

    async def _think_and_send(self, lg: LiveGame, c: Connection, seat: int,
                              rid: str | int | None) -> None:
        if self.per_client is not None:  # (a refusal is answered as an error of the request)
            await self.rt.db(self.per_client.check, c.client, time.time())
        async with lg.lock:  # a consistent copy: no change is half made
            self.busy.discard(c)
            try:
                seat = self.check(lg, c, seat)
            finally:
                self.busy.add(c)
            game = lg.game.copy(keep_log=False)
            version = lg.version
        loop = asyncio.get_running_loop()
        base = {"type": "hint", "id": rid, "game": lg.id, "seat": seat, "version": version}
        c.push_obj({**base, "status": "thinking", "progress": 0.0})
        start = time.monotonic()
        last = [start]

        def progress(_done: int, _total: int) -> None:  # in the worker thread
            now = time.monotonic()
            if now - last[0] >= PROGRESS_EVERY:
                last[0] = now
                share = min(0.99, (now - start) / max(0.01, self.budget_s))
                loop.call_soon_threadsafe(c.push_obj, {**base, "status": "thinking",
                                                       "progress": round(share, 2)})

        try:
            async with self.thinking:
                advice = await asyncio.to_thread(self._think, game, seat, progress)
        except AdvisorError as exc:
            raise ProtocolError("not_your_turn", str(exc), exc.code) from None
        self.given += 1
        self.busy.discard(c)  # before the answer: the client may ask again as soon as it has it
        c.push_obj({**base, "status": "done", "progress": 1.0,
                    "stale": lg.version != version, **jsonable(advice.to_dict(game))})
        await self.record(lg, seat)

    def _think(self, game: Game, seat: int, progress: Any) -> Advice:
        return advise(game, seat, budget_s=self.budget_s, seed=len(game.history),
                      progress=progress)

    async def record(self, lg: LiveGame, seat: int) -> None:
        """Notes that ``seat`` used a hint (once per seat), in the stored settings."""
        if seat in lg.settings.hints_used:
            return
        async with lg.lock:
            if seat in lg.settings.hints_used:
                return
            lg.settings = replace(lg.settings, hints_used=(*lg.settings.hints_used, seat))
            try:
                await self.rt.db(store_settings, self.rt.store, lg.id, lg.settings.listed,
                                  lg.settings.stored())
            except Exception:  # the hint was given; only the note is lost
                log.exception("storing the hints used in game %s failed", lg.id)


__all__ = ["BURST", "Hints", "THINKERS", "WINDOW", "store_settings"]
