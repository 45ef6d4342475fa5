"""The server under a sub-path (issue 9): ``rednovember serve --root-path /rn`` behind a reverse
proxy that strips the prefix, or one that passes it on (the same as opening the server directly
under /rn); and quiet default logs (uvicorn's per-WebSocket lines only at debug or with the access
log). Real ``rednovember serve`` processes behind tests/web/stripproxy.py."""

from __future__ import annotations

import argparse
import logging
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from stripproxy import StripProxy, strip_proxy
from webtools import ROOT, Server, WsClient, free_port, new_game, start_caddy, take

from rednovember.web import logs
from rednovember.web.options import add_arguments
from rednovember.web.rootpath import page_html, strip_root

ATTR = re.compile(r"""\b(?:href|src)=["']([^"'#]*)["']""")


def _parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    add_arguments(p)
    return p.parse_args(argv)


def test_the_root_path_comes_from_flag_or_environment_normalised(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("REDNOVEMBER_ROOT_PATH", raising=False)
    assert _parse([]).root_path == ""
    assert _parse(["--root-path", "/rn/"]).root_path == "/rn"
    assert _parse(["--root-path", "games/red-nov"]).root_path == "/games/red-nov"
    monkeypatch.setenv("REDNOVEMBER_ROOT_PATH", "/from-env")
    assert _parse([]).root_path == "/from-env"
    assert _parse(["--root-path", "/flag"]).root_path == "/flag"
    for bad in ("/a b", "/rn?x=1", "/api", "/static/x", "/g"):
        with pytest.raises(SystemExit):
            _parse(["--root-path", bad])
        assert "--root-path" in capsys.readouterr().err


def test_the_page_names_its_root_and_prefixes_its_own_links() -> None:
    text = ('<!doctype html><html lang="en"><link href="/static/css/a.css"><script '
            'src="/static/js/app.js"></script><a href="/">home</a><a href="https://x.org/">x</a>'
            '<a href="//cdn.example/">y</a><a href="#top">t</a></html>')
    out = page_html(text, "/rn")
    assert '<html data-root="/rn" lang="en">' in out
    assert ATTR.findall(out) == ["/rn/static/css/a.css", "/rn/static/js/app.js", "/rn/",
                                 "https://x.org/", "//cdn.example/"]
    assert page_html(text, "") == text.replace("<html", '<html data-root=""')
    assert strip_root("/rn", "/rn") == "/" and strip_root("/rn/g/x", "/rn") == "/g/x"
    assert strip_root("/rnx/g", "/rn") is None and strip_root("/g/x", "/rn") is None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("rootpath") / "games.db", extra=["--root-path", "/rn"])
    s.start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(params=["strip", "keep"])
def proxy(request: pytest.FixtureRequest, server: Server) -> Iterator[StripProxy]:
    """The proxy in front of the server: one that strips /rn, one that passes it on."""
    with strip_proxy(server.port, "/rn", strip=request.param == "strip") as p:
        yield p


def test_pages_and_their_links_stay_under_the_root(proxy: StripProxy) -> None:
    with httpx.Client(base_url=proxy.url, timeout=10) as http:
        for path in ("/", "/g/abc", "/g/abc/replay"):
            r = http.get(path)
            assert r.status_code == 200 and '<html data-root="/rn"' in r.text, path
            links = ATTR.findall(r.text)
            assert links and all(u.startswith("/rn/") for u in links), links
            for u in links:  # the page's own files load through the proxy
                assert http.get(u.removeprefix("/rn")).status_code == 200, u
        assert http.head("/").status_code == 200
        rules = http.get("/rules/de", params={"back": "/g/abc"})
        links = [u for u in ATTR.findall(rules.text) if u]
        assert links and all(u.startswith("/rn/") for u in links), links
        assert "/rn/g/abc" in links and "/rn/rules/en?back=/g/abc" in links
        assert http.get("/static/css/app.css").status_code == 200
        assert "url(../img/favicon.svg)" in http.get("/static/css/app.css").text
        docs = http.get("/docs")
        assert docs.status_code == 200 and "/rn/openapi.json" in docs.text
        assert http.get("/openapi.json").json()["info"]["title"] == "Red November"
    # outside the prefix nothing reaches the server: the proxy answers
    assert httpx.get(f"http://127.0.0.1:{proxy.port}/api/health").status_code == 404


