"""The follower of the other processes that share the database (web/hub/cluster.py): their
notices bring this process's copies up to date (actions, undos, seats, chat, presence, rematches),
games whose owner died are taken over, and this process says who is connected here."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from ...rules import ActionError, parse_action
from ...rules.hidden import undo as engine_undo
from .away import Away
from .cluster import CLAIM_EVERY
from .games import GameCache
from .live import PRESENCE_FRESH, LiveGame, Seat
from .runtime import Runtime
from .standins import drop_action, note_action
from .talk import Talk
from .views import broadcast, common_prefix, presence, push
from .writer import Writer

log = logging.getLogger("rednovember.web")

PRESENCE_EVERY = 5  # claim rounds between two presence notices of a game
PRESENCE_BATCH = 150  # games per presence notice (a notice holds at most 8000 bytes)
ORPHANS_EVERY = 3  # claim rounds between two looks for bot games nobody owns


class Follower:
    """Hears the other processes and takes over the games they leave without an owner."""

    def __init__(self, rt: Runtime, games: GameCache, writer: Writer, talk: Talk,
                 away: Away) -> None:
        self.rt = rt
        self.away = away
        self.games = games
        self.w = writer
        self.talk = talk
        games.on_behind = self._behind

    def hear(self, notice: dict[str, Any]) -> None:
        """Another process changed a game (a notice): bring this copy up to date."""
        if isinstance(notice.get("pres"), dict):  # who is connected there, for many games
            for gid, seats in notice["pres"].items():
                held = self.rt.games.get(gid)
                if held is not None and isinstance(seats, list):
                    self._heard_presence(held, str(notice.get("n")), seats)
            return
        lg = self.rt.games.get(notice["g"])
        if lg is not None:
            self.rt.spawn(self._heard(lg, notice))
        elif isinstance(notice.get("v"), int):
            self.games.heard_while_loading(notice["g"], notice["v"])

    def _behind(self, lg: LiveGame, version: int) -> None:
        """A game loaded while another process moved it on: catch the copy up."""
        self.rt.spawn(self._heard(lg, {"g": lg.id, "v": version}))

    async def _heard(self, lg: LiveGame, notice: dict[str, Any]) -> None:
        if isinstance(notice.get("v"), int):
            if notice["v"] > lg.version:
                async with lg.lock:
                    if notice["v"] > lg.version and not self._follow(lg, notice):
                        await self.w.refresh(lg)
        elif isinstance(notice.get("chat"), int):
            self.talk.heard_line(lg, notice)
        elif isinstance(notice.get("p"), list):
            self._heard_presence(lg, str(notice.get("n")), notice["p"])
        elif notice.get("mail") == 1 and self.away.notices is not None:
            self.away.notices.schedule(lg)  # (it acts only on the game's owner)
        elif isinstance(notice.get("r"), str):
            lg.rematch = notice["r"]
            push(lg, [{"type": "rematch", "game": lg.id, "next": notice["r"]}])

    def _follow(self, lg: LiveGame, notice: dict[str, Any]) -> bool:
        """Makes the change a notice describes (the game's lock held) if it is the very next
        one; whether it did (else the game is reloaded from the database)."""
        if notice["v"] != lg.version + 1 or not isinstance(notice.get("st"), str):
            return False
        old_log = lg.game.log
        try:
            if "act" in notice:
                idx, text, seat = notice["act"]
                if idx != len(lg.texts):
                    return False
                game = lg.game.copy()
                game.apply(parse_action(text, self.rt.data))
                note_action(lg, len(lg.game.log))
                lg.game = game
                lg.actors.append(int(seat))
                lg.texts.append(str(text))
            elif "undo" in notice:
                if notice["undo"] != len(lg.texts) - 1:
                    return False
                lg.game = engine_undo(lg.game)
                drop_action(lg)
                lg.actors.pop()
                lg.texts.pop()
            elif "seat" in notice:
                self._seat_from(lg, notice["seat"])
            else:
                return False
        except (ActionError, ValueError, TypeError, IndexError, KeyError):
            return False
        lg.version = notice["v"]
        lg.status = "over" if lg.game.is_over else notice["st"]
        undone = "undo" in notice
        broadcast(lg, common_prefix(old_log, lg.game.log) if undone else len(old_log))
        self.w.on_change(lg)
        return True

    def _seat_from(self, lg: LiveGame, row: list[Any]) -> None:
        """A seat's new holder, as another process stored it."""
        seat, kind, name, bot, token_hash = row
        s = lg.seats[seat]
        seats = lg.seats[:]
        seats[seat] = Seat(s.seat, s.gnomes, s.colours, kind, name, bot, token_hash)
        if kind == "human" and s.kind != "human":
            lg.gone_since[seat] = time.monotonic()
        lg.bots.pop(seat, None)
        lg.seats = seats

    def missed(self) -> None:
        """Notices may have been missed (the listening connection was made again)."""
        for lg in list(self.rt.games.values()):
            self.rt.spawn(self._refresh_locked(lg))

    async def _refresh_locked(self, lg: LiveGame) -> None:
        async with lg.lock:
            await self.w.refresh(lg)

    async def claim_loop(self) -> None:
        """Takes over the games that lost their owner, and says who is connected here."""
        rounds = 0
        while not self.rt.closing:
            await asyncio.sleep(CLAIM_EVERY)
            rounds += 1
            try:
                await self._claim_held()
                if rounds % PRESENCE_EVERY == 0:
                    self._presence_round()
                if rounds % ORPHANS_EVERY == 0:
                    await self._adopt_orphans()
            except Exception:  # the database is away: try again next round
                log.exception("taking over games failed")

    async def _claim_held(self) -> None:
        """Takes the games held here whose owner is gone (one look at the locks for all)."""
        nodes = self.rt.nodes
        held = [g for g, lg in self.rt.games.items() if lg.status != "over" and not nodes.owns(g)]
        for gid in await self.rt.nodes.unowned(held) if held else []:
            lg = self.rt.games.get(gid)
            if lg is not None and await self.rt.nodes.own(gid):
                log.info("game %s: this process took it over", gid)
                await self._refresh_locked(lg)  # the last owner may have written just before

    async def _adopt_orphans(self) -> None:
        """Bot games nobody watches go on too: load the ones whose owner is gone."""
        candidates = [g for g in await self.rt.db(self.rt.store.bot_game_ids, 500)
                      if g not in self.rt.games]
        for gid in await self.rt.nodes.unowned(candidates):
            if await self.rt.nodes.own(gid):
                lg = await self.games.find(gid)
                if lg is None or lg.status == "over":
                    await self.rt.nodes.disown(gid)
                else:
                    log.info("game %s: this process took it over", gid)

    def _presence_round(self) -> None:
        """Says again who is connected here (many games per notice), and forgets what other
        processes said too long ago (a process that died)."""
        now = time.monotonic()
        here = {g: sorted(lg.local_seats()) for g, lg in self.rt.games.items() if lg.conns}
        ids = list(here)
        for i in range(0, len(ids), PRESENCE_BATCH):
            batch = {g: here[g] for g in ids[i:i + PRESENCE_BATCH]}
            self.rt.spawn(self.rt.db(self.rt.store.notify, {"g": "*", "pres": batch}))
        for lg in list(self.rt.games.values()):
            stale = [n for n, (_, at) in lg.remote.items() if now - at >= PRESENCE_FRESH]
            if stale:
                before = frozenset(seat for seats, _ in lg.remote.values() for seat in seats)
                for n in stale:
                    del lg.remote[n]
                self._presence_changed(lg, before)

    async def announce(self, lg: LiveGame) -> None:
        """Tells the other processes which seats are connected here."""
        if self.rt.nodes.shared:
            await self.rt.db(self.rt.store.notify, {"g": lg.id, "p": sorted(lg.local_seats())})

    def _heard_presence(self, lg: LiveGame, node: str, seats: list[Any]) -> None:
        before = lg.remote_seats()
        lg.remote[node] = (frozenset(s for s in seats if isinstance(s, int)), time.monotonic())
        self._presence_changed(lg, before)

    def _presence_changed(self, lg: LiveGame, before: frozenset[int]) -> None:
        after = lg.remote_seats()
        if after == before:
            return
        now = time.monotonic()
        for seat in before - after:
            if 0 <= seat < len(lg.seats) and not lg.connected(seat):
                lg.gone_since[seat] = now
        presence(lg)
        self.away.schedule(lg)


__all__ = ["Follower"]
