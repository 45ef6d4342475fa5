"""The advisor over the WebSocket (web/hints.py): a ``hint`` for the seat to move, answered to the
asking connection alone; refused for spectators, other seats and tables with hints off; one at a
time per connection; the seats that used hints recorded, kept over a restart and reported at the
end; the game goes on while the advisor thinks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from webtools import Server, WsClient, auth, new_game, seated_game, take

from rednovember.web.hub.hints import BURST
from rednovember.web.tables import TableSettings


def mover(api: httpx.Client, gid: str) -> int:
    seat: int = api.get(f"/api/games/{gid}").json()["to_move"]
    return seat


def ask(c: WsClient, seat: int, rid: str = "h1") -> dict[str, Any]:
    """A hint request and its final answer (the ``done`` hint or an error)."""
    c.send({"type": "hint", "seat": seat, "id": rid})
    return c.until(lambda m: m.get("id") == rid and (
        m["type"] == "error" or (m["type"] == "hint" and m["status"] == "done")), 30)


def test_the_seat_to_move_gets_three_plans_and_nobody_else_sees_them(
        api: httpx.Client, ws_client: Callable[..., WsClient]) -> None:
    gid, tokens, _ = seated_game(api, 3, seed=5)
    m = mover(api, gid)
    me = ws_client(gid, [tokens[m]])
    other = ws_client(gid, [tokens[(m + 1) % 3]])
    watcher = ws_client(gid)
    done = ask(me, m)
    assert done["type"] == "hint" and done["seat"] == m and done["stale"] is False
    thinking = [x for x in me.received if x["type"] == "hint" and x["status"] == "thinking"]
    assert thinking and thinking[0]["progress"] == 0.0
    plans = done["plans"]
    assert 1 <= len(plans) <= 3
    for p in plans:
        assert p["steps"][-1] == p["action"]
        assert 0.0 <= p["chance"]["low"] <= p["chance"]["chance"] <= p["chance"]["high"] <= 1.0
        assert set(p["meets"]) == {"events", "items"} and p["minutes"] >= 1
    chances = [p["chance"]["chance"] for p in plans]
    assert chances == sorted(chances, reverse=True)
    legal = {a["text"] for a in me.states[m]["actions"]}
    assert {p["steps"][0] for p in plans} <= legal  # each plan starts with a legal action
    for c in (other, watcher):
        c.drain()
        assert not [x for x in c.received if x["type"] == "hint"]


def test_spectators_and_other_seats_are_refused(
        api: httpx.Client, ws_client: Callable[..., WsClient]) -> None:
    gid, tokens, _ = seated_game(api, 3, seed=6)
    m = mover(api, gid)
    o = (m + 1) % 3
    other = ws_client(gid, [tokens[o]])
    watcher = ws_client(gid)
    assert ask(watcher, m)["code"] == "unauthorised"
    assert ask(other, m)["code"] == "forbidden"  # not its seat
    mine = ask(other, o)  # its own seat, not to move
    assert mine["code"] == "not_your_turn" and mine["ref"] == "hint"
    bad = other.request({"type": "hint", "seat": "zero"})
    assert bad["code"] == "bad_message"
    extra = other.request({"type": "hint", "seat": o, "text": "x"})
    assert extra["code"] == "bad_message"
    assert not [x for x in other.received + watcher.received if x["type"] == "hint"]
    assert api.get(f"/api/games/{gid}").json()["settings"]["hints_used"] == []


def test_one_hint_at_a_time_per_connection_and_the_game_goes_on_meanwhile(
        api: httpx.Client, ws_client: Callable[..., WsClient]) -> None:
    gid, tokens, _ = seated_game(api, 3, seed=7)
    m = mover(api, gid)
    me = ws_client(gid, [tokens[m]])
    me.send({"type": "hint", "seat": m, "id": "a"})
    second = ask(me, m, "b")
    assert second["type"] == "error" and second["code"] == "rate_limited"
    assert second["detail"] == "hint_under_way"
    assert me.request({"type": "ping"})["type"] == "pong"  # the connection is not blocked
    assert me.request({"type": "chat", "seat": m, "text": "thinking…"})["type"] == "ack"
    first = me.until(lambda x: x.get("id") == "a" and x["type"] == "hint"
                     and x["status"] == "done", 30)
    assert first["plans"]


def test_hints_off_refuses_and_says_so_in_the_settings(
        api: httpx.Client, ws_client: Callable[..., WsClient]) -> None:
    gid, creator = new_game(api, 3, seed=5, hints=False)
    tokens = [take(api, gid, s) for s in range(3)]
    summary = api.get(f"/api/games/{gid}").json()
    assert summary["settings"]["hints"] is False
    m = summary["to_move"]
    me = ws_client(gid, [tokens[m]])
    refused = ask(me, m)
    assert refused["code"] == "forbidden" and refused["detail"] == "hints_off"
    on = api.get(f"/api/games/{new_game(api, 3)[0]}").json()["settings"]
    assert on["hints"] is True and on["hints_used"] == []  # the default: on
    assert api.post("/api/games", json={"players": 3, "hints": "maybe"}).status_code == 422


def test_hints_used_are_recorded_kept_over_a_restart_and_reported_after_the_end(
        tmp_path: Path, server_factory: Callable[..., Server]) -> None:
    db = tmp_path / "games.db"
    server = server_factory(db)
    with httpx.Client(base_url=server.url, timeout=30) as api:
        gid, tokens, _ = seated_game(api, 3, seed=5)
        m = mover(api, gid)
        with WsClient(server.url, gid, [tokens[m]]) as me:
            assert ask(me, m)["type"] == "hint"
            assert ask(me, m, "again")["type"] == "hint"  # a second hint: still one seat
        assert api.get(f"/api/games/{gid}").json()["settings"]["hints_used"] == [m]
    server.stop()
    again = server_factory(db)
    with httpx.Client(base_url=again.url, timeout=30) as api:
        assert api.get(f"/api/games/{gid}").json()["settings"]["hints_used"] == [m]
        with WsClient(again.url, gid) as watcher:
            for seat in range(3):
                assert api.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": "heuristic"},
                                headers=auth(tokens[seat])).status_code == 200
            watcher.until(lambda x: x["type"] == "state" and x["status"] == "over", 120)
        over = api.get(f"/api/games/{gid}").json()
        assert over["status"] == "over" and over["settings"]["hints_used"] == [m]
        assert over["settings"]["hints"] is True


def test_settings_round_trip_and_a_rematch_starts_unused() -> None:
    s = TableSettings(True, 60, True, (2, 0))
    assert TableSettings.from_stored(True, s.stored()) == s
    assert TableSettings.from_stored(False, {"turn_timer": None}) == TableSettings()
    assert TableSettings.from_stored(False, {"hints": False}).hints is False
    assert s.for_rematch() == TableSettings(True, 60, True, ())


def test_a_hint_between_opening_a_hatch_and_entering_starts_there(
        api: httpx.Client, ws_client: Callable[..., WsClient]) -> None:
    gid, tokens, _ = seated_game(api, 3, seed=8)
    m = mover(api, gid)
    me = ws_client(gid, [tokens[m]])
    me.until(lambda x: x["type"] == "state" and x["seat"] == m)
    opens = [a["text"] for a in me.states[m]["actions"] if a["kind"] == "open"]
    assert opens
    assert me.request({"type": "act", "seat": m, "action": opens[0]})["type"] == "ack"
    answer = ask(me, m)  # issue 18 §4: the hint stays for the whole turn's moves
    assert answer["type"] == "hint" and answer["plans"]
    for plan in answer["plans"]:
        assert plan["steps"][0].split()[0] in ("enter", "stay", "play")


def test_more_tabs_bring_a_seat_no_more_hints(
        api: httpx.Client, ws_client: Callable[..., WsClient]) -> None:
    """The hints a minute are the seat's, whatever number of connections asks: one player
    cannot keep the server's advisor to themselves by opening tabs."""
    gid, tokens, _ = seated_game(api, 3, seed=7)
    m = mover(api, gid)
    answers = [ask(ws_client(gid, [tokens[m]]), m, f"t{i}") for i in range(BURST + 1)]
    assert [a["type"] for a in answers] == ["hint"] * BURST + ["error"]
    assert answers[-1]["code"] == "rate_limited" and answers[-1].get("detail") is None


