"""Public facts of a position that every bot reads: deck contents as far as the public piles
tell them, the tokens likely next, distances between rooms, a public twin to determinise.

Everything here reads only the *public* part of a :class:`~rednovember.rules.Game` (what
``game.view(player)`` shows). It never reads deck order or the random state (``event_deck`` /
``item_deck`` contents, ``rng``).
"""

from __future__ import annotations

import math
from typing import Final

from ..rules import SEA, Game, GameData, determinize
from ..rules.state import HIGH, LOW

SEED_MASK: Final = (1 << 62) - 1  # the bots derive their seeds within 62 bits


def decision_seed(seed: int, game: Game) -> int:
    """The seed of bot ``seed``'s decision at ``game``: its view's hidden cards and dice."""
    return (seed * 1_000_003 + len(game.history) * 7919 + game.turn) & SEED_MASK



def deck_counts(g: Game) -> list[int]:
    """How many copies of each event card id the event deck may hold (from public piles only)."""
    n = len(g.data.events)
    gone = [0] * n
    for c in g.event_discard:
        gone[c] += 1
    for c in g.event_out:
        gone[c] += 1
    if g.kraken_aside:
        gone[g.data.set_aside] += 1
    return [1 - x for x in gone]


def icons_between(data: GameData, low: int, high: int) -> int:
    """How many event icons lie on time-track spaces ``low .. high - 1`` (from a prefix count
    made once per board: the bots ask this for every gnome at every decision)."""
    below = _BELOW_CACHE.get(id(data))  # [n]: icons on spaces 0 .. n - 1
    if below is None:
        icons = data.event_icons
        top = max(icons, default=0) + 1
        below = _BELOW_CACHE[id(data)] = [sum(1 for s in icons if s < n) for n in range(top + 1)]
    last = len(below) - 1
    if high <= low:
        return 0
    return below[min(last, max(0, high))] - below[min(last, max(0, low))]


def public_twin(g: Game, player: int, seed: int) -> Game:
    """A determinisation of ``g`` for seat ``player`` that depends only on what the seat may see.

    The hidden parts (the order of both decks and, in Mad Gnomes, the other seats' hands) are
    first put in a canonical order, then :func:`rednovember.rules.determinize` re-samples them
    (and the dice) from ``seed``. Two games that differ only in hidden information give the same
    twin, so a bot deciding on it cannot depend on hidden information at all."""
    c = g.copy(keep_log=False)
    c.event_deck.sort()
    c.item_deck.sort()
    if g.config.has("mad-gnomes"):
        others = [gn for gn in c.gnomes if gn.player != player and gn.hand]
        pool = sorted(c.item_deck + [k for gn in others for k in gn.hand])
        for gn in others:
            n = len(gn.hand)
            gn.hand, pool = pool[:n], pool[n:]
        c.item_deck = pool
    return determinize(c, player, seed)


def visible_hand(g: Game, number: int, player: int) -> list[int] | None:
    """The hand of gnome ``number`` as seat ``player`` may see it (None: hidden, Mad Gnomes)."""
    gn = g.gnomes[number]
    if g.config.has("mad-gnomes") and gn.player != player:
        return None
    return gn.hand


def poisson_tail(lam: float, k: int) -> float:
    """P(X >= k) for X ~ Poisson(lam)."""
    if k <= 0:
        return 1.0
    if lam <= 0:
        return 0.0
    term = math.exp(-lam)
    cdf = term
    for i in range(1, k):
        term *= lam / i
        cdf += term
    return max(0.0, 1.0 - cdf)


_DIST_CACHE: dict[tuple[object, ...], list[list[int]]] = {}
_BELOW_CACHE: dict[int, list[int]] = {}  # by id(GameData)
_SHARE_CACHE: dict[tuple[object, ...], tuple[list[float], list[int]]] = {}


def token_shares(g: Game) -> tuple[list[float], list[int]]:
    """Per destruction token: the share of the event deck's cards that place it (from the public
    piles, :func:`deck_counts`; the whole deck if the next draw reshuffles) and how many spaces
    on such a card places it (the largest; 0 if no card does). Do not modify (cached)."""
    key = (id(g.data), tuple(g.event_discard), tuple(g.event_out), g.kraken_aside)
    hit = _SHARE_CACHE.get(key)
    if hit is None:
        if len(_SHARE_CACHE) > 4096:
            _SHARE_CACHE.clear()
        hit = _SHARE_CACHE[key] = _token_shares(g)
    return hit


