"""Open and unlisted tables, the expiry of waiting tables, the seat link, the turn timer, and a
database made before the table settings existed (issue 8)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pgcluster import database_url
from sqlalchemy import MetaData, create_engine, text
from sqlalchemy.engine import Engine
from webtools import Server, WsClient, auth, new_game, seated_game, take

from rednovember.rules import Config
from rednovember.web.store import Store, actions_table, chat_table, games_table, seats_table


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Starts servers with extra ``rednovember serve`` options; all stopped after the test."""
    started: list[Server] = []

    def start(*extra: str, db: Path | None = None) -> Server:
        server = Server(db or tmp_path / f"lobby{len(started)}.db", extra=extra).start()
        started.append(server)
        return server

    yield start
    for s in started:
        s.stop()


def wait_for(check: Callable[[], Any], timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError("the condition did not come true in time")
        time.sleep(0.1)


# --- listed and unlisted tables -------------------------------------------------------------------
def test_lobby_lists_only_listed_waiting_tables(api: httpx.Client) -> None:
    hidden, _ = new_game(api, 2, seed=1)
    shown, _ = new_game(api, 3, seed=2, listed=True)
    full, _ = new_game(api, 1, seed=3, listed=True)
    take(api, full, 0)  # the only seat taken: playing, no longer an open table
    take(api, shown, 1)
    games = api.get("/api/games", params={"limit": 200}).json()["games"]
    ids = [g["id"] for g in games]
    assert shown in ids and hidden not in ids and full not in ids
    assert all(g["status"] == "waiting" and g["settings"]["listed"] for g in games)
    table = next(g for g in games if g["id"] == shown)
    assert [s["kind"] for s in table["seats"]] == ["free", "human", "free"]
    # the unlisted game is still there, by its link
    summary = api.get(f"/api/games/{hidden}").json()
    assert summary["settings"] == {"listed": False, "turn_timer": None, "hints": True, "hints_used": [],
                                   "away_bot": None, "pace": "real-time", "move_deadline": None}
    assert summary["clock"] is None


def test_create_turn_timer_settings(api: httpx.Client) -> None:
    for bad in (5, 29, 3601, -1):
        r = api.post("/api/games", json={"players": 1, "turn_timer": bad})
        assert r.status_code in (400, 422), bad
        assert r.json()["error"]["code"] in ("bad_config", "bad_message")
    gid, _ = new_game(api, 1, seed=4, turn_timer=60)
    assert api.get(f"/api/games/{gid}").json()["settings"] == {
        "listed": False, "turn_timer": 60, "hints": True, "hints_used": [],
        "away_bot": None, "pace": "real-time", "move_deadline": None}
    assert api.get(f"/api/games/{gid}").json()["clock"] is None  # waiting: no clock yet
    off, _ = new_game(api, 1, seed=4, turn_timer=0)
    assert api.get(f"/api/games/{off}").json()["settings"]["turn_timer"] is None
    token = take(api, gid, 0)
    clock = api.get(f"/api/games/{gid}/state", headers=auth(token)).json()["clock"]
    assert clock["seat"] == 0 and clock["seconds"] == 60 and 50 < clock["remaining"] <= 60


# --- the seat link --------------------------------------------------------------------------------
def test_seat_link_only_for_the_holder(api: httpx.Client) -> None:
    gid, tokens, creator = seated_game(api, 2, seed=5)
    url = f"/api/games/{gid}/seat-link"
    assert api.post(url).status_code == 401
    assert api.post(url, headers=auth("x" * 43)).status_code == 401
    assert api.post(url, headers={"X-Creator-Token": creator}).status_code == 401
    other, _, _ = seated_game(api, 1, seed=6)
    assert api.post(f"/api/games/{other}/seat-link", headers=auth(tokens[0])).status_code == 401
    refused = api.post(url, json={"seat": 1}, headers=auth(tokens[0]))
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    bad_origin = api.post(url, json={"origin": "javascript:alert(1)"}, headers=auth(tokens[0]))
    assert bad_origin.status_code in (400, 422) and bad_origin.json()["error"]["code"] == "bad_message"
    r = api.post(url, json={"seat": 1, "origin": "https://rn.example.org"},
                 headers=auth(tokens[1]))
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["seat"] == 1
    assert body["link"] == f"/g/{gid}#seat={tokens[1]}"
    assert body["url"] == f"https://rn.example.org/g/{gid}#seat={tokens[1]}"
    assert body["qr_svg"].startswith("<svg") and "<script" not in body["qr_svg"]
    # the token is only in the fragment: what a browser sends of this link carries no token
    assert tokens[1] not in httpx.URL(body["url"]).copy_with(fragment=None).raw_path.decode()
    default = api.post(url, headers=auth(tokens[0])).json()
    assert default["url"].startswith(str(api.base_url).rstrip("/") + f"/g/{gid}#seat=")


def test_seat_token_never_in_a_url_or_the_log(own_server: Callable[..., Server]) -> None:
    server = own_server()
    seen: list[str] = []
    with httpx.Client(base_url=server.url, timeout=10.0,
                      event_hooks={"request": [lambda r: seen.append(str(r.url))]}) as api:
        gid, tokens, _ = seated_game(api, 2, seed=7)
        link = api.post(f"/api/games/{gid}/seat-link", headers=auth(tokens[0])).json()
        # the other device: opens the page (no fragment is sent), then proves the token
        assert api.get(link["url"].split("#")[0]).status_code == 200
        state = api.get(f"/api/games/{gid}/state", headers=auth(tokens[0])).json()
        assert state["seat"] == 0
    assert seen and not any(t in u for u in seen for t in tokens)
    server.stop()
    assert not any(t in server.log_path.read_text(errors="replace") for t in tokens)


# --- expiry ---------------------------------------------------------------------------------------
def _sql(db: Path) -> Engine:
    """The test database of ``db`` (SQLite, or PostgreSQL with RN_TEST_DB=postgresql)."""
    return create_engine(database_url(db))


def _age(db: Path, gids: list[str], seconds: float) -> None:
    engine = _sql(db)
    with engine.begin() as c:
        for gid in gids:
            c.execute(text("UPDATE rn_games SET updated = :t WHERE id = :g"),
                      {"t": time.time() - seconds, "g": gid})
    engine.dispose()


def test_expiry_at_start_deletes_only_untouched_waiting_games(
        own_server: Callable[..., Server], tmp_path: Path) -> None:
    db = tmp_path / "expiry.db"
    server = own_server(db=db)
    with httpx.Client(base_url=server.url, timeout=10.0) as api:
        stale, _ = new_game(api, 2, seed=8, listed=True)
        stale_seated, _ = new_game(api, 2, seed=8)
        take(api, stale_seated, 0)
        fresh, _ = new_game(api, 2, seed=9)
        playing, _, _ = seated_game(api, 1, seed=10)
    server.stop()
    _age(db, [stale, stale_seated, playing], 7200)
    _age(db, [fresh], 1800)
    again = own_server("--waiting-expiry", "3600", db=db)
    with httpx.Client(base_url=again.url, timeout=10.0) as api:
        for gid in (stale, stale_seated):
            assert api.get(f"/api/games/{gid}").status_code == 404
            assert api.get(f"/g/{gid}").status_code == 200  # the page, which says "not found"
        assert api.get(f"/api/games/{fresh}").status_code == 200
        assert api.get(f"/api/games/{playing}").json()["status"] == "playing"
        assert stale not in [g["id"] for g in api.get("/api/games").json()["games"]]
    engine = _sql(db)
    with engine.connect() as c:
        for table in ("rn_seats", "rn_table_settings", "rn_actions", "rn_chat"):
            assert c.execute(text(f"SELECT COUNT(*) FROM {table} WHERE game_id IN (:a, :b)"),
                             {"a": stale, "b": stale_seated}).scalar_one() == 0
    engine.dispose()


def _updated(db: Path, gid: str) -> float:
    engine = _sql(db)
    with engine.connect() as c:
        value = c.execute(text("SELECT updated FROM rn_games WHERE id = :g"), {"g": gid}).scalar_one()
    engine.dispose()
    return float(value)


def test_seats_and_connections_touch_a_waiting_game(own_server: Callable[..., Server],
                                                     tmp_path: Path) -> None:
    db = tmp_path / "touch.db"
    server = own_server(db=db)
    with httpx.Client(base_url=server.url, timeout=10.0) as api:
        gid, _ = new_game(api, 2, seed=11)
        _age(db, [gid], 5000)
        api.get(f"/api/games/{gid}")  # looking at the summary is no touch
        assert _updated(db, gid) < time.time() - 4000
        take(api, gid, 0)
        assert _updated(db, gid) > time.time() - 60
        _age(db, [gid], 5000)
        with WsClient(server.url, gid):
            assert _updated(db, gid) > time.time() - 60


def test_periodic_expiry_spares_watched_games(own_server: Callable[..., Server]) -> None:
    server = own_server("--waiting-expiry", "2")
    with httpx.Client(base_url=server.url, timeout=10.0) as api:
        lonely, _ = new_game(api, 2, seed=12)
        watched, _ = new_game(api, 2, seed=13)
        full, _, _ = seated_game(api, 1, seed=14)
        with WsClient(server.url, watched):  # a connection keeps it
            wait_for(lambda: api.get(f"/api/games/{lonely}").status_code == 404)
            created = time.monotonic()
            wait_for(lambda: time.monotonic() - created > 2.5)  # another sweep or two
            assert api.get(f"/api/games/{watched}").status_code == 200
        # once nobody watches, the waiting table ages and goes; a game in play never expires
        wait_for(lambda: api.get(f"/api/games/{watched}").status_code == 404)
        assert api.get(f"/api/games/{full}").json()["status"] == "playing"


# --- the turn timer -------------------------------------------------------------------------------
def _timeout_notes(ws: WsClient) -> list[dict[str, Any]]:
    return [m["message"] for m in ws.received
            if m.get("type") == "chat" and m["message"].get("system") == "timeout"]


def test_turn_timer_moves_for_the_seat_once(own_server: Callable[..., Server]) -> None:
    server = own_server("--turn-timer-min", "1")
    with httpx.Client(base_url=server.url, timeout=10.0) as api:
        gid, _ = new_game(api, 2, seed=14, turn_timer=2)
        tokens = [take(api, gid, 0), take(api, gid, 1)]
        summary = api.get(f"/api/games/{gid}").json()
        v0, mover = summary["version"], summary["to_move"]
        assert summary["clock"]["seat"] == mover and summary["clock"]["seconds"] == 2
        with WsClient(server.url, gid, [tokens[mover]]) as ws:
            st = ws.until(lambda m: m["type"] == "state")
            assert st["clock"]["seat"] == mover and 0 < st["clock"]["remaining"] <= 2
            moved = ws.until(lambda m: m["type"] == "state" and m["version"] > v0, timeout=15)
            wait_for(lambda: ws.drain(0.2) is not None and _timeout_notes(ws))
            note = _timeout_notes(ws)[0]
            assert note["for_seat"] == mover and note["seat"] == -1
            assert moved["seats"][mover]["kind"] == "human"  # the seat stays the player's
            assert moved["version"] == v0 + 1
            # the next decision's clock starts with the move (in the very state that shows it)
            assert moved["clock"] is not None and moved["clock"]["remaining"] > 1.5
        after = api.get(f"/api/games/{gid}").json()
        assert after["seats"][mover]["kind"] == "human"
        # the note is stored with the game's chat (a new connection gets it in its welcome)
        with WsClient(server.url, gid) as spectator:
            welcome = next(m for m in spectator.received if m["type"] == "welcome")
            assert any(m.get("system") == "timeout" for m in welcome["chat"])


def test_turn_timer_survives_a_restart_and_skips_bots(own_server: Callable[..., Server],
                                                      tmp_path: Path) -> None:
    db = tmp_path / "timer.db"
    server = own_server("--turn-timer-min", "1", db=db)
    with httpx.Client(base_url=server.url, timeout=10.0) as api:
        gid, tokens, _ = seated_game(api, 1, seed=15, turn_timer=3)
        v0 = api.get(f"/api/games/{gid}").json()["version"]
        botted, creator = new_game(api, 1, seed=16, turn_timer=1)
        assert api.post(f"/api/games/{botted}/seats/0/bot", json={"bot": "random"},
                        headers={"X-Creator-Token": creator}).status_code == 200
    server.kill()
    again = own_server("--turn-timer-min", "1", "--bot-delay", "0.5", db=db)
    with httpx.Client(base_url=again.url, timeout=10.0) as api:
        after = wait_for(lambda: (s := api.get(f"/api/games/{gid}").json())["version"] > v0 and s)
        assert after["seats"][0]["kind"] == "human"
        state = api.get(f"/api/games/{gid}/state", headers=auth(tokens[0])).json()
        assert state["seat"] == 0
        # a bot seat has no clock
        assert api.get(f"/api/games/{botted}").json()["clock"] is None


# --- a database made before the table settings ------------------------------------------------------
def test_old_schema_database_opens(own_server: Callable[..., Server], tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    engine = create_engine(database_url(db))
    old = MetaData()
    for table in (games_table, seats_table, actions_table, chat_table):
        table.to_metadata(old)
    old.create_all(engine)
    with engine.begin() as c:  # the columns of later migrations
        for sql in ("ALTER TABLE rn_games DROP COLUMN rematch",  # later migrations' (0004, 0005)
                    "DROP INDEX ix_rn_games_status_client", "ALTER TABLE rn_games DROP COLUMN client"):
            c.execute(text(sql))
    now = time.time()
    config = Config(2, 2, frozenset(), 99).to_dict()
    with engine.begin() as c:
        c.execute(games_table.insert().values(id="oldgame0001", config=json.dumps(config),
                                              status="waiting", version=0, creator_hash="0" * 64,
                                              result=None, created=now, updated=now))
        c.execute(seats_table.insert(), [{"game_id": "oldgame0001", "seat": s, "kind": "free",
                                          "name": None, "bot": None, "token_hash": None}
                                         for s in range(2)])
    engine.dispose()
    store = Store(database_url(db))
    rec = store.load_game("oldgame0001")
    assert rec is not None and rec.listed is False and rec.settings == {}
    store.close()
    server = own_server(db=db)
    with httpx.Client(base_url=server.url, timeout=10.0) as api:
        summary = api.get("/api/games/oldgame0001").json()
        assert summary["settings"] == {"listed": False, "turn_timer": None, "hints": True,
                                       "hints_used": [], "away_bot": None, "pace": "real-time",
                                       "move_deadline": None}
        take(api, "oldgame0001", 0)
        take(api, "oldgame0001", 1)
        assert api.get("/api/games/oldgame0001").json()["status"] == "playing"
        gid, _ = new_game(api, 2, listed=True)
        assert gid in [g["id"] for g in api.get("/api/games").json()["games"]]


def test_an_undo_buys_no_time_on_the_turn_timer(own_server: Callable[..., Server]) -> None:
    """Every change restarts the clock of the decision in play, except an undo: taking a move
    back must not give the player a fresh clock."""
    server = own_server("--turn-timer-min", "1")
    with httpx.Client(base_url=server.url, timeout=10.0) as api:
        gid, _ = new_game(api, 3, seed=5, turn_timer=30)
        tokens = [take(api, gid, s) for s in range(3)]
        mover = api.get(f"/api/games/{gid}").json()["to_move"]
        st = api.get(f"/api/games/{gid}/state", headers=auth(tokens[mover])).json()
        opening = next(a["text"] for a in st["actions"] if a["kind"] == "open")
        assert api.post(f"/api/games/{gid}/act", json={"action": opening},
                        headers=auth(tokens[mover])).status_code == 200
        after_move = api.get(f"/api/games/{gid}").json()["clock"]["remaining"]
        time.sleep(1.2)
        assert api.post(f"/api/games/{gid}/undo", json={},
                        headers=auth(tokens[mover])).status_code == 200
        clock = api.get(f"/api/games/{gid}").json()["clock"]
        assert clock["seat"] == mover and clock["remaining"] <= after_move - 1.0, clock


def test_a_move_and_its_undo_give_back_no_time(own_server: Callable[..., Server]) -> None:
    """A move restarts the clock (a decision made), so a move taken back must put the clock back
    where the position it restores had it: move and undo, again and again, stalled the table
    on a fresh clock each time (browser audit, stop 55)."""
    server = own_server("--turn-timer-min", "1")
    with httpx.Client(base_url=server.url, timeout=10.0) as api:
        gid, _ = new_game(api, 3, seed=5, turn_timer=30)
        tokens = [take(api, gid, s) for s in range(3)]
        mover = api.get(f"/api/games/{gid}").json()["to_move"]
        headers = auth(tokens[mover])
        time.sleep(1.5)  # she thinks, then moves and takes it back, twice
        before = api.get(f"/api/games/{gid}").json()["clock"]["remaining"]
        assert before <= 28.8
        for _ in range(2):
            st = api.get(f"/api/games/{gid}/state", headers=headers).json()
            opening = next(a["text"] for a in st["actions"] if a["kind"] == "open")
            assert api.post(f"/api/games/{gid}/act", json={"action": opening},
                            headers=headers).status_code == 200
            fresh = api.get(f"/api/games/{gid}").json()["clock"]["remaining"]
            assert fresh > before + 1.0  # a move: a fresh clock for the next decision
            assert api.post(f"/api/games/{gid}/undo", json={}, headers=headers).status_code == 200
            clock = api.get(f"/api/games/{gid}").json()["clock"]
            assert clock["seat"] == mover and clock["remaining"] <= before, (clock, before)
