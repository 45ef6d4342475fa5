"""Live games: the engine state of every game in play, its seats and connections, the fan-out of
per-seat views after every change, and the server-side bot seats.

Everything that changes a game runs synchronously on the event loop (no ``await`` between the
checks, the database write and the broadcast), so two requests can never interleave. Only a bot's
thinking runs in a worker thread, on a copy of the game; its move is applied only if the game has
not changed meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..bots import BOTS, Bot, make_bot
from ..rules import Action, ActionError, Config, ConfigError, Game, GameData, new_game, parse_action
from ..rules.hidden import can_undo
from ..rules.hidden import undo as engine_undo
from ..rules.serialize import SaveError, replay
from ..rules.view import log_for
from . import security
from .chat import (
    HISTORY,
    RateLimit,
    clean,
    message,
    ping_target,
    ping_text,
    undo_detail,
    undo_text,
)
from .limits import Window
from .protocol import ProtocolError, action_info, jsonable, result_info, suggestions
from .store import GameRecord, SeatRow, StaleWrite, Store
from .tables import (
    DEFAULT_WAITING_EXPIRY,
    MIN_TURN_TIMER,
    Tables,
    TableSettings,
    chat_message,
    timeout_row_seat,
)

log = logging.getLogger("rednovember.web")

OUTBOX_LIMIT = 256  # unsent messages per connection before it is dropped (close 4008)


@dataclass
class Seat:
    seat: int
    gnomes: list[int]
    colours: list[str]
    kind: str = "free"  # free / human / bot
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None

    def row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.name, self.bot, self.token_hash)


class Connection:
    """One WebSocket (one browser tab): the seats it holds and its queue of outgoing messages."""

    def __init__(self, send: Callable[[str], Awaitable[None]]) -> None:
        self._send = send  # the WebSocket's send_text
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.seats: dict[int, str] = {}  # seat -> token hash it was authenticated with
        self.creator = False
        self.hello = False
        self.log_sent: dict[int | None, int] = {}
        self.close_code: int | None = None
        self.chat_limit = RateLimit()
        self.limit = Window(0, 10.0, "messages")  # all its messages (set by the server)
        self.ping_limit = RateLimit(name="ping")

    @property
    def views(self) -> list[int | None]:
        if not self.seats:
            return [None]
        return [*sorted(self.seats)]

    def push(self, text: str) -> None:
        if self.close_code is not None:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.close_code = 4008  # too slow: drop what is queued and close (it may reconnect)
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(text)

    def push_obj(self, obj: dict[str, Any]) -> None:
        self.push(json.dumps(obj, separators=(",", ":")))

    async def writer(self) -> None:
        while True:
            item = await self.outbox.get()
            if item is None:
                return
            await self._send(item)


@dataclass
class LiveGame:
    id: str
    config: Config
    game: Game
    seats: list[Seat]
    version: int
    status: str
    created: float
    creator_hash: str
    actors: list[int] = field(default_factory=list)  # the seat that made each action
    conns: set[Connection] = field(default_factory=set)
    bots: dict[int, tuple[str, Bot]] = field(default_factory=dict)  # seat -> (name, bot)
    gone_since: dict[int, float] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    chat: list[dict[str, Any]] | None = None  # the last chat messages, loaded when first asked
    rematch: str | None = None  # the id of the game that follows this one (same seats)
    settings: TableSettings = field(default_factory=TableSettings)  # listed, turn timer
    changed_at: float = 0.0  # time.time() of the last change (the turn timer counts from it)
    clock_version: int = -1  # the version changed_at belongs to

    def connected(self, seat: int) -> bool:
        s = self.seats[seat]
        if s.kind == "bot":
            return True
        return any(seat in c.seats for c in self.conns)

    def holds(self, c: Connection, seat: int) -> bool:
        """Whether the connection holds the seat with the seat's current (human) token."""
        s = self.seats[seat] if 0 <= seat < len(self.seats) else None
        return s is not None and s.kind == "human" and c.seats.get(seat) == s.token_hash

    def held_seats(self, c: Connection) -> set[int]:
        """The seats this connection holds with their current tokens."""
        return {seat for seat in list(c.seats) if self.holds(c, seat)}

    def owned_bot_seat(self, token: str | None) -> int | None:
        """The bot seat this token's player handed over (or lost) to a bot, if any."""
        if not token or not security.plausible_token(token):
            return None
        digest = security.hash_token(token)
        for s in self.seats:
            if s.kind == "bot" and s.token_hash == digest:
                return s.seat
        return None

    def seat_for_token(self, token: str | None) -> int | None:
        if not token or not security.plausible_token(token):
            return None
        digest = security.hash_token(token)
        for s in self.seats:
            if s.kind == "human" and s.token_hash == digest:
                return s.seat
        return None

    def is_creator(self, token: str | None) -> bool:
        return bool(token) and security.matches(token or "", self.creator_hash)


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Hub:
    """All live games of this server process."""

    def __init__(self, store: Store, data: GameData, bot_delay: float = 0.6,
                 takeover_grace: float = 30.0, waiting_expiry: float = DEFAULT_WAITING_EXPIRY,
                 min_turn_timer: float = MIN_TURN_TIMER) -> None:
        self.store = store
        self.data = data
        self.bot_delay = bot_delay
        self.takeover_grace = takeover_grace
        self.games: dict[str, LiveGame] = {}
        self.broken: dict[str, str] = {}
        self._closing = False
        self.tables = Tables(self, waiting_expiry, min_turn_timer)

    @property
    def closing(self) -> bool:
        return self._closing

    # --- life cycle -------------------------------------------------------------------------------
    async def start(self) -> None:
        """Delete the expired waiting tables (and keep doing so). Nothing is rebuilt up front: a
        game is rebuilt from its stored seed and actions when first asked for (``find``), and its
        bots and clock resume then, so the server starts in bounded time however many games the
        database holds (issue 9)."""
        self.tables.start()

    async def stop(self) -> None:
        self._closing = True
        await self.tables.stop()
        tasks = [lg.bot_task for lg in self.games.values() if lg.bot_task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t

    def _load(self, gid: str) -> LiveGame | None:
        rec = self.store.load_game(gid)
        if rec is None:
            return None
        try:
            lg = self._rebuild(rec)
        except (SaveError, ConfigError, ActionError, ValueError) as exc:
            log.error("game %s cannot be rebuilt: %s", gid, exc)
            self.broken[gid] = str(exc)
            return None
        self.games[gid] = lg
        self.kick(lg)  # a bot to move resumes as soon as the game is back in memory
        return lg

    def _rebuild(self, rec: GameRecord) -> LiveGame:
        config = Config.from_dict(rec.config)
        game = replay(self.data, config, None, rec.actions)
        seats = self._empty_seats(game)
        for row in rec.seats:
            if 0 <= row.seat < len(seats):
                s = seats[row.seat]
                s.kind, s.name, s.bot, s.token_hash = row.kind, row.name, row.bot, row.token_hash
        status = "over" if game.is_over else rec.status
        lg = LiveGame(rec.id, config, game, seats, rec.version, status, rec.created,
                      rec.creator_hash, list(rec.actors))
        now = time.monotonic()
        lg.gone_since = {s.seat: now for s in seats if s.kind == "human"}
        lg.settings = TableSettings.from_stored(rec.listed, rec.settings)
        lg.changed_at, lg.clock_version = rec.updated, rec.version
        return lg

    @staticmethod
    def _empty_seats(game: Game) -> list[Seat]:
        seats = []
        for p in range(game.config.players):
            numbers = game.gnomes_of(p)
            seats.append(Seat(p, numbers, [game.gnomes[n].colour for n in numbers]))
        return seats

    def find(self, game_id: str) -> LiveGame | None:
        if not security.valid_game_id(game_id):
            return None
        lg = self.games.get(game_id)
        if lg is None and game_id not in self.broken:
            lg = self._load(game_id)
        return lg

    def get(self, game_id: str) -> LiveGame:
        lg = self.find(game_id)
        if lg is None:
            if game_id in self.broken:
                raise ProtocolError("internal", "this game's stored record cannot be rebuilt")
            raise ProtocolError("not_found", "no such game")
        return lg

    # --- creating and seating ------------------------------------------------------------------------
    def create_game(self, players: int, gnomes_per_player: int | None, variants: Iterable[str],
                    seed: int | None, creator_hash: str | None = None,
                    settings: TableSettings | None = None) -> tuple[LiveGame, str]:
        """A new game waiting for its seats; returns it with its creator token (with
        ``creator_hash``, a rematch keeps the first game's creator and the token is unused)."""
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
        self.store.create_game(gid, config.to_dict(), lg.creator_hash, config.players,
                               lg.settings.listed, lg.settings.stored())
        self.games[gid] = lg
        return lg, token

    def take_seat(self, lg: LiveGame, seat: int | None, colour: str | None,
                  name: str) -> tuple[int, str]:
        if seat is None and colour is None:
            raise ProtocolError("bad_message", "give the 'seat' or the 'colour' to take")
        if seat is None:
            found = [s.seat for s in lg.seats if colour in s.colours]
            if not found:
                raise ProtocolError("not_found", f"no seat plays the colour {colour!r} in this game")
            seat = found[0]
        if not 0 <= seat < len(lg.seats):
            raise ProtocolError("not_found", f"no seat {seat}: this game has {len(lg.seats)}",
                                "no_seat", seat=seat, count=len(lg.seats))
        if colour is not None and colour not in lg.seats[seat].colours:
            raise ProtocolError("bad_message", f"seat {seat} does not play {colour!r}")
        s = lg.seats[seat]
        if s.kind != "free":
            raise ProtocolError("seat_taken", f"seat {seat} ({s.colours[0]}) is already taken",
                                "taken", seat=seat)
        if lg.status == "over":
            raise ProtocolError("game_over", "the game is over")
        token = security.new_token()
        new = Seat(s.seat, s.gnomes, s.colours, "human", name, None, security.hash_token(token))
        self._change_seat(lg, new)
        lg.gone_since[seat] = time.monotonic()
        return seat, token

    def hand_to_bot(self, lg: LiveGame, seat: int, bot: str, by: set[int], creator: bool) -> None:
        if bot not in BOTS:
            raise ProtocolError("unknown_bot", f"unknown bot {bot!r}; known: {', '.join(sorted(BOTS))}")
        if not 0 <= seat < len(lg.seats):
            raise ProtocolError("not_found", f"no seat {seat}: this game has {len(lg.seats)}",
                                "no_seat", seat=seat, count=len(lg.seats))
        if not by and not creator:
            raise ProtocolError("unauthorised", "only the game's creator or a seated player may "
                                                "hand a seat to a bot")
        if lg.status == "over":
            raise ProtocolError("game_over", "the game is over")
        s = lg.seats[seat]
        if s.kind == "human" and seat not in by:
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
        # the seat's player keeps the right to take it back (their token's hash stays: Hub.reclaim)
        owner = s.token_hash if s.kind in ("human", "bot") else None
        new = Seat(s.seat, s.gnomes, s.colours, "bot", bot, bot, owner)
        lg.bots.pop(seat, None)
        for c in lg.conns:
            c.seats.pop(seat, None)
        self._change_seat(lg, new)

    def rematch(self, lg: LiveGame, by: set[int], creator: bool) -> LiveGame:
        """A finished game's next one: the same configuration and seats (players keep their seat
        tokens, bots their strength) with a new seed. One per game: asking again joins it."""
        if lg.status != "over":
            raise ProtocolError("forbidden", "a rematch can start once the game is over")
        if not by and not creator:
            raise ProtocolError("unauthorised", "only a seated player or the game's creator may "
                                                "start a rematch")
        if lg.rematch is not None:
            return self.get(lg.rematch)
        c = lg.config
        new, _ = self.create_game(c.players, c.gnomes_per_player, c.variants, None, lg.creator_hash,
                                  lg.settings)
        lg.rematch = new.id
        for s in lg.seats:
            self._change_seat(new, Seat(s.seat, s.gnomes, s.colours, s.kind, s.name, s.bot,
                                        s.token_hash))
        out = json.dumps({"type": "rematch", "game": lg.id, "next": new.id}, separators=(",", ":"))
        for conn in lg.conns:
            if conn.hello:
                conn.push(out)
        return new

    def reclaim(self, lg: LiveGame, seat: int, token: str, name: str | None = None) -> None:
        """The seat's player takes their seat back from the bot it was handed to, with the token
        they took it with. The bot's pending move (if it is thinking) is dropped: the player
        makes the seat's next decision."""
        if not 0 <= seat < len(lg.seats):
            raise ProtocolError("not_found", f"no seat {seat}: this game has {len(lg.seats)}",
                                "no_seat", seat=seat, count=len(lg.seats))
        if lg.status == "over":
            raise ProtocolError("game_over", "the game is over")
        s = lg.seats[seat]
        if s.kind != "bot":
            raise ProtocolError("forbidden", f"seat {seat} is not played by a bot: nothing to "
                                             "take back", detail="not_a_bot", seat=seat)
        if lg.owned_bot_seat(token) != seat:
            raise ProtocolError("unauthorised", f"this token is not the one of seat {seat}'s "
                                                "player", detail="not_the_owner", seat=seat)
        who = name or f"Player {seat + 1}"
        self._change_seat(lg, Seat(s.seat, s.gnomes, s.colours, "human", who, None, s.token_hash))
        lg.bots.pop(seat, None)
        lg.gone_since[seat] = time.monotonic()

    def _change_seat(self, lg: LiveGame, new: Seat) -> None:
        status = lg.status
        seats = lg.seats[:]
        seats[new.seat] = new
        if status == "waiting" and all(s.kind != "free" for s in seats):
            status = "playing"
        with self._guard(lg, "seat change"):
            self.store.set_seat(lg.id, new.row(), lg.version + 1, status)
        lg.seats = seats
        lg.version += 1
        lg.status = status
        self.broadcast(lg, len(lg.game.log))
        self.kick(lg)

    @contextlib.contextmanager
    def _guard(self, lg: LiveGame, what: str) -> Iterator[None]:
        """A store write of ``lg``: a stale copy (another process wrote first) is reloaded and
        the change refused as ``stale``; any other failure is ``internal``. Nothing changed."""
        try:
            yield
        except StaleWrite:
            held = lg.version
            log.warning("game %s changed elsewhere; reloading it (a %s was refused)", lg.id, what)
            self._refresh(lg)
            raise ProtocolError("stale", f"the game was changed elsewhere (version {lg.version}, "
                                         f"not {held}): look again",
                                "version", version=lg.version, sent=held) from None
        except Exception:
            log.exception("storing a %s of game %s failed", what, lg.id)
            raise ProtocolError("internal", f"the {what} could not be stored; nothing changed") \
                from None

    def _refresh(self, lg: LiveGame) -> None:
        """Bring ``lg`` to what the database holds, and show it to its connections."""
        rec = self.store.load_game(lg.id)
        if rec is None:
            return
        fresh = self._rebuild(rec)
        lg.game, lg.seats, lg.version, lg.status = fresh.game, fresh.seats, fresh.version, fresh.status
        lg.actors = fresh.actors
        lg.bots.clear()
        for c in list(lg.conns):
            if c.hello:
                self.send_states(lg, c)
        self.kick(lg)

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

    def act(self, lg: LiveGame, seat: int, text: str, version: int | None = None) -> None:
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
        self._apply(lg, seat, action)  # an illegal action is refused with the engine's reason

    def _apply(self, lg: LiveGame, seat: int, action: Action) -> None:
        g = lg.game
        new = g.copy()
        try:
            new.apply(action)
        except ActionError as exc:
            raise ProtocolError("illegal", str(exc)) from None
        status = "over" if new.is_over else lg.status
        result = None if new.result is None else {"won": new.result.won, "cause": new.result.cause}
        with self._guard(lg, "action"):
            self.store.append_action(lg.id, len(g.history), action.text(g.data), seat,
                                     lg.version + 1, status, result)
        lg.game = new
        lg.actors.append(seat)
        lg.version += 1
        lg.status = status
        self.broadcast(lg, len(g.log))
        self.kick(lg)

    def apply_for(self, lg: LiveGame, seat: int, action: Action) -> None:
        """Applies an action the server chose for a seat (the turn timer ran out)."""
        self._apply(lg, seat, action)

    def undo(self, lg: LiveGame, seat: int, version: int | None = None) -> None:
        self._check_turn(lg, seat, version)
        g = lg.game
        if not lg.actors or not g.history:
            raise ProtocolError("cannot_undo", "there is nothing to undo", "nothing")
        if lg.actors[-1] != seat:
            raise ProtocolError("cannot_undo", "only the seat that made the last action may take "
                                               "it back", "not_yours")
        if not can_undo(g):
            raise ProtocolError("cannot_undo", "the last action cannot be taken back: it revealed "
                                               "information, rolled a die, drew a card, involved "
                                               "another player or ended the turn",
                                "hidden_information")
        new = engine_undo(g)
        with self._guard(lg, "undo"):
            self.store.drop_last_action(lg.id, len(g.history) - 1, lg.version + 1, lg.status)
        stable = 0
        for a, b in zip(g.log, new.log, strict=False):
            if a != b:
                break
            stable += 1
        lg.game = new
        lg.actors.pop()
        lg.version += 1
        lg.clock_version = lg.version  # the turn timer goes on: an undo buys no time
        self.broadcast(lg, stable)
        self.kick(lg)
        try:  # said in the table talk: the others' logs just shrink
            detail = undo_detail(g, stable)
            self.post(lg, seat, undo_text(detail), "undo", detail)
        except Exception:  # the undo itself is done and stored: only its chat line is lost
            log.exception("storing the undo line of game %s failed", lg.id)

    # --- bots -------------------------------------------------------------------------------------
    def kick(self, lg: LiveGame) -> None:
        """Start the game's bot task when a bot seat must decide (and its turn clock)."""
        self.tables.schedule(lg)
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
        while not self._closing and lg.status == "playing":
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
            twin = lg.game.copy()
            try:
                action = await asyncio.to_thread(bot.choose, twin)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot %s failed in game %s; playing its first legal action",
                              bot.name, lg.id)
                action = lg.game.legal_actions()[0]
            if lg.version != version or self._closing:
                continue  # the game changed while the bot was thinking
            try:
                self._apply(lg, seat, action)
            except ProtocolError as exc:
                log.error("bot %s move %s refused in game %s: %s", bot.name, action, lg.id,
                          exc.message)
                if exc.code == "internal":
                    await asyncio.sleep(1.0)
                elif exc.code != "stale":  # stale: the game was reloaded, look again
                    self._apply(lg, seat, lg.game.legal_actions()[0])
            if self.bot_delay <= 0:
                await asyncio.sleep(0)

    # --- what clients see -------------------------------------------------------------------------
    def summary(self, lg: LiveGame) -> dict[str, Any]:
        g = lg.game
        return {
            "id": lg.id, "link": f"/g/{lg.id}", "config": lg.config.to_dict(),
            "status": lg.status, "version": lg.version, "created": _iso(lg.created),
            "turn": g.turn, "to_move": -1 if lg.status == "over" else g.player_to_move,
            "result": result_info(g), "seats": self.seats_info(lg),
            "settings": lg.settings.to_dict(), "clock": self.tables.clock(lg),
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
            "clock": self.tables.clock(lg),
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
        """Tell everyone who is connected (no change of the game itself)."""
        msg = json.dumps({"type": "seats", "game": lg.id, "version": lg.version,
                          "seats": self.seats_info(lg)}, separators=(",", ":"))
        for c in lg.conns:
            if c.hello:
                c.push(msg)

    # --- connections ------------------------------------------------------------------------------
    def hello(self, lg: LiveGame, c: Connection, tokens: tuple[str, ...],
              creator: str | None) -> list[int]:
        """Authenticate a connection's tokens; returns the indices of rejected tokens."""
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
        self.tables.touch(lg)
        now = time.monotonic()
        for seat in before - set(c.seats):
            if not lg.connected(seat):
                lg.gone_since[seat] = now
        c.push_obj({"type": "welcome", "protocol": 1, "game": self.summary(lg),
                    "seats": sorted(c.seats), "spectator": not c.seats, "creator": c.creator,
                    "rejected": rejected, "chat": self.chat_history(lg),
                    "reclaimable": reclaimable})
        self.send_states(lg, c)
        if set(c.seats) != before:
            self.presence(lg)
        return rejected

    def release(self, lg: LiveGame) -> None:
        """Forget a finished game nobody watches (it is rebuilt from the database when asked)."""
        if lg.status == "over" and not lg.conns and self.games.get(lg.id) is lg:
            del self.games[lg.id]

    def detach(self, lg: LiveGame, c: Connection) -> None:
        lg.conns.discard(c)
        self.tables.touch(lg)
        self.release(lg)
        now = time.monotonic()
        changed = False
        for seat in c.seats:
            if not lg.connected(seat):
                lg.gone_since[seat] = now
                changed = True
        if changed:
            self.presence(lg)

    # --- table talk ---------------------------------------------------------------------------------
    def chat_history(self, lg: LiveGame) -> list[dict[str, Any]]:
        if lg.chat is None:
            lg.chat = [chat_message(m) for m in self.store.load_chat(lg.id, HISTORY)]
        return lg.chat

    def chat(self, lg: LiveGame, c: Connection, seat: int, text: str) -> None:
        """A seated player's message to the table (spectators read only), stored and pushed."""
        seat = self.held_seat(lg, c, seat)
        body = clean(text)
        c.chat_limit.check()
        self.post(lg, seat, body, None, None)

    def ping(self, lg: LiveGame, c: Connection, seat: int, target: tuple[str, int | str],
             what: str) -> None:
        """A seated player marks a room, hatch, time-track space or token for everyone: every
        connection gets a ``ping`` (the board marker, for live viewers only) and the chat line,
        which is stored like a message."""
        seat = self.held_seat(lg, c, seat)
        kind, ident = target
        ping_target(self.data, kind, ident)
        c.ping_limit.check()
        detail = {"target": {"kind": kind, "id": ident}, "what": what}
        self.post(lg, seat, ping_text(lg.game, kind, ident, what), "ping", detail,
                  {"type": "ping", "game": lg.id, "seat": seat, "name": lg.seats[seat].name,
                   "target": detail["target"], "what": what})

    def post(self, lg: LiveGame, seat: int, text: str, kind: str | None,
             detail: dict[str, Any] | None, before: dict[str, Any] | None = None) -> dict[str, Any]:
        """Stores a seat's chat line and sends it to every connection (after ``before``)."""
        return self._add_line(lg, seat, lg.seats[seat].name, text, kind, detail, before)

    def note_timeout(self, lg: LiveGame, seat: int) -> None:
        """Tells the table (a chat note, stored) that the server decides for a seat out of time."""
        self._add_line(lg, timeout_row_seat(seat), None,
                       f"Time ran out: the server decides for seat {seat}.", None, None)

    def _add_line(self, lg: LiveGame, row_seat: int, name: str | None, text: str,
                  kind: str | None, detail: dict[str, Any] | None,
                  before: dict[str, Any] | None = None) -> dict[str, Any]:
        history = self.chat_history(lg)
        idx = history[-1]["idx"] + 1 if history else 0
        now = time.time()
        self.store.add_chat(lg.id, idx, row_seat, name, text, now, kind, detail)
        msg = chat_message(message(idx, row_seat, name, text, now, kind, detail))
        history.append(msg)
        del history[:-HISTORY]
        sent = [{**before, "idx": idx, "at": now}] if before else []
        sent.append({"type": "chat", "game": lg.id, "message": msg})
        out = [json.dumps(m, separators=(",", ":")) for m in sent]
        for conn in lg.conns:
            if conn.hello:
                for text_out in out:
                    conn.push(text_out)
        return msg

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
