"""Load test of the web server (not a test): many concurrent games played over loopback.

Starts ``rednovember serve`` (a subprocess, temporary SQLite file, ``--bot-delay 0``), creates
``--games`` games of ``--players`` seats, and connects one WebSocket client per seat. Every client
plays random legal actions for its seat as soon as its state says it is its turn; the latency of
an action is the time from sending ``act`` to receiving its ``ack`` (the server has then applied,
stored and broadcast it). ``--bots`` seats per game are server-side bots instead.

Bounded: at most ``--games`` games, ``--max-actions`` actions per game and ``--seconds`` of
wall time; then everything stops by itself. Only 127.0.0.1 is contacted. With ``--think 0``
clients act the moment they may (a saturating load: latency is mostly queueing); ``--think MS``
paces them like people.

    .venv/bin/python bench/load_web.py --games 40 --players 4 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))
import pgcluster  # noqa: E402  (the tests' throw-away PostgreSQL cluster)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db_url: str, port: int, log_path: Path) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "rednovember.cli", "serve", "--host", "127.0.0.1", "--port",
           str(port), "--db", db_url, "--bot-delay", "0", "--takeover-grace", "0",
           "--no-limits",  # one client address plays every seat
           "--log-level", "warning"]  # not a line per connection
    # The log goes to a file: a pipe nobody reads fills up and then blocks the server's loop.
    log = open(log_path, "ab")  # noqa: SIM115 - the server's, closed with the process
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    log.close()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start")


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.messages = 0
        self.bytes = 0
        self.errors = 0
        self.games_over = 0
        self.bot_versions = 0


async def seat_client(url: str, gid: str, seat: int, token: str, stats: Stats, stop_at: float,
                      max_actions: int, rng: random.Random, done: asyncio.Event,
                      think: float) -> None:
    async with connect(f"{url}/ws/games/{gid}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "tokens": [token]}))
        pending: float | None = None
        acted = 0
        last: dict[str, Any] | None = None
        while time.monotonic() < stop_at and not done.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, stop_at - time.monotonic()))
            except TimeoutError:
                break
            stats.messages += 1
            stats.bytes += len(raw)
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "ack" and pending is not None:
                stats.latencies.append(time.perf_counter() - pending)
                pending = None
            elif kind == "error":
                stats.errors += 1
                pending = None
            elif kind == "state":
                last = msg
                if msg["status"] == "over":
                    if seat == min(s for s in range(len(msg["seats"]))
                                   if msg["seats"][s]["kind"] == "human"):
                        stats.games_over += 1
                    done.set()
                    break
            if last is not None and last["your_turn"] and pending is None and \
                    acted < max_actions:
                choice = rng.choice(last["actions"])
                if think > 0:  # a person looks at the board first (the socket is not read)
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                pending = time.perf_counter()
                acted += 1
                await ws.send(json.dumps({"type": "act", "seat": seat, "action": choice["text"],
                                          "version": last["version"]}))
                last = None


async def run(args: argparse.Namespace, base: str) -> Stats:
    stats = Stats()
    ws_base = base.replace("http://", "ws://")
    rng = random.Random(args.seed)
    tasks = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as api:
        setups = []
        for i in range(args.games):
            r = await api.post("/api/games", json={"players": args.players,
                                                   "seed": args.seed * 1000 + i})
            body = r.json()
            gid, creator = body["game"]["id"], body["creator_token"]
            tokens = {}
            for s in range(args.players):
                if s < args.bots:
                    await api.post(f"/api/games/{gid}/seats/{s}/bot", json={"bot": "random"},
                                   headers={"X-Creator-Token": creator})
                else:
                    r = await api.post(f"/api/games/{gid}/seats", json={"seat": s, "name": f"p{s}"})
                    tokens[s] = r.json()["token"]
            setups.append((gid, tokens))
        start = time.monotonic()
        stop_at = start + args.seconds
        for gid, tokens in setups:
            done = asyncio.Event()
            for s, token in tokens.items():
                tasks.append(asyncio.create_task(seat_client(
                    ws_base, gid, s, token, stats, stop_at, args.max_actions,
                    random.Random(rng.random()), done, args.think / 1000)))
        await asyncio.gather(*tasks, return_exceptions=True)
        stats.elapsed = time.monotonic() - start  # type: ignore[attr-defined]
        versions = 0
        for gid, _ in setups:
            versions += (await api.get(f"/api/games/{gid}")).json()["version"]
        stats.bot_versions = versions
    return stats


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k] * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=30, help="concurrent games (default 30)")
    ap.add_argument("--players", type=int, default=4, help="seats per game 3..8 (default 4)")
    ap.add_argument("--bots", type=int, default=0, help="server-side bot seats per game")
    ap.add_argument("--seconds", type=float, default=60.0, help="wall-time limit (default 60)")
    ap.add_argument("--max-actions", type=int, default=2000, help="actions per seat at most")
    ap.add_argument("--think", type=float, default=0.0, metavar="MS",
                    help="mean pause before each action (0: act at once, a saturating load)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--db", default="sqlite", metavar="sqlite|postgresql|URL",
                    help="a temporary SQLite file (default), a throw-away PostgreSQL cluster "
                         "(Debian's packages, as the tests make it), or a database URL")
    args = ap.parse_args()
    args.games = max(1, min(args.games, 500))
    args.players = max(3, min(args.players, 8))
    args.bots = max(0, min(args.bots, args.players - 1))
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        if args.db == "sqlite":
            url = f"sqlite:///{Path(tmp) / 'load.db'}"
        elif args.db == "postgresql":
            url = pgcluster.Cluster().start().database("load")  # stopped at exit
        else:
            url = args.db
        proc = start_server(url, port, Path(tmp) / "server.log")
        try:
            stats = asyncio.run(run(args, f"http://127.0.0.1:{port}"))
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
    elapsed = getattr(stats, "elapsed", 0.0) or 1e-9
    n = len(stats.latencies)
    out: dict[str, Any] = {
        "games": args.games, "players": args.players, "bot_seats": args.bots,
        "think_ms": args.think,
        "connections": args.games * (args.players - args.bots),
        "seconds": round(elapsed, 2), "games_finished": stats.games_over,
        "client_actions": n, "client_actions_per_s": round(n / elapsed, 1),
        "all_changes": stats.bot_versions,
        "all_changes_per_s": round(stats.bot_versions / elapsed, 1),
        "latency_ms": {"p50": round(pct(stats.latencies, 50), 2),
                       "p95": round(pct(stats.latencies, 95), 2),
                       "p99": round(pct(stats.latencies, 99), 2),
                       "mean": round(statistics.fmean(stats.latencies) * 1000, 2) if n else None},
        "messages_received": stats.messages, "mb_received": round(stats.bytes / 1e6, 1),
        "errors": stats.errors,
    }
    if args.json:
        print(json.dumps(out))
    else:
        lat = out["latency_ms"]
        print(f"{out['games']} games x {args.players} seats ({args.bots} bot), "
              f"{out['connections']} WebSockets, {out['seconds']} s")
        print(f"  games finished   {out['games_finished']}")
        print(f"  client actions   {n}  ({out['client_actions_per_s']}/s)")
        print(f"  all changes      {out['all_changes']}  ({out['all_changes_per_s']}/s, incl. "
              "seats and bot moves)")
        print(f"  latency act->ack p50 {lat['p50']} ms  p95 {lat['p95']} ms  p99 {lat['p99']} ms")
        print(f"  received         {out['messages_received']} messages, {out['mb_received']} MB; "
              f"errors {out['errors']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
