"""Hostile and malformed input (Hypothesis): random JSON, wrong types, unknown types, huge and
binary messages, random HTTP bodies. The server never crashes, answers every bad message with a
clear error, and the game does not change."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import struct
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webtools import WsClient, auth, seated_game

from rednovember.web.protocol import CLIENT_TYPES

FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner,
                                                                max_size=5),
    max_leaves=20)

field_values = (st.none() | st.booleans() | st.integers(-10, 2**64) | st.text(max_size=80)
                | st.lists(st.text(max_size=50), max_size=10) | st.floats(allow_nan=True)
                | st.dictionaries(st.text(max_size=5), st.integers(), max_size=3))

typed_messages = st.fixed_dictionaries(
    {"type": st.sampled_from([*CLIENT_TYPES, "Act", "", "state", "welcome", "x" * 100])},
    optional={"seat": field_values, "action": field_values | st.sampled_from(
                  ["end", "open 5", "open sea", "play grog", "fix_engine 99", "draw -1",
                   "unblock_hatch 1", "discard nothing", "open 1 2", "\x00"]),
              "version": field_values, "bot": field_values, "tokens": field_values,
              "creator": field_values, "id": field_values, "extra": field_values})


class Game:
    def __init__(self, url: str, api: httpx.Client) -> None:
        self.gid, self.tokens, self.creator = seated_game(api, 3, seed=77,
                                                          variants=["mad-gnomes"])
        summary = api.get(f"/api/games/{self.gid}").json()
        self.mover = summary["to_move"]
        self.idle = (self.mover + 1) % 3  # a seat that may not act now
        self.version = summary["version"]
        self.view = api.get(f"/api/games/{self.gid}/state").json()["view"]
        self.ws = WsClient(url, self.gid, [self.tokens[self.idle]])
        self.ws.drain(0.05)


@pytest.fixture(scope="module")
def game(live_server: str) -> Iterator[Game]:
    with httpx.Client(base_url=live_server, timeout=10) as api:
        g = Game(live_server, api)
        yield g
        g.ws.close()


def _unchanged(api: httpx.Client, g: Game) -> None:
    summary = api.get(f"/api/games/{g.gid}").json()
    assert summary["version"] == g.version
    assert api.get(f"/api/games/{g.gid}/state").json()["view"] == g.view


def _roundtrip(g: Game, payload: str | bytes) -> list[dict[str, Any]]:
    """Send one message, then a ping: every answer before the pong, and the pong itself."""
    g.ws.send(payload)
    g.ws.send(json.dumps({"type": "ping", "id": "probe"}))
    answers = []
    while True:
        m = g.ws.recv(10)
        if m["type"] in ("error", "ack", "pong"):  # (not: welcome, state, seats)
            answers.append(m)
        if m["type"] == "pong" and m.get("id") == "probe":
            return answers


def _restore(g: Game) -> None:
    """Re-identify the connection with its seat after a fuzzed hello."""
    g.ws.hello([g.tokens[g.idle]])
    g.ws.until(lambda m: m["type"] == "state")


def _is_harmless_valid(msg: Any) -> bool:
    """Valid requests that legitimately answer without an error (and change nothing here)."""
    return isinstance(msg, dict) and msg.get("type") in ("ping", "sync", "hello")


@FUZZ
@given(value=json_values)
def test_random_json(game: Game, value: Any) -> None:
    answers = _roundtrip(game, json.dumps(value))
    if not _is_harmless_valid(value):
        assert answers[0]["type"] == "error" and answers[0]["message"]
    if isinstance(value, dict) and value.get("type") == "hello":
        _restore(game)


@FUZZ
@given(msg=typed_messages)
def test_typed_messages(game: Game, msg: dict[str, Any]) -> None:
    if msg["type"] == "bot" and msg.get("seat") == game.idle and msg.get("bot") == "random":
        return  # a valid hand-over of the connection's own seat
    answers = _roundtrip(game, json.dumps(msg))
    kinds = {a["type"] for a in answers}
    assert "ack" not in kinds, answers  # nothing was accepted
    if msg["type"] not in ("ping", "sync", "hello"):
        assert answers[0]["type"] == "error"
        assert answers[0]["code"] in ("bad_message", "unknown_type", "unauthorised", "forbidden",
                                      "not_your_turn", "illegal", "stale", "cannot_undo",
                                      "unknown_bot", "bad_json"), answers[0]
    if msg["type"] == "hello":  # restore the connection's seat
        _restore(game)


@FUZZ
@given(raw=st.text(max_size=200) | st.binary(max_size=200))
def test_random_text_and_binary(game: Game, raw: str | bytes) -> None:
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        value = None
    answers = _roundtrip(game, raw)
    if not _is_harmless_valid(value):
        assert answers[0]["type"] == "error"
    if isinstance(value, dict) and value.get("type") == "hello":
        _restore(game)


def _hostile_messages(g: Game, legal: list[str]) -> list[str | bytes]:
    """Messages that would change the game if the server took them: the mover's legal actions
    from a connection that holds only the idle seat's token, actions and undo for the idle seat,
    hand-overs to unknown bots or of seats that do not exist, stale versions, wrong types,
    broken JSON, binary."""
    seats = [g.mover, g.idle, 9, -1, "0", None]
    msgs: list[Any] = [{"type": "act", "seat": seat, "action": text}
                       for seat in seats for text in [*legal, "end", "open sea"]]
    msgs += [{"type": "act", "seat": g.mover, "action": legal[0], "version": v}
             for v in (g.version, g.version - 1, g.version + 1, "1", None)]
    msgs += [{"type": "undo", "seat": seat} for seat in seats]
    # (a seated player may hand a seat whose player is away to a real bot: not hostile)
    msgs += [{"type": "bot", "seat": seat, "bot": bot} for seat in (g.mover, g.idle, 9, -1)
             for bot in ("nobody", "Random", None, 3)]
    msgs += [{"type": "bot", "seat": seat, "bot": "random"} for seat in (9, -1, "0", None)]
    msgs += [{"type": "Act", "seat": g.mover, "action": legal[0]}, {"action": legal[0]},
             [{"type": "act", "seat": g.mover, "action": legal[0]}], 7, None, "act"]
    out: list[str | bytes] = [json.dumps(m) for m in msgs]
    out += ['{"type": "act", "seat": 0, "action": "end"', "", "\x00",
            b"\xff\xfe{}", json.dumps({"type": "act", "seat": g.mover,
                                        "action": legal[0]}).encode()]
    return out


def test_game_unchanged_after_fuzzing(game: Game, api: httpx.Client) -> None:
    """Hostile messages of every kind, sent here (the test stands alone): each is refused with
    an error, nothing is acknowledged, and the game's version and view stay as they were."""
    legal_now = api.get(f"/api/games/{game.gid}/legal", headers=auth(game.tokens[game.mover]))
    legal = [a["text"] for a in legal_now.json()["actions"]]
    assert legal, "the mover has legal actions"
    for payload in _hostile_messages(game, legal):
        answers = _roundtrip(game, payload)
        assert answers[0]["type"] == "error" and answers[0]["message"], (payload, answers)
        assert all(a["type"] != "ack" for a in answers), (payload, answers)
    game.ws.drain(0.1)
    _unchanged(api, game)
    assert api.get(f"/api/games/{game.gid}/legal", headers=auth(game.tokens[game.mover])
                   ).json()["actions"] == legal_now.json()["actions"]


