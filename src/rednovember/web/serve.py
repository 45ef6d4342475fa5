"""``rednovember serve``: run the web server on uvicorn (flags and environment: web/options.py).
A database URL is never printed with its password."""

from __future__ import annotations

import argparse
import gc
import logging
import signal
import sys
from types import FrameType

import uvicorn
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

from ..rules import GameData
from . import logs, schema
from .app import create_app
from .limits import Limits
from .mail import Mailer, MailError
from .options import LIMITS, check_env_flags, database_url
from .protocol import MAX_FRAME_BYTES
from .push import PUSH_SERVICES, Pusher
from .single import DatabaseInUse, claim
from .winchance import MAX_WEB_ROLLOUTS

log = logging.getLogger("rednovember.web")


SWITCH_INTERVAL = 0.0002  # seconds (sys.setswitchinterval)


GC_THRESHOLDS = (50_000, 20, 100)  # gc.set_threshold: young, middle, old (default 700, 10, 10)


def tune_gc() -> None:
    """Fewer, cheaper full garbage collections (each a pause of the whole server).

    Two thousand WebSockets hold about half a million objects; a full collection walks them all
    (0.1-0.3 s here). The objects of the program itself never become garbage, so they are frozen
    out of the collector's walk; and a young generation of 50,000 lets the many short-lived
    objects of each action (its state messages, database rows) die young instead of being
    promoted, which is what made full collections due every half-minute under load.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def exit_on_sigterm() -> None:
    """Make SIGTERM end the process as a normal exit.

    uvicorn stops gracefully on SIGTERM, then raises the signal again with the handler it found.
    Python's default handler kills the process there, before ``atexit``: multiprocessing's
    finalizers never run, and the win-chance worker's queues leak their semaphores ("leaked
    semaphore objects" at exit). With this handler the signal becomes ``SystemExit(0)``.
    """
    def stop(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)


def safe_url(url: str) -> str:
    """The URL as it may be shown: its password masked."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "(an unreadable database URL)"


def database_problem(url: str) -> str | None:
    """What makes ``url`` unusable before connecting (None: nothing): unreadable, or a database
    whose driver is not installed."""
    try:
        u = make_url(url)
        u.get_dialect()
    except ArgumentError:
        return f"{safe_url(url)} is not a database URL (e.g. sqlite:///games.db)"
    except (NoSuchModuleError, ModuleNotFoundError, ImportError) as exc:
        extra = " (pip install 'rednovember[postgres]')" if url.startswith("postgres") else ""
        return f"no driver for {safe_url(url)}: {exc}{extra}"
    return None


def prepare_database(url: str) -> str | None:
    """Migrate the database before serving (web/schema.py, under its lock on PostgreSQL); an
    error as one line, None when it is ready."""
    problem = database_problem(url)
    if problem:
        return problem
    try:
        engine = create_engine(url)
    except (ArgumentError, TypeError) as exc:
        return f"database {safe_url(url)}: {exc}"
    try:
        schema.upgrade(engine)
    except schema.SchemaTooNew as exc:
        return str(exc)
    except SQLAlchemyError as exc:
        first = (str(getattr(exc, "orig", None) or exc).strip().splitlines() or ["?"])[0]
        return f"database {safe_url(url)}: {first}"
    finally:
        engine.dispose()
    return None


def limits_of(args: argparse.Namespace) -> Limits:
    if args.no_limits:
        return Limits.none()
    return Limits(**{name: max(0, getattr(args, f"limit_{name}")) for name, _, _ in LIMITS})


def usable_database(args: argparse.Namespace) -> str | int:
    """The database URL the flags name, or the exit status after saying in one line why it
    cannot be used (its file unreadable: 2; a database the server cannot use: 1)."""
    try:
        url = database_url(args)
    except OSError as exc:
        print(f"error: cannot read the database URL from {args.db_file}: {exc.strerror}",
              file=sys.stderr)
        return 2
    problem = database_problem(url)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    return url


def mailer_of(args: argparse.Namespace) -> Mailer | None | str:
    """The mail server of --smtp (None: no emails), or what is wrong with the mail flags."""
    if not args.smtp:
        return None
    if not args.mail_from or not args.public_url:
        return "--smtp needs --mail-from ADDRESS and --public-url URL (the links in the emails)"
    try:
        return Mailer.from_url(args.smtp, args.mail_from, args.public_url)
    except MailError as exc:
        return str(exc)


def pusher_of(args: argparse.Namespace) -> Pusher | None:
    """How Web Push notices are sent (--push; None: not at all)."""
    if not args.push:
        return None
    return Pusher(Pusher.contact_of(args.public_url, args.mail_from),
                  frozenset(PUSH_SERVICES) | {h.lower() for h in args.push_service},
                  frozenset(args.push_test_host))


def run_serve(args: argparse.Namespace, data: GameData) -> int:
    try:
        check_env_flags()
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    logs.configure(args.log_level, args.log_format, args.access_log)
    url = usable_database(args)
    if isinstance(url, int):
        return url
    try:
        lock = claim(url)  # held until the process ends
    except DatabaseInUse as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    mailer = mailer_of(args)
    if isinstance(mailer, str):
        print(f"error: {mailer}", file=sys.stderr)
        return 2
    problem = prepare_database(url)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    app = create_app(url, data=data, bot_delay=max(0.0, args.bot_delay),
                     takeover_grace=max(0.0, args.takeover_grace), limits=limits_of(args),
                     waiting_expiry=max(1.0, args.waiting_expiry),
                     min_turn_timer=max(1.0, args.turn_timer_min), root_path=args.root_path,
                     winchance_rollouts=min(MAX_WEB_ROLLOUTS, max(1, args.winchance_rollouts)),
                     mailer=mailer, mail_after=max(0.0, args.mail_after),
                     pusher=pusher_of(args))
    # The database threads wait for the GIL after each round trip to the database: a shorter
    # switch interval (default 5 ms) gives it back to them sooner while the loop is busy.
    sys.setswitchinterval(SWITCH_INTERVAL)
    tune_gc()
    log.info("Red November: http://%s:%s%s/  (database %s)", args.host, args.port,
             args.root_path, safe_url(url))
    exit_on_sigterm()
    try:
        uvicorn.run(app, host=args.host, port=args.port, ws_max_size=MAX_FRAME_BYTES,
                    log_config=None, access_log=logs.access_wanted(args.log_level, args.access_log),
                    workers=1,
                    proxy_headers=True, forwarded_allow_ips=args.forwarded_allow_ips)
    finally:
        if lock is not None:
            lock.close()
    return 0


__all__ = ["database_problem", "limits_of", "prepare_database", "run_serve", "safe_url",
           "usable_database"]
