"""The expiry of waiting tables (issue 8): a table still waiting for players that nobody touches
(no seat taken, no connection, no change) for ``waiting_expiry`` seconds is deleted, at start and
by a periodic task; its link then answers "not found"."""

from __future__ import annotations

import asyncio
import logging
import time

from ..rates import forget_old
from ..tables import DEFAULT_WAITING_EXPIRY
from .live import LiveGame
from .runtime import Runtime, cancel_all

log = logging.getLogger("rednovember.web")


class Expiry:
    """Deletes the waiting tables nobody touches."""

    def __init__(self, rt: Runtime, waiting_expiry: float = DEFAULT_WAITING_EXPIRY) -> None:
        self.rt = rt
        self.waiting_expiry = waiting_expiry
        self.sweeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Deletes the expired waiting tables, then expires the others as they age."""
        await self.expire()
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def stop(self) -> None:
        await cancel_all([self.sweeper])

    async def _sweep(self) -> None:
        interval = max(0.5, min(60.0, self.waiting_expiry / 4))
        while True:
            await asyncio.sleep(interval)
            try:
                await self.expire()
                await self.rt.db(forget_old, self.rt.store.engine, time.time())
            except Exception:  # a database hiccup: try again next time
                log.exception("expiring waiting tables failed")

    # --- expiry -----------------------------------------------------------------------------------
    async def expire(self) -> list[str]:
        """Deletes the waiting tables untouched for ``waiting_expiry`` seconds; returns their ids.
        A table somebody is connected to counts as touched."""
        cutoff = time.time() - self.waiting_expiry
        gone = []
        store, db = self.rt.store, self.rt.db
        for gid in await db(store.stale_waiting_ids, cutoff):
            lg = self.rt.games.get(gid)
            if lg is not None and lg.conns:
                await db(store.touch, gid)
                continue
            if await db(store.delete_if_stale, gid, cutoff):
                self.rt.games.pop(gid, None)
                gone.append(gid)
        if gone:
            log.info("expired %d waiting table(s)", len(gone))
        return gone

    async def touch(self, lg: LiveGame) -> None:
        """A connection came or went: a waiting table counts as touched."""
        if lg.status == "waiting":
            await self.rt.db(self.rt.store.touch, lg.id)


__all__ = ["Expiry"]
