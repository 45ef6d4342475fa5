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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..analysis.turning import ANALYSE_ROLLOUTS

DEFAULT_DB = "sqlite:///rednovember.db"
LOG_LEVELS = ("debug", "info", "warning", "error")
LOG_FORMATS = ("text", "json")
# A sub-path such as /rn: segments of URL-safe characters, no trailing slash ("" for none)
ROOT_PATH_RE = re.compile(r"(/[A-Za-z0-9._~-]+)*")
# The app's own top-level paths: a root path starting with one would be ambiguous
APP_PREFIXES = ("api", "ws", "static", "g", "rules", "learn", "docs", "redoc", "openapi.json",
                "sw.js", "manifest.webmanifest")


class EnvValue(str):
    """A flag's default taken from its environment variable: argparse converts it with the flag's
    type like a value typed on the command line (after the other flags, so a bad one never stops
    ``--version``), and the type's error names the variable."""

    var: str

    def __new__(cls, var: str, value: str) -> EnvValue:
        out = super().__new__(cls, value)
        out.var = var
        return out


def _env(name: str, default: str) -> str:
    var = f"REDNOVEMBER_{name}"
    return EnvValue(var, os.environ[var]) if var in os.environ else default


FLAG_WORDS = {"1": True, "true": True, "yes": True, "on": True,
              "0": False, "false": False, "no": False, "off": False, "": False}


def _env_flag(name: str) -> bool:
    return FLAG_WORDS.get(_env(name, "").strip().lower(), False)  # checked by check_env_flags


def check_env_flags() -> None:
    """The on/off variables (``REDNOVEMBER_ACCESS_LOG``, ``_NO_LIMITS``, ``_PUSH``): a value that
    is neither on nor off is an error (ValueError), not silently off."""
    for name in ("ACCESS_LOG", "NO_LIMITS", "PUSH"):
        value = os.environ.get(f"REDNOVEMBER_{name}", "")
        if value.strip().lower() not in FLAG_WORDS:
            raise ValueError(f"REDNOVEMBER_{name}={value!r}: give 1 or 0 (true/false, yes/no, "
                             "on/off)")


def _checked(kind: str, convert: Callable[[str], Any], ok: Callable[[Any], bool]
             ) -> Callable[[str], Any]:
    """An argparse type: ``convert``, then ``ok``; its error says what was wanted and, for a
    value from the environment, names the variable."""
    def typed(value: str) -> Any:
        try:
            out = convert(value.strip())
        except ValueError:
            out = None
        if out is None or not ok(out):
            where = f" (from ${value.var})" if isinstance(value, EnvValue) else ""
            raise argparse.ArgumentTypeError(f"{value!r}{where}: give {kind}")
        return out
    typed.__name__ = kind  # argparse's own messages name the type
    return typed


def _one_of(choices: tuple[str, ...]) -> Callable[[str], Any]:
    return _checked("one of " + ", ".join(choices), str.lower, lambda v: v in choices)


