"""What docs/openapi.json and docs/protocol.md say of the HTTP API's answers is what the server
does (issue 19 §5): the declarations built from each route's error codes, and the behaviours the
protocol document states (a body's shape refused as ``bad_message``, the rules as
``bad_config``; ``name`` required for a seat; ``forbidden`` on an early export; the ``ack`` of a
chat line; ``rate_limited`` with its ``rate`` detail and ``Retry-After``; a replay's ``over``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import jsonschema_rs
import pytest
from webtools import Server, WsClient, new_game, seated_game

from rednovember.web.app import create_app
from rednovember.web.protocol import HTTP_STATUS
from rednovember.web.responses import errors

Start = Callable[..., Server]
DOC = create_app("sqlite://").openapi()
OPERATIONS = [(f"{method.upper()} {path}", op) for path, item in DOC["paths"].items()
              for method, op in item.items()]


def error_codes(op: dict[str, Any], status: int) -> list[str]:
    schema = op["responses"][str(status)]["content"]["application/json"]["schema"]
    return list(schema["properties"]["error"]["properties"]["code"]["enum"])


def assert_declared(op_key: str, r: httpx.Response) -> None:
    """The answer's status is declared for the operation, and its body has the declared shape."""
    method, path = op_key.split(" ", 1)
    op = DOC["paths"][path][method.lower()]
    assert str(r.status_code) in op["responses"], (op_key, r.status_code)
    schema = op["responses"][str(r.status_code)]["content"]["application/json"]["schema"]
    jsonschema_rs.validate(schema, r.json())


@pytest.mark.parametrize(("name", "op"), OPERATIONS, ids=[k for k, _ in OPERATIONS])
def test_every_operation_declares_its_errors_with_the_servers_shape(name: str,
                                                                   op: dict[str, Any]) -> None:
    answers = op["responses"]
    assert "500" in answers, name  # the crash handler's `internal`, anywhere
    if "requestBody" in op:
        assert {"400", "413", "422"} <= set(answers), name
    for status, answer in answers.items():
        if status[0] not in "45":
            continue
        codes = error_codes(op, int(status))
        assert codes and all(HTTP_STATUS[c] == int(status) for c in codes), (name, status)
        assert ("Retry-After" in answer.get("headers", {})) == (status in ("429", "503"))
    assert "HTTPValidationError" not in str(answers)  # FastAPI's 422 shape: never answered


def test_errors_refuses_a_code_the_protocol_does_not_have() -> None:
    with pytest.raises(ValueError, match="no error code"):
        errors("not_found", "teapot")


def test_players_9_is_a_shape_error_and_the_gnome_rule_a_config_error(api: httpx.Client) -> None:
    """docs/protocol.md §3: the body's bounds are ``bad_message``, the rules ``bad_config``."""
    r = api.post("/api/games", json={"players": 9})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_message"
    assert r.json()["error"]["message"] == "players: Input should be less than or equal to 8"
    assert_declared("POST /api/games", r)
    r = api.post("/api/games", json={"players": 3, "gnomes_per_player": 2})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_config"
    assert_declared("POST /api/games", r)


def test_a_whole_number_may_be_written_as_a_float_never_as_a_string(api: httpx.Client) -> None:
    assert api.post("/api/games", json={"players": 2.0}).status_code == 201
    for bad in ("2", True, 2.5):
        r = api.post("/api/games", json={"players": bad})
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_message", bad


def test_taking_a_seat_needs_a_name(api: httpx.Client) -> None:
    gid, _ = new_game(api, 3)
    r = api.post(f"/api/games/{gid}/seats", json={"seat": 0})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_message"
    assert "name" in r.json()["error"]["message"]
    assert_declared("POST /api/games/{game_id}/seats", r)
    ok = api.post(f"/api/games/{gid}/seats", json={"seat": 0, "name": "Ada \U0001f419"})
    assert ok.status_code == 200 and ok.json()["game"]["seats"][0]["name"] == "Ada \U0001f419"


def test_the_schema_and_the_server_agree_on_printable_names(api: httpx.Client) -> None:
    """The name pattern of the schema (exact in the first plane) and web/tables.player_name."""
    gid, _ = new_game(api, 8)
    pattern = DOC["components"]["schemas"]["TakeSeat"]["properties"]["name"]["pattern"]
    check = jsonschema_rs.validator_for({"type": "string", "pattern": pattern})
    names = ["Ada", "  Zoë  ", "a\tb", "\u202eevil", "Ada\u0007", "zero\u200bwidth", "\u00ad",
             "\ufeffBea", "\u3164", "\u2800 \u115f\u1160", "\u0301\u0301", "\uffa0",
             "Zoe\u0308", "\u3164Ada"]
    taken = 0
    for name in names:
        r = api.post(f"/api/games/{gid}/seats", json={"seat": taken, "name": name})
        assert (r.status_code == 200) == check.is_valid(name), (name, r.text)
        taken += r.status_code == 200
    # a name that shows nothing (Hangul fillers, the blank braille cell, marks alone) is refused
    for name in ("\u3164", "\u2800 \u115f\u1160", "\u0301\u0301", "\uffa0"):
        r = api.post(f"/api/games/{gid}/seats", json={"seat": taken, "name": name})
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_message", name


def test_an_export_before_the_end_is_forbidden(api: httpx.Client) -> None:
    gid, _ = new_game(api, 3)
    r = api.get(f"/api/games/{gid}/export")
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    assert "detail" not in r.json()["error"]
    assert_declared("GET /api/games/{game_id}/export", r)


