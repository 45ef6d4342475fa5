"""A server killed mid-game (SIGKILL) and restarted on the same SQLite file: every game is
rebuilt from its stored seed and action log, tokens still work, bot games go on."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from webtools import Server, WsClient, auth, new_game, seated_game, take


def _play(api: httpx.Client, gid: str, tokens: list[str], moves: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        summary = api.get(f"/api/games/{gid}").json()
        if summary["status"] != "playing":
            return
        seat = summary["to_move"]
        actions = api.get(f"/api/games/{gid}/legal", headers=auth(tokens[seat])).json()["actions"]
        choice = rng.choice([a for a in actions if a["kind"] != "abandon"] or actions)
        r = api.post(f"/api/games/{gid}/act", json={"action": choice["text"]},
                     headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text


def _views(api: httpx.Client, gid: str, tokens: list[str]) -> list[dict[str, Any]]:
    out = [api.get(f"/api/games/{gid}/state").json()]
    out += [api.get(f"/api/games/{gid}/state", headers=auth(t)).json() for t in tokens]
    for s in out:
        for seat in s["seats"]:
            seat["connected"] = None  # presence is not persistent
    return out


def test_killed_server_restarts_with_every_game(server_factory: Callable[..., Server],
                                                tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    server = server_factory(db, bot_delay=0.05)
    with httpx.Client(base_url=server.url, timeout=10) as api:
        plain, plain_tokens, _ = seated_game(api, 3, seed=31)
        _play(api, plain, plain_tokens, 25, 1)
        mad, mad_tokens, _ = seated_game(api, 4, seed=32, variants=["mad-gnomes", "harder"])
        _play(api, mad, mad_tokens, 40, 2)
        undo_game, undo_tokens, _ = seated_game(api, 3, seed=5)
        seat = api.get(f"/api/games/{undo_game}").json()["to_move"]
        st = api.get(f"/api/games/{undo_game}/state", headers=auth(undo_tokens[seat])).json()
        opening = next(a["text"] for a in st["actions"] if a["kind"] == "open")
        api.post(f"/api/games/{undo_game}/act", json={"action": opening},
                 headers=auth(undo_tokens[seat]))
        waiting, creator = new_game(api, 3, seed=33, listed=True)
        waiting_token = take(api, waiting, 1)
        bots, bot_creator = new_game(api, 3, seed=34)
        for s in range(3):
            r = api.post(f"/api/games/{bots}/seats/{s}/bot", json={"bot": "random"},
                         headers={"X-Creator-Token": bot_creator})
            assert r.status_code == 200
        spectator = WsClient(server.url, bots)
        spectator.until(lambda m: m["type"] == "state" and m["version"] >= 8)
        seen = spectator.states[None]
        seen_log = list(spectator.logs[None])
        assert seen["status"] == "playing", seen["result"]
        before = {gid: _views(api, gid, toks) for gid, toks in
                  ((plain, plain_tokens), (mad, mad_tokens), (undo_game, undo_tokens),
                   (waiting, [waiting_token]))}
        listed = {g["id"] for g in api.get("/api/games", params={"limit": 200}).json()["games"]}
        assert waiting in listed  # an open table stays open across the restart
    spectator.close()
    server.kill()
    assert not server.alive()

    server.bot_delay = 0.0
    server.start()
    with httpx.Client(base_url=server.url, timeout=10) as api:
        after_list = {g["id"] for g in api.get("/api/games", params={"limit": 200}).json()["games"]}
        assert after_list == listed
        for gid, toks in ((plain, plain_tokens), (mad, mad_tokens), (undo_game, undo_tokens),
                          (waiting, [waiting_token])):
            assert _views(api, gid, toks) == before[gid], f"game {gid} changed in the restart"
        # Tokens still work, and undo still knows who made the last action.
        r = api.post(f"/api/games/{undo_game}/undo", json={}, headers=auth(undo_tokens[seat]))
        assert r.status_code == 200, r.text
        _play(api, plain, plain_tokens, 5, 3)
        assert api.post(f"/api/games/{waiting}/seats", json={"seat": 1, "name": "x"}).json()[
            "error"]["code"] == "seat_taken"
        assert api.post(f"/api/games/{waiting}/seats/0/bot", json={"bot": "random"},
                        headers={"X-Creator-Token": creator}).status_code == 200
        # The bot game was rebuilt past what the spectator saw, and its bots finish it.
        deadline = time.monotonic() + 60
        while api.get(f"/api/games/{bots}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the bot game did not finish after the restart"
            time.sleep(0.1)
        final = api.get(f"/api/games/{bots}/state").json()
        assert final["version"] > seen["version"]
        assert len(seen_log) > 5 and final["log"][:len(seen_log)] == seen_log
        save = api.get(f"/api/games/{bots}/export").json()
        assert save["format"] == "rednovember-save" and save["state"]["result"] is not None


def test_spectator_log_prefix_survives_restart(server_factory: Callable[..., Server],
                                               tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    server = server_factory(db)
    with httpx.Client(base_url=server.url, timeout=10) as api:
        gid, tokens, _ = seated_game(api, 3, seed=40)
        _play(api, gid, tokens, 30, 4)
        log_before = api.get(f"/api/games/{gid}/state").json()["log"]
    server.kill()
    server.start()
    with httpx.Client(base_url=server.url, timeout=10) as api:
        c = WsClient(server.url, gid, tokens[:1])
        st = c.recv()
        assert st["log"] == log_before and st["log_start"] == 0
        c.close()
