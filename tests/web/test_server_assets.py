"""Issue 19 §4: the front-end's files at content-hashed URLs (``Cache-Control: immutable``), the
page ``no-cache``, an import map from each module's plain URL to its hashed one, allowed by the
page's CSP; under a root path as well. An upgrade (a changed file) gets a new URL."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from rednovember.web.app import STATIC_DIR, create_app
from rednovember.web.assets import IMMUTABLE, Assets

IMPORT_MAP = re.compile(r'<script type="importmap">(.*?)</script>', re.DOTALL)


def _page(api: httpx.Client | TestClient, path: str = "/") -> tuple[str, dict[str, str], str]:
    r = api.get(path)
    assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
    m = IMPORT_MAP.search(r.text)
    assert m is not None, r.text[:500]
    return r.text, json.loads(m[1])["imports"], r.headers["content-security-policy"]


def test_the_page_names_hashed_files_that_are_immutable(api: httpx.Client) -> None:
    text, imports, csp = _page(api)
    script = re.search(r'<script type="module" src="([^"]+)"', text)
    assert script and re.fullmatch(r"/static/js/app\.[0-9a-f]{12}\.js", script[1]), script
    sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', text)
    assert sheets and all(re.fullmatch(r"/static/css/\w+\.[0-9a-f]{12}\.css", h) for h in sheets)
    for url in [script[1], *sheets]:
        r = api.get(url)
        assert r.status_code == 200 and r.headers["cache-control"] == IMMUTABLE, url
        plain = api.get(re.sub(r"\.[0-9a-f]{12}\.", ".", url))
        assert plain.content == r.content and plain.headers["cache-control"] == "no-cache"
        digest = hashlib.sha256(r.content).hexdigest()[:12]
        assert f".{digest}." in url  # the name is the content's
    # every module: its plain URL (what a relative import resolves to) maps to its hashed one
    modules = sorted(p.name for p in (STATIC_DIR / "js").glob("*.js"))
    assert sorted(k.rsplit("/", 1)[1] for k in imports) == modules
    for plain, hashed in imports.items():
        assert api.get(hashed).headers["cache-control"] == IMMUTABLE
        assert api.get(hashed).content == api.get(plain).content
    # the import map is an inline script: the page's CSP allows it by its hash, nothing else
    body = IMPORT_MAP.search(text)
    assert body is not None
    allowed = base64.b64encode(hashlib.sha256(body[1].encode()).digest()).decode()
    script_src = re.search(r"script-src [^;]*", csp)
    assert script_src and script_src[0] == f"script-src 'self' 'sha256-{allowed}'", csp


def test_an_old_or_made_up_hash_is_not_found(api: httpx.Client) -> None:
    assert api.get("/static/js/app.000000000000.js").status_code == 404
    assert api.get("/static/js/nothing.0123456789ab.js").status_code == 404


def test_an_upgrade_changes_the_urls_of_the_changed_files_only(tmp_path: Path) -> None:
    static = tmp_path / "static"
    shutil.copytree(STATIC_DIR, static)
    before = Assets(static)
    board = static / "js" / "board.js"
    board.write_text(board.read_text(encoding="utf-8") + "\n// next version\n", encoding="utf-8")
    after = Assets(static)
    assert before.url("js/board.js") != after.url("js/board.js")
    assert before.url("js/app.js") == after.url("js/app.js")
    with TestClient(create_app("sqlite://", static_dir=static)) as client:
        _, imports, _ = _page(client)
        assert imports["/static/js/board.js"] == "/static/" + after.url("js/board.js")
        assert client.get("/static/" + before.url("js/board.js")).status_code == 404
        fresh = client.get("/static/" + after.url("js/board.js"))
        assert fresh.status_code == 200 and fresh.text.endswith("// next version\n")


@pytest.mark.parametrize("root", ["/rn", "/games/red"])
def test_under_a_root_path_the_map_and_urls_keep_the_prefix(root: str) -> None:
    with TestClient(create_app("sqlite://", root_path=root)) as client:
        text, imports, _ = _page(client, root + "/")
        assert all(k.startswith(f"{root}/static/js/") and v.startswith(f"{root}/static/js/")
                   for k, v in imports.items())
        script = re.search(r'<script type="module" src="([^"]+)"', text)
        assert script and script[1] == imports[f"{root}/static/js/app.js"]
        r = client.get(script[1])
        assert r.status_code == 200 and r.headers["cache-control"] == IMMUTABLE
