"""Property tests of the rules engine: whole games of arbitrary legal choices.

Every configuration (1..8 players, every gnome count the rules allow, every subset of the variants)
is played to the end with choices drawn by Hypothesis or a seeded generator, and after EVERY step:

* :func:`rednovember.rules.invariants.check` passes (cards conserved, tokens within supply, no room
  both burning and flooded, keepers on 60..0, the ghost never behind its keeper, ...);
* while the game goes on, ``legal_actions`` is non-empty, has no duplicate and belongs to a gnome
  on the board; once it is over it is empty and ``apply`` refuses everything;
* keepers only move towards 0, the dead stay dead, the history grows by one action per step;
* sometimes an action that is not legal is tried: it raises ActionError and changes nothing.

Periodically and at the end: the JSON save round trip and the replay from the history both give the
same state, copies are independent, action texts parse back, and in Mad Gnomes no seat's view shows
another seat's hand. Every game ends (a generous step cap).

The default run is reproducible (the "ci" Hypothesis profile of tests/conftest.py: derandomised, no
example database) and takes seconds; ``HYPOTHESIS_PROFILE=explore`` draws new examples on every run,
50 times as many, and remembers failures. ``RN_PROPERTY_SCALE=10`` (or more) multiplies the examples
and the seeded games by ten.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rednovember.rules import (
    VARIANTS,
    Action,
    ActionError,
    Config,
    Game,
    load_data,
    new_game,
    parse_action,
)
from rednovember.rules.action import INT_ARG, ITEM_ARG, KINDS, NO_ARG, ROOM_ARG
from rednovember.rules.invariants import check
from rednovember.rules.scenario import build
from rednovember.rules.serialize import from_json, replay, to_dict, to_json
from rednovember.rules.view import log_for

SCALE = max(1, int(os.environ.get("RN_PROPERTY_SCALE", "1")))
STEP_CAP = 5_000  # the longest random games take ~300 steps; every game must end well before
EXAMPLES = 2 * settings.default.max_examples * SCALE  # the profile's: 200 in "ci"

PROPERTY_SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.large_base_example])

# Every (players, gnomes per player) the rules allow; None: the default (one gnome each, 3+ players).
SETUPS: list[tuple[int, int | None]] = ([(1, k) for k in range(3, 9)] + [(2, 2)]  # R16
                                        + [(p, None) for p in range(3, 9)])
VARIANT_SETS = [frozenset(c) for r in range(len(VARIANTS) + 1)
                for c in itertools.combinations(VARIANTS, r)]


# --- choosing actions --------------------------------------------------------------------------
Policy = Callable[[Game, list[Action], random.Random], Action]


def uniform(g: Game, legal: list[Action], rng: random.Random) -> Action:
    return rng.choice(legal)


def repairer(g: Game, legal: list[Action], rng: random.Random) -> Action:
    """Mostly the biggest repair on offer (games last longer and reach more of the track)."""
    repairs = [a for a in legal if a.is_repair]
    if repairs and rng.random() < 0.8:
        return max(repairs, key=lambda a: a.minutes)
    return rng.choice(legal)


def item_player(g: Game, legal: list[Action], rng: random.Random) -> Action:
    """Plays items and trades eagerly (hand decisions, fights, fainting, the item reshuffle)."""
    eager = [a for a in legal if a.kind in ("play", "trade", "attack", "give", "draw", "defend")]
    if eager and rng.random() < 0.7:
        return rng.choice(eager)
    return rng.choice(legal)


def first(g: Game, legal: list[Action], rng: random.Random) -> Action:
    return legal[0] if rng.random() < 0.9 else rng.choice(legal)


def last(g: Game, legal: list[Action], rng: random.Random) -> Action:
    return legal[-1] if rng.random() < 0.9 else rng.choice(legal)


POLICIES: dict[str, Policy] = {"uniform": uniform, "repairer": repairer, "items": item_player,
                               "first": first, "last": last}


def candidate_actions(g: Game) -> list[Action]:
    """Plausible and implausible actions of every kind (most are illegal at any moment)."""
    rooms = range(-1, len(g.data.room_keys) + 1)
    out = [Action(k) for k in NO_ARG]
    out += [Action(k, r) for k in ROOM_ARG for r in rooms]
    out += [Action(k, i) for k in ITEM_ARG for i in range(len(g.data.items))]
    out += [Action(k, n) for k in INT_ARG for n in range(-1, 10)]
    out += [Action(k, 0, m) for k in KINDS - NO_ARG - ROOM_ARG - ITEM_ARG - INT_ARG
            for m in (0, 1, 5, 10, 11)]
    out += [Action("unblock_hatch", r, m) for r in rooms for m in (1, 10)]
    out += [Action("no_action", 1), Action("end", 0, 1), Action("fly"), Action("open", 99)]
    return out


# --- checks ------------------------------------------------------------------------------------
class Watcher:
    """Checks one game after every step, against what it saw the step before."""

    def __init__(self, g: Game) -> None:
        self.keepers = [gn.keeper for gn in g.gnomes]
        self.alive = [gn.alive for gn in g.gnomes]
        self.abandoned = [gn.abandoned for gn in g.gnomes]
        self.steps = len(g.history)
        self.turn = g.turn
        self.after(g)

    def after(self, g: Game) -> None:
        check(g)
        legal = g.legal_actions()
        if g.is_over:
            assert legal == []
            assert g.decider == -1 and g.player_to_move == -1
        else:
            assert legal, f"no legal action in phase {g.phase}"
            assert len(set(legal)) == len(legal), f"duplicate legal actions {legal}"
            assert 0 <= g.player_to_move < g.config.players
            assert g.gnomes[g.decider].on_board
        for gn in g.gnomes:
            n = gn.number
            assert gn.keeper <= self.keepers[n], f"keeper {n} moved back"
            if not self.alive[n]:
                assert not gn.alive, f"gnome {n} came back to life"
            if self.abandoned[n]:
                assert gn.abandoned
            if g.config.has("less-deadly-death"):
                assert gn.alive, "Less Deadly Death: nobody stays dead"
        assert g.turn >= self.turn
        assert len(g.history) == self.steps
        self.keepers = [gn.keeper for gn in g.gnomes]
        self.alive = [gn.alive for gn in g.gnomes]
        self.abandoned = [gn.abandoned for gn in g.gnomes]
        self.turn = g.turn

    def apply(self, g: Game, action: Action) -> None:
        g.apply(action)
        self.steps += 1
        self.after(g)


def try_illegal(g: Game, rng: random.Random) -> None:
    """An action that is not legal now raises ActionError and leaves everything as it was."""
    legal = list(g.legal_actions())
    pool = [a for a in candidate_actions(g) if a not in legal]
    action = rng.choice(pool)
    before = to_dict(g)
    with pytest.raises(ActionError):
        g.apply(action)
    assert to_dict(g) == before
    assert g.legal_actions() == legal
    with pytest.raises(ActionError):  # the text form is not an Action: refused too
        g.apply(action.text(g.data))  # type: ignore[arg-type]


def round_trips(g: Game) -> None:
    """The JSON save loads (replay-verified) to the same state; the replay reaches it too."""
    saved = to_dict(g)
    assert to_dict(from_json(to_json(g))) == saved
    assert to_dict(replay(g.data, g.config, g.origin, g.history)) == saved


def texts_parse_back(g: Game) -> None:
    for a in g.legal_actions():
        assert parse_action(a.text(g.data), g.data) == a


def copy_is_independent(g: Game, rng: random.Random) -> None:
    """A copy is equal; playing on in the copy leaves the original untouched."""
    before = to_dict(g)
    twin = g.copy()
    assert to_dict(twin) == before
    look = g.copy(keep_log=False)
    for sim in (twin, look):
        for _ in range(rng.randint(1, 6)):
            if sim.is_over:
                break
            sim.apply(rng.choice(sim.legal_actions()))
            check(sim)
    assert to_dict(g) == before


def views_hide_hands(g: Game) -> None:
    """Views never show the decks or the random state; Mad Gnomes hides other seats' hands."""
    hidden = g.config.has("mad-gnomes")
    for player in [None, *range(g.config.players)]:
        v = g.view(player)
        assert "rng" not in v and "event_deck" not in v and "item_deck" not in v
        for gs, gn in zip(v["gnomes"], g.gnomes, strict=True):
            assert gs["hand_size"] == len(gn.hand)
            if hidden and gn.player != player:
                assert gs["hand"] is None, f"seat {player} sees gnome {gn.number}'s hand"
            else:
                assert gs["hand"] == [g.item_name(k) for k in gn.hand]
        if player is not None and player == g.player_to_move:
            assert v["legal"] == [a.text(g.data) for a in g.legal_actions()]
        else:
            assert v["legal"] == []
        if hidden:
            for e in log_for(g, player):
                if e[0] == "draw" and g.gnomes[e[1]].player != player:
                    assert isinstance(e[2], int), f"seat {player} reads another's draw {e}"
                if e[0] == "give" and player not in (g.gnomes[e[1]].player,
                                                     g.gnomes[e[2]].player):
                    assert e[3] == -1


