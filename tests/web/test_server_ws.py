"""The WebSocket protocol against a real server: hello, broadcast, authority, undo, reconnect,
bots, decisions of other players."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from webtools import WsClient, auth, new_game, seated_game, take

from rednovember.rules import Config
from rednovember.rules import new_game as engine_game
from rednovember.rules.serialize import from_dict, replay
from rednovember.rules.state import DECIDE

Connect = Callable[..., WsClient]


def mover(api: httpx.Client, gid: str) -> int:
    seat: int = api.get(f"/api/games/{gid}").json()["to_move"]
    return seat


def test_hello_welcome_and_states(api: httpx.Client, ws_client: Connect) -> None:
    gid, tokens, _ = seated_game(api, 3, seed=5)
    c = ws_client(gid, [tokens[0], "not-a-token", tokens[2]])
    welcome = c.received[-1]
    assert welcome["type"] == "welcome" and welcome["seats"] == [0, 2]
    assert welcome["rejected"] == [1] and not welcome["spectator"]
    states = [c.recv(), c.recv()]
    assert [s["seat"] for s in states] == [0, 2]
    assert all(s["type"] == "state" and s["log_start"] == 0 and s["log"] for s in states)
    assert states[0]["your_turn"] and states[0]["actions"]
    assert not states[1]["your_turn"] and states[1]["actions"] == []
    assert states[1]["view"]["legal"] == []
    spectator = ws_client(gid)
    assert spectator.received[-1]["spectator"]
    s = spectator.recv()
    assert s["seat"] is None and s["actions"] == [] and not s["can_undo"]


def test_unknown_game_and_hello_first(live_server: str, api: httpx.Client) -> None:
    c = WsClient(live_server, "nosuchgame0", hello=False)
    msg = c.recv()
    assert msg["type"] == "error" and msg["code"] == "not_found"
    c.close()
    gid, _ = new_game(api, 3)
    c = WsClient(live_server, gid, hello=False)
    c.send({"type": "ping", "id": 1})
    err = c.recv()
    assert err["code"] == "bad_message" and "hello" in err["message"] and err["id"] == 1
    c.hello([])
    assert c.request({"type": "ping"})["type"] == "pong"
    c.close()


def test_act_broadcasts_to_everyone(api: httpx.Client, ws_client: Connect) -> None:
    gid, tokens, _ = seated_game(api, 3, seed=5)
    a = ws_client(gid, [tokens[0]])
    b = ws_client(gid, [tokens[1]])
    spec = ws_client(gid)
    for c in (a, b, spec):
        c.drain()
    state = a.states[0]
    action = state["actions"][0]["text"]
    answer = a.request({"type": "act", "seat": 0, "action": action, "version": state["version"]})
    assert answer["type"] == "ack" and answer["version"] == state["version"] + 1
    new_a = a.states[0]
    assert new_a["version"] == answer["version"]
    assert new_a["log_start"] == len(state["log"]) and new_a["log"]
    for c, seat in ((b, 1), (spec, None)):
        got = c.until(lambda m: m["type"] == "state")
        assert got["seat"] == seat and got["version"] == answer["version"]
        assert got["log"] == new_a["log"]  # no hidden hands in this game


def test_authority(api: httpx.Client, ws_client: Connect) -> None:
    gid, tokens, _ = seated_game(api, 3, seed=5)
    first = api.get(f"/api/games/{gid}/state", headers=auth(tokens[0])).json()["actions"][0]["text"]
    spec = ws_client(gid)
    err = spec.request({"type": "act", "seat": 0, "action": first})
    assert err["code"] == "unauthorised"
    other = ws_client(gid, [tokens[1]])
    assert other.request({"type": "act", "seat": 0, "action": first})["code"] == "forbidden"
    assert other.request({"type": "act", "seat": 1, "action": first})["code"] == "not_your_turn"
    assert other.request({"type": "undo", "seat": 0})["code"] == "forbidden"
    hot = ws_client(gid, [tokens[0]])
    assert hot.request({"type": "act", "seat": 0, "action": "fly away"})["code"] == "illegal"
    assert hot.request({"type": "act", "seat": 0, "action": first, "version": 0})["code"] == "stale"
    assert api.get(f"/api/games/{gid}").json()["version"] == 3


def test_hot_seat_gets_each_view(api: httpx.Client, ws_client: Connect) -> None:
    gid, tokens, _ = seated_game(api, 3, seed=9, variants=["mad-gnomes"])
    hot = ws_client(gid, tokens[:2])
    s0, s1 = hot.recv(), hot.recv()
    assert (s0["seat"], s1["seat"]) == (0, 1)
    assert s0["view"]["gnomes"][0]["hand"] is not None and s0["view"]["gnomes"][1]["hand"] is None
    assert s1["view"]["gnomes"][1]["hand"] is not None and s1["view"]["gnomes"][0]["hand"] is None
    assert s0["view"]["gnomes"][2]["hand"] is None and s1["view"]["gnomes"][2]["hand"] is None


def test_reconnect_resumes(api: httpx.Client, ws_client: Connect) -> None:
    gid, tokens, _ = seated_game(api, 3, seed=5)
    a = ws_client(gid, [tokens[0]])
    a.drain()
    for _ in range(2):
        st = a.states[0]
        a.request({"type": "act", "seat": 0, "action": st["actions"][-1]["text"]})
    before = a.states[0]
    log = api.get(f"/api/games/{gid}/state", headers=auth(tokens[0])).json()["log"]
    a.close()
    summary = api.get(f"/api/games/{gid}").json()
    assert summary["seats"][0]["kind"] == "human" and not summary["seats"][0]["connected"]
    back = ws_client(gid, [tokens[0]])
    st = back.recv()
    assert st["version"] == before["version"] and st["log_start"] == 0 and st["log"] == log
    assert st["view"] == before["view"]
    back.send({"type": "sync"})
    again = back.until(lambda m: m["type"] == "state")
    assert again["log_start"] == 0 and again["log"] == log
    assert api.get(f"/api/games/{gid}").json()["seats"][0]["connected"]


def test_undo_limits(api: httpx.Client, ws_client: Connect) -> None:
    gid, tokens, _ = seated_game(api, 3, seed=5)
    a = ws_client(gid, [tokens[0]])
    b = ws_client(gid, [tokens[1]])
    a.drain()
    assert a.request({"type": "undo", "seat": 0})["code"] == "cannot_undo"  # nothing yet
    start = a.states[0]
    open_ = next(x["text"] for x in start["actions"] if x["kind"] == "open")
    a.request({"type": "act", "seat": 0, "action": open_})
    assert a.states[0]["can_undo"]
    b.drain()
    assert not b.states[1]["can_undo"]
    assert b.request({"type": "undo", "seat": 1})["code"] == "cannot_undo"  # not b's action
    ack = a.request({"type": "undo", "seat": 0, "version": a.states[0]["version"]})
    assert ack["type"] == "ack"
    after = a.states[0]
    assert after["view"] == start["view"] | {"undo_barrier": after["view"]["undo_barrier"]}
    assert after["log_start"] <= len(start["log"]) and not after["can_undo"]
    # Play on until the turn passes: the previous player can no longer undo.
    rng = random.Random(1)
    while True:
        st = a.states[0]
        if not st["your_turn"]:
            break
        choice = rng.choice([x for x in st["actions"] if x["kind"] != "abandon"])
        assert a.request({"type": "act", "seat": 0, "action": choice["text"]})["type"] == "ack"
    assert not a.states[0]["can_undo"]
    assert a.request({"type": "undo", "seat": 0})["code"] in ("cannot_undo", "game_over")
    stored = api.get(f"/api/games/{gid}").json()
    assert stored["version"] == a.states[0]["version"]


def test_bot_seats_finish_the_game(api: httpx.Client, ws_client: Connect) -> None:
    gid, creator = new_game(api, 3, seed=11)
    me = take(api, gid, 0)
    spec = ws_client(gid)
    c = ws_client(gid, [me])
    assert c.request({"type": "bot", "seat": 1, "bot": "nope"})["code"] == "unknown_bot"
    assert spec.request({"type": "bot", "seat": 1, "bot": "random"})["code"] == "unauthorised"
    assert c.request({"type": "bot", "seat": 1, "bot": "random"})["type"] == "ack"
    r = api.post(f"/api/games/{gid}/seats/2/bot", json={"bot": "random"},
                 headers={"X-Creator-Token": creator})
    assert r.status_code == 200 and r.json()["game"]["status"] == "playing"
    # Hand my own seat over too: the bots finish the game.
    assert c.request({"type": "bot", "seat": 0, "bot": "random"})["type"] == "ack"
    end = spec.until(lambda m: m["type"] == "state" and m["status"] == "over", timeout=60)
    assert end["result"]["cause"] and len(end["result"]["gnomes"]) == 3
    assert end["to_move"] == -1 and end["actions"] == []
    save = api.get(f"/api/games/{gid}/export").json()
    game = from_dict(save)
    assert game.result is not None and game.result.cause == end["result"]["cause"]
    assert api.get(f"/api/games/{gid}").json()["status"] == "over"


def test_hand_over_rules(server_factory: Callable[..., Any]) -> None:
    server = server_factory(takeover_grace=60.0)
    with httpx.Client(base_url=server.url) as api:
        gid, tokens, _ = seated_game(api, 3, seed=3)
        a = WsClient(server.url, gid, [tokens[0]])
        b = WsClient(server.url, gid, [tokens[1]])
        err = b.request({"type": "bot", "seat": 0, "bot": "random"})
        assert err["code"] == "forbidden" and "connected" in err["message"]
        a.close()
        err = b.request({"type": "bot", "seat": 0, "bot": "random"})
        assert err["code"] == "forbidden" and "recently" in err["message"]
        assert b.request({"type": "bot", "seat": 1, "bot": "random"})["type"] == "ack"  # own seat
        b.close()


def test_gone_player_handed_to_bot(api: httpx.Client, ws_client: Connect) -> None:
    gid, tokens, _ = seated_game(api, 3, seed=3)
    a = ws_client(gid, [tokens[0]])
    b = ws_client(gid, [tokens[1]])
    assert b.request({"type": "bot", "seat": 0, "bot": "random"})["code"] == "forbidden"
    a.close()
    b.until(lambda m: m["type"] == "seats" and not m["seats"][0]["connected"])
    assert b.request({"type": "bot", "seat": 0, "bot": "random"})["type"] == "ack"
    seat0 = api.get(f"/api/games/{gid}").json()["seats"][0]
    assert seat0["kind"] == "bot" and seat0["bot"] == "random"
    # The old token no longer works.
    r = api.post(f"/api/games/{gid}/act", json={"action": "end"}, headers=auth(tokens[0]))
    assert r.status_code == 401


def _other_seat_decision(players: int, variants: frozenset[str]) -> tuple[int, list[str]]:
    """A seed and an action prefix (random play) that end in a decision of a seat other than the
    active gnome's."""
    for seed in range(1, 400):
        g = engine_game(Config(players, None, variants, seed))
        rng = random.Random(seed)
        texts: list[str] = []
        for _ in range(400):
            if g.is_over:
                break
            if g.phase == DECIDE and g.active >= 0 and g.player_to_move != g.gnomes[g.active].player:
                return seed, texts
            a = rng.choice(g.legal_actions())
            texts.append(a.text(g.data))
            g.apply(a)
    raise AssertionError("no decision of another seat found")


