"""Readable sentences for log entries, actions, decisions and results, in any catalog language.

Log entries are tuples ``(message_id, *args)`` written by ``Game.say``. :data:`ENTRY_ARGS` names
and types every argument of every message id; the catalog's ``log`` section holds one template
per id, or one per *variant* (``repair.success`` / ``repair.failure`` / ``repair.doomed``) where a
flag changes the sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..rules import SEA, Action, Game, outcome
from ..rules.apply import doomed_token, low_water_penalty
from ..rules.data import REPAIRS
from ..rules.legal import enter_cost, exit_cost, reflow_result
from ..rules.state import AFTER_ACTION, DECIDE, EXTRA_MOVE, HIGH, LOW, MOVE, OPENED
from ..rules.view import may_see
from . import DEFAULT, Catalog, catalog
from . import names as n

# Argument names and types per message id. Types: gnome, room, rooms, item, items, card, token,
# track, kind (a repair), cause (death), loss (cause of a loss), int, bool, str.
ENTRY_ARGS: dict[str, tuple[str, ...]] = {
    "setup": ("gnomes:int", "space:int", "data_set:str"),
    "scenario": ("name:str",),
    "turn": ("gnome:gnome", "space:int"),
    "stand_up": ("gnome:gnome",),
    "open": ("gnome:gnome", "from_room:room", "to_room:room"),
    "enter": ("gnome:gnome", "from_room:room", "to_room:room"),
    "stay": ("gnome:gnome",),
    "fire_out": ("room:room",),
    "reflow": ("a:room", "b:room"),
    "play": ("gnome:gnome", "item:item"),
    "repair": ("gnome:gnome", "kind:kind", "minutes:int", "target:int", "roll:int",
               "success:bool", "doomed:bool", "hatch:int"),
    "track_reset": ("track:track", "value:int"),
    "token_cleared": ("token:token",),
    "draw": ("gnome:gnome", "items:items"),
    "draw_stock": ("gnome:gnome", "count:int"),  # Grog from the captain's stock: public
    "item_reshuffle": (),
    "trade": ("gnome:gnome", "other:gnome"),
    "attack": ("gnome:gnome", "other:gnome"),
    "no_action": ("gnome:gnome",),
    "abandon": ("gnome:gnome",),
    "discard": ("gnome:gnome", "item:item"),
    "stumble": ("gnome:gnome", "kept:item", "lost:items"),
    "give": ("gnome:gnome", "other:gnome", "item:item"),
    "hatch_blocked": ("room:room", "other:room"),
    "fight": ("attacker:gnome", "roll_a:int", "score_a:int", "defender:gnome", "roll_d:int",
              "score_d:int"),
    "no_defence": ("gnome:gnome",),
    "loot": ("gnome:gnome", "loser:gnome", "items:items"),
    "won": (),
    "faint_check": ("gnome:gnome", "card:card", "intoxication:int", "fainted:bool"),
    "item_icon": ("gnome:gnome", "space:int", "item:item"),
    "charm": ("gnome:gnome", "space:int"),
    "death": ("gnome:gnome", "cause:cause", "room:room"),
    "replacement": ("gnome:gnome", "room:room"),
    "lost": ("cause:loss",),
    "event_reshuffle": ("kraken:bool",),
    "event": ("card:card", "space:int"),
    "track": ("track:track", "value:int"),
    "fire": ("room:room",),
    "fire_spreads": ("room:room",),
    "fire_flooded": ("room:room",),
    "spread_none": (),
    "leak": ("room:room",),
    "undercurrent": ("rooms:rooms",),
    "block_none": ("room:room",),
    "token_already": ("token:token",),
    "token_avoided": ("token:token",),
    "token": ("token:token", "space:int"),
    "hand_limit": ("gnome:gnome", "items:items"),
    "stumble_none": ("gnome:gnome",),
    "overheated": ("gnome:gnome", "intoxication:int"),
}

# Message ids whose sentence depends on a flag or on who may see: their possible variants.
VARIANTS: dict[str, tuple[str, ...]] = {
    "repair": ("success", "failure", "doomed"),
    "draw": ("visible", "hidden"),
    "stumble": ("visible", "hidden"),
    "give": ("visible", "hidden"),
    "loot": ("visible", "hidden"),
    "faint_check": ("fainted", "steady"),
    "item_icon": ("visible", "hidden", "none"),
    "event_reshuffle": ("kraken", "plain"),
    "undercurrent": ("rooms", "none"),
}


def template_keys(message_id: str) -> list[str]:
    """The catalog keys (section ``log``) a message id needs."""
    if message_id in VARIANTS:
        return [f"{message_id}.{v}" for v in VARIANTS[message_id]]
    return [message_id]


def _variant(mid: str, a: dict[str, Any], hidden: bool) -> str:
    if mid == "repair":
        return "doomed" if a["doomed"] else "success" if a["success"] else "failure"
    if mid in ("draw", "stumble", "give", "loot"):
        return "hidden" if hidden else "visible"
    if mid == "faint_check":
        return "fainted" if a["fainted"] else "steady"
    if mid == "item_icon":
        if a["item"] < 0:
            return "none"
        return "hidden" if hidden else "visible"
    if mid == "event_reshuffle":
        return "kraken" if a["kraken"] else "plain"
    if mid == "undercurrent":
        return "rooms" if a["rooms"] else "none"
    return ""


def _fmt(cat: Catalog, g: Game, kind: str, value: Any) -> str:
    formatters: dict[str, Callable[[], str]] = {
        "gnome": lambda: n.gnome(cat, g, value),
        "room": lambda: n.room(cat, g, value),
        "rooms": lambda: n.rooms(cat, g, value),
        "item": lambda: n.item(cat, g, value) if value >= 0 else "",
        "items": lambda: n.items(cat, g, value),
        "card": lambda: n.card(cat, g, value),
        "token": lambda: n.token(cat, g, value),
        "track": lambda: n.track(cat, g, value),
        "kind": lambda: n.action_kind(cat, value),
        "cause": lambda: cat.raw("death_causes", value),
        "loss": lambda: cat.raw("loss_causes", value),
    }
    f = formatters.get(kind)
    return f() if f is not None else str(value)


def describe_entry(entry: Sequence[Any], game: Game, lang: str = DEFAULT,
                   viewer: int | None = None) -> str:
    """One log entry as a sentence. ``viewer`` (a seat) hides other hands in Mad Gnomes;
    None shows everything."""
    cat = catalog(lang)
    if not entry:
        return ""
    mid, args = str(entry[0]), list(entry[1:])
    spec = ENTRY_ARGS.get(mid)
    if spec is None or len(spec) != len(args):
        return f"{mid}: {', '.join(map(str, args))}"
    raw = {s.split(":")[0]: v for s, v in zip(spec, args, strict=True)}
    fields = {s.split(":")[0]: _fmt(cat, game, s.split(":")[1], v)
              for s, v in zip(spec, args, strict=True)}
    fields["length"] = str(game.data.track_length)
    if mid in ("draw", "loot", "stumble"):
        fields["count"] = str(len(raw.get("items", raw.get("lost", ()))))
    if mid == "repair":
        token = game.data.room_repairs.get(raw["kind"])
        fields["token"] = n.token(cat, game, token.token) if token and token.token >= 0 else ""
        if raw["hatch"] >= 0:  # Unblock Hatch: name the hatch by the room beyond it
            fields["kind"] = cat.get("log", "unblock_kind", room=n.room(cat, game, raw["hatch"]))
    hidden = viewer is not None and not may_see(game, entry, viewer)  # the engine's rule
    variant = _variant(mid, raw, hidden)
    text = cat.get("log", f"{mid}.{variant}" if variant else mid, **fields)
    if mid == "event" and respite_leaves(game, raw["card"]):
        text += " " + cat.raw("term_plain", "respite_out")
    return text


def respite_leaves(game: Game, card: int) -> bool:
    """Harder and Hardest: a drawn Respite card leaves the game (instead of the discard pile)."""
    harder = game.config.has("harder") or game.config.has("hardest")
    return harder and 0 <= card < len(game.data.events) and game.data.events[card].respite


def describe_log(game: Game, start: int = 0, lang: str = DEFAULT,
                 viewer: int | None = None) -> list[str]:
    """Every log entry from index ``start`` on, as sentences."""
    return [describe_entry(e, game, lang, viewer) for e in game.log[start:]]


# --- actions ---------------------------------------------------------------------------------
def action_cost(action: Action, game: Game) -> int | None:
    """Minutes the active gnome's ghost moves for ``action`` (incl. low water), None if no time."""
    k = action.kind
    if k == "open":
        return 1
    if k == "enter":
        return enter_cost(game, game.opened)
    if k == "exit":
        return exit_cost(game, action.arg)
    if k in REPAIRS:
        return action.minutes + low_water_penalty(game, k)
    if k == "draw":
        return action.arg + low_water_penalty(game, k)
    if k in ("trade", "attack"):
        return 1 + low_water_penalty(game, k)
    if k == "no_action":
        return 1
    if k == "abandon":
        return game.ghost
    return None


