"""Per-client limits counted in the database (issue 19), so that they hold however many server
processes share it (web/limits.py says which limits there are):

- rates (new games, seats and hints per minute, lesson requests per 10 s, win-chance curves per
  hour):
  a sliding window approximated by two fixed buckets, the current one and the previous one
  weighted by how much of it still lies in the window; a refused request does not count;
- waiting tables: those of one client, and those of the whole server, counted from the games.

Every call is a short transaction, run in the hub's database threads."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from .limits import Limits, too_many
from .protocol import ProtocolError
from .store import Store, games_table, rates_table


def _count(c: Connection, key: str, bucket: int, expires: float) -> int:
    """Adds one to a key's bucket; its new count."""
    dialect: Any = postgresql if c.dialect.name == "postgresql" else sqlite
    stmt = dialect.insert(rates_table).values(key=key, bucket=bucket, count=1, expires=expires)
    stmt = stmt.on_conflict_do_update(index_elements=["key", "bucket"],
                                      set_={"count": rates_table.c.count + 1})
    return int(c.execute(stmt.returning(rates_table.c.count)).scalar_one())


@dataclass(frozen=True)
class SharedWindow:
    """At most ``limit`` events per ``seconds`` for each client, counted in the database."""

    engine: Engine
    limit: int
    seconds: float
    what: str

    def wait(self, client: str, now: float) -> int:
        """0 when the event is admitted (and counted), else the whole seconds to wait."""
        if self.limit <= 0:
            return 0
        bucket = int(now // self.seconds)
        into = now / self.seconds - bucket  # how far into the current bucket, 0..1
        key = f"{self.what}:{client}"[:96]
        this = and_(rates_table.c.key == key, rates_table.c.bucket == bucket)
        with self.engine.begin() as c:
            current = _count(c, key, bucket, (bucket + 2) * self.seconds)
            previous = c.execute(select(rates_table.c.count).where(
                and_(rates_table.c.key == key, rates_table.c.bucket == bucket - 1))).scalar()
            if (previous or 0) * (1 - into) + current <= self.limit:
                return 0
            c.execute(update(rates_table).where(this).values(count=rates_table.c.count - 1))
        return max(1, math.ceil((1 - into) * self.seconds))

    def check(self, client: str, now: float) -> None:
        wait = self.wait(client, now)
        if wait:
            raise too_many(self.what, self.limit, self.seconds, wait)


class Rates:
    """The limits of every client, shared by the processes of one database."""

    def __init__(self, store: Store, limits: Limits) -> None:
        engine = store.engine
        self.limits = limits
        self.engine = engine
        self.games = SharedWindow(engine, limits.games_per_minute, 60.0, "new games")
        self.seats = SharedWindow(engine, limits.seats_per_minute, 60.0, "seats taken")
        # a move, undo or seat handed to a bot over HTTP: as many as one connection's messages
        self.moves = SharedWindow(engine, limits.messages_per_10s, 10.0, "game requests")
        # a lesson's play or solution (/api/learn): as many as one connection's messages
        self.learn = SharedWindow(engine, limits.messages_per_10s, 10.0, "lesson requests")
        self.winchances = SharedWindow(engine, limits.winchances_per_hour, 3600.0,
                                       "win-chance curves")
        self.lookups = SharedWindow(engine, limits.lookups_per_minute, 60.0, "my-games lookups")
        # the advisor's hints (web/hub/hints.py): each costs up to a second of a core
        self.hints = SharedWindow(engine, limits.hints_per_minute, 60.0, "hints")
        # the bots' moves in games no person plays (web/hub/driver.py): the creator's, everyone's
        self.bot_tables = SharedWindow(engine, limits.bot_table_moves_per_minute, 60.0,
                                       "moves of bots playing alone")
        self.server_bot_tables = SharedWindow(engine, limits.server_bot_table_moves_per_minute,
                                              60.0, "moves of bots playing alone, server")
        # addresses given to seats that need a confirmation email (web/mail_api.py)
        self.addresses = SharedWindow(engine, limits.addresses_per_hour, 3600.0,
                                      "unconfirmed email addresses")

    def new_game(self, client: str, now: float) -> None:
        """Before ``client`` creates a game: its waiting tables, the server's, its rate."""
        cap, total = self.limits.waiting_games_per_client, self.limits.max_waiting_games
        if cap > 0 or total > 0:
            mine, everyone = self.waiting(client)
            if cap > 0 and mine >= cap:
                raise ProtocolError("rate_limited", f"you have {mine} games waiting for players "
                                                    f"(at most {cap}): start or finish one first",
                                    "waiting_games", limit=cap)
            if total > 0 and everyone >= total:
                raise ProtocolError("rate_limited", f"the server has {everyone} tables waiting for "
                                                    f"players (at most {total}): join one, or try "
                                                    "again in a minute", "server_full",
                                    limit=total, seconds=60)
        self.games.check(client, now)

    def bot_table_move(self, client: str, now: float) -> int:
        """Before a bot's move in a game no person plays (created by ``client``): 0 when it may
        move now (counted), else the seconds its table waits."""
        return self.bot_tables.wait(client, now) or self.server_bot_tables.wait("server", now)

    def waiting(self, client: str) -> tuple[int, int]:
        """(the client's games waiting for players, all games waiting)."""
        waiting = games_table.c.status == "waiting"
        mine = func.count().filter(games_table.c.client == client)
        with self.engine.connect() as c:
            row = c.execute(select(mine, func.count()).where(waiting)).one()
        return int(row[0]), int(row[1])



def forget_old(engine: Engine, now: float) -> int:
    """Deletes the counts no window needs any more; how many."""
    with engine.begin() as c:
        return int(c.execute(delete(rates_table).where(rates_table.c.expires < now)).rowcount)


__all__ = ["Rates", "SharedWindow", "forget_old"]
