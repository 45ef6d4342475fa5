"""The games held in memory: rebuilt from the database (seed and action log) when first asked
for, and forgotten when nobody here needs them."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from ...rules import ActionError, Config, ConfigError, Game, GameData
from ...rules.serialize import SaveError, replay
from .. import security
from ..protocol import ProtocolError
from ..store import GameRecord
from ..tables import TableSettings
from .clock import restore
from .live import LiveGame, Seat
from .runtime import Runtime

log = logging.getLogger("rednovember.web")


def empty_seats(game: Game) -> list[Seat]:
    seats = []
    for p in range(game.config.players):
        numbers = game.gnomes_of(p)
        seats.append(Seat(p, numbers, [game.gnomes[n].colour for n in numbers]))
    return seats


def seats_of(rec: GameRecord, game: Game) -> list[Seat]:
    """The seats a stored record holds, on the game rebuilt from it."""
    seats = empty_seats(game)
    for row in rec.seats:
        if 0 <= row.seat < len(seats):
            s = seats[row.seat]
            s.kind, s.name, s.bot, s.token_hash = row.kind, row.name, row.bot, row.token_hash
    return seats


def rebuild(data: GameData, rec: GameRecord) -> LiveGame:
    """A stored game, replayed from its seed and actions."""
    config = Config.from_dict(rec.config)
    game = replay(data, config, None, rec.actions)
    status = "over" if game.is_over else rec.status
    lg = LiveGame(rec.id, config, game, seats_of(rec, game), rec.version, status,
                  rec.created, rec.creator_hash, list(rec.actors), list(rec.actions))
    now = time.monotonic()
    lg.gone_since = {s.seat: now for s in lg.seats if s.kind == "human"}
    lg.settings = TableSettings.from_stored(rec.listed, rec.settings)
    lg.changed_at, lg.clock_version = rec.updated, rec.version
    lg.rematch = rec.rematch
    lg.owners = dict(rec.owners)
    lg.client = rec.client or ""
    restore(lg, rec.deadline)
    return lg


class GameCache:
    """The live games of this process, loaded once however many ask at the same time."""

    def __init__(self, rt: Runtime, on_loaded: Callable[[LiveGame], None]) -> None:
        self.rt = rt
        self.on_loaded = on_loaded  # a game this process owns is back in memory (its bots resume)
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}
        # the newest version other processes announced of a game while it was being loaded here
        # (a notice that comes between reading its record and holding it in memory would be
        # lost: the copy would stay behind until the next move), and what catches a copy up
        self._heard: dict[str, int] = {}
        self.on_behind: Callable[[LiveGame, int], None] | None = None

    async def find(self, game_id: str) -> LiveGame | None:
        """The live game, rebuilt from the database when first asked for (once, however many
        ask at the same time)."""
        if not security.valid_game_id(game_id):
            return None
        lg = self.rt.games.get(game_id)
        if lg is not None or game_id in self.rt.broken:
            return lg
        pending = self._loading.get(game_id)
        if pending is None:
            pending = asyncio.ensure_future(self._load(game_id))
            self._loading[game_id] = pending
            pending.add_done_callback(lambda _f: self._loaded(game_id))
        return await asyncio.shield(pending)

    def heard_while_loading(self, game_id: str, version: int) -> None:
        """Another process announced ``version`` of a game not in memory here: kept if the game
        is being loaded (the loaded copy is then caught up if it is older)."""
        if game_id in self._loading:
            self._heard[game_id] = max(version, self._heard.get(game_id, -1))

    def _loaded(self, game_id: str) -> None:
        self._loading.pop(game_id, None)
        heard = self._heard.pop(game_id, -1)
        lg = self.rt.games.get(game_id)
        if lg is not None and heard > lg.version and self.on_behind is not None:
            self.on_behind(lg, heard)

    async def get(self, game_id: str) -> LiveGame:
        lg = await self.find(game_id)
        if lg is None:
            if game_id in self.rt.broken:
                raise ProtocolError("internal", "this game's stored record cannot be rebuilt")
            raise ProtocolError("not_found", "no such game")
        return lg

    async def _load(self, gid: str) -> LiveGame | None:
        rt = self.rt
        rec = await rt.db(rt.store.load_game, gid)
        if rec is None:
            return None
        try:
            lg = await rt.db(rebuild, rt.data, rec)
        except (SaveError, ConfigError, ActionError, ValueError) as exc:
            log.error("game %s cannot be rebuilt: %s", gid, exc)
            rt.broken[gid] = str(exc)
            return None
        lg.grace, lg.clock = rt.takeover_grace, rt.clock
        rt.games[gid] = lg
        if lg.status != "over" and await rt.nodes.own(gid):
            self.on_loaded(lg)
        return lg

    def release(self, lg: LiveGame) -> None:
        """Forget a game nobody here watches that this process need not keep: a finished one, or
        another process's (both are rebuilt from the database when asked for again)."""
        rt = self.rt
        if lg.conns or rt.games.get(lg.id) is not lg:
            return
        if lg.status == "over" or not rt.nodes.owns(lg.id):
            del rt.games[lg.id]
            if rt.nodes.owns(lg.id):
                rt.spawn(rt.nodes.disown(lg.id))


__all__ = ["GameCache", "empty_seats", "rebuild", "seats_of"]
