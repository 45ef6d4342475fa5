"""The database schema's version and its migrations (Alembic, scripts in web/migrations).

``upgrade(engine)`` brings a database to the newest revision: a new database gets every table, a
database made before migrations existed (tables, no ``alembic_version``) is stamped with the first
revision, which it matches, and then upgraded. Run on every start; nothing to do when current.

On PostgreSQL several server processes may start at once on one database: the whole upgrade runs
under a transaction-level advisory lock (:data:`MIGRATION_LOCK`), so one process migrates and the
others, waiting on the lock, then find the schema current. A database at a revision this program
does not know (made by a newer version) is refused with :class:`SchemaTooNew`, never touched."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy import text as sql
from sqlalchemy.engine import Connection, Engine

FIRST = "0001"
# The advisory-lock key of migrations (web/cluster.lock_key hashes game ids to other keys; a clash
# would only make a start wait for one game's owner, or the other way round, for a moment).
MIGRATION_LOCK = 0x726E5F736368656D  # "rn_schem"


class SchemaTooNew(RuntimeError):
    """The database is at a revision this version of the program does not know."""

    def __init__(self, found: str, known: str) -> None:
        super().__init__(f"the database's schema is at revision {found}, newer than this "
                         f"program's {known}: run a newer version of Red November (or restore "
                         "a backup made by this one)")
        self.found = found
        self.known = known


def _script_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location",
                        str(resources.files("rednovember.web").joinpath("migrations")))
    return cfg


def _config(conn: Connection) -> Config:
    cfg = _script_config()
    cfg.attributes["connection"] = conn
    return cfg


def head() -> str:
    """The newest revision this version of the program knows."""
    rev = ScriptDirectory.from_config(_script_config()).get_current_head()
    assert rev is not None
    return rev


def known(rev: str) -> bool:
    """Whether ``rev`` is one of this program's revisions."""
    return rev in {s.revision for s in ScriptDirectory.from_config(_script_config()).walk_revisions()}


def _current(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


def current(engine: Engine) -> str | None:
    """The revision the database is at (None: no schema yet, or made before migrations)."""
    with engine.connect() as conn:
        return _current(conn)


@contextmanager
def _migrating(engine: Engine) -> Iterator[Connection]:
    """A connection in a transaction that no other process migrates at the same time: on
    PostgreSQL under the advisory lock, on SQLite in a write transaction taken at once
    (``BEGIN IMMEDIATE``: pysqlite would not start one before DDL)."""
    if engine.dialect.name != "sqlite":
        with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(sql("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            yield conn
        return
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.exec_driver_sql("ROLLBACK")
            raise
        conn.exec_driver_sql("COMMIT")


def check(conn: Connection) -> str | None:
    """The database's revision; :class:`SchemaTooNew` if this program does not know it."""
    rev = _current(conn)
    if rev is not None and not known(rev):
        raise SchemaTooNew(rev, head())
    return rev


def upgrade(engine: Engine, target: str = "head") -> str:
    """Bring the database to ``target`` (default :func:`head`); returns the revision it is at.
    :class:`SchemaTooNew` (nothing changed) for a database made by a newer version."""
    with _migrating(engine) as conn:
        check(conn)
        tables = set(inspect(conn).get_table_names())
        if "rn_games" in tables and "alembic_version" not in tables:
            command.stamp(_config(conn), FIRST)
        command.upgrade(_config(conn), target)
    rev = current(engine)
    assert rev is not None
    return rev


def stamp(engine: Engine, revision: str) -> str:
    """Record ``revision`` as the database's without running any migration (for a database
    whose tables were made or repaired by hand); returns it."""
    if revision != "head" and not known(revision):
        raise ValueError(f"no schema revision {revision!r} (this program knows {FIRST} to "
                         f"{head()})")
    with _migrating(engine) as conn:
        command.stamp(_config(conn), revision, purge=True)
    rev = current(engine)
    assert rev is not None
    return rev


__all__ = ["FIRST", "MIGRATION_LOCK", "SchemaTooNew", "check", "current", "head", "known",
           "stamp", "upgrade"]
