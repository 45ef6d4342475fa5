"""Table settings (issue 8): open (listed) and unlisted tables, the expiry of waiting tables nobody
touches, the seat link with its QR code, and the optional turn timer.

- A table is *listed* (shown in the lobby while it waits for players) or unlisted (reachable only
  by its link, the default).
- A waiting table untouched (no seat taken, no connection, no change) for ``waiting_expiry``
  seconds is deleted, at start and by a periodic task; its link then answers "not found".
- The turn timer gives the seat to move ``turn_timer`` seconds per decision, counted from the
  game's last change (stored, so the clock survives a restart). When it runs out, the server makes
  that one decision with the heuristic bot's choice (the seat stays the player's) and says so in
  the chat. Bot seats are not timed.
- ``away_bot`` (issue 18): an absent player's seat goes to a bot by itself (web/away.py).
- The seat link carries the seat token in the URL fragment (``/g/{id}#seat=TOKEN``), which
  browsers never send to a server; the endpoint that makes it takes the token as Bearer auth.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import segno

from ..bots import make_bot
from .protocol import ProtocolError

if TYPE_CHECKING:
    from .hub import Hub, LiveGame

log = logging.getLogger("rednovember.web")

DEFAULT_WAITING_EXPIRY = 24 * 3600.0
TURN_TIMER_CHOICES = (30, 60, 120, 300)  # what the create form offers (seconds per decision)
MIN_TURN_TIMER = 30
MAX_TURN_TIMER = 3600
AWAY_BOT_CHOICES = (60, 120, 300, 600)  # what the create form offers (seconds of a decision)
OPEN_TABLE_DEFAULT = 120  # an open table's turn timer and away_bot unless asked otherwise
TIMEOUT_BOT = "heuristic"
ORIGIN_RE = re.compile(r"^https?://[A-Za-z0-9.\-\[\]:]{1,200}$")


@dataclass(frozen=True)
class TableSettings:
    listed: bool = False
    turn_timer: int | None = None  # seconds per decision; None: no clock
    hints: bool = True  # the advisor (web/hints.py): players may ask for hints
    hints_used: tuple[int, ...] = ()  # the seats that asked for one, in order of first use
    away_bot: int | None = None  # seconds an absent player's decision waits for a bot; None: never

    def to_dict(self) -> dict[str, Any]:
        return {"listed": self.listed, **self.stored()}

    def stored(self) -> dict[str, Any]:
        """What the settings table keeps as JSON (``listed`` has its own column)."""
        return {"turn_timer": self.turn_timer, "hints": self.hints,
                "hints_used": list(self.hints_used), "away_bot": self.away_bot}

    def for_rematch(self) -> TableSettings:
        """The same settings for the next game, which nobody has asked a hint for yet."""
        return replace(self, hints_used=())

    @classmethod
    def from_stored(cls, listed: bool, settings: dict[str, Any]) -> TableSettings:
        used = settings.get("hints_used")
        seats = tuple(s for s in used if isinstance(s, int)) if isinstance(used, list) else ()
        return cls(bool(listed), _seconds(settings.get("turn_timer")),
                   settings.get("hints") is not False, seats, _seconds(settings.get("away_bot")))


def _seconds(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def check_turn_timer(seconds: int | None, minimum: float, field: str = "turn_timer") -> int | None:
    """The turn timer (or ``away_bot``) a create request asks for (0 or None: off), or a
    ``bad_config`` error."""
    if not seconds:
        return None
    if not minimum <= seconds <= MAX_TURN_TIMER:
        raise ProtocolError("bad_config", f"{field}: off (0) or {minimum:g}..{MAX_TURN_TIMER} "
                                          "seconds")
    return seconds


def seat_link(game_id: str, seat: int, token: str, origin: str) -> dict[str, Any]:
    """The seat's link (the token in the fragment) and its QR code as an SVG document."""
    path = f"/g/{game_id}#seat={token}"
    url = origin.rstrip("/") + path
    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="svg", xmldecl=False, scale=4, border=3,
                                    dark="#111", light="#fff")
    return {"seat": seat, "link": path, "url": url, "qr_svg": buf.getvalue().decode("utf-8")}


def origin_of(asked: str | None, base_url: str) -> str:
    """The origin the QR code's link points at: the page's (checked), else the request's."""
    if asked is not None:
        if not ORIGIN_RE.match(asked):
            raise ProtocolError("bad_message", "origin: give the page's origin, e.g. "
                                               "https://example.org")
        return asked
    return base_url.rstrip("/")


# The server's notes (a timeout, an absent player: web/away.py) are stored as chat rows of seat
# -1 - SEAT (no player writes as a negative seat); a timeout note has no kind.
def timeout_row_seat(seat: int) -> int:
    return -1 - seat


def chat_message(row: dict[str, Any]) -> dict[str, Any]:
    """A stored chat row as the client sees it: a server's note gets ``system`` (its kind, or
    ``timeout``) and ``for_seat``."""
    if row["seat"] < 0:
        return {**row, "seat": -1, "system": row.get("kind") or "timeout",
                "for_seat": -1 - row["seat"]}
    return row


