"""A throw-away PostgreSQL cluster for the server tests (Debian's packages; `.ci/run` installs
them): made with initdb in a temporary folder, started with pg_ctl on a free loopback port, no
fsync, trust authentication on loopback only, stopped and deleted when the tests end.

``RN_TEST_DB=postgresql`` makes :func:`database_url` hand out a fresh database of that cluster
for each database file name the tests ask for (the same name, the same database, so a restarted
server finds its games); otherwise it is the SQLite file itself."""

from __future__ import annotations

import atexit
import hashlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

BACKEND = os.environ.get("RN_TEST_DB", "sqlite")
USER = "rn"


def _bindir() -> Path:
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                      key=lambda p: int(p.parent.parent.name))
    if not versions:
        raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
    return versions[-1].parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    def __init__(self) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="rn-pg-"))
        self.data = self.base / "data"
        self.port = _free_port()
        self.bin = _bindir()
        self.made: set[str] = set()
        # initdb and postgres refuse to run as root: then they run as the postgres user
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def _run(self, *cmd: str) -> None:
        done = subprocess.run([*self.as_user, *cmd], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")

    def start(self) -> Cluster:
        if self.as_user:
            pg = pwd.getpwnam("postgres")
            os.chown(self.base, pg.pw_uid, pg.pw_gid)
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", USER, "-A", "trust",
                  "--no-sync", "-E", "UTF8")
        self.resume()
        atexit.register(self.stop)
        return self

    def resume(self) -> None:
        """Start (again) the cluster's server."""
        opts = (f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off -c max_connections=300")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", opts, "-l",
                  str(self.base / "server.log"), "-w", "-t", "60", "start")

    def pause(self) -> None:
        """Stop the server, keeping its data (an outage; :meth:`resume` ends it)."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def stop(self) -> None:
        if self.data.exists():
            subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m",
                            "immediate", "-w", "stop"], capture_output=True, check=False)
        shutil.rmtree(self.base, ignore_errors=True)

    def url(self, name: str) -> str:
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{name}"

    def database(self, name: str) -> str:
        """The URL of database ``name``, created on first use."""
        if name not in self.made:
            self._run(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
                      "-U", USER, name)
            self.made.add(name)
        return self.url(name)


_cluster: Cluster | None = None


def cluster() -> Cluster:
    global _cluster
    if _cluster is None:
        _cluster = Cluster().start()
    return _cluster


def database_url(db_path: Path) -> str:
    """The database the tests use for ``db_path``: the SQLite file, or (RN_TEST_DB=postgresql)
    a PostgreSQL database named after the path."""
    if BACKEND != "postgresql":
        return f"sqlite:///{db_path}"
    name = "t_" + hashlib.sha256(str(Path(db_path).resolve()).encode()).hexdigest()[:16]
    return cluster().database(name)


__all__ = ["BACKEND", "Cluster", "cluster", "database_url"]