def _token_shares(g: Game) -> tuple[list[float], list[int]]:
    data = g.data
    counts = deck_counts(g)
    size = sum(c for c in counts if c > 0)
    if size <= 0:
        counts = [1] * len(data.events)
        size = len(counts)
    share = [0.0] * len(data.tokens)
    distance = [0] * len(data.tokens)
    for c, ev in enumerate(data.events):
        for e in ev.effects:
            if e["type"] == "token":
                t = data.tokens.index(str(e["token"]))
                distance[t] = max(distance[t], int(e["distance"]))
                share[t] += max(0, counts[c]) / size
    return share, distance


def room_distances(g: Game, fire_ok: bool = False, opened: int = -1) -> list[list[int]]:
    """All-pairs walking minutes between interior rooms (hatch 1, low water +1, high water and
    burning rooms impassable unless ``fire_ok``), ignoring the Sea. 99 = unreachable. Hatch
    ``opened`` counts as unblocked (to value unblocking it). Do not modify the result (cached)."""
    if fire_ok and not any(g.fire):
        fire_ok = False  # nothing burns: the same distances
    key = (id(g.data), tuple(g.blocked), tuple(g.water), tuple(g.fire) if not fire_ok else (),
           fire_ok, opened)
    hit = _DIST_CACHE.get(key)
    if hit is None:
        if len(_DIST_CACHE) > 4096:
            _DIST_CACHE.clear()
        if opened >= 0 and g.blocked[opened]:
            hit = _through(g, room_distances(g, fire_ok), opened, fire_ok)
        else:
            hit = _distances(g, fire_ok)
        _DIST_CACHE[key] = hit
    return hit


def _through(g: Game, dist: list[list[int]], h: int, fire_ok: bool) -> list[list[int]]:
    """``dist`` with hatch ``h`` open as well. A shortest way crosses the new hatch at most
    once, so each distance is the old one or the way to one side, into the other side, and on
    from there: all pairs at once, without searching the board again."""
    x, y = g.data.hatches[h]
    out = [row[:] for row in dist]
    if x == SEA or y == SEA:
        return out
    for a, b in ((x, y), (y, x)):
        if g.water[b] == HIGH or (g.fire[b] and not fire_ok):
            continue  # b cannot be entered: the hatch leads nowhere this way
        enter = 1 + (1 if g.water[b] == LOW else 0)
        beyond = dist[b]
        for src, row in enumerate(out):
            if src == SEA or dist[src][a] >= 99:
                continue
            to_b = dist[src][a] + enter
            for t, d in enumerate(beyond):
                if to_b + d < row[t]:
                    row[t] = to_b + d
    return out


def _distances(g: Game, fire_ok: bool) -> list[list[int]]:
    """A search from every room by whole minutes: a step costs 1 or 2, so the rooms first
    reached at minute d + 1 or d + 2 wait in two lists while those at d are expanded (Dial's
    algorithm; any shortest-path search gives the same distances, this one without a heap)."""
    data = g.data
    n = len(data.room_keys)
    enter = [0] * n  # minutes to step into each room; 0: it cannot be entered
    for b in range(n):
        if b != SEA and g.water[b] != HIGH and not (g.fire[b] and not fire_ok):
            enter[b] = 2 if g.water[b] == LOW else 1
    ways = [[b for h, b in data.exits[a] if enter[b] and not g.blocked[h]] for a in range(n)]
    out: list[list[int]] = []
    for src in range(n):
        dist = [99] * n
        out.append(dist)
        if src == SEA:
            continue
        dist[src] = 0
        now = [src]
        one: list[int] = []  # reached at d + 1
        two: list[int] = []  # reached at d + 2
        d = 0
        while now or one or two:
            for a in now:
                if dist[a] != d:
                    continue  # reached sooner since it was listed
                for b in ways[a]:
                    step = enter[b]
                    if d + step < dist[b]:
                        dist[b] = d + step
                        if step == 1:
                            one.append(b)
                        else:
                            two.append(b)
            now, one, two = one, two, []
            d += 1
    return out


def sea_distance(g: Game, dist: list[list[int]], room: int) -> int:
    """Minutes from an interior room to the Sea (through 3, 6 or 9; needs an Aqualung)."""
    best = 99
    for _h, b in g.data.exits[SEA]:
        best = min(best, dist[room][b] + 2)
    return best
