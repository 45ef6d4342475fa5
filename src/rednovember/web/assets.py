"""Content-hashed URLs for the front-end's files, so that an upgrade never runs old scripts.

Every file under static/ also answers at a name with the first 12 hex digits of its SHA-256
(``/static/js/app.js`` → ``/static/js/app.0123456789ab.js``), with ``Cache-Control: immutable``
(a year): a browser keeps it without asking again, and a changed file has another name. The plain
names still answer, with ``no-cache`` (the browser asks each time whether its copy is current), as
does the page itself. A hashed name whose digits are not the file's current ones is not found.

The page (static/index.html) is rewritten as it is served: its own ``href``/``src`` to static files
name the hashed files, and an import map sends each module's plain URL to its hashed one — the
modules import each other by relative URL (``./board.js``), which the browser resolves to the
plain URL and then maps. The import map is an inline script: the page's Content-Security-Policy
allows exactly it, by its SHA-256.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from .headers import CSP

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
DIGITS = 12
_HASHED = re.compile(rf"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{{{DIGITS}}})(?P<ext>\.[A-Za-z0-9]+)$")
_MODULE = re.compile(r"<script\b[^>]*\btype=(['\"])module\1", re.IGNORECASE)


def hashed_name(rel: str, digest: str) -> str:
    """``js/app.js`` with ``digest`` → ``js/app.<digest>.js``."""
    stem, dot, ext = rel.rpartition(".")
    return f"{stem}.{digest}.{ext}" if dot and "/" not in ext else f"{rel}.{digest}"


class Assets:
    """The static files' digests, read once (the files do not change while the server runs)."""

    def __init__(self, static: Path) -> None:
        self.digests: dict[str, str] = {}
        if static.is_dir():
            for path in sorted(static.rglob("*")):
                if path.is_file():
                    rel = path.relative_to(static).as_posix()
                    self.digests[rel] = hashlib.sha256(path.read_bytes()).hexdigest()[:DIGITS]

    def url(self, rel: str) -> str:
        """The hashed path under /static of ``rel`` (the plain one for an unknown file)."""
        digest = self.digests.get(rel)
        return hashed_name(rel, digest) if digest else rel

    def plain(self, path: str) -> str | None:
        """The file a hashed path names, if its digits are the file's; else None."""
        m = _HASHED.match(path)
        if m is None:
            return None
        rel = m["stem"] + m["ext"]
        return rel if self.digests.get(rel) == m["hash"] else None

    def import_map(self, root: str) -> str:
        """The import map of every module (static/js/): plain URL → hashed URL. The service
        worker's code (static/sw/) is no module: the worker imports it by its hashed URL."""
        imports = {f"{root}/static/{rel}": f"{root}/static/{self.url(rel)}"
                   for rel in self.digests if rel.startswith("js/") and rel.endswith(".js")}
        return json.dumps({"imports": imports}, separators=(",", ":"))

    def page(self, text: str, root: str) -> tuple[str, str]:
        """The page with hashed URLs and its import map, and the CSP that allows that map."""
        prefix = re.escape(f"{root}/static/")
        text = re.sub(rf"""\b(href|src)=(["']){prefix}([^"'?#]+)\2""",
                      lambda m: f"{m[1]}={m[2]}{root}/static/{self.url(m[3])}{m[2]}", text)
        imports = self.import_map(root)
        script = f'<script type="importmap">{imports}</script>\n  '
        m = _MODULE.search(text)
        at = m.start() if m else text.lower().find("</head>")
        if at >= 0:
            text = text[:at] + script + text[at:]
        digest = base64.b64encode(hashlib.sha256(imports.encode("utf-8")).digest()).decode()
        csp = CSP.replace("script-src 'self'", f"script-src 'self' 'sha256-{digest}'", 1)
        return text, csp


class HashedStatic(StaticFiles):
    """StaticFiles that also serves the hashed names (immutable) and marks the plain ones
    ``no-cache``."""

    def __init__(self, assets: Assets, directory: str) -> None:
        super().__init__(directory=directory)
        self.assets = assets

    async def get_response(self, path: str, scope: Scope) -> Response:
        plain = self.assets.plain(path)
        response = await super().get_response(plain or path, scope)
        if response.status_code in (200, 304):
            response.headers["Cache-Control"] = IMMUTABLE if plain else REVALIDATE
        return response


__all__ = ["IMMUTABLE", "REVALIDATE", "Assets", "HashedStatic", "hashed_name"]
