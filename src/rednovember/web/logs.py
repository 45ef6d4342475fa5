"""The server's logging: one line per record with time and level (or one JSON object per line),
for the application's loggers and uvicorn's alike; the access log only when asked for.

uvicorn logs every WebSocket handshake ('"WebSocket /ws/games/x" [accepted]') and every
"connection open" / "connection closed" at info level: three lines per browser tab and reconnect,
drowning what matters. They are access-log lines: with ``--access-log`` they stay at info, else
they are debug lines (shown with ``--log-level debug``, which logs the HTTP requests as well).

No secret reaches a log at any level: uvicorn's WebSocket traces (each frame, the handshake's
headers: a ``hello`` frame holds seat tokens) are never logged, and every line is masked for
tokens before it is written (:func:`redact`: a bearer or token field's value, and any long random
string of the tokens' alphabet)."""

from __future__ import annotations

import json
import logging
import re
import sys
from typing import Any

TEXT_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"

# uvicorn.error's per-connection messages (its WebSocket protocols, uvicorn 0.30 to 0.54)
CONNECTION_MESSAGES = ("connection open", "connection closed")
CONNECTION_PREFIX = '%s - "WebSocket %s"'


# websockets' protocol trace, logged by uvicorn at debug: "< TEXT '…' [n bytes]", "> HTTP/1.1 101",
# "= connection is OPEN", "x half-closing TCP connection", "! failing connection …"
WIRE_PREFIXES = ("< ", "> ", "= ", "x ", "! ", "% ")

SECRET = "[secret]"
_FIELD = re.compile(r"""(?ix)
    (bearer\s+ | (?:x-seat-token|x-creator-token|creator_token|creator|token)\\?"?\s*[:=]\s*\\?"?)
    [A-Za-z0-9_~.+/=-]+""")
_TOKENS_LIST = re.compile(r"""(?i)(tokens\\?"?\s*[:=]\s*\[)[^\]]*""")
# a random token (security.new_token: 43 url-safe characters), or a part of one, alone: 20 or more
# characters of that alphabet with a digit, a capital and a small letter
_RANDOM = re.compile(r"(?<![A-Za-z0-9_-])(?=[A-Za-z_-]*[0-9])(?=[^A-Z]*[A-Z])(?=[^a-z]*[a-z])"
                     r"[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])")


def redact(line: str) -> str:
    """``line`` with every token masked (see the module's text)."""
    line = _TOKENS_LIST.sub(lambda m: m[1] + SECRET, line)
    line = _FIELD.sub(lambda m: m[1] + SECRET, line)
    return _RANDOM.sub(SECRET, line)


class Redacting(logging.Formatter):
    """Formats with ``inner`` and masks the tokens in the result (tracebacks included)."""

    def __init__(self, inner: logging.Formatter) -> None:
        super().__init__()
        self.inner = inner

    def format(self, record: logging.LogRecord) -> str:
        return redact(self.inner.format(record))


def is_wire_record(record: logging.LogRecord) -> bool:
    """One of the WebSocket protocol's trace lines (frames and handshake headers)."""
    msg = record.msg if isinstance(record.msg, str) else ""
    return record.levelno <= logging.DEBUG and msg.startswith(WIRE_PREFIXES)


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
        if is_wire_record(record):
            return False
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


# Alembic's two lines on every connection it configures (each start, each `rednovember db`):
# noise around what matters ("Running upgrade 0003 -> 0004, …" stays)
ALEMBIC_NOISE = ("Context impl %s.", "Will assume %s DDL.")


def quiet_alembic(record: logging.LogRecord) -> bool:
    return record.msg not in ALEMBIC_NOISE


def access_wanted(level: str, access_log: bool) -> bool:
    """Whether HTTP requests are logged: with ``--access-log``, or at the debug level."""
    return access_log or level.lower() == "debug"


def configure(level: str = "info", fmt: str = "text", access_log: bool = False) -> None:
    """Route every logger (ours and uvicorn's) to one stderr handler with timestamps and levels,
    tokens masked."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(Redacting(JsonFormatter() if fmt == "json"
                                   else logging.Formatter(TEXT_FORMAT)))

    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        lg.handlers[:] = []
        lg.propagate = True
    logging.getLogger("uvicorn.access").disabled = not access_wanted(level, access_log)
    errors = logging.getLogger("uvicorn.error")
    for old in [f for f in errors.filters if isinstance(f, ConnectionLines)]:
        errors.removeFilter(old)
    errors.addFilter(ConnectionLines(access_log))
    migrations = logging.getLogger("alembic.runtime.migration")
    if quiet_alembic not in migrations.filters:
        migrations.addFilter(quiet_alembic)


__all__ = ["ConnectionLines", "JsonFormatter", "Redacting", "access_wanted", "configure",
           "is_connection_record", "is_wire_record", "redact"]