class Tables:
    """The hub's table keeper: expiry of waiting tables and the turn timers of live games."""

    def __init__(self, hub: Hub, waiting_expiry: float = DEFAULT_WAITING_EXPIRY,
                 min_turn_timer: float = MIN_TURN_TIMER) -> None:
        self.hub = hub
        self.waiting_expiry = waiting_expiry
        self.min_turn_timer = min_turn_timer
        self.timers: dict[str, asyncio.Task[None]] = {}
        self.sweeper: asyncio.Task[None] | None = None

    # --- life cycle -------------------------------------------------------------------------------
    async def start(self) -> None:
        """Deletes the expired waiting tables, then expires the others as they age."""
        await self.expire()
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def stop(self) -> None:
        tasks = [*self.timers.values(), *([self.sweeper] if self.sweeper else [])]
        self.timers.clear()
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t

    async def _sweep(self) -> None:
        interval = max(0.5, min(60.0, self.waiting_expiry / 4))
        while True:
            await asyncio.sleep(interval)
            try:
                await self.expire()
            except Exception:  # a database hiccup: try again next time
                log.exception("expiring waiting tables failed")

    # --- expiry -----------------------------------------------------------------------------------
    async def expire(self) -> list[str]:
        """Deletes the waiting tables untouched for ``waiting_expiry`` seconds; returns their ids.
        A table somebody is connected to counts as touched."""
        cutoff = time.time() - self.waiting_expiry
        gone = []
        store, db = self.hub.store, self.hub.db
        for gid in await db(store.stale_waiting_ids, cutoff):
            lg = self.hub.games.get(gid)
            if lg is not None and lg.conns:
                await db(store.touch, gid)
                continue
            if await db(store.delete_if_stale, gid, cutoff):
                self.hub.games.pop(gid, None)
                gone.append(gid)
        if gone:
            log.info("expired %d waiting table(s)", len(gone))
        return gone

    async def touch(self, lg: LiveGame) -> None:
        """A connection came or went: a waiting table counts as touched."""
        if lg.status == "waiting":
            await self.hub.db(self.hub.store.touch, lg.id)

    # --- the turn timer ---------------------------------------------------------------------------
    @staticmethod
    def mark(lg: LiveGame) -> None:
        """A new version is a change: the clock of the decision in play starts now. (Called
        before the change is broadcast as well as when it is scheduled.)"""
        if lg.version != lg.clock_version:
            lg.clock_version = lg.version
            lg.changed_at = time.time()

    def deadline(self, lg: LiveGame) -> float | None:
        """When the seat to move runs out of time (time.time() seconds), or None: no clock."""
        self.mark(lg)
        timer = lg.settings.turn_timer
        if not timer or lg.status != "playing":
            return None
        seat = lg.game.player_to_move
        if seat < 0 or lg.seats[seat].kind != "human":
            return None
        return lg.changed_at + timer

    def clock(self, lg: LiveGame) -> dict[str, Any] | None:
        """The clock of the decision in play, as sent in ``state`` and the summary."""
        end = self.deadline(lg)
        if end is None:
            return None
        return {"seat": lg.game.player_to_move, "seconds": lg.settings.turn_timer,
                "remaining": round(max(0.0, end - time.time()), 2)}

    def schedule(self, lg: LiveGame) -> None:
        """After a change (or a load): restart the game's clock for the decision now in play."""
        self.mark(lg)
        old = self.timers.pop(lg.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        end = self.deadline(lg)
        if end is None or self.hub.closing:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.timers[lg.id] = loop.create_task(self._run_out(lg, lg.version, end))

    async def _run_out(self, lg: LiveGame, version: int, end: float) -> None:
        await asyncio.sleep(max(0.0, end - time.time()))
        seat = lg.game.player_to_move
        if lg.version != version or self.deadline(lg) is None:
            return
        if self.hub.away.takes_over(lg):  # out of time and gone: a bot takes the seat instead
            await self.hub.away.hand_over(lg, seat)
            return
        seed = (lg.config.seed * 1_000_003 + seat * 7919 + len(lg.game.history)) & (2**62 - 1)
        bot = make_bot(TIMEOUT_BOT, seed)
        try:
            action = await asyncio.to_thread(bot.choose, lg.game.copy())
        except Exception:
            log.exception("the timeout bot failed in game %s; playing the first legal action", lg.id)
            action = lg.game.legal_actions()[0]
        if lg.version != version or self.hub.closing:
            return  # the player decided meanwhile
        if self.timers.get(lg.id) is asyncio.current_task():
            del self.timers[lg.id]
        try:
            if lg.version == version:
                await self.hub.note_timeout(lg, seat)
                await self.hub.apply_for(lg, seat, action, version)
        except ProtocolError as exc:
            log.error("timeout move %s refused in game %s: %s", action, lg.id, exc.message)



__all__ = ["AWAY_BOT_CHOICES", "DEFAULT_WAITING_EXPIRY", "MIN_TURN_TIMER", "OPEN_TABLE_DEFAULT",
           "TURN_TIMER_CHOICES", "TableSettings", "Tables", "chat_message", "check_turn_timer",
           "origin_of", "seat_link", "timeout_row_seat"]