def test_huge_messages(game: Game, api: httpx.Client, live_server: str) -> None:
    big = json.dumps({"type": "act", "seat": game.idle, "action": "x" * 40_000})
    answers = _roundtrip(game, big)
    assert answers[0]["code"] == "too_large"
    deep = "[" * 5000 + "]" * 5000
    assert _roundtrip(game, deep)[0]["code"] in ("bad_json", "bad_message")
    # Beyond the frame limit uvicorn closes that socket; the server lives on.
    victim = WsClient(live_server, game.gid, [game.tokens[game.idle]])
    victim.drain(0.05)
    try:
        victim.ws.send("a" * (2 * 1024 * 1024))
        with pytest.raises(Exception):  # noqa: B017 - closed by the server
            for _ in range(20):
                victim.recv(5)
    finally:
        victim.close()
    assert api.get("/api/health").json() == {"ok": True}
    _unchanged(api, game)


def test_hello_timeout_and_flood(game: Game, live_server: str, api: httpx.Client) -> None:
    c = WsClient(live_server, game.gid, hello=False)
    for i in range(300):
        c.send(json.dumps({"type": "act", "seat": 0, "action": "end", "id": i}))
    errors = [c.recv() for _ in range(300)]
    assert all(e["type"] == "error" for e in errors)
    c.close()
    _unchanged(api, game)


