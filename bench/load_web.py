"""Load test of the web server (not a test): many concurrent games played over loopback.

Starts ``rednovember serve`` (a subprocess, temporary SQLite file, ``--bot-delay 0``), creates
``--games`` games of ``--players`` seats, and connects one WebSocket client per seat. Every client
plays random legal actions for its seat as soon as its state says it is its turn; the latency of
an action is the time from sending ``act`` to receiving its ``ack`` (the server has then applied,
stored and broadcast it). ``--bots`` seats per game are server-side bots instead.

Bounded: at most ``--games`` games, ``--max-actions`` actions per game and ``--seconds`` of
wall time; then everything stops by itself. Only 127.0.0.1 is contacted. With ``--think 0``
clients act the moment they may (a saturating load: latency is mostly queueing; a table whose
game is over starts a new one, creating it and taking its seats, until the time is up);
``--think MS`` paces them like people. The client freezes its own objects out of Python's
garbage collector once every client is connected: a full collection of 2,000 clients would
otherwise be a pause of this process counted as the server's latency.

    .venv/bin/python bench/load_web.py --games 40 --players 4 --seconds 60
    .venv/bin/python bench/load_web.py --db postgresql --procs 2      # two processes, one database
    .venv/bin/python bench/load_web.py --suite     # the issue-9 table: SQLite, PostgreSQL with one
                                                   # and two processes, human pace and saturating
    .venv/bin/python bench/load_web.py --kill      # SIGKILL the owner of live games under load
                                                   # (--suite ends with this run too)
    .venv/bin/python bench/load_web.py --port 8000 # a server already running on this machine
                                                   # (started with --no-limits; repeat --port
                                                   # for several processes)

With ``--procs N`` (PostgreSQL) N server processes share the database and the clients spread over
them by seat (client-side spread: the seats of one game sit on different processes, so every move
crosses between processes). ``--kill`` plays on two processes with one bot seat per game, kills
the process that owns every game half-way, lets the clients reconnect to the survivor, and reports
how long the games stood still and how many acknowledged actions the database lacks (must be 0).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
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
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

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
        self.waiting = 0  # clients that have not had their first state yet
        self.go = asyncio.Event()  # every client is connected: the measured run begins
        self.killed_at: float | None = None
        self.progress: dict[str, float] = {}  # game -> when it first moved after the kill
        self.seen: dict[str, int] = {}  # game -> the highest version any client saw
        self.acked: dict[tuple[str, int], int] = {}  # (game, seat) -> actions acknowledged
        self.reconnects = 0
        self.latencies: list[float] = []
        self.trace: list[tuple[float, float]] = []  # (sent at, latency) for --trace
        self.messages = 0
        self.bytes = 0
        self.errors = 0
        self.games_over = 0
        self.bot_versions = 0
        self.seconds = 0.0  # the measured run's length
        self.stop_at = float("inf")  # when it ends (once every client is connected)


async def seat_client(urls: list[str], gid: str, seat: int, token: str, stats: Stats,
                      max_actions: int, rng: random.Random, done: asyncio.Event,
                      think: float) -> None:
    """One seat's player; when its server goes away it reconnects to the next one."""
    acted = [0]
    turn = seat
    while time.monotonic() < stats.stop_at and not done.is_set():
        url = urls[turn % len(urls)]
        try:
            await play_seat(url, gid, seat, token, stats, max_actions, rng, done, think,
                            acted)
            return
        except (OSError, ConnectionClosed):
            stats.reconnects += 1
            turn += 1
            await asyncio.sleep(0.05)


