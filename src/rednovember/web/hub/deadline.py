"""Turn-based tables (issue 20): the deadline of each decision (web/hub/clock.py: stamp), acted on
by the game's owner process (web/hub/cluster.py) only:

- after every change the owner stores the deadline of the decision in play (with each seat's
  deadlines missed in a row), so it survives a restart;
- when it passes, the heuristic bot makes that one decision for the seat (the seat stays the
  player's) and the chat says so (a server note ``deadline``); after :data:`HANDOVER_AFTER` in
  a row the seat's next decision is due at once, and then the seat goes to the bot, which the
  player may take back (``reclaim``);
- a sweep loads the games whose deadline comes soon (at start: those that passed while no
  process ran), so a deadline fires with nobody watching.

The decision is written only if the game is still at the version whose deadline passed (the
database's compare-and-set, web/store.py): however many processes or restarts, nothing is
decided twice. Times are the hub's clock (``Runtime.clock``), which a test replaces."""

from __future__ import annotations

import asyncio
import logging

from ...bots import make_bot
from ...rules import Action
from ..protocol import ProtocolError
from .clock import HANDOVER_AFTER, stamp
from .games import GameCache
from .live import LiveGame
from .notices import Notices
from .runtime import Runtime, cancel_all
from .seats import Seating
from .talk import Talk
from .writer import Writer

log = logging.getLogger("rednovember.web")

DEADLINE_BOT = "heuristic"  # decides for a seat whose deadline passed, then takes it over
SWEEP_EVERY = 60.0  # seconds between two looks for games whose deadline comes soon
SWEEP_BATCH = 200


class Deadlines:
    """The deadlines of the turn-based games this process owns."""

    def __init__(self, rt: Runtime, games: GameCache, writer: Writer, talk: Talk,
                 seating: Seating, notices: Notices) -> None:
        self.rt = rt
        self.games = games
        self.w = writer
        self.talk = talk
        self.seating = seating
        self.notices = notices
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.sweeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def stop(self) -> None:
        tasks = [*self.tasks.values(), self.sweeper]
        self.tasks.clear()
        await cancel_all(tasks)

    def schedule(self, lg: LiveGame) -> None:
        """After a change or a load (on the game's owner): store the deadline of the decision in
        play and wait for it."""
        if not lg.settings.turn_based or not self.rt.nodes.owns(lg.id):
            return
        stamp(lg)
        row = lg.deadline_row()
        if row is not None and not lg.due_stored:
            self.rt.spawn(self._store(lg))
        old = self.tasks.pop(lg.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if lg.due is None or self.rt.closing:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.tasks[lg.id] = loop.create_task(self._wait(lg, lg.version, lg.due))

    async def _store(self, lg: LiveGame) -> None:
        row = lg.deadline_row()
        if row is None or lg.due_stored:
            return
        try:
            await self.rt.db(self.rt.store.set_deadline, lg.id, row)
        except Exception:  # tried again after the next change; the deadline still runs here
            log.exception("storing the deadline of game %s failed", lg.id)
            return
        if lg.due_version == row.version:
            lg.due_stored = True

    async def _wait(self, lg: LiveGame, version: int, due: float) -> None:
        clock = self.rt.clock
        await clock.sleep(max(0.0, due - clock.now()))
        if self.tasks.get(lg.id) is asyncio.current_task():
            del self.tasks[lg.id]
        await asyncio.shield(self.decide(lg, version))

    async def decide(self, lg: LiveGame, version: int) -> None:
        """The deadline of the game at ``version`` passed: the bot decides for the seat, once."""
        seat = lg.game.player_to_move
        if not self._due(lg, version):
            return
        if lg.misses.get(seat, 0) >= HANDOVER_AFTER:  # the last one was the third in a row
            await self._hand_over(lg, seat)
            return
        seed = (lg.config.seed * 1_000_003 + seat * 7919 + len(lg.game.history)) & (2**62 - 1)
        try:
            action = await asyncio.to_thread(make_bot(DEADLINE_BOT, seed).choose, lg.game.copy())
        except Exception:
            log.exception("the deadline bot failed in game %s; playing the first legal action",
                          lg.id)
            action = lg.game.legal_actions()[0]
        await self._apply(lg, seat, action, version)

    async def _hand_over(self, lg: LiveGame, seat: int) -> None:
        """The seat that missed too many deadlines in a row goes to the bot (its player may take
        it back)."""
        try:  # as the seat's own (``by``): whether its player is connected does not matter
            await self.seating.hand_to_bot(lg, seat, DEADLINE_BOT, {seat}, True, auto=True,
                                           missed=HANDOVER_AFTER)
        except ProtocolError as exc:
            log.info("game %s: seat %d stays with its player (%s)", lg.id, seat, exc.message)
            return
        await self.notices.taken(lg, seat)  # (a player away for days reads it in their mail)

    def _due(self, lg: LiveGame, version: int) -> bool:
        """Whether the game is still at ``version``, a person's decision, its deadline past."""
        stamp(lg)
        return (lg.version == version and lg.status == "playing" and lg.due is not None
                and lg.due <= self.rt.clock.now() and self.rt.nodes.owns(lg.id)
                and not self.rt.closing)

    async def _apply(self, lg: LiveGame, seat: int, action: Action, version: int) -> None:
        """Makes the bot's decision if the game is still at ``version`` (else the player decided
        meanwhile, or another process did), and says so in the chat before any other change
        (the game's lock held: the hand-over after the third waits for it)."""
        async with lg.lock:
            if not self._due(lg, version):
                return
            missed = lg.misses.get(seat, 0) + 1
            lg.misses[seat], lg.timeout_version = missed, version + 1
            try:
                await self.w.apply(lg, seat, action, by_player=False)
            except ProtocolError as exc:  # stale: another process changed the game first
                log.info("game %s: the deadline move %s was not made (%s)", lg.id,
                         action.text(lg.game.data), exc.message)
                if lg.version == version:  # not reloaded: nothing happened, count as before
                    lg.misses[seat], lg.timeout_version = missed - 1, -1
                return  # (reloaded: the misses read back with the game are the ones that hold)
            s = lg.seats[seat]
            await self.talk.note(lg, seat, "deadline", {"player": s.name or "",
                                                        "colour": s.colours[0], "missed": missed})

    # --- the games whose deadline comes soon --------------------------------------------------
    async def _sweep(self) -> None:
        while not self.rt.closing:
            try:
                await self.adopt()
            except Exception:  # the database is away: try again next round
                log.exception("loading the games whose deadline comes failed")
            await self.rt.clock.sleep(SWEEP_EVERY)

    async def adopt(self) -> list[str]:
        """Loads the turn-based games whose deadline comes before the next sweep (or passed)
        that no process holds; their deadline then runs here. Returns their ids."""
        rt = self.rt
        soon = rt.clock.now() + 2 * SWEEP_EVERY
        ids = [g for g in await rt.db(rt.store.due_game_ids, soon, SWEEP_BATCH)
               if g not in rt.games]
        if rt.nodes.shared:
            ids = [g for g in await rt.nodes.unowned(ids) if await rt.nodes.own(g)]
        loaded = []
        for gid in ids:
            lg = await self.games.find(gid)
            if lg is not None and lg.status == "playing":
                loaded.append(gid)
            elif rt.nodes.shared:
                await rt.nodes.disown(gid)
        return loaded


__all__ = ["DEADLINE_BOT", "HANDOVER_AFTER", "SWEEP_EVERY", "Deadlines"]