def repair_doomed(action: Action, game: Game) -> tuple[bool, int]:
    """(doomed, token): R7 (amended) — whether the attempt fails automatically, track reset
    included, as the ghost would pass its destruction token, and that token (-1 if none)."""
    token = doomed_token(game, action.kind, game.ghost - (action_cost(action, game) or 0))
    return token >= 0, token


def keeper_walk(game: Game, ghost_after: int) -> tuple[int, int]:
    """(event cards, item cards) the active gnome's keeper will meet walking to ``ghost_after``
    in the Updates phase, Lucky Charms played so far counted (the first icons are ignored)."""
    keeper = game.gnomes[game.active].keeper
    spaces = range(max(0, ghost_after), keeper)
    events = sum(1 for s in spaces if s in game.data.event_icons)
    items = sum(1 for s in spaces if s in game.data.item_icons)
    return max(0, events - game.charms), items


def repair_chance(action: Action, game: Game) -> int:
    """Chance of success in percent: min(10, minutes + bonus) / 10, or 0 when doomed (R7)."""
    if repair_doomed(action, game)[0]:
        return 0
    target = action.minutes + game.bonus(action.kind)
    return max(0, min(10, target)) * 10


def _notes(cat: Catalog, action: Action, game: Game) -> list[str]:
    cost = action_cost(action, game)
    if cost is None:
        return []
    if action.kind in REPAIRS or action.kind == "draw":
        penalty = low_water_penalty(game, action.kind)
        if not penalty:
            return [] if action.kind in REPAIRS else [cat.get("action_notes", "cost", minutes=cost)]
        return [cat.get("action_notes", "cost_penalty", minutes=cost)]
    here = game.gnomes[game.active].room
    penalty = action.kind in ("trade", "attack") and low_water_penalty(game, action.kind)
    notes = [cat.get("action_notes", "cost_penalty" if penalty else "cost", minutes=cost)]
    if action.kind == "open" and action.arg != SEA:
        level = game.water[action.arg]
        after = reflow_result(game, here, action.arg) if here != SEA else (0, level)
        state = _room_state(cat, game, action.arg, after[1])
        if here != SEA and after != (game.water[here], level):  # one note: what flows, and then
            state = [cat.get("action_notes", "reflow", state=", ".join(state))]  # R5: low
        notes += state
    return notes


