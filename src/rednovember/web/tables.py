"""Table settings (issue 8), as values: open (listed) and unlisted tables, the expiry of waiting
tables nobody touches (done by web/hub/expiry.py), the seat link with its QR code, and the
optional turn timer (run by web/hub/driver.py).

- A table is *listed* (shown in the lobby while it waits for players) or unlisted (reachable only
  by its link, the default).
- A waiting table untouched (no seat taken, no connection, no change) for ``waiting_expiry``
  seconds is deleted, at start and by a periodic task; its link then answers "not found".
- The turn timer gives the seat to move ``turn_timer`` seconds per decision, counted from the
  game's last change (stored, so the clock survives a restart). When it runs out, the server makes
  that one decision with the heuristic bot's choice (the seat stays the player's) and says so in
  the chat. Bot seats are not timed.
- ``away_bot`` (issue 18): an absent player's seat goes to a bot by itself (web/hub/away.py).
- ``pace`` (issue 20): ``real-time`` (everyone at the table at once) or ``turn-based`` (a move
  when it suits you): each decision then has ``move_deadline`` seconds (1 hour to 7 days); when
  it passes, the heuristic bot makes that one decision, and after three in a row the seat goes
  to the bot (web/hub/deadline.py). A turn-based table has no turn timer and no ``away_bot``.
- The seat link carries the seat token in the URL fragment (``/g/{id}#seat=TOKEN``), which
  browsers never send to a server; the endpoint that makes it takes the token as Bearer auth.
"""

from __future__ import annotations

import io
import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Any

import segno

from .protocol import ProtocolError
from .seatcode import by_server, seat_from

DEFAULT_WAITING_EXPIRY = 24 * 3600.0
TURN_TIMER_CHOICES = (30, 60, 120, 300)  # what the create form offers (seconds per decision)
MIN_TURN_TIMER = 30
MAX_TURN_TIMER = 3600
AWAY_BOT_CHOICES = (60, 120, 300, 600)  # what the create form offers (seconds of a decision)
PACES = ("real-time", "turn-based")
MIN_MOVE_DEADLINE = 3600  # a turn-based table's seconds per decision: 1 hour …
MAX_MOVE_DEADLINE = 7 * 86400  # … to 7 days
DEFAULT_MOVE_DEADLINE = 86400
MOVE_DEADLINE_CHOICES = (3600, 12 * 3600, 86400, 3 * 86400, 7 * 86400)  # the create form's
OPEN_TABLE_DEFAULT = 120  # an open table's turn timer and away_bot unless asked otherwise
_H16 = "[0-9A-Fa-f]{1,4}"
_V4 = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}"
_LS32 = f"(?:{_H16}:{_H16}|{_V4})"
# an IPv6 address as RFC 3986 writes it (what a browser's location.origin holds in brackets)
_V6 = "|".join([f"(?:{_H16}:){{6}}{_LS32}", f"::(?:{_H16}:){{5}}{_LS32}",
                f"(?:{_H16})?::(?:{_H16}:){{4}}{_LS32}",
                f"(?:(?:{_H16}:){{0,1}}{_H16})?::(?:{_H16}:){{3}}{_LS32}",
                f"(?:(?:{_H16}:){{0,2}}{_H16})?::(?:{_H16}:){{2}}{_LS32}",
                f"(?:(?:{_H16}:){{0,3}}{_H16})?::{_H16}:{_LS32}",
                f"(?:(?:{_H16}:){{0,4}}{_H16})?::{_LS32}",
                f"(?:(?:{_H16}:){{0,5}}{_H16})?::{_H16}", f"(?:(?:{_H16}:){{0,6}}{_H16})?::"])
# a page's origin: a host name or IPv4 address, or an IPv6 address in brackets, and a port
ORIGIN_RE = re.compile(rf"^https?://(?:[A-Za-z0-9.\-]{{1,200}}|\[(?:{_V6})\])(?::[0-9]{{1,5}})?$")


