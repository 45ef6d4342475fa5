"""Table talk over the WebSocket: seated players write, everyone reads, spectators only read;
plain text with length and rate limits; the history is stored with the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from webtools import WsClient, seated_game

from rednovember.web.chat import RateLimit, clean
from rednovember.web.protocol import ProtocolError
from rednovember.web.seatcode import by_server, seat_from, server_for
from rednovember.web.tables import chat_message


def test_a_seated_player_talks_to_the_table_and_everyone_reads_it(
        api: httpx.Client, ws_client: Callable[..., WsClient]) -> None:
    gid, tokens, _ = seated_game(api, 3)
    ada = ws_client(gid, [tokens[0]])
    ben = ws_client(gid, [tokens[1]])
    watcher = ws_client(gid)
    html = "<b>I'll go to 4</b> & fix it"
    assert ada.request({"type": "chat", "seat": 0, "text": f"  {html}  "})["type"] == "ack"
    for c in (ben, watcher):  # (the writer's copy came before its ack, which request() awaits)
        msg = c.until(lambda m: m["type"] == "chat")["message"]
        assert msg["text"] == html and msg["seat"] == 0 and msg["name"] == "P0"
    refused = watcher.request({"type": "chat", "seat": 0, "text": "hi"})
    assert refused["type"] == "error" and refused["code"] == "unauthorised"
    other = ben.request({"type": "chat", "seat": 0, "text": "not my seat"})
    assert other["type"] == "error" and other["code"] == "forbidden"
    late = ws_client(gid)  # a newcomer gets the history with its welcome
    assert [m["text"] for m in late.hello([])["chat"]] == [html]


def test_a_player_whose_seat_a_bot_plays_still_talks_under_their_name(
        api: httpx.Client, ws_client: Callable[..., WsClient]) -> None:
    """Ben hands his seat to a bot (to watch the end): he still says "gg" at the table, under
    his own name; nobody else can speak for that seat, nor he for another."""
    gid, tokens, _ = seated_game(api, 3)
    assert api.post(f"/api/games/{gid}/seats/1/bot", json={"bot": "random"},
                    headers={"Authorization": f"Bearer {tokens[1]}"}).status_code == 200
    ben = ws_client(gid, [tokens[1]])
    assert ben.received[-1]["reclaimable"] == [{"token": 0, "seat": 1}]
    assert ben.request({"type": "chat", "seat": 1, "text": "gg"})["type"] == "ack"
    [msg] = [m["message"] for m in ben.received if m["type"] == "chat"]  # (before its ack)
    assert msg["seat"] == 1 and msg["name"] == "P1"
    assert ben.request({"type": "chat", "seat": 0, "text": "as Ada"})["code"] == "unauthorised"
    stranger = ws_client(gid)
    assert stranger.request({"type": "chat", "seat": 1, "text": "as Ben"})["code"] == \
        "unauthorised"


def test_chat_limits_length_and_rate(api: httpx.Client,
                                     ws_client: Callable[..., WsClient]) -> None:
    gid, tokens, _ = seated_game(api, 3)
    ada = ws_client(gid, [tokens[0]])
    too_long = ada.request({"type": "chat", "seat": 0, "text": "x" * 301})
    assert too_long["type"] == "error" and too_long["code"] == "bad_message"
    answers: list[dict[str, Any]] = [ada.request({"type": "chat", "seat": 0, "text": f"m{i}"})
                                     for i in range(6)]
    assert [a["type"] for a in answers] == ["ack"] * 5 + ["error"]
    assert answers[-1]["code"] == "rate_limited"


def test_more_tabs_bring_a_seat_no_more_chat_lines_nor_pings(
        api: httpx.Client, ws_client: Callable[..., WsClient]) -> None:
    """The chat and ping limits are the seat's, whatever number of connections it opens: a
    player cannot flood the table by opening tabs. Another seat still talks."""
    gid, tokens, _ = seated_game(api, 3)
    tabs = [ws_client(gid, [tokens[0]]) for _ in range(3)]
    answers = [tabs[i % 3].request({"type": "chat", "seat": 0, "text": f"m{i}"})
               for i in range(6)]
    assert [a["type"] for a in answers] == ["ack"] * 5 + ["error"]
    assert answers[-1]["code"] == "rate_limited"
    ping = {"type": "ping", "seat": 0, "target": {"kind": "room", "id": 4}, "what": "go"}
    pings = [tabs[i % 3].request(ping) for i in range(6)]
    assert [a["type"] for a in pings] == ["ack"] * 5 + ["error"]
    assert pings[-1]["code"] == "rate_limited"
    ben = ws_client(gid, [tokens[1]])
    assert ben.request({"type": "chat", "seat": 1, "text": "hi"})["type"] == "ack"


def test_clean_and_rate_limit_units() -> None:
    assert clean(" a\x00b\x1b[31m \n") == "ab[31m"
    with pytest.raises(ProtocolError):
        clean(" \t ")
    limit = RateLimit(burst=2, window=10)
    limit.check(0.0)
    limit.check(1.0)
    with pytest.raises(ProtocolError):
        limit.check(2.0)
    limit.check(10.5)  # the first left the window


def test_a_servers_note_and_a_stand_ins_action_name_their_seat_and_no_players_seat() -> None:
    for seat in range(8):
        code = server_for(seat)
        assert by_server(code) and seat_from(code) == seat
        assert not by_server(seat) and seat_from(seat) == seat
    note = chat_message({"seat": server_for(2), "kind": "to_bot", "text": "x"})
    assert (note["seat"], note["system"], note["for_seat"]) == (-1, "to_bot", 2)
    timeout = chat_message({"seat": server_for(0), "kind": None, "text": "x"})
    assert (timeout["system"], timeout["for_seat"]) == ("timeout", 0)
    assert chat_message({"seat": 3, "text": "hi"}) == {"seat": 3, "text": "hi"}