def test_a_game_is_played_through_the_proxy_api_and_websocket(proxy: StripProxy) -> None:
    with httpx.Client(base_url=proxy.url, timeout=10) as http:
        gid, _creator = new_game(http, players=3, seed=5)
        tokens = [take(http, gid, seat, f"P{seat}") for seat in range(3)]
        link = http.post(f"/api/games/{gid}/seat-link", json={"origin": "https://example.org"},
                         headers={"Authorization": f"Bearer {tokens[0]}"}).json()
        assert link["url"] == f"https://example.org/rn/g/{gid}#seat={tokens[0]}"
        assert link["link"] == f"/g/{gid}#seat={tokens[0]}"  # the app's path, as before
        plain = http.post(f"/api/games/{gid}/seat-link",
                          headers={"Authorization": f"Bearer {tokens[0]}"}).json()
        assert plain["url"] == f"http://127.0.0.1:{proxy.port}/rn/g/{gid}#seat={tokens[0]}"
        ws = WsClient(proxy.url, gid, tokens)
        try:
            st = ws.until(lambda m: m["type"] == "state" and m.get("your_turn") is True)
            action = st["actions"][0]["text"]
            ws.send({"type": "act", "id": 1, "seat": st["seat"], "action": action,
                     "version": st["version"]})
            ack = ws.until(lambda m: m.get("id") == 1)
            assert ack["type"] == "ack" and ack["version"] == st["version"] + 1
        finally:
            ws.close()
    assert any(s.startswith("GET /rn/ws/games/") for s in proxy.seen)
    assert not proxy.refused


def _caddy_example(upstream: int) -> str:
    """deploy/Caddyfile's commented sub-path example, uncommented, for a local upstream."""
    lines = (ROOT / "deploy" / "Caddyfile").read_text().splitlines()
    start = lines.index("# {$SITE_ADDRESS:localhost} {")
    block = "\n".join(line[2:] for line in lines[start:] if line.startswith("# "))
    assert "handle_path /rn/*" in block and "app1:8000 app2:8000" in block
    return ("{\n\tadmin off\n}\n"
            + block.replace("app1:8000 app2:8000", f"127.0.0.1:{upstream}")) + "\n"


@pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy is not installed")
def test_the_documented_caddy_example_serves_the_game_under_rn(server: Server,
                                                                tmp_path: Path) -> None:
    port = free_port()
    caddy = start_caddy(_caddy_example(server.port), tmp_path, port)
    base = f"http://127.0.0.1:{port}/rn"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert caddy.poll() is None and time.monotonic() < deadline, \
                (tmp_path / "caddy.log").read_text(errors="replace")
            time.sleep(0.1)
        assert httpx.get(f"http://127.0.0.1:{port}/rn").headers["location"] == "/rn/"
        with httpx.Client(base_url=base, timeout=10) as http:
            page = http.get("/")
            assert '<html data-root="/rn"' in page.text
            assert http.get("/static/js/root.js").status_code == 200
            gid, _ = new_game(http, players=3)
        ws = WsClient(base, gid)  # the WebSocket through Caddy
        assert ws.received[-1]["type"] == "welcome"
        ws.close()
    finally:
        caddy.terminate()
        caddy.wait(10)


def test_websocket_connections_are_not_logged_at_info(tmp_path: Path) -> None:
    quiet = Server(tmp_path / "quiet.db").start()
    loud = Server(tmp_path / "loud.db", extra=["--log-level", "debug"]).start()
    try:
        for s in (quiet, loud):
            with httpx.Client(base_url=s.url, timeout=10) as http:
                gid, _ = new_game(http, players=3)
                ws = WsClient(s.url, gid)
                ws.close()
                http.get("/api/health")  # after the close: its lines are written by then
    finally:
        quiet.stop()
        loud.stop()
    text = quiet.log_path.read_text(errors="replace")
    assert "Red November: http" in text
    assert "WebSocket" not in text and "connection open" not in text, text
    debug = loud.log_path.read_text(errors="replace")
    assert re.search(r" DEBUG +uvicorn\.error: .*\"WebSocket /ws/games/[\w-]+\" \[accepted\]", debug)
    assert re.search(r" DEBUG +uvicorn\.error: connection open", debug), debug


@pytest.mark.usefixtures("logging_restored")
def test_connection_lines_are_debug_unless_the_access_log_is_on(
        capsys: pytest.CaptureFixture[str]) -> None:
    errors = logging.getLogger("uvicorn.error")

    def emit() -> str:
        errors.info('%s - "WebSocket %s" [accepted]', "127.0.0.1:5000", "/ws/games/abc")
        errors.info("connection open")
        errors.info("connection closed")
        errors.info("Uvicorn running on %s", "http://x")
        return capsys.readouterr().err

    logs.configure("info")
    out = emit()
    assert "WebSocket" not in out and "connection" not in out and "Uvicorn running" in out
    logs.configure("info", access_log=True)
    out = emit()
    assert re.search(r"INFO +uvicorn\.error: 127\.0\.0\.1:5000 - \"WebSocket /ws/games/abc\"", out)
    assert "INFO    uvicorn.error: connection closed" in out
    logs.configure("debug")
    out = emit()
    assert "DEBUG   uvicorn.error: connection open" in out and "INFO    uvicorn.error: Uvicorn" in out
    assert len(errors.filters) == 1  # configure replaces its filter, never stacks them
