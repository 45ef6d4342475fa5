"""Issue 18 §2, a player who leaves must not stall the table (web/hub/away.py): as soon as the seat to
move has no connection, everyone is told who is gone and when the seat may go to a bot (server
times), the chat says what happened, the table setting ``away_bot`` gives the seat to a bot by
itself (on the game's owner process, across a restart too), and open tables get a turn timer and
``away_bot`` by default."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pgcluster import cluster
from webtools import Server, WsClient, new_game, take

Start = Callable[..., Server]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Start]:
    """Starts servers (takeover grace and extra ``serve`` options); all stopped after the test."""
    started: list[Server] = []

    def start(grace: float, *extra: str, db: Path | None = None,
              db_url: str | None = None) -> Server:
        s = Server(db or tmp_path / f"away{len(started)}.db", takeover_grace=grace,
                   extra=["--turn-timer-min", "1", *extra], db_url=db_url).start()
        started.append(s)
        return s

    yield start
    for s in started:
        s.stop()


def _notes(ws: WsClient, kind: str) -> list[dict[str, Any]]:
    return [m["message"] for m in ws.received
            if m.get("type") == "chat" and m["message"].get("system") == kind]


def _note(ws: WsClient, kind: str, timeout: float = 15.0) -> dict[str, Any]:
    return ws.first(lambda m: m["type"] == "chat" and m["message"].get("system") == kind,
                    timeout)["message"]


def _three_humans(api: httpx.Client, **settings: Any) -> tuple[str, list[str], int]:
    """A game of three seated people: its id, their tokens, the seat to move."""
    gid, _ = new_game(api, 3, seed=18, **settings)
    tokens = [take(api, gid, seat) for seat in range(3)]
    return gid, tokens, int(api.get(f"/api/games/{gid}").json()["to_move"])


def test_the_others_see_who_is_gone_and_when_the_seat_may_go_to_a_bot(server: Start) -> None:
    s = server(3.0)
    with httpx.Client(base_url=s.url, timeout=10.0) as api:
        gid, tokens, mover = _three_humans(api)
        other = (mover + 1) % 3
        gone = WsClient(s.url, gid, [tokens[mover]])
        watcher = WsClient(s.url, gid, [tokens[other]])
        assert watcher.until(lambda m: m["type"] == "state")["away"] is None  # everyone is here
        gone.close()
        seats = watcher.until(lambda m: m["type"] == "seats" and m["away"] is not None)
        away = seats["away"]
        assert away["seat"] == mover and away["name"] == f"P{mover}"
        assert 2.0 < away["handover_in"] <= 3.0 and away["bot_in"] is None  # no away_bot here
        # every person's seat says when it may go to a bot (never while its player is here)
        by_seat = {x["seat"]: x["handover_in"] for x in seats["seats"]}
        assert by_seat[mover] == away["handover_in"] and by_seat[other] is None
        assert by_seat[3 - mover - other] is not None  # taken, never connected
        assert api.get(f"/api/games/{gid}").json()["away"]["seat"] == mover
        # too early: refused with the seconds left
        err = watcher.request({"type": "bot", "seat": mover, "bot": "heuristic"})
        assert err["code"] == "forbidden" and err["detail"] == "left_recently"
        # the chat says who left (once the seat has been empty a few seconds)
        note = _note(watcher, "away")
        assert note["for_seat"] == mover and note["player"] == f"P{mover}" and note["seat"] == -1
        assert f"P{mover}" in note["text"]
        # the countdown was the server's: the seat may go to a bot now
        assert api.get(f"/api/games/{gid}").json()["seats"][mover]["handover_in"] == 0.0
        assert watcher.request({"type": "bot", "seat": mover, "bot": "heuristic"})["type"] == "ack"
        handed = _note(watcher, "to_bot")
        assert handed["for_seat"] == mover and handed["bot"] == "heuristic"
        assert handed["auto"] is False and handed["player"] == f"P{mover}"
        after = watcher.until(lambda m: m["type"] == "state" and m["seats"][mover]["kind"] == "bot")
        assert after["away"] is None
        watcher.close()
        # the player comes back: one click (reclaim) and the chat says so
        back = WsClient(s.url, gid, [tokens[mover]])
        welcome = next(m for m in back.received if m["type"] == "welcome")
        assert welcome["reclaimable"] == [{"token": 0, "seat": mover}]
        assert back.request({"type": "reclaim", "seat": mover, "token": tokens[mover]})["type"] \
            == "ack"
        assert _note(back, "back")["for_seat"] == mover
        back.close()


def test_a_reload_is_no_absence(server: Start) -> None:
    s = server(30.0)
    with httpx.Client(base_url=s.url, timeout=10.0) as api:
        gid, tokens, mover = _three_humans(api)
        watcher = WsClient(s.url, gid, [tokens[(mover + 1) % 3]])
        WsClient(s.url, gid, [tokens[mover]]).close()
        watcher.until(lambda m: m["type"] == "seats" and m["away"] is not None)
        again = WsClient(s.url, gid, [tokens[mover]])  # back within a second
        watcher.until(lambda m: m["type"] == "seats" and m["away"] is None)
        watcher.drain(6.0)  # past the note's delay: no note about a seat that is back
        assert not _notes(watcher, "away")
        again.close()
        watcher.close()


def test_away_bot_gives_an_absent_players_seat_to_a_bot_by_itself(server: Start) -> None:
    s = server(1.0)
    with httpx.Client(base_url=s.url, timeout=10.0) as api:
        gid, tokens, mover = _three_humans(api, away_bot=2)
        assert api.get(f"/api/games/{gid}").json()["settings"]["away_bot"] == 2
        watcher = WsClient(s.url, gid, [tokens[(mover + 1) % 3]])
        WsClient(s.url, gid, [tokens[mover]]).close()
        away = watcher.until(lambda m: m["type"] == "seats" and m["away"] is not None)["away"]
        assert away["seat"] == mover and 0 < away["bot_in"] <= 2.0
        left = time.monotonic()
        st = watcher.until(lambda m: m["type"] == "state" and m["seats"][mover]["kind"] == "bot")
        assert st["seats"][mover]["bot"] == "heuristic" and st["away"] is None
        assert time.monotonic() - left < away["bot_in"] + 2.0  # when the server said
        handed = _note(watcher, "to_bot")
        assert handed["auto"] is True and handed["for_seat"] == mover
        # the bot plays the seat: the game moves on without its player (its moves may come
        # before the note, which is stored after the seat: PostgreSQL, CI)
        watcher.first(lambda m: m["type"] == "state" and m["version"] > st["version"])
        watcher.close()


def test_a_turn_timer_that_runs_out_while_the_player_is_gone_gives_the_seat_to_a_bot(
        server: Start) -> None:
    s = server(0.0)
    with httpx.Client(base_url=s.url, timeout=10.0) as api:
        gid, tokens, mover = _three_humans(api, turn_timer=2, away_bot=600)
        watcher = WsClient(s.url, gid, [tokens[(mover + 1) % 3]])
        v0 = watcher.until(lambda m: m["type"] == "state")["version"]
        st = watcher.until(lambda m: m["type"] == "state" and m["version"] > v0)
        assert st["seats"][mover]["kind"] == "bot"  # not one decision for an empty chair
        assert not _notes(watcher, "timeout") and _note(watcher, "to_bot")["auto"] is True
        watcher.close()


def test_away_bot_survives_a_restart(server: Start, tmp_path: Path) -> None:
    db = tmp_path / "restart.db"
    s = server(1.0, db=db)
    with httpx.Client(base_url=s.url, timeout=10.0) as api:
        gid, tokens, mover = _three_humans(api, away_bot=3)
    s.kill()  # before the seat's three seconds are up
    again = server(1.0, db=db)
    with httpx.Client(base_url=again.url, timeout=10.0) as api:
        assert api.get(f"/api/games/{gid}").json()["settings"]["away_bot"] == 3
        watcher = WsClient(again.url, gid, [tokens[(mover + 1) % 3]])
        st = watcher.until(lambda m: m["type"] == "state" and m["seats"][mover]["kind"] == "bot")
        assert st["seats"][mover]["bot"] == "heuristic"
        watcher.close()


def test_open_tables_default_to_a_turn_timer_and_away_bot(api: httpx.Client) -> None:
    def settings(**body: Any) -> dict[str, Any]:
        r = api.post("/api/games", json={"players": 2, **body})
        assert r.status_code == 201, r.text
        return dict(r.json()["game"]["settings"])

    listed = settings(listed=True)
    assert listed["turn_timer"] == 120 and listed["away_bot"] == 120
    chosen = settings(listed=True, turn_timer=None, away_bot=0)
    assert chosen["turn_timer"] is None and chosen["away_bot"] is None
    unlisted = settings()
    assert unlisted["turn_timer"] is None and unlisted["away_bot"] is None
    assert settings(away_bot=300)["away_bot"] == 300
    r = api.post("/api/games", json={"players": 2, "away_bot": 5})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_config"
    assert "away_bot" in r.json()["error"]["message"]


def test_the_owner_process_gives_the_seat_of_a_player_gone_from_another(server: Start) -> None:
    url = cluster().database("away_" + uuid.uuid4().hex[:12])
    a = server(1.0, db_url=url)  # the game is made here: its owner
    b = server(1.0, db_url=url)
    with httpx.Client(base_url=a.url, timeout=10.0) as api:
        gid, tokens, mover = _three_humans(api, away_bot=2)
    on_a = WsClient(a.url, gid, [tokens[(mover + 1) % 3]])
    on_b = WsClient(b.url, gid, [tokens[(mover + 2) % 3]])
    WsClient(b.url, gid, [tokens[mover]]).close()  # the player leaves the other process
    assert on_b.until(lambda m: m["type"] == "seats" and m["away"] is not None)["away"]["seat"] \
        == mover
    assert on_a.until(lambda m: m["type"] == "seats" and m["away"] is not None)["away"]["seat"] \
        == mover
    for ws in (on_a, on_b):
        ws.until(lambda m: m["type"] == "state" and m["seats"][mover]["kind"] == "bot", 15)
        assert _note(ws, "to_bot")["auto"] is True
        assert len(_notes(ws, "to_bot")) == 1  # said once, by the owner
        ws.close()
