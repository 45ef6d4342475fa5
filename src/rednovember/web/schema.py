"""The database schema's version and its migrations (Alembic, scripts in web/migrations).

``upgrade(engine)`` brings a database to the newest revision: a new database gets every table, a
database made before migrations existed (tables, no ``alembic_version``) is stamped with the first
revision, which it matches, and then upgraded. Run on every start; nothing to do when current."""

from __future__ import annotations

from importlib import resources

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.engine import Connection, Engine

FIRST = "0001"


def _config(conn: Connection) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location",
                        str(resources.files("rednovember.web").joinpath("migrations")))
    cfg.attributes["connection"] = conn
    return cfg


def head() -> str:
    """The newest revision this version of the program knows."""
    cfg = Config()
    cfg.set_main_option("script_location",
                        str(resources.files("rednovember.web").joinpath("migrations")))
    rev = ScriptDirectory.from_config(cfg).get_current_head()
    assert rev is not None
    return rev


def current(engine: Engine) -> str | None:
    """The revision the database is at (None: no schema yet, or made before migrations)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine) -> str:
    """Bring the database to :func:`head`; returns the revision it is at."""
    with engine.begin() as conn:
        tables = set(inspect(conn).get_table_names())
        if "rn_games" in tables and "alembic_version" not in tables:
            command.stamp(_config(conn), FIRST)
        command.upgrade(_config(conn), "head")
    rev = current(engine)
    assert rev is not None
    return rev


__all__ = ["FIRST", "current", "head", "upgrade"]
