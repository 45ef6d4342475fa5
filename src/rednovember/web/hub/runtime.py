"""What every part of the hub shares: the store and its database threads, the games held in
memory, the other processes (web/hub/cluster.py) and the background tasks."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable, Coroutine, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ...rules import GameData
from ..store import Store
from .cluster import Nodes, Solo
from .live import Clock, LiveGame

log = logging.getLogger("rednovember.web")

T = TypeVar("T")
DB_THREADS = 4  # threads doing the database work (SQLAlchemy's pool holds 5 connections)


class Runtime:
    """The store, the game data, the live games of this process and its background work."""

    def __init__(self, store: Store, data: GameData, nodes: Nodes | None = None,
                 takeover_grace: float = 30.0, clock: Clock | None = None) -> None:
        self.store = store
        self.clock = clock or Clock()  # each LiveGame's (turn-based deadlines)
        self.takeover_grace = takeover_grace  # each LiveGame's ``grace``
        self.data = data
        self.nodes: Nodes = nodes or Solo()
        self.games: dict[str, LiveGame] = {}
        self.broken: dict[str, str] = {}  # game id -> why its stored record cannot be rebuilt
        self.closing = False
        self._pool = ThreadPoolExecutor(min(DB_THREADS, store.threads), thread_name_prefix="rn-db")
        self._tasks: set[asyncio.Task[Any]] = set()

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Runs a store call in the database threads (the event loop goes on meanwhile)."""
        return await asyncio.get_running_loop().run_in_executor(self._pool,
                                                                functools.partial(fn, *args))

    def spawn(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Runs ``work`` in the background (kept until done; a failure is logged)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background work failed", exc_info=task.exception())

    def background(self) -> list[asyncio.Task[Any]]:
        """The background tasks still running (to cancel when the server stops)."""
        return list(self._tasks)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True)


async def cancel_all(tasks: Iterable[asyncio.Task[Any] | None]) -> None:
    """Cancels the tasks (None: none) and waits until each has ended, whatever it raised."""
    running = [t for t in tasks if t is not None]
    for t in running:
        t.cancel()
    for t in running:
        with contextlib.suppress(BaseException):
            await t


__all__ = ["Runtime", "cancel_all"]