async def play_seat(url: str, gid: str, seat: int, token: str, stats: Stats,
                    max_actions: int, rng: random.Random, done: asyncio.Event, think: float,
                    acted: list[int]) -> None:
    async with connect(f"{url}/ws/games/{gid}", max_size=None, open_timeout=120) as ws:
        await ws.send(json.dumps({"type": "hello", "tokens": [token]}))
        pending: float | None = None
        last: dict[str, Any] | None = None
        if not stats.go.is_set():  # the ramp: all clients connect before anyone acts
            while last is None:
                first = json.loads(await ws.recv())
                if first["type"] == "state":
                    last = first
            stats.waiting -= 1
            if stats.waiting == 0:
                # The 2,000 clients' own objects would make every full garbage collection of
                # this process a pause of 0.1-0.2 s, counted as the server's latency: they live
                # until the end, so they are frozen and the collector is off while measuring
                # (the JSON it parses has no cycles: reference counting frees it).
                gc.collect()
                gc.freeze()
                gc.disable()
                stats.stop_at = time.monotonic() + stats.seconds
                stats.go.set()
            await stats.go.wait()
        while time.monotonic() < stats.stop_at and not done.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, stats.stop_at - time.monotonic()))
            except TimeoutError:
                break
            stats.messages += 1
            stats.bytes += len(raw)
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "ack" and pending is not None:
                stats.latencies.append(time.perf_counter() - pending)
                stats.trace.append((pending, stats.latencies[-1]))
                stats.acked[gid, seat] = stats.acked.get((gid, seat), 0) + 1
                pending = None
            elif kind == "error":
                stats.errors += 1
                pending = None
            elif kind == "state":
                last = msg
                seen(stats, gid, msg["version"])
                if msg["status"] == "over":
                    if seat == min(s for s in range(len(msg["seats"]))
                                   if msg["seats"][s]["kind"] == "human"):
                        stats.games_over += 1
                    done.set()
                    break
            if last is not None and last["your_turn"] and pending is None and \
                    acted[0] < max_actions:
                choice = rng.choice(last["actions"])
                if think > 0:  # a person looks at the board first (the socket is not read)
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                pending = time.perf_counter()
                acted[0] += 1
                await ws.send(json.dumps({"type": "act", "seat": seat, "action": choice["text"],
                                          "version": last["version"]}))
                last = None


def seen(stats: Stats, gid: str, version: int) -> None:
    """A client saw the game at ``version``: after the kill, its first move counts."""
    if version > stats.seen.get(gid, -1):
        if stats.killed_at is not None and gid not in stats.progress and gid in stats.seen:
            stats.progress[gid] = time.monotonic() - stats.killed_at
        stats.seen[gid] = version


async def new_table(api: httpx.AsyncClient, args: argparse.Namespace,
                    seed: int) -> tuple[str, dict[int, str]]:
    """A game with ``args.bots`` bot seats and the others taken: its id and the seats' tokens."""
    r = await api.post("/api/games", json={"players": args.players, "seed": seed})
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
    return gid, tokens


async def run(args: argparse.Namespace, bases: list[str],
              kill: Callable[[], None] | None = None) -> Stats:
    """Plays the games; ``kill`` (if given) is called half-way through. In a saturating run
    (``--think 0``) a table whose game is over starts a new one until the time is up (random
    crews lose in about 100 actions), so the run lasts ``--seconds``."""
    stats = Stats()
    ws_bases = [b.replace("http://", "ws://") for b in bases]
    rng = random.Random(args.seed)
    games: list[str] = []

    def seat_tasks(gid: str, tokens: dict[int, str]) -> list[asyncio.Task[None]]:
        done = asyncio.Event()
        return [asyncio.create_task(seat_client(
            ws_bases[s:] + ws_bases[:s], gid, s, token, stats, args.max_actions,
            random.Random(rng.random()), done, args.think / 1000)) for s, token in tokens.items()]

    async with httpx.AsyncClient(base_url=bases[0], timeout=30) as api:
        setups = [await new_table(api, args, args.seed * 1000 + i) for i in range(args.games)]
        games.extend(gid for gid, _ in setups)
        stats.waiting = sum(len(tokens) for _, tokens in setups)
        stats.seconds = args.seconds

        async def table(i: int, gid: str, tokens: dict[int, str]) -> None:
            n = 0
            while True:
                await asyncio.gather(*seat_tasks(gid, tokens), return_exceptions=True)
                n += 1
                if args.think > 0 or time.monotonic() >= stats.stop_at:
                    return
                gid, tokens = await new_table(api, args, (args.seed * 1000 + i) * 1000 + n)
                games.append(gid)

        tables = [asyncio.create_task(table(i, gid, tokens))
                  for i, (gid, tokens) in enumerate(setups)]
        await stats.go.wait()
        start = time.monotonic()
        if kill is not None:
            await asyncio.sleep(args.seconds / 2)
            kill()
            stats.killed_at = time.monotonic()
        await asyncio.gather(*tables, return_exceptions=True)
        stats.elapsed = time.monotonic() - start  # type: ignore[attr-defined]
    async with httpx.AsyncClient(base_url=bases[-1], timeout=30) as api:
        versions = 0
        for gid in games:
            versions += (await api.get(f"/api/games/{gid}")).json()["version"]
        stats.bot_versions = versions
    stats.games = games  # type: ignore[attr-defined]
    return stats


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k] * 1000