def _room_state(cat: Catalog, game: Game, room: int, level: int) -> list[str]:
    """What the gnome would find beyond the hatch (water level after any reflow)."""
    if game.fire[room] and not level:
        return [cat.raw("action_notes", "burning")]
    if level == HIGH:
        return [cat.raw("action_notes", "high_water")]
    if level == LOW:
        return [cat.raw("action_notes", "low_water")]
    return []


def _main_text(cat: Catalog, action: Action, game: Game) -> str:
    k, arg = action.kind, action.arg
    active = game.gnomes[game.active] if game.active >= 0 else None
    here = active.room if active is not None else SEA
    if k == "open":
        return cat.raw("actions", "open_sea") if arg == SEA else \
            cat.get("actions", "open", room=n.room(cat, game, arg))
    if k == "enter":
        if game.opened == SEA:
            return cat.raw("actions", "enter_sea")
        key = "enter_from_sea" if here == SEA else "enter"
        return cat.get("actions", key, room=n.room(cat, game, game.opened))
    if k == "stay":
        return cat.get("actions", "stay", room=n.room(cat, game, here))
    if k == "play":
        item_id = game.data.items[arg].id
        help_key = "crowbar_mad" if item_id == "crowbar" and game.config.has("mad-gnomes") else item_id
        return cat.get("actions", "play", item=n.item(cat, game, arg),
                       help=cat.raw("item_help", help_key))
    if k == "unblock_hatch":
        return cat.get("actions", "unblock_hatch", room=n.room(cat, game, arg), minutes=action.minutes)
    if k in REPAIRS:
        return cat.get("actions", "repair", kind=n.action_kind(cat, k), minutes=action.minutes)
    if k == "draw":
        stock = game.data.draw_rooms.get(here, ("", 0))[0] == "captains_stock"
        return cat.get("actions", "draw_stock" if stock else "draw_deck", count=arg)
    if k in ("trade", "attack"):
        return cat.get("actions", k, gnome=n.gnome(cat, game, arg))
    if k == "abandon":
        return cat.get("actions", "abandon", minutes=game.ghost)
    if k == "end":
        return cat.raw("actions", "end" if game.phase == AFTER_ACTION else "end_no_action")
    if k in ("exit", "spread"):
        return cat.get("actions", k, room=n.room(cat, game, arg))
    if k == "block":
        room = game.pending[0].info if game.pending else here
        return cat.get("actions", "block", room=n.room(cat, game, room),
                       other=n.room(cat, game, arg))
    if k in ("discard", "keep"):
        return cat.get("actions", k, item=n.item(cat, game, arg))
    if k == "give":
        other = game.pending[0].info if game.pending else -1
        return cat.get("actions", "give", item=n.item(cat, game, arg),
                       gnome=n.gnome(cat, game, other))
    if k == "yield":
        return cat.get("actions", "yield", gnome=n.gnome(cat, game, game.decider))
    return cat.raw("actions", k)


