"""Hidden information: what a seat cannot know, and undo limits.

:func:`determinize` gives a copy of the game in which everything a seat cannot see is re-sampled
consistently with what it can see: deck orders, future dice, and (Mad Gnomes) the other seats' hands.
Bots that look ahead use it, so they never cheat.

:func:`undo` takes back the last action when the rules allow: only within the current turn's
reversible part — never past a die roll, a card draw, revealed information or another player's
decision (``Game.undo_barrier``).
"""

from __future__ import annotations

from .action import ActionError
from .game import Game
from .rng import Rng
from .serialize import replay


def determinize(g: Game, player: int | None, seed: int) -> Game:
    """A copy of ``g`` with what ``player`` cannot see re-sampled from ``seed``."""
    twin = g.copy(keep_log=False)
    rng = Rng(seed)
    twin.rng = Rng(rng.below(1 << 62))
    rng.shuffle(twin.event_deck)
    if g.config.has("mad-gnomes"):
        others = [gn for gn in twin.gnomes if gn.player != player and gn.hand]
        pool = twin.item_deck + [k for gn in others for k in gn.hand]
        rng.shuffle(pool)
        for gn in others:
            n = len(gn.hand)
            gn.hand, pool = pool[:n], pool[n:]
        twin.item_deck = pool
    else:
        rng.shuffle(twin.item_deck)
    return twin


def can_undo(g: Game) -> bool:
    """Whether the last action may be taken back (within the turn, after the last barrier)."""
    return g.result is None and len(g.history) > g.undo_barrier


def undo(g: Game) -> Game:
    """The game as it was before its last action (replayed from the origin)."""
    if not can_undo(g):
        raise ActionError("nothing to undo: the last action revealed information, rolled a die, "
                          "drew a card, or ended the turn")
    return replay(g.data, g.config, g.origin, g.history[:-1])
