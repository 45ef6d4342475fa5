"""The flags of ``rednovember serve``, each with an environment variable (the flag wins):
``REDNOVEMBER_HOST``, ``REDNOVEMBER_PORT``, ``REDNOVEMBER_DB`` (or ``REDNOVEMBER_DB_FILE``, a file
holding the URL, so a password appears neither in ``ps`` nor in the environment of child
processes), ``REDNOVEMBER_LOG_LEVEL``, ``REDNOVEMBER_LOG_FORMAT``, ``REDNOVEMBER_ACCESS_LOG``,
``REDNOVEMBER_ROOT_PATH`` (a sub-path, web/rootpath.py), ``REDNOVEMBER_BOT_DELAY``,
``REDNOVEMBER_TAKEOVER_GRACE``, ``REDNOVEMBER_FORWARDED_ALLOW_IPS``,
``REDNOVEMBER_NO_LIMITS`` and ``REDNOVEMBER_LIMIT_*`` (the per-client limits, web/limits.py).
Only the standard library here: the ``rednovember`` command builds its parser on every start,
the web server's imports wait for ``serve`` (web/serve.py).
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

DEFAULT_DB = "sqlite:///rednovember.db"
LOG_LEVELS = ("debug", "info", "warning", "error")
# A sub-path such as /rn: segments of URL-safe characters, no trailing slash ("" for none)
ROOT_PATH_RE = re.compile(r"(/[A-Za-z0-9._~-]+)*")
# The app's own top-level paths: a root path starting with one would be ambiguous
APP_PREFIXES = ("api", "ws", "static", "g", "rules", "learn", "docs", "redoc", "openapi.json")


def _env(name: str, default: str) -> str:
    return os.environ.get(f"REDNOVEMBER_{name}", default)


def _env_flag(name: str) -> bool:
    return _env(name, "").strip().lower() in ("1", "true", "yes", "on")


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The serve command's flags; each default comes from its environment variable."""
    p.add_argument("--host", default=_env("HOST", "127.0.0.1"),
                   help="address to listen on (default 127.0.0.1; $REDNOVEMBER_HOST)")
    p.add_argument("--port", type=int, default=int(_env("PORT", "8000")),
                   help="port (default 8000; $REDNOVEMBER_PORT)")
    p.add_argument("--db", default=None,
                   help=f"database URL (SQLAlchemy; default {DEFAULT_DB}; $REDNOVEMBER_DB). "
                        "Prefer --db-file for a URL with a password")
    p.add_argument("--db-file", default=_env("DB_FILE", "") or None, metavar="PATH",
                   help="read the database URL from this file ($REDNOVEMBER_DB_FILE)")
    p.add_argument("--bot-delay", type=float, default=float(_env("BOT_DELAY", "0.6")),
                   metavar="SECONDS",
                   help="pause before each bot move (default 0.6; $REDNOVEMBER_BOT_DELAY)")
    p.add_argument("--takeover-grace", type=float,
                   default=float(_env("TAKEOVER_GRACE", "30")), metavar="SECONDS",
                   help="how long a player must be gone before others may hand the seat to a "
                        "bot (default 30; $REDNOVEMBER_TAKEOVER_GRACE)")
    p.add_argument("--log-level", choices=LOG_LEVELS, default=_env("LOG_LEVEL", "info"),
                   help="log level (default info; $REDNOVEMBER_LOG_LEVEL)")
    p.add_argument("--log-format", choices=("text", "json"), default=_env("LOG_FORMAT", "text"),
                   help="log lines as text or one JSON object each ($REDNOVEMBER_LOG_FORMAT)")
    p.add_argument("--access-log", action="store_true", default=_env_flag("ACCESS_LOG"),
                   help="log every HTTP request ($REDNOVEMBER_ACCESS_LOG=1)")
    p.add_argument("--root-path", type=root_path, default=_env("ROOT_PATH", ""), metavar="PATH",
                   help="serve under this sub-path, e.g. /rn, behind a reverse proxy that strips "
                        "it or passes it on (default none; $REDNOVEMBER_ROOT_PATH)")
    p.add_argument("--waiting-expiry", type=float,
                   default=float(_env("WAITING_EXPIRY", str(24 * 3600))), metavar="SECONDS",
                   help="delete tables still waiting for players that nobody touched for this "
                        "long (default 86400: 24 h; $REDNOVEMBER_WAITING_EXPIRY)")
    p.add_argument("--turn-timer-min", type=float, default=float(_env("TURN_TIMER_MIN", "30")),
                   metavar="SECONDS",
                   help="the shortest turn timer a table may ask for (default 30; lower values "
                        "are for tests; $REDNOVEMBER_TURN_TIMER_MIN)")
    p.add_argument("--winchance-rollouts", type=int,
                   default=int(_env("WINCHANCE_ROLLOUTS", "48")), metavar="N",
                   help="rollouts per point of a finished game's win-chance curve, computed once "
                        "per game (1..200, default 48: a few seconds of one core; "
                        "$REDNOVEMBER_WINCHANCE_ROLLOUTS)")
    add_limit_arguments(p)


