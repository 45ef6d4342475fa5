"""The win-chance curve of a finished game for the replay viewer (``GET /api/games/{id}/
winchance``): :func:`rednovember.analysis.turning.analyse` from a spectator's view, computed once
per finished game with the server's fixed number of rollouts (``--winchance-rollouts``), in a
worker process (never on the server's event loop, and never holding its GIL), then stored in the
database (any process answers from it) and kept in memory, as a finished game never changes.

A game still running is refused (409 ``not_over``): its curve would need the hidden cards of no
seat, but its future is still being played. The first request starts the computation and answers
202 ``{"status": "computing", "progress": …}``; the client asks again until the answer (200) is
there. ``progress`` is ``{"done": positions, "total": positions}`` once the worker is on this
game's curve (read from an array the worker shares with the server), else null. Starting one
counts against the client's ``winchances_per_hour`` (web/rates.py); asking again is free. One
worker process computes one game at a time; at most :data:`MAX_PENDING` games wait (then 503
``busy``). A worker that dies (killed, out of memory) is replaced at the next request.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from ..analysis.turning import ANALYSE_ROLLOUTS, analyse
from ..rules.serialize import from_dict, to_dict
from .hub import LiveGame
from .protocol import ProtocolError, jsonable
from .store import winchance_table

# rollouts per point by default: ``rednovember analyse``'s, so a game's curve in the replay viewer
# is the one ``analyse SAVE`` prints (the same seed and view); about 8 s of one core per game
WEB_ROLLOUTS = ANALYSE_ROLLOUTS
MAX_WEB_ROLLOUTS = 200  # the most --winchance-rollouts may ask
CACHE_GAMES = 128
MAX_PENDING = 8
SEED = 0
T = TypeVar("T")
Db = Callable[..., Awaitable[Any]]  # the hub's database threads (web/hub/runtime.Runtime.db)


PARENT_CHECK_S = 0.5  # how often the worker looks whether the server still runs


def watch_parent(parent: int) -> None:
    """Ends the worker as soon as the server that started it is gone (even killed with SIGKILL,
    which lets it no word to say): else a long computation would outlive it."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


# The worker's progress, shared with the server: [sequence, job, positions done, positions in all]
# of the curve it computes now (a shared array: the server reads it without asking the worker).
# No lock (a lock is a named semaphore, which a stopping server leaks): the worker makes the
# sequence odd while it writes, and the server keeps a reading only if the sequence was even and
# unchanged around it (a sequence lock).
_progress: Any = None


def read_progress(shared: Any) -> tuple[int, int, int] | None:
    """The (job, done, total) the worker last wrote into ``shared``; None if it was writing."""
    for _ in range(3):
        before = shared[0]
        job, done, total = shared[1:4]
        if before % 2 == 0 and shared[0] == before:
            return job, done, total
    return None


def start_worker(parent: int, progress: Any = None) -> None:
    """The worker's initializer: watch the server, and report progress into ``progress``."""
    global _progress
    _progress = progress
    watch_parent(parent)


def compute(save: dict[str, Any], rollouts: int, job: int = 0) -> dict[str, Any]:
    """The curve and turning points of a finished game given as its save (rules/serialize: the
    compiled engine's objects do not pickle), JSON-ready (runs in the worker)."""
    game = from_dict(save)

    def report(done: int, total: int) -> None:
        if _progress is not None:
            _progress[0] += 1
            _progress[1:4] = [job, done, total]
            _progress[0] += 1

    report(0, 0)
    result = analyse(game, None, rollouts=rollouts, seed=SEED, progress=report)
    return jsonable(result.to_dict())  # type: ignore[no-any-return]


def load_curve(engine: Engine, game_id: str, actions: int) -> dict[str, Any] | None:
    """The stored curve of a game of ``actions`` actions, if any."""
    with engine.connect() as c:
        text = c.execute(select(winchance_table.c.curve).where(
            winchance_table.c.game_id == game_id,
            winchance_table.c.actions == actions)).scalar()
    return None if text is None else dict(json.loads(text))


def store_curve(engine: Engine, game_id: str, actions: int, curve: dict[str, Any]) -> None:
    """Keeps a computed curve (another process may have stored it first: then that one)."""
    try:
        with engine.begin() as c:
            c.execute(winchance_table.insert().values(game_id=game_id, actions=actions,
                                                      curve=json.dumps(curve)))
    except IntegrityError:
        pass


