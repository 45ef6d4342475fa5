"""Pings and undo lines over the WebSocket: a seated player marks a room, hatch, time-track space
or token for everyone (a ``ping`` for live boards plus a chat line that is stored); spectators,
other seats, unknown targets and floods are refused; an undo leaves a "took back" line in
everyone's table talk that survives a reconnect and a database made before these lines."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from pgcluster import database_url
from sqlalchemy import create_engine, insert, text
from webtools import Server, WsClient, seated_game

from rednovember.i18n import catalog
from rednovember.rules import Config, load_data, new_game
from rednovember.rules.hidden import can_undo
from rednovember.web.chat import ping_target, target_name, undo_detail
from rednovember.web.protocol import ProtocolError, parse_message
from rednovember.web.store import (
    Store,
    actions_table,
    chat_table,
    games_table,
    metadata,
    seats_table,
)

Connect = Callable[..., WsClient]


def _ping(seat: int, kind: str, ident: int | str, what: str = "go") -> dict[str, Any]:
    return {"type": "ping", "seat": seat, "target": {"kind": kind, "id": ident}, "what": what}


def test_a_ping_reaches_every_board_and_the_chat(api: httpx.Client, ws_client: Connect) -> None:
    gid, tokens, _ = seated_game(api, 3)
    ada = ws_client(gid, [tokens[0]])
    ben = ws_client(gid, [tokens[1]])
    watcher = ws_client(gid)
    ack = ada.request(_ping(0, "room", 1, "go"))
    assert ack["type"] == "ack" and ack["ref"] == "ping"
    # (the writer's copies came before its ack, which request() awaited)
    mine = [m for m in ada.received if m["type"] in ("ping", "chat")]
    assert [m["type"] for m in mine] == ["ping", "chat"]
    for c in (ben, watcher, ada):
        marker = mine[0] if c is ada else c.until(lambda m: m["type"] == "ping")
        assert marker["seat"] == 0 and marker["name"] == "P0" and marker["what"] == "go"
        assert marker["target"] == {"kind": "room", "id": 1}
        line = mine[1]["message"] if c is ada else c.until(lambda m: m["type"] == "chat")["message"]
        assert line["kind"] == "ping" and line["idx"] == marker["idx"]
        assert line["target"] == {"kind": "room", "id": 1} and line["what"] == "go"
        assert line["text"] == "I'll go here — room 1 Engine Room"
    # every kind of target, in English for pages that do not know pings
    texts = []
    for kind, ident, what in (("hatch", 0, "help"), ("space", 42, "danger"),
                              ("token", "kraken", "go"), ("room", 0, "help")):
        assert ben.request(_ping(1, kind, ident, what))["type"] == "ack"
        texts.append(ada.until(lambda m: m["type"] == "chat")["message"]["text"])
    assert texts == ["Help needed — Hatch between room 1 Engine Room and room 2 Oxygen Pumps",
                     "Danger — time-track space 42",
                     "I'll go here — destruction token Kraken!",
                     "Help needed — the Sea"]
    # a late joiner reads them in the history (the marker itself was for live boards only)
    late = ws_client(gid, hello=False)
    history = late.hello([])["chat"]
    assert [m["kind"] for m in history] == ["ping"] * 5
    assert history[1]["target"] == {"kind": "hatch", "id": 0} and history[1]["what"] == "help"
    assert not any(m["type"] == "ping" for m in late.drain())


def test_pings_are_for_seated_players_and_real_targets(api: httpx.Client,
                                                       ws_client: Connect) -> None:
    gid, tokens, _ = seated_game(api, 3)
    ada = ws_client(gid, [tokens[0]])
    watcher = ws_client(gid)
    refused = watcher.request(_ping(0, "room", 1))
    assert refused["code"] == "unauthorised" and refused["detail"] == "spectator"
    other = ada.request(_ping(1, "room", 1))
    assert other["code"] == "forbidden" and other["detail"] == "no_token_for_seat"
    bad: list[dict[str, Any]] = [
        _ping(0, "room", 11), _ping(0, "room", -1), _ping(0, "hatch", 999), _ping(0, "space", 61),
        _ping(0, "token", "nessie"), _ping(0, "gnome", 1), _ping(0, "room", "1"),
        _ping(0, "room", 1, "hurry"), _ping(0, "room", True),
        {"type": "ping", "seat": 0, "target": {"kind": "room"}, "what": "go"},
        {"type": "ping", "seat": 0, "target": [1], "what": "go"},
        {"type": "ping", "seat": 0, "target": {"kind": "room", "id": 1}},
        {"type": "ping", "seat": 0, "target": {"kind": "room", "id": 1}, "what": "go", "x": 1},
    ]
    for msg in bad:
        answer = ada.request(msg)
        assert answer["type"] == "error" and answer["code"] == "bad_message", (msg, answer)
        assert answer["message"].startswith("ping"), answer
    # nothing was said, nothing was stored; the keep-alive ping still answers pong
    assert not [m for m in ada.drain() + watcher.drain() if m["type"] in ("chat", "ping")]
    assert ada.request({"type": "ping"})["type"] == "pong"
    assert ws_client(gid, hello=False).hello([])["chat"] == []


def test_pings_are_rate_limited_like_chat(api: httpx.Client, ws_client: Connect) -> None:
    gid, tokens, _ = seated_game(api, 3)
    ada = ws_client(gid, [tokens[0]])
    answers = [ada.request(_ping(0, "space", 60 - i)) for i in range(6)]
    assert [a["type"] for a in answers] == ["ack"] * 5 + ["error"]
    assert answers[-1]["code"] == "rate_limited" and answers[-1]["message"].startswith("ping:")
    # pings and chat have separate allowances: talking is still possible
    assert ada.request({"type": "chat", "seat": 0, "text": "sorry"})["type"] == "ack"
    assert len(ws_client(gid, hello=False).hello([])["chat"]) == 6


def test_an_undo_leaves_a_took_back_line(api: httpx.Client, ws_client: Connect) -> None:
    gid, tokens, _ = seated_game(api, 3, seed=5)
    ada = ws_client(gid, [tokens[0]])
    ben = ws_client(gid, [tokens[1]])
    ada.drain()
    ben.drain()
    open_ = next(x for x in ada.states[0]["actions"] if x["kind"] == "open")
    assert ada.request({"type": "act", "seat": 0, "action": open_["text"]})["type"] == "ack"
    entries = ben.until(lambda m: m["type"] == "state" and m["log"])["log"]
    assert entries[-1][0] == "open"
    assert ada.request({"type": "undo", "seat": 0})["type"] == "ack"
    line = ben.until(lambda m: m["type"] == "chat")["message"]
    assert line["kind"] == "undo" and line["seat"] == 0 and line["name"] == "P0"
    assert line["log"] == [entries[-1]]
    room = open_["room"]
    assert line["text"].startswith("took back: Red opens the hatch from ")
    assert f"to room {room}" in line["text"]
    # the undoer's own connection has it too, and so has anyone who comes (back) later
    assert [m["message"] for m in ada.received if m["type"] == "chat"] == [line]
    ben.close()
    back = ws_client(gid, [tokens[1]], hello=False)
    history = back.hello([tokens[1]])["chat"]
    assert history[-1] == line
    # the HTTP undo says it as well
    assert ada.request({"type": "act", "seat": 0, "action": open_["text"]})["type"] == "ack"
    r = api.post(f"/api/games/{gid}/undo", headers={"Authorization": f"Bearer {tokens[0]}"},
                 json={})
    assert r.status_code == 200
    assert back.until(lambda m: m["type"] == "chat")["message"]["kind"] == "undo"


def test_mad_gnomes_undo_lines_name_no_hidden_card() -> None:
    """A give during a trade is undoable; its line must not tell the table which card it was."""

    data = load_data()
    found = 0
    for seed in range(40):
        g = new_game(Config(4, None, frozenset({"mad-gnomes"}), seed), data)
        for _ in range(400):
            if g.result is not None:
                break
            acts = g.legal_actions()
            give = [a for a in acts if a.kind == "give"]
            a = give[0] if give else acts[(seed * 7 + len(g.history)) % len(acts)]
            before = g.copy()
            g.apply(a)
            if a.kind == "give" and can_undo(g):
                detail = undo_detail(g, len(before.log))
                assert detail["log"][0][0] == "give" and detail["log"][0][3] == -1
                assert "gives an item to" in detail["said"]
                found += 1
        if found >= 3:
            break
    assert found, "no undoable give found"


def test_protocol_and_target_units() -> None:
    keep_alive = parse_message(json.dumps({"type": "ping", "id": 3}))
    assert keep_alive.target is None
    msg = parse_message(json.dumps(_ping(2, "token", "crushed", "danger")))
    assert msg.seat == 2 and msg.target == ("token", "crushed") and msg.what == "danger"
    data = load_data()
    ping_target(data, "room", 10)
    ping_target(data, "hatch", len(data.hatches) - 1)
    ping_target(data, "space", 60)
    for kind, ident in (("room", 11), ("hatch", len(data.hatches)), ("space", 61),
                        ("token", "Kraken"), ("crew", 1)):
        with pytest.raises(ProtocolError):
            ping_target(data, kind, ident)
    g = new_game(Config(3, None, frozenset(), 1), data)
    exterior = next(i for i, h in enumerate(data.hatches) if 0 in h)
    assert target_name(catalog("de"), g, "hatch", exterior).startswith("Außenluke")


def test_a_database_made_before_pings_keeps_working(tmp_path: Path,
                                                    server_factory: Callable[..., Server]) -> None:
    """The old schema has no rn_chat_kinds table: its chat rows load as they are, the table is
    created on start, and pings and undo lines are stored next to the old messages."""
    db = tmp_path / "old.db"
    engine = create_engine(database_url(db))
    metadata.create_all(engine, tables=[games_table, seats_table, actions_table, chat_table])
    with engine.begin() as c:
        for sql in ("ALTER TABLE rn_games DROP COLUMN rematch",  # later migrations' (0004, 0005)
                    "DROP INDEX ix_rn_games_status_client", "ALTER TABLE rn_games DROP COLUMN client"):
            c.execute(text(sql))
        c.execute(insert(games_table).values(
            id="oldgame12345", config=json.dumps({"players": 3, "gnomes_per_player": 1,
                                                  "variants": [], "seed": 5}),
            status="playing", version=3, creator_hash="0" * 64, result=None,
            created=time.time(), updated=time.time()))
        c.execute(insert(seats_table), [{"game_id": "oldgame12345", "seat": s, "kind": "human",
                                         "name": f"Old{s}", "bot": None,
                                         "token_hash": "1" * 64} for s in range(3)])
        c.execute(insert(chat_table).values(game_id="oldgame12345", idx=0, seat=1, name="Old1",
                                            text="hello from before", at=1.0))
    engine.dispose()
    store = Store(database_url(db))
    assert store.load_chat("oldgame12345", 100) == [
        {"idx": 0, "seat": 1, "name": "Old1", "text": "hello from before", "at": 1.0}]
    assert store.add_chat("oldgame12345", 0, "Old0", "I'll go here — the Sea", 2.0, "ping",
                          {"target": {"kind": "room", "id": 0}, "what": "go"}) == 1
    history = store.load_chat("oldgame12345", 100)
    assert history[0] == {"idx": 0, "seat": 1, "name": "Old1", "text": "hello from before",
                          "at": 1.0}
    assert history[1]["kind"] == "ping" and history[1]["target"] == {"kind": "room", "id": 0}
    store.close()
    server = server_factory(db)  # and a server on it serves the game with its history
    with WsClient(server.url, "oldgame12345") as c:
        got = [m for m in c.received if m["type"] == "welcome"][0]["chat"]
    assert [m.get("kind") for m in got] == [None, "ping"]