# (flag, environment variable, default, help) of each per-client limit (web/limits.Limits)
LIMITS = (
    ("games_per_minute", 10, "games one client may create per minute"),
    ("seats_per_minute", 30, "seats one client may take per minute"),
    ("waiting_games_per_client", 20, "games of one client that may wait for players at once"),
    ("messages_per_10s", 60, "WebSocket messages one connection may send per 10 seconds"),
    ("connections_per_game", 64, "spectators' connections one game accepts on one process (a "
                                 "seat's holder always gets in)"),
    ("spectators_per_client", 8, "connections one client may watch one game with, on one process"),
    ("max_waiting_games", 1000, "games waiting for players on the whole server"),
    ("winchances_per_hour", 12, "win-chance curves one client may have computed per hour"),
)


def add_limit_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--forwarded-allow-ips", default=_env("FORWARDED_ALLOW_IPS", "127.0.0.1"),
                   metavar="IPS",
                   help="the reverse proxies whose X-Forwarded-For names the client (comma-"
                        "separated, '*' for any; default 127.0.0.1; "
                        "$REDNOVEMBER_FORWARDED_ALLOW_IPS)")
    p.add_argument("--no-limits", action="store_true", default=_env_flag("NO_LIMITS"),
                   help="no per-client limits (tests, trusted networks; $REDNOVEMBER_NO_LIMITS=1)")
    for name, default, text in LIMITS:
        env = f"LIMIT_{name.upper()}"
        p.add_argument(f"--limit-{name.replace('_', '-')}", dest=f"limit_{name}", type=int,
                       default=int(_env(env, str(default))), metavar="N",
                       help=f"{text} (default {default}, 0: no limit; $REDNOVEMBER_{env})")


def root_path(value: str) -> str:
    """A --root-path value normalised to "" or "/seg[/seg…]" (no trailing slash)."""
    path = value.strip()
    if path and not path.startswith("/"):
        path = "/" + path
    path = path.rstrip("/")
    if not ROOT_PATH_RE.fullmatch(path):
        raise argparse.ArgumentTypeError(f"{value!r}: give a path such as /rn (letters, digits, "
                                         "'.', '_', '~', '-' between slashes)")
    if path.split("/")[1:2] and path.split("/")[1] in APP_PREFIXES:
        raise argparse.ArgumentTypeError(f"{value!r}: a root path may not start with one of the "
                                         f"game's own paths ({', '.join(APP_PREFIXES)})")
    return path


def database_url(args: argparse.Namespace) -> str:
    """--db, else --db-file's contents, else $REDNOVEMBER_DB, else the default SQLite file."""
    if args.db:
        return str(args.db)
    if args.db_file:
        return Path(args.db_file).read_text(encoding="utf-8").strip()
    return _env("DB", DEFAULT_DB)


__all__ = ["DEFAULT_DB", "LIMITS", "LOG_LEVELS", "add_arguments", "add_limit_arguments",
           "database_url", "root_path"]
