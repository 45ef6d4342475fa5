"""One server process per SQLite file: live games are held in the owning process's memory, so a
second process on the same file would hold copies of them and corrupt them. The first process
takes an exclusive lock on ``FILE.lock`` for its whole life (the kernel drops it when the process
dies, even by SIGKILL); a second one finds it taken and refuses to start. Several processes need
PostgreSQL."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

from sqlalchemy.engine import make_url


class DatabaseInUse(RuntimeError):
    """Another live process serves this SQLite file."""


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL; None for other databases and in-memory SQLite."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    return Path(u.database).resolve()


def claim(url: str) -> IO[str] | None:
    """Lock the SQLite file of ``url`` for this process; keep the returned file open as long as
    the server runs. None when there is nothing to lock (not SQLite)."""
    path = sqlite_path(url)
    if path is None:
        return None
    lock_path = path.with_name(path.name + ".lock")
    f = open(lock_path, "a+", encoding="utf-8")  # noqa: SIM115 - held for the process's life
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.seek(0)
        holder = f.read().strip() or "another process"
        f.close()
        raise DatabaseInUse(
            f"{path} is already served by {holder}. One server process per SQLite file: stop "
            "the other one, or use PostgreSQL (--db postgresql+psycopg://…) to run several.") from None
    f.seek(0)
    f.truncate()
    f.write(f"process {os.getpid()}\n")
    f.flush()
    return f


__all__ = ["DatabaseInUse", "claim", "sqlite_path"]
