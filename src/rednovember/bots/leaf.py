"""The search's judge of a position at a rollout's end (:func:`evaluate`): an estimate of the
crew's chance to win from public facts, a product of factors (:func:`leaf_factors`) for the
tracks against the coming events, the tokens, fires, water, the dead and the items.
"""

from __future__ import annotations

import math

from ..rules import Game
from .facts import poisson_tail
from .planning import DEFAULT_WEIGHTS, Analysis, Weights


def coming_failure(an: Analysis) -> float:
    """For the tokens not on the track, the summed chance that one comes within the horizon and
    the crew, placed as it is now, fails to remove it: Missile Control burning, under high water
    or walled off by blocked hatches, no gnome with time near it. The next icons are passed by
    the gnome that moves next (the highest keeper), so the token lands about its card's distance
    beyond that keeper; a gnome whose keeper is further on has that much less time."""
    g = an.g
    crew = [g.gnomes[n] for n in an.crew()]
    if not crew:
        return 0.0
    back = max(gn.keeper for gn in crew)
    total = 0.0
    for t, soon in enumerate(an.token_soon):
        if soon <= 0.0:
            continue
        repair = an.token_repair(t)
        room = g.data.room_repairs[repair].room
        fail = 1.0
        for gn in crew:
            budget = gn.keeper - back + an.token_distance[t] - 1
            fail *= 1 - 0.85 * an.chance_for(gn.number, repair, room, budget)
        total += soon * fail
    return total


# The terms of :func:`evaluate`'s product, in the order it multiplies them (a fitted leaf weighs
# the log of each term's factors: :func:`leaf_features`)
LEAF_TERMS = ("track_soon", "track_level", "token_on", "token_coming", "events", "fires",
              "blocked", "water", "dead", "items")


def evaluate(g: Game, player: int, w: Weights = DEFAULT_WEIGHTS,
             leaf: tuple[float, ...] = (), power: float = 1.0) -> float:
    """An estimate of the crew's chance to win from ``g`` (1 won, 0 lost), from public facts:
    the product of :func:`leaf_factors` (raised to ``power``), or with ``leaf`` (an intercept,
    then a coefficient per term of :data:`LEAF_TERMS`) the logistic of its weighted
    :func:`leaf_features`."""
    if g.result is not None:
        return final_value(g, player)
    factors = leaf_factors(g, player, w)
    if leaf:
        return weighted_logistic(leaf, leaf_features(factors))
    v = 1.0
    for _term, f in factors:
        v *= f
    return v if power == 1.0 else v**power


def final_value(g: Game, player: int) -> float:
    """A game over as a leaf scores it for seat ``player``: 1 won, 0 lost (a seat whose gnomes
    all abandoned ship counts the crew's result the other way round)."""
    assert g.result is not None
    mine = [gn for gn in g.gnomes if gn.player == player]
    abandoned = bool(mine) and all(gn.abandoned for gn in mine)
    return 1.0 if g.result.won != abandoned else 0.0


def weighted_logistic(coef: tuple[float, ...], features: list[float]) -> float:
    """The logistic of ``coef``'s intercept (its first entry) plus the rest weighing
    ``features`` one each, its argument clamped to [-30, 30]."""
    z = coef[0] + sum(c * x for c, x in zip(coef[1:], features, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def leaf_features(factors: list[tuple[int, float]]) -> list[float]:
    """Per term of :data:`LEAF_TERMS`, the summed log of its factors (0 for none)."""
    out = [0.0] * len(LEAF_TERMS)
    for term, f in factors:
        out[term] += math.log(max(f, 1e-9))
    return out


def leaf_factors(g: Game, player: int, w: Weights = DEFAULT_WEIGHTS,
                 an: Analysis | None = None) -> list[tuple[int, float]]:
    """The factors of :func:`evaluate`'s estimate for a game not over, each with its term (an
    index into :data:`LEAF_TERMS`): the tracks against the coming events, the tokens on the
    track against the gnomes' time, the tokens likely next, fires, blocked hatches, water, the
    dead and the items in hand."""
    if an is None:
        an = Analysis.of(g, player, g.active if g.active >= 0 else 0, w)
    data = g.data
    out: list[tuple[int, float]] = []
    length = data.track_length
    crew = an.crew()
    horizon = min(an.events_left, 3.0 * max(1, len(crew)) + 2)
    for t, lvl in enumerate(g.tracks):
        lam = an.rates[t] * horizon
        out.append((0, 1 - poisson_tail(lam, length - lvl)))
        future = an.rates[t] * an.events_left
        out.append((1, 1 - 0.03 * max(0, lvl - 1) * min(1.0, future / 4)))
    for t, space in enumerate(g.tokens):
        if space < 0:
            continue
        repair = an.token_repair(t)
        room = data.room_repairs[repair].room
        fail = 1.0
        for gn in g.gnomes:
            if gn.alive and not gn.abandoned and gn.keeper >= space:
                fail *= 1 - 0.85 * an.chance_for(gn.number, repair, room, gn.keeper - space)
        out.append((2, 1 - fail))
    out.append((3, 1 - w.token_prepare * coming_failure(an)))
    out.append((4, 0.985 ** an.events_left))
    fires = sum(g.fire[r] for r in data.rooms)
    key_fires = sum(1 for r in an.key_weight if r > 0 and g.fire[r])
    out.append((5, max(0.0, 1 - 0.02 * fires - 0.03 * key_fires)))
    out.append((6, max(0.0, 1 - 0.006 * sum(g.blocked))))
    low = sum(1 for r in data.rooms if g.water[r] == 1)
    high = sum(1 for r in data.rooms if g.water[r] == 2)
    out.append((7, max(0.0, 1 - 0.006 * low - 0.02 * high)))
    dead = sum(1 for gn in g.gnomes if not gn.alive)
    out.append((8, 0.8 ** dead))
    items = sum(len(gn.hand) for gn in g.gnomes if gn.alive)
    out.append((9, 1 + 0.004 * min(items, 6 * max(1, len(crew)))))
    return out
