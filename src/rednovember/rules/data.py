"""Component data (board, time track, disaster tracks, decks), read once and validated.

The values live in JSON files (``rednovember/data``); this module turns them into one frozen
:class:`GameData`. A broken file raises :class:`DataError` naming the file and the problem.
A data set is identified by its name and a content hash, which saves record and check.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final

SEA: Final = 0
FILES = ("board", "timetrack", "tracks", "events", "items")
REPAIRS = ("unblock_hatch", "extinguish_fire", "pump_water", "fix_engine", "fix_oxygen_pumps",
           "fix_reactor", "stop_missile_launch", "kill_kraken")
ROOM_REPAIRS = ("fix_engine", "fix_oxygen_pumps", "fix_reactor", "stop_missile_launch", "kill_kraken")
EFFECT_TYPES = frozenset({"fire", "fire_spreads", "leak", "undercurrent", "hatch_blocked", "track",
                          "token", "hand_limit", "stumble", "overheated"})


class DataError(ValueError):
    """A data file is missing, malformed or inconsistent."""


@dataclass(frozen=True, slots=True)
class ItemKind:
    """One kind of item card and what playing it does this turn."""

    id: str
    count: int
    bonus: dict[str, int]
    enters_fire: bool
    enables_sea: bool
    enables_attack: bool
    intoxication: int
    faint_check: bool
    ignore_event_icons: int

    def bonus_to(self, repair: str) -> int:
        """What playing this item adds to a ``repair`` (its own bonus and one for every repair)."""
        return self.bonus.get(repair, 0) + self.bonus.get("*", 0)


@dataclass(frozen=True, slots=True)
class EventCard:
    """One physical event card: its kind, its faint number (None for "–") and its effects."""

    kind: str
    faint: int | None
    effects: tuple[dict[str, Any], ...]
    respite: bool


@dataclass(frozen=True, slots=True)
class RoomRepair:
    room: int
    track: int  # index into tracks, -1 for none
    token: int  # index into tokens, -1 for none


@dataclass(frozen=True)
class GameData:
    """Everything printed on the components, as the engine uses it."""

    name: str
    digest: str
    room_keys: tuple[str, ...]  # index = room number; 0 = "sea"
    hatches: tuple[tuple[int, int], ...]  # interior first, then exterior (room, SEA)
    interior_count: int
    exits: tuple[tuple[tuple[int, int], ...], ...]  # per room: (hatch index, room beyond)
    hatch_between: dict[tuple[int, int], int]
    blocked_tokens: int
    draw_rooms: dict[int, tuple[str, int]]  # room -> (source, max cards)
    draw_in: tuple[tuple[str, int] | None, ...]  # per room (0 = the Sea): draw_rooms' entry or None
    room_repairs: dict[str, RoomRepair]
    repairs_in: tuple[tuple[str, ...], ...]  # per room (0 = the Sea): its room repairs, in order
    room_repairs_in: tuple[tuple[RoomRepair, ...], ...]  # the same, as room_repairs' entries
    layout: dict[int, tuple[float, float]]
    event_icons: frozenset[int]
    item_icons: frozenset[int]
    event_icon_at: tuple[bool, ...]  # per time-track space: an event icon there (the same facts
    item_icon_at: tuple[bool, ...]  # as the sets, looked up by index in the keeper's walk)
    start_spaces: dict[int, int]
    abandon_below: int
    tracks: tuple[str, ...]
    track_length: int
    reset_stars: tuple[int, ...]
    tokens: tuple[str, ...]
    items: tuple[ItemKind, ...]
    item_index: dict[str, int]
    stock_item: int
    stock_count: int
    events: tuple[EventCard, ...]  # index = card id
    event_kinds: tuple[str, ...]
    set_aside: int  # card id of the Kraken card

    @property
    def rooms(self) -> range:
        return range(1, len(self.room_keys))

    def describe(self) -> str:
        return f"{self.name} ({self.digest[:12]})"


def _need(cond: bool, file: str, message: str) -> None:
    if not cond:
        raise DataError(f"data file {file}.json: {message}")


def _board(raw: dict[str, Any]) -> dict[str, Any]:
    b = raw["board"]
    rooms = b.get("rooms")
    _need(isinstance(rooms, list) and len(rooms) == 10, "board",
          "'rooms' must list the ten rooms (the action die picks rooms 1..10)")
    ids = [r.get("id") for r in rooms]
    _need(ids == list(range(1, len(rooms) + 1)), "board", "room ids must be 1..N in order")
    keys = ("sea",) + tuple(str(r.get("key")) for r in rooms)
    n = len(rooms)
    interior = b.get("interior_hatches")
    _need(isinstance(interior, list) and bool(interior), "board", "'interior_hatches' must be a list")
    hatches: list[tuple[int, int]] = []
    for pair in interior:
        _need(isinstance(pair, list) and len(pair) == 2 and all(
            isinstance(x, int) and 1 <= x <= n for x in pair) and pair[0] != pair[1],
            "board", f"bad interior hatch {pair!r}")
        hatches.append((pair[0], pair[1]))
    _need(len(set(map(frozenset, hatches))) == len(hatches), "board", "duplicate interior hatch")
    exterior = b.get("exterior_hatches")
    _need(isinstance(exterior, list) and all(isinstance(x, int) and 1 <= x <= n for x in exterior),
          "board", "'exterior_hatches' must list rooms")
    interior_count = len(hatches)
    hatches += [(r, SEA) for r in exterior]
    exits: list[list[tuple[int, int]]] = [[] for _ in range(n + 1)]
    between: dict[tuple[int, int], int] = {}
    for h, (a, c) in enumerate(hatches):
        exits[a].append((h, c))
        exits[c].append((h, a))
        between[(a, c)] = between[(c, a)] = h
    draw_rooms: dict[int, tuple[str, int]] = {}
    for room, spec in b.get("draw_rooms", {}).items():
        _need(spec.get("source") in ("item_deck", "captains_stock"), "board", "bad draw source")
        draw_rooms[int(room)] = (spec["source"], int(spec["max"]))
    layout = {int(k): (float(v[0]), float(v[1])) for k, v in b.get("layout", {}).items()}
    tokens_n = b.get("blocked_hatch_tokens")
    _need(isinstance(tokens_n, int) and tokens_n >= 0, "board", "'blocked_hatch_tokens' must be >= 0")
    return {"name": str(b.get("name", "custom")), "room_keys": keys, "hatches": tuple(hatches),
            "interior_count": interior_count,
            "exits": tuple(tuple(sorted(e, key=lambda x: x[1])) for e in exits),
            "hatch_between": between, "blocked_tokens": tokens_n, "draw_rooms": draw_rooms,
            "draw_in": tuple(draw_rooms.get(r) for r in range(n + 1)), "layout": layout}


def _tracks(raw: dict[str, Any], rooms: int) -> dict[str, Any]:
    t = raw["tracks"]
    tracks = tuple(t.get("tracks", ()))
    _need(len(tracks) == 3, "tracks", "there must be three disaster tracks")
    length = t.get("length")
    _need(isinstance(length, int) and length >= 6, "tracks", "'length' must be an integer >= 6")
    stars = tuple(t.get("reset_stars", ()))
    _need(stars[:1] == (1,) and all(isinstance(s, int) and 1 <= s < length for s in stars),
          "tracks", "reset stars must start at 1 and lie on the track")
    tokens = tuple(t.get("tokens", {}))
    _need(len(tokens) == 4, "tracks", "there must be four destruction tokens")
    reps = raw["board"].get("repairs", {})
    room_repairs: dict[str, RoomRepair] = {}
    for name in ROOM_REPAIRS:
        spec = reps.get(name)
        _need(isinstance(spec, dict), "board", f"repair {name!r} missing")
        room = spec.get("room")
        _need(isinstance(room, int) and 0 <= room <= rooms, "board", f"repair {name}: bad room")
        track = spec.get("track")
        token = spec.get("token")
        _need(track is None or track in tracks, "board", f"repair {name}: unknown track {track!r}")
        _need(token is None or token in tokens, "board", f"repair {name}: unknown token {token!r}")
        room_repairs[name] = RoomRepair(room, tracks.index(track) if track else -1,
                                        tokens.index(token) if token else -1)
    repairs_in = tuple(tuple(name for name, rep in room_repairs.items() if rep.room == room)
                       for room in range(rooms + 1))
    return {"tracks": tracks, "track_length": length, "reset_stars": stars, "tokens": tokens,
            "room_repairs": room_repairs, "repairs_in": repairs_in,
            "room_repairs_in": tuple(tuple(room_repairs[name] for name in names)
                                     for names in repairs_in)}


def _timetrack(raw: dict[str, Any]) -> dict[str, Any]:
    t = raw["timetrack"]
    start = t.get("start")
    _need(isinstance(start, int) and start > 0, "timetrack", "'start' must be a positive integer")
    for key in ("event_icons", "item_icons"):
        _need(isinstance(t.get(key), list) and all(isinstance(x, int) and 0 < x <= start
                                                    for x in t[key]),
              "timetrack", f"'{key}' must list spaces 1..{start}")
    spaces = {int(k): int(v) for k, v in t.get("start_spaces", {}).items()}
    _need(set(spaces) == set(range(1, 9)), "timetrack", "'start_spaces' must cover 1..8 gnomes")
    _need(all(0 < v <= start for v in spaces.values()), "timetrack", "start space off the track")
    events, items = frozenset(t["event_icons"]), frozenset(t["item_icons"])
    spaces_on_track = range(max(start, 60) + 1)  # saves and scenarios may put a keeper up to 60
    return {"event_icons": events, "item_icons": items,
            "event_icon_at": tuple(s in events for s in spaces_on_track),
            "item_icon_at": tuple(s in items for s in spaces_on_track),
            "start_spaces": spaces, "abandon_below": int(t.get("abandon_below", 10))}


def _items(raw: dict[str, Any]) -> dict[str, Any]:
    it = raw["items"]
    items: list[ItemKind] = []
    for spec in it.get("items", []):
        _need(isinstance(spec.get("id"), str) and isinstance(spec.get("count"), int),
              "items", f"bad item {spec!r}")
        bonus = {str(k): int(v) for k, v in spec.get("bonus", {}).items()}
        _need(all(k == "*" or k in REPAIRS for k in bonus), "items",
              f"{spec['id']}: bonus names an unknown repair")
        items.append(ItemKind(spec["id"], spec["count"], bonus, bool(spec.get("enters_fire")),
                              bool(spec.get("enables_sea")), bool(spec.get("enables_attack")),
                              int(spec.get("intoxication", 0)), bool(spec.get("faint_check")),
                              int(spec.get("ignore_event_icons", 0))))
    index = {k.id: i for i, k in enumerate(items)}
    _need(len(index) == len(items), "items", "duplicate item id")
    stock = it.get("captains_stock", {})
    _need(stock.get("item") in index, "items", "captain's stock names an unknown item")
    sid = index[stock["item"]]
    _need(0 <= int(stock.get("count", 0)) <= items[sid].count, "items", "stock larger than supply")
    for need in ("grog", "crowbar", "aqualung"):
        _need(need in index, "items", f"the rules need an item {need!r}")
    return {"items": tuple(items), "item_index": index, "stock_item": sid,
            "stock_count": int(stock["count"])}


def _events(raw: dict[str, Any]) -> dict[str, Any]:
    ev = raw["events"]
    cards: list[EventCard] = []
    kinds: list[str] = []
    for spec in ev.get("cards", []):
        kind = spec.get("id")
        _need(isinstance(kind, str) and isinstance(spec.get("faint"), list), "events",
              f"bad card {spec!r}")
        effects = tuple(spec.get("effects", []))
        for eff in effects:
            _need(eff.get("type") in EFFECT_TYPES, "events", f"{kind}: unknown effect {eff!r}")
        kinds.append(kind)
        for faint in spec["faint"]:
            _need(faint is None or (isinstance(faint, int) and 1 <= faint <= 4), "events",
                  f"{kind}: faint numbers are 1..4 or null")
            cards.append(EventCard(kind, faint, effects, bool(spec.get("respite"))))
    aside = ev.get("set_aside")
    ids = [i for i, c in enumerate(cards) if c.kind == aside]
    _need(len(ids) == 1, "events", "'set_aside' must name exactly one card")
    return {"events": tuple(cards), "event_kinds": tuple(kinds), "set_aside": ids[0]}


def _digest(raw: dict[str, Any]) -> str:
    canon = json.dumps({k: raw[k] for k in FILES}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode()).hexdigest()


def load_data(directory: str | Path | None = None) -> GameData:
    """Load and validate a data set (the built-in one when ``directory`` is None).

    A folder's files are read on every call, and the data set is built again only when their
    contents changed: the cache is keyed on a hash of the bytes (modification times miss an edit
    made within the same clock tick). The built-in set is part of the package and read once."""
    if directory is None:
        return _cached(None)
    contents = []
    for name in FILES:
        try:
            contents.append((Path(directory) / f"{name}.json").read_bytes())
        except OSError as exc:
            raise DataError(f"data file {name}.json cannot be read: {exc}") from exc
    return _cached(tuple(contents))


_BUILT: dict[bytes | None, GameData] = {}  # hash of the files' bytes (None: built-in) -> data set
_BUILT_LOCK = threading.Lock()


def _cached(contents: tuple[bytes, ...] | None) -> GameData:
    """The data set of these file contents (in FILES order; None: the built-in files), built once
    per distinct contents (the built-in set and the last 8 others are kept)."""
    if contents is None:
        builtin = _BUILT.get(None)
        if builtin is None:
            package = resources.files("rednovember.data")
            try:
                blobs = tuple(package.joinpath(f"{n}.json").read_bytes() for n in FILES)
            except OSError as exc:
                raise DataError(f"a built-in data file cannot be read: {exc}") from exc
            builtin = _cached(blobs)
            with _BUILT_LOCK:
                _BUILT[None] = builtin
        return builtin
    h = hashlib.sha256()
    for blob in contents:
        h.update(len(blob).to_bytes(8, "little"))
        h.update(blob)
    key = h.digest()
    cached = _BUILT.get(key)
    if cached is not None:
        return cached
    raw: dict[str, Any] = {}
    for name, blob in zip(FILES, contents, strict=True):
        try:
            raw[name] = json.loads(blob.decode("utf-8"))
        except UnicodeDecodeError as undecoded:  # not exc: mypyc gives a name one type
            raise DataError(f"data file {name}.json is not UTF-8 text: {undecoded}") from undecoded
        except json.JSONDecodeError as bad:  # not exc: mypyc gives a name one type
            raise DataError(f"data file {name}.json is not valid JSON: {bad}") from bad
        _need(isinstance(raw[name], dict), name, "top level must be an object")
    data = _build(raw)
    with _BUILT_LOCK:
        if len(_BUILT) >= 9:  # the built-in set and 8 others: forget the oldest other
            del _BUILT[next(k for k in _BUILT if k is not None)]
        _BUILT[key] = data
    return data


def _build(raw: dict[str, Any]) -> GameData:
    try:
        board = _board(raw)
        parts = {**board, **_tracks(raw, len(board["room_keys"]) - 1), **_timetrack(raw),
                 **_items(raw), **_events(raw)}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        if isinstance(exc, DataError):
            raise
        raise DataError(f"data set is malformed: {exc!r}") from exc
    return GameData(digest=_digest(raw), **parts)
