"""Scenarios: a configuration, an arranged position, fixed dice and card orders, and actions.

The format is documented in docs/formats.md. Arranging never invents cards: hands and deck orders
are taken from the shuffled decks, so every scenario position conserves the components.
"""

from __future__ import annotations

from typing import Any

from .action import ActionError, parse_action
from .config import Config, ConfigError
from .data import GameData, load_data
from .game import Game
from .invariants import InvariantError, check
from .setup import new_game
from .snapshot import snapshot
from .turn import begin

FORMAT = "rednovember-scenario"
LEVELS = {"none": 0, "low": 1, "high": 2}
FIELDS = {"format", "version", "name", "description", "config", "position", "dice", "event_deck",
          "item_deck", "event_discard", "item_discard", "actions"}
POSITION = {"gnomes", "fire", "water", "blocked", "tracks", "tokens", "stock", "stack"}
GNOME = {"room", "keeper", "hand", "intoxication", "fainted", "drew_items"}


class ScenarioError(ValueError):
    """A scenario file that is malformed or asks for something impossible."""


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise ScenarioError(message)


def _int(v: Any, where: str, lo: int, hi: int) -> int:
    _need(isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi,
          f"{where}: expected a number {lo}..{hi}, got {v!r}")
    return int(v)


def build(spec: Any, data: GameData | None = None) -> Game:
    """The game a scenario describes, with its first turn begun and no actions applied yet."""
    _need(isinstance(spec, dict), "a scenario must be a JSON object")
    _need(spec.get("format", FORMAT) == FORMAT, f"not a scenario (format {spec.get('format')!r})")
    _need(spec.get("version", 1) == 1, f"scenario version {spec.get('version')!r} not supported")
    unknown = set(spec) - FIELDS
    _need(not unknown, f"unknown scenario field(s) {sorted(unknown)}")
    try:
        config = Config.from_dict(spec.get("config", {}))
    except ConfigError as exc:
        raise ScenarioError(f"config: {exc}") from None
    g = new_game(config, data or load_data(), start=False)
    pos = spec.get("position", {})
    _need(isinstance(pos, dict), "position must be an object")
    _need(not set(pos) - POSITION, f"unknown position field(s) {sorted(set(pos) - POSITION)}")
    _board(g, pos)
    _stock(g, pos)
    _gnomes(g, pos)
    _cards(g, spec)
    dice = spec.get("dice", [])
    _need(isinstance(dice, list), "dice must be a list")
    g.rng.forced = [_int(d, "dice", 1, 10) for d in dice]
    try:
        check(g)
    except InvariantError as bad:  # not exc: mypyc gives a name one type (ConfigError above)
        raise ScenarioError(f"the arranged position is impossible: {bad}") from None
    g.say("scenario", str(spec.get("name", "")))
    g.origin = {"scenario": str(spec.get("name", "")), "state": snapshot(g),
                "log": [list(e) for e in g.log]}
    begin(g)
    return g


def run(spec: Any, data: GameData | None = None) -> Game:
    """Build the scenario and apply its actions; an illegal one raises ScenarioError."""
    g = build(spec, data)
    actions = spec.get("actions", [])
    _need(isinstance(actions, list), "actions must be a list of action texts")
    for i, text in enumerate(actions):
        try:
            g.apply(parse_action(text, g.data))
        except ActionError as exc:
            raise ScenarioError(f"actions[{i}] {text!r}: {exc}") from None
    return g


def _board(g: Game, pos: dict[str, Any]) -> None:
    d = g.data
    for r in pos.get("fire", []):
        g.fire[_int(r, "fire", 1, len(d.room_keys) - 1)] = True
    water = pos.get("water", {})
    _need(isinstance(water, dict), "water must map rooms to 'low' or 'high'")
    for r, level in water.items():
        _need(level in LEVELS, f"water.{r}: expected 'low' or 'high'")
        room = _int(int(r) if str(r).isdigit() else r, "water room", 1, len(d.room_keys) - 1)
        g.water[room] = LEVELS[level]
    for pair in pos.get("blocked", []):
        h = d.hatch_between.get(tuple(pair)) if isinstance(pair, list) else None
        _need(h is not None and h < d.interior_count, f"blocked: {pair!r} is not an interior hatch")
        assert h is not None
        g.blocked[h] = True
    tracks = pos.get("tracks", {})
    _need(isinstance(tracks, dict) and set(tracks) <= set(d.tracks), f"tracks: names {d.tracks}")
    for name, v in tracks.items():
        g.tracks[d.tracks.index(name)] = _int(v, f"tracks.{name}", 1, d.track_length - 1)
    tokens = pos.get("tokens", {})
    _need(isinstance(tokens, dict) and set(tokens) <= set(d.tokens), f"tokens: names {d.tokens}")
    for name, v in tokens.items():
        g.tokens[d.tokens.index(name)] = _int(v, f"tokens.{name}", 0, 60)


