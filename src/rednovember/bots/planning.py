"""What a sensible crew member knows about a position: threats, routes and the value of items.

Everything here reads only the *public* part of a :class:`~rednovember.rules.Game` (what
``game.view(player)`` shows): the board, the tracks and tokens, the gnomes and their keepers, the
discard piles, deck *sizes*, the captain's stock and the hands the deciding seat may see (all of
them, except other seats' hands in Mad Gnomes). It never reads deck order or the random state
(``event_deck`` / ``item_deck`` contents, ``rng``). The heuristic bot further decides from a
:func:`rednovember.rules.determinize` copy, so even an accidental read would see re-sampled cards.

The module gives a per-decision :class:`Analysis` (threat weights, distances, item values) and
:func:`plan_turn`, which lists the possible plans for the active gnome's turn (a route by real time
cost, items to play, an action with its minutes), each with an estimated value.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field, replace
from typing import Final, NamedTuple

from ..rules import SEA, Action, Game, GameData, determinize
from ..rules.action import ENTER, NO_ACTION, SHARED_ARGS, shared, shared_row
from ..rules.apply import NO_LOW_WATER_PENALTY
from ..rules.legal import reflow_levels
from ..rules.state import HIGH, LOW, NONE

SEED_MASK: Final = (1 << 62) - 1  # the bots derive their seeds within 62 bits


def decision_seed(seed: int, game: Game) -> int:
    """The seed of bot ``seed``'s decision at ``game``: its view's hidden cards and dice."""
    return (seed * 1_000_003 + len(game.history) * 7919 + game.turn) & SEED_MASK


@dataclass(frozen=True)
class Weights:
    """The heuristic's tunable constants (all values in "percent of a lost game")."""

    minute: float = 0.18  # cost of one minute of the gnome's time
    loss: float = 100.0  # a lost game
    death: float = 45.0  # the active gnome dies (a crew member and its items)
    faint: float = 9.0  # fainting: ten minutes lost and lying helpless
    track_horizon: float = 4.0  # events per gnome until the crew gets another chance at a track
    track_idle: float = 1.8  # value per track space reset, beyond the immediate danger
    fire: float = 4.0  # a fire anywhere (spreads, blocks the way, kills fainted gnomes)
    fire_key: float = 7.0  # extra for a fire in a room with a repair or a draw
    pump: float = 1.2  # low water anywhere
    pump_key: float = 3.5  # extra for low water in a room with a needed repair
    unblock: float = 0.35  # per unit of crew distance saved by opening a blocked hatch
    position: float = 0.45  # per room of distance to a key room nobody else covers
    token_other: float = 0.8  # how much another gnome's later chance at a token is trusted
    duplicate: float = 0.55  # a duplicate job: another gnome is closer and not busy
    item_scale: float = 1.0  # scales every item's holding value
    trade_margin: float = 0.4  # a give needs at least this much gain
    trade_gain: float = 0.5  # how much of the items' value moving in a trade counts
    # a token repair room's weight per unit of chance that the token's card comes (and lands on
    # the track) within the horizon: keep the way to Missile Control & co. open beforehand
    token_soon: float = 2.5
    # (search) share of the crew's failure at such a coming token counted as a lost game
    token_prepare: float = 0.3


DEFAULT_WEIGHTS = Weights()
# The heuristic bot's own weights: tuned on its own games (bench/tune_heuristic.py, issue 21):
# items were overvalued, a minute and a good position undervalued. On paired deals of every
# standard player count and 4-player variant it wins more (4 players +4.3 points on 3,000 deals,
# 3 players +6.3 on 2,000; bench/results/bots.md). The search, the win chance and the advisor keep
# DEFAULT_WEIGHTS: with these the search won the same 115 of 200 fresh 4-player deals.
HEURISTIC_WEIGHTS = replace(DEFAULT_WEIGHTS, minute=0.27, position=0.675, item_scale=0.6)


class Plan(NamedTuple):
    """One way to play the rest of the turn: steps to take now, then the action."""

    value: float
    steps: tuple[Action, ...]  # plays, opens and enters, bonus plays, then the action
    target: int  # the room where the action happens
    action: Action
    label: str


# Shared actions for the plans' steps (see rules.action.shared): a NamedTuple built anew runs
# Python-level code even compiled, and the plans of one decision hold thousands of steps.
_OPEN = shared_row()
_PLAY = shared_row()
_DRAW = shared_row()
_TRADE = shared_row()
_REPAIRS: dict[str, list[Action | None]] = {}  # by repair: index argument * 11 + minutes


