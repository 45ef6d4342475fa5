"""The fan-out: what each connection of a live game sees (its seats' states, the summary, who is
connected) and the sending of it after every change."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ...rules.hidden import can_undo
from ...rules.view import log_for
from ..protocol import action_info, jsonable, result_info, suggestions
from .absence import away_info, handover_in
from .clock import clock_info, deadline_info
from .live import Connection, LiveGame
from .standins import standin_entries


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def common_prefix(a: list[Any], b: list[Any]) -> int:
    """How many first entries two logs share (what a connection need not be sent again)."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def public_config(lg: LiveGame) -> dict[str, Any]:
    """The game's configuration as anyone may see it: the seed only once the game is over. With
    the seed and the public moves anyone could rebuild the game, hence every hand Mad Gnomes
    hides and the order of both decks (the reason a running game's save is not exported)."""
    config = lg.config.to_dict()
    if lg.status != "over":
        config["seed"] = None
    return config


def summary(lg: LiveGame) -> dict[str, Any]:
    g = lg.game
    return {
        "id": lg.id, "link": f"/g/{lg.id}", "config": public_config(lg),
        "status": lg.status, "version": lg.version, "created": _iso(lg.created),
        "turn": g.turn, "to_move": -1 if lg.status == "over" else g.player_to_move,
        "result": result_info(g), "seats": seats_info(lg),
        "settings": lg.settings.to_dict(), "clock": clock_info(lg), "away": away_info(lg),
        "deadline": deadline_info(lg), "rematch": lg.rematch,
    }


def seats_info(lg: LiveGame) -> list[dict[str, Any]]:
    return [{"seat": s.seat, "colour": s.colours[0], "colours": s.colours,
             "gnomes": s.gnomes, "kind": s.kind, "name": s.name, "bot": s.bot,
             "owner": owner(lg, s.seat), "connected": s.kind != "free" and lg.connected(s.seat),
             "handover_in": handover_in(lg, s.seat)}
            for s in lg.seats]


def owner(lg: LiveGame, seat: int) -> str | None:
    """The name of the player a bot plays the seat for, who may take it back (None: the seat
    is not such a bot's, or its player had no name)."""
    s = lg.seats[seat]
    return lg.owners.get(seat) if s.kind == "bot" and s.token_hash is not None else None


def state(lg: LiveGame, seat: int | None, log_start: int = 0,
          seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """What one seat (None: a spectator) sees of the game, its log from ``log_start`` on."""
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
        "standins": [] if seat is None else standin_entries(lg, seat),
        "result": result_info(g),
        "seats": seats_info(lg) if seats is None else seats,
        "clock": clock_info(lg), "away": away_info(lg), "deadline": deadline_info(lg),
    }


def broadcast(lg: LiveGame, stable: int) -> None:
    """Send every connection the new state of each seat it holds (spectators: one); the log
    from the first entry that changed (``stable``: how many stayed)."""
    if not lg.conns:
        return
    seats = seats_info(lg)
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
                text = json.dumps(state(lg, seat, start, seats), separators=(",", ":"))
                cache[key] = text
            c.log_sent[seat] = end
            c.push(text)


def send_states(lg: LiveGame, c: Connection) -> None:
    """Every state of a connection, with the full log (after hello / sync)."""
    seats = seats_info(lg)
    c.log_sent = {}
    for seat in c.views:
        c.push_obj(state(lg, seat, 0, seats))
        c.log_sent[seat] = len(lg.game.log)


def presence(lg: LiveGame) -> None:
    """Tell everyone who is connected (no change of the game itself), and whether the seat to
    move is away (web/hub/absence.py)."""
    push(lg, [{"type": "seats", "game": lg.id, "version": lg.version, "seats": seats_info(lg),
               "away": away_info(lg)}])


def push(lg: LiveGame, messages: list[dict[str, Any]]) -> None:
    """Sends messages to every connection of the game that said hello."""
    out = [json.dumps(m, separators=(",", ":")) for m in messages]
    for conn in lg.conns:
        if conn.hello:
            for text in out:
                conn.push(text)


__all__ = ["broadcast", "common_prefix", "presence", "push", "seats_info", "send_states", "state",
           "summary"]