def test_a_replay_steps_over_is_the_games_state_not_the_steps(
        api: httpx.Client, ws_client: Callable[..., WsClient]) -> None:
    """docs/protocol.md §3: ``over`` is the game's status now, the same at every step; the
    step where the game ended is the one with a ``result``, the last."""
    running, _, _ = seated_game(api, 3)
    assert api.get(f"/api/games/{running}/replay/0").json()["over"] is False
    gid, creator = new_game(api, 3, seed=5)
    watcher = ws_client(gid)
    for seat in range(3):
        r = api.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": "heuristic"},
                     headers={"X-Creator-Token": creator})
        assert r.status_code == 200, r.text
    watcher.until(lambda m: m["type"] == "state" and m["status"] == "over", 60.0)
    steps = api.get(f"/api/games/{gid}/replay/0").json()["steps"]
    for step in (0, 1, steps - 1, steps):
        body = api.get(f"/api/games/{gid}/replay/{step}").json()
        assert body["over"] is True
        assert (body["result"] is not None) == (step == steps), step


def test_a_chat_line_comes_before_its_ack(api: httpx.Client,
                                         ws_client: Callable[..., WsClient]) -> None:
    """docs/protocol.md §4.1–4.2: the sender gets the line, then the ``ack`` (ref ``chat``) with
    the game's version, which a chat line does not change."""
    gid, tokens, _ = seated_game(api, 3)
    ada = ws_client(gid, [tokens[0]])
    version = ada.until(lambda m: m["type"] == "state")["version"]
    ada.send({"type": "chat", "seat": 0, "text": "hello", "id": "c1"})
    line = ada.until(lambda m: m["type"] in ("chat", "ack"))
    assert line["type"] == "chat" and line["message"]["text"] == "hello"
    ack = ada.until(lambda m: m["type"] == "ack")
    assert ack == {"type": "ack", "id": "c1", "ref": "chat", "version": version}


def test_rate_limited_is_declared_with_its_rate_detail_and_retry_after(
        server_factory: Start) -> None:
    server = server_factory(limits=True, extra=("--limit-games-per-minute", "1"))
    with httpx.Client(base_url=server.url, timeout=10.0) as http:
        assert http.post("/api/games", json={}).status_code == 201
        r = http.post("/api/games", json={})
    assert r.status_code == 429
    error = r.json()["error"]
    assert error["code"] == "rate_limited" and error["detail"] == "rate"
    assert error["params"]["limit"] == 1 and error["params"]["seconds"] >= 1
    assert r.headers["Retry-After"] == str(error["params"]["seconds"])
    assert_declared("POST /api/games", r)


def test_a_servers_shortest_turn_timer_is_the_one_its_document_states() -> None:
    """``--turn-timer-min`` moves the bound of ``turn_timer`` and ``away_bot`` in /openapi.json."""
    doc = create_app("sqlite://", min_turn_timer=10).openapi()
    create = doc["components"]["schemas"]["CreateGame"]["properties"]
    for name in ("turn_timer", "away_bot"):
        assert {"type": "integer", "minimum": 10, "maximum": 3600} in create[name]["anyOf"]
    default = DOC["components"]["schemas"]["CreateGame"]["properties"]["turn_timer"]["anyOf"]
    assert {"type": "integer", "minimum": 30, "maximum": 3600} in default


def test_a_seat_links_origin_is_what_the_schema_and_the_server_both_take(api: httpx.Client) -> None:
    """A page's origin: a host name, an IPv4 address or an IPv6 one in brackets (RFC 3986), with
    a port; the schema's pattern is the server's own (web/tables.ORIGIN_RE)."""
    gid, tokens, _ = seated_game(api, 3)
    pattern = DOC["components"]["schemas"]["SeatLinkBody"]["properties"]["origin"]["pattern"]
    check = jsonschema_rs.validator_for({"type": "string", "pattern": pattern})
    origins = {"https://example.org": True, "http://[::1]:8000": True,
               "http://[2001:db8::1]": True, "http://[::ffff:1.2.3.4]": True,
               "http://[": False, "http://[::::]": False, "http://a:b:c": False,
               "javascript:alert(1)": False}
    for origin, good in origins.items():
        assert check.is_valid(origin) is good, origin
        r = api.post(f"/api/games/{gid}/seat-link", json={"origin": origin},
                     headers={"Authorization": f"Bearer {tokens[0]}"})
        assert (r.status_code == 200) is good, (origin, r.text)
        if good:
            assert r.json()["url"].startswith(origin + "/g/")


def test_the_schema_and_the_server_agree_on_an_email_address(api: httpx.Client) -> None:
    """The notify body's ``email`` pattern spells out its white space: ``\\s`` means one set to
    the schema's readers (ECMA-262: U+FEFF) and another to the server (U+0085)."""
    gid, tokens, _ = seated_game(api, 3)
    pattern = DOC["components"]["schemas"]["NotifyBody"]["properties"]["email"]["anyOf"][0][
        "pattern"]
    check = jsonschema_rs.validator_for({"type": "string", "pattern": pattern})
    addresses = {"ann@example.org": True, "a\x1cb@example.org": True, "ann@exa\x85mple.org": False,
                 "ann@exa\ufeffmple.org": False, "a\u3000b@example.org": False,
                 "ann@example": False, "a@b@example.org": False}
    for address, good in addresses.items():
        assert check.is_valid(address) is good, repr(address)
        r = api.post(f"/api/games/{gid}/seats/0/notify", json={"email": address},
                     headers={"Authorization": f"Bearer {tokens[0]}"})
        expect = "no_mail" if good else "bad_message"  # this server sends no emails
        assert r.json()["error"]["code"] == expect, (repr(address), r.text)