def repair_action(kind: str, arg: int, minutes: int) -> Action:
    """``Action(kind, arg, minutes)``, shared (minutes 1..10, argument below SHARED_ARGS)."""
    if not (0 <= arg < SHARED_ARGS and 0 <= minutes <= 10):
        return Action(kind, arg, minutes)
    row = _REPAIRS.get(kind)
    if row is None:
        row = _REPAIRS[kind] = [None] * (SHARED_ARGS * 11)
    action = row[arg * 11 + minutes]
    if action is None:  # two threads may both make it: equal values, either is kept
        action = row[arg * 11 + minutes] = Action(kind, arg, minutes)
    return action


# --- public facts --------------------------------------------------------------------------------

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
_DECK_CACHE: dict[tuple[object, ...], tuple[list[float], list[float]]] = {}
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


@dataclass
class Analysis:
    """Threats and values of one position, from the point of view of one seat."""

    g: Game
    player: int
    me: int  # the gnome whose choice it is
    w: Weights
    dist: list[list[int]] = field(default_factory=list)
    dist_fire: list[list[int]] = field(default_factory=list)
    events_left: int = 0
    rates: list[float] = field(default_factory=list)  # expected steps per event, per track
    faint_p: list[float] = field(default_factory=list)  # P(faint) at intoxication 0..4
    need: dict[str, float] = field(default_factory=dict)  # how much each repair will matter
    key_weight: dict[int, float] = field(default_factory=dict)  # rooms worth standing near
    token_left: list[float] = field(default_factory=list)  # P(the rest of the crew fails a token)
    # per token not on the track: P(its card comes and places it within the horizon)
    token_soon: list[float] = field(default_factory=list)
    token_distance: list[int] = field(default_factory=list)  # spaces on its card places it
    item_ids: dict[str, int] = field(default_factory=dict)
    cache: dict[tuple[object, ...], float] = field(default_factory=dict)
    horizon: float = 0.0

    # -- construction --------------------------------------------------------------------------
    @classmethod
    def of(cls, g: Game, player: int, me: int, w: Weights = DEFAULT_WEIGHTS) -> Analysis:
        a = cls(g, player, me, w)
        a.item_ids = g.data.item_index
        a.dist = room_distances(g)
        a.dist_fire = room_distances(g, fire_ok=True)
        a._deck()
        a._needs()
        a._tokens()
        return a

    def _deck(self) -> None:
        g = self.g
        data = g.data
        flooded = sum(1 for r in data.rooms if g.water[r])
        key = (id(data), tuple(g.event_discard), tuple(g.event_out), g.kraken_aside, flooded)
        hit = _DECK_CACHE.get(key)
        if hit is None:
            if len(_DECK_CACHE) > 4096:
                _DECK_CACHE.clear()
            hit = _DECK_CACHE[key] = self._rates(flooded)
        self.rates, self.faint_p = hit
        left = 0
        for gn in g.gnomes:
            if gn.alive and not gn.abandoned:
                left += icons_between(data, 0, gn.keeper)
        self.events_left = left

    def _rates(self, flooded_rooms: int) -> tuple[list[float], list[float]]:
        """Expected track steps per event and P(faint) by intoxication, from the public piles."""
        g = self.g
        data = g.data
        counts = deck_counts(g)
        size = sum(counts)
        if size <= 0:  # the next draw reshuffles the discards: use the whole deck
            counts = [1] * len(data.events)
            size = len(counts)
        steps = [0.0, 0.0, 0.0]
        fires = 0.0
        faint = [0.0] * 5
        for c, n in enumerate(counts):
            if n <= 0:
                continue
            ev = data.events[c]
            for e in ev.effects:
                t = e["type"]
                if t == "track":
                    steps[data.tracks.index(e["track"])] += int(e["steps"]) * n
                elif t in ("fire", "fire_spreads"):
                    fires += n
            if ev.faint is not None:
                for x in range(ev.faint, 5):
                    faint[x] += n
        flooded = flooded_rooms / 10
        asph = data.tracks.index("asphyxiation")
        steps[asph] += fires * (1 - 0.5 * flooded)
        return [s / size for s in steps], [f / size for f in faint]

    def crew(self) -> list[int]:
        return [gn.number for gn in self.g.gnomes if gn.alive and not gn.abandoned]

    def _needs(self) -> None:
        g = self.g
        data = g.data
        w = self.w
        crew = max(1, len(self.crew()))
        horizon = min(self.events_left, w.track_horizon * crew + 2)
        self._soon(horizon)
        need: dict[str, float] = {}
        key: dict[int, float] = {}
        late = min(1.0, self.events_left / (6.0 * crew))
        for name, rep in data.room_repairs.items():
            v = 0.0
            if rep.track >= 0:
                lvl = g.tracks[rep.track]
                v += self.track_gain(rep.track, lvl, horizon) / 10
                v += 0.25 * late * (1 + lvl / 3)
            if rep.token >= 0 and g.tokens[rep.token] >= 0:
                v += 6.0
            elif rep.token >= 0:  # such a token may come: the likelier, the more it matters
                v += 0.6 * late + w.token_soon * self.token_soon[rep.token]
            need[name] = v
            key[rep.room] = key.get(rep.room, 0.0) + v
        fires = sum(g.fire[r] for r in data.rooms)
        need["extinguish_fire"] = 0.5 + 0.5 * fires
        need["pump_water"] = 0.2 + 0.3 * sum(1 for r in data.rooms if g.water[r] == LOW)
        need["unblock_hatch"] = 0.15 + 0.05 * sum(g.blocked)
        key[8] = key.get(8, 0.0) + 0.6 * late
        self.need = need
        self.key_weight = {r: v for r, v in key.items() if r != SEA}
        self.horizon = horizon

    def _soon(self, horizon: float) -> None:
        """P(a token's card is drawn, and places it on the track, within ``horizon`` events): only
        icons at least the card's distance from 0 can place it (R12; beyond 0 it is ignored)."""
        g = self.g
        share, distance = token_shares(g)
        self.token_distance = distance
        soon = [0.0] * len(g.tokens)
        for t, space in enumerate(g.tokens):
            if space >= 0 or share[t] <= 0.0:
                continue
            d = distance[t]
            draws = 0
            for gn in g.gnomes:
                if gn.alive and not gn.abandoned and gn.keeper > d:
                    draws += icons_between(g.data, d, gn.keeper)
            n = min(float(draws), horizon)
            soon[t] = 1.0 - (1.0 - min(1.0, share[t])) ** n if n > 0 else 0.0
        self.token_soon = soon

    def track_gain(self, track: int, level: int, horizon: float | None = None) -> float:
        """Value of resetting ``track`` from ``level`` (percent of a game): the danger of reaching
        the end before the crew's next chance, and the spaces saved while events remain."""
        g = self.g
        if level <= 1:
            return 0.0
        stars = [s for s in g.data.reset_stars if s < level] or [1]
        after = stars[-1]
        h = self.horizon if horizon is None else horizon
        rate = self.rates[track]
        lam = rate * h
        length = g.data.track_length
        danger = poisson_tail(lam, length - level) - poisson_tail(lam, length - after)
        future = rate * self.events_left  # spaces still to come on this track
        late = min(1.0, future / max(1.0, length - 1 - after))
        return self.w.loss * danger + self.w.track_idle * (level - after) * late

    def _tokens(self) -> None:
        """For each token on the track: the chance that the gnomes better placed than this one
        (a higher rough chance to clear it) all fail. Every gnome reasons alike, so the best
        placed gnome takes the job and the others do not count on each other."""
        g = self.g
        self.token_left = [1.0] * len(g.tokens)
        for t, space in enumerate(g.tokens):
            if space < 0:
                continue
            repair = self.token_repair(t)
            rep = g.data.room_repairs[repair]
            chances = []
            for gn in g.gnomes:
                if not gn.alive or gn.abandoned or gn.keeper < space:
                    continue
                p = self.chance_for(gn.number, repair, rep.room, gn.keeper - space)
                chances.append((p, -gn.number))
            me = g.gnomes[self.me]
            mine = (self.chance_for(self.me, repair, rep.room, me.keeper - space), -self.me) \
                if me.alive and me.keeper >= space else (0.0, -self.me)
            fail = 1.0
            for p, neg in chances:
                if (p, neg) > mine:
                    fail *= 1 - self.w.token_other * p
            self.token_left[t] = fail

    def token_repair(self, token: int) -> str:
        for name, rep in self.g.data.room_repairs.items():
            if rep.token == token:
                return name
        raise KeyError(token)

    def chance_for(self, number: int, repair: str, room: int, budget: int) -> float:
        """Rough chance that gnome ``number`` succeeds at ``repair`` in ``room`` using at most
        ``budget`` minutes including the walk (from the public position)."""
        g = self.g
        gn = g.gnomes[number]
        hand = visible_hand(g, number, self.player)
        items = g.data.items
        held: set[int] = set(hand) if hand is not None else set()
        here = gn.room
        if room == SEA:
            if hand is None or self.item_ids["aqualung"] not in hand:
                return 0.0
            walk = 0 if here == SEA else sea_distance(g, self.dist, here)
            pen = 0
        else:
            if here == SEA:
                walk = min(self.dist[b][room] for _, b in g.data.exits[SEA]) + 2
            else:
                fire_ok = bool(held & {self.item_ids["grog"], self.item_ids["fire_extinguisher"]})
                walk = (self.dist_fire if fire_ok else self.dist)[here][room]
            pen = 2 if g.water[room] == LOW else 0
            if g.fire[room]:
                return 0.0
        bonus = 0
        if hand is not None:
            for k in set(hand):
                bonus += items[k].bonus_to(repair)
        minutes = budget - walk - pen
        if minutes < 1:
            return 0.0
        return min(1.0, (minutes + bonus) / 10)

    # -- item values -----------------------------------------------------------------------------
    def item_value(self, number: int, kind: int, hand: list[int] | None = None,
                   owned: bool = True) -> float:
        """What one card of ``kind`` is worth to gnome ``number`` holding ``hand`` (default: its
        own): the last copy of it in the hand (``owned``), or one more copy (not ``owned``)."""
        g = self.g
        held = (hand if hand is not None else g.gnomes[number].hand).count(kind)
        copies = held if owned else held + 1
        key = ("item", number, kind, copies)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        v = min(12.0, self._item_base(number, kind)) * self.w.item_scale * (
            0.6 ** max(0, copies - 1))
        self.cache[key] = v
        return v

    def _item_base(self, number: int, kind: int) -> float:
        g = self.g
        gn = g.gnomes[number]
        item = g.data.items[kind]
        ids = self.item_ids
        here = gn.room
        v = 0.0
        for repair, b in item.bonus.items():
            if repair == "*":
                continue
            rep = g.data.room_repairs.get(repair)
            near = 1.0
            if rep is not None and here >= 0:
                d = self._walk(here, rep.room)
                near = 1.0 / (1.0 + d / 4.0)
            v += b * self.need.get(repair, 0.3) * (0.5 + near)
        if item.bonus.get("*"):
            tot = sum(self.need.values())
            v += 0.35 * item.bonus["*"] * min(6.0, tot)
        if item.enters_fire:
            v += 0.8 + 0.5 * sum(g.fire[r] for r in g.data.rooms)
        if kind == ids.get("grog"):
            v *= 1 - 0.5 * self.faint_p[min(4, gn.intoxication + 1)]
        if item.enables_sea:
            kt = g.data.tokens.index("kraken")
            v += 8.0 if g.tokens[kt] >= 0 else 1.2
        if item.ignore_event_icons:
            v += 3.0
        if item.intoxication < 0:
            v += 0.4 + 0.9 * gn.intoxication
        if item.enables_attack and g.config.has("mad-gnomes"):
            v += 2.5
        return v

    def _walk(self, here: int, room: int) -> int:
        g = self.g
        if here == SEA and room == SEA:
            return 0
        if room == SEA:
            return sea_distance(g, self.dist, here)
        if here == SEA:
            return min(self.dist[b][room] for _, b in g.data.exits[SEA]) + 2
        return min(12, self.dist[here][room])

    def hand_values(self, number: int) -> list[tuple[float, int]]:
        """(value, kind) of each card in gnome ``number``'s hand, the value of losing it."""
        hand = self.g.gnomes[number].hand
        return [(self.item_value(number, k, hand), k) for k in hand]

    # -- positions -------------------------------------------------------------------------------
    def position_value(self, room: int, number: int) -> float:
        """How well a gnome standing in ``room`` covers the key rooms nobody else covers."""
        key = ("pos", room, number)
        cached = self.cache.get(key)
        if cached is None:
            cached = self.cache[key] = self._position(room, number)
        return cached

    def _position(self, room: int, number: int) -> float:
        g = self.g
        if room == SEA:
            return -2.0
        v = 0.0
        for key, weight in self.key_weight.items():
            if weight <= 0:
                continue
            mine = self.dist[room][key]
            other = 99
            for gn in g.gnomes:
                if gn.number == number or not gn.alive or gn.abandoned or gn.room < 0:
                    continue
                if gn.room == SEA:
                    continue
                other = min(other, self.dist[gn.room][key])
            gap = min(6, other) - min(6, mine)
            v += weight * self.w.position * max(-1.0, gap) / 3.0
        if g.water[room] == LOW:
            v -= 0.6
        v -= 0.3 * sum(1 for _, b in g.data.exits[room] if b != SEA and g.fire[b])
        return v