@pytest.mark.parametrize("variants", [frozenset(), frozenset({"mad-gnomes"})])
def test_decision_of_another_player(api: httpx.Client, ws_client: Connect,
                                    variants: frozenset[str]) -> None:
    seed, texts = _other_seat_decision(3, variants)
    gid, tokens, _ = seated_game(api, 3, seed=seed, variants=sorted(variants))
    for text in texts:
        seat = mover(api, gid)
        r = api.post(f"/api/games/{gid}/act", json={"action": text}, headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
    expect = replay(engine_game(Config(3, None, variants, seed)).data,
                    Config(3, None, variants, seed), None, texts)
    decider = expect.player_to_move
    active = expect.gnomes[expect.active].player
    clients = [ws_client(gid, [t]) for t in tokens]
    states = [c.recv() for c in clients]
    assert states[decider]["your_turn"] and states[decider]["actions"]
    assert {x["kind"] for x in states[decider]["actions"]} <= {
        "discard", "keep", "give", "done", "defend", "yield", "spread", "block"}
    for s in range(3):
        if s != decider:
            assert not states[s]["your_turn"] and states[s]["actions"] == []
            assert states[s]["to_move"] == decider
    act = states[decider]["actions"][0]["text"]
    refused = clients[active].request({"type": "act", "seat": active, "action": act})
    assert refused["code"] == "not_your_turn"
    assert clients[decider].request({"type": "act", "seat": decider, "action": act})["type"] == "ack"
