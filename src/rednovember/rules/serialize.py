"""Save, load and replay: the complete state as versioned JSON (docs/formats.md).

A save holds the configuration, the data set's identity, the game's origin (a fresh game from the
seed, or an arranged scenario position), every action taken, the event log and the full current
state. Loading checks everything and replays the actions from the origin: a save whose state does
not follow from its own history is refused as corrupt.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .action import ActionError, parse_action
from .config import Config, ConfigError
from .data import GameData, load_data
from .game import Game
from .invariants import InvariantError, check
from .setup import new_game
from .snapshot import snapshot
from .state import DECIDE, Decision, Gnome, Result
from .turn import begin

FORMAT = "rednovember-save"
VERSION = 1
PHASES = ("move", "opened", "after_action", "extra_move", DECIDE, "over")


class SaveError(ValueError):
    """A save that is corrupt, of another version, or made with another data set."""


def to_dict(g: Game) -> dict[str, Any]:
    """The whole save: format, version, data set, config, origin, history, log and state."""
    return {
        "format": FORMAT, "version": VERSION,
        "data_set": {"name": g.data.name, "digest": g.data.digest},
        "config": g.config.to_dict(),
        "origin": g.origin,
        "history": [a.text(g.data) for a in g.history],
        "log": [list(plain(e)) for e in g.log],
        "state": snapshot(g),
    }


def plain(x: Any) -> Any:
    """A log entry (or any value) with its tuples made lists, as JSON holds it."""
    if isinstance(x, tuple | list):
        return [plain(v) for v in x]
    return x


def _tupled(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(_tupled(v) for v in x)
    return x


def to_json(g: Game, indent: int | None = None) -> str:
    return json.dumps(to_dict(g), indent=indent)


# --- loading ---------------------------------------------------------------------------------
def _get(d: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in d:
        raise SaveError(f"{where}: missing field {key!r}")
    v = d[key]
    bad_bool = isinstance(v, bool) and kind in (int, (int,))
    if not isinstance(v, kind) or bad_bool:
        raise SaveError(f"{where}.{key}: expected {getattr(kind, '__name__', kind)}, got {v!r}")
    return v


def _items(names: Any, data: GameData, where: str) -> list[int]:
    if not isinstance(names, list):
        raise SaveError(f"{where}: expected a list of items")
    try:
        return [data.item_index[n] for n in names]
    except (KeyError, TypeError):
        raise SaveError(f"{where}: unknown item in {names!r}") from None


def _ints(v: Any, where: str, lo: int, hi: int) -> list[int]:
    if not isinstance(v, list) or not all(
            isinstance(x, int) and not isinstance(x, bool) and lo <= x <= hi for x in v):
        raise SaveError(f"{where}: expected a list of numbers {lo}..{hi}")
    return list(v)


def restore(data: GameData, config: Config, s: Any) -> Game:
    """Rebuild a game from :func:`snapshot` output, checking every field."""
    if not isinstance(s, dict):
        raise SaveError("state: expected an object")
    g = Game(data, config)
    rng = _get(s, "rng", dict, "state")
    g.rng.state = _get(rng, "state", int, "state.rng")
    g.rng.forced = _ints(rng.get("forced", []), "state.rng.forced", 1, 10)
    rooms = len(data.room_keys) - 1
    for r in _ints(s.get("fire"), "state.fire", 1, rooms):
        g.fire[r] = True
    water = _get(s, "water", dict, "state")
    for key, level in water.items():  # not r: mypyc types a name once (int above)
        if not key.isdigit() or not 1 <= int(key) <= rooms or level not in (1, 2):
            raise SaveError(f"state.water: bad entry {key!r}: {level!r}")
        g.water[int(key)] = level
    for pair in _get(s, "blocked", list, "state"):
        h = data.hatch_between.get(tuple(pair)) if isinstance(pair, list) else None
        if h is None or h >= data.interior_count:
            raise SaveError(f"state.blocked: {pair!r} is not an interior hatch")
        g.blocked[h] = True
    tracks = _get(s, "tracks", dict, "state")
    g.tracks = [_track(tracks, t, data) for t in data.tracks]
    tokens = _get(s, "tokens", dict, "state")
    if set(tokens) - set(data.tokens):
        raise SaveError(f"state.tokens: unknown token in {sorted(tokens)}")
    g.tokens = [_space(tokens.get(t, -1), f"state.tokens.{t}") for t in data.tokens]
    gnomes = _get(s, "gnomes", list, "state")
    if len(gnomes) != config.gnomes:
        raise SaveError(f"state.gnomes: {len(gnomes)} gnomes, the config says {config.gnomes}")
    g.gnomes = [_load_gnome(x, i, data) for i, x in enumerate(gnomes)]
    cards = len(data.events) - 1
    g.event_deck = _ints(s.get("event_deck"), "state.event_deck", 0, cards)
    g.event_discard = _ints(s.get("event_discard"), "state.event_discard", 0, cards)
    g.event_out = _ints(s.get("event_out"), "state.event_out", 0, cards)
    g.kraken_aside = _get(s, "kraken_aside", bool, "state")
    g.item_deck = _items(s.get("item_deck"), data, "state.item_deck")
    g.item_discard = _items(s.get("item_discard"), data, "state.item_discard")
    g.item_out = _items(s.get("item_out"), data, "state.item_out")
    g.stock = _get(s, "stock", int, "state")
    _turn_fields(g, s)
    try:
        check(g)
    except InvariantError as exc:
        raise SaveError(f"state is inconsistent: {exc}") from None
    return g


def _track(tracks: dict[str, Any], name: str, data: GameData) -> int:
    v = tracks.get(name)
    if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= data.track_length:
        raise SaveError(f"state.tracks.{name}: expected 1..{data.track_length}, got {v!r}")
    return v


def _space(v: Any, where: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not -1 <= v <= 60:
        raise SaveError(f"{where}: expected a time-track space, got {v!r}")
    return v


def _load_gnome(x: Any, i: int, data: GameData) -> Gnome:
    where = f"state.gnomes[{i}]"
    if not isinstance(x, dict):
        raise SaveError(f"{where}: expected an object")
    gn = Gnome(i, _get(x, "colour", str, where), _get(x, "player", int, where),
               _get(x, "room", int, where))
    if _get(x, "number", int, where) != i:
        raise SaveError(f"{where}.number: must be {i}")
    if not -1 <= gn.room < len(data.room_keys):
        raise SaveError(f"{where}.room: no such room {gn.room}")
    gn.alive = _get(x, "alive", bool, where)
    gn.fainted = _get(x, "fainted", bool, where)
    gn.intoxication = _get(x, "intoxication", int, where)
    if not 0 <= gn.intoxication <= 4:
        raise SaveError(f"{where}.intoxication: must be 0..4")
    gn.hand = _items(x.get("hand"), data, f"{where}.hand")
    gn.keeper = _space(_get(x, "keeper", int, where), f"{where}.keeper")
    gn.arrival = _get(x, "arrival", int, where)
    gn.abandoned = _get(x, "abandoned", bool, where)
    gn.drew_room = _get(x, "drew_room", int, where)
    return gn


def _turn_fields(g: Game, s: dict[str, Any]) -> None:
    w = "state"
    for name in ("arrivals", "active", "ghost", "opened", "charms", "event_space", "turn",
                 "setup_events", "undo_barrier"):
        setattr(g, name, _get(s, name, int, w))
    for name in ("began_in_sea", "grog_used", "item_here", "skip_check", "in_updates"):
        setattr(g, name, _get(s, name, bool, w))
    g.phase = _get(s, "phase", str, w)
    if g.phase not in PHASES:
        raise SaveError(f"state.phase: unknown phase {g.phase!r}")
    g.resume = _get(s, "resume", str, w)
    played = _get(s, "played", dict, w)
    for name, n in played.items():
        if name not in g.data.item_index or not isinstance(n, int) or n < 0:
            raise SaveError(f"state.played: bad entry {name!r}: {n!r}")
        g.played[g.data.item_index[name]] = n
    g.armed_in = _ints(s.get("armed_in", []), "state.armed_in", 0, len(g.data.room_keys) - 1)
    pend = _get(s, "pending", list, w)
    try:
        g.pending = [Decision(str(p[0]), int(p[1]), int(p[2])) for p in pend]
    except (TypeError, ValueError, IndexError):
        raise SaveError(f"state.pending: malformed {pend!r}") from None
    g.effects = _get(s, "effects", list, w)
    res = s.get("result")
    if res is not None:
        if not isinstance(res, dict) or not isinstance(res.get("won"), bool):
            raise SaveError("state.result: malformed")
        g.result = Result(res["won"], str(res.get("cause")))


def from_dict(d: Any, data: GameData | None = None, verify: bool = True) -> Game:
    """Load a save; refuses a corrupt or mismatched one with :class:`SaveError`."""
    if not isinstance(d, dict):
        raise SaveError("a save must be a JSON object")
    if d.get("format") != FORMAT:
        found = d.get("format")
        raise SaveError("not a Red November save" + ("" if found is None else
                                                    f" (format {found!r})"))
    if d.get("version") != VERSION:
        raise SaveError(f"save format version {d.get('version')!r} is not supported "
                        f"(this program reads version {VERSION})")
    data = data or load_data()
    ds = d.get("data_set")
    if not isinstance(ds, dict) or ds.get("digest") != data.digest:
        raise SaveError(f"the save was made with another data set ({ds!r}); "
                        f"this program uses {data.describe()}")
    try:
        config = Config.from_dict(d.get("config"))
    except ConfigError as exc:
        raise SaveError(f"config: {exc}") from None
    g = restore(data, config, d.get("state"))
    g.origin = d.get("origin")
    history = d.get("history")
    log = d.get("log")
    if not isinstance(history, list) or not isinstance(log, list):
        raise SaveError("history and log must be lists")
    try:
        g.history = [parse_action(t, data) for t in history]
    except ActionError as bad:  # not exc: mypyc gives a name one type (ConfigError above)
        raise SaveError(f"history: {bad}") from None
    g.log = [_tupled(e) for e in log]
    if verify:
        twin = replay(data, config, g.origin, g.history)
        if to_dict(twin) != to_dict(g):
            raise SaveError("the save is corrupt: its state does not follow from its history")
    return g


def from_json(text: str, data: GameData | None = None, verify: bool = True) -> Game:
    try:
        d = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SaveError(f"the save is not valid JSON: {exc}") from None
    return from_dict(d, data, verify)


def replay(data: GameData, config: Config, origin: Any, actions: list[Any],
           before_each: Callable[[Game], None] | None = None) -> Game:
    """Replay a game from its origin and actions (Action values or text); ``before_each`` sees
    the game before each action is applied."""
    if origin is None:
        g = new_game(config, data)
    else:
        if not isinstance(origin, dict) or "state" not in origin:
            raise SaveError("origin: expected an object with a 'state'")
        g = restore(data, config, origin["state"])
        g.origin = origin
        g.log = [_tupled(e) for e in origin.get("log", [])]
        begin(g)
    for i, a in enumerate(actions):
        if before_each is not None:
            before_each(g)
        try:
            g.apply(parse_action(a, data) if isinstance(a, str) else a)
        except ActionError as exc:
            raise SaveError(f"history[{i}]: {exc}") from None
    return g
