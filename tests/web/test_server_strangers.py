"""Issue 19, "open to strangers": nobody can lock players out of their game (a crowd of anonymous
sockets is capped as spectators, per client and per game, while a seat's holder always gets in),
and the per-client limits hold across processes (counted in PostgreSQL) and across the addresses
of one IPv6 /64, with a cap on the tables waiting on the whole server."""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pgcluster import cluster
from websockets.exceptions import ConnectionClosed
from webtools import BOTS_FINISH, Server, WsClient, seated_game

from rednovember.web.limits import Limits, client_key

STRICT = ["--limit-games-per-minute", "3", "--limit-seats-per-minute", "4",
          "--limit-waiting-games-per-client", "5", "--limit-connections-per-game", "12",
          "--limit-spectators-per-client", "4"]


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "games.db", extra=STRICT, limits=True).start()
    try:
        yield s
    finally:
        s.stop()


def test_an_ipv6_client_is_its_64_network() -> None:
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:ffff:1:2:3")
    assert client_key("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("203.0.113.7") == "203.0.113.7" != client_key("203.0.113.8")
    assert client_key("::ffff:203.0.113.7") == "203.0.113.7"
    assert client_key("testclient") == "testclient"
    assert Limits.none() == Limits(0, 0, 0, 0, 0)


def _refused(ws: WsClient) -> int | None:
    """The close code of a socket the server shut (after its error), None if it stayed open."""
    try:
        while True:
            ws.recv(5)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None
    except TimeoutError:
        return None


def test_eighty_anonymous_sockets_do_not_keep_the_seated_player_out(strict: Server) -> None:
    with httpx.Client(base_url=strict.url, timeout=10) as api:
        gid, tokens, _ = seated_game(api, 3, seed=4)
    crowd = [WsClient(strict.url, gid, hello=False) for _ in range(80)]
    try:
        for ws in crowd:  # every one of them says hello as a spectator
            ws.send({"type": "hello", "tokens": []})
        # the server takes the hellos in whatever order they arrive: count the answers, not who
        answers = [ws.until(lambda m: m["type"] in ("welcome", "error")) for ws in crowd]
        assert sum(a["type"] == "welcome" for a in answers) == 4  # spectators per client
        refused = [ws for ws, a in zip(crowd, answers, strict=True) if a["type"] == "error"]
        assert all(a["code"] == "rate_limited" and a["detail"] == "spectators"
                   for a in answers if a["type"] == "error")
        assert _refused(refused[-1]) == 4429
        with WsClient(strict.url, gid, [tokens[0]]) as player:
            welcome = next(m for m in player.received if m["type"] == "welcome")
            assert welcome["seats"] == [0] and not welcome["spectator"]
            state = player.until(lambda m: m["type"] == "state")
            mover = state["to_move"]
        with WsClient(strict.url, gid, [tokens[mover]]) as mover_ws:
            st = mover_ws.until(lambda m: m["type"] == "state")
            ack = mover_ws.request({"type": "act", "seat": mover, "action": st["actions"][0]["text"],
                                    "version": st["version"]})
            assert ack["type"] == "ack", ack
    finally:
        for ws in crowd:
            ws.close()


def test_a_client_holds_a_bounded_number_of_sockets_seat_holders_included(
        tmp_path: Path) -> None:
    """A seat's holder is never refused by the spectators' caps, but one client cannot open
    sockets without end (each costs the process memory and a descriptor: thousands took one
    process past its container's memory): a client with --limit-sockets-per-client sockets open
    gets no more, whatever they hold, until one closes. Another client still gets in."""
    server = Server(tmp_path / "games.db", extra=["--limit-sockets-per-client", "5"],
                    limits=True).start()
    held: list[WsClient] = []
    try:
        with httpx.Client(base_url=server.url, timeout=10) as api:
            gid, tokens, _ = seated_game(api, 1, seed=4)
        held = [WsClient(server.url, gid, [tokens[0]]) for _ in range(4)]
        held.append(WsClient(server.url, gid, hello=False))  # not even a hello: it counts
        extra = WsClient(server.url, gid, hello=False)
        held.append(extra)
        refused = extra.recv()
        assert refused["type"] == "error" and refused["code"] == "rate_limited"
        assert refused["detail"] == "sockets" and refused["params"] == {"limit": 5}
        assert _refused(extra) == 4429
        other = WsClient(server.url, gid, headers={"X-Forwarded-For": "198.51.100.9"})
        held.append(other)
        assert other.received[-1]["type"] in ("welcome", "state")
        held[0].close()  # one closes: the client's next socket gets in once the server saw it
        deadline = time.monotonic() + 10
        while True:
            again = WsClient(server.url, gid, hello=False)
            held.append(again)
            with contextlib.suppress(ConnectionClosed):  # (a refused one may be shut already)
                again.send({"type": "hello", "tokens": [tokens[0]]})
            answer = again.recv()
            if answer["type"] == "welcome":
                break
            assert answer["detail"] == "sockets"
            again.close()
            assert time.monotonic() < deadline, "the closed socket was never counted out"
        assert answer["seats"] == [0]
    finally:
        for ws in held:
            ws.close()
        server.stop()


def test_a_game_takes_a_limited_number_of_spectators_from_all_clients(strict: Server) -> None:
    with httpx.Client(base_url=strict.url, timeout=10) as api:
        gid, tokens, _ = seated_game(api, 3, seed=4)
    crowd: list[WsClient] = []
    try:
        for n in range(12):  # three clients behind the trusted proxy, four sockets each
            headers = {"X-Forwarded-For": f"198.51.100.{n // 4 + 1}"}
            crowd.append(WsClient(strict.url, gid, hello=False, headers=headers))
            crowd[-1].hello([])
        extra = WsClient(strict.url, gid, hello=False, headers={"X-Forwarded-For": "192.0.2.1"})
        crowd.append(extra)
        extra.send({"type": "hello", "tokens": []})
        err = extra.until(lambda m: m["type"] == "error")
        assert err["detail"] == "connections" and "at most 12" in err["message"]
        with WsClient(strict.url, gid, tokens) as players:  # the seats still get in
            assert next(m for m in players.received if m["type"] == "welcome")["seats"] == [0, 1, 2]
    finally:
        for ws in crowd:
            ws.close()


def test_rotating_addresses_in_one_64_is_one_client(strict: Server) -> None:
    """Behind the trusted proxy (127.0.0.1), each request from another address of one /64."""
    with httpx.Client(base_url=strict.url, timeout=10) as api:
        codes = [api.post("/api/games", json={"players": 3},
                          headers={"X-Forwarded-For": f"2001:db8:7:7::{n + 1:x}"}).status_code
                 for n in range(4)]
        assert codes == [201, 201, 201, 429]
        other = api.post("/api/games", json={"players": 3},
                         headers={"X-Forwarded-For": "2001:db8:7:8::1"})
        assert other.status_code == 201


def test_forwarded_addresses_count_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    s = Server(tmp_path / "games.db", limits=True,
               extra=[*STRICT, "--forwarded-allow-ips", "192.0.2.250"]).start()
    try:
        with httpx.Client(base_url=s.url, timeout=10) as api:
            codes = [api.post("/api/games", json={"players": 3},
                              headers={"X-Forwarded-For": f"203.0.113.{n + 1}"}).status_code
                     for n in range(4)]
        assert codes == [201, 201, 201, 429]  # all from 127.0.0.1, whatever the header says
    finally:
        s.stop()


def test_the_server_caps_the_tables_waiting_for_players(tmp_path: Path) -> None:
    s = Server(tmp_path / "games.db", limits=True,
               extra=["--limit-max-waiting-games", "3", "--limit-games-per-minute", "0"]).start()
    try:
        with httpx.Client(base_url=s.url, timeout=10) as api:
            for n in range(3):
                made = api.post("/api/games", json={"players": 3},
                                headers={"X-Forwarded-For": f"203.0.113.{n + 1}"})
                assert made.status_code == 201
            full = api.post("/api/games", json={"players": 3},
                            headers={"X-Forwarded-For": "198.51.100.77"})
            assert full.status_code == 429 and full.headers["Retry-After"] == "60"
            assert full.json()["error"]["detail"] == "server_full"
            assert len(api.get("/api/games?limit=50").json()["games"]) == 0  # unlisted: nothing
    finally:
        s.stop()


@contextlib.contextmanager
def _two_nodes(tmp_path: Path, extra: list[str]) -> Iterator[tuple[Server, Server]]:
    """Two server processes on one fresh PostgreSQL database."""
    url = cluster().database("s_" + uuid.uuid4().hex[:12])
    a = Server(tmp_path / "a.db", db_url=url, limits=True, extra=extra).start()
    try:
        b = Server(tmp_path / "b.db", db_url=url, limits=True, extra=extra).start()
        try:
            yield a, b
        finally:
            b.stop()
    finally:
        a.stop()


def test_the_rates_hold_across_two_processes(tmp_path: Path) -> None:
    with _two_nodes(tmp_path, STRICT) as (a, b):
        made = [httpx.post(f"{(a, b)[n % 2].url}/api/games", json={"players": 3}, timeout=10)
                for n in range(4)]
        assert [r.status_code for r in made] == [201, 201, 201, 429]  # 3 per minute in all
        assert int(made[-1].headers["Retry-After"]) >= 1
        gid = made[0].json()["game"]["id"]
        seats = [httpx.post(f"{(a, b)[n % 2].url}/api/games/{gid}/seats",
                            json={"seat": n % 3, "name": "P"}, timeout=10) for n in range(5)]
        assert [r.status_code for r in seats] == [200, 200, 200, 409, 429]  # 4 a minute in all


def test_the_waiting_tables_are_counted_across_two_processes(tmp_path: Path) -> None:
    extra = ["--limit-games-per-minute", "0", "--limit-waiting-games-per-client", "2",
             "--limit-max-waiting-games", "3"]
    with _two_nodes(tmp_path, extra) as (a, b):
        mine = [httpx.post(f"{(a, b)[n % 2].url}/api/games", json={"players": 3}, timeout=10)
                for n in range(3)]
        assert [r.status_code for r in mine] == [201, 201, 429]  # 2 of one client's, in all
        assert mine[-1].json()["error"]["detail"] == "waiting_games"
        other = {"X-Forwarded-For": "203.0.113.9"}
        assert httpx.post(f"{b.url}/api/games", json={"players": 3}, headers=other,
                          timeout=10).status_code == 201
        third = {"X-Forwarded-For": "203.0.113.10"}  # the server's 3 tables are all waiting
        full = httpx.post(f"{a.url}/api/games", json={"players": 3}, headers=third, timeout=10)
        assert full.status_code == 429 and full.json()["error"]["detail"] == "server_full"


def _watch(server: Server, gid: str, client: str) -> tuple[WsClient, dict[str, Any]]:
    """A spectator's socket from ``client`` (a forwarded address) and the answer to its hello."""
    ws = WsClient(server.url, gid, hello=False, headers={"X-Forwarded-For": client})
    ws.send({"type": "hello", "tokens": []})
    return ws, ws.until(lambda m: m["type"] in ("welcome", "error"))


def test_the_spectators_are_counted_across_two_processes(tmp_path: Path) -> None:
    """Issue 19 §2, §3: the caps per client and per game hold for the server, not per process;
    a spectator who leaves frees a place on the other process."""
    extra = ["--limit-spectators-per-client", "3", "--limit-connections-per-game", "5",
             "--forwarded-allow-ips", "127.0.0.1"]
    with _two_nodes(tmp_path, extra) as (a, b):
        with httpx.Client(base_url=a.url, timeout=10) as api:
            gid, tokens, _ = seated_game(api, 3, seed=4)
        socks: list[WsClient] = []
        try:
            answers = []
            for n in range(4):  # one client, taking turns between the processes
                ws, answer = _watch((a, b)[n % 2], gid, "203.0.113.1")
                socks.append(ws)
                answers.append(answer)
            assert [m["type"] for m in answers] == ["welcome"] * 3 + ["error"]
            assert answers[-1]["detail"] == "spectators" and _refused(socks[-1]) == 4429
            socks.pop().close()
            socks.pop(0).close()  # one of the three on process a leaves: a place on b
            for _ in range(100):
                ws, answer = _watch(b, gid, "203.0.113.1")
                if answer["type"] == "welcome":
                    break
                ws.close()
                time.sleep(0.05)  # the leave is written just after the socket closes
            socks.append(ws)
            assert answer["type"] == "welcome", answer
            others = [_watch((b, a)[n % 2], gid, f"203.0.113.{n + 2}") for n in range(3)]
            socks += [ws for ws, _ in others]
            assert [m["type"] for _, m in others] == ["welcome", "welcome", "error"]  # 5 a game
            assert others[-1][1]["detail"] == "connections"
            with WsClient(b.url, gid, [tokens[1]]) as player:  # a seat's holder always gets in
                welcome = next(m for m in player.received if m["type"] == "welcome")
                assert welcome["seats"] == [1]
        finally:
            for ws in socks:
                with contextlib.suppress(Exception):
                    ws.close()


def _bots_alone(api: httpx.Client, address: str, players: int = 3) -> tuple[str, int]:
    """A game of ``address``'s whose every seat went to the heuristic bot: (id, its version once
    the last seat went, before any bot moved)."""
    who = {"X-Forwarded-For": address}
    r = api.post("/api/games", json={"players": players}, headers=who)
    assert r.status_code == 201, r.text
    gid, creator = r.json()["game"]["id"], r.json()["creator_token"]
    version = 0
    for seat in range(players):
        r = api.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": "heuristic"},
                     headers={**who, "X-Creator-Token": creator})
        assert r.status_code == 200, r.text
        version = r.json()["game"]["version"]
    return gid, version