# --- routes ----------------------------------------------------------------------------------------

def routes(g: Game, me: int, room: int, ghost: int, fire_state: int, sea_state: int,
           hand: list[int]) -> dict[tuple[int, int, int], tuple[int, list[Action], int]]:
    """Dijkstra over (room, fire pass, sea pass) from the given start, by minutes.

    Returns ``{(room, fire_item, sea_item): (minutes, steps, water_at_arrival)}``; passes are
    bought by playing an item (fire: Grog or Fire Extinguisher; Sea: Aqualung) just before they
    are needed."""
    data = g.data
    ids = data.item_index
    grog, ext, lung = ids["grog"], ids["fire_extinguisher"], ids["aqualung"]
    start = (room, fire_state, sea_state)
    best: dict[tuple[int, int, int], tuple[int, list[Action], int]] = {
        start: (0, [], g.water[room] if room != SEA else NONE)}
    heap: list[tuple[int, int, tuple[int, int, int]]] = [(0, 0, start)]
    counter = 1
    water = g.water
    while heap:
        cost, _, node = heapq.heappop(heap)
        have = best[node]
        if have[0] < cost:
            continue
        a, fi, si = node
        steps = have[1]
        left = ghost - cost
        for h, b in data.exits[a]:
            if g.blocked[h] or left < 1:
                continue
            need_fire = False
            if b == SEA:
                if si == -1:
                    continue
                step_cost, arrive = 2, NONE
            elif a == SEA:
                if water[b] == HIGH:
                    continue
                need_fire = g.fire[b]
                step_cost, arrive = 2, water[b]
            else:  # R15: from low water into high the hatch may not even be opened
                wb = reflow_levels(water[a], water[b])[1]
                if wb == HIGH:
                    continue
                need_fire = g.fire[b] and wb == NONE
                step_cost, arrive = 1 + (1 if wb == LOW else 0), wb
            if need_fire and fi == -1:
                continue
            if step_cost > left:
                continue
            counter = _push(best, heap, counter, (b, fi, si), cost + step_cost,
                            steps, (shared(_OPEN, "open", b), ENTER), arrive)
        # buying passes (0 minutes)
        if fi == -1:
            for k in (ext, grog):
                if k in hand:
                    counter = _push(best, heap, counter, (a, k, si), cost,
                                    steps, (shared(_PLAY, "play", k),), have[2])
        if si == -1 and lung in hand and a in (3, 6, 9):
            counter = _push(best, heap, counter, (a, fi, lung), cost,
                            steps, (shared(_PLAY, "play", lung),), have[2])
    return best


