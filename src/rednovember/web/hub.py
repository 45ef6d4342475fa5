"""Live games: the engine state of every game in play, its seats and connections, the fan-out of
per-seat views after every change, the server-side bot seats, and the other server processes that
share the database (web/cluster.py).

A change of a game holds the game's lock (``LiveGame.lock``) from its checks through the database
write to the broadcast, so two changes of one game never interleave while other games go on: the
database work runs in a small pool of threads (never on the event loop), and a bot's thinking in
another, on a copy of the game (its move is applied only if the game has not changed meanwhile).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any, TypeVar

from ..bots import BOTS, Bot, make_bot
from ..rules import Action, ActionError, Config, ConfigError, Game, GameData, new_game, parse_action
from ..rules.hidden import can_undo
from ..rules.hidden import undo as engine_undo
from ..rules.serialize import SaveError, replay
from ..rules.view import log_for
from . import security
from .away import Away
from .chat import HISTORY, clean, message, ping_target, ping_text, undo_detail, undo_text
from .cluster import CLAIM_EVERY, Nodes, Solo
from .hints import Hints
from .live import PRESENCE_FRESH, Connection, LiveGame, Seat
from .protocol import ProtocolError, action_info, jsonable, result_info, suggestions
from .store import GameRecord, RematchTaken, StaleWrite, Store
from .tables import (
    DEFAULT_WAITING_EXPIRY,
    MIN_TURN_TIMER,
    Tables,
    TableSettings,
    chat_message,
    timeout_row_seat,
)

log = logging.getLogger("rednovember.web")

T = TypeVar("T")
DB_THREADS = 4  # threads doing the database work (SQLAlchemy's pool holds 5 connections)
PRESENCE_EVERY = 5  # claim rounds between two presence notices of a game (web/cluster.py)
PRESENCE_BATCH = 150  # games per presence notice (a notice holds at most 8000 bytes)
ORPHANS_EVERY = 3  # claim rounds between two looks for bot games nobody owns


class Reloaded(ProtocolError):
    """A change refused because this copy of the game was behind the database (it has been
    reloaded since): worth one more try."""


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _common_prefix(a: list[Any], b: list[Any]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


class Hub:
    """All live games of this server process."""

    def __init__(self, store: Store, data: GameData, bot_delay: float = 0.6,
                 takeover_grace: float = 30.0, waiting_expiry: float = DEFAULT_WAITING_EXPIRY,
                 min_turn_timer: float = MIN_TURN_TIMER, nodes: Nodes | None = None) -> None:
        self.store = store
        self.data = data
        self.bot_delay = bot_delay
        self.takeover_grace = takeover_grace
        self.games: dict[str, LiveGame] = {}
        self.broken: dict[str, str] = {}
        self.nodes: Nodes = nodes or Solo()
        self._closing = False
        self.tables = Tables(self, waiting_expiry, min_turn_timer)
        self.hints = Hints(self)  # the advisor (web/hints.py)
        self.away = Away(self)  # absent players' seats (web/away.py)
        self._pool = ThreadPoolExecutor(min(DB_THREADS, store.threads), thread_name_prefix="rn-db")
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._claimer: asyncio.Task[None] | None = None

    @property
    def closing(self) -> bool:
        return self._closing

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Runs a store call in the database threads (the event loop goes on meanwhile)."""
        return await asyncio.get_running_loop().run_in_executor(self._pool,
                                                                functools.partial(fn, *args))

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Runs ``work`` in the background (kept until done; a failure is logged)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background work failed", exc_info=task.exception())

    # --- life cycle -------------------------------------------------------------------------------
    async def start(self) -> None:
        """Listen to the other processes (PostgreSQL) and delete the expired waiting tables (and
        keep doing so). Nothing is rebuilt up front: a game is rebuilt from its stored seed and
        actions when first asked for (``find``), and its bots and clock resume then, so the server
        starts in bounded time however many games the database holds (issue 9)."""
        await self.nodes.start(self._hear, self._missed)
        await self.tables.start()
        if self.nodes.shared:
            self._claimer = asyncio.get_running_loop().create_task(self._claim_loop())

    async def stop(self) -> None:
        self._closing = True
        await self.tables.stop()
        await self.away.stop()
        tasks = [lg.bot_task for lg in self.games.values() if lg.bot_task is not None]
        tasks += [*self._tasks, *([self._claimer] if self._claimer else [])]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        await self.nodes.stop()
        self._pool.shutdown(wait=True)

    # --- loading ----------------------------------------------------------------------------------
    async def find(self, game_id: str) -> LiveGame | None:
        """The live game, rebuilt from the database when first asked for (once, however many
        ask at the same time)."""
        if not security.valid_game_id(game_id):
            return None
        lg = self.games.get(game_id)
        if lg is not None or game_id in self.broken:
            return lg
        pending = self._loading.get(game_id)
        if pending is None:
            pending = asyncio.ensure_future(self._load(game_id))
            self._loading[game_id] = pending
            pending.add_done_callback(lambda _f: self._loading.pop(game_id, None))
        return await asyncio.shield(pending)

    async def get(self, game_id: str) -> LiveGame:
        lg = await self.find(game_id)
        if lg is None:
            if game_id in self.broken:
                raise ProtocolError("internal", "this game's stored record cannot be rebuilt")
            raise ProtocolError("not_found", "no such game")
        return lg

    async def _load(self, gid: str) -> LiveGame | None:
        rec = await self.db(self.store.load_game, gid)
        if rec is None:
            return None
        try:
            lg = await self.db(self._rebuild, rec)
        except (SaveError, ConfigError, ActionError, ValueError) as exc:
            log.error("game %s cannot be rebuilt: %s", gid, exc)
            self.broken[gid] = str(exc)
            return None
        self.games[gid] = lg
        if lg.status != "over" and await self.nodes.own(gid):
            self.kick(lg)  # a bot to move resumes as soon as the game is back in memory
        return lg

    def _rebuild(self, rec: GameRecord) -> LiveGame:
        config = Config.from_dict(rec.config)
        game = replay(self.data, config, None, rec.actions)
        status = "over" if game.is_over else rec.status
        lg = LiveGame(rec.id, config, game, self._seats_of(rec, game), rec.version, status,
                      rec.created, rec.creator_hash, list(rec.actors), list(rec.actions))
        now = time.monotonic()
        lg.gone_since = {s.seat: now for s in lg.seats if s.kind == "human"}
        lg.settings = TableSettings.from_stored(rec.listed, rec.settings)
        lg.changed_at, lg.clock_version = rec.updated, rec.version
        lg.rematch = rec.rematch
        return lg

    def _seats_of(self, rec: GameRecord, game: Game) -> list[Seat]:
        seats = self._empty_seats(game)
        for row in rec.seats:
            if 0 <= row.seat < len(seats):
                s = seats[row.seat]
                s.kind, s.name, s.bot, s.token_hash = row.kind, row.name, row.bot, row.token_hash
        return seats

    @staticmethod
    def _empty_seats(game: Game) -> list[Seat]:
        seats = []
        for p in range(game.config.players):
            numbers = game.gnomes_of(p)
            seats.append(Seat(p, numbers, [game.gnomes[n].colour for n in numbers]))
        return seats

    def release(self, lg: LiveGame) -> None:
        """Forget a game nobody here watches that this process need not keep: a finished one, or
        another process's (both are rebuilt from the database when asked for again)."""
        if lg.conns or self.games.get(lg.id) is not lg:
            return
        if lg.status == "over" or not self.nodes.owns(lg.id):
            del self.games[lg.id]
            if self.nodes.owns(lg.id):
                self.spawn(self.nodes.disown(lg.id))

    # --- the other processes (web/cluster.py) -------------------------------------------------------
    def _hear(self, notice: dict[str, Any]) -> None:
        """Another process changed a game (a notice): bring this copy up to date."""
        if isinstance(notice.get("pres"), dict):  # who is connected there, for many games
            for gid, seats in notice["pres"].items():
                held = self.games.get(gid)
                if held is not None and isinstance(seats, list):
                    self._heard_presence(held, str(notice.get("n")), seats)
            return
        lg = self.games.get(notice["g"])
        if lg is not None:
            self.spawn(self._heard(lg, notice))

    async def _heard(self, lg: LiveGame, notice: dict[str, Any]) -> None:
        if isinstance(notice.get("v"), int):
            if notice["v"] > lg.version:
                async with lg.lock:
                    if notice["v"] > lg.version and not self._follow(lg, notice):
                        await self._refresh(lg)
        elif isinstance(notice.get("chat"), int):
            self._heard_line(lg, notice)
        elif isinstance(notice.get("p"), list):
            self._heard_presence(lg, str(notice.get("n")), notice["p"])
        elif isinstance(notice.get("r"), str):
            lg.rematch = notice["r"]
            self._push(lg, [{"type": "rematch", "game": lg.id, "next": notice["r"]}])

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
                game.apply(parse_action(text, self.data))
                lg.game = game
                lg.actors.append(int(seat))
                lg.texts.append(str(text))
            elif "undo" in notice:
                if notice["undo"] != len(lg.texts) - 1:
                    return False
                lg.game = engine_undo(lg.game)
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
        self.broadcast(lg, _common_prefix(old_log, lg.game.log) if undone else len(old_log))
        self.kick(lg)
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

    def _missed(self) -> None:
        """Notices may have been missed (the listening connection was made again)."""
        for lg in list(self.games.values()):
            self.spawn(self._refresh_locked(lg))

    async def _refresh_locked(self, lg: LiveGame) -> None:
        async with lg.lock:
            await self._refresh(lg)

    async def _claim_loop(self) -> None:
        """Takes over the games that lost their owner, and says who is connected here."""
        rounds = 0
        while not self._closing:
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
        held = [g for g, lg in self.games.items() if lg.status != "over" and not self.nodes.owns(g)]
        for gid in await self.nodes.unowned(held) if held else []:
            lg = self.games.get(gid)
            if lg is not None and await self.nodes.own(gid):
                log.info("game %s: this process took it over", gid)
                await self._refresh_locked(lg)  # the last owner may have written just before

    async def _adopt_orphans(self) -> None:
        """Bot games nobody watches go on too: load the ones whose owner is gone."""
        candidates = [g for g in await self.db(self.store.bot_game_ids, 500)
                      if g not in self.games]
        for gid in await self.nodes.unowned(candidates):
            if await self.nodes.own(gid):
                lg = await self.find(gid)
                if lg is None or lg.status == "over":
                    await self.nodes.disown(gid)
                else:
                    log.info("game %s: this process took it over", gid)

    def _presence_round(self) -> None:
        """Says again who is connected here (many games per notice), and forgets what other
        processes said too long ago (a process that died)."""
        now = time.monotonic()
        here = {g: sorted(lg.local_seats()) for g, lg in self.games.items() if lg.conns}
        ids = list(here)
        for i in range(0, len(ids), PRESENCE_BATCH):
            batch = {g: here[g] for g in ids[i:i + PRESENCE_BATCH]}
            self.spawn(self.db(self.store.notify, {"g": "*", "pres": batch}))
        for lg in list(self.games.values()):
            stale = [n for n, (_, at) in lg.remote.items() if now - at >= PRESENCE_FRESH]
            if stale:
                before = frozenset(seat for seats, _ in lg.remote.values() for seat in seats)
                for n in stale:
                    del lg.remote[n]
                self._presence_changed(lg, before)

    async def _announce(self, lg: LiveGame) -> None:
        """Tells the other processes which seats are connected here."""
        if self.nodes.shared:
            await self.db(self.store.notify, {"g": lg.id, "p": sorted(lg.local_seats())})

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
        self.presence(lg)

    # --- creating and seating ------------------------------------------------------------------------
    async def create_game(self, players: int, gnomes_per_player: int | None,
                          variants: Iterable[str], seed: int | None,
                          creator_hash: str | None = None,
                          settings: TableSettings | None = None,
                          rematch_of: str | None = None) -> tuple[LiveGame, str]:
        """A new game waiting for its seats; returns it with its creator token (with
        ``creator_hash``, a rematch keeps the first game's creator and the token is unused;
        ``rematch_of``: RematchTaken if that game has its rematch already)."""
        if seed is None:
            seed = secrets.randbits(48)
        try:
            config = Config(players, gnomes_per_player, frozenset(variants), seed)
        except ConfigError as exc:
            raise ProtocolError("bad_config", str(exc)) from None
        game = new_game(config, self.data)
        gid = security.new_game_id()
        while gid in self.games:  # pragma: no cover - 72 random bits
            gid = security.new_game_id()
        token = security.new_token()
        lg = LiveGame(gid, config, game, self._empty_seats(game), 0, "waiting", time.time(),
                      creator_hash or security.hash_token(token))
        lg.settings = settings or TableSettings()
        try:
            await self.db(self.store.create_game, gid, config.to_dict(), lg.creator_hash,
                          config.players, lg.settings.listed, lg.settings.stored(), rematch_of)
        except RematchTaken:
            raise
        except Exception:
            log.exception("storing a new game failed")
            raise ProtocolError("internal", "the game could not be stored; nothing changed") \
                from None
        self.games[gid] = lg
        await self.nodes.own(gid)
        return lg, token

    async def take_seat(self, lg: LiveGame, seat: int | None, colour: str | None,
                        name: str) -> tuple[int, str]:
        async def attempt() -> tuple[int, str]:
            at = self._free_seat(lg, seat, colour)
            s = lg.seats[at]
            token = security.new_token()
            new = Seat(s.seat, s.gnomes, s.colours, "human", name, None, security.hash_token(token))
            await self._change_seat(lg, new)
            lg.gone_since[at] = time.monotonic()
            return at, token

        return await self._locked(lg, attempt)

    @staticmethod
    def _free_seat(lg: LiveGame, seat: int | None, colour: str | None) -> int:
        """The free seat asked for (by number or colour), or a clear refusal."""
        if seat is None and colour is None:
            raise ProtocolError("bad_message", "give the 'seat' or the 'colour' to take")
        if seat is None:
            found = [s.seat for s in lg.seats if colour in s.colours]
            if not found:
                raise ProtocolError("not_found", f"no seat plays the colour {colour!r} in this game")
            seat = found[0]
        lg.check_seat(seat)
        if colour is not None and colour not in lg.seats[seat].colours:
            raise ProtocolError("bad_message", f"seat {seat} does not play {colour!r}")
        s = lg.seats[seat]
        if s.kind != "free":
            raise ProtocolError("seat_taken", f"seat {seat} ({s.colours[0]}) is already taken",
                                "taken", seat=seat)
        if lg.status == "over":
            raise ProtocolError("game_over", "the game is over")
        return seat

    async def hand_to_bot(self, lg: LiveGame, seat: int, bot: str, by: set[int],
                          creator: bool, auto: bool = False) -> None:
        """Gives a seat to a bot (``auto``: the server gives an absent player's, web/away.py)."""
        if bot not in BOTS:
            raise ProtocolError("unknown_bot", f"unknown bot {bot!r}; known: {', '.join(sorted(BOTS))}")
        lg.check_seat(seat)
        if not by and not creator:
            raise ProtocolError("unauthorised", "only the game's creator or a seated player may "
                                                "hand a seat to a bot")
        async def attempt() -> Seat:
            if lg.status == "over":
                raise ProtocolError("game_over", "the game is over")
            s = lg.seats[seat]
            if auto and s.kind != "human":
                raise ProtocolError("forbidden", f"seat {seat} is no person's any more")
            if s.kind == "human" and seat not in by:
                self._check_gone(lg, seat)
            # the seat's player keeps the right to take it back (their token's hash stays:
            # Hub.reclaim)
            owner = s.token_hash if s.kind in ("human", "bot") else None
            new = Seat(s.seat, s.gnomes, s.colours, "bot", bot, bot, owner)
            lg.bots.pop(seat, None)
            for c in lg.conns:
                c.seats.pop(seat, None)
            await self._change_seat(lg, new)
            return s

        old = await self._locked(lg, attempt)
        if old.kind == "human":  # the chat says so
            await self.away.to_bot(lg, seat, old.name, bot, auto)

    def _check_gone(self, lg: LiveGame, seat: int) -> None:
        """Another's seat goes to a bot only once its player has been away for the grace."""
        if lg.connected(seat):
            raise ProtocolError("forbidden", f"seat {seat}'s player is connected: only they "
                                             "can hand the seat to a bot",
                                "player_connected", seat=seat)
        gone = time.monotonic() - lg.gone_since.get(seat, 0.0)
        if gone < self.takeover_grace:
            wait = int(self.takeover_grace - gone) + 1
            raise ProtocolError("forbidden", f"seat {seat}'s player left only recently: "
                                             f"try again in {wait} s",
                                "left_recently", seat=seat, seconds=wait)

    async def rematch(self, lg: LiveGame, by: set[int], creator: bool) -> LiveGame:
        """A finished game's next one: the same configuration and seats (players keep their seat
        tokens, bots their strength) with a new seed. One per game: asking again joins it."""
        if lg.status != "over":
            raise ProtocolError("forbidden", "a rematch can start once the game is over")
        if not by and not creator:
            raise ProtocolError("unauthorised", "only a seated player or the game's creator may "
                                                "start a rematch")
        async with lg.lock:
            if lg.rematch is not None:
                return await self.get(lg.rematch)
            c = lg.config
            try:  # the database keeps one rematch per game, whichever process asks first
                new, _ = await self.create_game(c.players, c.gnomes_per_player, c.variants, None,
                                                lg.creator_hash, lg.settings.for_rematch(), lg.id)
            except RematchTaken as taken:
                if taken.game_id is None:  # pragma: no cover - the game row was deleted
                    raise ProtocolError("not_found", "this game is gone") from None
                lg.rematch = taken.game_id
                return await self._seated_rematch(lg, await self.get(taken.game_id))
            lg.rematch = new.id
            async with new.lock:
                for s in lg.seats:
                    await self._change_seat(new, Seat(s.seat, s.gnomes, s.colours, s.kind, s.name,
                                                      s.bot, s.token_hash))
        self._push(lg, [{"type": "rematch", "game": lg.id, "next": new.id}])
        if self.nodes.shared:  # once its seats are copied: the players' tokens hold them there
            await self.db(self.store.notify, {"g": lg.id, "r": new.id})
        return new

    async def _seated_rematch(self, lg: LiveGame, new: LiveGame) -> LiveGame:
        """The rematch another process started a moment ago, once its seats are copied there
        (it links the game first): else the players sent to it would find no seat of theirs.
        At most two seconds; its seat changes reach this copy as notices or by reloading."""
        want = sum(s.kind != "free" for s in lg.seats)
        for _ in range(40):
            if sum(s.kind != "free" for s in new.seats) >= want:
                break
            await asyncio.sleep(0.05)
            async with new.lock:
                await self._refresh(new)
        return new

    async def reclaim(self, lg: LiveGame, seat: int, token: str, name: str | None = None) -> None:
        """The seat's player takes their seat back from the bot it was handed to, with the token
        they took it with. The bot's pending move (if it is thinking) is dropped: the player
        makes the seat's next decision."""
        lg.check_seat(seat)
        async def attempt() -> None:
            if lg.status == "over":
                raise ProtocolError("game_over", "the game is over")
            s = lg.seats[seat]
            if s.kind != "bot":
                raise ProtocolError("forbidden", f"seat {seat} is not played by a bot: nothing "
                                                 "to take back", detail="not_a_bot", seat=seat)
            if lg.owned_bot_seat(token) != seat:
                raise ProtocolError("unauthorised", f"this token is not the one of seat {seat}'s "
                                                    "player", detail="not_the_owner", seat=seat)
            who = name or f"Player {seat + 1}"
            await self._change_seat(lg, Seat(s.seat, s.gnomes, s.colours, "human", who, None,
                                             s.token_hash))
            lg.bots.pop(seat, None)
            lg.gone_since[seat] = time.monotonic()

        await self._locked(lg, attempt)
        await self.away.back(lg, seat)

    async def _change_seat(self, lg: LiveGame, new: Seat) -> None:
        """Stores a seat's new holder (the game's lock held) and shows it to everyone."""
        status = lg.status
        seats = lg.seats[:]
        seats[new.seat] = new
        if status == "waiting" and all(s.kind != "free" for s in seats):
            status = "playing"
        await self._store(lg, "seat change", self.store.set_seat, lg.id, new.row(),
                          lg.version + 1, status)
        lg.seats = seats
        lg.version += 1
        lg.status = status
        self.broadcast(lg, len(lg.game.log))
        self.kick(lg)

    async def _locked(self, lg: LiveGame, attempt: Callable[[], Awaitable[T]],
                      version: int | None = None) -> T:
        """Runs a change of ``lg`` under its lock. If this copy turns out to be behind (another
        process wrote first), it is reloaded and the change judged once more on the fresh game:
        a player is refused as ``stale`` only for a version they really did not see."""
        async with lg.lock:
            if version is not None and version > lg.version:
                await self._refresh(lg)  # the player saw a change this copy has not heard of
            try:
                return await attempt()
            except Reloaded:
                return await attempt()

    async def _store(self, lg: LiveGame, what: str, fn: Callable[..., None], *args: Any) -> None:
        """A store write of ``lg`` (its lock held). A stale copy (another process wrote first)
        is reloaded and the change refused as ``stale`` (``_locked`` judges it once more); any
        other failure is ``internal``. Either way nothing changed."""
        held = lg.version
        try:
            await self.db(fn, *args)
        except StaleWrite:
            await self._refresh(lg)
            log.warning("game %s changed elsewhere; reloaded it (a %s was refused)", lg.id, what)
            raise Reloaded("stale", f"the game was changed elsewhere (version {lg.version}, "
                                    f"not {held}): look again",
                           "version", version=lg.version, sent=held) from None
        except ProtocolError:
            raise
        except Exception:
            log.exception("storing a %s of game %s failed", what, lg.id)
            raise ProtocolError("internal", f"the {what} could not be stored; nothing changed") \
                from None

    async def _refresh(self, lg: LiveGame) -> None:
        """Bring ``lg`` (its lock held) to what the database holds, and show it to its
        connections: the new actions are applied to this copy (a full rebuild after an undo)."""
        rec = await self.db(self.store.load_game, lg.id)
        if rec is None:
            return
        old_log = lg.game.log
        game = self._caught_up(lg, rec)
        if game is None:
            game = (await self.db(self._rebuild, rec)).game
        seats = self._seats_of(rec, game)
        now = time.monotonic()
        for s in seats:
            if s.kind == "human" and lg.seats[s.seat].kind != "human":
                lg.gone_since[s.seat] = now
        lg.game, lg.seats, lg.version = game, seats, rec.version
        lg.status = "over" if game.is_over else rec.status
        lg.actors, lg.texts = list(rec.actors), list(rec.actions)
        lg.changed_at, lg.clock_version = rec.updated, rec.version
        lg.bots.clear()
        self.broadcast(lg, _common_prefix(old_log, game.log))
        self.kick(lg)

    def _caught_up(self, lg: LiveGame, rec: GameRecord) -> Game | None:
        """This copy with the record's further actions applied, or None if the record does not
        extend it (an undo happened elsewhere)."""
        n = len(lg.texts)
        if rec.actions[:n] != lg.texts:
            return None
        if len(rec.actions) == n:
            return lg.game
        game = lg.game.copy()
        try:
            for text in rec.actions[n:]:
                game.apply(parse_action(text, self.data))
        except (ActionError, ValueError):
            return None
        return game

    # --- playing --------------------------------------------------------------------------------
    def _check_turn(self, lg: LiveGame, seat: int, version: int | None) -> None:
        if lg.status == "over":
            raise ProtocolError("game_over", "the game is over")
        if lg.status == "waiting":
            free = [str(s.seat) for s in lg.seats if s.kind == "free"]
            raise ProtocolError("not_started", f"the game has not started: seat(s) {', '.join(free)} "
                                               "still free", "seats_free", count=len(free))
        if version is not None and version != lg.version:
            raise ProtocolError("stale", f"the game has changed (version {lg.version}, "
                                         f"not {version}): look again",
                                "version", version=lg.version, sent=version)

    async def act(self, lg: LiveGame, seat: int, text: str, version: int | None = None) -> None:
        async def attempt() -> None:
            self._check_turn(lg, seat, version)
            g = lg.game
            if g.player_to_move != seat:
                raise ProtocolError("not_your_turn", f"it is seat {g.player_to_move}'s decision, "
                                                     f"not seat {seat}'s",
                                    "other_seat", to_move=g.player_to_move, seat=seat)
            try:
                action = parse_action(text, g.data)
            except ActionError as exc:
                raise ProtocolError("illegal", f"{text[:64]!r}: {exc}") from None
            await self._apply(lg, seat, action)  # an illegal one is refused with the reason

        await self._locked(lg, attempt, version)

    async def _apply(self, lg: LiveGame, seat: int, action: Action) -> None:
        """Applies, stores and shows an action (the game's lock held)."""
        g = lg.game
        new = g.copy()
        try:
            new.apply(action)
        except ActionError as exc:
            raise ProtocolError("illegal", str(exc)) from None
        status = "over" if new.is_over else lg.status
        result = None if new.result is None else {"won": new.result.won, "cause": new.result.cause}
        text = action.text(g.data)
        await self._store(lg, "action", self.store.append_action, lg.id, len(g.history), text,
                          seat, lg.version + 1, status, result)
        lg.game = new
        lg.actors.append(seat)
        lg.texts.append(text)
        lg.version += 1
        lg.status = status
        self.broadcast(lg, len(g.log))
        self.kick(lg)

    async def apply_for(self, lg: LiveGame, seat: int, action: Action, version: int) -> bool:
        """Applies an action the server chose for a seat (the turn timer ran out) if the game is
        still at ``version``; whether it was."""
        async with lg.lock:
            if lg.version != version or lg.status != "playing":
                return False
            await self._apply(lg, seat, action)
            return True

    async def undo(self, lg: LiveGame, seat: int, version: int | None = None) -> None:
        async def attempt() -> tuple[Game, int]:
            self._check_turn(lg, seat, version)
            g = lg.game
            if not lg.actors or not g.history:
                raise ProtocolError("cannot_undo", "there is nothing to undo", "nothing")
            if lg.actors[-1] != seat:
                raise ProtocolError("cannot_undo", "only the seat that made the last action may "
                                                   "take it back", "not_yours")
            if not can_undo(g):
                raise ProtocolError("cannot_undo", "the last action cannot be taken back: it "
                                                   "revealed information, rolled a die, drew a "
                                                   "card, involved another player or ended the "
                                                   "turn", "hidden_information")
            new = engine_undo(g)
            await self._store(lg, "undo", self.store.drop_last_action, lg.id,
                              len(g.history) - 1, lg.version + 1, lg.status)
            stable = _common_prefix(g.log, new.log)
            lg.game = new
            lg.actors.pop()
            lg.texts.pop()
            lg.version += 1
            lg.clock_version = lg.version  # the turn timer goes on: an undo buys no time
            self.broadcast(lg, stable)
            self.kick(lg)
            return g, stable

        g, stable = await self._locked(lg, attempt, version)
        try:  # said in the table talk: the others' logs just shrink
            detail = undo_detail(g, stable)
            await self.post(lg, seat, undo_text(detail), "undo", detail)
        except Exception:  # the undo itself is done and stored: only its chat line is lost
            log.exception("storing the undo line of game %s failed", lg.id)

    # --- bots -------------------------------------------------------------------------------------
    def kick(self, lg: LiveGame) -> None:
        """Start the game's bot task when a bot seat must decide (and its turn clock): on the
        game's owner only (web/cluster.py)."""
        if not self.nodes.owns(lg.id):
            return
        self.tables.schedule(lg)
        self.away.schedule(lg)
        if self._closing or lg.status != "playing" or (lg.bot_task and not lg.bot_task.done()):
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
        while not self._closing and lg.status == "playing" and self.nodes.owns(lg.id):
            seat = lg.game.player_to_move
            if seat < 0 or lg.seats[seat].kind != "bot":
                return
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            version = lg.version
            if lg.status != "playing" or lg.game.player_to_move != seat or \
                    lg.seats[seat].kind != "bot":
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
            if lg.version != version or self._closing:
                continue  # the game changed while the bot was thinking
            await self._bot_move(lg, seat, bot, action, version)
            if self.bot_delay <= 0:
                await asyncio.sleep(0)

    async def _bot_move(self, lg: LiveGame, seat: int, bot: Bot, action: Action,
                        version: int) -> None:
        async with lg.lock:
            if lg.version != version:
                return
            try:
                await self._apply(lg, seat, action)
            except ProtocolError as exc:
                log.error("bot %s move %s refused in game %s: %s", bot.name, action, lg.id,
                          exc.message)
                if exc.code == "internal":
                    await asyncio.sleep(1.0)
                elif exc.code != "stale":  # stale: the game was reloaded, look again
                    await self._apply(lg, seat, lg.game.legal_actions()[0])

    # --- what clients see -------------------------------------------------------------------------
    def summary(self, lg: LiveGame) -> dict[str, Any]:
        g = lg.game
        return {
            "id": lg.id, "link": f"/g/{lg.id}", "config": lg.config.to_dict(),
            "status": lg.status, "version": lg.version, "created": _iso(lg.created),
            "turn": g.turn, "to_move": -1 if lg.status == "over" else g.player_to_move,
            "result": result_info(g), "seats": self.seats_info(lg),
            "settings": lg.settings.to_dict(), "clock": self.tables.clock(lg),
            "away": self.away.info(lg),
        }

    def seats_info(self, lg: LiveGame) -> list[dict[str, Any]]:
        return [{"seat": s.seat, "colour": s.colours[0], "colours": s.colours,
                 "gnomes": s.gnomes, "kind": s.kind, "name": s.name, "bot": s.bot,
                 "connected": s.kind != "free" and lg.connected(s.seat)} for s in lg.seats]

    def state(self, lg: LiveGame, seat: int | None, log_start: int = 0,
              seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        g = lg.game
        playing = lg.status == "playing"
        view = g.view(seat)
        your_turn = seat is not None and playing and g.player_to_move == seat
        if not your_turn:
            view["legal"] = []
        actions = [action_info(a, g) for a in g.legal_actions()] if your_turn else []
        undoable = (seat is not None and playing and bool(lg.actors) and lg.actors[-1] == seat
                    and can_undo(g))
        log_start = max(0, min(log_start, len(g.log)))
        return {
            "type": "state", "game": lg.id, "seat": seat, "version": lg.version,
            "status": lg.status, "view": view,
            "to_move": -1 if lg.status == "over" else g.player_to_move, "decider": g.decider,
            "your_turn": your_turn, "actions": actions, "can_undo": undoable,
            "suggest": suggestions(g) if your_turn else {},
            "log_start": log_start, "log": jsonable(log_for(g, seat, log_start)),
            "result": result_info(g),
            "seats": self.seats_info(lg) if seats is None else seats,
            "clock": self.tables.clock(lg), "away": self.away.info(lg),
        }

    def broadcast(self, lg: LiveGame, stable: int) -> None:
        """Send every connection the new state of each seat it holds (spectators: one)."""
        if not lg.conns:
            return
        seats = self.seats_info(lg)
        cache: dict[tuple[int | None, int], str] = {}
        end = len(lg.game.log)
        for c in list(lg.conns):
            if not c.hello:
                continue
            for seat in c.views:
                start = min(c.log_sent.get(seat, 0), stable)
                key = (seat, start)
                text = cache.get(key)
                if text is None:
                    text = json.dumps(self.state(lg, seat, start, seats), separators=(",", ":"))
                    cache[key] = text
                c.log_sent[seat] = end
                c.push(text)

    def send_states(self, lg: LiveGame, c: Connection) -> None:
        """Every state of a connection, with the full log (after hello / sync)."""
        seats = self.seats_info(lg)
        c.log_sent = {}
        for seat in c.views:
            c.push_obj(self.state(lg, seat, 0, seats))
            c.log_sent[seat] = len(lg.game.log)

    def presence(self, lg: LiveGame) -> None:
        """Tell everyone who is connected (no change of the game itself), and whether the seat to
        move is away (web/away.py)."""
        self.away.schedule(lg)
        self._push(lg, [{"type": "seats", "game": lg.id, "version": lg.version,
                         "seats": self.seats_info(lg), "away": self.away.info(lg)}])

    # --- connections ------------------------------------------------------------------------------
    async def hello(self, lg: LiveGame, c: Connection, tokens: tuple[str, ...],
                    creator: str | None) -> list[int]:
        """Authenticate a connection's tokens; returns the indices of rejected tokens."""
        chat = await self.chat_history(lg)
        before = set(c.seats)
        c.seats = {}
        rejected: list[int] = []
        reclaimable: list[dict[str, int]] = []
        for i, token in enumerate(tokens):
            seat = lg.seat_for_token(token)
            if seat is not None:
                c.seats[seat] = lg.seats[seat].token_hash or ""
                continue
            bot_seat = lg.owned_bot_seat(token)
            if bot_seat is None:
                rejected.append(i)
            else:
                reclaimable.append({"token": i, "seat": bot_seat})
        c.creator = lg.is_creator(creator)
        c.hello = True
        lg.conns.add(c)
        await self.tables.touch(lg)
        now = time.monotonic()
        for seat in before - set(c.seats):
            if not lg.connected(seat):
                lg.gone_since[seat] = now
        c.push_obj({"type": "welcome", "protocol": 1, "game": self.summary(lg),
                    "seats": sorted(c.seats), "spectator": not c.seats, "creator": c.creator,
                    "rejected": rejected, "chat": chat, "reclaimable": reclaimable})
        self.send_states(lg, c)
        if set(c.seats) != before:
            self.presence(lg)
            self.spawn(self._announce(lg))
        return rejected

    def detach(self, lg: LiveGame, c: Connection) -> None:
        lg.conns.discard(c)
        self.spawn(self.tables.touch(lg))
        self.release(lg)
        now = time.monotonic()
        changed = False
        for seat in c.seats:
            if not lg.connected(seat):
                lg.gone_since[seat] = now
                changed = True
        if changed:
            self.presence(lg)
        if c.seats:
            self.spawn(self._announce(lg))

    # --- table talk ---------------------------------------------------------------------------------
    async def chat_history(self, lg: LiveGame) -> list[dict[str, Any]]:
        if lg.chat is None:
            rows = await self.db(self.store.load_chat, lg.id, HISTORY)
            if lg.chat is None:
                lg.chat = [chat_message(m) for m in rows]
        return lg.chat

    async def chat(self, lg: LiveGame, c: Connection, seat: int, text: str) -> None:
        """A seated player's message to the table (spectators read only), stored and pushed."""
        seat = self.held_seat(lg, c, seat)
        body = clean(text)
        c.chat_limit.check()
        await self.post(lg, seat, body, None, None)

    async def ping(self, lg: LiveGame, c: Connection, seat: int, target: tuple[str, int | str],
                   what: str) -> None:
        """A seated player marks a room, hatch, time-track space or token for everyone: every
        connection gets a ``ping`` (the board marker, for live viewers only) and the chat line,
        which is stored like a message."""
        seat = self.held_seat(lg, c, seat)
        kind, ident = target
        ping_target(self.data, kind, ident)
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
        """Tells the table (a chat note, stored) that the server decides for a seat out of time."""
        await self._add_line(lg, timeout_row_seat(seat), None,
                             f"Time ran out: the server decides for seat {seat}.", None, None)

    async def note(self, lg: LiveGame, seat: int, text: str, kind: str,
                   detail: dict[str, Any]) -> None:
        """A server's note about a seat in the chat, stored (web/away.py)."""
        await self._add_line(lg, timeout_row_seat(seat), None, text, kind, detail)

    async def _add_line(self, lg: LiveGame, row_seat: int, name: str | None, text: str,
                        kind: str | None, detail: dict[str, Any] | None,
                        before: dict[str, Any] | None = None) -> dict[str, Any]:
        await self.chat_history(lg)
        now = time.time()
        line = [row_seat, name, text, now, kind, detail]
        notice = {"line": line, "live": before} if self.nodes.shared else None
        try:
            idx = await self.db(self.store.add_chat, lg.id, row_seat, name, text, now, kind,
                                detail, notice)
        except Exception:
            log.exception("storing a chat line of game %s failed", lg.id)
            raise ProtocolError("internal", "the message could not be stored") from None
        return self._line(lg, idx, line, before)

    def _heard_line(self, lg: LiveGame, notice: dict[str, Any]) -> None:
        """Another process stored a chat line of this game."""
        line, live = notice.get("line"), notice.get("live")
        if isinstance(line, list) and len(line) == 6:
            self._line(lg, notice["chat"], line, live if isinstance(live, dict) else None)

    def _line(self, lg: LiveGame, idx: int, line: list[Any],
              before: dict[str, Any] | None) -> dict[str, Any]:
        """Keeps a stored chat line in the game's history and sends it to every connection."""
        row_seat, name, text, at, kind, detail = line
        msg = chat_message(message(idx, row_seat, name, text, at, kind, detail))
        if lg.chat is not None:
            lg.chat.append(msg)
            if len(lg.chat) > 1 and lg.chat[-2]["idx"] > idx:  # two lines crossed on the way
                lg.chat.sort(key=lambda m: int(m["idx"]))
            del lg.chat[:-HISTORY]
        sent = [{**before, "idx": idx, "at": at}] if before else []
        sent.append({"type": "chat", "game": lg.id, "message": msg})
        self._push(lg, sent)
        return msg

    def _push(self, lg: LiveGame, messages: list[dict[str, Any]]) -> None:
        """Sends messages to every connection of the game that said hello."""
        out = [json.dumps(m, separators=(",", ":")) for m in messages]
        for conn in lg.conns:
            if conn.hello:
                for text in out:
                    conn.push(text)

    def held_seat(self, lg: LiveGame, c: Connection, seat: int) -> int:
        """The seat, if this connection holds it (its token still valid)."""
        if lg.holds(c, seat):
            return seat
        c.seats.pop(seat, None)
        if not c.seats:
            raise ProtocolError("unauthorised", "this connection holds no seat token (spectator): "
                                                "take a seat first", "spectator")
        raise ProtocolError("forbidden", f"this connection holds no token for seat {seat}",
                            "no_token_for_seat", seat=seat)


__all__ = ["Connection", "Hub", "LiveGame", "Seat"]