def _moves(api: httpx.Client, gid: str, since: int) -> int:
    game = api.get(f"/api/games/{gid}").json()
    assert game["status"] == "playing", "a bots' game of a few moves is not over"
    return int(game["version"]) - since


def test_bots_alone_at_a_table_move_within_their_creators_and_the_servers_budget(
        tmp_path: Path) -> None:
    """Audit, stop 64: anyone could start games that only bots play and keep a core busy for
    ever. Such a table's bots make at most --limit-bot-table-moves-per-minute moves a minute for
    its creator's games, and all of them together the server's own limit; the table then waits
    (it is not lost, and it goes on when the minute has passed). A table a person plays is not
    held back."""
    flags = ["--limit-bot-table-moves-per-minute", "6",
             "--limit-server-bot-table-moves-per-minute", "9"]
    if time.time() % 60 > 40:  # the counts' minutes (web/rates.py): all in one of them
        time.sleep(60.5 - time.time() % 60)
    server = Server(tmp_path / "games.db", extra=flags, limits=True).start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as api:
            first, since = _bots_alone(api, "203.0.113.7")
            deadline = time.monotonic() + 20
            while _moves(api, first, since) < 6 and time.monotonic() < deadline:
                time.sleep(0.2)
            time.sleep(2.0)  # heuristic bots without the limit: hundreds of moves by now
            assert _moves(api, first, since) == 6
            # another client's table: its own 6, of which the server's 9 leave 3
            second, since2 = _bots_alone(api, "198.51.100.9")
            time.sleep(3.0)
            assert _moves(api, second, since2) == 3
            assert _moves(api, first, since) == 6
            # a table with a person: its bots answer the person's moves at once
            made = api.post("/api/games", json={"players": 3}).json()
            gid, creator = made["game"]["id"], made["creator_token"]
            token = api.post(f"/api/games/{gid}/seats",
                             json={"seat": 0, "name": "Ada"}).json()["token"]
            for seat in (1, 2):
                assert api.post(f"/api/games/{gid}/seats/{seat}/bot",
                                json={"bot": "heuristic"},
                                headers={"X-Creator-Token": creator}).status_code == 200
            played = 0
            deadline = time.monotonic() + 20
            while played < 3 and time.monotonic() < deadline:
                state = api.get(f"/api/games/{gid}/state",
                                headers={"Authorization": f"Bearer {token}"}).json()
                if state.get("your_turn"):
                    r = api.post(f"/api/games/{gid}/act",
                                 json={"action": state["actions"][-1]["text"],
                                       "version": state["version"]},
                                 headers={"Authorization": f"Bearer {token}"})
                    assert r.status_code == 200, r.text
                    played += 1
                else:
                    time.sleep(0.1)
            assert played == 3, "the bots beside a person were held back"
    finally:
        server.stop()