def _push(best: dict[tuple[int, int, int], tuple[int, list[Action], int]],
          heap: list[tuple[int, int, tuple[int, int, int]]], counter: int,
          key: tuple[int, int, int], c: int, steps: list[Action], more: tuple[Action, ...],
          wat: int) -> int:
    """Record reaching ``key`` in ``c`` minutes by ``steps`` and ``more`` if that is the best
    way yet; the next tie-breaking counter."""
    old = best.get(key)
    if old is None or c < old[0]:
        best[key] = (c, steps + list(more), wat)
        heapq.heappush(heap, (c, counter, key))
        return counter + 1
    return counter


# --- turn plans --------------------------------------------------------------------------------


REPAIRS_WITH_ITEMS = ("extinguish_fire", "pump_water", "unblock_hatch")
WASTE_CHANCE = 0.5  # a repair below this chance must not leave a helping item in the hand


def repair_chance(g: Game, plan: Plan) -> float | None:
    """The success chance of the repair ``plan`` ends in (items played this turn and by the plan
    counted), or None if it does not end in a repair."""
    act = plan.action
    if act.minutes <= 0 or (act.kind not in g.data.room_repairs
                            and act.kind not in REPAIRS_WITH_ITEMS):
        return None
    items = g.data.items
    bonus = g.bonus(act.kind)
    for step in plan.steps:
        if step.kind == "play":
            bonus += items[step.arg].bonus_to(act.kind)
    return min(1.0, (act.minutes + bonus) / 10)


