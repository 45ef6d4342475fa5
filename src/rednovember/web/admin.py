"""The operator's commands: ``rednovember db current|upgrade|stamp``, ``rednovember backup FILE``
and ``rednovember restore FILE`` (web/backup.py). Each reads the database URL as ``serve`` does
(--db, --db-file, $REDNOVEMBER_DB, $REDNOVEMBER_DB_FILE) and ends a failure with one line on
stderr and exit status 1 (2 for a bad command line)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from sqlalchemy import create_engine
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from . import schema
from .backup import BackupError, backup, restore
from .serve import safe_url, usable_database


def run_admin(args: argparse.Namespace) -> int:
    """Run ``db``, ``backup`` or ``restore``; the exit status."""
    url = usable_database(args)
    if isinstance(url, int):
        return url
    engine = create_engine(url)
    try:
        return _COMMANDS[args.command](engine, args)
    except (schema.SchemaTooNew, BackupError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
    except SQLAlchemyError as exc:
        first = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        print(f"error: database {safe_url(url)}: {first}", file=sys.stderr)
    finally:
        engine.dispose()
    return 1


def _db(engine: Engine, args: argparse.Namespace) -> int:
    if args.db_command == "upgrade":
        before = schema.current(engine)
        after = schema.upgrade(engine)
        print(f"schema revision {before or 'none'} -> {after}" if before != after
              else f"schema revision {after}: already the newest")
        return 0
    if args.db_command == "stamp":
        print(f"schema revision recorded: {schema.stamp(engine, args.revision)}")
        return 0
    with engine.connect() as conn:
        rev = schema.check(conn)
    state = "current" if rev == schema.head() else "to upgrade"
    print(f"database {rev or 'none'}, program {schema.head()} ({state})")
    return 0


def _backup(engine: Engine, args: argparse.Namespace) -> int:
    counts = backup(engine, args.file)
    print(f"{args.file}: " + ", ".join(f"{n} {t}" for t, n in counts.items()))
    return 0


def _restore(engine: Engine, args: argparse.Namespace) -> int:
    counts = restore(engine, args.file, args.replace)
    print(f"restored from {args.file}: " + ", ".join(f"{n} {t}" for t, n in counts.items()))
    return 0


_COMMANDS: dict[str, Callable[[Engine, argparse.Namespace], int]] = {
    "db": _db, "backup": _backup, "restore": _restore}


__all__ = ["run_admin"]
