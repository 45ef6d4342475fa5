"""What a sensible crew member knows about a position: threats, the value of places and items.

Everything here reads only the *public* part of a :class:`~rednovember.rules.Game` (what
``game.view(player)`` shows): the board, the tracks and tokens, the gnomes and their keepers, the
discard piles, deck *sizes*, the captain's stock and the hands the deciding seat may see (all of
them, except other seats' hands in Mad Gnomes). It never reads deck order or the random state
(``event_deck`` / ``item_deck`` contents, ``rng``). The heuristic bot further decides from a
:func:`rednovember.rules.determinize` copy, so even an accidental read would see re-sampled cards.

The module gives the heuristic's :class:`Weights` and a per-decision :class:`Analysis` (threat
weights, distances, item values); :mod:`rednovember.bots.plans` lists the possible plans for the
active gnome's turn from it, and :mod:`rednovember.bots.facts` holds the public facts both read.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

from ..rules import SEA, Action, Game
from ..rules.state import LOW
from .facts import (
    deck_counts,
    icons_between,
    poisson_tail,
    room_distances,
    sea_distance,
    token_shares,
    visible_hand,
)

_DECK_CACHE: dict[tuple[object, ...], tuple[list[float], list[float]]] = {}


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