def lost_actions(url: str, stats: Stats) -> int:
    """Acknowledged actions the database does not hold (counted per game and seat)."""
    engine = create_engine(url)
    stored: dict[tuple[str, int], int] = {}
    with engine.connect() as c:
        for gid in getattr(stats, "games", []):
            for row in c.execute(text("SELECT seat, count(*) FROM rn_actions WHERE game_id = :g "
                                      "GROUP BY seat"), {"g": gid}):
                stored[gid, int(row[0])] = int(row[1])
    engine.dispose()
    return sum(max(0, n - stored.get(key, 0)) for key, n in stats.acked.items())


def measure(args: argparse.Namespace, db: str, procs: int, kill: bool = False) -> dict[str, Any]:
    """One run: ``procs`` server processes on a fresh database, the games played against them."""
    with tempfile.TemporaryDirectory() as tmp:
        if db == "sqlite":
            url = f"sqlite:///{Path(tmp) / 'load.db'}"
        elif db == "postgresql":
            url = pgcluster.cluster().database("load_" + uuid.uuid4().hex[:10])
        else:
            url = db
        ports = [free_port() for _ in range(procs)]
        servers = [start_server(url, port, Path(tmp) / f"server{i}.log")
                   for i, port in enumerate(ports)]

        def kill_first() -> None:
            servers[0].send_signal(signal.SIGKILL)

        peak: list[int] = []
        try:
            stats = asyncio.run(run(args, [f"http://127.0.0.1:{p}" for p in ports],
                                    kill_first if kill else None))
            peak = [peak_rss_mb(proc.pid) for proc in servers if proc.poll() is None]
        finally:
            for proc in servers:
                proc.send_signal(signal.SIGTERM)
            for proc in servers:
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
        out = summary(args, stats, db, procs)
        out["server_peak_rss_mb"] = peak
        if getattr(args, "trace", None):
            t0 = min((t for t, _ in stats.trace), default=0.0)
            Path(args.trace).write_text("".join(f"{t - t0:.4f} {lat * 1000:.2f}\n"
                                                for t, lat in sorted(stats.trace)))
        if kill:
            waits = sorted(stats.progress.values())
            out["kill"] = {
                "games_moving_again": len(waits),
                "takeover_s": {"median": round(statistics.median(waits), 2) if waits else None,
                               "max": round(waits[-1], 2) if waits else None},
                "reconnects": stats.reconnects,
                "acked_actions_lost": lost_actions(url, stats),
            }
    return out


def measure_running(args: argparse.Namespace) -> dict[str, Any]:
    """One run against servers already listening on 127.0.0.1 at ``args.port`` (none started;
    their memory is not measured)."""
    bases = [f"http://127.0.0.1:{p}" for p in args.port]
    for base in bases:
        try:
            httpx.get(base + "/api/health", timeout=5).raise_for_status()
        except httpx.HTTPError as exc:
            raise SystemExit(f"error: no Red November server answers at {base} ({exc})") from None
    stats = asyncio.run(run(args, bases, None))
    return summary(args, stats, "running", len(bases))