def play_out(g: Game, choose: Callable[[Game, list[Action]], Action], rng: random.Random, *,
             illegal: float = 0.0, every: int = 0, views: bool = False) -> Game:
    """Play ``g`` to its end, checking every step; ``every`` > 0: the periodic checks too."""
    w = Watcher(g)
    if views:
        views_hide_hands(g)
    while not g.is_over:
        assert len(g.history) < STEP_CAP, "the game does not end"
        legal = g.legal_actions()
        if illegal and rng.random() < illegal:
            try_illegal(g, rng)
        w.apply(g, choose(g, legal))
        if views and (len(g.history) % 3 == 0 or g.is_over):
            views_hide_hands(g)
        if every and len(g.history) % every == 0:
            round_trips(g)
            texts_parse_back(g)
            copy_is_independent(g, rng)
    assert g.result is not None
    for a in candidate_actions(g)[:5]:
        with pytest.raises(ActionError):
            g.apply(a)
    return g


# --- a plain seeded sweep: ~2,000 games over every setup and variant set ----------------------
GAMES_PER_SETUP = 136 * SCALE  # x 15 setups = 2,040 games


@pytest.mark.parametrize(("players", "per"), SETUPS, ids=[f"{p}p{k or 1}g" for p, k in SETUPS])
def test_sweep_every_setup(players: int, per: int | None) -> None:
    names = list(POLICIES)
    causes: set[str] = set()
    for i in range(GAMES_PER_SETUP):
        variants = VARIANT_SETS[i % len(VARIANT_SETS)]
        policy = POLICIES[names[(i // len(VARIANT_SETS)) % len(names)]]
        seed = players * 1_000_000 + (per or 0) * 10_000 + i
        rng = random.Random(seed)
        g = new_game(Config(players, per, variants, seed))
        play_out(g, chooser([], policy, rng), rng, illegal=0.01)
        assert g.result is not None
        causes.add(g.result.cause)
        if i % 17 == 0:
            round_trips(g)
    assert len(causes) >= 3, f"suspiciously few ways to end: {causes}"


# --- Hypothesis -------------------------------------------------------------------------------
setups = st.sampled_from(SETUPS)
variant_sets = st.frozensets(st.sampled_from(VARIANTS))
seeds = st.integers(min_value=-(2**63), max_value=2**64)
choice_streams = st.lists(st.integers(min_value=0, max_value=2**16), max_size=400)


def chooser(choices: list[int], policy: Policy, rng: random.Random
            ) -> Callable[[Game, list[Action]], Action]:
    """The drawn choices first (index modulo the number of legal actions), then the policy."""
    it = iter(choices)

    def choose(g: Game, legal: list[Action]) -> Action:
        n = next(it, None)
        return legal[n % len(legal)] if n is not None else policy(g, legal, rng)

    return choose


@PROPERTY_SETTINGS
@given(setup=setups, variants=variant_sets, seed=seeds, choices=choice_streams,
       policy=st.sampled_from(sorted(POLICIES)), rng_seed=st.integers(0, 2**32))
def test_games_keep_every_invariant(setup: tuple[int, int | None], variants: frozenset[str],
                                    seed: int, choices: list[int], policy: str,
                                    rng_seed: int) -> None:
    players, per = setup
    rng = random.Random(rng_seed)
    g = new_game(Config(players, per, variants, seed))
    play_out(g, chooser(choices, POLICIES[policy], rng), rng, illegal=0.05, every=50)
    round_trips(g)


@PROPERTY_SETTINGS
@given(setup=setups, variants=variant_sets, seed=seeds, choices=choice_streams,
       rng_seed=st.integers(0, 2**32))
def test_mad_gnomes_views_never_show_other_hands(setup: tuple[int, int | None],
                                                 variants: frozenset[str], seed: int,
                                                 choices: list[int], rng_seed: int) -> None:
    players, per = setup
    rng = random.Random(rng_seed)
    g = new_game(Config(players, per, variants | {"mad-gnomes"}, seed))
    play_out(g, chooser(choices, item_player, rng), rng, views=True)


@PROPERTY_SETTINGS
@given(setup=setups, variants=variant_sets, seed=seeds, prefix=st.integers(0, 300),
       action=st.builds(Action, st.sampled_from(sorted(KINDS) + ["fly", ""]),
                        st.integers(-3, 64), st.integers(-1, 12)),
       rng_seed=st.integers(0, 2**32))
def test_any_action_is_either_legal_or_refused_without_change(
        setup: tuple[int, int | None], variants: frozenset[str], seed: int, prefix: int,
        action: Action, rng_seed: int) -> None:
    players, per = setup
    rng = random.Random(rng_seed)
    g = new_game(Config(players, per, variants, seed))
    while not g.is_over and len(g.history) < prefix:
        g.apply(rng.choice(g.legal_actions()))
    before = to_dict(g)
    if action in g.legal_actions():
        g.apply(action)
        check(g)
        assert len(g.history) == len(before["history"]) + 1
    else:
        with pytest.raises(ActionError):
            g.apply(action)
        assert to_dict(g) == before


@PROPERTY_SETTINGS
@given(setup=setups, variants=variant_sets, seed=seeds, rng_seed=st.integers(0, 2**32),
       points=st.lists(st.integers(0, 300), min_size=1, max_size=4))
def test_copies_are_independent_and_equal(setup: tuple[int, int | None],
                                          variants: frozenset[str], seed: int, rng_seed: int,
                                          points: list[int]) -> None:
    players, per = setup
    rng = random.Random(rng_seed)
    g = new_game(Config(players, per, variants, seed))
    marks = set(points)
    while not g.is_over:
        if len(g.history) in marks:
            copy_is_independent(g, rng)
        g.apply(rng.choice(g.legal_actions()))
    copy_is_independent(g, rng)


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """An arranged position (rednovember.rules.scenario), mostly late in the game: keepers near 0,
    tokens, fire, water, blocked hatches, drunk or fainted gnomes, the Kraken card on top..."""
    data = load_data()
    players, per = draw(setups)
    n = players * (per or 1)
    rooms = st.integers(1, len(data.room_keys) - 1)
    fire = draw(st.sets(rooms, max_size=4))
    water = draw(st.dictionaries(rooms.filter(lambda r: r not in fire),
                                 st.sampled_from(["low", "high"]), max_size=4))
    interior = [list(h) for h in data.hatches[:data.interior_count]]
    blocked = draw(st.lists(st.sampled_from(interior), unique_by=tuple,
                            max_size=data.blocked_tokens))
    tracks = draw(st.fixed_dictionaries({}, optional={
        t: st.integers(1, data.track_length - 1) for t in data.tracks}))
    tokens = draw(st.fixed_dictionaries({}, optional={t: st.integers(0, 30) for t in data.tokens}))
    left = {k.id: k.count - (data.stock_count if i == data.stock_item else 0)
            for i, k in enumerate(data.items)}
    gnomes = []
    late = st.one_of(st.integers(1, 12), st.integers(1, 60))
    for _ in range(n):
        hand = []
        for _ in range(draw(st.integers(0, 3))):
            name = draw(st.sampled_from(sorted(k for k, c in left.items() if c > 0)))
            left[name] -= 1
            hand.append(name)
        gnomes.append({"room": draw(st.integers(0, len(data.room_keys) - 1)),
                       "keeper": draw(late), "intoxication": draw(st.integers(0, 4)),
                       "fainted": draw(st.booleans()), "hand": hand})
    spec: dict[str, Any] = {
        "format": "rednovember-scenario", "version": 1, "name": "property",
        "config": {"players": players, "gnomes_per_player": per,
                   "variants": sorted(draw(variant_sets)), "seed": draw(seeds)},
        "position": {"gnomes": gnomes, "fire": sorted(fire),
                     "water": {str(r): v for r, v in water.items()}, "blocked": blocked,
                     "tracks": tracks, "tokens": tokens,
                     "stack": draw(st.permutations(range(n)))},
        "dice": draw(st.lists(st.integers(1, 10), max_size=4)),
    }
    if draw(st.booleans()):
        spec["event_deck"] = ["kraken"]
    if draw(st.booleans()):  # most of the item deck in the discards: reshuffles soon
        pool = sorted(k for k, c in left.items() for _ in range(c))
        keep = draw(st.integers(0, 6))
        spec["item_discard"] = draw(st.permutations(pool))[:max(0, len(pool) - keep)]
    if draw(st.booleans()):  # most event cards already discarded: the Kraken is shuffled in soon
        aside = data.events[data.set_aside].kind
        kinds = [c.kind for i, c in enumerate(data.events) if i != data.set_aside]
        size = draw(st.integers(0, len(kinds)))
        spec["event_discard"] = [k for k in draw(st.permutations(kinds))[:size] if k != aside]
    return spec


@PROPERTY_SETTINGS
@given(spec=scenarios(), choices=choice_streams, policy=st.sampled_from(sorted(POLICIES)),
       rng_seed=st.integers(0, 2**32))
def test_arranged_late_positions_play_out(spec: dict[str, Any], choices: list[int], policy: str,
                                          rng_seed: int) -> None:
    """From arranged positions (wins, Abandon Comrades, the Kraken, tokens on 0 are reached here
    far more often than from the start) every game still keeps every invariant and replays."""
    rng = random.Random(rng_seed)
    g = build(spec)
    assert g.origin is not None
    play_out(g, chooser(choices, POLICIES[policy], rng), rng, illegal=0.05, every=11,
             views=g.config.has("mad-gnomes"))
    round_trips(g)


def test_same_seed_same_game() -> None:
    """R2: the same configuration and the same choices give the same game, byte for byte."""
    def game() -> dict[str, Any]:
        rng = random.Random(5)
        g = new_game(Config(4, None, frozenset({"harder"}), 99))
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        return to_dict(g)

    assert to_json_text(game()) == to_json_text(game())


def to_json_text(d: dict[str, Any]) -> str:
    import json

    return json.dumps(d, sort_keys=True)
