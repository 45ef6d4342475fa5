"""The caps on spectators, counted in the database (issue 19 §2, §3): how many spectators'
connections one game takes, and how many one client may watch a game with, however many server
processes share the database. A seat's holder is never counted and always gets in.

Each process counts its own connections in ``rn_watchers`` (one row per game and client) and
refreshes its rows every :data:`REFRESH` seconds; the rows of a process that died are ignored once
they are :data:`TTL` seconds old. A join is one transaction that adds one and reads the totals
(refused: nothing is kept); on PostgreSQL it holds a lock on the game's key for that transaction,
so two processes cannot both take the last place."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from sqlalchemy import and_, delete, func, select, text, update
from sqlalchemy.engine import Connection, Engine

from .limits import Limits
from .protocol import ProtocolError
from .store import watchers_table as w

TTL = 60.0  # seconds a process's rows count without a refresh
REFRESH = 20.0  # seconds between a process's refreshes


def _lock(c: Connection, game_id: str) -> None:
    """Serialises the joins of one game on PostgreSQL (on SQLite the first write does)."""
    if c.dialect.name == "postgresql":
        c.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"),
                  {"key": f"rn_watchers:{game_id}"})


def _totals(c: Connection, game_id: str, client: str, now: float) -> tuple[int, int]:
    """(the game's spectators' connections, those of ``client``) on every live process."""
    mine = func.coalesce(func.sum(w.c.count).filter(w.c.client == client), 0)
    row = c.execute(select(func.coalesce(func.sum(w.c.count), 0), mine)
                    .where(and_(w.c.game_id == game_id, w.c.expires >= now))).one()
    return int(row[0]), int(row[1])


@dataclass
class Watchers:
    """This process's spectators in the shared count."""

    engine: Engine
    limits: Limits
    node: str = field(default_factory=lambda: secrets.token_hex(8))

    @property
    def capped(self) -> bool:
        """Whether any cap applies (without one, nothing is counted)."""
        return self.limits.connections_per_game > 0 or self.limits.spectators_per_client > 0

    def join(self, game_id: str, client: str, now: float) -> None:
        """Counts one more spectator of ``client`` in the game, or refuses it (``rate_limited``).
        The count is written first and checked after: on SQLite the write takes the database's
        write lock for the whole transaction, so no other join reads the totals meanwhile."""
        per_game, per_client = self.limits.connections_per_game, self.limits.spectators_per_client
        key = and_(w.c.node == self.node, w.c.game_id == game_id, w.c.client == client)
        with self.engine.begin() as c:
            _lock(c, game_id)
            bumped = c.execute(update(w).where(key).values(count=w.c.count + 1, expires=now + TTL))
            if not bumped.rowcount:
                c.execute(w.insert().values(node=self.node, game_id=game_id, client=client,
                                            count=1, expires=now + TTL))
            total, mine = _totals(c, game_id, client, now)  # with this one
            if per_game > 0 and total > per_game:
                raise ProtocolError("rate_limited", f"this game has {total - 1} spectators (at "
                                                    f"most {per_game})", "connections",
                                    limit=per_game)
            if per_client > 0 and mine > per_client:
                raise ProtocolError("rate_limited", f"you watch this game {mine - 1} times already "
                                                    f"(at most {per_client})", "spectators",
                                    limit=per_client)

    def leave(self, game_id: str, client: str) -> None:
        """One spectator of ``client`` left the game."""
        key = and_(w.c.node == self.node, w.c.game_id == game_id, w.c.client == client)
        with self.engine.begin() as c:
            c.execute(update(w).where(key).values(count=w.c.count - 1))
            c.execute(delete(w).where(and_(key, w.c.count <= 0)))

    def refresh(self, now: float) -> None:
        """This process's rows count on; every process's stale rows go."""
        with self.engine.begin() as c:
            c.execute(update(w).where(w.c.node == self.node).values(expires=now + TTL))
            c.execute(delete(w).where(w.c.expires < now))

    def forget(self) -> None:
        """This process stops: its spectators no longer count."""
        with self.engine.begin() as c:
            c.execute(delete(w).where(w.c.node == self.node))


__all__ = ["REFRESH", "TTL", "Watchers"]
