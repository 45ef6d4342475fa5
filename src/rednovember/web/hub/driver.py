"""The driver: on the game's owner process (web/hub/cluster.py), the bot seats play (each on a
copy of the game in a worker thread; its move is applied only if the game has not changed
meanwhile; at a table no person plays, within the moves a minute its creator's and the server's
limits allow: web/rates.py), and the turn timer (web/hub/clock.py) runs out: the server then
makes that one decision with the heuristic bot's choice and says so in the chat (the seat stays
the player's)."""

from __future__ import annotations

import asyncio
import logging
import time

from ...bots import Bot, make_bot
from ...rules import Action
from ..protocol import ProtocolError
from ..rates import Rates
from .absence import takes_over
from .away import Away
from .clock import deadline, mark
from .deadline import Deadlines
from .live import LiveGame
from .runtime import Runtime
from .talk import Talk
from .writer import Writer

log = logging.getLogger("rednovember.web")

TIMEOUT_BOT = "heuristic"


class Driver:
    """The bots and turn clocks of the games this process owns."""

    def __init__(self, rt: Runtime, writer: Writer, talk: Talk, away: Away,
                 deadlines: Deadlines, rates: Rates, bot_delay: float = 0.6) -> None:
        self.rt = rt
        self.rates = rates
        self.deadlines = deadlines
        self.w = writer
        self.talk = talk
        self.away = away
        self.bot_delay = bot_delay
        self.timers: dict[str, asyncio.Task[None]] = {}

    def stop(self) -> list[asyncio.Task[None]]:
        """Cancels every bot and clock; returns their tasks (to wait for)."""
        tasks = [lg.bot_task for lg in self.rt.games.values() if lg.bot_task is not None]
        tasks += self.timers.values()
        self.timers.clear()
        for t in tasks:
            t.cancel()
        return tasks

    # --- bots -------------------------------------------------------------------------------------
    def kick(self, lg: LiveGame) -> None:
        """Start the game's bot task when a bot seat must decide (and its turn clock): on the
        game's owner only (web/hub/cluster.py)."""
        if not self.rt.nodes.owns(lg.id):
            return
        self.schedule(lg)
        self.away.schedule(lg)
        self.deadlines.schedule(lg)
        if self.rt.closing or lg.status != "playing" or (lg.bot_task and not lg.bot_task.done()):
            return
        seat = lg.game.player_to_move
        if seat < 0 or lg.seats[seat].kind != "bot":
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        lg.bot_task = loop.create_task(self._drive(lg))

    def _bot(self, lg: LiveGame, seat: int) -> Bot:
        name = lg.seats[seat].bot or "random"
        held = lg.bots.get(seat)
        if held is not None and held[0] == name:
            return held[1]
        seed = (lg.config.seed * 1_000_003 + seat * 7919 + len(lg.game.history)) & (2**62 - 1)
        bot = make_bot(name, seed)
        lg.bots[seat] = (name, bot)
        return bot

    async def _drive(self, lg: LiveGame) -> None:
        while not self.rt.closing and lg.status == "playing" and self.rt.nodes.owns(lg.id):
            seat = lg.game.player_to_move
            if seat < 0 or lg.seats[seat].kind != "bot":
                return
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            version = lg.version
            if lg.status != "playing" or lg.game.player_to_move != seat or \
                    lg.seats[seat].kind != "bot":
                continue
            if await self._held_back(lg):
                continue
            bot = self._bot(lg, seat)
            try:
                action = await asyncio.to_thread(bot.choose, lg.game.copy())
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot %s failed in game %s; playing its first legal action",
                              bot.name, lg.id)
                action = lg.game.legal_actions()[0]
            if lg.version != version or self.rt.closing:
                continue  # the game changed while the bot was thinking
            await self._bot_move(lg, seat, bot, action, version)
            if self.bot_delay <= 0:
                await asyncio.sleep(0)

    async def _held_back(self, lg: LiveGame) -> bool:
        """At a table no person plays (every seat a bot: nobody waits for it, and anyone may
        start one), a move counts against its creator's and the server's bot moves a minute;
        over them the table waits (True: look again after waiting)."""
        if any(s.kind != "bot" for s in lg.seats):
            return False
        try:
            wait = await self.rt.db(self.rates.bot_table_move, lg.client, time.time())
        except Exception:
            log.exception("counting a bot table's move failed in game %s", lg.id)
            wait = 1
        if wait:
            await asyncio.sleep(wait)
        return wait > 0

    async def _bot_move(self, lg: LiveGame, seat: int, bot: Bot, action: Action,
                        version: int) -> None:
        async with lg.lock:
            if lg.version != version:
                return
            try:
                await self.w.apply(lg, seat, action, by_player=False)
            except ProtocolError as exc:
                log.error("bot %s move %s refused in game %s: %s", bot.name, action, lg.id,
                          exc.message)
                if exc.code == "internal":
                    await asyncio.sleep(1.0)
                elif exc.code != "stale":  # stale: the game was reloaded, look again
                    await self.w.apply(lg, seat, lg.game.legal_actions()[0], by_player=False)

    # --- the turn timer ---------------------------------------------------------------------------
    def schedule(self, lg: LiveGame) -> None:
        """After a change (or a load): restart the game's clock for the decision now in play."""
        mark(lg)
        old = self.timers.pop(lg.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        end = deadline(lg)
        if end is None or self.rt.closing:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.timers[lg.id] = loop.create_task(self._run_out(lg, lg.version, end))

    async def _run_out(self, lg: LiveGame, version: int, end: float) -> None:
        await asyncio.sleep(max(0.0, end - time.time()))
        seat = lg.game.player_to_move
        if lg.version != version or deadline(lg) is None:
            return
        if takes_over(lg):  # out of time and gone: a bot takes the seat instead (issue 18)
            await self.away.hand_over(lg, seat)
            return
        seed = (lg.config.seed * 1_000_003 + seat * 7919 + len(lg.game.history)) & (2**62 - 1)
        bot = make_bot(TIMEOUT_BOT, seed)
        try:
            action = await asyncio.to_thread(bot.choose, lg.game.copy())
        except Exception:
            log.exception("the timeout bot failed in game %s; playing the first legal action", lg.id)
            action = lg.game.legal_actions()[0]
        if lg.version != version or self.rt.closing:
            return  # the player decided meanwhile
        if self.timers.get(lg.id) is asyncio.current_task():
            del self.timers[lg.id]
        try:
            if lg.version == version:
                await self.talk.note_timeout(lg, seat)
                await self.w.apply_for(lg, seat, action, version)
        except ProtocolError as exc:
            log.error("timeout move %s refused in game %s: %s", action, lg.id, exc.message)


__all__ = ["TIMEOUT_BOT", "Driver"]