def with_minutes(plan: Plan, minutes: int) -> Plan:
    """``plan`` with its repair taking ``minutes`` instead (the same steps before it)."""
    act = plan.action
    action = repair_action(act.kind, act.arg, minutes)
    return plan._replace(steps=plan.steps[:-1] + (action,), action=action)


def wasteful(g: Game, plan: Plan) -> bool:
    """A long-shot repair (under :data:`WASTE_CHANCE`) while the gnome keeps, unplayed, an item
    made for exactly that repair (a Pump Manual on Fix Oxygen Pumps, a Water Pump on Pump Water;
    Grog's bonus to everything does not count: it has its own price)."""
    p = repair_chance(g, plan)
    if p is None or p >= WASTE_CHANCE:
        return False
    hand = list(g.gnomes[g.active].hand)
    for step in plan.steps:
        if step.kind == "play" and step.arg in hand:
            hand.remove(step.arg)
    items = g.data.items
    return any(items[k].bonus.get(plan.action.kind, 0) > 0 for k in hand)


def sound(g: Game, plans: list[Plan], limit: int = 0) -> list[Plan]:
    """``plans`` without the :func:`wasteful` ones (all of them if every one is), ``limit`` kept."""
    kept: list[Plan] = []
    for p in plans:
        if not wasteful(g, p):
            kept.append(p)
            if len(kept) == limit:
                break
    kept = kept or plans
    return kept[:limit] if limit > 0 else kept



