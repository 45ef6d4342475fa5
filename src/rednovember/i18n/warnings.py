"""Warnings before a choice that harms the chooser or the crew, for every interface.

Each warning is a code with its fields (the web client renders it from the catalog's ``warnings``
section; the terminal with :func:`warning_texts`). They tell the player what the rules will do,
before the click: a burning room needs Grog or a Fire Extinguisher to go in, the Sea an
Aqualung, high water floods the room one opens from, a gnome left in fire or high water dies in
the Updates phase (§10): after its action it can no longer move, so one that enters fire must
put it out; a failed Extinguish Fire with no way out kills (P8), Fire Spreads into a fainted
gnome's room kills it, an attack kills its loser, and Abandon Comrades inverts the win condition.

:func:`loss_warning` is the one check both interfaces share before a choice that ends the game in a
loss with certainty (R9): the last keeper passing a destruction token (R12 on 0), a track filled,
the last gnome aboard dying. It never looks at what chance will bring (the dice, the order of the
decks): a choice that only may lose is not flagged."""

from __future__ import annotations

from typing import Any

from ..rules import SEA, Action, Game
from ..rules.apply import can_escape
from ..rules.data import REPAIRS
from ..rules.legal import reflow_result
from ..rules.state import AFTER_ACTION, EXTRA_MOVE, HIGH, MOVE, OPENED
from . import DEFAULT, catalog
from . import names as n
from .describe import action_cost

Warning = tuple[str, dict[str, Any]]

# The codes that ask for a confirmation before the click (the others are only shown).
LETHAL = frozenset({"dies_in_fire", "dies_in_flood", "no_way_out", "spread_fainted", "attack",
                    "abandon", "loses_token", "loses_track", "loses_crew"})

# Log entries that come from chance (a die, a hidden card): a simulated loss after one of them is
# not certain, and what follows it must not be shown (it would tell the future).
_CHANCE = frozenset({"repair", "event", "faint_check", "draw", "item_icon", "fight", "replacement"})
# Actions after which the active gnome's ghost can no longer go up: its keeper walks to it.
_TURN_ENDING = frozenset({"draw", "trade", "attack", "no_action", "end", "exit"})


def action_warnings(action: Action, game: Game) -> list[Warning]:
    """The warnings for a legal action of ``game`` (codes and fields; empty when harmless)."""
    loss = loss_warning(action, game)
    return _kind_warnings(action, game) + ([] if loss is None else [loss])


def _kind_warnings(action: Action, game: Game) -> list[Warning]:
    k = action.kind
    if k == "open":
        return _open_warnings(action.arg, game)
    if k == "extinguish_fire":
        return _extinguish_warnings(action, game)
    if k == "spread":
        return [("spread_fainted", {"gnome": gn.number}) for gn in game.gnomes
                if gn.on_board and gn.fainted and gn.room == action.arg]
    if k == "attack":
        return [("attack", {"gnome": action.arg})]
    if k == "abandon":
        return [("abandon", {})]
    if k == "enter" and game.opened != SEA and game.fire[game.opened]:
        return [("enter_fire", {"room": game.opened})]
    if k in ("end", "no_action"):  # after the action the gnome can no longer move (§5)
        return _hazard_at_updates(game)
    return []


def loss_warning(action: Action, game: Game) -> Warning | None:
    """Whether the legal ``action`` ends the game in a loss for the crew with certainty, and why:
    ``("loses_token", {"token": t, "space": s})`` (the last keeper passes a destruction token,
    R9/R12), ``("loses_track", {"track": t})`` (a disaster track filled) or ``("loses_crew", {})``
    (no gnome left aboard); None when it does not, or only may (a die or a card decides)."""
    if game.result is not None or action.kind == "abandon":  # its own warning: it wins then
        return None
    return _token_strike(action, game) or _simulated_loss(action, game) or _last_gnome_dies(
        action, game)


def _best_ghost(game: Game) -> int | None:
    """The latest space the active gnome's ghost can still end this turn on (every action of the
    Action phase costs a minute at least; after it the ghost stays); None in a decision."""
    if game.phase == AFTER_ACTION:
        return game.ghost
    if game.phase in (MOVE, OPENED, EXTRA_MOVE):
        return max(0, game.ghost - 1)
    return None


def _ghost_after(action: Action, game: Game) -> tuple[int, bool] | None:
    """Where the active gnome's ghost can end this turn at best once ``action`` is taken, and
    whether the action ends the turn (None: it does not tell, e.g. Abandon)."""
    k = action.kind
    if game.phase == AFTER_ACTION:
        return game.ghost, k == "end"
    cost = action_cost(action, game)
    if k in _TURN_ENDING or k in REPAIRS:
        return None if cost is None else (game.ghost - cost, True)
    if k == "abandon":
        return None
    if k == "stay" or (k == "play" and game.phase != MOVE):
        return max(0, game.ghost - 1), False  # a play in MOVE stays in MOVE: a minute to spend
    return max(0, game.ghost - (cost or 0) - 1), False