def test_a_seat_holder_that_says_hello_again_as_a_spectator_is_counted(strict: Server) -> None:
    """Audit, stop 64: a socket that said hello with a seat's token, then hello with none, was
    a spectator nobody counted, so one client got past --limit-spectators-per-client (4 here).
    Now the fifth such socket of a client is refused and closes (4429)."""
    with httpx.Client(base_url=strict.url, timeout=10) as api:
        gid, tokens, _ = seated_game(api, 3, seed=4)
    who = {"X-Forwarded-For": "198.51.100.77"}
    socks: list[WsClient] = []
    try:
        for n in range(4):
            socks.append(WsClient(strict.url, gid, [tokens[0]], headers=who))
            assert socks[-1].hello([])["spectator"] is True, n
        fifth = WsClient(strict.url, gid, [tokens[0]], headers=who)
        socks.append(fifth)
        fifth.send({"type": "hello", "tokens": []})
        err = fifth.until(lambda m: m["type"] == "error")
        assert err["code"] == "rate_limited" and err["detail"] == "spectators"
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(20):
                fifth.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        # the seat's holder still gets in; a spectator that takes its seat back stops counting
        socks[0].hello([tokens[0]])
        sixth = WsClient(strict.url, gid, headers=who)
        socks.append(sixth)
        assert next(m for m in sixth.received if m["type"] == "welcome")["spectator"] is True
    finally:
        for ws in socks:
            ws.close()


