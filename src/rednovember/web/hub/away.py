"""The watch on absent players (issue 18; what an absence is: web/hub/absence.py). On the game's
owner process (web/hub/cluster.py), while the seat to move is away:

- the chat says so (a server note ``away``) once it has been gone :data:`NOTE_AFTER` seconds (once
  per absence: a page reload is none);
- under the table setting ``away_bot``, when its time comes (:func:`absence.bot_at`) the seat goes
  to :data:`AWAY_BOT`; so does the seat's turn timer when it runs out while the player is gone
  past the grace (web/hub/driver.py), instead of deciding once for them. The player takes the seat
  back with one click (``reclaim``), as after any handover.
"""

from __future__ import annotations

import asyncio
import logging
import time

from ..protocol import ProtocolError
from .absence import absent, bot_at, gone_for
from .live import LiveGame
from .notices import Notices
from .runtime import Runtime, cancel_all
from .seats import Seating
from .talk import Talk

log = logging.getLogger("rednovember.web")

AWAY_BOT = "heuristic"  # the bot the server gives an absent player's seat to
NOTE_AFTER = 5.0  # seconds the seat to move is gone before the chat says so


class Away:
    """One watcher task per game whose seat to move is away (on the game's owner)."""

    def __init__(self, rt: Runtime, seating: Seating, talk: Talk,
                 notices: Notices | None = None) -> None:
        self.rt = rt
        self.notices = notices  # the absent seat's email (web/hub/notices.py)
        self.seating = seating
        self.talk = talk
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.noted: dict[str, set[int]] = {}  # game -> seats whose absence the chat has told

    async def stop(self) -> None:
        tasks = list(self.tasks.values())
        self.tasks.clear()
        await cancel_all(tasks)

    def schedule(self, lg: LiveGame) -> None:
        """After a change of the game or of who is connected: watch the seat to move if its player
        is gone (on the game's owner only)."""
        if self.notices is not None:
            self.notices.schedule(lg)
        if not self.rt.nodes.owns(lg.id):
            return
        noted = self.noted.get(lg.id)
        if noted:  # a player who came back (or whose seat changed hands) starts a new absence
            noted -= {s for s in noted if lg.seats[s].kind != "human" or lg.connected(s)}
        if lg.status == "over":
            self.noted.pop(lg.id, None)
        old = self.tasks.pop(lg.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        seat = absent(lg)
        if seat is None or self.rt.closing:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.tasks[lg.id] = loop.create_task(self._watch(lg, seat))

    async def _watch(self, lg: LiveGame, seat: int) -> None:
        noted = self.noted.setdefault(lg.id, set())
        at = bot_at(lg, seat)
        note_in = max(0.0, NOTE_AFTER - gone_for(lg, seat))
        if seat not in noted and (at is None or time.time() + note_in < at):
            await asyncio.sleep(note_in)
            if absent(lg) != seat:
                return
            noted.add(seat)
            player, colour = lg.seats[seat].name or "", lg.seats[seat].colours[0]
            await asyncio.shield(self.talk.note(lg, seat, "away",
                                                {"player": player, "colour": colour}))
        if at is None:  # (else the bot's note says it all)
            return
        await asyncio.sleep(max(0.0, at - time.time()))
        if absent(lg) == seat:
            await asyncio.shield(self.hand_over(lg, seat))

    async def hand_over(self, lg: LiveGame, seat: int) -> None:
        """The server gives an absent player's seat to :data:`AWAY_BOT` (they may take it back)."""
        try:
            await self.seating.hand_to_bot(lg, seat, AWAY_BOT, set(), True, auto=True)
        except ProtocolError as exc:  # the player came back meanwhile, or the game ended
            log.info("game %s: seat %d stays with its player (%s)", lg.id, seat, exc.message)


__all__ = ["AWAY_BOT", "NOTE_AFTER", "Away"]
