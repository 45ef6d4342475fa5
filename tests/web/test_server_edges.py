"""Issue 19 §4, the HTTP edge and the logs: HEAD on every page, ``Allow`` on 405, 413 for an
oversize chunked body, no token fragment in any log line (debug included, which logs the HTTP
requests), one name check for taking a seat and taking it back, and compose.yaml's hardening."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml
from webtools import ROOT, Server, WsClient, auth, new_game, seated_game, take

from rednovember.web.logs import redact
from rednovember.web.protocol import MAX_BODY_BYTES


# --- HEAD, 405, 413 ----------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/rules", "/rules/en", "/rules/de", "/learn", "/api/meta",
                                  "/api/health", "/api/ready", "/api/i18n/en",
                                  "/static/js/app.js", "/static/css/app.css"])
def test_head_answers_every_page_like_get_without_a_body(api: httpx.Client, path: str) -> None:
    get, head = api.get(path), api.head(path)
    assert get.status_code == 200 and head.status_code == 200, (path, head.status_code)
    assert head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]


def test_head_of_a_game_page_and_a_missing_game(api: httpx.Client) -> None:
    gid, _ = new_game(api, 3)
    assert api.head(f"/g/{gid}").status_code == 200
    assert api.head(f"/api/games/{gid}").status_code == 200
    assert api.head("/api/games/nope").status_code == 404


@pytest.mark.parametrize(("method", "path", "allow"), [
    ("PUT", "/api/games", "GET, HEAD, POST"),
    ("DELETE", "/api/health", "GET, HEAD"),
    ("POST", "/rules/en", "GET, HEAD"),
    ("GET", "/api/games/x/act", "POST"),
    ("PATCH", "/", "GET, HEAD"),
])
def test_a_405_says_which_methods_the_path_allows(api: httpx.Client, method: str, path: str,
                                                  allow: str) -> None:
    r = api.request(method, path)
    assert r.status_code == 405 and r.headers["allow"] == allow, (r.status_code, r.headers)
    assert r.json()["error"]["code"] == "bad_message"


def test_a_chunked_body_of_10_mb_gets_413(api: httpx.Client) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(160):
            yield b" " * 65536

    gid, _ = new_game(api, 3)
    r = api.post(f"/api/games/{gid}/seats", content=chunks(),
                 headers={"Content-Type": "application/json"})
    assert "content-length" not in r.request.headers  # sent chunked
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large", r.text
    # just under the limit, chunked too: an ordinary answer about the body
    small = api.post(f"/api/games/{gid}/seats", content=iter([b'{"seat": 0,', b' "name": "Ada"}']),
                     headers={"Content-Type": "application/json"})
    assert small.status_code == 200, small.text
    assert MAX_BODY_BYTES < 160 * 65536


# --- the logs --------------------------------------------------------------------------------------
def fragments(token: str, size: int = 6) -> set[str]:
    return {token[i:i + size] for i in range(len(token) - size + 1)}


@pytest.fixture
def debug_server(tmp_path: Path) -> Iterator[Server]:
    server = Server(tmp_path / "debug.db", extra=["--log-level", "debug"]).start()
    try:
        yield server
    finally:
        server.stop()


def test_no_token_fragment_in_the_debug_log_which_shows_http_requests(
        debug_server: Server) -> None:
    """At debug level the WebSocket frames showed 37 of a token's 43 characters."""
    with httpx.Client(base_url=debug_server.url, timeout=10) as api:
        gid, tokens, creator = seated_game(api, 3)
        api.get(f"/api/games/{gid}/state", headers=auth(tokens[0]))
        api.get(f"/api/games/{gid}/legal", headers={"X-Seat-Token": tokens[1]})
        api.post(f"/api/games/{gid}/seat-link", headers=auth(tokens[2]), json={})
        with WsClient(debug_server.url, gid, tokens, creator) as ws:
            assert ws.request({"type": "chat", "seat": 0, "text": "hello"})["type"] == "ack"
            ws.request({"type": "reclaim", "seat": 1, "token": tokens[1]})
    debug_server.stop()
    log = debug_server.log_path.read_text(errors="replace")
    assert "WebSocket /ws/games/" in log and f"GET /api/games/{gid}/state" in log  # requests
    for secret in [*tokens, creator]:
        leaked = [f for f in fragments(secret) if f in log]
        assert not leaked, (leaked, secret)