def plan_turn(an: Analysis, limit: int = 0) -> list[Plan]:
    """Every sensible plan for the active gnome's turn (the game must be in the move phase),
    best first. ``limit`` > 0 keeps only that many."""
    g = an.g
    gn = g.gnomes[g.active]
    fire_state = -2 if g.can_enter_fire() else -1
    sea_state = -2 if g.can_swim() else -1
    return plans_from(an, gn.room, g.ghost, fire_state, sea_state, list(gn.hand), (), limit)


def plans_from(an: Analysis, room: int, ghost: int, fire_state: int, sea_state: int,
               hand: list[int], prefix: tuple[Action, ...], limit: int = 0) -> list[Plan]:
    g = an.g
    me = g.active
    out: list[Plan] = []
    table = routes(g, me, room, ghost, fire_state, sea_state, hand)
    for (r, fi, si), (cost, steps, water) in table.items():
        used = [k for k in (fi, si) if k >= 0]
        if used:  # a pass that does not shorten the way to r is not worth buying here
            plain = table.get((r, fire_state if fi >= 0 else fi, sea_state if si >= 0 else si))
            if plain is not None and plain[0] <= cost and not (fi >= 0 and g.fire[r]):
                continue
        left_hand = hand[:]
        for k in used:
            left_hand.remove(k)
        t = ghost - cost
        base = prefix + tuple(steps)
        for plan in _tasks(an, r, water, t, cost, used, left_hand, base):
            out.append(plan)
    out.sort(key=lambda p: -p.value)
    return out[:limit] if limit > 0 else out


def _faint_cost(an: Analysis, intox_after: int, in_sea: bool) -> float:
    p = an.faint_p[min(4, intox_after)]
    return p * (an.w.death if in_sea else an.w.faint)


class _Spot:
    """What every plan ending in one room shares (the room, the minutes left, the cards, what
    the plan has paid already) and the repair plans made there. A class rather than closures
    in ``_tasks``: compiled, closures form a reference cycle with their scope, so each call
    left the analysis and its plans for the garbage collector (a fifth of a rollout's time)."""

    def __init__(self, an: Analysis, r: int, t: int, hand: list[int], base: tuple[Action, ...],
                 played: list[int], intox: int, grog_now: bool, fixed: float, end_pos: float,
                 out: list[Plan]) -> None:
        self.an = an
        self.r = r
        self.t = t
        self.hand = hand
        self.base = base
        self.played = played
        self.intox = intox
        self.grog_now = grog_now
        self.in_sea = r == SEA
        self.sea_return = -3.0 if r == SEA else 0.0
        self.fixed = fixed
        self.end_pos = end_pos
        self.out = out

    def bonus_of(self, repair: str, extra: list[int]) -> int:
        items = self.an.g.data.items
        tot = 0
        for k, n in enumerate(self.played):
            if n:
                tot += n * items[k].bonus_to(repair)
        for k in extra:
            tot += items[k].bonus_to(repair)
        return tot

    def repair_plans(self, repair: str, arg: int, gain: float, penalty: int, token_space: int,
                     token_gain: float, label: str, fail_cost: float = 0.0) -> None:
        """Choose items and minutes for a repair; ``token_gain`` needs the ghost to stay on or
        before ``token_space`` after paying."""
        an = self.an
        g = an.g
        w = an.w
        data = g.data
        gn = g.gnomes[g.active]
        grog = an.item_ids["grog"]
        t = self.t
        in_sea = self.in_sea
        avail = t - penalty
        if avail < 1:
            return
        # candidate bonus items, best bonus per cost first
        cands: list[tuple[float, int, int]] = []
        seen: dict[int, int] = {}
        for k in self.hand:
            bon = data.items[k].bonus_to(repair)
            if bon <= 0:
                continue
            seen[k] = seen.get(k, 0) + 1
            cost = an.item_value(gn.number, k, gn.hand) * (1 + 0.3 * (seen[k] - 1))
            cands.append((cost / bon, k, bon))
        cands.sort()
        extra: list[int] = []
        prefixes = [list(extra)]
        for _, k, _ in cands[:4]:
            extra = extra + [k]
            prefixes.append(list(extra))
        for ex in prefixes:
            bonus = self.bonus_of(repair, ex)
            item_cost = sum(an.item_value(gn.number, k, gn.hand) for k in ex)
            grogs = ex.count(grog)
            faint = 0.0
            if grogs:
                new_intox = self.intox + grogs
                faint = _faint_cost(an, new_intox, in_sea) - (
                    _faint_cost(an, self.intox, in_sea) if self.grog_now else 0.0)
            tries = {1, max(1, 10 - bonus), avail}
            if token_space >= 0:
                tries.add(t - penalty - token_space)
            for m in sorted(tries):
                if m < 1 or m > avail or m > 10:
                    continue
                p = min(1.0, (m + bonus) / 10)
                value_gain = gain
                if token_space >= 0 and t - penalty - m >= token_space:
                    value_gain += token_gain
                if value_gain <= 0:
                    continue
                v = (value_gain * p - fail_cost * (1 - p) - w.minute * (m + penalty) + self.fixed
                     - item_cost - faint + self.end_pos + self.sea_return)
                action = repair_action(repair, arg, m)
                steps = self.base + tuple(shared(_PLAY, "play", k) for k in ex) + (action,)
                self.out.append(Plan(v, steps, self.r, action, label))