def test_a_client_gets_so_many_hints_a_minute_across_its_games_and_processes(
        tmp_path: Path) -> None:
    """``--limit-hints-per-minute`` counts a client's hints in the database: more games, more
    seats or a second server process on the same database bring it no more of the advisor's
    time (the seat's own limit is per process and per seat)."""
    from pgcluster import cluster

    url = cluster().database(f"hints_{tmp_path.name[-20:].lower()}")
    flags = ["--limit-hints-per-minute", "3"]
    servers = [Server(tmp_path / f"h{i}.db", extra=flags, db_url=url, limits=True).start()
               for i in range(2)]
    try:
        answers = []
        with httpx.Client(base_url=servers[0].url, timeout=10) as api:
            for i in range(4):  # a new game each time: a seat's own limit never comes into it
                gid, tokens, _ = seated_game(api, 2, seed=20 + i)
                m = mover(api, gid)
                with WsClient(servers[i % 2].url, gid, [tokens[m]]) as c:
                    answers.append(ask(c, m, f"g{i}"))
        assert [a["type"] for a in answers] == ["hint"] * 3 + ["error"], answers
        assert answers[-1]["code"] == "rate_limited" and answers[-1]["ref"] == "hint"
        assert answers[-1]["detail"] == "rate"
    finally:
        for s in servers:
            s.stop()
