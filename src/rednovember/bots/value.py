"""A learned judge of a rollout's end (issue 21, stop 56; ``search:valued``): the logistic of
public features of a position (:func:`value_features`, named in :data:`VALUE_FEATURES`), fitted to
how the heuristic crew's own games end (``bench/fit_value.py``). The plain leaf
(:func:`rednovember.bots.leaf.evaluate`) is a hand-made product; this one weighs what the
product leaves out: each track's level and the events still to hit it, each token's slack, the
key rooms' fire, water and nearest gnome, the items in hand by kind, the keepers' spread.
"""

from __future__ import annotations

from ..rules import Game
from .facts import visible_hand
from .leaf import LEAF_TERMS, final_value, leaf_factors, leaf_features, weighted_logistic
from .planning import DEFAULT_WEIGHTS, Analysis, Weights

# the rooms whose fire, water and nearest gnome are features of their own: the three track
# repairs' rooms and Missile Control (data/board.json)
KEY_ROOMS = (1, 2, 4, 7)
FAR = 8  # the distance counted for a key room no gnome on board can reach


def _names(tracks: int, tokens: int, items: int) -> tuple[str, ...]:
    out = [f"log {t}" for t in LEAF_TERMS]
    for t in range(tracks):
        out += [f"track {t} level", f"track {t} hits to come"]
    for t in range(tokens):
        out += [f"token {t} on", f"token {t} slack", f"token {t} soon"]
    for r in KEY_ROOMS:
        out += [f"room {r} fire", f"room {r} water", f"room {r} nearest gnome"]
    out += ["fires", "low water", "high water", "blocked hatches"]
    out += [f"items of kind {k}" for k in range(items)]
    return (*out, "keepers' spread", "keepers' mean lead", "events left", "dead",
            "intoxication", "grog used", "charms", "crew")


# one name per feature of :func:`value_features` (3 tracks, 4 tokens, 13 item kinds)
VALUE_FEATURES = _names(3, 4, 13)


def value_features(g: Game, player: int, w: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """The features of ``g`` (a game not over) that seat ``player`` may see, in the order of
    :data:`VALUE_FEATURES`: the plain leaf's log-terms first, then what it leaves out."""
    an = Analysis.of(g, player, g.active if g.active >= 0 else 0, w)
    out = leaf_features(leaf_factors(g, player, w, an))
    crew = [g.gnomes[n] for n in an.crew()]
    keepers = [gn.keeper for gn in crew] or [0]
    for t, level in enumerate(g.tracks):
        out += [float(level), an.rates[t] * an.events_left]
    for t, space in enumerate(g.tokens):
        on = space >= 0
        out += [float(on), float(max(keepers) - space if on else 0), an.token_soon[t]]
    for r in KEY_ROOMS:
        near = [an.dist[gn.room][r] for gn in crew if gn.room > 0]
        out += [float(g.fire[r]), float(g.water[r]), float(min(near, default=FAR))]
    rooms = g.data.rooms
    out += [float(sum(g.fire[r] for r in rooms)), float(sum(g.water[r] == 1 for r in rooms)),
            float(sum(g.water[r] == 2 for r in rooms)), float(sum(g.blocked))]
    kinds = [0.0] * len(g.data.items)
    for gn in crew:
        for k in visible_hand(g, gn.number, player) or ():
            kinds[k] += 1.0
    out += kinds
    return out + [float(max(keepers) - min(keepers)), sum(keepers) / len(keepers) - min(keepers),
                  float(an.events_left), float(sum(not gn.alive for gn in g.gnomes)),
                  float(sum(gn.intoxication for gn in crew)), float(g.grog_used),
                  float(g.charms), float(len(crew))]


def valued(g: Game, player: int, w: Weights, coef: tuple[float, ...]) -> float:
    """The crew's chance to win from ``g`` as ``coef`` (an intercept, then one coefficient per
    feature of :data:`VALUE_FEATURES`) judges it: the logistic of the weighted
    :func:`value_features`; a game over is 1 won, 0 lost (as in the plain leaf)."""
    if g.result is not None:
        return final_value(g, player)
    return weighted_logistic(coef, value_features(g, player, w))
