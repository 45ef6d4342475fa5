"""Mad Gnomes hides hands: a whole game played over WebSockets, and every message every
connection received inspected for information its seats may not see."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import httpx
from webtools import WsClient, seated_game

from rednovember.rules import Config, load_data
from rednovember.rules.serialize import replay
from rednovember.rules.view import log_for

Connect = Callable[..., WsClient]
PLAYERS = 4


def _plain(x: Any) -> Any:
    return json.loads(json.dumps(x))


def _check_state(msg: dict[str, Any], holder_seats: set[int]) -> None:
    seat = msg["seat"]
    assert seat is None or seat in holder_seats, "a state for a seat this connection does not hold"
    for gn in msg["view"]["gnomes"]:
        if gn["player"] != seat:
            assert gn["hand"] is None, f"seat {seat} was sent gnome {gn['number']}'s hand"
        assert isinstance(gn["hand_size"], int)
    for key in ("rng", "event_deck", "item_deck"):
        assert key not in msg["view"]
    if msg["actions"] or msg["view"]["legal"]:
        assert seat is not None and msg["your_turn"] and msg["to_move"] == seat


def test_mad_gnomes_game_leaks_nothing(api: httpx.Client, ws_client: Connect) -> None:
    gid, tokens, _ = seated_game(api, PLAYERS, seed=2024, variants=["mad-gnomes"])
    solo = ws_client(gid, [tokens[0]])
    hot = ws_client(gid, tokens[1:3])  # one browser, two seats
    last = ws_client(gid, [tokens[3]])
    spectator = ws_client(gid)
    clients = {0: solo, 1: hot, 2: hot, 3: last}
    holders: dict[int, set[int]] = {id(solo): {0}, id(hot): {1, 2}, id(last): {3},
                                    id(spectator): set()}
    everyone = [solo, hot, last, spectator]
    rng = random.Random(7)
    version = 0
    for c in everyone:
        c.drain(0.05)
    other_decisions = 0
    for _ in range(3000):
        state = solo.states[0]
        if state["status"] == "over":
            break
        seat = state["to_move"]
        c = clients[seat]
        mine = c.states[seat]
        assert mine["your_turn"] and mine["version"] == state["version"], (seat, mine["version"])
        if mine["view"]["phase"] == "decide" and mine["view"]["active"] >= 0 and \
                mine["view"]["gnomes"][mine["view"]["active"]]["player"] != seat:
            other_decisions += 1
        choice = rng.choice(mine["actions"])
        answer = c.request({"type": "act", "seat": seat, "action": choice["text"]})
        assert answer["type"] == "ack", answer
        version = answer["version"]
        # Every connection has this version's states before the next move.
        for other in everyone:
            views = holders[id(other)] or {None}
            while any(other.states[s]["version"] != version for s in views):
                other.recv()
    else:
        raise AssertionError("the game did not end")
    for c in everyone:
        c.drain(0.1)
    assert solo.states[0]["result"] is not None
    # The server's export replays to the game the clients saw.
    save = api.get(f"/api/games/{gid}/export").json()
    data = load_data()
    game = replay(data, Config(PLAYERS, None, frozenset({"mad-gnomes"}), 2024), None,
                  save["history"])
    assert game.result is not None and game.result.cause == solo.states[0]["result"]["cause"]
    for c in everyone:
        seats = holders[id(c)]
        logs: dict[Any, list[Any]] = {}
        for msg in c.received:
            if msg["type"] == "state":
                _check_state(msg, seats)
                log = logs.setdefault(msg["seat"], [])
                assert 0 <= msg["log_start"] <= len(log)
                del log[msg["log_start"]:]
                log.extend(msg["log"])
            elif msg["type"] == "welcome":
                assert set(msg["seats"]) == seats
            else:
                assert msg["type"] in ("ack", "seats", "pong"), msg
        for seat in seats or {None}:
            assert logs[seat] == _plain(log_for(game, seat)), f"log of seat {seat} differs"
    # Redaction really happened: somebody drew cards the others could not see.
    hidden = [e for e in logs[None] if e[0] == "draw" and isinstance(e[2], int)]
    assert hidden, "no hidden draw in the whole game"
    assert other_decisions > 0, "no decision of another seat in the whole game"


def test_the_seed_stays_secret_until_the_end(api: httpx.Client, ws_client: Connect) -> None:
    """The seed and the public moves rebuild the game: every hidden hand, both decks' order.
    Nobody sees it in any summary (created, taken, looked up, listed, welcomed) while the game
    waits or runs; once it is over it is public, like the save."""
    created = api.post("/api/games", json={"players": 3, "variants": ["mad-gnomes"],
                                           "listed": True}).json()
    gid, creator = created["game"]["id"], created["creator_token"]
    summaries = [created["game"], api.get(f"/api/games/{gid}").json()]
    summaries += [g for g in api.get("/api/games").json()["games"] if g["id"] == gid]
    taken = api.post(f"/api/games/{gid}/seats", json={"seat": 0, "name": "Ada"}).json()
    summaries.append(taken["game"])
    for seat in (1, 2):
        summaries.append(api.post(f"/api/games/{gid}/seats", json={"seat": seat,
                                                                    "name": "Bea"}).json()["game"])
    spectator = ws_client(gid)
    summaries.append(spectator.received[-1]["game"])
    summaries += api.post("/api/me", json={"games": [gid]}).json()["games"]
    summaries.append(api.get(f"/api/games/{gid}").json())
    assert summaries[-1]["status"] == "playing" and len(summaries) == 9
    for s in summaries:
        assert s["config"]["seed"] is None, s
        assert s["config"]["players"] == 3 and s["config"]["variants"] == ["mad-gnomes"]
    # the bots play it to its end: now the seed is the game's
    for seat in range(3):
        r = api.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": "heuristic"},
                     headers={"X-Creator-Token": creator})
        assert r.status_code == 200, r.text
    spectator.until(lambda m: m["type"] == "state" and m["status"] == "over", 60.0)
    seed = api.get(f"/api/games/{gid}").json()["config"]["seed"]
    assert isinstance(seed, int)
    assert seed == api.get(f"/api/games/{gid}/export").json()["config"]["seed"]