def _struck(game: Game, ghost: int) -> Warning | None:
    """R9/R12: the token that strikes once the active gnome's keeper has walked to ``ghost``:
    every keeper past it (or all on 0 with it there)."""
    others = [gn.keeper for gn in game.on_track() if gn.number != game.active]
    top = max([ghost, *others])
    for t, space in enumerate(game.tokens):
        if space > top or (space == 0 and top == 0):
            return ("loses_token", {"token": t, "space": space})
    return None


def _token_strike(action: Action, game: Game) -> Warning | None:
    """Does this choice make a destruction token strike for sure? Events met on the walk cannot
    lift a token, a repair that would clear it fails once the ghost has passed it (R7), a faint
    only sends the ghost further and a death takes the keeper off the track: the token strikes
    anyway. An action that ends the turn is flagged whenever it strikes (even if every choice
    does: the player must know); one that does not, only when it is what seals the loss."""
    before, after = _best_ghost(game), _ghost_after(action, game)
    if before is None or after is None:
        return None
    ghost, ends_turn = after
    if not ends_turn and _struck(game, before) is not None:
        return None
    return _struck(game, ghost)


def _simulated_loss(action: Action, game: Game) -> Warning | None:
    """Apply the action on a copy: a loss that comes before any die or card is certain (a
    repair rolls its die first: nothing to learn there)."""
    if action.kind in REPAIRS:
        return None
    twin = game.copy(keep_log=False)
    twin.apply(action)
    if twin.result is None or twin.result.won:
        return None
    if any(entry[0] in _CHANCE for entry in twin.log):
        return None
    return _loss_code(twin.result.cause, game)


def _loss_code(cause: str, game: Game) -> Warning:
    if cause in game.data.tracks:
        return ("loses_track", {"track": game.data.tracks.index(cause)})
    if cause in game.data.tokens:
        t = game.data.tokens.index(cause)
        return ("loses_token", {"token": t, "space": game.tokens[t]})
    return ("loses_crew", {})


def _last_gnome_dies(action: Action, game: Game) -> Warning | None:
    """Ending the turn in fire or high water, or in the Sea where the turn began, kills the gnome
    (§10) whatever the faint check draws: when it is the last gnome aboard (and no new one
    replaces it) the crew has lost."""
    if action.kind not in ("end", "no_action") or game.config.has("less-deadly-death"):
        return None
    out_of_air = game.gnomes[game.active].room == SEA and game.began_in_sea
    if not (_hazard_at_updates(game) or out_of_air) or len(game.on_track()) > 1:
        return None
    return ("loses_crew", {})


def warning_texts(action: Action, game: Game, lang: str = DEFAULT) -> list[str]:
    """The warnings as sentences in ``lang``."""
    cat = catalog(lang)
    out = []
    for code, fields in action_warnings(action, game):
        shown = {key: _shown(cat, game, key, v) for key, v in fields.items()}
        out.append(cat.get("warnings", code, **shown))
    return out


def _shown(cat: Any, game: Game, key: str, value: Any) -> Any:
    names = {"gnome": n.gnome, "room": n.room, "token": n.token, "track": n.track}
    return names[key](cat, game, value) if key in names else value


def _open_warnings(room: int, game: Game) -> list[Warning]:
    here = game.gnomes[game.active].room
    if room == SEA:  # leaving needs an Aqualung played this turn (§4)
        return [] if game.can_swim() else [("sea_needs_item", {})]
    level = reflow_result(game, here, room)[1] if here != SEA else game.water[room]
    out: list[Warning] = []
    if here != SEA and game.water[room] == HIGH and level != HIGH:
        out.append(("floods_here", {"room": room}))
    if game.fire[room] and not level and not game.can_enter_fire():
        out.append(("fire_needs_item", {"room": room}))
    return out


def _extinguish_warnings(action: Action, game: Game) -> list[Warning]:
    twin = game.copy(keep_log=False)
    twin.ghost -= action_cost(action, game) or 0
    return [] if can_escape(twin) else [("no_way_out", {})]


def _hazard_at_updates(game: Game) -> list[Warning]:
    room = game.gnomes[game.active].room
    if room == SEA:
        return []
    if game.fire[room]:
        return [("dies_in_fire", {"room": room})]
    if game.water[room] == HIGH:
        return [("dies_in_flood", {"room": room})]
    return []


__all__ = ["LETHAL", "Warning", "action_warnings", "loss_warning", "warning_texts"]
