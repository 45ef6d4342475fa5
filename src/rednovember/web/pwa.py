"""The installable app (issue 20 §4): a web manifest and a service worker that keeps the app shell.

``/manifest.webmanifest``: name, icons (static/img/icon-*.png, made by scripts/make_icons.py),
``start_url`` and ``scope`` at the root path (web/rootpath.py), ``display: standalone``, colours.

``/sw.js``: a few lines written per root path — the shell of this version (the page, the manifest
and every static file by its content-hashed name, web/assets.py) and a version computed from the
files' digests — then ``importScripts`` of the worker's code (static/sw/worker.js). A changed file
changes the version, hence the bytes of /sw.js: the browser installs the new worker, which fills a
new cache and deletes the old ones, so an upgrade never runs old code. The worker never caches
/api or the WebSocket. Served at the root path so that its scope is the whole app.

The page carries the "You are offline" sentence in every language (``offline_texts``): a page
opened offline has the shell but no catalog (/api/i18n is not cached), and says so in the
player's language all the same (static/js/offline.js).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from .. import __version__ as package_version
from ..i18n import available, catalog
from .assets import Assets

MANIFEST = "/manifest.webmanifest"
WORKER = "/sw.js"
WORKER_CODE = "sw/worker.js"  # under static/
THEME = "#0a131c"  # the top bar
BACKGROUND = "#0f1a24"  # the page
ICONS = (("img/icon-192.png", "192x192", "any"), ("img/icon-512.png", "512x512", "any"),
         ("img/icon-maskable-512.png", "512x512", "maskable"))
_OFFLINE_MARK = '<script type="application/json" id="offline-texts">{}</script>'


def version(assets: Assets) -> str:
    """This build's shell: the package version and every static file's digest."""
    text = json.dumps([package_version, sorted(assets.digests.items())])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def manifest(root: str, assets: Assets) -> dict[str, Any]:
    home = f"{root}/"
    return {
        "id": home, "name": "Red November", "short_name": "Red November",
        "description": "The cooperative submarine board game, with friends in the browser.",
        "start_url": home, "scope": home, "display": "standalone",
        "background_color": BACKGROUND, "theme_color": THEME,
        "icons": [{"src": f"{root}/static/{assets.url(rel)}", "sizes": sizes,
                   "type": "image/png", "purpose": purpose} for rel, sizes, purpose in ICONS],
    }


def shell(root: str, assets: Assets) -> list[str]:
    """What the worker keeps: the page and every static file (by its hashed name)."""
    files = [f"{root}/static/{assets.url(rel)}" for rel in sorted(assets.digests)
             if rel != "index.html"]
    return [f"{root}/", *files]


def worker(root: str, assets: Assets) -> str:
    config = {"version": version(assets), "root": root, "page": f"{root}/",
              "urls": shell(root, assets)}
    code = f"{root}/static/{assets.url(WORKER_CODE)}"
    return ("// Red November's service worker: this build's app shell (web/pwa.py), then the "
            "worker's code.\n"
            f"self.RN_SHELL = {json.dumps(config, separators=(',', ':'))};\n"
            f"importScripts({json.dumps(code)});\n")


def offline_texts(page: str) -> str:
    """The page with the offline sentence of every language in its data block."""
    texts = {code: catalog(code).raw("web", "conn_offline") for code in available()}
    block = json.dumps(texts, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return page.replace(_OFFLINE_MARK, _OFFLINE_MARK.replace("{}", block), 1)


def add_routes(app: FastAPI, assets: Assets, root_of: Callable[[Request], str]) -> None:
    @app.api_route(MANIFEST, methods=["GET", "HEAD"], include_in_schema=False)
    async def web_manifest(request: Request) -> Response:
        return JSONResponse(manifest(root_of(request), assets),
                            media_type="application/manifest+json",
                            headers={"Cache-Control": "no-cache"})

    workers: dict[str, str] = {}

    @app.api_route(WORKER, methods=["GET", "HEAD"], include_in_schema=False)
    async def service_worker(request: Request) -> Response:
        root = root_of(request)
        if root not in workers:
            workers[root] = worker(root, assets)
        return Response(workers[root], media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})


__all__ = ["MANIFEST", "WORKER", "add_routes", "manifest", "offline_texts", "shell", "version",
           "worker"]
