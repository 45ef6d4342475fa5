"""An absent player (issue 18): the seat to move whose player has no connection open on any server
process. The table must not stall on it:

- Everyone sees it at once: the summary, every ``state`` and every ``seats`` message carry
  ``away`` (:meth:`Away.info`): the seat, its player's name, the seconds until anyone seated (or the
  creator) may give the seat to a bot (the takeover grace since the player left: ``handover_in``)
  and, under the table setting ``away_bot``, until the server does so by itself (``bot_in``). Both
  count from when the message was made, so a page counts down from the server's clocks.
- ``away_bot`` (seconds, web/tables.py): once the seat's decision has waited that long (counted
  from the game's last change, which is stored: it survives a restart) and its player has been
  gone for the grace, the game's owner process (web/cluster.py) gives the seat to
  :data:`AWAY_BOT`. So does the seat's turn timer when it runs out while the player is gone past
  the grace (instead of deciding once for them). The player takes the seat back with one click
  (``reclaim``), as after any handover.
- The chat says what happened (server notes, stored like the turn timer's; ``system`` is the
  kind): ``away`` once the seat to move has been gone :data:`NOTE_AFTER` seconds (once per
  absence: a page reload is none), ``to_bot`` when a player's seat went to a bot (``auto``: the
  server gave it), ``back`` when the player took it back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from typing import TYPE_CHECKING, Any

from ..i18n import catalog
from .protocol import ProtocolError

if TYPE_CHECKING:
    from .hub import Hub
    from .live import LiveGame

log = logging.getLogger("rednovember.web")

AWAY_BOT = "heuristic"  # the bot the server gives an absent player's seat to
NOTE_AFTER = 5.0  # seconds the seat to move is gone before the chat says so


def _up(seconds: float) -> float:
    """Seconds left, rounded up to a tenth (a page never counts down before the server does)."""
    return max(0.0, math.ceil(seconds * 10) / 10)


class Away:
    """The hub's watch on absent players (one watcher task per game, on the game's owner)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.noted: dict[str, set[int]] = {}  # game -> seats whose absence the chat has told

    async def stop(self) -> None:
        tasks = list(self.tasks.values())
        self.tasks.clear()
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t

    # --- what everyone sees ---------------------------------------------------------------------
    @staticmethod
    def absent(lg: LiveGame) -> int | None:
        """The seat to move if its player is gone (no connection on any process), else None."""
        if lg.status != "playing":
            return None
        seat = lg.game.player_to_move
        if seat < 0 or lg.seats[seat].kind != "human" or lg.connected(seat):
            return None
        return seat

    @staticmethod
    def gone_for(lg: LiveGame, seat: int) -> float:
        """Seconds since the seat's player left (as Hub.hand_to_bot counts them)."""
        return time.monotonic() - lg.gone_since.get(seat, 0.0)

    def bot_at(self, lg: LiveGame, seat: int) -> float | None:
        """When (time.time()) the server gives the absent seat to a bot, or None: it never does."""
        wait = lg.settings.away_bot
        if not wait:
            return None
        self.hub.tables.mark(lg)
        left = time.time() - self.gone_for(lg, seat)
        return max(lg.changed_at + wait, left + self.hub.takeover_grace)

    def info(self, lg: LiveGame) -> dict[str, Any] | None:
        """``away`` as sent in the summary, ``state`` and ``seats`` (null: nobody to wait for)."""
        seat = self.absent(lg)
        if seat is None:
            return None
        bot_at = self.bot_at(lg, seat)
        return {"seat": seat, "name": lg.seats[seat].name,
                "handover_in": _up(self.hub.takeover_grace - self.gone_for(lg, seat)),
                "bot_in": None if bot_at is None else _up(bot_at - time.time())}

    def takes_over(self, lg: LiveGame) -> bool:
        """Whether a bot takes the seat to move now that its turn timer ran out: the table gives
        absent players' seats to bots and this player has been gone for the grace."""
        seat = self.absent(lg)
        return (seat is not None and bool(lg.settings.away_bot)
                and self.gone_for(lg, seat) >= self.hub.takeover_grace)

    # --- the watch (the game's owner) -----------------------------------------------------------
    def schedule(self, lg: LiveGame) -> None:
        """After a change of the game or of who is connected: watch the seat to move if its player
        is gone (on the game's owner only)."""
        if not self.hub.nodes.owns(lg.id):
            return
        noted = self.noted.get(lg.id)
        if noted:  # a player who came back (or whose seat changed hands) starts a new absence
            noted -= {s for s in noted if lg.seats[s].kind != "human" or lg.connected(s)}
        if lg.status == "over":
            self.noted.pop(lg.id, None)
        old = self.tasks.pop(lg.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        seat = self.absent(lg)
        if seat is None or self.hub.closing:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.tasks[lg.id] = loop.create_task(self._watch(lg, seat))

    async def _watch(self, lg: LiveGame, seat: int) -> None:
        noted = self.noted.setdefault(lg.id, set())
        bot_at = self.bot_at(lg, seat)
        note_in = max(0.0, NOTE_AFTER - self.gone_for(lg, seat))
        if seat not in noted and (bot_at is None or time.time() + note_in < bot_at):
            await asyncio.sleep(note_in)
            if self.absent(lg) != seat:
                return
            noted.add(seat)
            player, colour = lg.seats[seat].name or "", lg.seats[seat].colours[0]
            await asyncio.shield(self.say(lg, seat, "away", {"player": player, "colour": colour}))
        if bot_at is None:  # (else the bot's note says it all)
            return
        await asyncio.sleep(max(0.0, bot_at - time.time()))
        if self.absent(lg) == seat:
            await asyncio.shield(self.hand_over(lg, seat))

    async def hand_over(self, lg: LiveGame, seat: int) -> None:
        """The server gives an absent player's seat to :data:`AWAY_BOT` (they may take it back)."""
        try:
            await self.hub.hand_to_bot(lg, seat, AWAY_BOT, set(), True, auto=True)
        except ProtocolError as exc:  # the player came back meanwhile, or the game ended
            log.info("game %s: seat %d stays with its player (%s)", lg.id, seat, exc.message)

    # --- the chat -------------------------------------------------------------------------------
    async def to_bot(self, lg: LiveGame, seat: int, player: str | None, bot: str,
                     auto: bool) -> None:
        """Tells the table that a player's seat went to a bot."""
        detail = {"player": player or "", "colour": lg.seats[seat].colours[0], "bot": bot,
                  "auto": auto}
        await self.say(lg, seat, "to_bot", detail)

    async def back(self, lg: LiveGame, seat: int) -> None:
        """Tells the table that a player took their seat back from a bot."""
        s = lg.seats[seat]
        await self.say(lg, seat, "back", {"player": s.name or "", "colour": s.colours[0]})

    async def say(self, lg: LiveGame, seat: int, kind: str, detail: dict[str, Any]) -> None:
        """A server note in the chat (stored); its English sentence for pages that do not know
        the kind. A failure loses the note only."""
        cat = catalog("en")
        key = f"away_chat_{kind}" + ("_auto" if detail.get("auto") else "")
        text = cat.get("web", key, **{**detail, "colour": cat.raw("colours", detail["colour"])})
        try:
            await self.hub.note(lg, seat, text, kind, detail)
        except ProtocolError:
            log.exception("storing a %s note of game %s failed", kind, lg.id)


__all__ = ["AWAY_BOT", "NOTE_AFTER", "Away"]
