"""Issue 9, "stand up to abuse": per-client limits on new games and seats, a cap on a client's
waiting games, on one connection's messages and on a game's spectators; each refusal is a clear
429 (``rate_limited``) that changes nothing (issue 19's: test_server_strangers.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from webtools import Server, WsClient

from rednovember.web.limits import Window
from rednovember.web.protocol import ProtocolError

STRICT = ["--limit-games-per-minute", "3", "--limit-seats-per-minute", "4",
          "--limit-waiting-games-per-client", "5", "--limit-messages-per-10s", "8",
          "--limit-connections-per-game", "2"]


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "games.db", extra=STRICT, limits=True).start()
    try:
        yield s
    finally:
        s.stop()


def test_a_window_counts_per_key_and_says_when_to_come_back() -> None:
    w = Window(2, 60.0, "new games")
    w.check("a", now=0.0)
    w.check("a", now=1.0)
    w.check("b", now=1.0)  # another client has its own count
    with pytest.raises(ProtocolError) as exc:
        w.check("a", now=20.0)
    assert exc.value.code == "rate_limited" and exc.value.params["seconds"] == 40
    w.check("a", now=60.5)  # the first one has left the window
    Window(0, 1.0, "x").check("a")  # 0: no limit


def test_new_games_and_seats_are_limited_per_client(strict: Server) -> None:
    with httpx.Client(base_url=strict.url, timeout=10) as api:
        made = [api.post("/api/games", json={"players": 3}) for _ in range(4)]
        assert [r.status_code for r in made] == [201, 201, 201, 429]
        err = made[-1].json()["error"]
        assert err["code"] == "rate_limited" and "try again in" in err["message"]
        gid = made[0].json()["game"]["id"]
        seats = [api.post(f"/api/games/{gid}/seats", json={"seat": s % 3, "name": "P"})
                 for s in range(5)]
        assert [r.status_code for r in seats][:4] == [200, 200, 200, 409]  # the 4th: taken
        assert seats[4].status_code == 429
        # a refused request changed nothing: seat 0 is still its first taker's
        seats_now = api.get(f"/api/games/{gid}").json()["seats"]
        assert [s["kind"] for s in seats_now] == ["human"] * 3


def test_a_client_behind_a_trusted_proxy_is_told_apart(strict: Server) -> None:
    with httpx.Client(base_url=strict.url, timeout=10) as api:
        for n in range(3):
            assert api.post("/api/games", json={"players": 3},
                            headers={"X-Forwarded-For": "203.0.113.7"}).status_code == 201, n
        assert api.post("/api/games", json={"players": 3},
                        headers={"X-Forwarded-For": "203.0.113.7"}).status_code == 429
        assert api.post("/api/games", json={"players": 3},
                        headers={"X-Forwarded-For": "198.51.100.9"}).status_code == 201


def test_a_flood_of_messages_is_refused_and_the_connection_survives(strict: Server) -> None:
    with httpx.Client(base_url=strict.url, timeout=10) as api:
        gid = api.post("/api/games", json={"players": 3}).json()["game"]["id"]
    ws = WsClient(strict.url, gid)
    try:
        for i in range(12):
            ws.send({"type": "ping", "id": i})
        ws.until(lambda m: m.get("type") == "error" and m.get("code") == "rate_limited")
        pongs = [m for m in ws.received if m.get("type") == "pong"]
        assert len(pongs) == 7  # hello and seven pings fit in the window of eight
        assert ws.request({"type": "sync"}, timeout=5)["code"] == "rate_limited"  # still open
    finally:
        ws.close()


def test_a_client_s_connections_share_one_message_limit(tmp_path: Path) -> None:
    """Many sockets do not multiply a client's messages (each may cost a full state): all its
    connections, in any games, share --limit-client-messages-per-10s; each refusal is an
    ``error`` to the message, the sockets stay open, and another client is not affected."""
    flags = ["--limit-messages-per-10s", "100", "--limit-client-messages-per-10s", "10"]
    server = Server(tmp_path / "games.db", extra=flags, limits=True).start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as api:
            games = [api.post("/api/games", json={"players": 3}).json()["game"]["id"]
                     for _ in range(2)]
        mine = [WsClient(server.url, gid) for gid in games]  # 2 hellos
        other = WsClient(server.url, games[0], headers={"X-Forwarded-For": "198.51.100.9"})
        try:
            answers = [ws.request({"type": "ping"})["type"] for _ in range(5) for ws in mine]
            assert answers == ["pong"] * 8 + ["error"] * 2  # two hellos and eight pings: ten
            assert mine[0].request({"type": "sync"})["code"] == "rate_limited"
            assert other.request({"type": "ping"}, timeout=5)["type"] == "pong"
        finally:
            for ws in (*mine, other):
                ws.close()
    finally:
        server.stop()


def test_a_game_takes_a_limited_number_of_spectators(strict: Server) -> None:
    with httpx.Client(base_url=strict.url, timeout=10) as api:
        gid = api.post("/api/games", json={"players": 3}).json()["game"]["id"]
    first, second = WsClient(strict.url, gid), WsClient(strict.url, gid)
    third = WsClient(strict.url, gid, hello=False)
    try:
        third.send({"type": "hello", "tokens": []})  # a spectator: seat holders always get in
        refused = third.recv()
        assert refused["type"] == "error" and refused["code"] == "rate_limited"
        assert "at most 2" in refused["message"]
        with pytest.raises(ConnectionClosed) as closed:
            third.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    finally:
        third.close()
        first.close()
        second.close()


def test_a_flood_of_lesson_plays_is_refused(strict: Server) -> None:
    """Each play replays its lesson on the server: a client gets as many per 10 s as one
    connection's messages (8 here), then a clear 429; other clients are not affected."""
    with httpx.Client(base_url=strict.url, timeout=10) as api:
        got = [api.post("/api/learn/moving", json={"plays": []}) for _ in range(9)]
        assert [r.status_code for r in got] == [200] * 8 + [429]
        err = got[-1].json()["error"]
        assert err["code"] == "rate_limited" and "lesson requests" in err["message"]
        assert api.get("/api/learn/moving/solution").status_code == 429
        assert api.get("/api/learn").status_code == 200  # the list costs nothing
        other = {"X-Forwarded-For": "198.51.100.9"}
        assert api.post("/api/learn/moving", json={"plays": []}, headers=other).status_code == 200


def test_my_games_lookups_are_limited_per_client(tmp_path: Path) -> None:
    """Each lookup may rebuild up to 60 games: a client gets --limit-lookups-per-minute of them
    a minute, then a clear 429 with Retry-After; other clients are not affected."""
    s = Server(tmp_path / "games.db", limits=True, extra=["--limit-lookups-per-minute", "3"]).start()
    try:
        with httpx.Client(base_url=s.url, timeout=10) as api:
            got = [api.post("/api/me", json={"games": ["abcdefghijkl"]}) for _ in range(4)]
            assert [r.status_code for r in got] == [200] * 3 + [429]
            err = got[-1].json()["error"]
            assert err["code"] == "rate_limited" and "my-games lookups" in err["message"]
            assert int(got[-1].headers["Retry-After"]) >= 1
            other = {"X-Forwarded-For": "198.51.100.9"}
            assert api.post("/api/me", json={"games": []}, headers=other).status_code == 200
    finally:
        s.stop()
