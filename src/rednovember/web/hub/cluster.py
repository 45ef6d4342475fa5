"""Several server processes on one PostgreSQL database (issue 9).

Each process (a *node*) holds copies of the games its players use. Any node applies its players'
moves: every write is a compare-and-set on the game's version (web/store.py), and every write
sends a notice that every other node hears (``LISTEN``), so each brings its copy up to date and
pushes the change to its own connections.

Each live game has one *owner* at a time: the node holding the game's PostgreSQL advisory lock,
a session lock on the node's own connection. The owner runs the game's bots and its turn clock.
PostgreSQL releases the locks of a node that dies (even by SIGKILL: its connection closes), and
the other nodes try every :data:`CLAIM_EVERY` seconds to lock the games they hold, so one of them
takes over within a second or two, with every acknowledged action already stored.

On SQLite there is one process (web/single.py), and it owns every game: :class:`Solo`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Callable
from typing import Any, Protocol

from sqlalchemy.engine import make_url

try:  # the `postgres` extra; a PostgreSQL URL needs it anyway (SQLAlchemy's psycopg dialect)
    import psycopg
except ImportError:  # pragma: no cover - SQLite only
    psycopg = None  # type: ignore[assignment]

from ..store import CHANNEL

log = logging.getLogger("rednovember.web")

CLAIM_EVERY = 1.0  # seconds between a node's attempts to take over games without an owner
RECONNECT_AFTER = 1.0  # seconds before a lost connection to the database is made again

Hear = Callable[[dict[str, Any]], None]


class Nodes(Protocol):
    """What the hub asks about the other processes: who owns a game, and what they changed."""

    shared: bool

    async def start(self, hear: Hear, lost: Callable[[], None]) -> None: ...
    async def stop(self) -> None: ...
    async def own(self, game_id: str) -> bool: ...
    async def disown(self, game_id: str) -> None: ...
    def owns(self, game_id: str) -> bool: ...
    async def unowned(self, game_ids: list[str]) -> list[str]: ...


class Solo:
    """One process on its own database: it owns every game and hears nothing."""

    shared = False

    async def start(self, hear: Hear, lost: Callable[[], None]) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def own(self, game_id: str) -> bool:
        return True

    async def disown(self, game_id: str) -> None:
        return None

    def owns(self, game_id: str) -> bool:
        return True

    async def unowned(self, game_ids: list[str]) -> list[str]:
        return []


def lock_key(game_id: str) -> int:
    """The game's advisory-lock key: a signed 64-bit hash of its id."""
    return int.from_bytes(hashlib.blake2b(game_id.encode(), digest_size=8).digest(), "big",
                          signed=True)


def conninfo(url: str) -> str:
    """A SQLAlchemy URL (``postgresql+psycopg://…``) as libpq's connection string."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Cluster:
    """This node among the others on one PostgreSQL database: two connections of its own, one
    listening for notices and one holding the advisory locks of the games it owns."""

    shared = True

    def __init__(self, url: str, node: str) -> None:
        self._conninfo = conninfo(url)
        self.node = node
        self.owned: set[str] = set()
        self._locks: psycopg.AsyncConnection[Any] | None = None
        self._mutex = asyncio.Lock()  # one command at a time on the lock connection
        self._listener: asyncio.Task[None] | None = None
        self._closing = False

    async def start(self, hear: Hear, lost: Callable[[], None]) -> None:
        """Connects, listens, and calls ``hear`` with each notice of another node (and ``lost``
        when notices may have been missed: the listening connection was made again)."""
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._listener = asyncio.create_task(self._listen(hear, lost, ready))
        await ready

    async def stop(self) -> None:
        self._closing = True
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(BaseException):
                await self._listener
        if self._locks is not None:
            with contextlib.suppress(Exception):
                await self._locks.close()
        self.owned.clear()

    async def _listen(self, hear: Hear, lost: Callable[[], None],
                      ready: asyncio.Future[None]) -> None:
        first = True
        while not self._closing:
            try:
                async with await psycopg.AsyncConnection.connect(self._conninfo,
                                                                 autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if not ready.done():
                        ready.set_result(None)
                    if not first:
                        lost()
                    first = False
                    async for n in conn.notifies():
                        self._heard(n.payload, hear)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not ready.done():
                    ready.set_exception(exc)
                    return
                log.warning("listening for game changes failed (%s); again in %.0f s", exc,
                            RECONNECT_AFTER)
                await asyncio.sleep(RECONNECT_AFTER)

    def _heard(self, payload: str, hear: Hear) -> None:
        try:
            notice = json.loads(payload)
        except ValueError:
            return
        if isinstance(notice, dict) and notice.get("n") != self.node and \
                isinstance(notice.get("g"), str):
            try:
                hear(notice)
            except Exception:
                log.exception("a notice could not be handled: %s", payload[:200])

    async def _lock_conn(self) -> psycopg.AsyncConnection[Any]:
        if self._locks is None or self._locks.closed:
            self.owned.clear()  # a new session holds no lock
            self._locks = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
        return self._locks

    async def own(self, game_id: str) -> bool:
        """Whether this node owns the game (taking its lock if nobody holds it)."""
        async with self._mutex:
            if game_id in self.owned and self._locks is not None and not self._locks.closed:
                return True
            try:
                conn = await self._lock_conn()
                cur = await conn.execute("SELECT pg_try_advisory_lock(%s)", (lock_key(game_id),))
                row = await cur.fetchone()
            except psycopg.Error as exc:
                log.warning("taking the lock of game %s failed: %s", game_id, exc)
                if self._locks is not None:
                    with contextlib.suppress(Exception):
                        await self._locks.close()
                self.owned.clear()
                return False
            if row is not None and row[0]:
                self.owned.add(game_id)
                return True
            return False

    async def disown(self, game_id: str) -> None:
        async with self._mutex:
            if game_id not in self.owned:
                return
            self.owned.discard(game_id)
            if self._locks is None or self._locks.closed:
                return
            with contextlib.suppress(psycopg.Error):
                await self._locks.execute("SELECT pg_advisory_unlock(%s)", (lock_key(game_id),))

    def owns(self, game_id: str) -> bool:
        return game_id in self.owned and self._locks is not None and not self._locks.closed

    async def unowned(self, game_ids: list[str]) -> list[str]:
        """The games among these whose lock no node holds (one look at ``pg_locks``)."""
        async with self._mutex:
            try:
                conn = await self._lock_conn()
                cur = await conn.execute(
                    "SELECT classid::bigint, objid::bigint FROM pg_locks "
                    "WHERE locktype = 'advisory' AND objsubid = 1 AND granted")
                rows = await cur.fetchall()
            except psycopg.Error as exc:
                log.warning("looking at the game locks failed: %s", exc)
                return []
        held = {(int(hi) << 32) | int(lo) for hi, lo in rows}
        return [g for g in game_ids if lock_key(g) & (2**64 - 1) not in held]


def nodes_for(shared: bool, url: str, node: str) -> Nodes:
    """The cluster of a database several processes may share, else :class:`Solo`."""
    return Cluster(url, node) if shared else Solo()


__all__ = ["CLAIM_EVERY", "Cluster", "Nodes", "Solo", "conninfo", "lock_key", "nodes_for"]