port = _checked("a port number 0-65535", int, lambda v: 0 <= v < 65536)
count = _checked("a whole number, 0 or more", int, lambda v: v >= 0)
seconds = _checked("a number of seconds, 0 or more", float, lambda v: 0 <= v < 1e9)
nonempty = _checked("a non-empty value", str, bool)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The serve command's flags; each default comes from its environment variable."""
    p.add_argument("--host", type=nonempty, default=_env("HOST", "127.0.0.1"),
                   help="address to listen on (default 127.0.0.1; $REDNOVEMBER_HOST)")
    p.add_argument("--port", type=port, default=_env("PORT", "8000"),
                   help="port (default 8000; $REDNOVEMBER_PORT)")
    add_db_arguments(p)
    p.add_argument("--bot-delay", type=seconds, default=_env("BOT_DELAY", "0.6"),
                   metavar="SECONDS",
                   help="pause before each bot move (default 0.6; $REDNOVEMBER_BOT_DELAY)")
    p.add_argument("--takeover-grace", type=seconds, default=_env("TAKEOVER_GRACE", "30"),
                   metavar="SECONDS",
                   help="how long a player must be gone before others may hand the seat to a "
                        "bot (default 30; $REDNOVEMBER_TAKEOVER_GRACE)")
    p.add_argument("--log-level", type=_one_of(LOG_LEVELS), choices=LOG_LEVELS,
                   default=_env("LOG_LEVEL", "info"),
                   help="log level (default info; $REDNOVEMBER_LOG_LEVEL)")
    p.add_argument("--log-format", type=_one_of(LOG_FORMATS), choices=LOG_FORMATS,
                   default=_env("LOG_FORMAT", "text"),
                   help="log lines as text or one JSON object each ($REDNOVEMBER_LOG_FORMAT)")
    p.add_argument("--access-log", action="store_true", default=_env_flag("ACCESS_LOG"),
                   help="log every HTTP request ($REDNOVEMBER_ACCESS_LOG=1)")
    p.add_argument("--root-path", type=root_path, default=_env("ROOT_PATH", ""), metavar="PATH",
                   help="serve under this sub-path, e.g. /rn, behind a reverse proxy that strips "
                        "it or passes it on (default none; $REDNOVEMBER_ROOT_PATH)")
    p.add_argument("--waiting-expiry", type=seconds,
                   default=_env("WAITING_EXPIRY", str(24 * 3600)), metavar="SECONDS",
                   help="delete tables still waiting for players that nobody touched for this "
                        "long (default 86400: 24 h; $REDNOVEMBER_WAITING_EXPIRY)")
    p.add_argument("--turn-timer-min", type=seconds, default=_env("TURN_TIMER_MIN", "30"),
                   metavar="SECONDS",
                   help="the shortest turn timer a table may ask for (default 30; lower values "
                        "are for tests; $REDNOVEMBER_TURN_TIMER_MIN)")
    p.add_argument("--winchance-rollouts", type=int,
                   default=int(_env("WINCHANCE_ROLLOUTS", str(ANALYSE_ROLLOUTS))), metavar="N",
                   help="rollouts per point of a finished game's win-chance curve, computed once "
                        f"per game (1..200, default {ANALYSE_ROLLOUTS}: `rednovember analyse`'s, "
                        "about 8 s of one core; $REDNOVEMBER_WINCHANCE_ROLLOUTS)")
    add_mail_arguments(p)
    add_limit_arguments(p)


def add_mail_arguments(p: argparse.ArgumentParser) -> None:
    """The email notices of seats that opted in (web/mail.py): off without --smtp; and the
    Web Push ones (web/push.py): off without --push."""
    p.add_argument("--smtp", default=_env("SMTP", "") or None, metavar="URL",
                   help="the mail server for email notices, smtp://[USER:PASSWORD@]HOST:PORT "
                        "(smtps:// for TLS); none: no emails ($REDNOVEMBER_SMTP)")
    p.add_argument("--mail-from", default=_env("MAIL_FROM", "") or None, metavar="ADDRESS",
                   help="the sender of the emails ($REDNOVEMBER_MAIL_FROM)")
    p.add_argument("--public-url", default=_env("PUBLIC_URL", "") or None, metavar="URL",
                   help="the server's address as players reach it, for the links in emails "
                        "($REDNOVEMBER_PUBLIC_URL)")
    p.add_argument("--mail-after", type=seconds, default=_env("MAIL_AFTER", "60"),
                   metavar="SECONDS",
                   help="how long the seat to move must be away before its email and pushes go "
                        "(default 60; $REDNOVEMBER_MAIL_AFTER)")
    p.add_argument("--push", action="store_true", default=_env_flag("PUSH"),
                   help="Web Push notices: a seat's browser is told even when it is closed "
                        "($REDNOVEMBER_PUSH)")
    p.add_argument("--push-service", action="append", default=[], metavar="HOST",
                   help="also send pushes to this push service (its https host and subdomains; "
                        "those of today's browsers are known)")
    p.add_argument("--push-test-host", action="append", default=[], metavar="HOST:PORT",
                   help="also send pushes over plain http to this host (a test's own push "
                        "service; never for real players)")


# (flag, environment variable, default, help) of each per-client limit (web/limits.Limits)
LIMITS = (
    ("games_per_minute", 10, "games one client may create per minute"),
    ("seats_per_minute", 30, "seats one client may take per minute"),
    ("waiting_games_per_client", 20, "games of one client that may wait for players at once"),
    ("messages_per_10s", 60, "WebSocket messages one connection may send per 10 seconds"),
    ("connections_per_game", 64, "spectators' connections one game accepts (a seat's holder "
                                 "always gets in)"),
    ("spectators_per_client", 8, "connections one client may watch one game with"),
    ("max_waiting_games", 1000, "games waiting for players on the whole server"),
    ("winchances_per_hour", 12, "win-chance curves one client may have computed per hour"),
    ("lookups_per_minute", 20, "My-games lookups (POST /api/me) one client may make per minute"),
    ("hints_per_minute", 12, "advisor hints one client may ask for per minute (all its games "
                             "and seats together)"),
    ("addresses_per_hour", 10, "email addresses not yet confirmed that one client may give seats "
                               "per hour (each may cost a confirmation email)"),
    ("client_messages_per_10s", 300, "WebSocket messages all of one client's connections "
                                     "together may send per 10 seconds to one server process"),
    ("bot_table_moves_per_minute", 120, "moves per minute of the bots of one client's games that "
                                       "no person plays (every seat a bot): they wait beyond"),
    ("server_bot_table_moves_per_minute", 300, "moves per minute of the bots of all games that no "
                                               "person plays, on the whole server"),
    ("sockets_per_client", 256, "WebSockets one client may hold open at once on one server "
                                "process (every game, seat holders included)"),
)


