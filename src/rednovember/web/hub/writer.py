"""The writer: every change of a live game (an action, an undo, a seat's new holder, a new
game) is checked, written to the database as a compare-and-set on the game's version (which also
notifies the other processes, web/hub/cluster.py), then made to this copy and shown to its
connections. A change holds the game's lock (``LiveGame.lock``) from its checks through the write
to the broadcast, so two changes of one game never interleave while other games go on.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

from ...rules import Action, ActionError, Config, ConfigError, Game, new_game, parse_action
from ...rules.hidden import can_undo
from ...rules.hidden import undo as engine_undo
from .. import security
from ..chat import undo_detail, undo_text
from ..protocol import ProtocolError
from ..store import GameRecord, RematchTaken, StaleWrite
from ..tables import TableSettings
from .absence import seen
from .clock import mark, restore
from .games import empty_seats, rebuild, seats_of
from .live import LiveGame, Seat
from .runtime import Runtime
from .standins import actor_code, drop_action, note_action
from .talk import Talk
from .views import broadcast, common_prefix

log = logging.getLogger("rednovember.web")
UNDO_BURST, UNDO_WINDOW = 20, 60.0  # undos a seat may make per minute (a chat line each)

T = TypeVar("T")
UNDO_CLOCKS = 64  # the turn timer's starts kept for undos (a turn is never that many actions)


class Reloaded(ProtocolError):
    """A change refused because this copy of the game was behind the database (it has been
    reloaded since): worth one more try."""


class Writer:
    """Makes and stores the changes of the live games; ``on_change`` hears of each one (the
    driver starts a bot or a clock)."""

    def __init__(self, rt: Runtime, talk: Talk, on_change: Callable[[LiveGame], None]) -> None:
        self.rt = rt
        self.talk = talk
        self.on_change = on_change

    async def create_game(self, players: int, gnomes_per_player: int | None,
                          variants: Iterable[str], seed: int | None,
                          creator_hash: str | None = None,
                          settings: TableSettings | None = None,
                          rematch_of: str | None = None,
                          client: str | None = None) -> tuple[LiveGame, str]:
        """A new game waiting for its seats; returns it with its creator token (with
        ``creator_hash``, a rematch keeps the first game's creator and the token is unused;
        ``rematch_of``: RematchTaken if that game has its rematch already)."""
        if seed is None:
            seed = secrets.randbits(48)
        try:
            config = Config(players, gnomes_per_player, frozenset(variants), seed)
        except ConfigError as exc:
            raise ProtocolError("bad_config", str(exc)) from None
        game = new_game(config, self.rt.data)
        gid = security.new_game_id()
        while gid in self.rt.games:  # pragma: no cover - 72 random bits
            gid = security.new_game_id()
        token = security.new_token()
        lg = LiveGame(gid, config, game, empty_seats(game), 0, "waiting", time.time(),
                      creator_hash or security.hash_token(token))
        lg.settings = settings or TableSettings()
        lg.grace, lg.clock = self.rt.takeover_grace, self.rt.clock
        lg.client = client or ""
        try:
            await self.rt.db(self.rt.store.create_game, gid, config.to_dict(), lg.creator_hash,
                          config.players, lg.settings.listed, lg.settings.stored(), rematch_of,
                          client)
        except RematchTaken:
            raise
        except Exception:
            log.exception("storing a new game failed")
            raise ProtocolError("internal", "the game could not be stored; nothing changed") \
                from None
        self.rt.games[gid] = lg
        await self.rt.nodes.own(gid)
        return lg, token

    async def change_seat(self, lg: LiveGame, new: Seat) -> None:
        """Stores a seat's new holder (the game's lock held) and shows it to everyone."""
        status = lg.status
        seats = lg.seats[:]
        seats[new.seat] = new
        if status == "waiting" and all(s.kind != "free" for s in seats):
            status = "playing"
        await self.write(lg, "seat change", self.rt.store.set_seat, lg.id, new.row(),
                          lg.version + 1, status)
        lg.seats = seats
        lg.version += 1
        lg.status = status
        broadcast(lg, len(lg.game.log))
        self.on_change(lg)

    async def locked(self, lg: LiveGame, attempt: Callable[[], Awaitable[T]],
                      version: int | None = None) -> T:
        """Runs a change of ``lg`` under its lock. If this copy turns out to be behind (another
        process wrote first), it is reloaded and the change judged once more on the fresh game:
        a player is refused as ``stale`` only for a version they really did not see."""
        async with lg.lock:
            if version is not None and version > lg.version:
                await self.refresh(lg)  # the player saw a change this copy has not heard of
            try:
                return await attempt()
            except Reloaded:
                return await attempt()

    async def write(self, lg: LiveGame, what: str, fn: Callable[..., None], *args: Any) -> None:
        """A store write of ``lg`` (its lock held). A stale copy (another process wrote first)
        is reloaded and the change refused as ``stale`` (``_locked`` judges it once more); any
        other failure is ``internal``. Either way nothing changed."""
        held = lg.version
        try:
            await self.rt.db(fn, *args)
        except StaleWrite:
            await self.refresh(lg)
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

    async def refresh(self, lg: LiveGame) -> None:
        """Bring ``lg`` (its lock held) to what the database holds, and show it to its
        connections: the new actions are applied to this copy (a full rebuild after an undo)."""
        rec = await self.rt.db(self.rt.store.load_game, lg.id)
        if rec is None:
            return
        old_log = lg.game.log
        game = self._caught_up(lg, rec)
        if game is None:
            game = (await self.rt.db(rebuild, self.rt.data, rec)).game
        seats = seats_of(rec, game)
        now = time.monotonic()
        for s in seats:
            if s.kind == "human" and lg.seats[s.seat].kind != "human":
                lg.gone_since[s.seat] = now
        lg.game, lg.seats, lg.version = game, seats, rec.version
        lg.status = "over" if game.is_over else rec.status
        for code in rec.actors[len(lg.actors):]:  # a player's own moves (not a stand-in's)
            seen(lg, code)
        lg.actors, lg.texts = list(rec.actors), list(rec.actions)
        lg.changed_at, lg.clock_version = rec.updated, rec.version
        lg.owners = dict(rec.owners)
        lg.log_marks = None  # (found again when asked: hub/standins.py)
        restore(lg, rec.deadline)
        lg.bots.clear()
        broadcast(lg, common_prefix(old_log, game.log))
        self.on_change(lg)

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
                game.apply(parse_action(text, self.rt.data))
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
            await self.apply(lg, seat, action)  # an illegal one is refused with the reason

        await self.locked(lg, attempt, version)

    async def apply(self, lg: LiveGame, seat: int, action: Action, by_player: bool = True) -> None:
        """Applies, stores and shows a seat's action (the game's lock held), made by its player
        or (``by_player`` false) by a stand-in: a bot, the turn timer, a deadline."""
        g = lg.game
        new = g.copy()
        try:
            new.apply(action)
        except ActionError as exc:
            raise ProtocolError("illegal", str(exc)) from None
        status = "over" if new.is_over else lg.status
        result = None if new.result is None else {"won": new.result.won, "cause": new.result.cause}
        text = action.text(g.data)
        actor = actor_code(seat, by_player)
        await self.write(lg, "action", self.rt.store.append_action, lg.id, len(g.history), text,
                          actor, lg.version + 1, status, result)
        note_action(lg, len(g.log))
        mark(lg)  # (the clock of the position this action leaves, for an undo)
        lg.clock_before = [*lg.clock_before[-UNDO_CLOCKS + 1:], lg.changed_at]
        lg.game = new
        lg.actors.append(actor)
        lg.texts.append(text)
        lg.version += 1
        lg.status = status
        if by_player:
            seen(lg, seat)
        broadcast(lg, len(g.log))
        self.on_change(lg)

    async def apply_for(self, lg: LiveGame, seat: int, action: Action, version: int) -> bool:
        """Applies an action the server chose for a seat (the turn timer ran out) if the game is
        still at ``version``; whether it was."""
        async with lg.lock:
            if lg.version != version or lg.status != "playing":
                return False
            await self.apply(lg, seat, action, by_player=False)
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
            await self.write(lg, "undo", self.rt.store.drop_last_action, lg.id,
                              len(g.history) - 1, lg.version + 1, lg.status)
            stable = common_prefix(g.log, new.log)
            lg.game = new
            drop_action(lg)
            lg.actors.pop()
            lg.texts.pop()
            lg.version += 1
            # the turn timer goes back to when the restored position began: a move resets the
            # clock, and its undo must not keep that fresh clock (an undo buys no time)
            if lg.clock_before:
                lg.changed_at = lg.clock_before.pop()
            lg.clock_version = lg.version
            seen(lg, seat)
            broadcast(lg, stable)
            self.on_change(lg)
            return g, stable

        # each undo is a line in everyone's table talk: a seat's are limited like its chat lines
        lg.seat_limit("undo", seat, UNDO_BURST, UNDO_WINDOW).check()
        g, stable = await self.locked(lg, attempt, version)
        try:  # said in the table talk: the others' logs just shrink
            detail = undo_detail(g, stable)
            await self.talk.post(lg, seat, undo_text(detail), "undo", detail)
        except Exception:  # the undo itself is done and stored: only its chat line is lost
            log.exception("storing the undo line of game %s failed", lg.id)


__all__ = ["Reloaded", "Writer"]