def _tasks(an: Analysis, r: int, water: int, t: int, walked: int, used: list[int],
           hand: list[int], base: tuple[Action, ...]) -> list[Plan]:
    """Plans ending in an action in room ``r`` reached with ``t`` minutes left."""
    g = an.g
    w = an.w
    data = g.data
    gn = g.gnomes[g.active]
    ids = an.item_ids
    grog = ids["grog"]
    out: list[Plan] = []
    in_sea = r == SEA
    # the items this plan plays for passes: their holding value, and Grog's faint risk
    pass_cost = sum(an.item_value(gn.number, k, gn.hand) for k in used)
    grog_now = g.grog_used or grog in used
    intox = gn.intoxication + (1 if grog in used else 0)
    base_faint = _faint_cost(an, intox, in_sea) if grog_now else 0.0
    if g.grog_used:
        base_faint -= _faint_cost(an, gn.intoxication, in_sea)  # the check happens anyway
    played = g.played[:]
    for k in used:
        played[k] += 1
    fixed = -w.minute * walked - pass_cost - base_faint
    end_pos = an.position_value(r, gn.number)

    # dangers of ending the turn here
    burning = r != SEA and g.fire[r] and water == NONE
    if r != SEA and water == HIGH:
        return out  # only No Action, and the gnome dies at Updates
    if in_sea and g.began_in_sea and walked == 0:
        return out  # the air runs out
    spot = _Spot(an, r, t, hand, base, played, intox, grog_now, fixed, end_pos, out)
    if burning:
        gain = _fire_value(an, r)
        escape = _has_escape(g, r, t)
        fail = 0.0 if escape else w.death
        spot.repair_plans("extinguish_fire", 0, gain, 0, -1, 0.0, "fire", fail)
        return out

    low = water == LOW
    pen = 2 if low else 0
    # room repairs
    for name, rep in data.room_repairs.items():
        if rep.room != r:
            continue
        gain = 0.0
        tok_space = -1
        tok_gain = 0.0
        if rep.track >= 0 and g.tracks[rep.track] > 1:
            gain = an.track_gain(rep.track, g.tracks[rep.track])
        if rep.token >= 0 and g.tokens[rep.token] >= 0 and gn.keeper >= g.tokens[rep.token]:
            tok_space = g.tokens[rep.token]
            tok_gain = w.loss * an.token_left[rep.token] + 8.0
        if gain <= 0 and tok_space < 0:
            continue
        if gain > 0:
            gain *= _duplicate(an, r, rep.room)
        penalty = 0 if name in NO_LOW_WATER_PENALTY else pen
        spot.repair_plans(name, 0, gain, penalty, tok_space, tok_gain, name)
    if r != SEA:
        if low:
            gain = _pump_value(an, r) * _duplicate(an, r, r)
            spot.repair_plans("pump_water", 0, gain, 0, -1, 0.0, "pump")
        for h, other in data.exits[r]:
            if g.blocked[h]:
                gain = _unblock_value(an, h)
                if gain > 0:
                    spot.repair_plans("unblock_hatch", other, gain, pen, -1, 0.0, "unblock")
        # draw items
        spec = data.draw_rooms.get(r)
        if spec is not None and gn.drew_room < 0:
            source, most = spec
            if source == "captains_stock":
                have = g.stock
                unit = an.item_value(gn.number, grog, hand, owned=False)
            else:
                have = len(g.item_deck) + len(g.item_discard)
                unit = _mean_item_value(an, gn.number)
            held = len(hand)
            for n in range(1, min(most, have, t - pen) + 1):
                gain = sum(unit * (0.8 ** (i + max(0, held - 3))) for i in range(n))
                v = gain - w.minute * (n + pen) + fixed + end_pos
                draw = shared(_DRAW, "draw", n)
                out.append(Plan(v, base + (draw,), r, draw, "draw"))
        # trade
        if t - pen >= 1:
            for o in g.gnomes:
                if o is gn or not o.alive or o.abandoned or o.room != r:
                    continue
                gain = _trade_gain(an, gn.number, o.number, hand)
                if gain > 0:
                    v = gain - w.minute * (1 + pen) + fixed + end_pos
                    trade = shared(_TRADE, "trade", o.number)
                    out.append(Plan(v, base + (trade,), r, trade, "trade"))
    if t >= 1:
        v = -w.minute + fixed + end_pos + spot.sea_return
        out.append(Plan(v, base + (NO_ACTION,), r, NO_ACTION, "wait"))
    return out