def test_a_rematch_counts_as_a_new_game_of_the_client_asking(tmp_path: Path) -> None:
    """Audit, stop 64: a client refused new games (429) still started one after another by
    asking for rematches, each a game of bots alone. Starting a rematch now counts against the
    asker's --limit-games-per-minute; joining one already started costs nothing."""
    flags = ["--limit-games-per-minute", "2", "--limit-bot-table-moves-per-minute", "0"]
    server = Server(tmp_path / "games.db", extra=flags, limits=True).start()
    a, b = {"X-Forwarded-For": "203.0.113.9"}, {"X-Forwarded-For": "198.51.100.10"}
    try:
        with httpx.Client(base_url=server.url, timeout=10) as api:
            made = api.post("/api/games", json={"players": 3, "seed": 3}, headers=a).json()
            gid, creator = made["game"]["id"], made["creator_token"]
            with WsClient(server.url, gid) as watcher:
                for seat in range(3):
                    assert api.post(f"/api/games/{gid}/seats/{seat}/bot",
                                    json={"bot": "heuristic"},
                                    headers={**a, "X-Creator-Token": creator}).status_code == 200
                watcher.until(lambda m: m["type"] == "state" and m["status"] == "over", BOTS_FINISH)
            assert api.post("/api/games", json={"players": 3}, headers=a).status_code == 201
            assert api.post("/api/games", json={"players": 3}, headers=a).status_code == 429
        with WsClient(server.url, gid, (), creator, headers=a) as ws:
            refused = ws.request({"type": "rematch"})
            assert refused["type"] == "error" and refused["code"] == "rate_limited"
        with WsClient(server.url, gid, (), creator, headers=b) as ws:
            nxt = ws.request({"type": "rematch"})["next"]
        with WsClient(server.url, gid, (), creator, headers=a) as ws:
            assert ws.request({"type": "rematch"})["next"] == nxt  # joining it is free
    finally:
        server.stop()


