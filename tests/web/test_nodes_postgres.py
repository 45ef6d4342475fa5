"""Issue 9, "scale out": several server processes on one PostgreSQL database (web/cluster.py).

Each test starts real ``rednovember serve`` processes on a throw-away PostgreSQL cluster (made by
pgcluster.py whatever RN_TEST_DB says: these tests are about PostgreSQL). Any process serves any
game; every change reaches the players of every process (LISTEN/NOTIFY); each game's bots run on
its one owner; when the owner is killed with SIGKILL another process takes its games over and
nothing acknowledged is lost.
"""

from __future__ import annotations

import shutil
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pgcluster import cluster
from sqlalchemy import create_engine, text
from test_server_replay import _play
from webtools import ROOT, Server, WsClient, auth, free_port, seated_game, start_caddy, take

Start = Callable[..., Server]


@pytest.fixture
def nodes(tmp_path: Path) -> Iterator[Start]:
    """Starts server processes that all share one fresh PostgreSQL database."""
    url = cluster().database("n_" + uuid.uuid4().hex[:12])
    started: list[Server] = []

    def start(bot_delay: float = 0.0) -> Server:
        server = Server(tmp_path / f"node{len(started)}.db", bot_delay, db_url=url).start()
        started.append(server)
        return server

    start.url = url  # type: ignore[attr-defined]
    yield start
    for s in started:
        s.stop()


def _new_game(base: str, players: int = 3, **config: Any) -> str:
    return _created(base, players, **config)[0]