@FUZZ
@given(body=json_values, path=st.sampled_from(["act", "undo", "seats", "seats/0/bot",
                                                 "seats/9/bot"]))
def test_random_http_bodies(game: Game, api: httpx.Client, body: Any, path: str) -> None:
    if path.endswith("/bot") and isinstance(body, dict) and body.get("bot") in ("random",):
        return
    r = api.post(f"/api/games/{game.gid}/{path}", content=json.dumps(body).encode(),
                 headers={**auth(game.tokens[game.idle]), "Content-Type": "application/json"})
    assert 400 <= r.status_code < 500, r.text
    assert r.json()["error"]["code"]


def test_game_unchanged_after_http_fuzzing(game: Game, api: httpx.Client) -> None:
    """Hostile HTTP requests, sent here (the test stands alone): the mover's legal action with
    the idle seat's token, a wrong token or none, stale versions, undo, unknown bots, bad bodies:
    each is refused with a 4xx and an error code, and the game stays as it was."""
    legal = [a["text"] for a in api.get(f"/api/games/{game.gid}/legal",
                                        headers=auth(game.tokens[game.mover])).json()["actions"]]
    idle, wrong = auth(game.tokens[game.idle]), auth("not-a-token")
    requests: list[tuple[str, dict[str, str], Any]] = []
    for headers in (idle, wrong, {}):
        requests += [("act", headers, {"action": text}) for text in legal[:3]]
        requests += [("undo", headers, {}), ("seats/9/bot", headers, {"bot": "random"})]
    requests += [("act", auth(game.tokens[game.mover]), {"action": legal[0], "version": v})
                 for v in (game.version - 1, game.version + 1)]
    requests += [("act", idle, body) for body in ({}, {"action": 5}, {"action": "open sea"}, [])]
    requests += [(f"seats/{seat}/bot", idle, {"bot": bot}) for seat in (game.mover, -1, 9)
                 for bot in ("nobody", None, 3)]
    for path, headers, body in requests:
        r = api.post(f"/api/games/{game.gid}/{path}", json=body, headers=headers)
        assert 400 <= r.status_code < 500, (path, body, r.text)
        assert r.json()["error"]["code"], (path, body, r.text)
    _unchanged(api, game)
    assert api.post("/api/games", json=[1, 2]).status_code == 422
    assert api.post("/api/games", content=b"\xff\xfe",
                    headers={"Content-Type": "application/json"}).status_code in (400, 422)



def _raw_frame(text: str) -> bytes:
    """A masked WebSocket text frame (client to server)."""
    data = text.encode()
    mask = os.urandom(4)
    n = len(data)
    head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0xFE]) + struct.pack(">H", n))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def test_a_client_that_does_not_read_is_dropped(live_server: str, api: httpx.Client) -> None:
    """A raw socket that asks for full states and never reads: the server drops it once its
    queue of unsent messages overflows (instead of buffering without end), and lives on."""
    gid, tokens, _ = seated_game(api, 3, seed=78, variants=["mad-gnomes"])
    port = int(live_server.rsplit(":", 1)[1])
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET /ws/games/{gid} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n".encode())
    sock.settimeout(5)
    answer = b""
    while b"\r\n\r\n" not in answer:  # like a browser, wait for the 101 before sending
        answer += sock.recv(1)
    assert answer.startswith(b"HTTP/1.1 101")
    sock.sendall(_raw_frame(json.dumps({"type": "hello", "tokens": [tokens[0]]})))
    for _ in range(100):
        if api.get(f"/api/games/{gid}").json()["seats"][0]["connected"]:
            break
        time.sleep(0.02)
    else:
        raise AssertionError("hello was not processed")
    sock.settimeout(5)
    asked = 0
    with contextlib.suppress(OSError):
        for asked in range(1, 10001):  # noqa: B007 - counted
            sock.sendall(_raw_frame('{"type":"sync"}'))
    sock.settimeout(0.1)
    received = 0
    deadline = time.monotonic() + 15
    dropped = False
    while time.monotonic() < deadline and not dropped:
        with contextlib.suppress(TimeoutError):
            received += len(sock.recv(1 << 16))
        dropped = not api.get(f"/api/games/{gid}").json()["seats"][0]["connected"]
    sock.close()
    assert dropped, "the server did not drop a client that does not read"
    one_state = len(json.dumps(api.get(f"/api/games/{gid}/state").json()))
    assert received < asked * one_state / 4, "the server kept sending to a slow client"
    assert api.get("/api/health").json() == {"ok": True}