def test_redact_masks_tokens_in_every_form() -> None:
    token = "oBCGmUE8VSBPFiTiKbrgW4MZxRySLUNwXnvYwsTKQIg"
    lines = [f"Authorization: Bearer {token}", f"x-seat-token: {token}",
             f'{{"type": "hello", "tokens": ["{token[:20]}...{token[-10:]}", "{token}"]}}',
             f'{{"creator_token": "{token}"}}', f"plain {token[5:30]} text",
             f'"message": "reclaim {{\\"token\\": \\"{token}\\"}}"']
    for line in lines:
        out = redact(line)
        assert not [f for f in fragments(token) if f in out], (line, out)
    kept = "game eBcfC_FkSJn4 at revision 0004: GET /api/games/eBcfC_FkSJn4/state 200"
    assert redact(kept) == kept


# --- one name check -----------------------------------------------------------------------------
BAD_NAMES = ["\u202eevil", "Ada\u0007", "zero\u200bwidth", "red\x1b[31m", "\u2066Bea\u2069"]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_taking_a_seat_back_refuses_the_names_taking_a_seat_refuses(
        api: httpx.Client, ws_client: object, name: str) -> None:
    gid, tokens, creator = seated_game(api, 3)
    for seat in (1, 2):
        r = api.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": "random"},
                     headers={"X-Creator-Token": creator})
        assert r.status_code == 200, r.text
    fresh, _ = new_game(api, 3)
    r = api.post(f"/api/games/{fresh}/seats", json={"seat": 0, "name": name})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_message"
    r = api.post(f"/api/games/{gid}/seats/1/reclaim", json={"name": name}, headers=auth(tokens[1]))
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_message", r.text
    with WsClient(str(api.base_url).rstrip("/"), gid, [tokens[2]]) as ws:
        err = ws.request({"type": "reclaim", "seat": 2, "token": tokens[2], "name": name})
        assert err["type"] == "error" and err["code"] == "bad_message", err
    seats = api.get(f"/api/games/{gid}").json()["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "bot"]  # nothing changed
    # a good name, both ways; white space runs made one space as when taking a seat
    r = api.post(f"/api/games/{gid}/seats/1/reclaim", json={"name": "  Bea   B. "},
                 headers=auth(tokens[1]))
    assert r.status_code == 200 and r.json()["game"]["seats"][1]["name"] == "Bea B."
    assert take(api, fresh, 0, "Ada  ") is not None


# --- compose.yaml ---------------------------------------------------------------------------------
def compose() -> dict[str, object]:
    data = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


DIGEST = re.compile(r"^[a-z0-9./-]+(:[\w.-]+)?@sha256:[0-9a-f]{64}$")


def test_compose_pins_images_by_digest_and_builds_one_app_image() -> None:
    services = compose()["services"]
    assert isinstance(services, dict)
    pulled = {n: s["image"] for n, s in services.items() if "build" not in s and n not in
              ("app2",)}
    assert set(pulled) == {"db", "proxy"}
    for name, image in pulled.items():
        assert DIGEST.match(image), (name, image)
    built = [n for n, s in services.items() if "build" in s]
    assert built == ["app1"]
    assert services["app1"]["image"] == services["app2"]["image"]
    assert services["app2"]["pull_policy"] == "never"
    assert services["app1"]["environment"] == services["app2"]["environment"]


def test_compose_limits_and_hardens_every_service() -> None:
    services = compose()["services"]
    assert isinstance(services, dict)
    for name, s in services.items():
        limits = s["deploy"]["resources"]["limits"]
        assert {"cpus", "memory", "pids"} <= set(limits), name
        assert s["logging"]["driver"] == "json-file"
        assert {"max-size", "max-file"} <= set(s["logging"]["options"]), name
        assert s["read_only"] is True and "/tmp" in s["tmpfs"], name
        assert s["cap_drop"] == ["ALL"], name
        assert "no-new-privileges:true" in s["security_opt"], name
    for app in ("app1", "app2"):
        assert "cap_add" not in services[app]
        assert "/api/ready" in " ".join(services[app]["healthcheck"]["test"])


def test_caddy_sends_hsts_and_routes_to_ready_processes() -> None:
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text(encoding="utf-8")
    active = "\n".join(line for line in caddyfile.splitlines()
                       if not line.lstrip().startswith("#"))
    assert re.search(r'header Strict-Transport-Security "max-age=\d{7,}', active)
    assert "health_uri /api/ready" in active
    assert "/api/ready" in (ROOT / "Dockerfile").read_text(encoding="utf-8")
