"""The server's logging: one line per record with time and level (or one JSON object per line),
for the application's loggers and uvicorn's alike; the access log only when asked for.

uvicorn logs every WebSocket handshake ('"WebSocket /ws/games/x" [accepted]') and every
"connection open" / "connection closed" at info level: three lines per browser tab and reconnect,
drowning what matters. They are access-log lines: with ``--access-log`` they stay at info, else
they are debug lines (shown with ``--log-level debug``)."""

from __future__ import annotations

import json
import logging
import sys
from typing import Any

TEXT_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"

# uvicorn.error's per-connection messages (its WebSocket protocols, uvicorn 0.30 to 0.54)
CONNECTION_MESSAGES = ("connection open", "connection closed")
CONNECTION_PREFIX = '%s - "WebSocket %s"'


def is_connection_record(record: logging.LogRecord) -> bool:
    """One of uvicorn's per-WebSocket lines (handshake, open, closed)."""
    msg = record.msg if isinstance(record.msg, str) else ""
    return msg in CONNECTION_MESSAGES or msg.startswith(CONNECTION_PREFIX)


class ConnectionLines(logging.Filter):
    """On the uvicorn.error logger: its per-connection info lines become debug lines (dropped
    unless the root logger shows debug), or stay as they are when the access log is on."""

    def __init__(self, access_log: bool = False) -> None:
        super().__init__()
        self.access_log = access_log

    def filter(self, record: logging.LogRecord) -> bool:
        if self.access_log or record.levelno != logging.INFO or not is_connection_record(record):
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return logging.getLogger().isEnabledFor(logging.DEBUG)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {"time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
                               "level": record.levelname.lower(), "logger": record.name,
                               "message": record.getMessage()}
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def configure(level: str = "info", fmt: str = "text", access_log: bool = False) -> None:
    """Route every logger (ours and uvicorn's) to one stderr handler with timestamps and levels."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        lg.handlers[:] = []
        lg.propagate = True
    logging.getLogger("uvicorn.access").disabled = not access_log
    errors = logging.getLogger("uvicorn.error")
    for old in [f for f in errors.filters if isinstance(f, ConnectionLines)]:
        errors.removeFilter(old)
    errors.addFilter(ConnectionLines(access_log))


__all__ = ["ConnectionLines", "JsonFormatter", "configure", "is_connection_record"]