def describe_action(action: Action, game: Game, lang: str = DEFAULT, short: bool = False) -> str:
    """A legal action of ``game`` as a menu line, with time, chance and R7 warnings:
    ``Fix Engine with 4 min (6 min incl. low water) — 70% chance``. ``short`` leaves out the
    repair's name (``4 min — 40% chance``), for a list of minute choices of one repair."""
    cat = catalog(lang)
    if short and action.kind in REPAIRS:
        text = cat.get("actions", "repair_short", minutes=action.minutes)
    else:
        text = _main_text(cat, action, game)
    notes = _notes(cat, action, game) if game.phase != DECIDE else []
    if notes:
        text += " (" + cat.join(notes) + ")"
    if action.kind in REPAIRS:
        doomed, token = repair_doomed(action, game)
        if doomed:
            return text + " — " + cat.get("action_notes", "doomed", token=n.token(cat, game, token))
        text += " — " + cat.get("action_notes", "chance", percent=repair_chance(action, game))
    return text


# --- decisions and results -------------------------------------------------------------------
def describe_decision(game: Game, lang: str = DEFAULT) -> str:
    """What the deciding player is asked right now."""
    cat = catalog(lang)
    if game.result is not None:
        return describe_result(game, lang)[0]
    if game.phase == DECIDE and game.pending:
        d = game.pending[0]
        return cat.get("decisions", d.kind, gnome=n.gnome(cat, game, d.gnome), limit=d.info,
                       room=n.room(cat, game, d.info) if d.kind == "block" else "",
                       other=n.gnome(cat, game, d.info) if d.kind in ("give", "defend") else "")
    active = n.gnome(cat, game, game.active)
    key = {MOVE: "move", OPENED: "opened", AFTER_ACTION: "after_action",
           EXTRA_MOVE: "extra_move"}.get(game.phase, "move")
    room = n.room(cat, game, game.opened) if game.phase == OPENED else ""
    return cat.get("decisions", key, gnome=active, minutes=game.ghost, ghost=game.ghost, room=room)


def describe_result(game: Game, lang: str = DEFAULT) -> list[str]:
    """The headline of a finished game, then one line per gnome (abandoners inverted)."""
    cat = catalog(lang)
    if game.result is None:
        return []
    if game.result.won:
        lines = [cat.raw("result", "won")]
    else:
        lines = [cat.get("result", "lost", cause=cat.raw("loss_causes", game.result.cause))]
    for gn in game.gnomes:
        won = outcome(game, gn.number)
        player = cat.get("ui", "player_long", seat=gn.player + 1)
        line = cat.get("result", "gnome_won" if won else "gnome_lost",
                       gnome=n.gnome(cat, game, gn.number), player=player)
        if gn.abandoned:
            line += " — " + cat.raw("result", "abandoned_note")
        lines.append(line)
    return lines


__all__ = ["ENTRY_ARGS", "VARIANTS", "action_cost", "describe_action", "describe_decision",
           "describe_entry", "describe_log", "describe_result", "low_water_penalty",
           "repair_chance", "repair_doomed", "template_keys", "keeper_walk"]