def _mover(api: httpx.Client, gid: str, tokens: list[str]) -> tuple[int, dict[str, Any]]:
    """The seat to move and its state (with its actions)."""
    seat = int(api.get(f"/api/games/{gid}").json()["to_move"])
    state = api.get(f"/api/games/{gid}/state", headers={"Authorization": f"Bearer {tokens[seat]}"})
    return seat, state.json()


def _opener(state: dict[str, Any]) -> str:
    return next(a["text"] for a in state["actions"] if a["text"].startswith("open "))


def test_moves_and_undos_over_http_are_limited(tmp_path: Path) -> None:
    """Audit, stop 64: over HTTP, act and undo had no limit, and every undo stores a line in the
    table talk: a seated stranger could bury the chat in "took back" lines. Moves, undos and
    hand-overs over HTTP now share the client's --limit-messages-per-10s (in the database), and a
    seat makes at most 20 undos a minute however it sends them; a refusal changes nothing."""
    server = Server(tmp_path / "games.db", extra=["--limit-messages-per-10s", "8"],
                    limits=True).start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as api:
            gid, tokens, _ = seated_game(api, 3, seed=5)
            seat, state = _mover(api, gid, tokens)
            me = {"Authorization": f"Bearer {tokens[seat]}"}
            codes = []
            for _ in range(5):  # act, undo, act, undo, ...: the 9th request is refused
                codes.append(api.post(f"/api/games/{gid}/act", headers=me,
                                      json={"action": _opener(state)}).status_code)
                codes.append(api.post(f"/api/games/{gid}/undo", headers=me, json={}).status_code)
            assert codes[:8] == [200] * 8 and codes[8:] == [429, 429], codes
            game = api.get(f"/api/games/{gid}").json()
            assert game["version"] == state["version"] + 8  # the refused ones changed nothing
        # a seat's undos, however many clients send them: 20 a minute
        server.stop()
        server = Server(tmp_path / "games.db", limits=True).start()
        with httpx.Client(base_url=server.url, timeout=10) as api:
            undone = []
            for n in range(21):
                who = {**me, "X-Forwarded-For": f"198.51.100.{n + 1}"}
                assert api.post(f"/api/games/{gid}/act", headers=who,
                                json={"action": _opener(state)}).status_code == 200
                undone.append(api.post(f"/api/games/{gid}/undo", headers=who, json={}))
            assert [r.status_code for r in undone] == [200] * 20 + [429]
            assert undone[-1].json()["error"]["code"] == "rate_limited"
        with WsClient(server.url, gid) as watcher:
            chat = next(m for m in watcher.received if m["type"] == "welcome")["chat"]
        assert sum(1 for m in chat if m.get("kind") == "undo") == 24  # 4 before, 20 here
    finally:
        server.stop()