def add_limit_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--forwarded-allow-ips", type=nonempty,
                   default=_env("FORWARDED_ALLOW_IPS", "127.0.0.1"), metavar="IPS",
                   help="the reverse proxies whose X-Forwarded-For names the client (comma-"
                        "separated, '*' for any; default 127.0.0.1; "
                        "$REDNOVEMBER_FORWARDED_ALLOW_IPS)")
    p.add_argument("--no-limits", action="store_true", default=_env_flag("NO_LIMITS"),
                   help="no per-client limits (tests, trusted networks; $REDNOVEMBER_NO_LIMITS=1)")
    for name, default, text in LIMITS:
        env = f"LIMIT_{name.upper()}"
        p.add_argument(f"--limit-{name.replace('_', '-')}", dest=f"limit_{name}", type=count,
                       default=_env(env, str(default)), metavar="N",
                       help=f"{text} (default {default}, 0: no limit; $REDNOVEMBER_{env})")


def add_db_arguments(p: argparse.ArgumentParser) -> None:
    """--db and --db-file (``serve``, ``db``, ``backup``, ``restore``)."""
    p.add_argument("--db", default=None,
                   help=f"database URL (SQLAlchemy; default {DEFAULT_DB}; $REDNOVEMBER_DB). "
                        "Prefer --db-file for a URL with a password")
    p.add_argument("--db-file", default=_env("DB_FILE", "") or None, metavar="PATH",
                   help="read the database URL from this file ($REDNOVEMBER_DB_FILE)")


def add_admin_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    db = sub.add_parser("db", help="the database's schema: its revision, upgrade, stamp")
    dsub = db.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    add_db_arguments(dsub.add_parser("current", help="print the schema revision of the database "
                                                     "and of this program"))
    up = dsub.add_parser("upgrade", help="migrate the database to this program's newest "
                                         "revision (serve does it by itself on start)")
    add_db_arguments(up)
    st = dsub.add_parser("stamp", help="record a revision as the database's without migrating "
                                       "(for tables made or repaired by hand)")
    st.add_argument("revision", help="a revision, e.g. 0004, or head")
    add_db_arguments(st)

    bk = sub.add_parser("backup", help="copy every game, seat and chat line to a file "
                                       "(FILE.gz: compressed)")
    bk.add_argument("file", type=Path, metavar="FILE")
    add_db_arguments(bk)
    rs = sub.add_parser("restore", help="load a backup into an empty database")
    rs.add_argument("file", type=Path, metavar="FILE")
    rs.add_argument("--replace", action="store_true",
                    help="delete the games the database holds first")
    add_db_arguments(rs)


def root_path(value: str) -> str:
    """A --root-path value normalised to "" or "/seg[/seg…]" (no trailing slash)."""
    path = value.strip()
    if path and not path.startswith("/"):
        path = "/" + path
    path = path.rstrip("/")
    if not ROOT_PATH_RE.fullmatch(path):
        where = f" (from ${value.var})" if isinstance(value, EnvValue) else ""
        raise argparse.ArgumentTypeError(f"{value!r}{where}: give a path such as /rn (letters, digits, "
                                         "'.', '_', '~', '-' between slashes)")
    if path.split("/")[1:2] and path.split("/")[1] in APP_PREFIXES:
        where = f" (from ${value.var})" if isinstance(value, EnvValue) else ""
        raise argparse.ArgumentTypeError(f"{value!r}{where}: a root path may not start with one of the "
                                         f"game's own paths ({', '.join(APP_PREFIXES)})")
    return path


def database_url(args: argparse.Namespace) -> str:
    """--db, else --db-file's contents, else $REDNOVEMBER_DB, else the default SQLite file."""
    if args.db:
        return str(args.db)
    if args.db_file:
        return Path(args.db_file).read_text(encoding="utf-8").strip()
    return _env("DB", DEFAULT_DB)


__all__ = ["DEFAULT_DB", "LIMITS", "LOG_FORMATS", "LOG_LEVELS", "EnvValue", "add_admin_parsers",
           "add_arguments", "add_db_arguments", "add_limit_arguments", "add_mail_arguments",
           "check_env_flags", "database_url", "root_path"]