@dataclass(frozen=True)
class TableSettings:
    listed: bool = False
    turn_timer: int | None = None  # seconds per decision; None: no clock
    hints: bool = True  # the advisor (web/hub/hints.py): players may ask for hints
    hints_used: tuple[int, ...] = ()  # the seats that asked for one, in order of first use
    away_bot: int | None = None  # seconds an absent player's decision waits for a bot; None: never
    pace: str = "real-time"  # or "turn-based" (issue 20)
    move_deadline: int | None = None  # a turn-based table's seconds per decision

    @property
    def turn_based(self) -> bool:
        return self.pace == "turn-based" and self.move_deadline is not None

    def to_dict(self) -> dict[str, Any]:
        return {"listed": self.listed, **self.stored()}

    def stored(self) -> dict[str, Any]:
        """What the settings table keeps as JSON (``listed`` has its own column)."""
        return {"turn_timer": self.turn_timer, "hints": self.hints,
                "hints_used": list(self.hints_used), "away_bot": self.away_bot,
                "pace": self.pace, "move_deadline": self.move_deadline}

    def for_rematch(self) -> TableSettings:
        """The same settings for the next game, which nobody has asked a hint for yet."""
        return replace(self, hints_used=())

    @classmethod
    def from_stored(cls, listed: bool, settings: dict[str, Any]) -> TableSettings:
        used = settings.get("hints_used")
        seats = tuple(s for s in used if isinstance(s, int)) if isinstance(used, list) else ()
        deadline = _seconds(settings.get("move_deadline"))
        pace = "turn-based" if settings.get("pace") == "turn-based" and deadline else "real-time"
        return cls(bool(listed), _seconds(settings.get("turn_timer")),
                   settings.get("hints") is not False, seats, _seconds(settings.get("away_bot")),
                   pace, deadline if pace == "turn-based" else None)


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


def printable(c: str) -> bool:
    """A character a name may hold: ``str.isprintable`` in the Basic Multilingual Plane; beyond
    it (emoji, historic scripts) anything but a format character (the tags block, …), so that
    the API's schema (web/bodies.py), which can only spell out the first plane, says it all
    but those few."""
    if c.isprintable():
        return True
    return ord(c) > 0xFFFF and unicodedata.category(c) != "Cf"


# printable letters and symbols that show nothing: the Hangul fillers and the blank braille cell
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def blank(c: str) -> bool:
    """A character that shows nothing by itself: one of :data:`BLANKS`, or a combining mark of
    the Basic Multilingual Plane (it only marks the character before it)."""
    return c in BLANKS or (ord(c) <= 0xFFFF and unicodedata.category(c).startswith("M"))


def player_name(raw: str) -> str:
    """A player's name as stored, its runs of white space made one space: the one check of
    every path that names a seat's player (taking a seat, taking it back; HTTP and WebSocket).
    No control or direction-changing characters (:func:`printable`), and at least one that
    shows (not white space nor :func:`blank`: a name nobody can see names nobody), or
    ``bad_message``."""
    name = " ".join(raw.split())
    if not name or not all(map(printable, name)) or all(blank(c) or c.isspace() for c in name):
        raise ProtocolError("bad_message", "name: give a printable name")
    return name


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


def chat_message(row: dict[str, Any]) -> dict[str, Any]:
    """A stored chat row as the client sees it: a server's note gets ``system`` (its kind, or
    ``timeout``) and ``for_seat``."""
    if by_server(row["seat"]):  # a server's note (a timeout note has no kind)
        return {**row, "seat": -1, "system": row.get("kind") or "timeout",
                "for_seat": seat_from(row["seat"])}
    return row


__all__ = ["AWAY_BOT_CHOICES", "BLANKS", "DEFAULT_MOVE_DEADLINE", "DEFAULT_WAITING_EXPIRY",
           "MAX_MOVE_DEADLINE", "MIN_MOVE_DEADLINE", "MIN_TURN_TIMER", "MOVE_DEADLINE_CHOICES",
           "OPEN_TABLE_DEFAULT", "PACES", "TURN_TIMER_CHOICES", "TableSettings", "blank", "chat_message",
           "check_turn_timer", "origin_of", "player_name", "seat_link"]