def summary(args: argparse.Namespace, stats: Stats, db: str, procs: int) -> dict[str, Any]:
    elapsed = getattr(stats, "elapsed", 0.0) or 1e-9
    n = len(stats.latencies)
    return {
        "db": db if db in ("sqlite", "postgresql", "running") else "url", "processes": procs,
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


def peak_rss_mb(pid: int) -> int:
    """The process's peak resident memory (Linux /proc; 0 where it cannot be read)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) // 1024
    except OSError:
        pass
    return 0


def show(out: dict[str, Any]) -> None:
    lat = out["latency_ms"]
    print(f"{out['db']} x{out['processes']}: {out['games']} games x {out['players']} seats "
          f"({out['bot_seats']} bot), think {out['think_ms']:g} ms, {out['connections']} "
          f"WebSockets, {out['seconds']} s")
    print(f"  games finished   {out['games_finished']}")
    print(f"  client actions   {out['client_actions']}  ({out['client_actions_per_s']}/s)")
    print(f"  all changes      {out['all_changes']}  ({out['all_changes_per_s']}/s, incl. "
          "seats and bot moves)")
    print(f"  latency act->ack p50 {lat['p50']} ms  p95 {lat['p95']} ms  p99 {lat['p99']} ms")
    print(f"  received         {out['messages_received']} messages, {out['mb_received']} MB; "
          f"errors {out['errors']}")
    if out.get("server_peak_rss_mb"):
        print(f"  server memory    peak {' + '.join(map(str, out['server_peak_rss_mb']))} MB")
    if "kill" in out:
        k = out["kill"]
        print(f"  kill: {k['games_moving_again']} games moved again; takeover median "
              f"{k['takeover_s']['median']} s, max {k['takeover_s']['max']} s; "
              f"{k['reconnects']} reconnects; acknowledged actions lost: "
              f"{k['acked_actions_lost']}")


SUITE = [  # (database, processes, games, think ms, seconds): the issue-9 table
    ("sqlite", 1, 500, 3000.0, 30.0), ("postgresql", 1, 500, 3000.0, 30.0),
    ("postgresql", 2, 500, 3000.0, 30.0),
    ("sqlite", 1, 20, 0.0, 20.0), ("postgresql", 1, 20, 0.0, 20.0),
    ("postgresql", 2, 20, 0.0, 20.0),
]


def table(rows: list[dict[str, Any]]) -> None:
    print("| database | processes | games | think | actions/s | all changes/s | p50 | p95 | p99 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        lat = r["latency_ms"]
        print(f"| {r['db']} | {r['processes']} | {r['games']} | {r['think_ms'] / 1000:g} s | "
              f"{r['client_actions_per_s']} | {r['all_changes_per_s']} | {lat['p50']} ms | "
              f"{lat['p95']} ms | {lat['p99']} ms |")


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
    ap.add_argument("--trace", metavar="FILE",
                    help="write each action's send time (s) and latency (ms), one per line")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--db", default="sqlite", metavar="sqlite|postgresql|URL",
                    help="a temporary SQLite file (default), a throw-away PostgreSQL cluster "
                         "(Debian's packages, as the tests make it), or a database URL")
    ap.add_argument("--procs", type=int, default=1, help="server processes (PostgreSQL)")
    ap.add_argument("--port", type=int, action="append", metavar="PORT",
                    help="play against a server already running on 127.0.0.1:PORT instead of "
                         "starting one (repeat for several processes; start it with "
                         "--no-limits, else its per-client limits refuse most of the load)")
    ap.add_argument("--suite", action="store_true",
                    help="the whole table: SQLite, PostgreSQL x1 and x2; 500 games at human pace "
                         "and 20 saturating")
    ap.add_argument("--kill", action="store_true",
                    help="two PostgreSQL processes, one bot seat per game; SIGKILL the owner "
                         "half-way")
    args = ap.parse_args()
    args.games = max(1, min(args.games, 500))
    args.players = max(3, min(args.players, 8))
    args.bots = max(0, min(args.bots, args.players - 1))
    if args.suite:
        rows = []
        for db, procs, games, think, seconds in SUITE:
            run_args = argparse.Namespace(**{**vars(args), "games": games, "think": think,
                                             "seconds": seconds})
            rows.append(measure(run_args, db, procs))
            show(rows[-1])
        kill_args = argparse.Namespace(**{**vars(args), "games": 40, "think": 300.0,
                                          "seconds": 20.0, "bots": 1})
        killed = measure(kill_args, "postgresql", 2, kill=True)
        show(killed)
        print(json.dumps([*rows, killed]) if args.json else "")
        table(rows)
        return 0
    if args.kill:  # people's pace by default, so that games are still running at the kill
        args.db, args.procs, args.bots = "postgresql", 2, max(1, args.bots)
        args.think = args.think or 300.0
    if args.port and (args.suite or args.kill):
        raise SystemExit("error: --port plays against running servers: not with --suite or --kill")
    if args.procs > 1 and args.db == "sqlite" and not args.port:
        raise SystemExit("several processes need PostgreSQL (--db postgresql)")
    out = measure_running(args) if args.port else measure(args, args.db, args.procs, args.kill)
    if args.json:
        print(json.dumps(out))
    else:
        show(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