def _created(base: str, players: int = 3, **config: Any) -> tuple[str, str]:
    r = httpx.post(base + "/api/games", json={"players": players, **config}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()["game"]["id"], r.json()["creator_token"]


def _all_bots(base: str, gid: str, creator: str, seats: int) -> None:
    for seat in range(seats):
        httpx.post(f"{base}/api/games/{gid}/seats/{seat}/bot", json={"bot": "heuristic"},
                   headers={"X-Creator-Token": creator}, timeout=10).raise_for_status()


def _wait(pred: Callable[[], bool], timeout: float = 10.0, step: float = 0.05) -> float:
    """Seconds until ``pred`` held (or a TimeoutError)."""
    t0 = time.monotonic()
    while not pred():
        if time.monotonic() - t0 > timeout:
            raise TimeoutError("the condition never held")
        time.sleep(step)
    return time.monotonic() - t0


def test_a_move_on_one_process_reaches_the_players_of_the_other(nodes: Start) -> None:
    a, b = nodes(), nodes()
    gid = _new_game(a.url, seed=11)
    tokens = [take(httpx.Client(base_url=s.url), gid, i) for i, s in enumerate((a, b, a))]
    with WsClient(b.url, gid, [tokens[1]]) as watcher:
        # the last seat was taken on a: b's copy may hear of it only after this connection's
        # first state (LISTEN/NOTIFY), so the move's state is told from the version a has now
        first = httpx.get(f"{a.url}/api/games/{gid}", timeout=10).json()["version"]
        watcher.first(lambda m: m["type"] == "state" and m["version"] == first)
        state = httpx.get(f"{a.url}/api/games/{gid}/state", timeout=10).json()
        mover = state["to_move"]
        st = httpx.get(f"{a.url}/api/games/{gid}/state", headers=auth(tokens[mover]),
                       timeout=10).json()
        r = httpx.post(f"{a.url}/api/games/{gid}/act", json={"action": st["actions"][0]["text"]},
                       headers=auth(tokens[mover]), timeout=10)
        assert r.status_code == 200, r.text
        pushed = watcher.until(lambda m: m["type"] == "state" and m["version"] > first)
        assert pushed["version"] == r.json()["version"]
        assert watcher.logs[1] == httpx.get(f"{a.url}/api/games/{gid}/state",
                                            headers=auth(tokens[1]), timeout=10).json()["log"]
        # an undo on a: b's players see the log shrink back
        before = list(watcher.logs[1])
        r = httpx.post(f"{a.url}/api/games/{gid}/undo", headers=auth(tokens[mover]), timeout=10)
        assert r.status_code == 200, r.text
        watcher.until(lambda m: m["type"] == "state" and m["version"] == r.json()["version"])
        assert len(watcher.logs[1]) < len(before)
        assert watcher.logs[1] == httpx.get(f"{a.url}/api/games/{gid}/state",
                                            headers=auth(tokens[1]), timeout=10).json()["log"]
        # table talk written on a reaches b's players, once
        with WsClient(a.url, gid, [tokens[0]]) as talker:
            assert talker.request({"type": "chat", "seat": 0, "text": "hello b"})["type"] == "ack"
            said = watcher.until(lambda m: m["type"] == "chat"
                                 and m["message"]["text"] == "hello b")
            assert said["message"]["seat"] == 0
            # and who is connected: seat 0 is connected on a, as b's players see
            _wait(lambda: any(m["type"] == "seats" and m["seats"][0]["connected"]
                              for m in [*watcher.received, *watcher.drain(0.1)]))
        heard = [m["message"]["text"] for m in watcher.received if m["type"] == "chat"]
        assert heard.count("hello b") == 1 and sum(t.startswith("took back") for t in heard) == 1


def test_two_processes_driven_at_once_lose_and_repeat_nothing(nodes: Start) -> None:
    a, b = nodes(), nodes()
    # the same seat asked for on both at once: given once
    gid = _new_game(a.url, seed=12)
    httpx.get(f"{b.url}/api/games/{gid}", timeout=10)  # b holds a copy too
    answers: list[int] = []

    def ask(server: Server, name: str) -> None:
        r = httpx.post(f"{server.url}/api/games/{gid}/seats", json={"seat": 0, "name": name},
                       timeout=10)
        answers.append(r.status_code)

    threads = [threading.Thread(target=ask, args=(s, f"P{i}"))
               for i, s in enumerate((a, b) * 4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200] + [409] * 7
    tokens = [""] + [take(httpx.Client(base_url=b.url), gid, s) for s in (1, 2)]
    tokens[0] = ""  # seat 0's token went to one of the threads: hand its seat over instead
    # every seat's player sends its moves to both processes at once, with the version it saw
    acked: list[tuple[int, str]] = []

    def play(seat: int, server: Server) -> None:
        with httpx.Client(base_url=server.url, timeout=10) as c:
            for _ in range(40):
                st = c.get(f"/api/games/{gid}/state", headers=auth(tokens[seat])).json()
                if st["status"] != "playing":
                    return
                if not st["your_turn"]:
                    time.sleep(0.01)
                    continue
                action = st["actions"][0]["text"]
                r = c.post(f"/api/games/{gid}/act", headers=auth(tokens[seat]),
                           json={"action": action, "version": st["version"]})
                if r.status_code == 200:
                    acked.append((r.json()["version"], action))
                else:
                    assert r.json()["error"]["code"] in ("stale", "not_your_turn"), r.text

    httpx.post(f"{a.url}/api/games/{gid}/seats/0/bot", json={"bot": "heuristic"},
               headers=auth(tokens[1]), timeout=10).raise_for_status()
    workers = [threading.Thread(target=play, args=(seat, server))
               for seat in (1, 2) for server in (a, b)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert acked, "nobody could move"
    engine = create_engine(nodes.url)  # type: ignore[attr-defined]
    with engine.connect() as c:
        stored = [r.action for r in c.execute(text(
            "SELECT action FROM rn_actions WHERE game_id = :g ORDER BY idx"), {"g": gid})]
        version = c.execute(text("SELECT version FROM rn_games WHERE id = :g"),
                            {"g": gid}).scalar_one()
    engine.dispose()
    versions = [v for v, _ in acked]
    assert len(set(versions)) == len(versions), "two moves acknowledged as one version"
    assert len(stored) >= len(acked)  # every acknowledged move is stored (bots added theirs)
    # both processes hold exactly the stored game
    for s in (a, b):
        _wait(lambda s=s: httpx.get(f"{s.url}/api/games/{gid}", timeout=10).json()["version"]
              == version)
    logs = [httpx.get(f"{s.url}/api/games/{gid}/state", timeout=10).json()["log"] for s in (a, b)]
    assert logs[0] == logs[1]
    for log in (a.log_path, b.log_path):
        assert "Traceback" not in log.read_text(errors="replace")


def test_the_owner_runs_the_bots_and_a_survivor_takes_over_after_sigkill(nodes: Start) -> None:
    a = nodes(bot_delay=0.05)
    b = nodes(bot_delay=0.05)
    gid, creator = _created(a.url, seed=13, players=3)  # a makes it: a owns it
    token = take(httpx.Client(base_url=a.url, timeout=10), gid, 0)
    _all_bots(a.url, gid, creator, 3)
    with WsClient(b.url, gid) as watcher:  # a spectator on b
        watcher.until(lambda m: m["type"] == "state" and m["version"] >= 8, timeout=20)
        # the bots play on a only: b never races a for a move
        assert "changed elsewhere" not in b.log_path.read_text(errors="replace")
        before = max(s["version"] for s in watcher.states.values())
        a.kill()
        killed = time.monotonic()
        moved = watcher.until(lambda m: m["type"] == "state" and m["version"] > before + 2,
                              timeout=15)
        took = time.monotonic() - killed
    assert took < 5.0, f"the takeover took {took:.1f} s"
    assert moved["status"] in ("playing", "over")
    assert "took it over" in b.log_path.read_text(errors="replace")
    # nothing lost or doubled: a new process rebuilding the game from the database holds b's game
    c = nodes(bot_delay=60.0)
    httpx.post(f"{b.url}/api/games/{gid}/seats/0/reclaim", json={"name": "Ada"},
               headers=auth(token), timeout=10).raise_for_status()  # the bots pause at seat 0
    def same() -> bool:
        sb, sc = (httpx.get(f"{s.url}/api/games/{gid}/state", timeout=10).json() for s in (b, c))
        return bool(sb["version"] == sc["version"] and sb["log"] == sc["log"])
    _wait(same, timeout=15)


def test_bot_games_nobody_watches_go_on_after_their_owner_dies(nodes: Start) -> None:
    a = nodes(bot_delay=0.05)
    b = nodes(bot_delay=0.05)
    gid, creator = _created(a.url, seed=14, players=3)
    _all_bots(a.url, gid, creator, 3)
    engine = create_engine(nodes.url)  # type: ignore[attr-defined]

    def version() -> int:
        with engine.connect() as conn:
            return int(conn.execute(text("SELECT version FROM rn_games WHERE id = :g"),
                                    {"g": gid}).scalar_one())

    _wait(lambda: version() >= 8)
    a.kill()
    after_kill = version()
    _wait(lambda: version() > after_kill + 2, timeout=15)  # b adopted it with nobody asking
    engine.dispose()
    assert b.alive()


def _caddy_site(ports: tuple[int, int]) -> str:
    """deploy/Caddyfile's site (the one compose.yaml runs) for two local processes."""
    text_ = (ROOT / "deploy" / "Caddyfile").read_text()
    start = text_.index("{$SITE_ADDRESS:localhost} {")
    block = text_[start:text_.index("\n}\n", start) + 3]
    assert "app1:8000 app2:8000" in block
    return "{\n\tadmin off\n}\n" + block.replace(
        "app1:8000 app2:8000", f"127.0.0.1:{ports[0]} 127.0.0.1:{ports[1]}")


@pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy is not installed")
def test_the_compose_proxy_keeps_serving_when_one_process_dies(nodes: Start,
                                                                tmp_path: Path) -> None:
    a, b = nodes(), nodes()
    port = free_port()
    caddy = start_caddy(_caddy_site((a.port, b.port)), tmp_path, port)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait(lambda: caddy.poll() is None and _healthy(base), timeout=20)
        with httpx.Client(base_url=base, timeout=10) as http:
            gid, tokens, _ = seated_game(http, 3, seed=15)
            with WsClient(base, gid, tokens[:1]) as ws:  # through the proxy, to either process
                assert ws.received[0]["type"] == "welcome"
            a.kill()
            for _ in range(6):  # every request still answered, by b
                assert http.get(f"/api/games/{gid}").status_code == 200
            st = http.get(f"/api/games/{gid}/state").json()
            mover = st["to_move"]
            mine = http.get(f"/api/games/{gid}/state", headers=auth(tokens[mover])).json()
            r = http.post(f"/api/games/{gid}/act", json={"action": mine["actions"][0]["text"]},
                          headers=auth(tokens[mover]))
            assert r.status_code == 200, r.text
            with WsClient(base, gid, tokens[:1]) as ws:
                ws.until(lambda m: m["type"] == "state" and m["version"] == r.json()["version"])
    finally:
        caddy.terminate()
        caddy.wait(10)


def _healthy(base: str) -> bool:
    try:
        return httpx.get(base + "/api/health", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def test_a_rematch_asked_on_two_processes_at_once_is_one_game(nodes: Start) -> None:
    """Two players of a finished game, on different processes, click Rematch together: the
    database keeps one rematch per game, so both land in the same new game."""
    a, b = nodes(), nodes()
    with httpx.Client(base_url=a.url, timeout=10) as api:
        gid, tokens, g = _play(api, 3, seed=6, moves=3000)
    assert g.result is not None
    with WsClient(a.url, gid, [tokens[0]]) as ada, WsClient(b.url, gid, [tokens[1]]) as bea:
        go = threading.Barrier(2)
        got: dict[str, Any] = {}

        def ask(name: str, ws: WsClient) -> None:
            go.wait()
            got[name] = ws.request({"type": "rematch"})

        both = [threading.Thread(target=ask, args=x) for x in (("a", ada), ("b", bea))]
        for t in both:
            t.start()
        for t in both:
            t.join()
    assert got["a"]["type"] == got["b"]["type"] == "ack", got
    nxt = got["a"]["next"]
    assert got["b"]["next"] == nxt
    engine = create_engine(nodes.url)  # type: ignore[attr-defined]
    with engine.connect() as c:
        rows = c.execute(text("SELECT id, rematch FROM rn_games")).fetchall()
    engine.dispose()
    assert sorted(rows, key=lambda r: r[1] is None) == [(gid, nxt), (nxt, None)]
    for seat, token in enumerate(tokens):  # every player holds their seat in it, on either
        for s in (a, b):
            legal = httpx.get(f"{s.url}/api/games/{nxt}/legal", headers=auth(token), timeout=10)
            assert legal.json()["seat"] == seat
