"""Play Red November in the browser, together: the HTTP + WebSocket server (docs/protocol.md).

``create_app`` (app.py) builds the FastAPI application; ``rednovember serve`` runs it on uvicorn.
"""

from __future__ import annotations

PROTOCOL_VERSION = 1

__all__ = ["PROTOCOL_VERSION"]
