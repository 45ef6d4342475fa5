"""Seats: taking one, handing one to a bot (the player may take it back), and the rematch that
keeps every seat for the next game."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

from ...bots import BOTS
from .. import security
from ..mail import carry_over
from ..protocol import ProtocolError
from ..rates import Rates
from ..store import RematchTaken
from ..tables import player_name
from .games import GameCache
from .live import LiveGame, Seat
from .runtime import Runtime
from .talk import Talk
from .views import push
from .writer import Writer


class Seating:
    """Who holds each seat of the live games."""

    def __init__(self, rt: Runtime, games: GameCache, writer: Writer, talk: Talk,
                 rates: Rates) -> None:
        self.rt = rt
        self.rates = rates  # a rematch is a new game of the client asking (web/rates.py)
        self.games = games
        self.w = writer
        self.talk = talk

    async def take_seat(self, lg: LiveGame, seat: int | None, colour: str | None,
                        name: str) -> tuple[int, str]:
        name = player_name(name)

        async def attempt() -> tuple[int, str]:
            at = self._free_seat(lg, seat, colour)
            s = lg.seats[at]
            token = security.new_token()
            new = Seat(s.seat, s.gnomes, s.colours, "human", name, None, security.hash_token(token))
            await self.w.change_seat(lg, new)
            lg.gone_since[at] = time.monotonic()
            return at, token

        return await self.w.locked(lg, attempt)

    async def rename(self, lg: LiveGame, seat: int, name: str) -> None:
        """The seat's player takes another name (checked by the caller: the seat's own token);
        the chat says so."""
        name = player_name(name)

        async def attempt() -> str | None:
            if lg.status == "over":
                raise ProtocolError("game_over", "the game is over")
            s = lg.seats[seat]
            if s.kind != "human":
                raise ProtocolError("forbidden", f"seat {seat} is played by a bot now: take it "
                                                 "back first", "not_a_person", seat=seat)
            if s.name == name:
                return None
            await self.w.change_seat(lg, replace(s, name=name))
            return s.name or ""

        old = await self.w.locked(lg, attempt)
        if old is not None:
            await self.talk.note(lg, seat, "renamed", {"player": name, "old": old,
                                                       "colour": lg.seats[seat].colours[0]})

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
            raise ProtocolError("not_found", f"seat {seat} does not play {colour!r}")
        s = lg.seats[seat]
        if s.kind != "free":
            raise ProtocolError("seat_taken", f"seat {seat} ({s.colours[0]}) is already taken",
                                "taken", seat=seat)
        if lg.status == "over":
            raise ProtocolError("game_over", "the game is over")
        return seat

    async def hand_to_bot(self, lg: LiveGame, seat: int, bot: str, by: set[int],
                          creator: bool, auto: bool = False, missed: int = 0) -> None:
        """Gives a seat to a bot (``auto``: the server gives an absent player's, web/hub/away.py,
        or, ``missed``, one that let so many deadlines pass in a row, web/hub/deadline.py); the
        chat says so when it was a player's."""
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
            # Seating.reclaim)
            owner = s.token_hash if s.kind in ("human", "bot") else None
            new = Seat(s.seat, s.gnomes, s.colours, "bot", bot, bot, owner)
            if s.kind == "human" and s.name:  # the seats name the player (LiveGame.owners)
                lg.owners[seat] = s.name
            lg.bots.pop(seat, None)
            for c in lg.conns:
                c.seats.pop(seat, None)
            await self.w.change_seat(lg, new)
            return s

        old = await self.w.locked(lg, attempt)
        if old.kind == "human":
            detail = {"player": old.name or "", "colour": old.colours[0], "bot": bot,
                      "auto": auto}
            await self.talk.note(lg, seat, "to_bot", {**detail, "missed": missed} if missed
                                 else detail)

    def _check_gone(self, lg: LiveGame, seat: int) -> None:
        """Another's seat goes to a bot only once its player has been away for the grace, and
        never at a turn-based table: its players are away between moves, and missed deadlines
        decide when a bot takes a seat over (web/hub/deadline.py)."""
        if lg.settings.turn_based:
            raise ProtocolError("forbidden", f"seat {seat}'s player decides by the table's "
                                             "deadlines: only they can hand the seat to a bot",
                                "turn_based", seat=seat)
        if lg.connected(seat):
            raise ProtocolError("forbidden", f"seat {seat}'s player is connected: only they "
                                             "can hand the seat to a bot",
                                "player_connected", seat=seat)
        gone = time.monotonic() - lg.gone_since.get(seat, 0.0)
        if gone < lg.grace:
            wait = int(lg.grace - gone) + 1
            raise ProtocolError("forbidden", f"seat {seat}'s player left only recently: "
                                             f"try again in {wait} s",
                                "left_recently", seat=seat, seconds=wait)

    async def rematch(self, lg: LiveGame, by: set[int], creator: bool,
                      client: str) -> LiveGame:
        """A finished game's next one: the same configuration and seats (players keep their seat
        tokens, bots their strength; see :func:`rematch_seat`) with a new seed. One per game:
        asking again joins it. Starting it is a new game of ``client``'s (web/rates.py)."""
        if lg.status != "over":
            raise ProtocolError("forbidden", "a rematch can start once the game is over")
        if not by and not creator:
            raise ProtocolError("unauthorised", "only a seated player or the game's creator may "
                                                "start a rematch")
        async with lg.lock:
            if lg.rematch is not None:
                return await self.games.get(lg.rematch)
            c = lg.config
            await self.rt.db(self.rates.new_game, client, time.time())  # (not joining one)
            try:  # the database keeps one rematch per game, whichever process asks first
                new, _ = await self.w.create_game(c.players, c.gnomes_per_player, c.variants, None,
                                                lg.creator_hash, lg.settings.for_rematch(), lg.id,
                                                client)
            except RematchTaken as taken:
                if taken.game_id is None:  # pragma: no cover - the game row was deleted
                    raise ProtocolError("not_found", "this game is gone") from None
                lg.rematch = taken.game_id
                return await self._seated_rematch(lg, await self.games.get(taken.game_id))
            lg.rematch = new.id
            async with new.lock:
                for s in lg.seats:
                    seat = rematch_seat(s, lg.owners.get(s.seat))
                    if seat.kind == "human":  # on the way: their pages follow the rematch
                        new.gone_since[seat.seat] = time.monotonic()
                    await self.w.change_seat(new, seat)
            held = [s.seat for s in new.seats if s.kind == "human"]
            await self.rt.db(carry_over, self.rt.store.engine, lg.id, new.id, held)
        push(lg, [{"type": "rematch", "game": lg.id, "next": new.id}])
        if self.rt.nodes.shared:  # once its seats are copied: the players' tokens hold them there
            await self.rt.db(self.rt.store.notify, {"g": lg.id, "r": new.id})
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
                await self.w.refresh(new)
        return new

    async def reclaim(self, lg: LiveGame, seat: int, token: str, name: str | None = None) -> None:
        """The seat's player takes their seat back from the bot it was handed to, with the token
        they took it with. The bot's pending move (if it is thinking) is dropped: the player
        makes the seat's next decision."""
        lg.check_seat(seat)
        # no name given: the one the seat had before it went to the bot (LiveGame.owners)
        name = lg.owners.get(seat) if name is None else player_name(name)

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
            await self.w.change_seat(lg, Seat(s.seat, s.gnomes, s.colours, "human", who, None,
                                             s.token_hash))
            lg.bots.pop(seat, None)
            lg.gone_since[seat] = time.monotonic()

        await self.w.locked(lg, attempt)
        s = lg.seats[seat]
        await self.talk.note(lg, seat, "back", {"player": s.name or "", "colour": s.colours[0]})


def rematch_seat(s: Seat, owner: str | None = None) -> Seat:
    """A seat as the rematch starts it. A seat handed to a bot by or for its player (who could
    take it back: its token's hash stayed) is the player's again: the group asked for the next
    game to play it, and a table of bots would otherwise start and play on before anyone could
    take a seat back. A player who does not come is an absent player like any other (the chat
    says so; under the table's ``away_bot`` a bot takes the seat: web/hub/away.py). The seat
    bears its player's name (``owner``: ``LiveGame.owners``), not the bot's."""
    if s.kind == "bot" and s.token_hash is not None:
        return Seat(s.seat, s.gnomes, s.colours, "human", owner, None, s.token_hash)
    return Seat(s.seat, s.gnomes, s.colours, s.kind, s.name, s.bot, s.token_hash)


__all__ = ["Seating", "rematch_seat"]
