"""The database layer (SQLAlchemy Core): games as config + seed + action log, and their seats.

SQLite (WAL mode) by default; any SQLAlchemy URL works (PostgreSQL: ``postgresql+psycopg://…``).
Every write is one short transaction, so a process killed at any moment leaves every game at the
last action that was acknowledged. Each write of a game is conditional on its version: a stale
writer changes nothing (:class:`StaleWrite`), so two processes never both extend one version.

On PostgreSQL every write also sends a notice (``NOTIFY`` on :data:`CHANNEL`, in the same
transaction, so it is heard only once committed): the other server processes listen and bring
their copy of the game up to date (web/hub/cluster.py).
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    select,
    update,
)
from sqlalchemy import text as sql
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import StaticPool

from . import schema
from .seatcode import seat_from

metadata = MetaData()

games_table = Table(
    "rn_games", metadata,
    Column("id", String(32), primary_key=True),
    Column("config", Text, nullable=False),  # Config.to_dict() as JSON (seed included)
    Column("status", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    Column("creator_hash", String(64), nullable=False),
    Column("result", Text, nullable=True),  # {"won", "cause"} as JSON once over
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("rematch", String(32), nullable=True),  # the id of its rematch, once one is started
    Column("client", String(64), nullable=True),  # who created it (web/limits.client_key; 0005)
)

seats_table = Table(
    "rn_seats", metadata,
    Column("game_id", String(32), ForeignKey("rn_games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # free / human / bot
    Column("name", String(80), nullable=True),
    Column("bot", String(32), nullable=True),
    Column("token_hash", String(64), nullable=True),
)

actions_table = Table(
    "rn_actions", metadata,
    Column("game_id", String(32), ForeignKey("rn_games.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("action", String(64), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("at", Float, nullable=False),
)

chat_table = Table(
    "rn_chat", metadata,
    Column("game_id", String(32), ForeignKey("rn_games.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("name", String(80), nullable=True),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
)

# The kind of a chat line that no player typed (a ping, an undo line) and its fields as JSON, keyed
# like its rn_chat row (migration 0002); older chat rows simply have none.
chat_kinds_table = Table(
    "rn_chat_kinds", metadata,
    Column("game_id", String(32), ForeignKey("rn_games.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # ping / undo
    Column("detail", Text, nullable=False),  # JSON object
)

# Table settings (migration 0003): a game without a row has the defaults.
settings_table = Table(
    "rn_table_settings", metadata,
    Column("game_id", String(32), ForeignKey("rn_games.id", ondelete="CASCADE"), primary_key=True),
    Column("listed", Boolean, nullable=False, default=False),  # shown in the lobby while waiting
    Column("settings", Text, nullable=False),  # {"turn_timer": seconds | null} as JSON
)


Index("ix_rn_games_status_client", games_table.c.status, games_table.c.client)

# Per-client counts of the limits (migration 0005, web/rates.py): a count per key and time bucket.
rates_table = Table(
    "rn_rates", metadata,
    Column("key", String(96), primary_key=True),  # what:client
    Column("bucket", Integer, primary_key=True),  # the window's number: time // seconds
    Column("count", Integer, nullable=False),
    Column("expires", Float, nullable=False),  # when no window needs the row any more
)

# A finished game's win-chance curve (migration 0005, web/winchance.py), computed once.
winchance_table = Table(
    "rn_winchance", metadata,
    Column("game_id", String(32), ForeignKey("rn_games.id", ondelete="CASCADE"), primary_key=True),
    Column("actions", Integer, nullable=False),  # the game's length it was computed for
    Column("curve", Text, nullable=False),  # JSON
)

# The spectators' connections of each process (migration 0008, web/watchers.py): per game and
# client, so that the caps on spectators hold however many processes share the database. A row
# whose process stopped refreshing it is ignored once ``expires`` (epoch seconds) has passed.
watchers_table = Table(
    "rn_watchers", metadata,
    Column("node", String(32), primary_key=True),  # the process (a random id per start)
    Column("game_id", String(32), primary_key=True),
    Column("client", String(96), primary_key=True),  # web/limits.client_key
    Column("count", Integer, nullable=False),
    Column("expires", Float, nullable=False),
)

# A seat's email notices (migration 0007, web/mail.py): the address, the secret of the unsubscribe
# link, and whether the notice of the current wait was sent (reset when the player is back).
mail_table = Table(
    "rn_mail", metadata,
    Column("game_id", String(32), ForeignKey("rn_games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("email", String(254), nullable=True),  # null: opted out
    Column("lang", String(8), nullable=False),
    # the seat's unsubscribe secret, kept (every email carries it; it stops this seat's emails only)
    Column("unsub", String(64), nullable=False, unique=True),
    Column("sent", Boolean, nullable=False, default=False),
    # the secret of the game's confirmation link for this address (migration 0011): the seats of
    # one game that give one address share it; and whether its owner answered yes
    Column("confirm", String(64), nullable=True),
    Column("confirmed", Boolean, nullable=False, default=False, server_default=false()),
)
Index("ix_rn_mail_confirm", mail_table.c.confirm)

# A seat's Web Push subscriptions (migration 0009, web/push.py): one per browser that asked, the
# browser's keys to encrypt for it (RFC 8291). The seat's rn_mail row holds the ``sent`` flag.
push_table = Table(
    "rn_push", metadata,
    Column("game_id", String(32), ForeignKey("rn_games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("endpoint", String(1024), primary_key=True),  # the push service's address for it
    Column("p256dh", String(100), nullable=False),  # the browser's public key (base64url)
    Column("auth", String(32), nullable=False),  # its authentication secret (base64url)
    Column("lang", String(8), nullable=False),
    Column("created", Float, nullable=False),
)

# Every address a seat gave for its emails (migration 0010, web/mail.py), lower-cased: a seat's
# notices go to it only once its owner said yes for that game with the link of a confirmation email
# (a stranger could give anyone's address: rn_mail.confirmed), never once they said "never", and at
# most so many emails a day whatever the number of games, seats and processes asking.
address_table = Table(
    "rn_address", metadata,
    Column("email", String(254), primary_key=True),
    Column("state", String(8), nullable=False),  # "asked", "yes" (said yes once) or "never"
    # the address's own link (the emails before migration 0011; seats' links: rn_mail.confirm)
    Column("secret", String(64), nullable=False, unique=True),
    Column("lang", String(8), nullable=False),  # of the confirmation email and its page
    Column("asked", Float, nullable=True),  # when the last confirmation email went
    Column("day", Float, nullable=False),  # the start of the 24 hours ``sent`` counts
    Column("sent", Integer, nullable=False),  # emails sent to it since ``day``
    Column("asks", Integer, nullable=False, server_default="0"),  # confirmations of them (0012)
)

# The server's VAPID key pair (migration 0009, web/push.py): one row, made by the first process.
vapid_table = Table(
    "rn_vapid", metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("private", String(64), nullable=False),  # base64url
    Column("public", String(100), nullable=False),  # base64url
    Column("created", Float, nullable=False),
)


# A turn-based table's deadline (migration 0006, web/hub/deadline.py): when the decision in play
# (the game at ``version``, ``actions`` long) must be made, and each seat's deadlines missed in a
# row, as JSON {"seat": count}. Written by the game's owner process after each change.
deadlines_table = Table(
    "rn_deadlines", metadata,
    Column("game_id", String(32), ForeignKey("rn_games.id", ondelete="CASCADE"), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("actions", Integer, nullable=False),
    Column("due", Float, nullable=False),
    Column("misses", Text, nullable=False),
)
Index("ix_rn_deadlines_due", deadlines_table.c.due)


# Prepared once: building statements costs more than running them (the hot path is one action).
_INSERT_ACTION = insert(actions_table)
_TOUCH = update(games_table).where(games_table.c.id == bindparam("gid"),
                                   games_table.c.version == bindparam("expected")).values(
    version=bindparam("version"), status=bindparam("status"), updated=bindparam("updated"),
    result=bindparam("result"))


CHANNEL = "rn_changes"  # the NOTIFY channel of game changes (PostgreSQL)
_NOTIFY = sql("SELECT pg_notify(:channel, :payload)")
NOTICE_LIMIT = 7900  # bytes: PostgreSQL refuses payloads of 8000 bytes and more


class StaleWrite(Exception):
    """The stored game is no longer at the version the writer holds: nothing was written."""


@dataclass
class SeatRow:
    seat: int
    kind: str = "free"
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None


def chat_entry(idx: int, seat: int, name: str | None, text: str, at: float,
               kind: str | None = None, detail: Any = None) -> dict[str, Any]:
    """A chat entry as sent and stored; a ping or undo line adds ``kind`` and its ``detail``
    fields (a player's message has neither)."""
    out: dict[str, Any] = {"idx": idx, "seat": seat, "name": name, "text": text, "at": at}
    if kind is not None:
        out = {**(detail if isinstance(detail, dict) else {}), **out, "kind": kind}
    return out


class _Taken(Exception):
    pass


class RematchTaken(Exception):
    """The game already has its rematch (``game_id``), started by another request."""

    def __init__(self, game_id: str | None) -> None:
        super().__init__(f"the rematch is {game_id}")
        self.game_id = game_id


@dataclass
class GameRecord:
    id: str
    config: dict[str, Any]
    status: str
    version: int
    creator_hash: str
    result: dict[str, Any] | None
    created: float
    updated: float
    seats: list[SeatRow] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    actors: list[int] = field(default_factory=list)
    listed: bool = False
    settings: dict[str, Any] = field(default_factory=dict)
    rematch: str | None = None
    deadline: DeadlineRow | None = None  # a turn-based table's (migration 0006)
    owners: dict[int, str] = field(default_factory=dict)  # see Store._owners
    client: str | None = None  # who created it (web/limits.client_key; None before 0005)


@dataclass(frozen=True)
class DeadlineRow:
    """A turn-based table's stored deadline: the decision of the game at ``version`` (with
    ``actions`` actions) is due at ``due`` (time.time()); ``misses``: seat -> deadlines missed in
    a row."""
    version: int
    actions: int
    due: float
    misses: dict[int, int]


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def sqlite_url(path: str) -> str:
    return f"sqlite:///{path}"


class Store:
    """All database access of the server. Methods are synchronous and short."""

    def __init__(self, url: str) -> None:
        self.url = url
        kwargs: dict[str, Any] = {}
        self.threads = 4  # threads that may use the store at once (web/hub/runtime.py)
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
            if make_url(url).database in (None, "", ":memory:"):  # one database per connection:
                kwargs["poolclass"] = StaticPool  # share one, used by one thread at a time
                self.threads = 1
        self.engine: Engine = create_engine(url, **kwargs)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self.schema = schema.upgrade(self.engine)  # the schema's revision (web/migrations)
        self.shared = self.engine.dialect.name == "postgresql"  # other processes may share it
        self.node = secrets.token_hex(6)  # this process, in the notices it sends

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> None:
        """A round trip to the database (raises while it does not answer)."""
        with self.engine.connect() as c:
            c.execute(sql("SELECT 1"))

    # --- writes ---------------------------------------------------------------------------------
    def create_game(self, game_id: str, config: dict[str, Any], creator_hash: str,
                    seats: int, listed: bool = False,
                    settings: dict[str, Any] | None = None, rematch_of: str | None = None,
                    client: str | None = None) -> None:
        """Stores a new game (``client``: who asked for it, web/rates.py); with ``rematch_of``,
        as that game's one rematch (else :class:`RematchTaken`, and nothing is stored)."""
        now = time.time()
        try:
            with self.engine.begin() as c:
                c.execute(insert(games_table).values(
                    id=game_id, config=json.dumps(config), status="waiting", version=0,
                    creator_hash=creator_hash, result=None, created=now, updated=now,
                    client=client))
                c.execute(insert(settings_table).values(game_id=game_id, listed=listed,
                                                        settings=json.dumps(settings or {})))
                c.execute(insert(seats_table), [
                    {"game_id": game_id, "seat": s, "kind": "free", "name": None, "bot": None,
                     "token_hash": None} for s in range(seats)])
                if rematch_of is not None:
                    self._link_rematch(c, rematch_of, game_id)
        except _Taken:
            raise RematchTaken(self.rematch_of(rematch_of or "")) from None

    def _link_rematch(self, c: Connection, game_id: str, rematch: str) -> None:
        done = c.execute(update(games_table).where(games_table.c.id == game_id,
                                                   games_table.c.rematch.is_(None))
                         .values(rematch=rematch))
        if done.rowcount != 1:
            raise _Taken  # another process was first: this transaction is rolled back

    def rematch_of(self, game_id: str) -> str | None:
        with self.engine.connect() as c:
            return c.execute(select(games_table.c.rematch)
                             .where(games_table.c.id == game_id)).scalar()

    # ``version`` is the game's new version; each write succeeds only if the stored one is the
    # version before it (else StaleWrite, and the transaction is rolled back).
    def set_seat(self, game_id: str, row: SeatRow, version: int, status: str) -> None:
        with self.engine.begin() as c:
            self._touch(c, game_id, version, status, None)
            self._notice(c, {"g": game_id, "v": version, "st": status,
                             "seat": [row.seat, row.kind, row.name, row.bot, row.token_hash]})
            c.execute(update(seats_table)
                      .where(seats_table.c.game_id == game_id, seats_table.c.seat == row.seat)
                      .values(kind=row.kind, name=row.name, bot=row.bot, token_hash=row.token_hash))

    def append_action(self, game_id: str, idx: int, action: str, seat: int, version: int,
                      status: str, result: dict[str, Any] | None) -> None:
        now = time.time()
        with self.engine.begin() as c:
            self._touch(c, game_id, version, status, result, now)
            self._notice(c, {"g": game_id, "v": version, "st": status,
                             "act": [idx, action, seat]})
            c.execute(_INSERT_ACTION, {"game_id": game_id, "idx": idx, "action": action,
                                       "seat": seat, "at": now})

    def drop_last_action(self, game_id: str, idx: int, version: int, status: str) -> None:
        with self.engine.begin() as c:
            self._touch(c, game_id, version, status, None)
            self._notice(c, {"g": game_id, "v": version, "st": status, "undo": idx})
            c.execute(delete(actions_table).where(actions_table.c.game_id == game_id,
                                                  actions_table.c.idx == idx))

    @staticmethod
    def _touch(c: Connection, game_id: str, version: int, status: str,
               result: dict[str, Any] | None, now: float | None = None) -> None:
        """Move the game from ``version - 1`` to ``version`` (compare-and-set), first in every
        write's transaction: the row stays locked until the commit."""
        done = c.execute(_TOUCH, {"gid": game_id, "expected": version - 1, "version": version,
                                  "status": status, "updated": now or time.time(),
                                  "result": None if result is None else json.dumps(result)})
        if done.rowcount != 1:
            raise StaleWrite(f"game {game_id} is no longer at version {version - 1}")

    def _notice(self, c: Connection, notice: dict[str, Any]) -> None:
        """Tells the other processes (PostgreSQL) about a change, once this transaction commits."""
        if self.shared:
            payload = json.dumps({**notice, "n": self.node}, separators=(",", ":"))
            if len(payload.encode()) <= NOTICE_LIMIT:
                c.execute(_NOTIFY, {"channel": CHANNEL, "payload": payload})

    def notify(self, notice: dict[str, Any]) -> None:
        """A notice of something that is not stored (presence, a rematch's link)."""
        if self.shared:
            with self.engine.begin() as c:
                self._notice(c, notice)

    def touch(self, game_id: str) -> None:
        """Marks the game as touched now (a connection to a waiting game) without a new version."""
        with self.engine.begin() as c:
            c.execute(update(games_table).where(games_table.c.id == game_id)
                      .values(updated=time.time()))

    def delete_if_stale(self, game_id: str, cutoff: float) -> bool:
        """Deletes a waiting game untouched since ``cutoff`` (checked again in the transaction);
        whether it was deleted."""
        with self.engine.begin() as c:
            gone = c.execute(delete(games_table).where(
                games_table.c.id == game_id, games_table.c.status == "waiting",
                games_table.c.updated < cutoff)).rowcount
            if gone:  # ON DELETE CASCADE needs the pragma; delete the rows explicitly as well
                for t in (deadlines_table, settings_table, seats_table, actions_table,
                          chat_kinds_table, chat_table):
                    c.execute(delete(t).where(t.c.game_id == game_id))
        return bool(gone)

    def add_chat(self, game_id: str, seat: int, name: str | None, text: str, at: float,
                 kind: str | None = None, detail: dict[str, Any] | None = None,
                 notice: dict[str, Any] | None = None) -> int:
        """Stores a chat line as the game's next one and returns its index. Two processes may
        write at once: the index is taken in the database, and a clash is tried again."""
        for attempt in range(5):
            try:
                with self.engine.begin() as c:
                    idx = c.execute(select(func.coalesce(func.max(chat_table.c.idx) + 1, 0))
                                    .where(chat_table.c.game_id == game_id)).scalar_one()
                    c.execute(insert(chat_table).values(game_id=game_id, idx=idx, seat=seat,
                                                        name=name, text=text, at=at))
                    if kind is not None:
                        c.execute(insert(chat_kinds_table).values(
                            game_id=game_id, idx=idx, kind=kind, detail=json.dumps(detail or {})))
                    if notice is not None:
                        self._notice(c, {"g": game_id, "chat": idx, **notice})
                return int(idx)
            except IntegrityError:
                if attempt == 4:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def set_deadline(self, game_id: str, row: DeadlineRow) -> bool:
        """Stores the deadline of a turn-based table's decision in play, unless the stored one
        belongs to a later version; whether it was stored."""
        t = deadlines_table
        with self.engine.begin() as c:
            if not c.execute(select(games_table.c.id).where(games_table.c.id == game_id)).first():
                return False
            stored = c.execute(select(t.c.version).where(t.c.game_id == game_id)).scalar()
            if stored is not None and stored > row.version:
                return False
            c.execute(delete(t).where(t.c.game_id == game_id))
            c.execute(insert(t).values(game_id=game_id, version=row.version, actions=row.actions,
                                       due=row.due, misses=json.dumps(
                                           {str(k): v for k, v in row.misses.items()})))
        return True

    def due_game_ids(self, before: float, limit: int) -> list[str]:
        """Turn-based games in play whose stored deadline comes before ``before``, soonest
        first."""
        t = deadlines_table
        q = (select(t.c.game_id).join(games_table, games_table.c.id == t.c.game_id)
             .where(t.c.due < before, games_table.c.status == "playing")
             .order_by(t.c.due).limit(limit))
        with self.engine.connect() as c:
            return [r.game_id for r in c.execute(q)]

    # --- reads ----------------------------------------------------------------------------------
    def load_chat(self, game_id: str, limit: int, since: int = 0) -> list[dict[str, Any]]:
        """The game's last ``limit`` chat messages from index ``since`` on, oldest first (a ping
        or undo line with its ``kind`` and detail fields)."""
        k = chat_kinds_table
        q = (select(chat_table, k.c.kind, k.c.detail)
             .select_from(chat_table.outerjoin(k, (k.c.game_id == chat_table.c.game_id)
                                               & (k.c.idx == chat_table.c.idx)))
             .where(chat_table.c.game_id == game_id, chat_table.c.idx >= since)
             .order_by(chat_table.c.idx.desc()).limit(limit))
        with self.engine.connect() as c:
            rows = list(c.execute(q))
        return [chat_entry(r.idx, r.seat, r.name, r.text, r.at, r.kind,
                           None if r.kind is None else json.loads(r.detail))
                for r in reversed(rows)]

    def load_game(self, game_id: str) -> GameRecord | None:
        with self.engine.connect() as c:
            row = c.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if row is None:
                return None
            rec = GameRecord(id=row.id, config=json.loads(row.config), status=row.status,
                             version=row.version, creator_hash=row.creator_hash, client=row.client,
                             result=None if row.result is None else json.loads(row.result),
                             created=row.created, updated=row.updated, rematch=row.rematch)
            for s in c.execute(select(seats_table).where(seats_table.c.game_id == game_id)
                               .order_by(seats_table.c.seat)):
                rec.seats.append(SeatRow(s.seat, s.kind, s.name, s.bot, s.token_hash))
            for a in c.execute(select(actions_table.c.action, actions_table.c.seat)
                               .where(actions_table.c.game_id == game_id)
                               .order_by(actions_table.c.idx)):
                rec.actions.append(a.action)
                rec.actors.append(a.seat)
            st = c.execute(select(settings_table).where(settings_table.c.game_id == game_id)).first()
            if st is not None:
                rec.listed = bool(st.listed)
                rec.settings = json.loads(st.settings)
            rec.deadline = self._deadline(c, game_id)
            rec.owners = self._owners(c, game_id)
        return rec

    @staticmethod
    def _owners(c: Connection, game_id: str) -> dict[int, str]:
        """Each seat's player's name when they (or the server for them) last handed it to a bot,
        as the chat's ``to_bot`` notes keep it (the seat then bears the bot's name): however
        long the chat has grown since."""
        k = chat_kinds_table
        q = (select(chat_table.c.seat, k.c.detail)
             .join(k, (k.c.game_id == chat_table.c.game_id) & (k.c.idx == chat_table.c.idx))
             .where(chat_table.c.game_id == game_id, k.c.kind == "to_bot")
             .order_by(chat_table.c.idx))
        owners: dict[int, str] = {}
        for row in c.execute(q):
            player = json.loads(row.detail).get("player")
            if isinstance(player, str) and player:
                owners[seat_from(int(row.seat))] = player
        return owners

    @staticmethod
    def _deadline(c: Connection, game_id: str) -> DeadlineRow | None:
        t = deadlines_table
        row = c.execute(select(t).where(t.c.game_id == game_id)).first()
        if row is None:
            return None
        misses = json.loads(row.misses)
        return DeadlineRow(row.version, row.actions, row.due,
                           {int(k): int(v) for k, v in misses.items()})

    def game_ids(self, unfinished_only: bool = False, limit: int | None = None) -> list[str]:
        q = select(games_table.c.id).order_by(games_table.c.created.desc())
        if unfinished_only:
            q = q.where(games_table.c.status != "over")
        if limit is not None:
            q = q.limit(limit)
        with self.engine.connect() as c:
            return [r.id for r in c.execute(q)]

    def listed_waiting_ids(self, limit: int) -> list[str]:
        """The open tables: listed games that wait for players, newest first."""
        q = (select(games_table.c.id)
             .join(settings_table, settings_table.c.game_id == games_table.c.id)
             .where(games_table.c.status == "waiting", settings_table.c.listed.is_(True))
             .order_by(games_table.c.created.desc()).limit(limit))
        with self.engine.connect() as c:
            return [r.id for r in c.execute(q)]

    def bot_game_ids(self, limit: int) -> list[str]:
        """Games in play with a bot seat (they go on with nobody watching), oldest change
        first."""
        q = (select(games_table.c.id)
             .where(games_table.c.status == "playing",
                    games_table.c.id.in_(select(seats_table.c.game_id)
                                         .where(seats_table.c.kind == "bot")))
             .order_by(games_table.c.updated).limit(limit))
        with self.engine.connect() as c:
            return [r.id for r in c.execute(q)]

    def stale_waiting_ids(self, cutoff: float) -> list[str]:
        """Waiting games nobody has touched since ``cutoff``."""
        q = select(games_table.c.id).where(games_table.c.status == "waiting",
                                           games_table.c.updated < cutoff)
        with self.engine.connect() as c:
            return [r.id for r in c.execute(q)]


__all__ = ["CHANNEL", "DeadlineRow", "GameRecord", "RematchTaken", "SeatRow", "StaleWrite",
           "Store", "actions_table", "chat_entry", "chat_kinds_table", "chat_table",
           "deadlines_table", "games_table", "metadata", "seats_table", "settings_table", "sqlite_url"]
