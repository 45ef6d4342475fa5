"""Rematch: one click after the end starts the next game with the same seats and a new seed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
from pgcluster import database_url
from sqlalchemy import create_engine, text
from test_server_replay import _play
from webtools import Server, WsClient, auth, get_until


def test_rematch_keeps_the_seats_and_their_tokens_with_a_new_seed(
        api: httpx.Client, ws_client: Callable[..., WsClient]) -> None:
    gid, tokens, g = _play(api, 3, seed=6, moves=3000)
    assert g.result is not None
    early = ws_client(gid)  # a spectator cannot start it
    refused = early.request({"type": "rematch"})
    assert refused["type"] == "error" and refused["code"] == "unauthorised"
    ada = ws_client(gid, [tokens[0]])
    bea = ws_client(gid, [tokens[1]])
    ack = ada.request({"type": "rematch"})
    assert ack["type"] == "ack"
    nxt = ack["next"]
    assert bea.until(lambda m: m["type"] == "rematch")["next"] == nxt
    assert bea.request({"type": "rematch"})["next"] == nxt  # asking again joins the same game
    old, new = api.get(f"/api/games/{gid}").json(), api.get(f"/api/games/{nxt}").json()
    assert new["status"] == "playing" and new["version"] > 0
    assert new["config"]["seed"] is None and isinstance(old["config"]["seed"], int)  # hidden
    assert {k: v for k, v in new["config"].items() if k != "seed"} == \
        {k: v for k, v in old["config"].items() if k != "seed"}
    def seats(summary: dict[str, object]) -> list[tuple[object, object]]:
        return [(s["kind"], s["name"]) for s in summary["seats"]]  # type: ignore[attr-defined]

    assert seats(new) == seats(old)
    for seat, token in enumerate(tokens):  # every player's token holds its seat in the new game
        assert api.get(f"/api/games/{nxt}/legal", headers=auth(token)).json()["seat"] == seat
    for seat, token in enumerate(tokens):  # bots finish it: its seed is shown at the end
        r = api.post(f"/api/games/{nxt}/seats/{seat}/bot", json={"bot": "heuristic"},
                     headers=auth(token))
        assert r.status_code == 200, r.text
    over = get_until(api, f"/api/games/{nxt}", lambda r: r.json()["status"] == "over").json()
    assert isinstance(over["config"]["seed"], int) and over["config"]["seed"] != \
        old["config"]["seed"]  # a new deal


def test_seats_handed_to_bots_are_their_players_again_in_the_rematch(
        api: httpx.Client, ws_client: Callable[..., WsClient]) -> None:
    """A group lets bots finish the game and asks for the next: each player who handed their
    seat to a bot plays it again, under their own name (a table of bots would start and play
    on at once)."""
    gid, tokens, _ = _play(api, 3, seed=8, moves=0)
    for seat in (1, 2):  # their players hand them over; seat 0's plays on
        assert api.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": "heuristic"},
                        headers=auth(tokens[seat])).status_code == 200
    assert api.post(f"/api/games/{gid}/seats/0/bot", json={"bot": "heuristic"},
                    headers=auth(tokens[0])).status_code == 200
    ada = ws_client(gid, [tokens[0]])  # her page, which may take the seat back: and ask for more
    get_until(api, f"/api/games/{gid}", lambda r: r.json()["status"] == "over")  # bots play
    asked = ada.request({"type": "rematch"})
    assert asked["type"] == "ack", asked
    nxt = asked["next"]
    new = api.get(f"/api/games/{nxt}").json()
    assert [(s["kind"], s["name"], s["bot"]) for s in new["seats"]] == \
        [("human", f"P{seat}", None) for seat in range(3)]
    assert new["status"] == "playing"
    for seat, token in enumerate(tokens):  # every player's token holds their seat again
        legal = api.get(f"/api/games/{nxt}/legal", headers=auth(token)).json()
        assert legal["seat"] == seat
    assert api.get(f"/api/games/{nxt}/replay/0").json()["steps"] == 0  # nobody played for them


def test_no_rematch_before_the_end(api: httpx.Client, ws_client: Callable[..., WsClient]) -> None:
    gid, tokens, _ = _play(api, 3, seed=7, moves=3)
    ada = ws_client(gid, [tokens[0]])
    early = ada.request({"type": "rematch"})
    assert early["type"] == "error" and early["code"] == "forbidden"


def test_the_rematch_is_stored_and_survives_a_restart(
        server_factory: Callable[..., Server], tmp_path: Path) -> None:
    """Asking again after the server was restarted (the finished game rebuilt from the
    database) joins the same rematch: the link is stored, not only in memory."""
    db = tmp_path / "games.db"
    first = server_factory(db)
    with httpx.Client(base_url=first.url, timeout=10) as api:
        gid, tokens, g = _play(api, 3, seed=6, moves=3000)
    assert g.result is not None
    with WsClient(first.url, gid, [tokens[0]]) as ada:
        nxt = ada.request({"type": "rematch"})["next"]
    first.stop()
    second = server_factory(db)
    with WsClient(second.url, gid, [tokens[2]]) as cid:
        assert cid.request({"type": "rematch"})["next"] == nxt
    engine = create_engine(database_url(db))  # SQLite, or PostgreSQL with RN_TEST_DB
    with engine.connect() as c:
        rows = c.execute(text("SELECT id, rematch FROM rn_games ORDER BY created")).fetchall()
    engine.dispose()
    assert [tuple(r) for r in rows] == [(gid, nxt), (nxt, None)]
