"""``rednovember backup FILE`` and ``rednovember restore FILE``: every row of every table the
server keeps (games, seats, actions, chat and whatever later revisions add), SQLite or PostgreSQL
alike, in one portable file.

The file is JSON lines (gzip-compressed when its name ends in ``.gz``): a header with the
format, the schema revision and the tables in order, then one ``{"t": table, "r": row}`` line per
row. The tables are read from the database itself (not from the program's own table list), in an
order where every row comes after the rows it refers to, within one read transaction (a
consistent snapshot while the server keeps running). A backup is written to ``FILE.partial`` and
renamed when complete, so a failed one never leaves a truncated FILE behind.

A restore brings the database to the backup's schema revision, inserts every row in one
transaction and then upgrades to this program's newest revision: a backup made by an older
version restores into a newer one. It refuses a database that already holds games unless asked
to replace them.
"""

from __future__ import annotations

import gzip
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, cast

from sqlalchemy import MetaData, Table, delete, func, insert, select
from sqlalchemy.engine import Connection, Engine

from . import schema

FORMAT = "rednovember-backup"
VERSION = 1
BATCH = 1000  # rows per INSERT when restoring
VERSION_TABLE = "alembic_version"  # the revision is in the header, not copied as a row


class BackupError(RuntimeError):
    """A backup file that cannot be restored here, or a database that refuses it."""


def _open(path: Path, mode: str, named: Path | None = None) -> IO[str]:
    """The backup file, gzip-compressed when its name (``named``'s, if given) ends in .gz."""
    if (named or path).name.endswith(".gz"):
        return cast(IO[str], gzip.open(path, mode + "t", encoding="utf-8"))
    return open(path, mode, encoding="utf-8")  # noqa: SIM115 - closed by the caller's with


def _tables(conn: Connection) -> list[Table]:
    """The database's own tables (reflected), each after the tables it refers to."""
    md = MetaData()
    md.reflect(conn)
    return [t for t in md.sorted_tables if t.name != VERSION_TABLE]


def _snapshot(engine: Engine) -> Connection:
    """A connection in a read transaction that sees one moment of the database."""
    if engine.dialect.name == "sqlite":
        conn = engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        conn.exec_driver_sql("BEGIN")  # pysqlite would not start one for reads
        return conn
    conn = engine.connect().execution_options(isolation_level="REPEATABLE READ")
    conn.begin()
    return conn


def _rows(conn: Connection, table: Table) -> Iterator[dict[str, Any]]:
    order = list(table.primary_key.columns) or list(table.columns)
    result = conn.execution_options(yield_per=BATCH).execute(select(table).order_by(*order))
    for row in result.mappings():
        yield dict(row)


def backup(engine: Engine, path: Path) -> dict[str, int]:
    """Write every table of the database to ``path``; the number of rows of each table."""
    counts: dict[str, int] = {}
    partial = path.with_name(path.name + ".partial")
    conn = _snapshot(engine)
    try:
        revision = schema.check(conn)
        tables = _tables(conn)
        with _open(partial, "w", named=path) as out:
            out.write(json.dumps({"format": FORMAT, "version": VERSION, "schema": revision,
                                  "made": time.time(), "dialect": engine.dialect.name,
                                  "tables": [t.name for t in tables]}) + "\n")
            for table in tables:
                counts[table.name] = 0
                for row in _rows(conn, table):
                    out.write(json.dumps({"t": table.name, "r": row}, ensure_ascii=False) + "\n")
                    counts[table.name] += 1
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        if engine.dialect.name == "sqlite":
            conn.exec_driver_sql("COMMIT")
        conn.close()
    os.replace(partial, path)
    return counts


def _header(line: str) -> dict[str, Any]:
    try:
        head = json.loads(line)
    except json.JSONDecodeError:
        head = None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise BackupError("not a Red November backup (made by 'rednovember backup')")
    if head.get("version") != VERSION:
        raise BackupError(f"a backup of format version {head.get('version')}; this program "
                          f"reads version {VERSION}")
    return head


def _holds_rows(engine: Engine) -> bool:
    with engine.connect() as conn:
        return any(conn.execute(select(func.count()).select_from(t)).scalar_one()
                   for t in _tables(conn))


def _entries(src: IO[str], order: list[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    for number, line in enumerate(src, start=2):
        try:
            entry = json.loads(line)
            name, row = entry["t"], entry["r"]
        except (json.JSONDecodeError, KeyError, TypeError):
            raise BackupError(f"line {number} of the backup is damaged") from None
        if name not in order or not isinstance(row, dict):
            raise BackupError(f"line {number} of the backup is damaged (table {name!r})")
        yield name, row


def _read_header(path: Path) -> dict[str, Any]:
    """The backup's header, after a first reading of the whole file: a damaged backup is found
    before the database is touched."""
    with _open(path, "r") as src:
        try:
            head = _header(src.readline())
            for _ in _entries(src, list(head.get("tables", []))):
                pass
        except (OSError, EOFError, UnicodeDecodeError) as exc:
            raise BackupError(f"the backup cannot be read: {exc}") from None
    revision = head.get("schema")
    if not isinstance(revision, str):
        raise BackupError("the backup names no schema revision")
    if not schema.known(revision):
        raise schema.SchemaTooNew(revision, schema.head())
    return head


def _rebuild(engine: Engine, revision: str) -> None:
    """Every table dropped and made again at ``revision`` (a database with no rows, or
    --replace)."""
    md = MetaData()
    with engine.begin() as conn:
        md.reflect(conn)
        md.drop_all(conn)
    schema.upgrade(engine, revision)


def restore(engine: Engine, path: Path, replace: bool = False) -> dict[str, int]:
    """Load a backup into the database (see the module's text); the rows of each table."""
    head = _read_header(path)
    revision = str(head["schema"])
    if _holds_rows(engine) and not replace:
        raise BackupError("the database already holds games: restore into an empty database, "
                          "or pass --replace to delete them first")
    if schema.current(engine) != revision:
        _rebuild(engine, revision)
    order = list(head.get("tables", []))
    with _open(path, "r") as src, engine.begin() as conn:
        src.readline()
        counts = _load(conn, _entries(src, order), order)
    schema.upgrade(engine)
    return counts


def _load(conn: Connection, entries: Iterator[tuple[str, dict[str, Any]]],
          order: list[str]) -> dict[str, int]:
    tables = {t.name: t for t in _tables(conn)}
    missing = [name for name in order if name not in tables]
    if missing:
        raise BackupError(f"the database has no table {missing[0]} (schema mismatch)")
    for t in reversed(list(tables.values())):  # --replace at the same revision
        conn.execute(delete(t))
    counts = dict.fromkeys(order, 0)
    batch: list[dict[str, Any]] = []
    current = ""
    for name, row in entries:
        if batch and (name != current or len(batch) >= BATCH):
            conn.execute(insert(tables[current]), batch)
            batch = []
        current = name
        batch.append(row)
        counts[name] += 1
    if batch:
        conn.execute(insert(tables[current]), batch)
    return counts


__all__ = ["FORMAT", "BackupError", "backup", "restore"]
