"""The story of one finished game, for the end screen: what happened, told in numbers.

:func:`game_story` replays the game from its origin (seed, or a loaded position) and its actions,
one action at a time, reading the engine's log as it grows and sampling the submarine at the start
of every turn. It is pure: the same game gives the same story, and nothing outside is touched.

What it holds (JSON-ready; docs/protocol.md describes the endpoint that serves it):

``result``
    ``won`` and ``cause`` (as ``Game.result``) and, per gnome, whether its player ``won``
    (a gnome that abandoned its comrades wins exactly when the crew loses).
``start``, ``minutes``
    the time track's start space (the minutes the crew has) and the minutes survived: all of them
    in a won game; in a lost one the minute the game ended, the start space minus the space of
    the keeper furthest back still on the track (the crew's time: a token strikes when that keeper
    passes it), or of the last keeper the log saw walk if that is later (an event of its walk).
    A gnome that ran ahead to the last space does not make a lost game "survive" to the end, so
    this is not ``rednovember simulate``'s ``mean_minutes`` (the time track used: the start space
    minus the lowest keeper).
``turns``, ``steps``
    turns begun and actions applied.
``deaths``
    in order: ``gnome``, its ``colour``, ``cause`` (the ``death`` log entry's: fire, flood, air,
    fainted_in_sea, trapped, attacked), ``room``, ``turn`` and ``minute`` (start space minus the
    space of the keeper walking or acting when it happened) and ``replaced`` (Less Deadly Death
    sent a new gnome).
``repairs``
    per repair kind (every kind, zeros included, in the engine's order): ``tried`` (repair actions
    taken, the automatic failures of R7 included) and ``made`` (successful ones).
``gnomes``
    per gnome: ``number``, ``colour``, ``seat``, ``turns`` (turns it began), ``actions`` (the
    action of its turns: repairs, draws, trades, attacks, No Action, Abandon), ``moves`` (rooms
    entered), ``repairs_tried``, ``repairs_made``, ``items_used`` (item cards played), ``faints``,
    ``deaths``, ``alive``, ``abandoned`` and ``won``.
``tracks``, ``track_length``
    the disaster tracks' names and their last space (reaching it loses the game).
``timeline``
    points ``{"minute", "turn", "tracks": [levels], "fires", "floods"}`` in game order: the start,
    the start of every turn whose picture differs from the point before (``minute`` = start space
    minus the acting keeper's space, which never goes down as the keeper furthest back acts) and
    the end of the game (at ``minutes``). ``fires`` counts burning rooms, ``floods`` rooms with
    water (low or high).
"""

from __future__ import annotations

from typing import Any

from ..rules import Game, outcome
from ..rules.data import REPAIRS
from ..rules.serialize import replay

# The log entries of the action a gnome takes on its turn (after moving); every repair kind is
# logged as ``repair``.
MAIN_ACTIONS = frozenset({"repair", "draw", "draw_stock", "trade", "attack", "no_action",
                          "abandon"})


class StoryError(ValueError):
    """The game is not over: it has no story yet."""


def _sample(g: Game, minute: int, turn: int) -> dict[str, Any]:
    return {"minute": minute, "turn": turn, "tracks": list(g.tracks),
            "fires": sum(g.fire), "floods": sum(1 for w in g.water if w)}


def _rear(g: Game, default: int) -> int:
    """The space of the keeper furthest back among the gnomes still on the track (alive, not
    abandoned): where the crew's time stands; ``default`` when none is."""
    spaces = [gn.keeper for gn in g.gnomes if gn.alive and not gn.abandoned]
    return max(spaces) if spaces else default


def game_story(game: Game) -> dict[str, Any]:
    """The story of a finished game (see the module docstring); raises :class:`StoryError`
    while the game goes on."""
    if game.result is None:
        raise StoryError("the game is not over")
    data = game.data
    start = game.start_space
    g = replay(data, game.config, game.origin, [])
    per = [{"number": gn.number, "colour": gn.colour, "seat": gn.player, "turns": 0, "actions": 0,
            "moves": 0, "repairs_tried": 0, "repairs_made": 0, "items_used": 0, "faints": 0,
            "deaths": 0} for gn in g.gnomes]
    repairs = {kind: {"tried": 0, "made": 0} for kind in REPAIRS}
    deaths: list[dict[str, Any]] = []
    read = len(g.origin.get("log", [])) if g.origin else 0  # a loaded game: its past is not ours
    turn = g.turn - sum(1 for e in g.log[read:] if e[0] == "turn")  # turns before the origin
    timeline = [_sample(g, 0, max(turn, 1))]
    space = start  # the space of the keeper acting or walking now

    def mark(minute: int) -> None:
        point, last = _sample(g, minute, turn), timeline[-1]
        if any(point[k] != last[k] for k in ("minute", "tracks", "fires", "floods")):
            timeline.append(point)

    def read_log() -> None:
        nonlocal space, read, turn
        for e in g.log[read:]:
            tag = e[0]
            if tag == "turn":
                space = int(e[2])
                turn += 1
                per[e[1]]["turns"] += 1
                mark(start - space)
            elif tag in ("event", "item_icon", "charm"):
                space = int(e[2])  # (card, space), (gnome, space, card), (gnome, space)
            elif tag == "death":
                per[e[1]]["deaths"] += 1
                deaths.append({"gnome": e[1], "colour": g.gnomes[e[1]].colour, "cause": e[2],
                               "room": e[3], "turn": turn, "minute": start - space,
                               "replaced": False})
            elif tag == "replacement" and deaths:
                deaths[-1]["replaced"] = True
            elif tag == "enter":
                per[e[1]]["moves"] += 1
            elif tag == "play":
                per[e[1]]["items_used"] += 1
            elif tag == "faint_check" and e[4]:
                per[e[1]]["faints"] += 1
            if tag in MAIN_ACTIONS:
                per[e[1]]["actions"] += 1
            if tag == "repair":
                made = bool(e[6])
                repairs[e[2]]["tried"] += 1
                repairs[e[2]]["made"] += made
                per[e[1]]["repairs_tried"] += 1
                per[e[1]]["repairs_made"] += made
        read = len(g.log)

    read_log()
    for action in game.history:
        g.apply(action)
        read_log()
    result = g.result
    if result is None:  # pragma: no cover - the same actions end the replayed game
        raise StoryError("the replayed game did not end")
    minutes = start if result.won else start - min(space, _rear(g, space))
    timeline.append(_sample(g, minutes, turn))
    for row, gn in zip(per, g.gnomes, strict=True):
        row.update(alive=gn.alive, abandoned=gn.abandoned, won=outcome(g, gn.number))
    return {
        "result": {"won": result.won, "cause": result.cause},
        "start": start,
        "minutes": minutes,
        "turns": g.turn,
        "steps": len(game.history),
        "deaths": deaths,
        "repairs": repairs,
        "gnomes": per,
        "tracks": list(data.tracks),
        "track_length": data.track_length,
        "timeline": timeline,
    }


__all__ = ["MAIN_ACTIONS", "StoryError", "game_story"]
