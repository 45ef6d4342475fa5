"""``rednovember serve``: run the web server on uvicorn (flags and environment: web/options.py).
A database URL is never printed with its password."""

from __future__ import annotations

import argparse
import logging
import sys

import uvicorn
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from ..rules import GameData
from . import logs
from .app import create_app
from .options import database_url
from .protocol import MAX_FRAME_BYTES
from .single import DatabaseInUse, claim

log = logging.getLogger("rednovember.web")


def safe_url(url: str) -> str:
    """The URL as it may be shown: its password masked."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "(an unreadable database URL)"


def run_serve(args: argparse.Namespace, data: GameData) -> int:
    logs.configure(args.log_level, args.log_format, args.access_log)
    try:
        url = database_url(args)
    except OSError as exc:
        print(f"error: cannot read the database URL from {args.db_file}: {exc.strerror}",
              file=sys.stderr)
        return 2
    try:
        lock = claim(url)  # held until the process ends
    except DatabaseInUse as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    app = create_app(url, data=data, bot_delay=max(0.0, args.bot_delay),
                     takeover_grace=max(0.0, args.takeover_grace))
    log.info("Red November: http://%s:%s/  (database %s)", args.host, args.port, safe_url(url))
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=MAX_FRAME_BYTES,
                log_config=None, access_log=args.access_log, workers=1)
    if lock is not None:
        lock.close()
    return 0


__all__ = ["run_serve", "safe_url"]