def _duplicate(an: Analysis, r: int, room: int) -> float:
    """Discount for a job another gnome standing closer will take soon."""
    g = an.g
    me = g.gnomes[g.active]
    mine = an._walk(me.room, room) if me.room >= 0 else 99
    for gn in g.gnomes:
        if gn is me or not gn.alive or gn.abandoned or gn.room < 0 or gn.room == SEA:
            continue
        d = an.dist[gn.room][room]
        if d < mine and d <= 1 and gn.keeper >= me.keeper - 4:
            return 1 - an.w.duplicate
    return 1.0


def _has_escape(g: Game, r: int, t: int) -> bool:
    for h, b in g.data.exits[r]:
        if g.blocked[h] or b == SEA:
            continue
        if g.water[b] == HIGH or g.fire[b]:
            continue
        if t >= 2 + (1 if g.water[b] == LOW else 0):
            return True
    return False


def _fire_value(an: Analysis, r: int) -> float:
    g = an.g
    w = an.w
    v = w.fire
    if r in an.key_weight or r in g.data.draw_rooms:
        v += w.fire_key * (0.5 + min(2.0, an.key_weight.get(r, 0.5)))
    asph = g.data.tracks.index("asphyxiation")
    lvl = g.tracks[asph]
    # Fire Spreads and Fire on a burning room push Asphyxiation: its marginal danger
    lam = an.rates[asph] * an.horizon
    v += w.loss * (poisson_tail(lam, g.data.track_length - lvl - 1)
                   - poisson_tail(lam, g.data.track_length - lvl)) * 0.5
    for gn in g.gnomes:
        if (gn.alive and not gn.abandoned and gn.fainted and gn.room > 0
                and any(b == gn.room for _, b in g.data.exits[r])):
            v += 3.0
    return v


def _pump_value(an: Analysis, r: int) -> float:
    g = an.g
    v = an.w.pump + an.w.pump_key * min(2.0, an.key_weight.get(r, 0.0))
    for gn in g.gnomes:
        if gn.alive and not gn.abandoned and gn.fainted and gn.room == r:
            v += 4.0
    return v


def crew_walk_saved(an: Analysis, before: list[list[int]], after: list[list[int]]) -> float:
    """Weighted minutes the gnomes aboard save walking to the key rooms, from ``before`` to
    ``after`` room distances (negative when the ways get longer)."""
    saved = 0.0
    for key, weight in an.key_weight.items():
        wt = 0.3 + min(3.0, weight)
        for gn in an.g.gnomes:
            if gn.alive and not gn.abandoned and gn.room > 0:
                saved += wt * (min(12, before[gn.room][key]) - min(12, after[gn.room][key]))
    return saved


def _unblock_value(an: Analysis, h: int) -> float:
    g = an.g
    cached = an.cache.get(("unblock", h))
    if cached is not None:
        return cached
    saved = crew_walk_saved(an, an.dist, room_distances(g, opened=h))
    an.cache[("unblock", h)] = value = an.w.unblock * saved
    return value


def _mean_item_value(an: Analysis, number: int) -> float:
    g = an.g
    total = 0.0
    n = 0
    for k, item in enumerate(g.data.items):
        c = item.count - (g.data.stock_count if k == g.data.stock_item else 0)
        if c > 0:
            total += c * an.item_value(number, k, owned=False)
            n += c
    return total / max(1, n)


def _trade_gain(an: Analysis, a: int, b: int, hand_a: list[int]) -> float:
    """Total gain if each card moves to whichever of the two gnomes values it more."""
    g = an.g
    gain = 0.0
    hand_b = visible_hand(g, b, an.player)
    for k in set(hand_a):
        d = an.item_value(b, k, hand_b or [], owned=False) - an.item_value(a, k, hand_a)
        if d > an.w.trade_margin:
            gain += d
    if hand_b:
        for k in set(hand_b):
            d = an.item_value(a, k, hand_a, owned=False) - an.item_value(b, k, hand_b)
            if d > an.w.trade_margin:
                gain += d
    return gain * an.w.trade_gain