class WinChanceService:
    """Curves per (game, number of actions), computed off the event loop, stored once."""

    def __init__(self, rollouts: int = WEB_ROLLOUTS, executor: Executor | None = None,
                 limit: int = CACHE_GAMES) -> None:
        self.rollouts = rollouts
        self._executor = executor
        self.limit = limit
        self.done: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self.pending: dict[tuple[str, int], asyncio.Future[dict[str, Any]]] = {}
        self.failed: set[tuple[str, int]] = set()
        self.computed = 0
        self.jobs: dict[tuple[str, int], int] = {}  # pending curve -> its job number
        self.started = 0  # curves asked of the worker (the last job's number)
        self._shared: Any = None  # the worker's progress (see compute)

    def executor(self) -> Executor:
        if self._executor is None:  # a fresh interpreter: forking a threaded server is unsafe
            spawn = multiprocessing.get_context("spawn")
            self._shared = spawn.Array("q", 4, lock=False)
            self._executor = ProcessPoolExecutor(1, mp_context=spawn, initializer=start_worker,
                                                 initargs=(os.getpid(), self._shared))
        return self._executor

    def progress(self, lg: LiveGame) -> dict[str, int] | None:
        """How far the worker is with ``lg``'s curve: positions ``done`` of ``total``; None
        while it waits for the worker (or the worker cannot say)."""
        job = self.jobs.get((lg.id, len(lg.game.history)))
        if job is None or self._shared is None:
            return None
        read = read_progress(self._shared)
        if read is None:
            return None
        now, done, total = read
        return {"done": done, "total": total} if now == job and total else None

    def close(self) -> None:
        """Stop the worker: a curve being computed is abandoned (the server is stopping)."""
        if self._executor is not None:
            workers = list(getattr(self._executor, "_processes", {}).values())
            self._executor.shutdown(wait=False, cancel_futures=True)
            for proc in workers:  # else the exit would wait for the computation to finish
                proc.terminate()
            self._executor.shutdown(wait=True)  # the worker is gone: its queues are let go
            self._executor = None


    async def get(self, lg: LiveGame, db: Db, engine: Engine,
                  admit: Callable[[], Awaitable[None]]) -> dict[str, Any] | None:
        """The curve of ``lg``, or None while it is being computed (the computation is started
        by the first call, once ``admit`` lets the client start one). ``not_over`` (409) while
        the game runs."""
        if lg.status != "over" or lg.game.result is None:
            raise ProtocolError("not_over", "the win chance of a game is shown once it is over",
                                lg.status)
        key = (lg.id, len(lg.game.history))
        hit = self.done.get(key)
        if hit is None and key not in self.pending:
            stored = await db(load_curve, engine, *key)
            if stored is not None:
                self._keep(key, {"game": lg.id, "status": "done", **stored})
                hit = self.done[key]
        if hit is not None:
            self.done.move_to_end(key)
            return hit
        if key in self.failed:
            raise ProtocolError("internal", "the win chance of this game could not be computed")
        if key not in self.pending:
            if len(self.pending) >= MAX_PENDING:
                raise ProtocolError("busy", "the server is computing other games' win chances; "
                                            "try again in a minute", seconds=60)
            await admit()
            if key not in self.pending:  # (asked twice at once: one computation)
                self._start(key, to_dict(lg.game), db, engine)
        return None

    def _start(self, key: tuple[str, int], save: dict[str, Any], db: Db, engine: Engine) -> None:
        loop = asyncio.get_running_loop()
        self.started += 1
        job = self.jobs[key] = self.started
        fut = loop.run_in_executor(self.executor(), compute, save, self.rollouts, job)
        self.pending[key] = fut
        fut.add_done_callback(lambda f: self._finish(key, f, db, engine))

    def _finish(self, key: tuple[str, int], fut: asyncio.Future[dict[str, Any]], db: Db,
                engine: Engine) -> None:
        self.pending.pop(key, None)
        self.jobs.pop(key, None)
        if fut.cancelled():
            return
        exc = fut.exception()
        if isinstance(exc, BrokenProcessPool):  # the worker died: a new one at the next request
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
            return
        if exc is not None:
            self.failed.add(key)
            return
        curve = fut.result()
        self._keep(key, {"game": key[0], "status": "done", **curve})
        self.computed += 1
        asyncio.ensure_future(db(store_curve, engine, *key, curve))

    def _keep(self, key: tuple[str, int], answer: dict[str, Any]) -> None:
        self.done[key] = answer
        while len(self.done) > self.limit:
            self.done.popitem(last=False)


__all__ = ["MAX_WEB_ROLLOUTS", "WEB_ROLLOUTS", "WinChanceService", "compute", "load_curve",
           "start_worker", "store_curve", "watch_parent"]
