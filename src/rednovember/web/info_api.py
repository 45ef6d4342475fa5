"""The server's own routes that are about no game (docs/protocol.md §3.1): liveness and
readiness, what the server speaks (meta, bots, data tables), the texts of each language, and the
rules reference (JSON and the page)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import FastAPI, Request, WebSocket
from fastapi import Path as InPath
from fastapi.responses import HTMLResponse

from .. import __version__ as package_version
from ..bots import BOTS
from ..i18n import UnknownLanguage, available, catalog, plural_forms
from ..i18n.describe import ENTRY_ARGS
from ..i18n.describe import VARIANTS as LOG_VARIANTS
from ..rules import COLOURS, VARIANTS, GameData
from . import PROTOCOL_VERSION
from .answers import Bots, Data, Languages, Meta, Ok, RulesReference, Texts, ok
from .datajson import data_json
from .hub import Hub
from .protocol import MAX_BODY_BYTES, MAX_MESSAGE_BYTES, MAX_NAME_CHARS, MAX_TOKENS, ProtocolError
from .responses import errors
from .rules_page import rules_html, rules_reference, safe_back

log = logging.getLogger("rednovember.web")

READY_TIMEOUT = 3.0  # seconds the database has to answer /api/ready
LANG_RE = re.compile(r"^[a-z]{2,3}([_-][A-Za-z]{2,4})?$")
Lang = Annotated[str, InPath(examples=["en", "de"], description="a language code (GET /api/i18n)")]


def add_routes(app: FastAPI, game_data: GameData, hub_of: Callable[[Request | WebSocket], Hub],
               root_of: Callable[[Request], str]) -> None:
    """The routes (``hub_of``, ``root_of``: app.py's)."""

    @app.get("/api/health", responses=ok(Ok))
    async def health() -> dict[str, Any]:
        """Liveness: the process answers (whether or not its database does)."""
        return {"ok": True}

    @app.get("/api/ready", responses={**ok(Ok), **errors("unavailable")})
    async def ready(request: Request) -> dict[str, Any]:
        """Readiness: 200 while the database answers, 503 ``unavailable`` while it does not
        (the container health check and the proxy use it)."""
        try:
            await asyncio.wait_for(asyncio.to_thread(hub_of(request).store.ping), READY_TIMEOUT)
        except Exception as exc:  # any failure of the database: not ready
            log.warning("not ready: the database does not answer (%s)",
                        type(exc).__name__)
            raise ProtocolError("unavailable", "the database does not answer") from None
        return {"ok": True}

    @app.get("/api/meta", responses=ok(Meta))
    async def meta() -> dict[str, Any]:
        return {
            "protocol": PROTOCOL_VERSION, "server": package_version, "colours": list(COLOURS),
            "variants": list(VARIANTS), "bots": sorted(BOTS), "languages": available(),
            "limits": {"message_bytes": MAX_MESSAGE_BYTES, "body_bytes": MAX_BODY_BYTES,
                       "name_chars": MAX_NAME_CHARS, "tokens_per_hello": MAX_TOKENS},
            "log_messages": {k: list(v) for k, v in ENTRY_ARGS.items()},
            "log_variants": {k: list(v) for k, v in LOG_VARIANTS.items()},
        }

    @app.get("/api/bots", responses=ok(Bots))
    async def bots() -> dict[str, Any]:
        return {"bots": sorted(BOTS)}

    @app.get("/api/data", responses=ok(Data))
    async def data_tables() -> dict[str, Any]:
        return data_json(game_data)

    @app.get("/api/i18n", responses=ok(Languages))
    async def languages() -> dict[str, Any]:
        out = []
        for code in available():
            with contextlib.suppress(UnknownLanguage):
                out.append({"code": code, "name": catalog(code).raw("meta", "name")})
        return {"default": "en", "languages": out}

    def _catalog(lang: str) -> Any:
        if not LANG_RE.match(lang):
            raise ProtocolError("unknown_language", f"no texts for language {lang[:16]!r}")
        try:
            return catalog(lang)
        except UnknownLanguage as exc:
            raise ProtocolError("unknown_language", str(exc)) from None

    @app.get("/api/i18n/{lang}",
             responses={**ok(Texts), **errors("unknown_language")})
    async def i18n(lang: Lang) -> dict[str, Any]:
        cat = _catalog(lang)
        names = set(cat.texts) | (set(cat.fallback.texts) if cat.fallback else set())
        return {"lang": cat.code, "plural_forms": list(plural_forms(cat.code)),
                "catalog": {name: cat.section(name) for name in sorted(names)}}

    @app.get("/api/rules/{lang}",
             responses={**ok(RulesReference), **errors("unknown_language")})
    async def rules_json(lang: Lang) -> dict[str, Any]:
        return rules_reference(_catalog(lang), game_data)

    def _rules_page(request: Request, lang: str, back: str | None) -> HTMLResponse:
        cat = _catalog(lang)
        names = [(code, catalog(code).raw("meta", "name")) for code in available()]
        return HTMLResponse(rules_html(rules_reference(cat, game_data), safe_back(back), names,
                                       root=root_of(request)))

    @app.get("/rules", response_class=HTMLResponse)
    async def rules_default(request: Request, back: str | None = None) -> HTMLResponse:
        return _rules_page(request, "en", back)

    @app.get("/rules/{lang}", response_class=HTMLResponse, responses=errors("unknown_language"))
    async def rules_page(request: Request, lang: Lang, back: str | None = None) -> HTMLResponse:
        """The full rules; ``back`` (``/g/{id}`` or ``/g/{id}/replay``, else ignored) adds a
        "Back to the game" link."""
        return _rules_page(request, lang, back)


__all__ = ["LANG_RE", "Lang", "add_routes"]
