"""Table talk: the chat lines of a live game (messages, pings, undo notes, the server's notes),
stored and sent to every connection; other processes' lines arrive as notices."""

from __future__ import annotations

import logging
import time
from typing import Any

from ...i18n import catalog
from ..chat import HISTORY, clean, message, ping_target, ping_text
from ..protocol import ProtocolError
from ..seatcode import server_for
from ..tables import chat_message
from .live import Connection, LiveGame
from .runtime import Runtime
from .views import presence, push

log = logging.getLogger("rednovember.web")


def note_suffix(kind: str, detail: dict[str, Any]) -> str:
    """How a server's note about a seat is worded (the page's away.js words it alike): a seat
    given to a bot after its deadlines passed (``missed``), or because its player was away
    (``auto``), or by a player."""
    if kind == "to_bot" and detail.get("missed"):
        return "_deadlines"
    return "_auto" if detail.get("auto") else ""


def one_stop(text: str) -> str:
    """A sentence that ends in a name ending in a stop ("… is now called Ada L.") keeps one stop
    (away.js's ``oneStop`` alike)."""
    return text[:-1] if len(text) > 1 and text[-1] == "." and text[-2] in ".!?…" else text


class Talk:
    """The chat of every live game of this process."""

    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    async def history(self, lg: LiveGame) -> list[dict[str, Any]]:
        if lg.chat is None:
            rows = await self.rt.db(self.rt.store.load_chat, lg.id, HISTORY)
            if lg.chat is None:
                lg.chat = [chat_message(m) for m in rows]
        return lg.chat

    async def chat(self, lg: LiveGame, c: Connection, seat: int, text: str) -> None:
        """A seated player's message to the table (spectators read only), stored and pushed. A
        player whose seat a bot plays (one they may take back) still talks, under their name."""
        owned = seat in lg.owned_seats(c)
        if not owned:
            seat = lg.held_seat(c, seat)
        body = clean(text)
        lg.seat_limit("chat", seat, c.chat_limit.burst, c.chat_limit.window).check()
        c.chat_limit.check()
        name = lg.owners.get(seat) if owned else lg.seats[seat].name
        await self._add_line(lg, seat, name, body, None, None)

    async def ping(self, lg: LiveGame, c: Connection, seat: int, target: tuple[str, int | str],
                   what: str) -> None:
        """A seated player marks a room, hatch, time-track space or token for everyone: every
        connection gets a ``ping`` (the board marker, for live viewers only) and the chat line,
        which is stored like a message."""
        seat = lg.held_seat(c, seat)
        kind, ident = target
        ping_target(self.rt.data, kind, ident)
        lg.seat_limit("ping", seat, c.ping_limit.burst, c.ping_limit.window).check()
        c.ping_limit.check()
        detail = {"target": {"kind": kind, "id": ident}, "what": what}
        await self.post(lg, seat, ping_text(lg.game, kind, ident, what), "ping", detail,
                        {"type": "ping", "game": lg.id, "seat": seat, "name": lg.seats[seat].name,
                         "target": detail["target"], "what": what})

    async def post(self, lg: LiveGame, seat: int, text: str, kind: str | None,
                   detail: dict[str, Any] | None,
                   before: dict[str, Any] | None = None) -> dict[str, Any]:
        """Stores a seat's chat line and sends it to every connection (after ``before``)."""
        return await self._add_line(lg, seat, lg.seats[seat].name, text, kind, detail, before)

    async def note_timeout(self, lg: LiveGame, seat: int) -> None:
        """Tells the table (a chat note, stored) that the server decides for a seat out of time:
        with the seat's name now, so the note still names its player once a bot has the seat."""
        await self._add_line(lg, server_for(seat), lg.seats[seat].name or None,
                             f"Time ran out: the server decides for seat {seat}.", None, None)

    async def note(self, lg: LiveGame, seat: int, kind: str, detail: dict[str, Any]) -> None:
        """A server's note about a seat in the chat (issue 18: ``away``, ``to_bot``, ``back``),
        stored like the turn timer's, with its English sentence for pages that do not know the
        kind. A failure loses the note only."""
        cat = catalog("en")
        key = f"away_chat_{kind}" + note_suffix(kind, detail)
        words = {"colour": cat.raw("colours", detail["colour"])}
        if "bot" in detail:
            words["bot"] = cat.raw("bot_levels", str(detail["bot"]))
        text = one_stop(cat.get("web", key, **{**detail, **words}))
        try:
            await self._add_line(lg, server_for(seat), None, text, kind, detail)
        except ProtocolError:
            log.exception("storing a %s note of game %s failed", kind, lg.id)

    async def _add_line(self, lg: LiveGame, row_seat: int, name: str | None, text: str,
                        kind: str | None, detail: dict[str, Any] | None,
                        before: dict[str, Any] | None = None) -> dict[str, Any]:
        await self.history(lg)
        now = time.time()
        line = [row_seat, name, text, now, kind, detail]
        notice = {"line": line, "live": before} if self.rt.nodes.shared else None
        try:
            idx = await self.rt.db(self.rt.store.add_chat, lg.id, row_seat, name, text, now, kind,
                                   detail, notice)
        except Exception:
            log.exception("storing a chat line of game %s failed", lg.id)
            raise ProtocolError("internal", "the message could not be stored") from None
        return self._line(lg, idx, line, before)

    def heard_line(self, lg: LiveGame, notice: dict[str, Any]) -> None:
        """Another process stored a chat line of this game."""
        line, live = notice.get("line"), notice.get("live")
        if isinstance(line, list) and len(line) == 6:
            self._line(lg, notice["chat"], line, live if isinstance(live, dict) else None)

    def _line(self, lg: LiveGame, idx: int, line: list[Any],
              before: dict[str, Any] | None) -> dict[str, Any]:
        """Keeps a stored chat line in the game's history and sends it to every connection."""
        row_seat, name, text, at, kind, detail = line
        msg = chat_message(message(idx, row_seat, name, text, at, kind, detail))
        owner_known = True
        if kind == "to_bot" and msg.get("player"):
            seat, player = int(msg["for_seat"]), str(msg["player"])
            owner_known = lg.owners.get(seat) == player
            lg.owners[seat] = player
        if lg.chat is not None:
            lg.chat.append(msg)
            if len(lg.chat) > 1 and lg.chat[-2]["idx"] > idx:  # two lines crossed on the way
                lg.chat.sort(key=lambda m: int(m["idx"]))
            del lg.chat[:-HISTORY]
        sent = [{**before, "idx": idx, "at": at}] if before else []
        sent.append({"type": "chat", "game": lg.id, "message": msg})
        push(lg, sent)
        if not owner_known:  # (another process's hand-over: the seats name the owner now)
            presence(lg)
        return msg


__all__ = ["Talk"]
