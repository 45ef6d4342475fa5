"""Helpers for the web tests: a real ``rednovember serve`` subprocess, and a small synchronous
WebSocket client. Used by tests/web/conftest.py; test modules may import them directly
(``from webtools import WsClient``)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from pgcluster import database_url
from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def in_process(app: Any, port: int | None = None) -> Iterator[str]:
    """Serve ``app`` in this process (a thread) on ``port`` (a free one by default): its URL.
    uvicorn leaves the process's logging alone (its own config would set "uvicorn.error" for
    later tests)."""
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port or free_port(),
                                           log_config=None, log_level=None))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{server.config.port}"
    finally:
        server.should_exit = True
        thread.join(30)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A ``rednovember serve`` subprocess on a loopback port with its own SQLite file."""

    def __init__(self, db_path: Path, bot_delay: float = 0.0, takeover_grace: float = 0.0,
                 extra: Iterable[str] = (), db_flag: bool = True, db_url: str | None = None,
                 limits: bool = False) -> None:
        self.db_path = Path(db_path)
        self.db_flag = db_flag  # False: the database comes from ``extra`` or the environment
        # SQLite at db_path, or the PostgreSQL database for it (RN_TEST_DB=postgresql)
        self.db_url = db_url or database_url(self.db_path)
        self.bot_delay = bot_delay
        self.takeover_grace = takeover_grace
        # the tests make many games from one address: no per-client limits unless asked for
        self.extra = list(extra) if limits else ["--no-limits", *extra]
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.log_path = self.db_path.with_suffix(".log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 90.0) -> Server:  # a ceiling: several start at once, loaded
        last = ""
        for _attempt in range(3):
            self.port = free_port()
            env = dict(os.environ, PYTHONUNBUFFERED="1")
            cmd = [sys.executable, "-m", "rednovember.cli", "serve", "--host", "127.0.0.1",
                   "--port", str(self.port),
                   *(["--db", self.db_url] if self.db_flag else []),
                   "--bot-delay", str(self.bot_delay),
                   "--takeover-grace", str(self.takeover_grace),
                   "--winchance-rollouts", "3", *self.extra]  # the curves: seconds, not minutes
            with open(self.log_path, "ab") as logf:
                self.proc = subprocess.Popen(cmd, stdout=logf, stderr=subprocess.STDOUT, env=env,
                                             cwd=str(ROOT))
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    break
                try:
                    if httpx.get(self.url + "/api/health", timeout=1.0).status_code == 200:
                        return self
                except httpx.HTTPError:
                    pass
                time.sleep(0.05)
            last = self.log_path.read_text(errors="replace")[-2000:]
            self.kill()
        raise RuntimeError(f"the server did not start:\n{last}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to clean up."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class WsClient:
    """A WebSocket client of one game that records every message it receives."""

    def __init__(self, base_url: str, game_id: str, tokens: Iterable[str] = (),
                 creator: str | None = None, hello: bool = True,
                 headers: dict[str, str] | None = None) -> None:
        ws_url = base_url.replace("http://", "ws://", 1) + f"/ws/games/{game_id}"
        # (__enter__: websockets 17 wants connect() used as a context manager)
        self.ws: ClientConnection = connect(ws_url, open_timeout=10, max_size=None, max_queue=None,
                                            close_timeout=2, additional_headers=headers
                                            ).__enter__()
        self.received: list[dict[str, Any]] = []
        self.tokens = list(tokens)
        self.logs: dict[Any, list[Any]] = {}  # the log of each seat, as the protocol builds it
        self.states: dict[Any, dict[str, Any]] = {}
        if hello:
            self.hello(self.tokens, creator)

    def hello(self, tokens: Iterable[str], creator: str | None = None) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "hello", "tokens": list(tokens)}
        if creator:
            msg["creator"] = creator
        self.send(msg)
        return self.until(lambda m: m["type"] == "welcome")

    def send(self, msg: Any) -> None:
        self.ws.send(msg if isinstance(msg, str | bytes) else json.dumps(msg))

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        raw = self.ws.recv(timeout=timeout)
        msg: dict[str, Any] = json.loads(raw)
        self.received.append(msg)
        if msg.get("type") == "state":
            self.states[msg["seat"]] = msg
            log = self.logs.setdefault(msg["seat"], [])
            del log[msg["log_start"]:]
            log.extend(msg["log"])
        return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message")
            msg = self.recv(left)
            if pred(msg):
                return msg

    def first(self, pred: Callable[[dict[str, Any]], bool],
              timeout: float = 10.0) -> dict[str, Any]:
        """The first message received so far that matches ``pred``, else the next one that does:
        a wait for one message must not lose another that came before it."""
        for msg in self.received:
            if pred(msg):
                return msg
        return self.until(pred, timeout)

    def drain(self, quiet: float = 0.15) -> list[dict[str, Any]]:
        """Every message that arrives until none came for ``quiet`` seconds."""
        out = []
        while True:
            try:
                out.append(self.recv(quiet))
            except TimeoutError:
                return out

    def request(self, msg: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """Send a request with an id; return its ``ack`` or ``error``."""
        rid = f"r{len(self.received)}-{time.monotonic_ns()}"
        self.send({**msg, "id": rid})
        return self.until(lambda m: m.get("type") in ("ack", "error", "pong")
                          and m.get("id") == rid, timeout)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()

    def __enter__(self) -> WsClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def new_game(api: httpx.Client, players: int = 3, **config: Any) -> tuple[str, str]:
    """Create a game; returns (game id, creator token)."""
    r = api.post("/api/games", json={"players": players, **config})
    assert r.status_code == 201, r.text
    body = r.json()
    return body["game"]["id"], body["creator_token"]


BOTS_FINISH = 60.0  # seconds for the server's heuristic bots to play a game through, busy machine


def bot_game(url: str, players: int, seed: int) -> tuple[str, str]:
    """A game whose every seat went to the heuristic bot, played to its end: (id, creator
    token). The end is awaited on the game's socket, with the bots' own time limit: how long
    the bots think says nothing about a page, so a page opened afterwards finds it over."""
    with httpx.Client(base_url=url, timeout=30) as api:
        gid, creator = new_game(api, players, seed=seed)
        with WsClient(url, gid) as watcher:
            for seat in range(players):
                r = api.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": "heuristic"},
                             headers={"X-Creator-Token": creator})
                assert r.status_code == 200, r.text
            watcher.until(lambda m: m["type"] == "state" and m["status"] == "over", BOTS_FINISH)
    return gid, creator


def take(api: httpx.Client, gid: str, seat: int, name: str = "P") -> str:
    r = api.post(f"/api/games/{gid}/seats", json={"seat": seat, "name": f"{name}{seat}"})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def seated_game(api: httpx.Client, players: int = 3, **config: Any) -> tuple[str, list[str], str]:
    """A game with every seat taken by a person: (id, tokens by seat, creator token)."""
    gid, creator = new_game(api, players, **config)
    return gid, [take(api, gid, s) for s in range(players)], creator


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


__all__ = ["Server", "WsClient", "auth", "free_port", "new_game", "seated_game", "take"]


def start_caddy(config: str, tmp_path: Path, port: int) -> subprocess.Popen[bytes]:
    """A real ``caddy run`` on ``config`` (a Caddyfile whose site is ``{$SITE_ADDRESS}``) serving
    http://127.0.0.1:PORT; its files and log stay in ``tmp_path``."""
    path = tmp_path / "Caddyfile"
    path.write_text(config)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path),
           "SITE_ADDRESS": f"http://127.0.0.1:{port}"}
    with (tmp_path / "caddy.log").open("wb") as out:
        return subprocess.Popen(["caddy", "run", "--config", str(path), "--adapter", "caddyfile"],
                                stdout=out, stderr=subprocess.STDOUT, env=env)


def get_until(http: httpx.Client, path: str, done: Callable[[httpx.Response], bool],
              wait: float = 120.0) -> httpx.Response:
    """GET ``path`` until ``done`` says its answer is the awaited one (bots at work, a curve
    being computed: the server's own progress, asked every 0.2 s), at most ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while not done(r := http.get(path)):
        assert time.monotonic() < deadline, f"{path}: still {r.status_code} {r.text[:200]}"
        time.sleep(0.2)
    return r