def _stock(g: Game, pos: dict[str, Any]) -> None:
    if "stock" not in pos:
        return
    want = _int(pos["stock"], "stock", 0, g.data.stock_count)
    grog = g.data.stock_item
    while g.stock > want:
        g.stock -= 1
        g.item_deck.append(grog)
    while g.stock < want:
        _need(grog in g.item_deck, "stock: not enough Grog left in the item deck")
        g.item_deck.remove(grog)
        g.stock += 1


def _take(pile: list[int], kind: int, where: str, name: str) -> None:
    _need(kind in pile, f"{where}: no {name} left to take")
    pile.remove(kind)


def _gnomes(g: Game, pos: dict[str, Any]) -> None:
    specs = pos.get("gnomes", [])
    _need(isinstance(specs, list) and len(specs) <= len(g.gnomes),
          f"gnomes: a list of at most {len(g.gnomes)} gnomes")
    for i, s in enumerate(specs):  # first return every replaced hand to the deck
        _need(isinstance(s, dict) and not set(s) - GNOME, f"gnomes[{i}]: fields are {sorted(GNOME)}")
        if "hand" in s:
            g.item_deck.extend(g.gnomes[i].hand)
            g.gnomes[i].hand = []
    for i, s in enumerate(specs):
        gn = g.gnomes[i]
        where = f"gnomes[{i}]"
        if "room" in s:
            gn.room = _int(s["room"], f"{where}.room", 0, len(g.data.room_keys) - 1)
        if "keeper" in s:
            gn.keeper = _int(s["keeper"], f"{where}.keeper", 1, 60)
        if "intoxication" in s:
            gn.intoxication = _int(s["intoxication"], f"{where}.intoxication", 0, 4)
        if "fainted" in s:
            _need(isinstance(s["fainted"], bool), f"{where}.fainted: true or false")
            gn.fainted = s["fainted"]
        if "drew_items" in s:
            gn.drew_room = _int(s["drew_items"], f"{where}.drew_items", 1, len(g.data.room_keys))
        for name in s.get("hand", []):
            _need(name in g.data.item_index, f"{where}.hand: unknown item {name!r}")
            _take(g.item_deck, g.data.item_index[name], f"{where}.hand", name)
            gn.hand.append(g.data.item_index[name])
    stack = pos.get("stack", list(range(len(g.gnomes))))
    _need(isinstance(stack, list) and sorted(stack) == list(range(len(g.gnomes))),
          "stack: every gnome number once, bottom first")
    for level, number in enumerate(stack):
        g.gnomes[number].arrival = level + 1


def _event_card(g: Game, text: Any, pile: list[int], where: str) -> int:
    _need(isinstance(text, str), f"{where}: event names are strings like 'fire' or 'fire/2'")
    kind, _, faint = text.partition("/")
    for card in pile:
        c = g.data.events[card]
        if c.kind == kind and (not faint or str(c.faint if c.faint is not None else "-") == faint):
            return card
    raise ScenarioError(f"{where}: no event card {text!r} left in the deck")


def _cards(g: Game, spec: dict[str, Any]) -> None:
    if any(e == "kraken" or str(e).startswith("kraken/") for e in
           spec.get("event_deck", []) + spec.get("event_discard", [])):
        g.event_deck.append(g.data.set_aside)  # the Kraken card comes out from aside
        g.kraken_aside = False
    for name in ("event_discard", "event_deck"):
        cards = spec.get(name, [])
        _need(isinstance(cards, list), f"{name} must be a list")
        chosen = []
        for text in cards:
            card = _event_card(g, text, g.event_deck, name)
            g.event_deck.remove(card)
            chosen.append(card)
        if name == "event_discard":
            g.event_discard.extend(chosen)
        else:
            g.event_deck.extend(reversed(chosen))  # the first listed is the top card
    for name in ("item_discard", "item_deck"):
        items = spec.get(name, [])
        _need(isinstance(items, list), f"{name} must be a list")
        chosen = []
        for text in items:
            _need(text in g.data.item_index, f"{name}: unknown item {text!r}")
            _take(g.item_deck, g.data.item_index[text], name, text)
            chosen.append(g.data.item_index[text])
        if name == "item_discard":
            g.item_discard.extend(chosen)
        else:
            g.item_deck.extend(reversed(chosen))
