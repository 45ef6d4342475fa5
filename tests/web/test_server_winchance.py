"""``GET /api/games/{id}/winchance``: a finished game's win-chance curve and turning points,
computed once in a worker process with the server's fixed rollouts (202 until ready, then stored
and kept in memory); 409 for a game still waiting or playing, 404 for an unknown game; other
requests are answered while a curve is computed; a client starts a limited number per hour; a
worker that dies is replaced."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from webtools import Server, auth, bot_game, new_game, seated_game

from rednovember.analysis.turning import analyse
from rednovember.rules import load_data
from rednovember.rules.serialize import from_dict
from rednovember.web.winchance import read_progress

WAIT = 240.0  # seconds for the worker to compute a small curve on a busy machine


def _until_done(api: httpx.Client, path: str) -> dict[str, Any]:
    end = time.monotonic() + WAIT
    while True:
        r = api.get(path)
        assert r.status_code in (200, 202), r.text
        if r.status_code == 200:
            body: dict[str, Any] = r.json()
            return body
        assert r.json()["status"] == "computing"
        assert time.monotonic() < end, "the win chance was never computed"
        time.sleep(0.2)  # polling, as the client does: the answer is awaited, not the time


def test_a_finished_games_curve_is_the_analysis_of_its_save(api: httpx.Client,
                                                            live_server: str) -> None:
    gid, _ = bot_game(live_server, 3, seed=8)
    path = f"/api/games/{gid}/winchance?rollouts=200"  # ignored: the server's budget is fixed
    first = api.get(path)
    assert first.status_code in (200, 202)
    body = _until_done(api, path)
    g = from_dict(api.get(f"/api/games/{gid}/export").json(), load_data())
    expected = analyse(g, None, rollouts=3, seed=0).to_dict()
    assert body["game"] == gid and body["status"] == "done"
    assert body["points"] == expected["points"] and body["turning"] == expected["turning"]
    assert body["steps"] == len(g.history) and body["seat"] is None
    assert body["points"][-1]["chance"] == float(bool(g.result and g.result.won))
    assert api.get(path).json() == body  # from memory


def test_other_requests_are_answered_while_a_curve_is_computed(
        server_factory: Callable[..., Server]) -> None:
    server = server_factory(extra=("--winchance-rollouts", "150"))  # minutes of CPU
    api = httpx.Client(base_url=server.url, timeout=10)
    gid = bot_game(server.url, 3, seed=12)[0]
    path = f"/api/games/{gid}/winchance"
    assert api.get(path).status_code == 202
    other, _ = new_game(api, 3, seed=1)
    assert api.get(f"/api/games/{other}").status_code == 200
    assert api.get(f"/api/games/{gid}/replay/3").status_code == 200
    assert api.get(f"/api/games/{gid}/story").status_code == 200
    assert api.get(path).status_code == 202  # still computing: the loop was never blocked


def test_a_game_not_over_has_no_curve(api: httpx.Client) -> None:
    waiting, _ = new_game(api, 3, seed=1)
    r = api.get(f"/api/games/{waiting}/winchance")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "not_over" and r.json()["error"]["detail"] == "waiting"
    gid, tokens, _ = seated_game(api, 3, seed=2)
    r = api.get(f"/api/games/{gid}/winchance", headers=auth(tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["detail"] == "playing"


def test_unknown_games_are_refused(api: httpx.Client) -> None:
    r = api.get("/api/games/no-such-game/winchance")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def _children(pid: int) -> set[int]:
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:  # a thread may end between the listing and the read: it has no children then
            out |= {int(c) for c in (task / "children").read_text().split()}
        except FileNotFoundError:
            continue
    return out


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][0] not in "ZX"
    except OSError:
        return False


def test_the_worker_ends_with_a_server_killed_mid_computation(
        server_factory: Callable[..., Server]) -> None:
    """SIGKILL leaves the server no time to stop its worker: the worker notices it is orphaned
    and ends within about a second, not when its (long) computation is done."""
    server = server_factory()
    assert server.proc is not None
    gid, _ = bot_game(server.url, 4, seed=12)
    with httpx.Client(base_url=server.url, timeout=10) as api:
        assert api.get(f"/api/games/{gid}/winchance").status_code == 202
    workers: set[int] = set()
    end = time.monotonic() + WAIT
    while not workers:  # the worker process is started (spawned) by the first request
        workers = _children(server.proc.pid)
        assert time.monotonic() < end
        time.sleep(0.05)
    server.kill()
    end = time.monotonic() + 10
    while any(_running(w) for w in workers):
        assert time.monotonic() < end, "the worker outlived its server"
        time.sleep(0.05)


def test_a_curve_is_computed_once_and_kept_across_a_restart(
        server_factory: Callable[..., Server], tmp_path: Path) -> None:
    db = tmp_path / "kept.db"
    server = server_factory(db)
    with httpx.Client(base_url=server.url, timeout=10) as api:
        gid = bot_game(server.url, 3, seed=8)[0]
        body = _until_done(api, f"/api/games/{gid}/winchance")
    server.stop()
    # SIGTERM is a normal exit, so the worker's queues are let go (else: "leaked semaphore")
    assert server.proc is not None and server.proc.returncode == 0
    assert "leaked" not in server.log_path.read_text(errors="replace")
    again = server_factory(db, extra=("--winchance-rollouts", "200"))  # would take minutes
    with httpx.Client(base_url=again.url, timeout=10) as api:
        r = api.get(f"/api/games/{gid}/winchance")
        assert r.status_code == 200 and r.json() == body  # from the database at once


def test_a_client_starts_a_limited_number_of_curves_per_hour(
        server_factory: Callable[..., Server]) -> None:
    # (bots alone at a table at full speed: the games end before the curves are asked for)
    server = server_factory(limits=True, extra=("--limit-winchances-per-hour", "1",
                                                "--limit-bot-table-moves-per-minute", "0"))
    with httpx.Client(base_url=server.url, timeout=10) as api:
        first = bot_game(server.url, 3, seed=8)[0]
        second = bot_game(server.url, 3, seed=9)[0]
        assert api.get(f"/api/games/{first}/winchance").status_code in (200, 202)
        refused = api.get(f"/api/games/{second}/winchance")
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
        assert int(refused.headers["Retry-After"]) >= 1
        _until_done(api, f"/api/games/{first}/winchance")  # asking again costs nothing
        other = {"X-Forwarded-For": "198.51.100.9"}  # another client may start one
        assert api.get(f"/api/games/{second}/winchance", headers=other).status_code == 202


def test_a_dead_worker_is_replaced_at_the_next_request(
        server_factory: Callable[..., Server]) -> None:
    server = server_factory(extra=("--winchance-rollouts", "150"))  # minutes: it is killed first
    assert server.proc is not None
    with httpx.Client(base_url=server.url, timeout=10) as api:
        gid = bot_game(server.url, 3, seed=12)[0]
        path = f"/api/games/{gid}/winchance"
        assert api.get(path).status_code == 202
        workers: set[int] = set()
        end = time.monotonic() + WAIT
        while not workers:
            workers = _children(server.proc.pid)
            assert time.monotonic() < end
            time.sleep(0.05)
        for w in workers:
            os.kill(w, signal.SIGKILL)
        end = time.monotonic() + WAIT
        while True:  # the lost computation is forgotten; the next request starts a new worker
            r = api.get(path)
            assert r.status_code == 202, r.text
            fresh = _children(server.proc.pid) - workers
            if fresh:
                break
            assert time.monotonic() < end, "no new worker was started"
            time.sleep(0.1)
        assert api.get(f"/api/games/{gid}").status_code == 200


def test_the_worker_reports_how_far_it_is(server_factory: Callable[..., Server]) -> None:
    """Issue 18 §7: the graph took 39 s with nothing to show. While the worker computes a curve
    the 202 answer says how many of the game's positions it has evaluated (read from an array it
    shares with the server), growing to the number of points of the curve."""
    server = server_factory(extra=("--winchance-rollouts", "40"))
    with httpx.Client(base_url=server.url, timeout=30) as api:
        gid, _ = bot_game(server.url, 3, seed=8)
        path = f"/api/games/{gid}/winchance"
        seen: list[tuple[int, int]] = []
        end = time.monotonic() + WAIT
        while (r := api.get(path)).status_code == 202:
            progress = r.json()["progress"]
            if progress is not None:
                seen.append((progress["done"], progress["total"]))
            assert time.monotonic() < end, "the win chance was never computed"
            time.sleep(0.1)
        assert r.status_code == 200, r.text
        points = len(r.json()["points"])
    assert any(done > 0 for done, _ in seen), seen
    assert all(total == points for _, total in seen), (seen, points)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_the_workers_progress_is_read_only_between_its_writes() -> None:
    assert read_progress([4, 7, 3, 10]) == (7, 3, 10)
    assert read_progress([5, 7, 3, 10]) is None  # the worker is writing: an odd sequence
