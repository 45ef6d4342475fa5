"""``rednovember serve``: run the web server on uvicorn."""

from __future__ import annotations

import argparse
import sys

from ..rules import GameData
from .protocol import MAX_FRAME_BYTES


def run_serve(args: argparse.Namespace, data: GameData) -> int:
    try:
        import uvicorn
    except ImportError:  # pragma: no cover - the web extra is a dependency
        print("error: the web server needs uvicorn and fastapi (pip install rednovember)",
              file=sys.stderr)
        return 2
    from .app import create_app

    app = create_app(args.db, data=data, bot_delay=max(0.0, args.bot_delay),
                     takeover_grace=max(0.0, args.takeover_grace),
                     waiting_expiry=max(1.0, args.waiting_expiry),
                     min_turn_timer=max(1.0, args.turn_timer_min))
    print(f"Red November: http://{args.host}:{args.port}/  (database {args.db})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=MAX_FRAME_BYTES,
                log_level="warning", access_log=False, workers=1)
    return 0


__all__ = ["run_serve"]