def test_a_player_who_plays_over_http_keeps_their_seat_between_moves(tmp_path: Path) -> None:
    """Audit, stop 64: only an open WebSocket counted as being at the table, so a player moving
    over HTTP could have their seat given to a bot by another seat one second after a move. A
    move over HTTP now starts the grace (here 3 s) again."""
    server = Server(tmp_path / "games.db", takeover_grace=3.0).start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as api:
            gid, tokens, _ = seated_game(api, 3, seed=5)
            time.sleep(3.5)  # nobody has a socket open: the grace is over for every seat
            seat, state = _mover(api, gid, tokens)
            me = {"Authorization": f"Bearer {tokens[seat]}"}
            assert api.post(f"/api/games/{gid}/act", headers=me,
                            json={"action": _opener(state)}).status_code == 200
            other = {"Authorization": f"Bearer {tokens[(seat + 1) % 3]}"}
            taken = api.post(f"/api/games/{gid}/seats/{seat}/bot", headers=other,
                             json={"bot": "random"})
            assert taken.status_code == 403, taken.text
            assert taken.json()["error"]["detail"] == "left_recently"
            time.sleep(3.5)  # no move since: gone for the grace
            assert api.post(f"/api/games/{gid}/seats/{seat}/bot", headers=other,
                            json={"bot": "random"}).status_code == 200
    finally:
        server.stop()
