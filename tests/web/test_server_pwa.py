"""Issue 20 §4, the server's side of the installable app: the web manifest (linked from the game's
page and the rules page, under a root path too), the service worker at /sw.js with this build's
shell by hashed names and a version that changes with any file (so an upgrade gets a new worker
and a new cache), never /api nor the WebSocket; the CSP names both; the page carries the offline
sentence in the six languages."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from rednovember.i18n import available, catalog
from rednovember.web.app import STATIC_DIR, create_app
from rednovember.web.assets import IMMUTABLE

CONFIG = re.compile(r"self\.RN_SHELL = (\{.*?\});\nimportScripts\((\"[^\"]+\")\);")


def _worker(client: httpx.Client | TestClient, path: str = "/sw.js") -> tuple[dict, str]:
    r = client.get(path)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"
    m = CONFIG.search(r.text)
    assert m is not None, r.text
    return json.loads(m[1]), json.loads(m[2])


def test_the_manifest_makes_an_installable_app(api: httpx.Client) -> None:
    r = api.get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/manifest+json")
    m = r.json()
    assert m["name"] == "Red November" and len(m["short_name"]) <= 12
    assert m["start_url"] == m["scope"] == m["id"] == "/"
    assert m["display"] == "standalone" and m["theme_color"] and m["background_color"]
    sizes = {(i["sizes"], i["purpose"]) for i in m["icons"]}
    assert sizes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in m["icons"]:
        got = api.get(icon["src"])
        assert got.status_code == 200 and got.headers["content-type"] == "image/png"
        assert got.headers["cache-control"] == IMMUTABLE
        side = int(icon["sizes"].split("x")[0])  # the PNG's own width and height
        assert got.content[16:24] == side.to_bytes(4, "big") * 2


@pytest.mark.parametrize("path", ["/", "/rules/en"])
def test_every_page_links_the_manifest(api: httpx.Client, path: str) -> None:
    text = api.get(path).text
    assert re.search(r"""<link rel=['"]manifest['"] href=['"]/manifest\.webmanifest['"]>""", text)


def test_the_worker_keeps_this_builds_shell_and_never_the_api(api: httpx.Client) -> None:
    config, code = _worker(api)
    assert config["root"] == "" and config["page"] == "/"
    urls = config["urls"]
    assert urls[0] == "/" and len(urls) == len(set(urls))
    assert not [u for u in urls if u.startswith(("/api", "/ws"))]
    page = api.get("/").text
    for ref in re.findall(r'(?:src|href)="(/static/[^"]+)"', page):  # the page's own files
        assert ref in urls
    for hashed in json.loads(re.search(r'importmap">(.*?)<', page)[1])["imports"].values():
        assert hashed in urls  # and every module, by the name the page asks for
    for u in urls[1:]:
        assert re.search(r"\.[0-9a-f]{12}\.\w+$", u), u
    assert re.fullmatch(r"/static/sw/worker\.[0-9a-f]{12}\.js", code)
    body = api.get(code).text
    assert "caches.delete" in body and "self.RN_SHELL" in body


def test_an_upgrade_gets_a_new_worker_version(tmp_path: Path) -> None:
    static = tmp_path / "static"
    shutil.copytree(STATIC_DIR, static)
    with TestClient(create_app("sqlite://", static_dir=static)) as client:
        before, _ = _worker(client)
    with (static / "css" / "app.css").open("a", encoding="utf-8") as f:
        f.write("\n/* upgraded */\n")
    with TestClient(create_app("sqlite://", static_dir=static)) as client:
        after, _ = _worker(client)
    assert before["version"] != after["version"]
    changed = set(before["urls"]) ^ set(after["urls"])
    assert {re.sub(r"\.[0-9a-f]{12}\.", ".", u) for u in changed} == {"/static/css/app.css"}


def test_under_a_root_path_the_app_stays_under_it() -> None:
    with TestClient(create_app("sqlite://", root_path="/rn")) as client:
        m = client.get("/rn/manifest.webmanifest").json()
        assert m["start_url"] == m["scope"] == m["id"] == "/rn/"
        assert all(i["src"].startswith("/rn/static/img/") for i in m["icons"])
        config, code = _worker(client, "/rn/sw.js")
        assert config["root"] == "/rn" and config["page"] == "/rn/"
        assert all(u.startswith("/rn/") for u in config["urls"]) and code.startswith("/rn/static/")
        assert '<link rel="manifest" href="/rn/manifest.webmanifest">' in client.get("/rn/").text


def test_the_csp_names_the_manifest_and_the_worker(api: httpx.Client) -> None:
    for path in ("/", "/sw.js", "/manifest.webmanifest"):
        csp = api.get(path).headers["content-security-policy"]
        assert "manifest-src 'self'" in csp and "worker-src 'self'" in csp, path


def test_the_page_says_offline_in_every_language(api: httpx.Client) -> None:
    page = api.get("/").text
    m = re.search(r'<script type="application/json" id="offline-texts">(.*?)</script>', page)
    assert m is not None
    texts = json.loads(m[1])
    assert set(texts) == set(available()) >= {"en", "de", "fr", "pl", "ru", "es"}
    for code, text in texts.items():
        assert text == catalog(code).raw("web", "conn_offline") and text != "conn_offline"
    assert texts["en"] == "You are offline; reconnecting…"
